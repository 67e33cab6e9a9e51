package planner

import (
	"sync/atomic"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// newRowID returns a row id for a table without a primary key
// (catalog.NextRowID): ids grow in insertion order, and an insert that
// meets an id another proxy drew fails its not-exists condition and is
// retried with new ids (executor).
func newRowID(*ir.EvalContext, []sqltypes.Value) (sqltypes.Value, error) {
	return sqltypes.NewInt(catalog.NextRowID()), nil
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
