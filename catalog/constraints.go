package catalog

import (
	"encoding/binary"
	"slices"
	"sort"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
)

// Constraints. A table's constraints live in its descriptor:
//
//   - the primary key (Table.PrimaryKey, named <table>_pkey);
//   - UNIQUE constraints: unique btree indexes with Index.Constraint set
//     (CREATE UNIQUE INDEX makes a unique index that is no constraint, as
//     in PostgreSQL);
//   - FOREIGN KEY constraints (Table.ForeignKeys), kept by the referencing
//     table; the referenced table learns of them from the snapshot
//     (Snapshot.ReferencedBy);
//   - CHECK constraints (Table.Checks), kept as their SQL text.
//
// Table.Constraints lists them all in one shape for the catalog relations
// (pg_constraint, information_schema.table_constraints and friends).

// FKAction is what a foreign key does to the referencing rows when their
// referenced row is deleted or its key changes (ON DELETE / ON UPDATE).
type FKAction string

// Foreign-key actions, spelled as in SQL.
const (
	// NoAction fails the statement if, at its end, referencing rows remain
	// without a referenced row (the default).
	NoAction FKAction = "NO ACTION"
	// Restrict fails as soon as a referenced row with referencing rows is
	// deleted or rekeyed, even if the statement puts the key back.
	Restrict   FKAction = "RESTRICT"
	Cascade    FKAction = "CASCADE"
	SetNull    FKAction = "SET NULL"
	SetDefault FKAction = "SET DEFAULT"
)

// ForeignKey is a FOREIGN KEY constraint of the referencing (child) table.
type ForeignKey struct {
	Name string `json:"name"`
	// Columns are the referencing columns (ordinals in this table), in
	// constraint order; RefColumns the referenced columns (ordinals in
	// RefTable), pairwise. RefColumns are, as a set, the referenced table's
	// primary key or the key columns of one of its unique indexes
	// (RefTable.KeyFor finds which).
	Columns    []int    `json:"columns"`
	RefTable   string   `json:"ref_table"`
	RefColumns []int    `json:"ref_columns"`
	OnDelete   FKAction `json:"on_delete"`
	OnUpdate   FKAction `json:"on_update"`
	// MatchFull: a key is either all NULL or all non-NULL (MATCH FULL);
	// otherwise MATCH SIMPLE, where any NULL exempts the row.
	MatchFull bool `json:"match_full,omitempty"`
	// NotValid: existing rows have not been checked (ADD CONSTRAINT ...
	// NOT VALID, or a validation in progress); new rows are.
	NotValid bool `json:"not_valid,omitempty"`
	// Deferrable: in a transaction block the key's checks (that a
	// referenced row exists; NO ACTION's that none references a removed
	// key) may wait for COMMIT (pg_constraint.condeferrable);
	// InitiallyDeferred: they do unless SET CONSTRAINTS says otherwise
	// (condeferred). Referential actions never wait.
	Deferrable        bool `json:"deferrable,omitempty"`
	InitiallyDeferred bool `json:"initially_deferred,omitempty"`
}

func (fk ForeignKey) clone() ForeignKey {
	fk.Columns = append([]int(nil), fk.Columns...)
	fk.RefColumns = append([]int(nil), fk.RefColumns...)
	return fk
}

// ConstraintInfo is one constraint of a table, for the catalog relations.
type ConstraintInfo struct {
	Name string
	// Kind is pg_constraint.contype: 'p' primary key, 'u' unique, 'f'
	// foreign key, 'c' check, 'x' exclusion.
	Kind byte
	// Columns are the constrained columns (ordinals; nil for a check).
	Columns []int
	// Index is the unique constraint's index (nil for other kinds).
	Index *Index
	// FK is the foreign key (nil for other kinds).
	FK *ForeignKey
	// Check is the check constraint (nil for other kinds).
	Check *Check
	// Validated is false for a NOT VALID constraint (convalidated).
	Validated bool
}

// Constraints lists t's constraints: the primary key, unique
// constraints, foreign keys and checks, each kind in declaration order
// (a table without a declared primary key has none: its hidden row id is
// zproxy's own).
func (t *Table) Constraints() []ConstraintInfo {
	var out []ConstraintInfo
	if !t.RowIDKeyed() {
		cols := make([]int, len(t.PrimaryKey))
		for i, k := range t.PrimaryKey {
			cols[i] = k.Column
		}
		out = append(out, ConstraintInfo{Name: t.PrimaryKeyName(), Kind: 'p', Columns: cols, Validated: true})
	}
	for _, ix := range t.Indexes {
		if ix.Exclusion != nil {
			var cols []int // the columns it reads: element columns, then the expressions'
			for _, c := range append(ix.Exclusion.ExclusionColumns(), ix.ExprColumns...) {
				if c >= 0 && !slices.Contains(cols, c) {
					cols = append(cols, c)
				}
			}
			out = append(out, ConstraintInfo{Name: ix.Name, Kind: 'x', Columns: cols, Index: ix, Validated: true})
		} else if ix.Constraint {
			cols := make([]int, len(ix.Columns))
			for i, k := range ix.Columns {
				cols[i] = k.Column
			}
			out = append(out, ConstraintInfo{Name: ix.Name, Kind: 'u', Columns: cols, Index: ix, Validated: true})
		}
	}
	for i := range t.ForeignKeys {
		fk := &t.ForeignKeys[i]
		out = append(out, ConstraintInfo{Name: fk.Name, Kind: 'f', Columns: fk.Columns, FK: fk, Validated: !fk.NotValid})
	}
	for i := range t.Checks {
		c := &t.Checks[i]
		out = append(out, ConstraintInfo{Name: c.Name, Kind: 'c', Check: c, Validated: !c.NotValid})
	}
	return out
}

// ConstraintComment is the comment on t's constraint name ("" for none).
func (t *Table) ConstraintComment(name string) string {
	if c, ok := t.ConstraintComments[name]; ok && t.HasConstraint(name) {
		return c
	}
	return ""
}

// SetConstraintComment sets (text "": removes) the comment on t's
// constraint name, dropping those of constraints t no longer has.
func (t *Table) SetConstraintComment(name, text string) {
	t.pruneConstraintComments()
	if text == "" {
		delete(t.ConstraintComments, name)
		return
	}
	if t.ConstraintComments == nil {
		t.ConstraintComments = map[string]string{}
	}
	t.ConstraintComments[name] = text
}

// pruneConstraintComments drops the comments of constraints t no longer
// has, so a later constraint of the same name starts without one.
func (t *Table) pruneConstraintComments() {
	var kept map[string]string // a new map: t's may be a snapshot's too
	for n, c := range t.ConstraintComments {
		if t.HasConstraint(n) {
			if kept == nil {
				kept = map[string]string{}
			}
			kept[n] = c
		}
	}
	t.ConstraintComments = kept
}

// HasConstraint reports whether t has a constraint named name.
func (t *Table) HasConstraint(name string) bool {
	for _, c := range t.Constraints() {
		if c.Name == name {
			return true
		}
	}
	return false
}

// RowIDKeyed reports whether t's primary key is zproxy's hidden row id
// (it was declared without one).
func (t *Table) RowIDKeyed() bool {
	return len(t.PrimaryKey) == 1 && t.Columns[t.PrimaryKey[0].Column].Hidden
}

// KeyFor finds the unique key made of exactly the columns cols (in any
// order): the primary key (nil index, ok) or a public unique index that
// treats NULLs as distinct, as a foreign key needs. Its key columns are
// returned in key order, as positions in cols.
func (t *Table) KeyFor(cols []int) (ix *Index, order []int, ok bool) {
	return t.keyFor(cols, false)
}

// DeferrableKeyFor reports whether a deferrable unique constraint is made
// of exactly the columns cols: a foreign key cannot reference it
// (PostgreSQL's 55000), since its rows may repeat until its check.
func (t *Table) DeferrableKeyFor(cols []int) bool {
	ix, _, ok := t.keyFor(cols, true)
	return ok && ix != nil && ix.Deferrable
}

func (t *Table) keyFor(cols []int, deferrable bool) (ix *Index, order []int, ok bool) {
	match := func(keys []KeyColumn) []int {
		if len(keys) != len(cols) {
			return nil
		}
		order := make([]int, len(keys))
		for i, k := range keys {
			order[i] = -1
			for j, c := range cols {
				if c == k.Column {
					order[i] = j
				}
			}
			if order[i] < 0 {
				return nil
			}
		}
		return order
	}
	if !t.RowIDKeyed() {
		if o := match(t.PrimaryKey); o != nil {
			return nil, o, true
		}
	}
	for _, x := range t.Indexes {
		if x.Unique && x.Deferrable == deferrable && x.State == StatePublic && x.Plain() {
			if o := match(x.Columns); o != nil {
				return x, o, true
			}
		}
	}
	return nil, nil, false
}

// Reference is a foreign key seen from the table it references.
type Reference struct {
	Child *Table
	FK    *ForeignKey
}

// ReferencedBy lists the foreign keys that reference table name (its own
// self-references included), ordered by referencing table, then as the
// table declares them.
func (s *Snapshot) ReferencedBy(name string) []Reference {
	var out []Reference
	for _, t := range s.tables {
		for i := range t.ForeignKeys {
			if t.ForeignKeys[i].RefTable == name {
				out = append(out, Reference{Child: t, FK: &t.ForeignKeys[i]})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Child.Name < out[j].Child.Name })
	return out
}

// ValueKeyed reports whether ix's entries without a NULL are keyed by its
// values alone (a unique index that is not deferrable): a point read of
// the values finds the one row that has them.
func (ix *Index) ValueKeyed() bool { return ix.Unique && !ix.Deferrable }

// UniqueKeyed reports whether row's entry in ix is keyed by the index
// columns alone, so that a second row with the same values would collide
// with it: ix is unique and (NULLs being distinct) none of the values is
// NULL. Other entries carry the primary key after the index columns, like
// every entry of a non-unique index.
func (t *Table) UniqueKeyed(ix *Index, row []sqltypes.Value) bool {
	if !ix.ValueKeyed() {
		return false
	}
	if ix.NullsNotDistinct {
		return true
	}
	for i := range ix.Columns {
		if t.KeyValue(ix, i, row).IsNull() {
			return false
		}
	}
	return true
}

// UniqueKey is the store key of the entry a row with values row (a full
// table row; only ix's key columns are read) has in unique index ix, for
// a point read of the index. The caller checks UniqueKeyed.
func (t *Table) UniqueKey(ix *Index, row []sqltypes.Value) kv.Key {
	var sort []byte
	for i, k := range ix.Columns {
		sort = AppendKeyValue(sort, t.KeyValue(ix, i, row), k.Desc)
	}
	return UniqueEntryKey(ix, sort)
}

// UniqueEntryKey places a unique-keyed entry whose sort key (the encoded
// index columns) is sort: its shard is a hash of the index values (or of
// their leading shard columns), so two rows with one value meet on one item
// whatever their primary keys.
func UniqueEntryKey(ix *Index, sort []byte) kv.Key {
	return kv.Key{Partition: IndexPartition(ix.ID, ix.uniqueShard(sort)), Sort: sort}
}

// IndexIDOf returns the index whose entries partition holds (false for a
// partition of table rows or anything else).
func IndexIDOf(partition []byte) (uint64, bool) {
	if len(partition) != 11 || partition[0] != indexTag {
		return 0, false
	}
	return binary.BigEndian.Uint64(partition[1:9]), true
}

// LeadsWith reports whether keys begin with the columns cols, in any
// order: a range read of that prefix finds the rows with given values of
// cols (a foreign key's referencing rows).
func LeadsWith(keys []KeyColumn, cols []int) bool {
	if len(keys) < len(cols) {
		return false
	}
	for _, k := range keys[:len(cols)] {
		found := false
		for _, c := range cols {
			found = found || c == k.Column
		}
		if !found {
			return false
		}
	}
	return true
}

// SameColumns reports whether keys are exactly the columns cols, in any
// order (an ON CONFLICT target naming a unique key).
func SameColumns(keys []KeyColumn, cols []int) bool {
	return len(keys) == len(cols) && LeadsWith(keys, cols)
}

// TypeShapedIndex returns an index of t whose entries column i's type
// shapes beyond its values' order, or nil: a gin index that tokenizes the
// column, or a Z-order index that has it as an attribute. Changing the
// column's type would change those entries' keys.
func (t *Table) TypeShapedIndex(i int) *Index {
	for _, ix := range t.Indexes {
		if ix.Kind != KindZOrder && !ix.Inverted() {
			continue
		}
		for _, k := range ix.Columns {
			if k.Column == i {
				return ix
			}
		}
	}
	return nil
}
