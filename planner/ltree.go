package planner

import (
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// The ltree extension's operators (builtins/ext_ltree.go) are the
// registry's: an operator with an ltree, lquery or ltxtquery operand (or
// an array of one) binds to the registry's overload for the operands'
// types when there is one, and otherwise to what the operator means for
// other types (ltree[] || ltree is array_append, ltree[] @> ltree[] array
// containment). The comparisons of ltree are the planner's own (its text
// order is ltree_cmp's).

// isLtreeFamily reports whether t is one of ltree's types or an array of
// one.
func isLtreeFamily(t sqltypes.Type) bool {
	id := t.ID
	if id == sqltypes.Array {
		id = t.Elem
	}
	return id == sqltypes.Ltree || id == sqltypes.Lquery || id == sqltypes.Ltxtquery
}

// ltreeOperator binds l op r by the ltree overloads of op; ok is false
// when neither operand is of ltree's types or the registry has no
// overload for them.
func (b *Binder) ltreeOperator(op string, l, r ir.Expr) (e ir.Expr, ok bool, err error) {
	lt, rt := l.Type(), r.Type()
	if !isLtreeFamily(lt) && !isLtreeFamily(rt) {
		return nil, false, nil
	}
	switch op {
	case "=", "<>", "!=", "<", "<=", ">", ">=":
		return nil, false, nil
	case "||":
		if lt.ID == sqltypes.Array || rt.ID == sqltypes.Array {
			return nil, false, nil // array_cat, array_append, array_prepend
		}
	}
	if _, err := builtins.ResolveOperator(op, []sqltypes.Type{lt, rt}); err != nil {
		if lt.ID == sqltypes.Array || rt.ID == sqltypes.Array {
			return nil, false, nil // the array operators'
		}
		return nil, true, err
	}
	e, err = b.bindRegisteredOp(op, l, r)
	return e, true, err
}
