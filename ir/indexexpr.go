package ir

import (
	"sync"
	"time"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// BoundIndex is an expression or partial index's text bound over a row of
// its table (see catalog/indexexpr.go).
type BoundIndex struct {
	// Keys holds, per key part, the bound expression (nil for a column).
	Keys []Expr
	// Pred is the bound predicate, nil for an index of every row.
	Pred Expr
}

// IndexBinder binds an index's expressions and predicate over a row of
// t; the planner registers it (its init), since binding is the planner's,
// while every stage that computes entries (the optimizer's matching, the
// executor's writes, builds and sweeps) needs the result.
var IndexBinder func(t *catalog.Table, ix *catalog.Index) (*BoundIndex, error)

// boundCache holds each (table, index) descriptor pair's binding.
// Descriptors are immutable once built (a changed table is a Clone), so
// the pair identifies the text and the column layout it was bound over;
// the cache is emptied when it grows past boundCacheMax, which bounds what
// it keeps of descriptors no snapshot uses any more.
var boundCache struct {
	sync.RWMutex
	m map[[2]any]*BoundIndex
}

const boundCacheMax = 4096

// BindIndex returns ix's bound expressions and predicate, binding them
// once per descriptor. An index of columns only has nothing to bind (nil).
func BindIndex(t *catalog.Table, ix *catalog.Index) (*BoundIndex, error) {
	if ix.Plain() {
		return nil, nil
	}
	key := [2]any{t, ix}
	boundCache.RLock()
	b, ok := boundCache.m[key]
	boundCache.RUnlock()
	if ok {
		return b, nil
	}
	b, err := IndexBinder(t, ix)
	if err != nil {
		return nil, err
	}
	boundCache.Lock()
	if boundCache.m == nil || len(boundCache.m) >= boundCacheMax {
		boundCache.m = map[[2]any]*BoundIndex{}
	}
	boundCache.m[key] = b
	boundCache.Unlock()
	return b, nil
}

// indexEvalCtx is what index expressions are evaluated with: they are
// immutable (CREATE INDEX refuses others), so no session state reaches
// them; a fixed context makes every writer compute the same entries.
var indexEvalCtx = EvalContext{Fn: builtins.Context{Location: time.UTC}}

// IndexRow returns row's entry row in ix (catalog/indexexpr.go): row
// itself for an index of columns, else row followed by the values of the
// key expressions. in is false when row fails a partial index's predicate
// (NULL or false) and has no entry.
func IndexRow(t *catalog.Table, ix *catalog.Index, row []sqltypes.Value) (erow []sqltypes.Value, in bool, err error) {
	if ix.Plain() {
		return row, true, nil
	}
	b, err := BindIndex(t, ix)
	if err != nil {
		return nil, false, err
	}
	return b.Row(row)
}

// IndexKeyRow is IndexRow without the predicate: the entry row of a row
// known to have an entry, or read back from one (whose attributes hold the
// columns the keys read, not those the predicate does).
func IndexKeyRow(t *catalog.Table, ix *catalog.Index, row []sqltypes.Value) ([]sqltypes.Value, error) {
	if !ix.HasExprs() {
		return row, nil
	}
	b, err := BindIndex(t, ix)
	if err != nil {
		return nil, err
	}
	erow, _, err := b.row(row, false)
	return erow, err
}

// Row computes the entry row of row (see IndexRow).
func (b *BoundIndex) Row(row []sqltypes.Value) (erow []sqltypes.Value, in bool, err error) {
	return b.row(row, true)
}

func (b *BoundIndex) row(row []sqltypes.Value, pred bool) (erow []sqltypes.Value, in bool, err error) {
	ctx := indexEvalCtx
	if pred && b.Pred != nil {
		v, err := b.Pred.Eval(&ctx, row)
		if err != nil {
			return nil, false, err
		}
		if v.IsNull() || !v.Bool() {
			return nil, false, nil
		}
	}
	erow = row
	for _, k := range b.Keys {
		if k == nil {
			continue
		}
		if len(erow) == len(row) {
			erow = append(make([]sqltypes.Value, 0, len(row)+len(b.Keys)), row...)
		}
		v, err := k.Eval(&ctx, row)
		if err != nil {
			return nil, false, err
		}
		erow = append(erow, v)
	}
	return erow, true, nil
}
