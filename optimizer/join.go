package optimizer

import (
	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/ir"
)

// HashJoin builds a hash table of Right's rows by RightKeys and probes it
// with each Left row's LeftKeys. NULL keys never match. Residual is checked
// on each matching pair (over the left row followed by the right row).
type HashJoin struct {
	Kind                ir.JoinKind
	Left, Right         Node
	LeftKeys, RightKeys []ir.Expr
	Residual            ir.Expr
	Reason              string
	cols                []ir.Column
}

// LookupJoin reads, for batches of Left rows, the matching rows of a stored
// table through its primary key or a btree index: the join keys are values
// of the access path's leading key columns, so a batch is one batched get
// (a point per row) or one range scan per row, per shard.
type LookupJoin struct {
	Kind  ir.JoinKind
	Left  Node
	Table *catalog.Table
	Alias string
	Index *catalog.Index // nil: the primary key
	// KeyCols are the access path's key columns; KeyExprs, over the left
	// row, give values for the first len(KeyExprs) of them.
	KeyCols  []catalog.KeyColumn
	KeyExprs []ir.Expr
	// PointGet: KeyExprs bind the whole primary key.
	PointGet bool
	// Lookup: index entries are followed by gets of the table rows.
	Lookup bool
	// InnerFilter is applied to each inner table row (the inner table's own
	// WHERE conjuncts); Residual to each joined row.
	InnerFilter ir.Expr
	Residual    ir.Expr
	Needed      []int
	// Batch is how many left rows one round of lookups serves.
	Batch int
	// Lock is the row lock of a SELECT ... FOR UPDATE / FOR SHARE on the
	// inner rows the join matches.
	Lock     ir.LockStrength
	Reason   string
	Rejected []Rejection
	cols     []ir.Column
}

// MergeJoin reads two inputs ordered on their join keys side by side,
// pairing each left row with the right rows of equal keys.
type MergeJoin struct {
	Kind                ir.JoinKind
	Left, Right         Node
	LeftKeys, RightKeys []ir.Expr
	Residual            ir.Expr
	Reason              string
	cols                []ir.Column
}

// NestedLoop compares every left row with every row of Right, which it
// reads once and keeps: the method for join conditions that are not
// equalities.
type NestedLoop struct {
	Kind        ir.JoinKind
	Left, Right Node
	Pred        ir.Expr
	Reason      string
	cols        []ir.Column
}

// Apply runs Right once per left row, with the left row as Right's outer
// row: LATERAL items and correlated subqueries that could not be turned
// into joins.
type Apply struct {
	Kind        ir.JoinKind
	Left, Right Node
	Pred        ir.Expr
	// Reason, when set, says why a join is an Apply (a spatial lookup
	// join: spatialjoin.go); otherwise the right side reads the left row.
	Reason string
	cols   []ir.Column
}

var (
	_ Node = (*HashJoin)(nil)
	_ Node = (*MergeJoin)(nil)
	_ Node = (*LookupJoin)(nil)
	_ Node = (*NestedLoop)(nil)
	_ Node = (*Apply)(nil)
)

func (n *HashJoin) Inputs() []Node   { return []Node{n.Left, n.Right} }
func (n *MergeJoin) Inputs() []Node  { return []Node{n.Left, n.Right} }
func (n *LookupJoin) Inputs() []Node { return []Node{n.Left} }
func (n *NestedLoop) Inputs() []Node { return []Node{n.Left, n.Right} }
func (n *Apply) Inputs() []Node      { return []Node{n.Left, n.Right} }

// joinNode is a join operator that says why it was chosen (EXPLAIN's
// reason line).
type joinNode interface {
	Node
	reason() *string
}

var (
	_ joinNode = (*HashJoin)(nil)
	_ joinNode = (*LookupJoin)(nil)
	_ joinNode = (*MergeJoin)(nil)
	_ joinNode = (*NestedLoop)(nil)
)

func (n *HashJoin) reason() *string   { return &n.Reason }
func (n *LookupJoin) reason() *string { return &n.Reason }
func (n *MergeJoin) reason() *string  { return &n.Reason }
func (n *NestedLoop) reason() *string { return &n.Reason }

// Expressions implementations: the join keys, then the conditions.
func (n *HashJoin) Expressions() []ir.Expr {
	out := append(append([]ir.Expr(nil), n.LeftKeys...), n.RightKeys...)
	return append(out, n.Residual)
}
func (n *MergeJoin) Expressions() []ir.Expr {
	out := append(append([]ir.Expr(nil), n.LeftKeys...), n.RightKeys...)
	return append(out, n.Residual)
}
func (n *LookupJoin) Expressions() []ir.Expr {
	return append(append([]ir.Expr(nil), n.KeyExprs...), n.InnerFilter, n.Residual)
}
func (n *NestedLoop) Expressions() []ir.Expr { return []ir.Expr{n.Pred} }
func (n *Apply) Expressions() []ir.Expr      { return []ir.Expr{n.Pred} }

func (n *HashJoin) Columns() []ir.Column   { return n.cols }
func (n *MergeJoin) Columns() []ir.Column  { return n.cols }
func (n *LookupJoin) Columns() []ir.Column { return n.cols }
func (n *NestedLoop) Columns() []ir.Column { return n.cols }
func (n *Apply) Columns() []ir.Column      { return n.cols }

// joinCols is the output layout of a join of kind over left and right
// rows of the given layouts.
func joinCols(kind ir.JoinKind, left, right []ir.Column) []ir.Column {
	if kind == ir.SemiJoin || kind == ir.AntiJoin {
		return left
	}
	out := make([]ir.Column, 0, len(left)+len(right))
	out = append(out, left...)
	return append(out, right...)
}
