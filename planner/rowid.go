package planner

import (
	"math/rand/v2"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// newRowID returns a row id for a table without a primary key: 63 random
// bits. Random ids spread inserts over the whole key space (a sequence
// would send every insert to the end of one partition, the hot spot the
// schema-design rules warn about), and are unique with overwhelming
// probability; an insert that still meets an existing id fails its
// not-exists condition and is retried with new ids (executor).
func newRowID(*ir.EvalContext, []sqltypes.Value) (sqltypes.Value, error) {
	return sqltypes.NewInt(int64(rand.Uint64() >> 1)), nil
}
