package ir

import (
	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
)

// Statement is a statement bound to the catalog. Its concrete types are the
// *Select, *Insert, *Update, *Delete, DDL and session statements below.
type Statement interface {
	// Kind is the statement kind for metrics and the command tag
	// ("select", "insert", "create_table", ...).
	Kind() string
	// Describe says what the statement is and needs (stmt.go).
	Describe() Description
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

// Describe implements Statement.
func (q *Query) Describe() Description {
	return Description{Class: ClassQuery, Writes: len(q.Writes) > 0}
}

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

// Describe implements Statement.
func (*Insert) Describe() Description { return Description{Class: ClassDML, Writes: true} }

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
	// Untargeted is DO NOTHING without a conflict target: in a partition
	// of a partitioned table every unique key of the partition arbitrates,
	// its own ones too, as PostgreSQL's.
	Untargeted bool
}

// Update is a bound UPDATE. Source yields, for each row to change, the old
// row (its first len(Table.Columns) columns) followed by the columns of any
// FROM tables; Set expressions read that row.
type Update struct {
	Permissions
	Table  *catalog.Table
	Source Rel
	Set    map[int]Expr
	// Shared are computed once per row before Set, each appended to the
	// row Set reads (after Source's columns): the row of a
	// multiple-column assignment's sub-SELECT, SET (a, b) = (SELECT ...),
	// whose fields Set's columns take.
	Shared    []Expr
	Returning *Returning
	// Recheck is the part of WHERE that reads only the target row: a row
	// changed by a concurrent statement since the scan must still pass it.
	Recheck Expr
	// Writes are its data-modifying WITH queries (writecte.go).
	Writes []*CTE
	// Constraints: CHECKs and foreign keys to enforce (nil: none).
	Constraints *Constraints
	// Heirs are the same UPDATE of each table inheriting from Table
	// (planner/inherit.go), each bound over that table's rows with
	// Table's columns; they run after it, in the statement's transaction.
	Heirs []*Update
}

// Kind implements Statement.
func (*Update) Kind() string { return "update" }

// Describe implements Statement.
func (*Update) Describe() Description { return Description{Class: ClassDML, Writes: true} }

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
	// Heirs: as for Update.
	Heirs []*Delete
}

// Kind implements Statement.
func (*Delete) Kind() string { return "delete" }

// Describe implements Statement.
func (*Delete) Describe() Description { return Description{Class: ClassDML, Writes: true} }

// CreateTable creates a table.
type CreateTable struct {
	Table       *catalog.Table // ID assigned at execution
	IfNotExists bool
	// Sequences are the sequences of its SERIAL and identity columns,
	// created with it (IDs assigned at execution).
	Sequences []*catalog.Sequence
	// Notices are what binding it announces (columns merged from several
	// INHERITS parents), sent before it runs.
	Notices []*pgerr.Error
}

// Kind implements Statement.
func (*CreateTable) Kind() string { return "create_table" }

// Describe implements Statement.
func (x *CreateTable) Describe() Description {
	d := ddl()
	if x == nil || x.Table == nil || !x.Table.Temp {
		// A temporary table needs the database's TEMP privilege, which
		// PUBLIC holds and zproxy does not revoke.
		d.CreatesIn = catalog.PublicSchema
		if x != nil && x.Table != nil {
			d.CreatesIn, _ = catalog.SplitName(x.Table.Name)
		}
	}
	return d
}

// CreateTableAs is CREATE TABLE ... AS query and SELECT ... INTO: a table
// whose columns are the query's, created and filled with its rows by one
// statement. Its permissions are the query's (the new table is its
// creator's).
type CreateTableAs struct {
	Permissions
	Create *CreateTable
	// Insert fills the table with the query's rows, nil for WITH NO DATA.
	// It is bound against the table's descriptor before the table exists;
	// the created table's descriptor takes its place when it runs.
	Insert *Insert
	// SelectInto marks the SELECT ... INTO spelling.
	SelectInto bool
}

// Kind implements Statement.
func (*CreateTableAs) Kind() string { return "create_table_as" }

// Describe implements Statement: CREATE TABLE's description, with its own
// command tag.
func (x *CreateTableAs) Describe() Description {
	var ct *CreateTable
	if x != nil {
		ct = x.Create
	}
	if x != nil && x.SelectInto {
		return ct.Describe().tagged("SELECT INTO")
	}
	if ct != nil && ct.Table != nil && ct.Table.IsMatview() {
		return ct.Describe().tagged("CREATE MATERIALIZED VIEW")
	}
	return ct.Describe().tagged("CREATE TABLE AS")
}

// DropTable drops tables.
type DropTable struct {
	Names    []string
	IfExists bool
	// Cascade drops the views that read the tables too.
	Cascade bool
	// Matview is DROP MATERIALIZED VIEW: the names must be materialized
	// views, and DROP TABLE's must not be.
	Matview bool
}

// Kind implements Statement.
func (*DropTable) Kind() string { return "drop_table" }

// Describe implements Statement.
func (x *DropTable) Describe() Description {
	d := ddl(refs(ObjectTable, x.Names...)...)
	if x != nil && x.Matview {
		d.Tag = "DROP MATERIALIZED VIEW"
	}
	return d
}

// CreateIndex creates a secondary index.
type CreateIndex struct {
	Table       string
	Index       *catalog.Index
	IfNotExists bool
	// AlignToData (WITH (align = 'data'), Z-order only) asks the build to
	// set the index's leads from the table's rows (catalog.Table.AlignLeads)
	// before the index is published.
	AlignToData bool
	// Partitions are the same index on each partition of a partitioned
	// table, created after it.
	Partitions []*CreateIndex
}

// Kind implements Statement.
func (*CreateIndex) Kind() string { return "create_index" }

// Describe implements Statement.
func (x *CreateIndex) Describe() Description { return ddl(refs(ObjectTable, x.Table)...) }

// DropIndex drops a secondary index.
type DropIndex struct {
	Name     string
	IfExists bool
}

// Kind implements Statement.
func (*DropIndex) Kind() string { return "drop_index" }

// Describe implements Statement.
func (x *DropIndex) Describe() Description { return ddl(refs(ObjectIndex, x.Name)...) }

// ShowIndexes lists a table's indexes.
type ShowIndexes struct{ Table *catalog.Table }

// Kind implements Statement.
func (*ShowIndexes) Kind() string { return "show" }

// Describe implements Statement.
func (*ShowIndexes) Describe() Description { return Description{Class: ClassUtility} }

// CheckTable verifies a table and its indexes agree.
type CheckTable struct{ Tables []*catalog.Table }

// Kind implements Statement.
func (*CheckTable) Kind() string { return "check" }

// Describe implements Statement.
func (*CheckTable) Describe() Description { return Description{Class: ClassUtility} }

// Explain wraps a statement to plan (and with Analyze, run).
type Explain struct {
	Stmt    Statement
	Analyze bool
	// Format is "text" (zproxy's own layout) or one of PostgreSQL's
	// structured formats: "json", "yaml", "xml".
	Format string
	// The other options, resolved as PostgreSQL resolves them.
	Verbose, Costs, Buffers, Timing, Summary, Settings, WAL bool
}

// Kind implements Statement.
func (*Explain) Kind() string { return "explain" }

// Describe implements Statement: EXPLAIN is a utility statement; EXPLAIN
// ANALYZE runs its statement, and writes when that writes.
func (x *Explain) Describe() Description {
	return Description{Class: ClassUtility, Writes: x.Analyze && x.Stmt.Describe().Writes}
}

// SetVar sets a session variable (Value "" with Reset for RESET/DEFAULT).
// More lists further assignments of the same statement (SET TRANSACTION
// ISOLATION LEVEL ..., READ ONLY).
type SetVar struct {
	Name  string
	Value string
	Reset bool
	// Default is SET name TO DEFAULT: a reset that PostgreSQL tags SET.
	Default bool
	// Local is SET LOCAL: the change lasts until the end of the block.
	Local bool
	More  []*SetVar
}

// Kind implements Statement.
func (*SetVar) Kind() string { return "set" }

// Describe implements Statement.
func (*SetVar) Describe() Description { return Description{Class: ClassUtility, NoSnapshot: true} }

// ShowVar shows a session variable.
type ShowVar struct{ Name string }

// Kind implements Statement.
func (*ShowVar) Kind() string { return "show" }

// Describe implements Statement.
func (*ShowVar) Describe() Description { return Description{Class: ClassUtility, NoSnapshot: true} }

// TxnOp is a transaction control statement.
type TxnOp struct {
	Op TxnOpKind
	// ReadOnly and Isolation are BEGIN's modes (Isolation as PostgreSQL
	// names the level, empty when not given).
	ReadOnly  bool
	Isolation string
	// Start is BEGIN spelt START TRANSACTION, which PostgreSQL tags so.
	Start bool
	// Savepoint names the savepoint of SAVEPOINT, ROLLBACK TO and RELEASE.
	Savepoint string
	// Chain is COMMIT or ROLLBACK AND CHAIN: a new block with the same
	// characteristics begins at once.
	Chain bool
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

// Describe implements Statement.
func (*TxnOp) Describe() Description { return Description{Class: ClassTCL} }

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
	// Path is the search path the view's query was bound under
	// (catalog.View.Path).
	Path []string
	// Temp makes a temporary view (CREATE TEMP VIEW, or a view reading a
	// temporary relation: ImplicitTemp, which PostgreSQL announces).
	Temp, ImplicitTemp bool
	// TempFuncs are the OIDs of the session's routines of pg_temp the
	// query may call (catalog.View.TempFuncs).
	TempFuncs []uint32
	// Options are WITH (...)'s reloptions, "name=value" in order written.
	Options []string
	// Stars are what the query's stars named (catalog.View.Stars).
	Stars []catalog.ViewStar
}

// Kind implements Statement.
func (*CreateView) Kind() string { return "create_view" }

// Describe implements Statement: CREATE OR REPLACE VIEW replacing a view
// needs its ownership too.
func (x *CreateView) Describe() Description {
	d := ddl()
	if !x.Temp {
		d.CreatesIn, _ = catalog.SplitName(x.Name)
	}
	if x.OrReplace {
		d.Owns = refs(ObjectView, x.Name)
	}
	return d
}

// DropView drops views.
type DropView struct {
	Names    []string
	IfExists bool
	// Cascade drops the views that read the views too.
	Cascade bool
}

// Kind implements Statement.
func (*DropView) Kind() string { return "drop_view" }

// Describe implements Statement.
func (x *DropView) Describe() Description { return ddl(refs(ObjectView, x.Names...)...) }

// RefreshMatview is REFRESH MATERIALIZED VIEW: the table's rows are
// replaced by its query's, in one transaction.
type RefreshMatview struct {
	Permissions
	Table        *catalog.Table
	Concurrently bool
	// NoData empties the view and leaves it unpopulated.
	NoData bool
	// Insert refills the table with the query's rows (nil for NoData),
	// bound against the descriptor as of binding; the executor points it
	// at the table's fresh store partitions.
	Insert *Insert
}

// Kind implements Statement.
func (*RefreshMatview) Kind() string { return "refresh_materialized_view" }

// Describe implements Statement: the view's owner alone may refresh it.
func (x *RefreshMatview) Describe() Description {
	d := ddl()
	if x != nil && x.Table != nil {
		d.Owns = []ObjectRef{{Kind: ObjectTable, Name: x.Table.Name}}
	}
	return d
}
