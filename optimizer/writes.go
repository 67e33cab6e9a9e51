package optimizer

import (
	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/planner"
)

// Insert writes Source's rows (full table rows) into Table with every
// index entry they need.
type Insert struct {
	Table      *catalog.Table
	Source     Node
	OnConflict *planner.OnConflict
	Returning  *planner.Returning
	// Constraints are the CHECKs and foreign keys the write enforces.
	Constraints *planner.Constraints
}

// Update changes the rows Source finds: each source row is the old table
// row followed by the columns of any FROM tables, which Set reads.
type Update struct {
	Table     *catalog.Table
	Source    Node
	Set       map[int]planner.Expr
	Recheck   planner.Expr
	Returning *planner.Returning
	// Constraints are the CHECKs and foreign keys the write enforces.
	Constraints *planner.Constraints
}

// Delete removes the rows Source finds (the old row first in each source
// row) with their index entries.
type Delete struct {
	Table     *catalog.Table
	Source    Node
	Recheck   planner.Expr
	Returning *planner.Returning
	// Constraints are the foreign keys the write enforces.
	Constraints *planner.Constraints
}

var (
	_ Node = (*Insert)(nil)
	_ Node = (*Update)(nil)
	_ Node = (*Delete)(nil)
)

func (n *Insert) Inputs() []Node { return []Node{n.Source} }
func (n *Update) Inputs() []Node { return []Node{n.Source} }
func (n *Delete) Inputs() []Node { return []Node{n.Source} }

func (n *Insert) Columns() []planner.Column { return returningCols(n.Returning) }
func (n *Update) Columns() []planner.Column { return returningCols(n.Returning) }
func (n *Delete) Columns() []planner.Column { return returningCols(n.Returning) }

func returningCols(r *planner.Returning) []planner.Column {
	if r == nil {
		return nil
	}
	return r.Cols
}
