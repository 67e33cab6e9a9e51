package planner

import (
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// The range types' operators are package builtins' (ranges.go), resolved
// by their operands' types as the arithmetic ones are. @> and <@ have
// array and jsonb meanings too, and && the arrays': with a range operand
// they are the range's (typedOps, rangeOperator); <<, >>, &<, &>, -|- are
// registered operators only (the integers' shifts beside the ranges').

func init() {
	for _, op := range []string{"@>", "<@"} {
		op := op
		typedOps[op] = append(typedOps[op], func(b *Binder, l, r ir.Expr) (ir.Expr, bool, error) {
			return b.rangeOperator(op, l, r)
		})
	}
}

// rangeOperator binds l op r when an operand is a range (ok false
// otherwise).
func (b *Binder) rangeOperator(op string, l, r ir.Expr) (ir.Expr, bool, error) {
	lt, rt := l.Type(), r.Type()
	if !lt.IsRange() && !rt.IsRange() && !lt.IsMultirange() && !rt.IsMultirange() {
		return nil, false, nil
	}
	if builtins.RangeElemMismatch(op, lt, rt) {
		return nil, true, noOperator(op, lt, rt)
	}
	e, err := b.bindRegisteredOp(op, l, r)
	return e, true, err
}

// rangeComparable refuses a comparison of a range with a value of another
// type (int4range < int8range, two user-defined range types): ranges
// compare with their own type only.
func rangeComparable(op ir.BinOp, l, r ir.Expr) error {
	lt, rt := l.Type(), r.Type()
	differ := lt.ID != rt.ID || lt.Range != nil && rt.Range != nil && lt.Range.OID != rt.Range.OID
	if (lt.IsRange() || rt.IsRange() || lt.IsMultirange() || rt.IsMultirange()) && differ && lt.ID != sqltypes.Unknown && rt.ID != sqltypes.Unknown {
		return noOperator(string(op), lt, rt)
	}
	return nil
}
