package catalog

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/guc"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/zorder"
)

// CatalogPartition is the store partition that holds the catalog. Data
// partitions start with 'T' or 'I' (see TablePartition), so it cannot clash.
var CatalogPartition = []byte("C/zproxy-catalog")

const (
	tablePrefix   = "t/"
	viewPrefix    = "w/"
	seqPrefix     = "q/"
	versionPrefix = "v/"
	descAttr      = "desc"
)

// IndexKind says how an index orders its entries.
type IndexKind string

// Index kinds.
const (
	KindPrimary IndexKind = "primary"
	KindBTree   IndexKind = "btree"
	KindZOrder  IndexKind = "zorder"
)

// IndexState says whether queries may use an index.
type IndexState string

// Index states. A building index is maintained by writes but not read.
const (
	StateBuilding IndexState = "building"
	StatePublic   IndexState = "public"
)

// Mutability of a table's rows.
const (
	Mutable       = "mutable"
	ImmutableRows = "immutable_rows"
)

// Column is one column of a table.
type Column struct {
	Name    string        `json:"name"`
	Type    sqltypes.Type `json:"type"`
	NotNull bool          `json:"not_null,omitempty"`
	// Hidden columns are zproxy's own (the row id of a table declared
	// without a primary key): readable by name, left out of SELECT *.
	Hidden bool `json:"hidden,omitempty"`
	// Default is the DEFAULT expression as written ("" for none): bound
	// again by every INSERT that needs it.
	Default string `json:"default,omitempty"`
	// Identity is "always" or "by default" for an identity column.
	Identity string `json:"identity,omitempty"`
	// Generated is a generated column's expression as written (GENERATED
	// ALWAYS AS (expr) STORED): every write computes the column from the
	// row's other columns, and stores it.
	Generated string `json:"generated,omitempty"`
	// Sequence names the sequence the column's default (SERIAL, DEFAULT
	// nextval('s')) or identity draws from: DROP SEQUENCE finds the
	// columns depending on it here.
	Sequence string `json:"sequence,omitempty"`
	// Attr is the name of the store attribute holding the column's values
	// when it differs from Name: a renamed column keeps its attribute, and
	// a column added after another of its name was dropped gets a fresh
	// one (so the dropped column's values never come back).
	Attr string `json:"attr,omitempty"`
	// ID is the column's number in its table (1 up, Table.NextColumnID
	// hands them out): it never changes (RENAME keeps it, ALTER TYPE too)
	// and a dropped column's is never given again, so a stored value can
	// name the column by it (kv.Attr.ID, kv/pebble's value format 2). 0
	// until the descriptor is first written (AssignColumnIDs); rows written
	// meanwhile go by name alone.
	ID uint16 `json:"id,omitempty"`
	// Missing, for a column added with a constant DEFAULT by ALTER TABLE,
	// is that default's text: rows written before the column existed
	// have no attribute for it and read as this value (PostgreSQL's
	// attmissingval). Rows written since store an explicit null attribute
	// for NULL, so the two never mix.
	Missing string `json:"missing,omitempty"`
	// Comment is COMMENT ON COLUMN's text.
	Comment string `json:"comment,omitempty"`
}

// AttrName is the store attribute of the column's values.
func (c *Column) AttrName() string {
	if c.Attr != "" {
		return c.Attr
	}
	return c.Name
}

// MissingValue is the value rows written before the column existed read
// as (NULL unless Missing is set).
func (c *Column) MissingValue() (sqltypes.Value, error) {
	if c.Missing == "" {
		return sqltypes.Null, nil
	}
	return sqltypes.ParseText(c.Type, c.Missing)
}

// Check is a CHECK constraint: every row's value of the expression must
// not be false (NULL passes, as in PostgreSQL).
type Check struct {
	Name string `json:"name"`
	// SQL is the expression as written (PostgreSQL syntax), bound again
	// by every statement that writes the table.
	SQL string `json:"sql"`
	// NotValid: existing rows have not been checked (ADD CONSTRAINT ...
	// NOT VALID, or a validation in progress); new rows are.
	NotValid bool `json:"not_valid,omitempty"`
}

// Sequence is a sequence generator (CREATE SEQUENCE, SERIAL, IDENTITY).
// Its state lives in its own store item (see SequencePartition); the
// descriptor holds its definition.
type Sequence struct {
	ID        uint64 `json:"id"`
	Name      string `json:"name"`
	Increment int64  `json:"increment"`
	Min       int64  `json:"min"`
	Max       int64  `json:"max"`
	Start     int64  `json:"start"`
	Cache     int64  `json:"cache"`
	Cycle     bool   `json:"cycle,omitempty"`
	// OwnedBy is "table.column" for SERIAL and identity columns: the
	// sequence is dropped with its table.
	OwnedBy string `json:"owned_by,omitempty"`
	// BitReversed hands out values with their bits reversed (Spanner's
	// bit-reversed sequences): unique, but spread over the key space
	// instead of always appending at its end.
	BitReversed bool `json:"bit_reversed,omitempty"`
	// Type is the integer type of the values (smallint, integer, bigint).
	Type sqltypes.Type `json:"type"`
	// Temp marks a temporary sequence (a temporary table's SERIAL).
	Temp bool `json:"temp,omitempty"`
	// Owner is the role that created the sequence (its table's owner for
	// SERIAL and identity columns); empty for sequences created before
	// owners were recorded, which only superusers then own.
	Owner string `json:"owner,omitempty"`
	// Comment is COMMENT ON SEQUENCE's text.
	Comment string `json:"comment,omitempty"`
}

// KeyColumn is one column of a key: the primary key, a btree index or a
// Z-order index.
type KeyColumn struct {
	// Column is the column's ordinal in Table.Columns; -1 for an
	// expression (Expr) of a secondary index.
	Column int  `json:"column"`
	Desc   bool `json:"desc,omitempty"`
	// Expr is an expression key's text as pg_get_indexdef prints it
	// (deparsed from the bound expression, so it binds back to the same
	// expression in any session), and ExprType its result type. The
	// expression is bound again wherever entries are computed
	// (ir.BindIndex); its value is the key part's.
	Expr     string         `json:"expr,omitempty"`
	ExprType *sqltypes.Type `json:"expr_type,omitempty"`
	// Width is a Z-order attribute's width in bits (0: the type's default).
	Width int `json:"width,omitempty"`
	// Lead is how many top bits of a Z-order attribute's code come before
	// the interleaved rounds (zorder.Attr.Lead): 0 is zproxy's default
	// layout; CREATE INDEX ... WITH (align = 'data') sets it from the rows
	// (Table.AlignLeads), WITH (leads = ...) as given. It fixes the layout
	// of the index's entries, so it never changes after the build.
	Lead int `json:"lead,omitempty"`
	// Opclass is an inverted index key's operator class (inverted.go):
	// what its tokens are. Empty for btree and Z-order keys.
	Opclass string `json:"opclass,omitempty"`
}

// Index is a secondary index (btree, Z-order or inverted). The primary key is
// described by Table.PrimaryKey, not by an Index.
type Index struct {
	ID      uint64      `json:"id"`
	Name    string      `json:"name"`
	Kind    IndexKind   `json:"kind"`
	Columns []KeyColumn `json:"columns"`
	Include []int       `json:"include,omitempty"`
	// Stored are the table's other columns that every entry holds though
	// the index's definition names none of them: those of a covering
	// index (Covering), fixed when the index was built, so a column added
	// later is not among them. They cover queries as INCLUDE's do.
	Stored []int `json:"stored,omitempty"`
	// Covering says the index stores the row's columns (WITH (covering =
	// true), the default of a gist index over points): its entries hold
	// every column of the table when it was built (Stored), so a query
	// reads the index alone, with no row lookup. A key-value store pays a
	// random read a row for a lookup, which PostgreSQL's heap pays a page.
	Covering bool `json:"covering,omitempty"`
	Shards   int  `json:"shards"`
	// ShardColumns, when positive, is how many leading index columns an
	// entry's shard hashes (WITH (shard_columns = ...); shards.go); 0
	// hashes the row's primary key (a unique entry: its index key).
	ShardColumns int        `json:"shard_columns,omitempty"`
	State        IndexState `json:"state"`
	Comment      string     `json:"comment,omitempty"` // COMMENT ON INDEX
	// Unique: no two rows share the values of the key columns (btree
	// only). Rows with a NULL among them never collide, unless
	// NullsNotDistinct. A unique entry is keyed by the key columns alone
	// (see Table.UniqueKeyed), so uniqueness is the store's not-exists
	// condition on the entry's put.
	Unique           bool `json:"unique,omitempty"`
	NullsNotDistinct bool `json:"nulls_not_distinct,omitempty"`
	// Deferrable and InitiallyDeferred, on a UNIQUE constraint's index,
	// are its condeferrable and condeferred. A deferrable index must hold
	// duplicates until its check (end of statement, or COMMIT when
	// deferred), so its entries are keyed as a non-unique index's, by
	// value and primary key (UniqueKeyed is false), and the executor
	// checks uniqueness by reading each changed value's entries
	// (executor/deferunique.go).
	Deferrable        bool `json:"deferrable,omitempty"`
	InitiallyDeferred bool `json:"initially_deferred,omitempty"`
	// Constraint marks the index of a UNIQUE constraint (pg_constraint
	// contype 'u', named as its index and dropped with ALTER TABLE ...
	// DROP CONSTRAINT); false for CREATE UNIQUE INDEX.
	Constraint bool `json:"constraint,omitempty"`
	// Auto marks an index zproxy made for a foreign key whose columns no
	// index led (the referencing side's lookups need one; PostgreSQL makes
	// none). The system catalogs leave it out, so that clients comparing
	// a schema with their model (TypeORM, Rails) see PostgreSQL's indexes.
	Auto bool `json:"auto,omitempty"`
	// Bounds, on a Z-order index, says that it keeps data bounds
	// (zbounds.go): every writer widens them, and query boxes are clipped
	// to them.
	Bounds bool `json:"bounds,omitempty"`
	// Predicate is a partial index's WHERE clause as pg_get_indexdef
	// prints it (deparsed, like KeyColumn.Expr): only rows for which it
	// is true have entries. "" for an index of every row.
	Predicate string `json:"predicate,omitempty"`
	// ExprColumns are the columns the key expressions read: every entry
	// stores them (EntryColumns), so an entry tells its expressions'
	// values (a uniqueness violation's DETAIL) and covers queries reading
	// those columns.
	ExprColumns []int `json:"expr_columns,omitempty"`
	// Gist, on a Z-order index, says it is a GiST index over a point or
	// range column (gist.go).
	Gist *GistKey `json:"gist,omitempty"`
	// Exclusion, on a btree index with Constraint set, says it is an
	// EXCLUDE constraint's index (exclusion.go).
	Exclusion *Exclusion `json:"exclusion,omitempty"`

	// zschema caches the Z-order schema of a Z-order index; descriptors
	// are immutable once in a snapshot, so it is computed once at load.
	zschema *zorder.Schema
}

// Table describes a table.
type Table struct {
	// ID identifies the table for its whole life (privileges, OIDs).
	ID uint64 `json:"id"`
	// DataID, when set, is the ID its rows are stored under instead
	// (StoreID): TRUNCATE moves the table to fresh partitions.
	DataID     uint64      `json:"data_id,omitempty"`
	Name       string      `json:"name"`
	Columns    []Column    `json:"columns"`
	PrimaryKey []KeyColumn `json:"primary_key"`
	// PKeyName is the primary key's constraint and index name when it is
	// not <table>_pkey (CONSTRAINT name PRIMARY KEY, RENAME CONSTRAINT,
	// ALTER INDEX ... RENAME): PrimaryKeyName.
	PKeyName string `json:"pkey_name,omitempty"`
	Shards   int    `json:"shards"`
	// Triggers are the table's triggers (triggers.go).
	Triggers []*Trigger `json:"triggers,omitempty"`
	// DisabledClones names the row triggers of the partitioned tables
	// above a partition that ALTER TABLE partition DISABLE TRIGGER ALL |
	// USER disabled on it (PostgreSQL disables the partition's clones):
	// they do not fire for rows written to it (Snapshot.WithClonedTriggers).
	DisabledClones []string `json:"disabled_clones,omitempty"`
	// InsteadOf is set on the stand-in a write to a view with INSTEAD OF
	// triggers is bound against (never stored): the view whose triggers
	// run instead of a write.
	InsteadOf *View `json:"-"`
	// ShardColumns, when positive, is how many leading primary-key columns
	// a row's shard hashes (WITH (shard_columns = ...); shards.go); 0, as
	// for every table created before the option, hashes the whole key.
	ShardColumns int      `json:"shard_columns,omitempty"`
	Mutability   string   `json:"mutability"`
	Indexes      []*Index `json:"indexes,omitempty"`
	Checks       []Check  `json:"checks,omitempty"`
	// ForeignKeys are the table's FOREIGN KEY constraints (constraints.go).
	ForeignKeys []ForeignKey `json:"foreign_keys,omitempty"`
	// Owner is the role that created the table and holds every privilege
	// on it (empty for tables created before roles existed).
	Owner string `json:"owner,omitempty"`
	// Rewrite, while a primary-key, placement or column type change copies
	// the rows to a new layout, is the table as it will be (new key or
	// types, store IDs); writes to the
	// table are refused meanwhile (ObjectInUse) and a restart abandons the
	// change (executor/rekey.go).
	Rewrite *Table `json:"rewrite,omitempty"`
	// TTL, when set, expires rows (ttl.go).
	TTL *TTL `json:"ttl,omitempty"`
	// RetiredAttrs are store attributes of dropped columns: rows still
	// hold them, so no new column may use them.
	RetiredAttrs []string `json:"retired_attrs,omitempty"`
	// NextColumnID is the ID the next column added gets (Column.ID); 0 in
	// a descriptor written before column IDs existed, whose columns
	// AssignColumnIDs numbers from 1 when it is read.
	NextColumnID uint16 `json:"next_column_id,omitempty"`
	// Revision is the catalog version that last wrote this descriptor (0
	// for descriptors written before revisions existed). A transaction
	// commits only if the tables it wrote still have the revisions its
	// statements planned with (see executor.Txn).
	Revision uint64 `json:"revision,omitempty"`
	// Comment is COMMENT ON TABLE's text.
	Comment string `json:"comment,omitempty"`
	// ConstraintComments are COMMENT ON CONSTRAINT's texts, by constraint
	// name (ConstraintComment reads them: an entry whose constraint is
	// gone is no comment).
	ConstraintComments map[string]string `json:"constraint_comments,omitempty"`
	// Temp marks a temporary table (temp.go), and OnCommit its ON COMMIT
	// action: "" (preserve rows), "delete rows" or "drop".
	Temp     bool   `json:"temp,omitempty"`
	OnCommit string `json:"on_commit,omitempty"`
	// Matview, when set, makes the table a materialized view (matview.go):
	// its rows are its query's as of the last REFRESH.
	Matview *Matview `json:"matview,omitempty"`
	// Partitioning makes the table a partitioned table, which holds no
	// rows (partition.go).
	Partitioning *Partitioning `json:"partitioning,omitempty"`
	// Parents are the IDs of the table a partition belongs to (with its
	// Bound) or of the tables it inherits from.
	Parents []uint64        `json:"parents,omitempty"`
	Bound   *PartitionBound `json:"bound,omitempty"`

	// Virtual computes the rows of a catalog relation (information_schema,
	// pg_catalog; see package catalog/pgcatalog) when a statement reads it;
	// nil for a stored table.
	Virtual VirtualRows `json:"-"`
}

// VirtualRows computes a catalog relation's rows for the statement whose
// functions see fn.
type VirtualRows func(fn *builtins.Context) ([][]sqltypes.Value, error)

// ColumnIndex returns the ordinal of the named column, or -1.
func (t *Table) ColumnIndex(name string) int {
	for i, c := range t.Columns {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// Index returns the named index, or nil.
func (t *Table) Index(name string) *Index {
	for _, ix := range t.Indexes {
		if ix.Name == name {
			return ix
		}
	}
	return nil
}

// IsPKColumn reports whether column ordinal c is part of the primary key.
func (t *Table) IsPKColumn(c int) bool {
	for _, k := range t.PrimaryKey {
		if k.Column == c {
			return true
		}
	}
	return false
}

// CoversByDefault reports whether ix is covering unless its WITH clause
// says otherwise: a gist index over points or ranges (a Z-order index),
// laid out over its data as a clustered R-tree would be.
func (ix *Index) CoversByDefault() bool {
	return ix.Gist != nil && ix.Kind == KindZOrder
}

// CoveringOption is ix's covering option as reloptions show it
// ("covering=true" or "covering=false"), "" when it is the default.
func (ix *Index) CoveringOption() string {
	if ix.Covering == ix.CoversByDefault() {
		return ""
	}
	return "covering=" + strconv.FormatBool(ix.Covering)
}

// CoverRows makes ix a covering index of t (Index.Covering): its entries
// store every column of t that its key, INCLUDE and expression columns and
// the primary key leave out, as t's columns are now (Index.Stored).
func (t *Table) CoverRows(ix *Index) {
	ix.Covering, ix.Stored = true, nil
	for i := range t.Columns {
		keyed := slices.ContainsFunc(ix.Columns, func(k KeyColumn) bool { return k.Column == i })
		if keyed || t.IsPKColumn(i) || slices.Contains(ix.Include, i) || slices.Contains(ix.ExprColumns, i) {
			continue
		}
		ix.Stored = append(ix.Stored, i)
	}
}

// Covers reports whether the index holds every column in cols (its key
// columns, included columns and the primary key, which every entry carries).
func (t *Table) Covers(ix *Index, cols []int) bool {
	if ix.Inverted() {
		return false // entries hold tokens, not values: rows are rechecked
	}
	for _, c := range cols {
		if t.IsPKColumn(c) {
			continue
		}
		found := false
		for _, k := range ix.Columns {
			if k.Column == c {
				found = true
				break
			}
		}
		found = found || slices.Contains(ix.Include, c) || slices.Contains(ix.Stored, c) || slices.Contains(ix.ExprColumns, c)
		if !found {
			return false
		}
	}
	return true
}

// View is a stored view: a query kept as text and bound again wherever the
// view is used, with the output column names fixed when it was created.
type View struct {
	ID      uint64   `json:"id"`
	Name    string   `json:"name"`
	SQL     string   `json:"sql"`
	Columns []string `json:"columns"`
	// Types are the column types at creation (for the catalog relations).
	Types []sqltypes.Type `json:"types"`
	// Depends names the tables and views the query reads: they cannot be
	// dropped while the view exists.
	Depends []string `json:"depends,omitempty"`
	// Comment is COMMENT ON VIEW's text.
	Comment string `json:"comment,omitempty"`
	// Owner is the role that created the view (empty for views created
	// before owners were recorded).
	Owner string `json:"owner,omitempty"`
	// Temp marks a temporary view (temp.go).
	Temp bool `json:"temp,omitempty"`
	// TempFuncs are the OIDs of the routines of its creator's pg_temp
	// the query may call: a permanent view depends on them as in
	// PostgreSQL, so the session's end (which drops them) drops it.
	TempFuncs []uint32 `json:"tempfuncs,omitempty"`
	// Path is the search path the view was created under, which binds
	// its query wherever it is read (nil: created before any user schema
	// existed, when every name was in public; schemas.go).
	Path []string `json:"path,omitempty"`
	// Triggers are the view's triggers (INSTEAD OF row triggers, and
	// statement triggers; triggers.go).
	Triggers []*Trigger `json:"triggers,omitempty"`
	// Defaults are the columns' defaults (ALTER VIEW ... SET DEFAULT),
	// by column, as written ("" for none); nil when no column has one.
	// An INSERT through the view takes them for the columns it omits.
	Defaults []string `json:"defaults,omitempty"`
	// Options are the view's reloptions ("security_invoker=true"), in
	// PostgreSQL's order: CREATE VIEW ... WITH (...), ALTER VIEW SET/RESET.
	Options []string `json:"options,omitempty"`
	// Stars are what each * (or t.*) of the query named when the view
	// was created, in the order the binder expands them: PostgreSQL
	// stores a view's query with its stars expanded, so a column added to
	// a table later is not one of the view's. Views stored before this
	// was recorded have none, and expand their stars afresh.
	Stars []ViewStar `json:"stars,omitempty"`
}

// ViewStar is the columns one * of a view's query named: each column's
// FROM item ("" for a column merged by JOIN USING) and name, in order.
type ViewStar struct {
	Items []string `json:"items"`
	Names []string `json:"names"`
}

// Option returns the value of reloption name and whether it is set.
func (v *View) Option(name string) (string, bool) {
	for _, o := range v.Options {
		if k, val, _ := strings.Cut(o, "="); k == name {
			return val, true
		}
	}
	return "", false
}

// SecurityInvoker reports whether the view's relations are checked as
// the user reading it (security_invoker) rather than its owner.
func (v *View) SecurityInvoker() bool {
	val, ok := v.Option("security_invoker")
	b, _ := guc.ParseBool(val)
	return ok && b
}

// WithOptions returns the view's reloptions after SET (set, its keys in
// order written) and RESET (reset), as PostgreSQL's transformRelOptions
// makes them: a key set again leaves its old place for the end.
func (v *View) WithOptions(set map[string]string, order, reset []string) []string {
	var out []string
	for _, o := range v.Options {
		k, _, _ := strings.Cut(o, "=")
		if _, again := set[k]; again || slices.Contains(reset, k) {
			continue
		}
		out = append(out, o)
	}
	for _, k := range order {
		out = append(out, k+"="+set[k])
	}
	return out
}

// Snapshot is an immutable view of the catalog at one version.
type Snapshot struct {
	Version   uint64
	tables    map[string]*Table
	views     map[string]*View
	sequences map[string]*Sequence
	roles     map[string]*Role       // see roles.go
	stats     map[uint64]*TableStats // by table ID; see stats.go
	types     map[string]*UserType   // see types.go
	funcs     map[string][]*Function // see functions.go
	operators []*Operator            // see operators.go
	casts     []*Cast
	schemas   map[string]*Schema // see schemas.go
	// extensions are the database's CREATE EXTENSION records
	// (extensions.go).
	extensions map[string]*Extension
	// defaultACLs are the default privileges by key (defaultacl.go).
	defaultACLs map[string]*DefaultACL
	databases   map[uint64]*Database // the store's, by ID; see databases.go
	// perm is the permanent schema under a session's temporary objects
	// (WithTemp, temp.go); nil for a catalog's own snapshot. tempNum
	// numbers the session's temporary schema (TempSchema).
	perm    *Snapshot
	tempNum uint64
	// tempMultiranges are the keys of the session's temporary range
	// types' multirange types (WithTemp), which ResolveType finds through
	// pg_temp without a search of every type.
	tempMultiranges map[string]bool
	// path is the search_path's existing schemas (WithPath, schemas.go),
	// set when pathSet.
	path    []string
	pathSet bool
	// noUsage are the user schemas the session's user may not use
	// (WithoutUsage, schemas.go).
	noUsage map[string]bool
	// memo is what later stages derived from this snapshot (Memo,
	// memo.go); every copy of a snapshot gets its own.
	memo *memo
}

// Sequence returns the named sequence.
func (s *Snapshot) Sequence(name string) (*Sequence, bool) {
	in, key, ok := s.lookupRelation(name)
	if !ok {
		return nil, false
	}
	q, ok := in.sequences[key]
	return q, ok
}

// Sequences returns all sequences sorted by name.
func (s *Snapshot) Sequences() []*Sequence {
	out := make([]*Sequence, 0, len(s.sequences))
	for _, q := range s.sequences {
		out = append(out, q)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// StoredView returns the named view.
func (s *Snapshot) StoredView(name string) (*View, bool) {
	in, key, ok := s.lookupRelation(name)
	if !ok {
		return nil, false
	}
	v, ok := in.views[key]
	return v, ok
}

// Views returns all stored views sorted by name.
func (s *Snapshot) Views() []*View {
	out := make([]*View, 0, len(s.views))
	for _, v := range s.views {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// HasRelation reports whether a table or view of that name exists (they
// share one name space, as in PostgreSQL).
func (s *Snapshot) HasRelation(name string) bool {
	_, _, ok := s.lookupRelation(name)
	return ok
}

// Table returns the named table, or a 42P01 error.
func (s *Snapshot) Table(name string) (*Table, error) {
	if in, key, ok := s.lookupRelation(name); ok {
		if t, ok := in.tables[key]; ok {
			return t, nil
		}
	}
	return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", name)
}

// Tables returns all tables sorted by name.
func (s *Snapshot) Tables() []*Table {
	out := make([]*Table, 0, len(s.tables))
	for _, t := range s.tables {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// HasTable reports whether a table of that name exists.
func (s *Snapshot) HasTable(name string) bool { _, err := s.Table(name); return err == nil }

// FindIndex returns the table holding the named index, and the index.
func (s *Snapshot) FindIndex(name string) (*Table, *Index) {
	if bare, ok := strings.CutPrefix(name, PublicSchema+"."); ok {
		// public's, never the session's temporary table's index.
		if t, ix := s.Permanent().findIndexIn(PublicSchema, bare); t != nil && !t.Temp {
			return t, ix
		}
		return nil, nil
	}
	if sc, n := SplitName(name); sc != PublicSchema {
		return s.findIndexIn(sc, n)
	}
	if s.pathSet {
		if t, ix := s.findIndexIn("", name); t != nil && t.Temp {
			return t, ix
		}
		for _, sc := range s.path {
			if t, ix := s.findIndexIn(sc, name); ix != nil {
				return t, ix
			}
		}
		return nil, nil
	}
	for _, t := range s.tables {
		if ix := t.Index(name); ix != nil {
			return t, ix
		}
	}
	return nil, nil
}

// SharedStaleness is how old a cached schema may be on a shared store
// before Snapshot checks the store for a newer version. Schema changes that
// other proxies must see before they proceed (an index entering its build)
// wait this long, twice over, after publishing.
const SharedStaleness = 100 * time.Millisecond

// Catalog reads and changes the schema stored in a kv.Store.
type Catalog struct {
	// rw is where the descriptors are read and written: the store, or a
	// transaction block's kv transaction (a block's catalog, block.go).
	rw kv.ReadWriter
	// block is set on a transaction block's catalog (Block).
	block *blockState
	// partition holds the descriptors: CatalogPartition, or a session's
	// temporary catalog's own partition (temp.go).
	partition []byte
	// shared holds what every database of the store shares: the version
	// markers, the roles and the registry of databases (databases.go).
	// It is partition itself for the first database and a temporary
	// catalog; another database's catalog names CatalogPartition outside
	// its prefix (kvprefix.Shared).
	shared []byte
	// clock is the newest version any catalog of this process over the
	// store wrote or read: on an exclusive store, a catalog whose snapshot
	// is older reloads, so a role one database's session changed is seen
	// by the others'. Its lock orders the process's version markers
	// (Clock.markers). A transaction block's and a temporary catalog's
	// are nil.
	clock *Clock
	// objTag marks the objects a version marker lists as this database's
	// (SetDatabase): markers are the store's, and a change of one
	// database's table must not conflict with a block of another's that
	// depends on a table of the same name. Empty for the first database.
	objTag string
	// temp marks a session's catalog of temporary objects, whose versions
	// (and so the IDs of its objects) come from NextTempVersion.
	temp    bool
	tempNum uint64
	// exclusive: no other process changes the store (kv.Capabilities), so
	// the cache is only ever replaced by this process's own changes.
	exclusive bool
	// keepsVersions: the store's transactions read a snapshot as of their
	// start (kv.Capabilities.KeepsVersions).
	keepsVersions bool

	mu      sync.RWMutex // every statement reads snap; few change it
	snap    *Snapshot
	checked time.Time // when snap was last known to be the newest
}

// Open returns a Catalog over store and loads the current schema.
func Open(ctx context.Context, store kv.Store) (*Catalog, error) {
	return OpenIn(ctx, store, CatalogPartition, nil)
}

// OpenIn returns the Catalog of one database over store (its view of the
// store, kv/kvprefix), whose shared items (roles, the registry of
// databases, the version markers) are in partition shared, and loads the
// current schema. The catalogs of one process over one store share clock.
func OpenIn(ctx context.Context, store kv.Store, shared []byte, clock *Clock) (*Catalog, error) {
	if clock == nil {
		clock = &Clock{}
	}
	caps := store.Capabilities()
	c := &Catalog{rw: store, partition: CatalogPartition, shared: shared, clock: clock, exclusive: caps.Exclusive, keepsVersions: caps.KeepsVersions}
	if _, err := c.Snapshot(ctx); err != nil {
		return nil, err
	}
	return c, nil
}

// SetDatabase tags the objects c's version markers list with database
// id's tag (the first database's are untagged, as markers were before
// there were several databases).
func (c *Catalog) SetDatabase(id uint64) {
	if id != FirstDatabaseID {
		c.objTag = "@" + strconv.FormatUint(id, 10) + ":"
	}
}

// tagged returns objects with c's database tag.
func (c *Catalog) tagged(objects []string) []string {
	if c.objTag == "" {
		return objects
	}
	out := make([]string, len(objects))
	for i, o := range objects {
		out[i] = c.objTag + o
	}
	return out
}

// ownObject returns the object a marker lists as c's database's, false
// when it is another database's.
func (c *Catalog) ownObject(o string) (string, bool) {
	if c.objTag != "" {
		return strings.CutPrefix(o, c.objTag)
	}
	return o, !strings.HasPrefix(o, "@")
}

// Clock is the newest catalog version the catalogs of one process have
// seen (Catalog.clock), and the lock that orders the version markers they
// write.
type Clock struct {
	v atomic.Uint64
	// markers is held while a catalog of the process writes a version
	// marker, and by a transaction block from its Seal until its commit
	// is decided (see Seal). A block's marker is the version after the
	// newest at Seal, taken by whichever commit comes first; without the
	// lock, an automatic ANALYZE's statistics or another session's DDL
	// committing in between would take it and fail the block with 40001
	// though nothing it depends on changed. Other processes over the
	// store can still take it: that is the first-committer-wins race of
	// Block's design.
	markers sync.Mutex
}

// lockMarkers takes the process's lock of version markers, returning its
// unlock.
func (c *Catalog) lockMarkers() func() {
	if c.clock == nil {
		return func() {}
	}
	c.clock.markers.Lock()
	return c.clock.markers.Unlock
}

// observe records version v.
func (k *Clock) observe(v uint64) {
	if k == nil {
		return
	}
	for {
		cur := k.v.Load()
		if v <= cur || k.v.CompareAndSwap(cur, v) {
			return
		}
	}
}

// behind reports whether a snapshot of version v is older than the
// newest seen.
func (k *Clock) behind(v uint64) bool { return k != nil && v < k.v.Load() }

// sharedPartition is where c's shared items are.
func (c *Catalog) sharedPartition() []byte {
	if c.shared != nil {
		return c.shared
	}
	return c.partition
}

// Snapshot returns the current schema, re-reading it from the store if
// another proxy (or this one) changed it since the last read.
//
// On an exclusive store the cached schema is always current; on a shared one
// it is re-checked (one single-item read) once it is SharedStaleness old.
func (c *Catalog) Snapshot(ctx context.Context) (*Snapshot, error) {
	if c.block != nil {
		return c.blockSnapshot(ctx)
	}
	c.mu.RLock()
	cur, checked := c.snap, c.checked
	c.mu.RUnlock()
	if cur != nil && (c.exclusive && !c.clock.behind(cur.Version) || time.Since(checked) < SharedStaleness) {
		return cur, nil
	}
	return c.refresh(ctx)
}

// Latest is Snapshot without the staleness a shared store allows: it
// always checks the version marker (one single-item read). Logins use it,
// so a role created or changed through another proxy a moment ago counts.
func (c *Catalog) Latest(ctx context.Context) (*Snapshot, error) {
	if c.exclusive || c.block != nil {
		return c.Snapshot(ctx)
	}
	return c.refresh(ctx)
}

// refresh reads the newest version marker and reloads the schema if it
// moved.
func (c *Catalog) refresh(ctx context.Context) (*Snapshot, error) {
	now := time.Now()
	v, err := c.latestVersion(ctx)
	if err != nil {
		return nil, err
	}
	c.clock.observe(v)
	c.mu.Lock()
	cur := c.snap
	if cur != nil && cur.Version == v {
		c.checked = now
		c.mu.Unlock()
		return cur, nil
	}
	c.mu.Unlock()
	snap, err := c.load(ctx)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.snap == nil || c.snap.Version <= snap.Version {
		c.snap, c.checked = snap, now
	}
	return c.snap, nil
}

// Exclusive reports whether this process is the store's only client.
func (c *Catalog) Exclusive() bool { return c.exclusive }

func versionKey(v uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte(versionPrefix), v)
}

func (c *Catalog) latestVersion(ctx context.Context) (uint64, error) {
	return latestVersionIn(ctx, c.rw, c.sharedPartition())
}

// latestVersionIn reads the newest version marker of the catalog in
// partition through r.
func latestVersionIn(ctx context.Context, r kv.ReadWriter, partition []byte) (uint64, error) {
	start := []byte(versionPrefix)
	it := r.Scan(ctx, kv.ScanRequest{
		Partition: partition, Start: start, End: kv.PrefixEnd(start),
		Reverse: true, Limit: 1, Consistent: true,
	})
	defer it.Close()
	if it.Next() {
		k := it.Item().Key.Sort
		return binary.BigEndian.Uint64(k[len(versionPrefix):]), nil
	}
	if err := it.Err(); err != nil {
		return 0, fmt.Errorf("catalog: reading version: %w", err)
	}
	return 0, nil
}

// load reads every descriptor and the version they belong to. It reads the
// version first and again after the descriptors, retrying if a change
// landed in between, so the snapshot is consistent.
func (c *Catalog) load(ctx context.Context) (*Snapshot, error) {
	for attempt := 0; ; attempt++ {
		v1, err := c.viewVersion(ctx)
		if err != nil {
			return nil, err
		}
		tables := map[string]*Table{}
		start := []byte(tablePrefix)
		it := c.rw.Scan(ctx, kv.ScanRequest{Partition: c.partition, Start: start, End: kv.PrefixEnd(start), Consistent: true})
		for it.Next() {
			t, err := decodeTable(it.Item())
			if err != nil {
				it.Close()
				return nil, err
			}
			t.PrepareZSchemas()
			tables[t.Name] = t
		}
		err = it.Err()
		it.Close()
		if err != nil {
			return nil, fmt.Errorf("catalog: reading tables: %w", err)
		}
		views := map[string]*View{}
		start = []byte(viewPrefix)
		it = c.rw.Scan(ctx, kv.ScanRequest{Partition: c.partition, Start: start, End: kv.PrefixEnd(start), Consistent: true})
		for it.Next() {
			var v View
			if err := decodeDesc(it.Item(), &v); err != nil {
				it.Close()
				return nil, err
			}
			views[v.Name] = &v
		}
		err = it.Err()
		it.Close()
		if err != nil {
			return nil, fmt.Errorf("catalog: reading views: %w", err)
		}
		sequences := map[string]*Sequence{}
		start = []byte(seqPrefix)
		it = c.rw.Scan(ctx, kv.ScanRequest{Partition: c.partition, Start: start, End: kv.PrefixEnd(start), Consistent: true})
		for it.Next() {
			var q Sequence
			if err := decodeDesc(it.Item(), &q); err != nil {
				it.Close()
				return nil, err
			}
			sequences[q.Name] = &q
		}
		err = it.Err()
		it.Close()
		if err != nil {
			return nil, fmt.Errorf("catalog: reading sequences: %w", err)
		}
		roles, err := c.loadRoles(ctx)
		if err != nil {
			return nil, err
		}
		types, err := c.loadTypes(ctx)
		if err != nil {
			return nil, err
		}
		enums := typesByOID(types)
		for _, t := range tables {
			linkTypes(t, enums, false)
		}
		for _, v := range views {
			// A view's column types keep only their OIDs when stored.
			for i := range v.Types {
				v.Types[i], _ = enums.link(v.Types[i])
			}
		}
		stats, err := c.loadStats(ctx)
		if err != nil {
			return nil, err
		}
		funcs, err := c.loadFunctions(ctx, types)
		if err != nil {
			return nil, err
		}
		schemas, err := c.loadSchemas(ctx)
		if err != nil {
			return nil, err
		}
		extensions, err := c.loadExtensions(ctx)
		if err != nil {
			return nil, err
		}
		databases, err := c.loadDatabases(ctx)
		if err != nil {
			return nil, err
		}
		defaultACLs, err := c.loadDefaultACLs(ctx)
		if err != nil {
			return nil, err
		}
		operators, casts, err := c.loadOperators(ctx, types)
		if err != nil {
			return nil, err
		}
		v2, err := c.viewVersion(ctx)
		if err != nil {
			return nil, err
		}
		if v1 == v2 || attempt > 10 {
			return &Snapshot{Version: v2, tables: tables, views: views, sequences: sequences, roles: roles, stats: stats, types: types, funcs: funcs, operators: operators, casts: casts, schemas: schemas, extensions: extensions, databases: databases, defaultACLs: defaultACLs, tempNum: c.tempNum, memo: newMemo()}, nil
		}
	}
}

// DescriptorKey is the store key of the named table's descriptor: a
// transaction reads and share-locks it to learn that the table's schema did
// not change before its commit.
func DescriptorKey(table string) kv.Key {
	return kv.Key{Partition: CatalogPartition, Sort: []byte(tablePrefix + table)}
}

// DescriptorRevision returns the revision of the table descriptor item it
// (read at DescriptorKey); ok is false when the item does not exist.
func DescriptorRevision(it kv.Item) (rev uint64, ok bool, err error) {
	if !kv.Found(it) {
		return 0, false, nil
	}
	t, err := decodeTable(it)
	if err != nil {
		return 0, false, err
	}
	return t.Revision, true, nil
}

func decodeTable(it kv.Item) (*Table, error) {
	var t Table
	if err := decodeDesc(it, &t); err != nil {
		return nil, err
	}
	t.AssignColumnIDs()
	return &t, nil
}

// Reserved attribute IDs (kv.Attr.ID) of the attributes of a row that are
// not columns'; column IDs stay below MaxColumnID.
const (
	MaxColumnID   = 0xFF00
	VersionAttrID = 0xFFFF
	ExpiresAttrID = 0xFFFE
)

// AssignColumnIDs gives each column without an ID the table's next one.
// A descriptor from before column IDs (NextColumnID 0) is numbered 1, 2,
// ... in column order: the same numbers at every read, so they need no
// migration, and its stored rows name their columns only (format 1), so
// no number of a column dropped before the upgrade can be met again.
// A table that ran out of IDs (MaxColumnID columns added over its life)
// leaves its new columns without one; their rows go by name.
func (t *Table) AssignColumnIDs() {
	if t.NextColumnID == 0 {
		t.NextColumnID = 1
		for _, c := range t.Columns {
			if c.ID >= t.NextColumnID {
				t.NextColumnID = c.ID + 1
			}
		}
	}
	for i := range t.Columns {
		if c := &t.Columns[i]; c.ID == 0 && t.NextColumnID < MaxColumnID {
			c.ID = t.NextColumnID
			t.NextColumnID++
		}
	}
}

// decodeDesc reads a descriptor item's JSON into v.
func decodeDesc(it kv.Item, v any) error {
	for _, a := range it.Attrs {
		if a.Name == descAttr {
			// A copy: a scanned item's bytes belong to the store, and a
			// descriptor is decoded while other statements use it (a
			// background ANALYZE's catalog load once saw them change
			// under json.Unmarshal).
			data := bytes.Clone(a.B)
			if a.Kind == kv.AttrString {
				data = []byte(a.S)
			}
			if err := json.Unmarshal(data, v); err != nil {
				return fmt.Errorf("catalog: corrupt descriptor %q: %w", it.Key.Sort, err)
			}
			return nil
		}
	}
	return fmt.Errorf("catalog: descriptor %q has no %s attribute", it.Key.Sort, descAttr)
}

// Change describes one schema change: the tables to write and to remove,
// and the roles (roles.go).
type Change struct {
	Put    []*Table
	Delete []string
	// PutViews and DeleteViews change stored views.
	PutViews    []*View
	DeleteViews []string
	// PutSequences and DeleteSequences change sequence definitions.
	PutSequences    []*Sequence
	DeleteSequences []string

	PutRoles    []*Role
	DeleteRoles []string

	// PutTypes and DeleteTypes change user-defined types (types.go).
	PutTypes    []*UserType
	DeleteTypes []string

	// PutStats and DeleteStats change tables' statistics (stats.go); a
	// dropped table's go with it.
	PutStats    []*TableStats
	DeleteStats []uint64

	// PutFunctions and DeleteFunctions (by OID) change user-defined
	// functions and procedures (functions.go).
	PutFunctions    []*Function
	DeleteFunctions []uint32

	// PutSchemas and DeleteSchemas (by name) change user schemas
	// (schemas.go).
	PutSchemas    []*Schema
	DeleteSchemas []string

	// PutOperators, DeleteOperators, PutCasts and DeleteCasts (by OID)
	// change user-defined operators and casts (operators.go).
	PutOperators    []*Operator
	DeleteOperators []uint32
	PutCasts        []*Cast
	DeleteCasts     []uint32

	// PutDatabases and DeleteDatabases (by ID) change the registry of
	// databases (databases.go).
	PutDatabases    []*Database
	DeleteDatabases []uint64

	// PutDefaultACLs and DeleteDefaultACLs (by key) change default
	// privileges (defaultacl.go).
	PutDefaultACLs    []*DefaultACL
	DeleteDefaultACLs []string

	// PutExtensions and DeleteExtensions (by name) change the records of
	// CREATE EXTENSION (extensions.go).
	PutExtensions    []*Extension
	DeleteExtensions []string
}

// ErrConflict is returned by Update when another change won the race for the
// next version more times than the retry budget allows.
var ErrConflict = errors.New("catalog: concurrent schema change")

// Update applies a schema change computed from the current snapshot. fn is
// called with the newest snapshot and the version the change will get (use it
// as the ID of new tables and indexes); it returns the change, or an error to
// abort. Update retries fn when another proxy changes the schema first.
func (c *Catalog) Update(ctx context.Context, fn func(s *Snapshot, newVersion uint64) (Change, error)) (*Snapshot, error) {
	if c.block != nil {
		return c.blockUpdate(ctx, fn)
	}
	for attempt := 0; attempt < 20; attempt++ {
		// A change is computed on the newest schema, never a cached one.
		snap, err := c.refresh(ctx)
		if err != nil {
			return nil, err
		}
		next := snap.Version + 1
		if c.temp {
			next = NextTempVersion()
		}
		ch, err := fn(snap, next)
		if err != nil {
			return nil, err
		}
		if !c.temp {
			ch = snap.WithDefaultACLs(ch)
			if err := refuseTempTypes(ch); err != nil {
				return nil, err
			}
		}
		ops, err := c.changeOps(snap, ch, next)
		if err != nil {
			return nil, err
		}
		ops = append([]kv.Op{versionMarker(c.sharedPartition(), next, markerKind(ch), c.tagged(changedObjects(ch, ops)))}, ops...)
		unlock := c.lockMarkers()
		err = c.rw.Write(ctx, kv.Batch{Ops: ops, Atomic: true})
		unlock()
		var cf *kv.ConditionFailedError
		if errors.As(err, &cf) {
			continue // another proxy took this version; recompute on its schema
		}
		if err != nil {
			return nil, fmt.Errorf("catalog: writing change: %w", err)
		}
		return c.refresh(ctx)
	}
	return nil, pgerr.Wrap(ErrConflict, pgerr.SerializationFailure, "schema change conflicted with concurrent changes")
}

// changeOps are the writes of a change computed on snap, its changed
// descriptors stamped with revision rev.
func (c *Catalog) changeOps(snap *Snapshot, ch Change, rev uint64) ([]kv.Op, error) {
	var ops []kv.Op
	for _, t := range ch.Put {
		t.Revision = rev
		t.pruneConstraintComments() // a dropped constraint's comment goes with it
		t.AssignColumnIDs()         // a column added by this change gets its ID
		op, err := c.putDescriptor(tablePrefix+t.Name, t)
		if err != nil {
			return nil, err
		}
		ops = append(ops, op)
	}
	for _, name := range ch.Delete {
		ops = append(ops, kv.Op{Kind: kv.OpDelete, Key: kv.Key{Partition: c.partition, Sort: []byte(tablePrefix + name)}})
	}
	for _, v := range ch.PutViews {
		op, err := c.putDescriptor(viewPrefix+v.Name, v)
		if err != nil {
			return nil, err
		}
		ops = append(ops, op)
	}
	for _, q := range ch.PutSequences {
		op, err := c.putDescriptor(seqPrefix+q.Name, q)
		if err != nil {
			return nil, err
		}
		ops = append(ops, op)
	}
	for _, name := range ch.DeleteSequences {
		ops = append(ops, kv.Op{Kind: kv.OpDelete, Key: kv.Key{Partition: c.partition, Sort: []byte(seqPrefix + name)}})
	}
	gone := map[string]bool{}
	for _, name := range ch.DeleteViews {
		if gone[name] {
			continue // DynamoDB refuses two writes of one item in a transaction
		}
		gone[name] = true
		ops = append(ops, kv.Op{Kind: kv.OpDelete, Key: kv.Key{Partition: c.partition, Sort: []byte(viewPrefix + name)}})
	}
	rops, err := c.roleOps(ch)
	if err != nil {
		return nil, err
	}
	ops = append(ops, rops...)
	tops, err := c.typeOps(ch)
	if err != nil {
		return nil, err
	}
	ops = append(ops, tops...)
	fops, err := c.funcOps(ch)
	if err != nil {
		return nil, err
	}
	ops = append(ops, fops...)
	oops, err := c.operatorOps(ch)
	if err != nil {
		return nil, err
	}
	ops = append(ops, oops...)
	hops, err := c.schemaOps(ch)
	if err != nil {
		return nil, err
	}
	ops = append(ops, hops...)
	xops, err := c.extensionOps(ch)
	if err != nil {
		return nil, err
	}
	ops = append(ops, xops...)
	dops, err := c.databaseOps(ch)
	if err != nil {
		return nil, err
	}
	ops = append(ops, dops...)
	aops, err := c.defaultACLOps(ch)
	if err != nil {
		return nil, err
	}
	ops = append(ops, aops...)
	sops, err := c.statsOps(snap, ch)
	if err != nil {
		return nil, err
	}
	return append(ops, sops...), nil
}

// StoreID is the ID the table's rows are stored under (see Partition).
func (t *Table) StoreID() uint64 {
	if t.DataID != 0 {
		return t.DataID
	}
	return t.ID
}

// MaxObjectsPerChange bounds how many tables, indexes and sequences one
// catalog change may create (see ObjectID).
const MaxObjectsPerChange = 1024

// ObjectID is the ID of the i-th object (table, index or sequence) a
// catalog change at version creates: unique, since versions are, and past
// every ID an earlier version handed out (including the plain version
// numbers early catalogs used), and small enough to serve as a
// PostgreSQL OID for a long time (version < 2^22).
func ObjectID(version uint64, i int) uint64 {
	return version*MaxObjectsPerChange + uint64(i)
}

// RemoveColumn takes column i out of t: its store attribute is retired
// (rows still hold it, so no later column may reuse it), and the primary
// key's and indexes' column ordinals past i move down one. Foreign keys,
// which other tables' descriptors also name, are the caller's to renumber.
func (t *Table) RemoveColumn(i int) {
	t.RetiredAttrs = append(t.RetiredAttrs, t.Columns[i].AttrName())
	t.Columns = slices.Delete(t.Columns, i, i+1)
	shift := func(k int) int {
		if k > i {
			return k - 1
		}
		return k
	}
	t.renumberColumns(shift)
}

// Clone returns a deep copy of t, for building a changed descriptor.
func (t *Table) Clone() *Table {
	c := *t
	c.ConstraintComments = maps.Clone(t.ConstraintComments)
	c.Columns = append([]Column(nil), t.Columns...)
	c.PrimaryKey = append([]KeyColumn(nil), t.PrimaryKey...)
	c.Checks = append([]Check(nil), t.Checks...)
	c.ForeignKeys = make([]ForeignKey, len(t.ForeignKeys))
	for i, fk := range t.ForeignKeys {
		c.ForeignKeys[i] = fk.clone()
	}
	if t.ForeignKeys == nil {
		c.ForeignKeys = nil
	}
	c.RetiredAttrs = append([]string(nil), t.RetiredAttrs...)
	c.DisabledClones = slices.Clone(t.DisabledClones)
	if t.Triggers != nil {
		c.Triggers = make([]*Trigger, len(t.Triggers))
		for i, tg := range t.Triggers {
			cp := *tg
			c.Triggers[i] = &cp
		}
	}
	if t.TTL != nil {
		ttl := *t.TTL
		c.TTL = &ttl
	}
	if t.Rewrite != nil {
		c.Rewrite = t.Rewrite.Clone()
	}
	if t.Matview != nil {
		mv := *t.Matview
		mv.Depends = append([]string(nil), t.Matview.Depends...)
		c.Matview = &mv
	}
	c.Indexes = make([]*Index, len(t.Indexes))
	for i, ix := range t.Indexes {
		cp := *ix
		cp.Columns = append([]KeyColumn(nil), ix.Columns...)
		cp.Include = append([]int(nil), ix.Include...)
		cp.Stored = slices.Clone(ix.Stored)
		cp.ExprColumns = append([]int(nil), ix.ExprColumns...)
		c.Indexes[i] = &cp
	}
	return &c
}
