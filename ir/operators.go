package ir

import (
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// concatLimit checks the || of text or bytea x and y, which PostgreSQL
// allocates whole (textcat, byteacat: both lengths and a header).
func concatLimit(x, y string) error {
	return sqltypes.AllocLimit(int64(len(x)) + int64(len(y)) + 4)
}

// Concat is the || of text or bytea x and y: checked as PostgreSQL
// allocates it, and charged as a large value when it is one.
func Concat(x, y string) (string, error) {
	if err := concatLimit(x, y); err != nil {
		return "", err
	}
	return sqltypes.Concat("||", x, y)
}

// OperatorCall is a call of an operator's function by its name
// (int4pl(a, 1), jsonb_exists(doc, 'k')). E is the operator bound over
// Args and computes the value; Args are the call's arguments as written
// (cast to the function's parameter types), which Deparse prints as the
// call, as PostgreSQL keeps a FuncExpr for it where a view or default
// is stored. The optimizer sees no operator in it, as PostgreSQL's index
// matching sees none in a FuncExpr.
type OperatorCall struct {
	Name string
	Args []Expr
	E    Expr
}

// Type is the operator's result type.
func (e *OperatorCall) Type() sqltypes.Type { return e.E.Type() }

// Eval computes the operator.
func (e *OperatorCall) Eval(ctx *EvalContext, row []sqltypes.Value) (sqltypes.Value, error) {
	return e.E.Eval(ctx, row)
}

// String renders the call.
func (e *OperatorCall) String() string {
	return (&Func{Name: e.Name, Args: e.Args, Typ: e.E.Type()}).String()
}

// AppendChildren appends the arguments, then the operator.
func (e *OperatorCall) AppendChildren(dst []Expr) []Expr {
	return append(append(dst, e.Args...), e.E)
}

// WithChildren takes the arguments and the operator in AppendChildren's
// order.
func (e *OperatorCall) WithChildren(kids []Expr) Expr {
	n := len(e.Args)
	return &OperatorCall{Name: e.Name, Args: kids[:n:n], E: kids[n]}
}
