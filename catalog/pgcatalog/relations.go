package pgcatalog

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Relation is a catalog relation: its columns, as PostgreSQL 15 declares
// them, and the generator of its rows. Rows are computed when a statement
// reads the relation, from the statement's Env (schema snapshot and
// session), so pg_stat_activity is current and a prepared statement sees
// today's schema. A relation without a generator is empty: zproxy has none
// of what it lists (triggers, publications, policies, ...).
type Relation struct {
	Schema, Name string
	OID          uint32
	Columns      []catalog.Column
	table        bool
	rows         func(e *Env) []row
	// failed, for a relation whose rows are read from the store (large
	// objects), says why the last rows could not be read.
	failed func(e *Env) ([]row, error)
}

// row is one row of a relation: a struct of rows_gen.go, with a field per
// column (generated from the relation's columns, so a misspelt column does
// not compile). In pg_catalog a field left unset is the zero of its
// column's type (false, 0) or NULL (text, arrays, timestamps); nullV sets
// a column NULL whatever its type. information_schema leaves what it does
// not know NULL.
type row interface {
	values() []sqltypes.Value
}

// nullV is an explicit NULL in a pg_catalog row, where a field left unset
// (the zero Value, also NULL) reads as its type's zero.
var nullV = sqltypes.Value{K: sqltypes.KindNull, I: explicitNull}

// explicitNull marks nullV; no other NULL carries it.
const explicitNull = 1

var (
	registryOnce sync.Once
	registry     map[string]*Relation
	ordered      []*Relation
	generators   = map[string]func(e *Env) []row{}
)

// generate registers the row generator of schema.name.
func generate(name string, fn func(e *Env) []row) { generators[name] = fn }

// checkedGenerators are the generators that read the store and may fail.
var checkedGenerators = map[string]func(e *Env) ([]row, error){}

// generateChecked registers a row generator that may fail (it reads the
// store).
func generateChecked(name string, fn func(e *Env) ([]row, error)) {
	checkedGenerators[name] = fn
	generators[name] = func(e *Env) []row {
		rows, _ := fn(e) // Rows has no error; RowsChecked does
		return rows
	}
}

func buildRegistry() {
	registry = map[string]*Relation{}
	for full, spec := range relationColumns {
		schema, name, _ := strings.Cut(full, ".")
		info := relationInfo[full]
		r := &Relation{Schema: schema, Name: name, OID: info.oid, table: info.table, rows: generators[full], failed: checkedGenerators[full]}
		for _, c := range strings.Split(spec, ", ") {
			cname, ctype, _ := strings.Cut(c, " ")
			t, ok := parseColumnType(ctype)
			if !ok {
				panic(fmt.Sprintf("pgcatalog: %s.%s has type %q", full, cname, ctype))
			}
			r.Columns = append(r.Columns, catalog.Column{Name: cname, Type: t})
		}
		registry[full] = r
		ordered = append(ordered, r)
	}
	for full := range generators {
		if registry[full] == nil {
			panic("pgcatalog: a generator for unknown relation " + full)
		}
	}
	sort.Slice(ordered, func(i, j int) bool { return ordered[i].OID < ordered[j].OID })
}

func parseColumnType(s string) (sqltypes.Type, bool) {
	switch s {
	case `"char"`:
		return sqltypes.TypeChar, true
	case `"char"[]`:
		return sqltypes.ArrayOf(sqltypes.TypeChar), true
	}
	return sqltypes.ParseTypeName(s)
}

// find is the computed relation schema.name (schema "pg_catalog" for
// "").
func find(schema, name string) (*Relation, bool) {
	registryOnce.Do(buildRegistry)
	if schema == "" {
		schema = "pg_catalog"
	}
	r, ok := registry[schema+"."+name]
	if !ok && schema == "pg_catalog" {
		// The built-in extensions' relations (PostGIS's spatial_ref_sys)
		// are public's by name but listed with the catalogs, so that they
		// stay out of a schema's listings (\dt) where no CREATE EXTENSION
		// put them; a tool that takes pg_class at its word (vacuumdb)
		// names them so.
		r, ok = registry["public."+name]
	}
	return r, ok
}

// Find returns the computed relation schema.name as Lookup finds it
// (nil when there is none): its Schema tells a system catalog
// (pg_catalog's) from information_schema's and an extension's, IsTable
// a table from a view.
func Find(schema, name string) *Relation {
	r, _ := find(schema, name)
	return r
}

// IsTable reports whether r is a table in PostgreSQL (pg_class.relkind
// r: pg_class, spatial_ref_sys), not a view (pg_tables,
// information_schema.tables).
func (r *Relation) IsTable() bool { return r.table }

// relationList returns every catalog relation, by OID.
func relationList() []*Relation {
	registryOnce.Do(buildRegistry)
	return ordered
}

// Lookup returns the catalog relation schema.name as a table the planner
// can bind, whose rows are generated when read (schema "" looks in
// pg_catalog, which every search path includes). snap is the statement's
// schema, used when the executor provides no Env.
func Lookup(snap *catalog.Snapshot, schema, name string) (*catalog.Table, bool) {
	if schema == "" {
		schema = "pg_catalog"
	}
	r, ok := find(schema, name)
	if !ok {
		return nil, false
	}
	cols := r.Columns
	if r.table {
		// A catalog table's system column tableoid (pg_dump reads it of
		// every catalog): hidden from SELECT *, as PostgreSQL's are.
		cols = append(cols[:len(cols):len(cols)], catalog.Column{Name: "tableoid", Type: sqltypes.TypeOid, NotNull: true, Hidden: true})
	}
	return &catalog.Table{Name: schema + "." + name, Columns: cols, Virtual: func(fn *builtins.Context) ([][]sqltypes.Value, error) {
		e := envOf(fn)
		if e == nil {
			e = NewEnv(snap, nil)
		}
		rows, err := r.RowsChecked(e)
		if err != nil {
			return nil, err
		}
		if r.table {
			tableoid := sqltypes.NewOID(r.OID)
			for i, row := range rows {
				rows[i] = append(row, tableoid)
			}
		}
		return rows, nil
	}}, true
}

// Rows computes the relation's rows for e.
func (r *Relation) Rows(e *Env) [][]sqltypes.Value {
	rows, _ := r.RowsChecked(e)
	return rows
}

// RowsChecked computes the relation's rows for e, failing when they are
// read from the store and the read fails.
func (r *Relation) RowsChecked(e *Env) ([][]sqltypes.Value, error) {
	if r.rows == nil {
		return nil, nil
	}
	var src []row
	if r.failed != nil {
		var err error
		if src, err = r.failed(e); err != nil {
			return nil, err
		}
	} else {
		src = r.rows(e)
	}
	out := make([][]sqltypes.Value, len(src))
	for i, rw := range src {
		vals := rw.values()
		for j, c := range r.Columns {
			switch v := vals[j]; {
			case v.K != sqltypes.KindNull:
			case v.I == explicitNull:
				vals[j] = sqltypes.Null
			case r.Schema == "pg_catalog":
				vals[j] = zeroOf(c.Type)
			}
		}
		out[i] = vals
	}
	return out, nil
}

func zeroOf(t sqltypes.Type) sqltypes.Value {
	switch {
	case t.ID == sqltypes.Bool:
		return sqltypes.NewBool(false)
	case t.IsReg():
		return sqltypes.NewReg(0, "-")
	case t.Kind() == sqltypes.KindInt:
		return sqltypes.NewInt(0)
	}
	return sqltypes.Null
}

// Value helpers for the generators.
func oidV(o uint32) sqltypes.Value    { return sqltypes.NewOID(o) }
func nameV(s string) sqltypes.Value   { return sqltypes.NewText(sqltypes.TruncateName(s)) }
func textV(s string) sqltypes.Value   { return sqltypes.NewText(s) }
func charV(c byte) sqltypes.Value     { return sqltypes.NewText(string(c)) }
func boolV(b bool) sqltypes.Value     { return sqltypes.NewBool(b) }
func intV(i int64) sqltypes.Value     { return sqltypes.NewInt(i) }
func floatV(f float64) sqltypes.Value { return sqltypes.NewFloat(f) }
func regprocV(p proc) sqltypes.Value {
	if p.oid == 0 {
		return sqltypes.NewReg(0, "-")
	}
	return sqltypes.NewReg(p.oid, p.name)
}
func textArray(ss []string) sqltypes.Value { return stringArray(sqltypes.TypeText, ss) }

// stringArray is an array of elem, a type whose values are their text
// (text, aclitem), holding ss; nil is NULL.
func stringArray(elem sqltypes.Type, ss []string) sqltypes.Value {
	if ss == nil {
		return sqltypes.Null
	}
	elems := make([]sqltypes.Value, len(ss))
	for i, s := range ss {
		elems[i] = sqltypes.NewText(s)
	}
	return sqltypes.NewArray1(elem, elems)
}

// oidArray is an oid[] of oids.
func oidArray(oids []uint32) sqltypes.Value {
	elems := make([]sqltypes.Value, len(oids))
	for i, o := range oids {
		elems[i] = sqltypes.NewOID(o)
	}
	return sqltypes.NewArray1(sqltypes.TypeOid, elems)
}

func int2Array(is []int64) sqltypes.Value {
	elems := make([]sqltypes.Value, len(is))
	for i, v := range is {
		elems[i] = sqltypes.NewInt(v)
	}
	return sqltypes.NewArray1(sqltypes.TypeInt2, elems)
}
func vector(t sqltypes.Type, is []int64) sqltypes.Value {
	elems := make([]sqltypes.Value, len(is))
	for i, v := range is {
		elems[i] = sqltypes.NewInt(v)
	}
	return sqltypes.NewVector(t, elems)
}
