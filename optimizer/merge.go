package optimizer

import (
	"fmt"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/ir"
)

// Merge runs a MERGE (ir.Merge): it reads Join's rows once, decides each
// row's action (the first WHEN clause of its kind whose condition
// holds), and runs Delete, Update and Insert, planned as those statements
// are, over the rows decided for them (the CTE RowsID). Its writes are
// all-or-nothing: it runs in a transaction (Constraints.Txn).
type Merge struct {
	Table *catalog.Table
	Join  Node
	// Matched is true on a Join row that has a target row.
	Matched ir.Expr
	Actions []MergeAction
	// Action is the column of a decided row holding its action's ordinal.
	Action int
	RowsID int
	Update *Update
	Delete *Delete
	Insert *Insert
	// Constraints holds Txn; each write enforces its own.
	Constraints *ir.Constraints
}

// MergeAction is one WHEN clause (ir.MergeAction).
type MergeAction struct {
	Matched bool
	Kind    string
	Cond    ir.Expr
}

var _ Write = (*Merge)(nil)

// Inputs are the join, then the writes.
func (n *Merge) Inputs() []Node {
	out := []Node{n.Join}
	if n.Delete != nil {
		out = append(out, n.Delete)
	}
	if n.Update != nil {
		out = append(out, n.Update)
	}
	if n.Insert != nil {
		out = append(out, n.Insert)
	}
	return out
}

// Expressions are the WHEN conditions, in order (nil for none).
func (n *Merge) Expressions() []ir.Expr {
	out := []ir.Expr{n.Matched}
	for _, a := range n.Actions {
		out = append(out, a.Cond)
	}
	return out
}

// Columns implements Node: MERGE returns no rows.
func (n *Merge) Columns() []ir.Column { return nil }

// Target implements Write.
func (n *Merge) Target() *catalog.Table { return n.Table }

// WriteConstraints implements Write.
func (n *Merge) WriteConstraints() *ir.Constraints { return n.Constraints }

// Describe implements Node.
func (n *Merge) Describe() Description {
	d := Description{Head: "Merge into " + n.Table.Name}
	for i, a := range n.Actions {
		when := "not matched"
		if a.Matched {
			when = "matched"
		}
		if a.Cond != nil {
			when += " and " + a.Cond.String()
		}
		kind := a.Kind
		if kind == "nothing" {
			kind = "do nothing"
		}
		d.add(fmt.Sprintf("when %d", i+1), "%s then %s", when, kind)
	}
	d.add("rows", "each source row's first clause whose condition holds acts; a target row two source rows change is an error (21000)")
	return d
}

// merge plans a MERGE.
func (b *builder) merge(s *ir.Merge) (*Merge, error) {
	b.cteRefs = cteRefs(s.Join)
	join, _, err := b.build(b.logical(s.Join), request{})
	if err != nil {
		return nil, err
	}
	m := &Merge{Table: s.Table, Join: join, Matched: s.Matched, Action: s.Action, RowsID: s.Rows.ID,
		Constraints: &ir.Constraints{Tables: map[string]*ir.TableConstraints{}, Txn: true}}
	for _, a := range s.Actions {
		m.Actions = append(m.Actions, MergeAction{Matched: a.Matched, Kind: a.Kind, Cond: b.expr(a.Cond)})
	}
	if s.Delete != nil {
		if m.Delete, err = b.delete(s.Delete); err != nil {
			return nil, err
		}
	}
	if s.Update != nil {
		if m.Update, err = b.update(s.Update); err != nil {
			return nil, err
		}
	}
	if ins := s.Insert; ins != nil {
		b.cteRefs = cteRefs(ins.Source)
		src, _, err := b.build(b.logical(ins.Source), request{})
		if err != nil {
			return nil, err
		}
		m.Insert = &Insert{Table: ins.Table, Source: src, Constraints: ins.Constraints}
	}
	return m, nil
}
