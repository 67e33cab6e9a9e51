package ir

import (
	"github.com/zproxy/zproxy/catalog"
)

// Statement is a statement bound to the catalog. Its concrete types are the
// *Select, *Insert, *Update, *Delete, DDL and session statements below.
type Statement interface {
	// Kind is the statement kind for metrics and the command tag
	// ("select", "insert", "create_table", ...).
	Kind() string
}

// Hint is an optimizer hint in TiDB syntax: an index hint (USE_INDEX,
// IGNORE_INDEX) or a join hint (INL_JOIN, HASH_JOIN, MERGE_JOIN, LEADING).
type Hint struct {
	Name   string // lower case: use_index, ignore_index, inl_join, hash_join, merge_join, leading
	Use    bool   // for index hints: USE_INDEX (true) or IGNORE_INDEX (false)
	Table  string
	Tables []string // join hints: the tables named, in order
	Index  []string // empty USE_INDEX(t) means: the primary key / a table scan
}

// Query is a bound SELECT (or VALUES, set operation, WITH query): a
// logical plan whose rows go to the client.
type Query struct {
	Permissions
	Plan Rel
	// Locking is set for SELECT ... FOR UPDATE / FOR SHARE.
	Locking string
	// Writes are its data-modifying WITH queries (writecte.go).
	Writes []*CTE
}

// Kind implements Statement.
func (*Query) Kind() string { return "select" }

// Returning is a write's RETURNING list: expressions over the written row
// (the new row for INSERT and UPDATE, the old one for DELETE).
type Returning struct {
	Exprs []Expr
	Cols  []Column
}

// Insert is a bound INSERT.
type Insert struct {
	Permissions
	Table *catalog.Table
	// Source yields full table rows: one value per table column, in table
	// order, already of the column types, defaults filled in.
	Source Rel
	// OnConflict: nil (duplicate key is an error), DoNothing, or DoUpdate.
	OnConflict *OnConflict
	Returning  *Returning
	// Writes are its data-modifying WITH queries (writecte.go).
	Writes []*CTE
	// Constraints: CHECKs and foreign keys to enforce (nil: none).
	Constraints *Constraints
}

// Kind implements Statement.
func (*Insert) Kind() string { return "insert" }

// OnConflict is INSERT's ON CONFLICT clause.
type OnConflict struct {
	DoNothing bool
	// Set assigns new values for conflicting rows. Each expression is
	// evaluated over the concatenation [existing row..., excluded row...].
	Set map[int]Expr
	// Where, when set, limits DO UPDATE to rows for which it is true.
	Where Expr
	// Arbiters are the unique keys a proposed row conflicts on: nil
	// stands for the primary key, an index for a unique index. Without a
	// conflict target DO NOTHING's arbiters are every unique key.
	Arbiters []*catalog.Index
}

// Update is a bound UPDATE. Source yields, for each row to change, the old
// row (its first len(Table.Columns) columns) followed by the columns of any
// FROM tables; Set expressions read that row.
type Update struct {
	Permissions
	Table     *catalog.Table
	Source    Rel
	Set       map[int]Expr
	Returning *Returning
	// Recheck is the part of WHERE that reads only the target row: a row
	// changed by a concurrent statement since the scan must still pass it.
	Recheck Expr
	// Writes are its data-modifying WITH queries (writecte.go).
	Writes []*CTE
	// Constraints: CHECKs and foreign keys to enforce (nil: none).
	Constraints *Constraints
}

// Kind implements Statement.
func (*Update) Kind() string { return "update" }

// Delete is a bound DELETE; Source yields the rows to delete (the old row
// first, then the columns of any USING tables).
type Delete struct {
	Permissions
	Table     *catalog.Table
	Source    Rel
	Returning *Returning
	// Recheck: as for Update.
	Recheck Expr
	// Writes are its data-modifying WITH queries (writecte.go).
	Writes []*CTE
	// Constraints: foreign keys to enforce (nil: none).
	Constraints *Constraints
}

// Kind implements Statement.
func (*Delete) Kind() string { return "delete" }

// CreateTable creates a table.
type CreateTable struct {
	Table       *catalog.Table // ID assigned at execution
	IfNotExists bool
	// Sequences are the sequences of its SERIAL and identity columns,
	// created with it (IDs assigned at execution).
	Sequences []*catalog.Sequence
}

// Kind implements Statement.
func (*CreateTable) Kind() string { return "create_table" }

// DropTable drops tables.
type DropTable struct {
	Names    []string
	IfExists bool
	// Cascade drops the views that read the tables too.
	Cascade bool
}

// Kind implements Statement.
func (*DropTable) Kind() string { return "drop_table" }

// CreateIndex creates a secondary index.
type CreateIndex struct {
	Table       string
	Index       *catalog.Index
	IfNotExists bool
	// AlignToData (WITH (align = 'data'), Z-order only) asks the build to
	// set the index's leads from the table's rows (catalog.Table.AlignLeads)
	// before the index is published.
	AlignToData bool
}

// Kind implements Statement.
func (*CreateIndex) Kind() string { return "create_index" }

// DropIndex drops a secondary index.
type DropIndex struct {
	Name     string
	IfExists bool
}

// Kind implements Statement.
func (*DropIndex) Kind() string { return "drop_index" }

// ShowIndexes lists a table's indexes.
type ShowIndexes struct{ Table *catalog.Table }

// Kind implements Statement.
func (*ShowIndexes) Kind() string { return "show" }

// CheckTable verifies a table and its indexes agree.
type CheckTable struct{ Tables []*catalog.Table }

// Kind implements Statement.
func (*CheckTable) Kind() string { return "check" }

// Explain wraps a statement to plan (and with Analyze, run).
type Explain struct {
	Stmt    Statement
	Analyze bool
	JSON    bool
}

// Kind implements Statement.
func (*Explain) Kind() string { return "explain" }

// SetVar sets a session variable (Value "" with Reset for RESET/DEFAULT).
// More lists further assignments of the same statement (SET TRANSACTION
// ISOLATION LEVEL ..., READ ONLY).
type SetVar struct {
	Name  string
	Value string
	Reset bool
	More  []*SetVar
}

// Kind implements Statement.
func (*SetVar) Kind() string { return "set" }

// ShowVar shows a session variable.
type ShowVar struct{ Name string }

// Kind implements Statement.
func (*ShowVar) Kind() string { return "show" }

// TxnOp is a transaction control statement.
type TxnOp struct {
	Op TxnOpKind
	// ReadOnly and Isolation are BEGIN's modes (Isolation as PostgreSQL
	// names the level, empty when not given).
	ReadOnly  bool
	Isolation string
	// Savepoint names the savepoint of SAVEPOINT, ROLLBACK TO and RELEASE.
	Savepoint string
}

// TxnOpKind says which transaction control statement a TxnOp is.
type TxnOpKind string

// The transaction control statements; each is also the statement's Kind.
const (
	TxnBegin      TxnOpKind = "begin"
	TxnCommit     TxnOpKind = "commit"
	TxnRollback   TxnOpKind = "rollback"
	TxnSavepoint  TxnOpKind = "savepoint"
	TxnRollbackTo TxnOpKind = "rollback_to"
	TxnRelease    TxnOpKind = "release"
)

// Kind implements Statement.
func (t *TxnOp) Kind() string { return string(t.Op) }

// CreateView creates (or replaces) a view.
type CreateView struct {
	Name      string
	OrReplace bool
	// SQL is the view's query as written; Columns its output columns (with
	// the names of the optional column list applied).
	SQL     string
	Columns []Column
	// Depends names the tables and views the query reads.
	Depends []string
	// Owner is the role creating the view (the session sets it).
	Owner string
}

// Kind implements Statement.
func (*CreateView) Kind() string { return "create_view" }

// DropView drops views.
type DropView struct {
	Names    []string
	IfExists bool
	// Cascade drops the views that read the views too.
	Cascade bool
}

// Kind implements Statement.
func (*DropView) Kind() string { return "drop_view" }
