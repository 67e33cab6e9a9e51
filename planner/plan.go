package planner

import (
	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Statement is a statement bound to the catalog. Its concrete types are the
// *Select, *Insert, *Update, *Delete, DDL and session statements below.
type Statement interface {
	// Kind is the statement kind for metrics and the command tag
	// ("select", "insert", "create_table", ...).
	Kind() string
}

// OutputColumn is one column a statement returns.
type OutputColumn struct {
	Name  string
	Type  sqltypes.Type
	Table *catalog.Table // source table, when the column is a plain column
	Col   int            // ordinal in Table, or -1
}

// SortKey is one ORDER BY item over the projected row.
type SortKey struct {
	Col        int // index into the projected row (possibly a hidden column)
	Desc       bool
	NullsFirst bool
}

// AggFunc names an aggregate.
type AggFunc string

// Aggregates.
const (
	AggCount     AggFunc = "count"
	AggCountStar AggFunc = "count(*)"
	AggSum       AggFunc = "sum"
	AggMin       AggFunc = "min"
	AggMax       AggFunc = "max"
	AggAvg       AggFunc = "avg"
)

// AggCall is one aggregate over the input rows.
type AggCall struct {
	Func     AggFunc
	Arg      Expr // nil for count(*)
	Distinct bool
	Typ      sqltypes.Type
}

// Hint is an index hint in TiDB syntax.
type Hint struct {
	Use   bool // USE_INDEX (true) or IGNORE_INDEX (false)
	Table string
	Index []string // empty USE_INDEX(t) means: the primary key / a table scan
}

// Select is a bound SELECT over at most one table.
//
// Rows flow: scan Table → Filter (over the table row) → if Aggregated, group
// by GroupBy and compute Aggs, giving rows of [group values..., aggregate
// values...] on which Having and Project are evaluated; otherwise Project is
// evaluated over the table row → Sort by OrderBy (over the projected row) →
// Offset/Limit → the first Visible columns go to the client.
type Select struct {
	Table      *catalog.Table // nil for SELECT without FROM
	Filter     Expr           // nil: every row
	Aggregated bool
	GroupBy    []Expr
	Aggs       []AggCall
	Having     Expr
	Project    []Expr
	Columns    []OutputColumn // the Visible output columns
	Visible    int
	OrderBy    []SortKey
	Distinct   bool
	Limit      Expr // nil: no limit
	Offset     Expr
	Hints      []Hint
	// Needed lists the table columns the statement reads (for covering).
	Needed []int
}

// Kind implements Statement.
func (*Select) Kind() string { return "select" }

// Insert is a bound INSERT ... VALUES.
type Insert struct {
	Table *catalog.Table
	// Rows are full table rows: one expression per table column (defaults
	// filled in as constants).
	Rows [][]Expr
	// OnConflict: nil (duplicate key is an error), DoNothing, or DoUpdate.
	OnConflict *OnConflict
}

// Kind implements Statement.
func (*Insert) Kind() string { return "insert" }

// OnConflict is INSERT's ON CONFLICT clause.
type OnConflict struct {
	DoNothing bool
	// Set assigns new values for conflicting rows. Each expression is
	// evaluated over the concatenation [existing row..., excluded row...].
	Set map[int]Expr
}

// Update is a bound UPDATE. Set expressions are evaluated over the old row.
type Update struct {
	Scan *Select // the rows to change (Project = the whole row)
	Set  map[int]Expr
}

// Kind implements Statement.
func (*Update) Kind() string { return "update" }

// Delete is a bound DELETE.
type Delete struct {
	Scan *Select
}

// Kind implements Statement.
func (*Delete) Kind() string { return "delete" }

// CreateTable creates a table.
type CreateTable struct {
	Table       *catalog.Table // ID assigned at execution
	IfNotExists bool
}

// Kind implements Statement.
func (*CreateTable) Kind() string { return "create_table" }

// DropTable drops tables.
type DropTable struct {
	Names    []string
	IfExists bool
}

// Kind implements Statement.
func (*DropTable) Kind() string { return "drop_table" }

// CreateIndex creates a secondary index.
type CreateIndex struct {
	Table       string
	Index       *catalog.Index
	IfNotExists bool
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

// TxnOp is BEGIN, COMMIT or ROLLBACK.
type TxnOp struct{ Op string }

// Kind implements Statement.
func (t *TxnOp) Kind() string { return t.Op }
