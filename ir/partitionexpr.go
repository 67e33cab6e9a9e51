package ir

import (
	"sync"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Partition key expressions (PARTITION BY RANGE ((lower(name)))): the
// catalog keeps each expression part's deparsed text
// (catalog.Partitioning.Exprs); every stage that routes rows computes it
// through catalog.PartitionExprEval, and the optimizer matches a query's
// expressions with it to prune (BindPartitionExpr).

// PartitionExprBinder binds expression part i of t's partition key over
// a row of t; the planner registers it (its init), since binding is the
// planner's.
var PartitionExprBinder func(t *catalog.Table, i int) (Expr, error)

// partitionExprs holds each (table descriptor, key part) pair's bound
// expression. Descriptors are immutable once built (a changed table is a
// Clone), so the pair identifies the text and the column layout it was
// bound over; the cache is emptied when it grows past boundCacheMax.
var partitionExprs struct {
	sync.RWMutex
	m map[partitionExprKey]Expr
}

type partitionExprKey struct {
	t    *catalog.Table
	part int
}

// BindPartitionExpr returns expression part i of t's partition key,
// bound once per descriptor.
func BindPartitionExpr(t *catalog.Table, i int) (Expr, error) {
	key := partitionExprKey{t, i}
	partitionExprs.RLock()
	e, ok := partitionExprs.m[key]
	partitionExprs.RUnlock()
	if ok {
		return e, nil
	}
	e, err := PartitionExprBinder(t, i)
	if err != nil {
		return nil, err
	}
	partitionExprs.Lock()
	if partitionExprs.m == nil || len(partitionExprs.m) >= boundCacheMax {
		partitionExprs.m = map[partitionExprKey]Expr{}
	}
	partitionExprs.m[key] = e
	partitionExprs.Unlock()
	return e, nil
}

// Partition key expressions are immutable (PARTITION BY refuses others),
// so they are evaluated with the fixed context index expressions are,
// and every writer routes a row alike.
func init() {
	catalog.PartitionExprEval = func(t *catalog.Table, i int, row []sqltypes.Value) (sqltypes.Value, error) {
		e, err := BindPartitionExpr(t, i)
		if err != nil {
			return sqltypes.Value{}, err
		}
		ctx := indexEvalCtx
		return e.Eval(&ctx, row)
	}
}
