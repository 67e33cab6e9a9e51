package optimizer

import (
	"strings"

	"github.com/zproxy/zproxy/ir"
)

// ProjectSet evaluates a select list's set-returning functions (see
// ir.ProjectSet): its row is the input row followed by one value per
// call, the calls advancing in lockstep.
type ProjectSet struct {
	Input Node
	Calls []ir.SetCall
	cols  []ir.Column
}

// Inputs implements Node.
func (n *ProjectSet) Inputs() []Node { return []Node{n.Input} }

// Expressions implements Node: every call's arguments, in order.
func (n *ProjectSet) Expressions() []ir.Expr {
	var out []ir.Expr
	for _, c := range n.Calls {
		out = append(out, c.Args...)
	}
	return out
}

// Columns implements Node.
func (n *ProjectSet) Columns() []ir.Column { return n.cols }

// Describe implements Node.
func (n *ProjectSet) Describe() Description {
	d := Description{Head: "ProjectSet"}
	calls := make([]string, len(n.Calls))
	for i, c := range n.Calls {
		calls[i] = c.String()
	}
	d.add("functions", "%s", strings.Join(calls, ", "))
	return d
}

// buildProjectSet plans a ProjectSet. The order asked of it passes to its
// input when it names input columns only (the rows of one input row stay
// together, in input order); a limit does not, since one input row may
// become many rows or none.
func (b *builder) buildProjectSet(n *ir.ProjectSet, req request) (Node, bool, error) {
	width := len(n.Input.Columns())
	need := make([]bool, width)
	copy(need, req.need)
	calls := make([]ir.SetCall, len(n.Calls))
	for i, c := range n.Calls {
		for _, a := range c.Args {
			usedCols(a, need)
		}
		c.Args = b.exprs(c.Args)
		calls[i] = c
	}
	var order []ir.SortKey
	for _, k := range req.order {
		if k.Col >= width {
			order = nil
			break
		}
		order = append(order, k)
	}
	in, delivered, err := b.build(n.Input, request{need: need, order: order})
	if err != nil {
		return nil, false, err
	}
	return &ProjectSet{Input: in, Calls: calls, cols: n.Columns()}, delivered && len(order) > 0, nil
}

// pushProjectSet moves the conjuncts that read only the input row below
// the ProjectSet (filtering input rows before they are expanded gives the
// same rows); those reading a function's value stay above.
func pushProjectSet(n *ir.ProjectSet, preds []ir.Expr) ir.Rel {
	width := len(n.Input.Columns())
	down, keep := splitPreds(preds, func(p ir.Expr) bool { return pushable(p) && onlyBelow(p, width) })
	c := *n
	c.Input = push(n.Input, down)
	return filtered(&c, keep)
}
