package ir

import (
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// RowExpr is a row constructor, (a, b), on the left of a comparison with a
// subquery's rows. It is no value of its own: only the subquery's
// evaluation reads its items.
type RowExpr struct {
	Items []Expr
}

func (e *RowExpr) AppendChildren(dst []Expr) []Expr { return append(dst, e.Items...) }

func (e *RowExpr) WithChildren(kids []Expr) Expr { return &RowExpr{Items: kids} }

// Type implements Expr.
func (e *RowExpr) Type() sqltypes.Type { return sqltypes.TypeUnknown }

// Eval implements Expr.
func (e *RowExpr) Eval(*EvalContext, []sqltypes.Value) (sqltypes.Value, error) {
	return sqltypes.Null, pgerr.New(pgerr.InternalError, "row constructor evaluated as a value")
}

// String implements Expr.
func (e *RowExpr) String() string {
	parts := make([]string, len(e.Items))
	for i, x := range e.Items {
		parts[i] = x.String()
	}
	return "ROW(" + strings.Join(parts, ", ") + ")"
}
