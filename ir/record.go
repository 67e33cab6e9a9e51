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
	// Present, when set, makes the record NULL where it is NULL: a whole
	// row of a FROM item an outer join may null-extend reads a column the
	// item's own rows never hold NULL in, so the null-extended row is NULL
	// itself, as in PostgreSQL, not a row of NULLs.
	Present Expr
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

func (e *RecordExpr) AppendChildren(dst []Expr) []Expr {
	dst = append(dst, e.Items...)
	if e.Present != nil {
		dst = append(dst, e.Present)
	}
	return dst
}

func (e *RecordExpr) WithChildren(kids []Expr) Expr {
	r := &RecordExpr{Items: kids, Typ: e.Typ, fields: e.fields}
	if e.Present != nil {
		r.Items, r.Present = kids[:len(kids)-1], kids[len(kids)-1]
	}
	return r
}

// Type implements Expr.
func (e *RecordExpr) Type() sqltypes.Type { return e.Typ }

// Eval implements Expr.
func (e *RecordExpr) Eval(ctx *EvalContext, row []sqltypes.Value) (sqltypes.Value, error) {
	if e.Present != nil {
		p, err := e.Present.Eval(ctx, row)
		if err != nil || p.IsNull() {
			return sqltypes.Null, err
		}
	}
	vals := make([]sqltypes.Value, len(e.Items))
	for i, x := range e.Items {
		v, err := x.Eval(ctx, row)
		if err != nil {
			return sqltypes.Null, err
		}
		vals[i] = v
	}
	if err := sqltypes.RecordLimit(vals); err != nil {
		return sqltypes.Null, err
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
