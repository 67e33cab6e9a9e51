package ir

import (
	"strings"

	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// SetCall is one call of a set-returning function in a select list.
type SetCall struct {
	Name string
	// Args are cast to Fn's parameter types; they read the ProjectSet's
	// input row.
	Args []Expr
	Fn   *builtins.Overload
	// TF, for a function the executor computes by name (Fn nil: unnest,
	// jsonb_array_elements, regexp_matches ...), is its typed FROM form.
	TF  *TableFunc
	Typ sqltypes.Type
}

func (c SetCall) String() string {
	parts := make([]string, len(c.Args))
	for i, a := range c.Args {
		parts[i] = a.String()
	}
	return c.Name + "(" + strings.Join(parts, ", ") + ")"
}

// ProjectSet evaluates a select list's set-returning functions of one
// level (PostgreSQL's ProjectSet): for each input row it starts every call
// and yields the input row followed by one value per call, as many rows as
// the longest set, NULL for a set already exhausted; an input row whose
// sets are all empty yields nothing.
type ProjectSet struct {
	Input Rel
	Calls []SetCall
	cols  []Column
}

// NewProjectSet builds a ProjectSet and its output layout.
func NewProjectSet(input Rel, calls []SetCall) *ProjectSet {
	p := &ProjectSet{Input: input, Calls: calls}
	p.cols = append(append([]Column(nil), input.Columns()...), make([]Column, len(calls))...)
	for i, c := range calls {
		p.cols[len(input.Columns())+i] = Column{Name: c.Name, Type: c.Typ, Col: -1}
	}
	return p
}

// Columns implements Rel.
func (n *ProjectSet) Columns() []Column { return n.cols }

// Inputs implements Rel.
func (n *ProjectSet) Inputs() []Rel { return []Rel{n.Input} }

// WithInputs implements Rel.
func (n *ProjectSet) WithInputs(in []Rel) Rel {
	c := *n
	c.Input = in[0]
	return &c
}

// Expressions implements Rel: every call's arguments, in order.
func (n *ProjectSet) Expressions() []Expr {
	var out []Expr
	for _, c := range n.Calls {
		out = append(out, c.Args...)
	}
	return out
}

// WithExpressions implements Rel.
func (n *ProjectSet) WithExpressions(es []Expr) Rel {
	c := *n
	c.Calls = make([]SetCall, len(n.Calls))
	for i, call := range n.Calls {
		k := len(call.Args)
		call.Args, es = es[:k:k], es[k:]
		c.Calls[i] = call
	}
	return &c
}
