package ir

import (
	"strings"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// RecordExpr is a row constructor standing as a value, ROW(a, b) or
// (a, b), or a whole-row reference to a FROM item: a record of its items,
// of type Typ (an anonymous record or a named composite type).
type RecordExpr struct {
	Items []Expr
	Typ   sqltypes.Type
	// fields are Typ's field types, shared by every value made.
	fields []sqltypes.Type
}

// NewRecordExpr returns the record of items as a value of type t.
func NewRecordExpr(items []Expr, t sqltypes.Type) *RecordExpr {
	r := &RecordExpr{Items: items, Typ: t}
	if t.Composite != nil {
		r.fields = t.Composite.FieldTypes()
	} else {
		r.fields = make([]sqltypes.Type, len(items))
		for i, x := range items {
			r.fields[i] = x.Type()
		}
	}
	return r
}

func (e *RecordExpr) AppendChildren(dst []Expr) []Expr { return append(dst, e.Items...) }

func (e *RecordExpr) WithChildren(kids []Expr) Expr {
	return &RecordExpr{Items: kids, Typ: e.Typ, fields: e.fields}
}

// Type implements Expr.
func (e *RecordExpr) Type() sqltypes.Type { return e.Typ }

// Eval implements Expr.
func (e *RecordExpr) Eval(ctx *EvalContext, row []sqltypes.Value) (sqltypes.Value, error) {
	vals := make([]sqltypes.Value, len(e.Items))
	for i, x := range e.Items {
		v, err := x.Eval(ctx, row)
		if err != nil {
			return sqltypes.Null, err
		}
		vals[i] = v
	}
	return sqltypes.NewRecordOf(vals, e.fields), nil
}

// String implements Expr.
func (e *RecordExpr) String() string {
	parts := make([]string, len(e.Items))
	for i, x := range e.Items {
		parts[i] = x.String()
	}
	return "ROW(" + strings.Join(parts, ", ") + ")"
}
