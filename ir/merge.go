package ir

import "github.com/zproxy/zproxy/catalog"

// Merge is a bound MERGE (PostgreSQL 15's). Join pairs each source row
// with the target row it matches: its first len(Table.Columns) columns
// are the target row (NULLs when none matches), the source's columns
// follow. The executor runs Join once, decides each row's action (the
// first WHEN clause of its kind, matched or not, whose condition holds:
// Actions), and hands the rows, each with its action's ordinal in
// Actions appended (column Action), to the statement's writes through the
// CTE Rows: Update, Delete and Insert are the UPDATE, DELETE and INSERT
// of the rows whose action is theirs, each bound as those statements are
// (their Source reads Rows), so a MERGE's writes take the write path
// INSERT, UPDATE and DELETE take.
type Merge struct {
	Permissions
	Table *catalog.Table
	Join  Rel
	// Matched is true on a Join row that has a target row.
	Matched Expr
	Actions []*MergeAction
	// Action is the column of a Rows row holding its action's ordinal.
	Action int
	// Rows are the join's rows, as the executor decided them; its Write
	// is the Merge itself (its rows come from the statement, not a plan).
	Rows *CTE
	// Update, Delete and Insert are nil when no clause names the action.
	Update *Update
	Delete *Delete
	Insert *Insert
	// Writes are its data-modifying WITH queries (writecte.go).
	Writes []*CTE
}

// MergeAction is one WHEN clause of a MERGE.
type MergeAction struct {
	Matched bool
	// Kind is "update", "delete", "insert" or "nothing".
	Kind string
	// Cond, over a Join row, is the clause's AND condition (nil: none).
	Cond Expr
}

// Kind implements Statement.
func (*Merge) Kind() string { return "merge" }

// Describe implements Statement.
func (*Merge) Describe() Description { return Description{Class: ClassDML, Writes: true} }
