package catalog

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
)

// Schemas. CREATE SCHEMA stores a Schema descriptor under schemaPrefix.
// A relation (table, view, materialized view, sequence) in a schema other
// than public is keyed by its qualified name "schema.name" wherever the
// catalog keys relations by name (descriptor keys, snapshot maps, view
// dependencies, foreign keys), so every path that already finds a relation
// by its name finds a schema's relations by their key unchanged, and the
// relations of public keep the bare names they have always been stored
// under. The binder turns the names a statement writes into keys through
// the session's search_path (planner/schemas.go); the catalog relations
// split a key back into schema and name (SplitName). An index is named
// bare inside its table's descriptor and lives in its table's schema.

const schemaPrefix = "h/"

// Schema is a schema created by CREATE SCHEMA (public, pg_catalog,
// information_schema and the temporary schemas are built in and have
// none).
type Schema struct {
	// ID identifies the schema for its whole life (its OID).
	ID      uint64 `json:"id"`
	Name    string `json:"name"`
	Owner   string `json:"owner,omitempty"`
	Comment string `json:"comment,omitempty"`
}

// SplitName splits a relation's key into its schema ("public" when the
// key is bare) and its name within the schema.
func SplitName(key string) (schema, name string) {
	if i := strings.IndexByte(key, '.'); i > 0 {
		return key[:i], key[i+1:]
	}
	return PublicSchema, key
}

// QualifiedKey is the key of the relation named name in schema: bare in
// public, "schema.name" elsewhere.
func QualifiedKey(schema, name string) string {
	if schema == "" || schema == PublicSchema {
		return name
	}
	return schema + "." + name
}

// Schema returns the named user schema.
func (s *Snapshot) Schema(name string) (*Schema, bool) {
	if s.perm != nil {
		return s.perm.Schema(name)
	}
	sc, ok := s.schemas[name]
	return sc, ok
}

// Schemas returns the user schemas sorted by name.
func (s *Snapshot) Schemas() []*Schema {
	if s.perm != nil {
		return s.perm.Schemas()
	}
	out := make([]*Schema, 0, len(s.schemas))
	for _, sc := range s.schemas {
		out = append(out, sc)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// HasSchema reports whether name is a schema objects can be created in or
// found in: public or a user schema.
func (s *Snapshot) HasSchema(name string) bool {
	if name == PublicSchema {
		return true
	}
	_, ok := s.Schema(name)
	return ok
}

// SchemaObjects lists the keys of the relations in a user schema, as
// "table t", "view v", "sequence q" (DROP SCHEMA's dependents), sorted.
func (s *Snapshot) SchemaObjects(schema string) (tables, views, sequences []string) {
	p := schema + "."
	for k := range s.tables {
		if strings.HasPrefix(k, p) {
			tables = append(tables, k)
		}
	}
	for k := range s.views {
		if strings.HasPrefix(k, p) {
			views = append(views, k)
		}
	}
	for k := range s.sequences {
		if strings.HasPrefix(k, p) {
			sequences = append(sequences, k)
		}
	}
	sort.Strings(tables)
	sort.Strings(views)
	sort.Strings(sequences)
	return
}

func (c *Catalog) loadSchemas(ctx context.Context) (map[string]*Schema, error) {
	out := map[string]*Schema{}
	start := []byte(schemaPrefix)
	it := c.rw.Scan(ctx, kv.ScanRequest{Partition: c.partition, Start: start, End: kv.PrefixEnd(start), Consistent: true})
	defer it.Close()
	for it.Next() {
		var sc Schema
		if err := decodeDesc(it.Item(), &sc); err != nil {
			return nil, err
		}
		out[sc.Name] = &sc
	}
	if err := it.Err(); err != nil {
		return nil, fmt.Errorf("catalog: reading schemas: %w", err)
	}
	return out, nil
}

func (c *Catalog) schemaOps(ch Change) ([]kv.Op, error) {
	var ops []kv.Op
	for _, sc := range ch.PutSchemas {
		op, err := c.putDescriptor(schemaPrefix+sc.Name, sc)
		if err != nil {
			return nil, err
		}
		ops = append(ops, op)
	}
	for _, name := range ch.DeleteSchemas {
		ops = append(ops, kv.Op{Kind: kv.OpDelete, Key: kv.Key{Partition: c.partition, Sort: []byte(schemaPrefix + name)}})
	}
	return ops, nil
}

// BareName is the table's name within its schema.
func (t *Table) BareName() string { _, n := SplitName(t.Name); return n }

// TableByKeyName is the table whose primary key's index is named name
// (a relation key: "schema.n" outside public), or nil.
func (s *Snapshot) TableByKeyName(name string) *Table {
	sc, n := SplitName(name)
	for _, t := range s.tables {
		if tsc, _ := SplitName(t.Name); tsc == sc && !t.RowIDKeyed() && t.PrimaryKeyName() == n {
			return t
		}
	}
	return nil
}

// PrimaryKeyName is the name of the table's primary-key constraint and of
// its index: the one it was given, or PostgreSQL's <table>_pkey.
func (t *Table) PrimaryKeyName() string {
	if t.PKeyName != "" {
		return t.PKeyName
	}
	return t.BareName() + "_pkey"
}

// WithPath returns s resolving unqualified relation names through path:
// the schemas of the session's search_path that exist (public or user
// schemas), in order. The session's temporary relations still come first,
// as pg_temp does when the path does not name it. A name that is already
// a key ("app.t") is looked up as it is; Permanent reaches the relations
// of public by their bare keys.
func (s *Snapshot) WithPath(path []string) *Snapshot {
	o := *s
	o.memo = newMemo()
	o.perm = s.Permanent()
	o.path = append([]string{}, path...)
	o.pathSet = true
	o.noUsage = nil
	return &o
}

// WithoutUsage returns s (a snapshot WithPath made) for a user without
// USAGE on the given schemas: UsageDenied reports them, so that naming a
// type or routine of one is 42501, as PostgreSQL's namespace lookup
// checks.
func (s *Snapshot) WithoutUsage(schemas map[string]bool) *Snapshot {
	if len(schemas) == 0 {
		return s
	}
	o := *s
	o.memo = newMemo()
	o.noUsage = schemas
	return &o
}

// UsageDenied reports whether the snapshot's user may not use schema
// (see WithoutUsage).
func (s *Snapshot) UsageDenied(schema string) bool { return s != nil && s.noUsage[schema] }

// IgnoringUsage returns s without WithoutUsage's schemas: for binding
// what a schema object keeps as text (a DEFAULT, a CHECK, a view's
// query), whose names PostgreSQL looked up once, when it was created.
func (s *Snapshot) IgnoringUsage() *Snapshot {
	if s == nil || s.noUsage == nil {
		return s
	}
	o := *s
	o.memo = newMemo()
	o.noUsage = nil
	return &o
}

// SearchPath returns the schemas WithPath was given, and whether it was
// (a snapshot without one resolves names in public alone).
func (s *Snapshot) SearchPath() ([]string, bool) { return s.path, s.pathSet }

// CreationSchema is the schema an unqualified new relation goes to: the
// first schema of the search path (public without one), or 3F000 when the
// path names none that exists.
func (s *Snapshot) CreationSchema() (string, error) {
	if !s.pathSet {
		return PublicSchema, nil
	}
	if len(s.path) == 0 {
		return "", pgerr.New(pgerr.InvalidSchemaName, "no schema has been selected to create in")
	}
	return s.path[0], nil
}

// hasKey reports whether a relation is stored under key.
func (s *Snapshot) hasKey(key string) bool {
	_, t := s.tables[key]
	_, v := s.views[key]
	_, q := s.sequences[key]
	return t || v || q
}

// isTempKey reports whether key names one of the session's temporary
// relations.
func (s *Snapshot) isTempKey(key string) bool {
	if t, ok := s.tables[key]; ok && t.Temp {
		return true
	}
	if v, ok := s.views[key]; ok && v.Temp {
		return true
	}
	if q, ok := s.sequences[key]; ok && q.Temp {
		return true
	}
	return false
}

// Resolve returns the key a relation's name denotes (lookupRelation),
// for what is stored by key: public's bare key for "public.t", the key
// the search path finds for an unqualified name (the name itself when it
// is a key, when the snapshot has no path, or when no schema of the path
// has it: a bare name the lookups then do not find, as nothing falls back
// to public). A name to look up again is better left as written, since
// public's bare key is also what a temporary relation shadows.
func (s *Snapshot) Resolve(name string) string {
	_, key, _ := s.lookupRelation(name)
	return key
}

// LookupRelation is lookupRelation for what finds relations by name
// outside the binder (regclass input, the catalog functions that take a
// relation's name): the key of the table, view or sequence name denotes,
// whether it is one of the session's temporary relations (keyed by their
// bare names, as public's are), and whether one was found.
func (s *Snapshot) LookupRelation(name string) (key string, temp, ok bool) {
	in, key, ok := s.lookupRelation(name)
	return key, ok && in.isTempKey(key), ok
}

// lookupRelation is the one place a relation's name becomes the snapshot
// whose maps hold it and its key there, as PostgreSQL's RangeVarGetRelid:
// a name qualified by public ("public.t") is public's permanent relation
// and never the session's temporary one of that name; any other key
// ("app.t", "pg_temp.t") is itself; a bare name is the session's
// temporary relation, else the first schema of the search path holding
// it (public only when the path names it; without a path public alone).
// ok is false when nothing is found.
func (s *Snapshot) lookupRelation(name string) (in *Snapshot, key string, ok bool) {
	if bare, isPublic := strings.CutPrefix(name, PublicSchema+"."); isPublic {
		p := s.Permanent()
		return p, bare, p.hasKey(bare) && !p.isTempKey(bare)
	}
	if !s.pathSet || strings.IndexByte(name, '.') >= 0 {
		return s, name, s.hasKey(name)
	}
	if s.tempNum != 0 && s.isTempKey(name) {
		return s, name, true
	}
	for _, sc := range s.path {
		if k := QualifiedKey(sc, name); s.hasKey(k) {
			return s, k, true
		}
	}
	return s, name, false
}

// ResolveType returns the key of the user-defined type an unqualified
// name denotes on the snapshot's search path: the first schema of the
// path with a type of that name (the name itself when it is a key, when
// the snapshot has no path, or when no schema of the path has it). The
// built-in types, pg_catalog's, are found before (the front end reads
// them).
func (s *Snapshot) ResolveType(name string) string {
	if strings.IndexByte(name, '.') >= 0 {
		return name
	}
	if k := QualifiedKey(TempTypeSchema, name); s.tempNum != 0 && (s.types[k] != nil || s.tempMultiranges[k]) {
		return k // pg_temp is searched first for types (a range type's multirange too)
	}
	if !s.pathSet {
		return name
	}
	for _, sc := range s.path {
		if k := QualifiedKey(sc, name); s.types[k] != nil {
			return k
		} else if _, ok := s.UserTypeByKey(k); ok {
			return k // a range type's multirange type
		}
	}
	return name
}

// SchemaTypes lists the keys of the user-defined types of a user schema,
// sorted.
func (s *Snapshot) SchemaTypes(schema string) []string {
	var out []string
	for k := range s.types {
		if sc, _ := SplitName(k); sc == schema {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// SchemaFunctions lists the functions, procedures and aggregates of a
// user schema, by name then OID.
func (s *Snapshot) SchemaFunctions(schema string) []*Function {
	var out []*Function
	for _, f := range s.AllFunctions() {
		if sc, _ := SplitName(f.Name); sc == schema {
			out = append(out, f)
		}
	}
	return out
}

// CreationKey is the key a new relation named name (unqualified) gets:
// its name in CreationSchema.
func (s *Snapshot) CreationKey(name string) (string, error) {
	sc, err := s.CreationSchema()
	if err != nil {
		return "", err
	}
	return QualifiedKey(sc, name), nil
}

// findIndexIn returns the table of schema holding the named index.
func (s *Snapshot) findIndexIn(schema, name string) (*Table, *Index) {
	for _, t := range s.tables {
		if sc, _ := SplitName(t.Name); sc != schema && !(t.Temp && schema == "") {
			continue
		}
		if ix := t.Index(name); ix != nil {
			return t, ix
		}
	}
	return nil, nil
}

// UserSchemaACL is a user schema's nspacl: NULL (nil) until something is
// granted on it, then the owner's and the grantees' items.
func (s *Snapshot) UserSchemaACL(sc *Schema) []string {
	return s.acl(KindSchema, sc.Owner, func(r *Role) Privilege { return r.Schemas[sc.Name] })
}

// QuoteKey spells a relation's key as SQL: its name quoted as an
// identifier, qualified by its schema outside public.
func QuoteKey(key string) string { return sqltypes.QuoteKey(key) }

// SplitOwnedBy splits a sequence's OwnedBy, "table.column", where the
// table is a key that may itself be "schema.name": the column is what
// follows the last dot.
func SplitOwnedBy(s string) (table, column string, ok bool) {
	i := strings.LastIndexByte(s, '.')
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+1:], true
}

// TableByKey returns the table stored under key exactly, never through
// the search path (a foreign key's RefTable, a view's Depends).
func (s *Snapshot) TableByKey(key string) (*Table, error) {
	if t, ok := s.tables[key]; ok {
		return t, nil
	}
	return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", key)
}

// HasUserSchemas reports whether any user schema exists (cheaply: the
// session asks on every statement).
func (s *Snapshot) HasUserSchemas() bool {
	if s.perm != nil {
		return s.perm.HasUserSchemas()
	}
	return len(s.schemas) > 0
}

// PublicOffPath reports whether name, unqualified, is the key of one of
// public's relations that the search path does not reach (public is not on
// it): PostgreSQL finds no relation by that name, and the binder must say
// so, since the executor's lookups by key would find public's.
func (s *Snapshot) PublicOffPath(name string) bool {
	if !s.pathSet || strings.IndexByte(name, '.') >= 0 {
		return false
	}
	if _, _, ok := s.lookupRelation(name); ok {
		return false
	}
	return s.Permanent().hasKey(name)
}

// PublicIndexOffPath is PublicOffPath for an index's name.
func (s *Snapshot) PublicIndexOffPath(name string) bool {
	if !s.pathSet || strings.IndexByte(name, '.') >= 0 {
		return false
	}
	if t, _ := s.FindIndex(name); t != nil {
		return false
	}
	t, _ := s.Permanent().findIndexIn(PublicSchema, name)
	return t != nil
}

// RelationKeyText spells a relation's key as a name that finds exactly it
// whatever the search path (for what keeps a key and reads it back as
// text: COPY's statement, a column's sequence): one of public's relations
// as "public.t", a user schema's as "s.t", and the session's temporary
// relation (temp, and stored under key) bare, as pg_temp is searched
// first.
func (s *Snapshot) RelationKeyText(key string, temp bool) string {
	if strings.IndexByte(key, '.') < 0 && !(temp && s.isTempKey(key)) {
		return PublicSchema + "." + QuoteKey(key)
	}
	return QuoteKey(key)
}
