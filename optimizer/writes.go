package optimizer

import (
	"sort"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/ir"
)

// WriteEstimate is what a write should cost on a store that charges
// writes by size (DynamoDB), from the table's statistics and the rows its
// source should yield (capacity.go).
type WriteEstimate struct {
	Rows     float64
	Items    float64 // rows and index entries written
	Capacity float64 // write capacity units, written transactionally
}

// Insert writes Source's rows (full table rows) into Table with every
// index entry they need.
type Insert struct {
	Estimated  *WriteEstimate
	Table      *catalog.Table
	Source     Node
	OnConflict *ir.OnConflict
	Returning  *ir.Returning
	// Constraints are the CHECKs and foreign keys the write enforces.
	Constraints *ir.Constraints
}

// Update changes the rows Source finds: each source row is the old table
// row followed by the columns of any FROM tables, which Set reads.
type Update struct {
	Estimated *WriteEstimate
	Table     *catalog.Table
	Source    Node
	Set       map[int]ir.Expr
	// Shared: as ir.Update's, computed per row before Set.
	Shared    []ir.Expr
	Recheck   ir.Expr
	Returning *ir.Returning
	// Constraints are the CHECKs and foreign keys the write enforces.
	Constraints *ir.Constraints
	// Heirs are the same UPDATE of the tables inheriting from Table
	// (ir.Update.Heirs), run after it.
	Heirs []*Update
}

// Delete removes the rows Source finds (the old row first in each source
// row) with their index entries.
type Delete struct {
	Estimated *WriteEstimate
	Table     *catalog.Table
	Source    Node
	Recheck   ir.Expr
	Returning *ir.Returning
	// Constraints are the foreign keys the write enforces.
	Constraints *ir.Constraints
	// Heirs: as for Update.
	Heirs []*Delete
}

var (
	_ Node = (*Insert)(nil)
	_ Node = (*Update)(nil)
	_ Node = (*Delete)(nil)
)

func (n *Insert) Inputs() []Node { return []Node{n.Source} }

// Inputs of an UPDATE or DELETE are its source and its heirs' writes.
func (n *Update) Inputs() []Node {
	out := []Node{n.Source}
	for _, h := range n.Heirs {
		out = append(out, h)
	}
	return out
}

// Inputs implements Node.
func (n *Delete) Inputs() []Node {
	out := []Node{n.Source}
	for _, h := range n.Heirs {
		out = append(out, h)
	}
	return out
}

// Write is a write operator: an INSERT, UPDATE or DELETE at a plan's root.
type Write interface {
	Node
	// Target is the table the write changes.
	Target() *catalog.Table
	// WriteConstraints are the CHECKs and foreign keys the write enforces.
	WriteConstraints() *ir.Constraints
}

var (
	_ Write = (*Insert)(nil)
	_ Write = (*Update)(nil)
	_ Write = (*Delete)(nil)
)

func (n *Insert) Target() *catalog.Table            { return n.Table }
func (n *Update) Target() *catalog.Table            { return n.Table }
func (n *Delete) Target() *catalog.Table            { return n.Table }
func (n *Insert) WriteConstraints() *ir.Constraints { return n.Constraints }
func (n *Update) WriteConstraints() *ir.Constraints { return n.Constraints }
func (n *Delete) WriteConstraints() *ir.Constraints { return n.Constraints }

// Expressions implementations. A write lists the SET expressions its
// subplans are found in, in column order, then an UPDATE's Shared ones; its RETURNING list and
// rechecks are evaluated by the executor's write, not through this list.
func (n *Insert) Expressions() []ir.Expr { return nil }
func (n *Delete) Expressions() []ir.Expr { return nil }
func (n *Update) Expressions() []ir.Expr {
	cols := make([]int, 0, len(n.Set))
	for c := range n.Set {
		cols = append(cols, c)
	}
	sort.Ints(cols)
	out := make([]ir.Expr, len(cols), len(cols)+len(n.Shared))
	for i, c := range cols {
		out[i] = n.Set[c]
	}
	return append(out, n.Shared...)
}

func (n *Insert) Columns() []ir.Column { return returningCols(n.Returning) }
func (n *Update) Columns() []ir.Column { return returningCols(n.Returning) }
func (n *Delete) Columns() []ir.Column { return returningCols(n.Returning) }

func returningCols(r *ir.Returning) []ir.Column {
	if r == nil {
		return nil
	}
	return r.Cols
}
