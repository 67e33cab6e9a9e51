package planner

import (
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// Full-text search's operators under spellings other types have too
// (tsvector || tsvector, tsquery || tsquery, tsquery @> tsquery, ...) bind
// here when an operand is a tsvector or tsquery, to the operators of
// package builtins' registry (internal/builtins/fulltext.go); @@, <-> and
// the registry's other spellings resolve there directly.

func isTextSearch(t sqltypes.Type) bool { return t.ID == sqltypes.TSVector || t.ID == sqltypes.TSQuery }

func init() {
	for _, op := range []string{"||", "@>", "<@"} {
		op := op
		typedOps[op] = append(typedOps[op], func(b *Binder, l, r ir.Expr) (ir.Expr, bool, error) {
			if !isTextSearch(l.Type()) && !isTextSearch(r.Type()) {
				return nil, false, nil
			}
			e, err := b.bindRegisteredOp(op, l, r)
			return e, true, err
		})
	}
}
