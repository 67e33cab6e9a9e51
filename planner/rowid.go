package planner

import (
	"math/rand/v2"
	"sync/atomic"

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

// tempRowIDs hands out the row ids of temporary tables without a primary
// key: in order, since a temporary table lives in the proxy's own store,
// where no hot spot is to be avoided, and in one shard, so that it reads
// back in the order its rows were inserted, as a PostgreSQL heap that has
// seen no update or delete does (clients' tests often expect it). The
// counter is the process's; the temporary store starts empty with it.
var tempRowIDs atomic.Int64

func nextTempRowID(*ir.EvalContext, []sqltypes.Value) (sqltypes.Value, error) {
	return sqltypes.NewInt(tempRowIDs.Add(1)), nil
}
