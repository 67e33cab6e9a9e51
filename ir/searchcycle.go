package ir

import (
	"strings"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The columns of a WITH query's SEARCH and CYCLE clauses, computed as
// PostgreSQL's rewriteSearchAndCycle computes them: from the previous
// round's value (Prev, NULL in the non-recursive term) and the row's
// SEARCH BY or CYCLE columns (Fields).

// SearchDepth is SEARCH DEPTH FIRST's sequence column (and CYCLE's path):
// Prev || ROW(Fields), a record[].
type SearchDepth struct {
	Prev   Expr
	Fields []Expr
}

// SearchBreadth is SEARCH BREADTH FIRST's sequence column: ROW(depth,
// Fields), the depth (bigint) one more than Prev's, 0 without one.
type SearchBreadth struct {
	Prev   Expr
	Fields []Expr
}

// CycleMark is CYCLE's mark column: Mark when ROW(Fields) is an element of
// the path Path (the previous round's), else Default.
type CycleMark struct {
	Path          Expr
	Fields        []Expr
	Mark, Default *Const
}

// RecordArrayType is record[], the type of SearchDepth.
var RecordArrayType = sqltypes.ArrayOf(sqltypes.Type{ID: sqltypes.Record})

// Type implements Expr.
func (e *SearchDepth) Type() sqltypes.Type { return RecordArrayType }

// Type implements Expr.
func (e *SearchBreadth) Type() sqltypes.Type { return sqltypes.Type{ID: sqltypes.Record} }

// Type implements Expr.
func (e *CycleMark) Type() sqltypes.Type { return e.Mark.Typ }

func evalRecord(ctx *EvalContext, row []sqltypes.Value, fields []Expr, lead ...sqltypes.Value) (sqltypes.Value, error) {
	vals := append([]sqltypes.Value(nil), lead...)
	for _, f := range fields {
		v, err := f.Eval(ctx, row)
		if err != nil {
			return sqltypes.Null, err
		}
		vals = append(vals, v)
	}
	return sqltypes.NewRecord(vals), nil
}

// Eval implements Expr.
func (e *SearchDepth) Eval(ctx *EvalContext, row []sqltypes.Value) (sqltypes.Value, error) {
	prev, err := e.Prev.Eval(ctx, row)
	if err != nil {
		return sqltypes.Null, err
	}
	rec, err := evalRecord(ctx, row, e.Fields)
	if err != nil {
		return sqltypes.Null, err
	}
	var elems []sqltypes.Value
	if !prev.IsNull() {
		elems = append(elems, prev.Array().Elems...)
	}
	elems = append(elems, rec)
	return sqltypes.NewArray1(sqltypes.Type{ID: sqltypes.Record}, elems), nil
}

// Eval implements Expr.
func (e *SearchBreadth) Eval(ctx *EvalContext, row []sqltypes.Value) (sqltypes.Value, error) {
	prev, err := e.Prev.Eval(ctx, row)
	if err != nil {
		return sqltypes.Null, err
	}
	depth := int64(0)
	if !prev.IsNull() {
		depth = prev.Array().Elems[0].I + 1
	}
	return evalRecord(ctx, row, e.Fields, sqltypes.NewInt(depth))
}

// Eval implements Expr.
func (e *CycleMark) Eval(ctx *EvalContext, row []sqltypes.Value) (sqltypes.Value, error) {
	path, err := e.Path.Eval(ctx, row)
	if err != nil || path.IsNull() {
		return e.Default.V, err
	}
	rec, err := evalRecord(ctx, row, e.Fields)
	if err != nil {
		return sqltypes.Null, err
	}
	for _, p := range path.Array().Elems {
		if sqltypes.Compare(p, rec) == 0 {
			return e.Mark.V, nil
		}
	}
	return e.Default.V, nil
}

func fieldsString(fields []Expr) string {
	parts := make([]string, len(fields))
	for i, f := range fields {
		parts[i] = f.String()
	}
	return strings.Join(parts, ", ")
}

// String implements Expr.
func (e *SearchDepth) String() string {
	return e.Prev.String() + " || ROW(" + fieldsString(e.Fields) + ")"
}

// String implements Expr.
func (e *SearchBreadth) String() string {
	return "ROW(depth(" + e.Prev.String() + ") + 1, " + fieldsString(e.Fields) + ")"
}

// String implements Expr.
func (e *CycleMark) String() string {
	return "CASE WHEN ROW(" + fieldsString(e.Fields) + ") = ANY (" + e.Path.String() + ") THEN " + e.Mark.String() + " ELSE " + e.Default.String() + " END"
}

// AppendChildren implements Expr.
func (e *SearchDepth) AppendChildren(dst []Expr) []Expr {
	return append(append(dst, e.Prev), e.Fields...)
}

// AppendChildren implements Expr.
func (e *SearchBreadth) AppendChildren(dst []Expr) []Expr {
	return append(append(dst, e.Prev), e.Fields...)
}

// AppendChildren implements Expr.
func (e *CycleMark) AppendChildren(dst []Expr) []Expr {
	return append(append(dst, e.Path), e.Fields...)
}

// WithChildren implements Expr.
func (e *SearchDepth) WithChildren(kids []Expr) Expr {
	return &SearchDepth{Prev: kids[0], Fields: append([]Expr(nil), kids[1:]...)}
}

// WithChildren implements Expr.
func (e *SearchBreadth) WithChildren(kids []Expr) Expr {
	return &SearchBreadth{Prev: kids[0], Fields: append([]Expr(nil), kids[1:]...)}
}

// WithChildren implements Expr.
func (e *CycleMark) WithChildren(kids []Expr) Expr {
	return &CycleMark{Path: kids[0], Fields: append([]Expr(nil), kids[1:]...), Mark: e.Mark, Default: e.Default}
}
