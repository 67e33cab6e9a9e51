package pgcatalog

import (
	"fmt"
	"hash/fnv"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// OIDs. Built-in objects have PostgreSQL 15's OIDs. A user object's OID is
// derived from its descriptor's persistent ID (the catalog version that
// created it), so it is the same after a restart and on every proxy over
// one store:
//
//	16384 + id*1024 + slot
//
// where slot 0 is the relation itself (table, view, sequence, secondary
// index), 1 a table's primary-key index, 2 its row type, 3 that type's
// array type, 4 the primary-key constraint (of an index: its UNIQUE
// constraint), 16.. its CHECK constraints, 256.. its FOREIGN KEY
// constraints and 512.. the pg_attrdef rows of its columns (by ordinal). Roles have no ID:
// a role's OID is a hash of its name in the upper half of the OID space.
// IDs past 4 million schema changes wrap around.
const (
	FirstNormalOID   = 16384
	oidSlots         = 1024
	slotPKeyIndex    = 1
	slotRowType      = 2
	slotRowTypeArray = 3
	slotPKey         = 4
	// slotMatviewRewrite is a materialized view's _RETURN rule (a view's
	// is slotRewrite, which a table's primary-key index takes).
	slotMatviewRewrite = 5
	slotCheck          = 16
	slotForeignKey     = 256
	slotAttrDef        = 512

	NamespaceCatalog    = 11
	NamespacePublic     = 2200
	NamespaceToast      = 99
	NamespaceInfoSchema = 13207

	AmHeap   = 2
	AmBtree  = 403
	AmGin    = 2742
	AmGist   = 783
	AmHash   = 405
	AmZOrder = 9403 // zproxy's own access method, outside PostgreSQL's range

	DatabaseOID   = 5 // the database every client is in (PostgreSQL's "postgres")
	TablespaceOID = 1663
	CollationC    = 950
	CollationDflt = 100
	BootstrapOID  = 10
	// DatabaseOwnerOID is pg_database_owner, the role that owns schema
	// public in PostgreSQL 15 (whoever owns the database).
	DatabaseOwnerOID = 6171
	BootstrapRole    = "zproxy"
	DefaultDatabase  = "postgres"
)

// ObjectOID is the OID of slot of the user object with descriptor id.
func ObjectOID(id uint64, slot uint32) uint32 {
	return uint32(FirstNormalOID + id*oidSlots + uint64(slot))
}

// TypeOID and TypeArrayOID are the OIDs of a user-defined type whose
// catalog ID is id, and of its array type: a type's ID is no table's, so
// it takes the slots a table's row types have.
func TypeOID(id uint64) uint32 { return ObjectOID(id, slotRowType) }

// TypeArrayOID: see TypeOID.
func TypeArrayOID(id uint64) uint32 { return ObjectOID(id, slotRowTypeArray) }

// MaxEnumLabels is how many labels one catalog ID numbers (EnumLabelOID).
const MaxEnumLabels = oidSlots - slotCheck

// EnumLabelOID is the pg_enum OID of the i-th label (i < MaxEnumLabels)
// given by the catalog change whose object ID is id.
func EnumLabelOID(id uint64, i int) uint32 { return ObjectOID(id, slotCheck+uint32(i)) }

// DomainCheckOID is the pg_constraint OID of the i-th CHECK (i <
// MaxEnumLabels) a domain change whose object ID is id adds.
func DomainCheckOID(id uint64, i int) uint32 { return EnumLabelOID(id, i) }

// RoleOID is the OID of the named role.
func RoleOID(name string) uint32 {
	if name == BootstrapRole || name == "" {
		return BootstrapOID
	}
	if p := catalog.Predefined(name); p != nil {
		return p.OID
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	return 1<<31 | h.Sum32()&(1<<31-1)
}

// schemaOID is the OID of a schema relations are in: public's, or a user
// schema's (ObjectOID of its ID).
func schemaOID(snap *catalog.Snapshot, name string) uint32 {
	if name == catalog.PublicSchema {
		return NamespacePublic
	}
	if name == "pg_temp" {
		// The session's routines (CREATE FUNCTION pg_temp.f): its pg_temp_N.
		if n, ok := snap.TempSchema(); ok {
			return TempNamespaceOID(n)
		}
	}
	sc, ok := snap.Schema(name)
	if !ok {
		return NamespacePublic
	}
	return ObjectOID(sc.ID, 0)
}

// schemas are the user schemas of the statement's snapshot.
func (e *Env) schemas() []*catalog.Schema {
	if e.Snap == nil {
		return nil
	}
	return e.Snap.Schemas()
}

type namespace struct {
	oid  uint32
	name string
}

var namespaces = []namespace{
	{NamespaceCatalog, "pg_catalog"}, {NamespaceToast, "pg_toast"}, {NamespacePublic, "public"}, {NamespaceInfoSchema, "information_schema"},
}

// namespaceName is the name of the schema whose OID is oid in the
// statement's catalog, "" if none.
func (e *Env) namespaceName(oid uint32) string { return namespaceNameIn(e.Snap, oid) }

// namespaceNameIn is the name of the schema whose OID is oid in snap. A
// user schema's name is asked of snap itself: OIDs are unique within one
// database's catalog only, and one process serves several databases. The
// catalog relations ask it for each row, so snap's schemas are mapped by
// OID once (userNamespaces).
func namespaceNameIn(snap *catalog.Snapshot, oid uint32) string {
	for _, n := range namespaces {
		if n.oid == oid {
			return n.name
		}
	}
	if snap != nil {
		if name, ok := userNamespaces(snap)[oid]; ok {
			return name
		}
	}
	if n, toast, ok := tempNamespaceNum(oid); ok {
		if toast {
			return fmt.Sprintf("pg_toast_temp_%d", n)
		}
		return fmt.Sprintf("pg_temp_%d", n)
	}
	return ""
}

// userNamespaces maps the OIDs of snap's user schemas to their names,
// made once per snapshot.
func userNamespaces(snap *catalog.Snapshot) map[uint32]string {
	return snap.Memo(namespacesKey, func() any {
		m := map[uint32]string{}
		for _, sc := range snap.Schemas() {
			m[ObjectOID(sc.ID, 0)] = sc.Name
		}
		return m
	}).(map[uint32]string)
}

// A session's schema of temporary objects, pg_temp_N, and its pg_toast_temp_N
// have OIDs computed from N (catalog.Snapshot.TempSchema): PostgreSQL gives
// them OIDs when a backend first needs them, zproxy where permanent objects'
// OIDs do not reach (below the roles' half of the OID space).
const (
	tempNamespaceBase = 0x7FE00000
	tempNamespaces    = 1 << 20
)

// TempNamespaceOID is the OID of schema pg_temp_N (pg_toast_temp_N is the
// next OID).
func TempNamespaceOID(n uint64) uint32 {
	return tempNamespaceBase + uint32(n%(tempNamespaces/2))*2
}

// tempNamespaceNum reads N (and whether it is the toast schema) from a
// temporary schema's OID.
func tempNamespaceNum(oid uint32) (n uint64, toast, ok bool) {
	if oid < tempNamespaceBase || oid >= tempNamespaceBase+tempNamespaces {
		return 0, false, false
	}
	d := oid - tempNamespaceBase
	return uint64(d / 2), d%2 == 1, true
}

func namespaceOID(name string) (uint32, error) {
	name = unquoteIdent(name)
	for _, n := range namespaces {
		if n.name == name {
			return n.oid, nil
		}
	}
	for _, prefix := range []string{"pg_temp_", "pg_toast_temp_"} {
		if rest, ok := strings.CutPrefix(name, prefix); ok {
			if n, err := strconv.ParseUint(rest, 10, 32); err == nil && n > 0 && n < tempNamespaces/2 {
				oid := TempNamespaceOID(n)
				if prefix == "pg_toast_temp_" {
					oid++
				}
				return oid, nil
			}
		}
	}
	return 0, pgerr.New(pgerr.InvalidSchemaName, "schema %q does not exist", name)
}

// column is one attribute of a relation in pg_attribute.
type column struct {
	name    string
	typ     sqltypes.Type
	notNull bool
	deflt   string // DEFAULT expression text
	ident   string // "a" always, "d" by default
	// generated: deflt is the column's generation expression (STORED)
	generated bool
	ordinal   int    // position in the descriptor (for attrdef OIDs)
	comment   string // COMMENT ON COLUMN
}

// object is one relation as pg_class lists it.
type object struct {
	oid     uint32
	name    string
	ns      uint32
	kind    byte // r table, m materialized view, i index, v view, S sequence
	am      uint32
	owner   string
	cols    []column
	comment string // COMMENT ON

	table *catalog.Table    // a table, or the table an index belongs to
	index *catalog.Index    // a secondary index (nil for a primary key)
	view  *catalog.View     // a stored view
	seq   *catalog.Sequence // a sequence
	rel   *Relation         // a catalog relation
	// compType is a composite type's pg_type OID (relkind c).
	compType uint32
}

// isIndex reports whether o is an index (primary key or secondary).
func (o *object) isIndex() bool { return o.kind == 'i' || o.kind == 'I' }

// isTable reports whether o is a table: an ordinary or a partitioned one.
func (o *object) isTable() bool { return o.kind == 'r' || o.kind == 'p' }

// tableOrView is the table an expression of o's (a default) is bound
// over: o's table, or a table of a view's columns; nil for neither.
func (o *object) tableOrView() *catalog.Table {
	switch {
	case o == nil:
		return nil
	case o.table != nil:
		return o.table
	case o.view != nil:
		t := &catalog.Table{ID: o.view.ID, Name: o.view.Name}
		for _, c := range o.cols {
			t.Columns = append(t.Columns, catalog.Column{Name: c.name, Type: c.typ})
		}
		return t
	}
	return nil
}

// definition is the query of a view or materialized view, as
// pg_get_viewdef prints it; ok is false for other relations.
func (o *object) definition() (def string, ok bool) {
	switch {
	case o.view != nil:
		return viewDef(o.view.SQL), true
	case o.kind == 'm':
		return viewDef(o.table.Matview.SQL), true
	}
	return "", false
}

// rule is the OID of the _RETURN rule of a view or materialized view (0
// for other relations).
func (o *object) rule() uint32 {
	switch {
	case o.view != nil:
		return ObjectOID(o.view.ID, slotRewrite)
	case o.kind == 'm':
		return ObjectOID(o.table.ID, slotMatviewRewrite)
	}
	return 0
}

// dependsOn names the relations the query of a view or materialized view
// reads.
func (o *object) dependsOn() []string {
	switch {
	case o.view != nil:
		return o.view.Depends
	case o.kind == 'm':
		return o.table.Matview.Depends
	}
	return nil
}

// rowType is the OID of a table's or view's composite type (0 for others).
func (o *object) rowType() uint32 {
	switch {
	case o.table != nil && !o.isIndex():
		return ObjectOID(o.table.ID, slotRowType)
	case o.view != nil:
		return ObjectOID(o.view.ID, slotRowType)
	case o.rel != nil:
		return 0
	}
	return o.compType
}

// storedKey is a stored relation's key and temporariness (objects.stored).
type storedKey struct {
	key  string
	temp bool
}

// objects is the relations of one snapshot, by OID and by name.
type objects struct {
	snap   *catalog.Snapshot
	list   []*object
	byOID  map[uint32]*object
	byName map[string][]*object // name → objects of that name (by schema order)
	// tempNS is the OID of the session's temporary schema, 0 if none.
	tempNS uint32
	// keys finds a stored relation by its catalog key (catalog/schemas.go),
	// whatever the search path: descriptors name relations by key.
	keys map[string]*object
	// stored finds a table, view, materialized view or sequence by its key
	// and whether it is one of the session's temporary relations, as
	// catalog.Snapshot.LookupRelation names it.
	stored map[storedKey]*object
	// path is the search path's schemas (pg_catalog first), nil for the
	// default one (searchPath) when the catalog has no user schema.
	path []uint32
	// hasChildren holds the IDs of the tables that have partitions or
	// inheriting tables (relhassubclass).
	hasChildren map[uint64]bool
	// referenced holds the keys of the tables a foreign key references
	// (relhastriggers: catalog.Snapshot.ReferencedBy, for every table at
	// once).
	referenced map[string]bool
	// descs are the snapshot's comments (descriptions), made once.
	descsOnce sync.Once
	descs     []descriptionEntry
	descIndex map[descriptionKey]string
}

// objectsKey, namespacesKey, rolesKey and installedKey are the keys of
// what pgcatalog derives from a snapshot (catalog.Snapshot.Memo).
type memoKey int

const (
	objectsKey memoKey = iota
	namespacesKey
	rolesKey
	installedKey
)

// objects returns the relations of e's snapshot, computed once per
// snapshot and kept with it: one process serves several databases, and
// each session's snapshot is its own (its search_path, its temporary
// objects), so no process-wide cache could hold them all.
func (e *Env) objects() *objects {
	return e.Snap.Memo(objectsKey, func() any { return buildObjects(e.Snap) }).(*objects)
}

func buildObjects(snap *catalog.Snapshot) *objects {
	out := &objects{snap: snap, byOID: map[uint32]*object{}, byName: map[string][]*object{}, hasChildren: map[uint64]bool{}}
	out.keys = map[string]*object{}
	out.stored = map[storedKey]*object{}
	out.referenced = map[string]bool{}
	add := func(o *object) {
		out.list = append(out.list, o)
		out.byOID[o.oid] = o
		out.byName[o.name] = append(out.byName[o.name], o)
		key := ""
		switch {
		case (o.isTable() || o.kind == 'm') && o.table != nil && o.rel == nil:
			key = o.table.Name
		case o.kind == 'v' && o.view != nil:
			key = o.view.Name
		case o.kind == 'S' && o.seq != nil:
			key = o.seq.Name
		}
		// The session's temporary relations come first, as lookup finds
		// them first.
		if prev := out.keys[key]; key != "" && (prev == nil || prev.ns != out.tempNS && o.ns == out.tempNS) {
			out.keys[key] = o
		}
		if key != "" {
			out.stored[storedKey{key, o.persistence() == 't'}] = o
		}
	}
	if snap != nil {
		tempNS := uint32(0)
		if n, ok := snap.TempSchema(); ok {
			tempNS = TempNamespaceOID(n)
			out.tempNS = tempNS
		}
		if path, ok := snap.SearchPath(); ok {
			out.path = []uint32{NamespaceCatalog}
			for _, sc := range path {
				out.path = append(out.path, schemaOID(snap, sc))
			}
		}
		// A relation of a user schema is keyed "schema.name"
		// (catalog/schemas.go): its row shows the name in the schema.
		place := func(temp bool, key string) (uint32, string) {
			if temp {
				return tempNS, key
			}
			sc, name := catalog.SplitName(key)
			return schemaOID(snap, sc), name
		}
		for _, t := range snap.Tables() {
			for _, fk := range t.ForeignKeys {
				out.referenced[fk.RefTable] = true
			}
		}
		for _, t := range relationsOf(snap, (*catalog.Snapshot).Tables, func(t *catalog.Table) bool { return t.Temp }) {
			ns, tname := place(t.Temp, t.Name)
			var cols []column
			for i, c := range t.Columns {
				if c.Hidden {
					continue
				}
				id := ""
				switch c.Identity {
				case "always":
					id = "a"
				case "by default":
					id = "d"
				}
				col := column{name: c.Name, typ: c.Type, notNull: c.NotNull || t.IsPKColumn(i), deflt: defaultDisplay(c.Default, c.Type), ident: id, ordinal: i, comment: c.Comment}
				if c.Sequence != "" && c.Default == "nextval("+sqltypes.QuoteLiteral(catalog.QuoteKey(c.Sequence))+"::regclass)" {
					col.deflt = "nextval(" + sqltypes.QuoteLiteral(seqDisplay(snap, c.Sequence)) + "::regclass)"
				}
				if c.Generated != "" {
					// PostgreSQL keeps the generation expression in
					// pg_attrdef, as a default.
					col.deflt, col.generated = defaultDisplay(c.Generated, c.Type), true
				}
				cols = append(cols, col)
			}
			kind, am, ixKind := byte('r'), uint32(AmHeap), byte('i')
			switch {
			case t.IsMatview():
				kind = 'm'
			case t.IsPartitioned():
				// A partitioned table and its indexes hold nothing:
				// relkind 'p' (no access method) and 'I'.
				kind, am, ixKind = 'p', 0, 'I'
			}
			add(&object{oid: ObjectOID(t.ID, 0), name: tname, ns: ns, kind: kind, am: am, owner: t.Owner, cols: cols, table: t, comment: t.Comment})
			for _, p := range t.Parents {
				out.hasChildren[p] = true
			}
			if !hasRowID(t) {
				add(&object{oid: ObjectOID(t.ID, slotPKeyIndex), name: t.PrimaryKeyName(), ns: ns, kind: ixKind, am: AmBtree, owner: t.Owner,
					cols: keyColumns(t, t.PrimaryKey, nil), table: t})
			}
			for _, ix := range t.Indexes {
				if ix.Auto {
					continue // zproxy's own, for a foreign key (catalog.Index.Auto)
				}
				am := uint32(AmBtree)
				switch {
				case ix.Exclusion != nil:
					am = exclusionAm(ix.Exclusion.Method)
				case ix.Gist != nil:
					am = AmGist
				case ix.Kind == catalog.KindZOrder:
					am = AmZOrder
				case ix.Kind == catalog.KindGIN:
					am = AmGin
				}
				add(&object{oid: ObjectOID(ix.ID, 0), name: ix.Name, ns: ns, kind: ixKind, am: am, owner: t.Owner,
					cols: keyColumns(t, ix.DeclaredColumns(), ix.Include), table: t, index: ix, comment: ix.Comment})
			}
		}
		for _, v := range relationsOf(snap, (*catalog.Snapshot).Views, func(v *catalog.View) bool { return v.Temp }) {
			cols := make([]column, len(v.Columns))
			for i, c := range v.Columns {
				typ := sqltypes.TypeText
				if i < len(v.Types) {
					typ = v.Types[i]
				}
				cols[i] = column{name: c, typ: typ, ordinal: i}
				if i < len(v.Defaults) && v.Defaults[i] != "" {
					cols[i].deflt = defaultDisplay(v.Defaults[i], typ)
				}
			}
			vns, vname := place(v.Temp, v.Name)
			add(&object{oid: ObjectOID(v.ID, 0), name: vname, ns: vns, kind: 'v', owner: v.Owner, cols: cols, view: v, comment: v.Comment})
		}
		for _, q := range relationsOf(snap, (*catalog.Snapshot).Sequences, func(q *catalog.Sequence) bool { return q.Temp }) {
			qns, qname := place(q.Temp, q.Name)
			add(&object{oid: ObjectOID(q.ID, 0), name: qname, ns: qns, kind: 'S', seq: q, owner: q.Owner, comment: q.Comment,
				cols: []column{{name: "last_value", typ: sqltypes.TypeInt8, notNull: true}, {name: "log_cnt", typ: sqltypes.TypeInt8, notNull: true, ordinal: 1},
					{name: "is_called", typ: sqltypes.TypeBool, notNull: true, ordinal: 2}}})
		}
		for _, u := range snap.UserTypes() {
			// A composite type's relation (relkind c), whose attributes
			// are the type's (psql's \d and pgx's LoadType read them).
			if c := u.Composite; c != nil {
				cols := make([]column, len(c.Fields))
				for i, f := range c.Fields {
					cols[i] = column{name: f.Name, typ: f.Type, ordinal: i}
				}
				// The type's own comment is pg_type's (descriptions).
				cns, cname := place(false, u.Name) // "pg_temp.x" is the session's pg_temp_N
				add(&object{oid: c.RelID, name: cname, ns: cns, kind: 'c', owner: u.Owner, cols: cols, compType: u.OID})
			}
		}
	}
	for _, r := range relationList() {
		ns := uint32(NamespaceCatalog)
		switch {
		case r.Schema == "information_schema":
			ns = NamespaceInfoSchema
		case r.Schema == catalog.PublicSchema && installedExtensions(snap)[relationExtension(r.Schema+"."+r.Name)]:
			// An extension's relation (PostGIS's spatial_ref_sys) is
			// public's once the database created or uses the extension,
			// as CREATE EXTENSION puts it there; otherwise it is listed
			// with the catalogs, out of public's listings (\dt).
			ns = NamespacePublic
		}
		cols := make([]column, len(r.Columns))
		for i, c := range r.Columns {
			cols[i] = column{name: c.Name, typ: c.Type, ordinal: i}
		}
		kind := byte('v')
		if r.table {
			kind = 'r'
		}
		add(&object{oid: r.OID, name: r.Name, ns: ns, kind: kind, am: map[bool]uint32{true: AmHeap}[r.table], owner: BootstrapRole, cols: cols, rel: r})
	}
	return out
}

// persistence is pg_class.relpersistence: 't' for a temporary relation
// (a temporary table's indexes included), else 'p'.
func (o *object) persistence() byte {
	if o.table != nil && o.table.Temp || o.seq != nil && o.seq.Temp || o.view != nil && o.view.Temp {
		return 't'
	}
	return 'p'
}

// relationsOf lists a session's relations of one kind for the catalogs:
// the permanent ones (a temporary relation hides one of its name from
// unqualified names only, pg_class lists both) and its temporary ones.
func relationsOf[T any](snap *catalog.Snapshot, all func(*catalog.Snapshot) []T, temp func(T) bool) []T {
	out := all(snap.Permanent())
	if snap.Permanent() == snap {
		return out
	}
	for _, r := range all(snap) {
		if temp(r) {
			out = append(out, r)
		}
	}
	return out
}

// hasRowID reports whether t is keyed by zproxy's hidden row id (declared
// without a primary key): it then has no primary-key index to show.
func hasRowID(t *catalog.Table) bool {
	for _, k := range t.PrimaryKey {
		if t.Columns[k.Column].Hidden {
			return true
		}
	}
	return false
}

// keyColumns are an index's attributes: its key columns, then INCLUDE.
func keyColumns(t *catalog.Table, keys []catalog.KeyColumn, include []int) []column {
	var cols []column
	for _, k := range keys {
		if k.Column < 0 {
			cols = append(cols, column{name: catalog.ExprAttName(k.Expr), typ: t.KeyType(k), ordinal: -1})
			continue
		}
		c := t.Columns[k.Column]
		cols = append(cols, column{name: c.Name, typ: c.Type, ordinal: k.Column})
	}
	for _, i := range include {
		c := t.Columns[i]
		cols = append(cols, column{name: c.Name, typ: c.Type, ordinal: i})
	}
	return cols
}

// searchPath is the schemas an unqualified name is looked up in.
var searchPath = []uint32{NamespaceCatalog, NamespacePublic}

// lookup finds a relation by possibly qualified name, as regclass's input
// does; nil when none.
func (os *objects) lookup(name string) *object {
	return os.find(splitQualified(name))
}

// find finds relation rel of schema, or the one an unqualified name finds
// when schema is "", by the binder's rules for a statement's relation
// names (planner.bindTableName): pg_catalog's relations first, then the
// table, view or sequence catalog.Snapshot.LookupRelation finds (the
// session's temporary relation, the search path's schemas in order, public
// only for a name qualified by it). What statements never name, indexes
// and composite types, is looked for in the same schemas in the same
// order.
func (os *objects) find(schema, rel string) *object {
	switch {
	case schema == "pg_catalog":
		return os.inNamespace(rel, NamespaceCatalog)
	case schema == "information_schema":
		return os.inNamespace(rel, NamespaceInfoSchema)
	case schema == "pg_temp" || os.tempNS != 0 && schema == namespaceNameIn(os.snap, os.tempNS):
		if os.tempNS == 0 {
			return nil
		}
		return os.inNamespace(rel, os.tempNS)
	case schema != "":
		name := catalog.QualifiedKey(schema, rel)
		if schema == catalog.PublicSchema {
			name = catalog.PublicSchema + "." + rel // public's permanent relation, never a temporary one
		}
		if o := os.storedRelation(name); o != nil {
			return o
		}
		ns, ok := os.namespaceOf(schema)
		if !ok {
			return nil
		}
		return os.inNamespace(rel, ns)
	}
	if o := os.inNamespace(rel, NamespaceCatalog); o != nil {
		return o
	}
	if o := os.storedRelation(rel); o != nil {
		return o
	}
	if os.tempNS != 0 {
		// The session's temporary schema is searched first, as PostgreSQL
		// does when search_path does not name it.
		if o := os.inNamespace(rel, os.tempNS); o != nil {
			return o
		}
	}
	path := searchPath
	if os.path != nil {
		path = os.path
	}
	for _, ns := range path {
		if o := os.inNamespace(rel, ns); o != nil {
			return o
		}
	}
	return nil
}

// storedRelation is the table, view or sequence the snapshot's name
// resolution finds for name (catalog.Snapshot.LookupRelation), nil if none.
func (os *objects) storedRelation(name string) *object {
	if os.snap == nil {
		return nil
	}
	key, temp, ok := os.snap.LookupRelation(name)
	if !ok {
		return nil
	}
	return os.stored[storedKey{key, temp}]
}

// inNamespace is the relation named rel in the schema whose OID is ns.
func (os *objects) inNamespace(rel string, ns uint32) *object {
	for _, o := range os.byName[rel] {
		if o.ns == ns {
			return o
		}
	}
	return nil
}

// namespaceOf is the OID of the user schema (or public) named schema.
func (os *objects) namespaceOf(schema string) (uint32, bool) {
	if schema == catalog.PublicSchema {
		return NamespacePublic, true
	}
	if os.snap == nil {
		return 0, false
	}
	sc, ok := os.snap.Schema(schema)
	if !ok {
		return 0, false
	}
	return ObjectOID(sc.ID, 0), true
}

// tableByKey finds the table stored under a catalog key (a foreign key's
// RefTable): a temporary one only for a temporary referencing table.
func (os *objects) tableByKey(key string, temp bool) *object {
	_, name := catalog.SplitName(key)
	for _, o := range os.byName[name] {
		if o.table != nil && o.table.Name == key && o.table.Temp == temp {
			return o
		}
	}
	for _, o := range os.byName[name] {
		if o.table != nil && o.table.Name == key {
			return o
		}
	}
	return nil
}

// relationVisible reports whether an unqualified name finds o
// (pg_table_is_visible, and whether deparsers print it bare), as
// PostgreSQL's RelationIsVisible: o is what its bare name finds (find),
// so a catalog relation of that name, a temporary relation, or a relation
// (an index included) of a schema earlier on the path hides it.
func (e *Env) relationVisible(o *object) bool {
	return e.objects().find("", o.name) == o
}

// relationName is a stored relation's name as PostgreSQL's deparsers
// print it (generate_relation_name): bare when the session's search_path
// finds it, else qualified with its schema (pg_dump empties search_path,
// so its definitions come out qualified).
func (e *Env) relationName(o *object) string {
	name := sqltypes.QuoteIdent(o.name)
	if e.relationVisible(o) {
		return name
	}
	return sqltypes.QuoteIdent(e.namespaceName(o.ns)) + "." + name
}

// QualifiedRelationName is the name of the relation (table, view,
// materialized view, sequence, index) with OID oid as PostgreSQL's
// deparsers and regclass print it from the session's search_path: bare
// when an unqualified name finds it, else qualified by its schema; ""
// when there is no such relation. The deparsing functions call it.
func (e *Env) QualifiedRelationName(oid uint32) string {
	if o := e.objects().byOID[oid]; o != nil {
		return e.relationName(o)
	}
	return ""
}

// classOID is regclassin: a relation name of one to three parts
// (makeRangeVarFromNameList; the first of three must be this database),
// found as RangeVarGetRelid finds it.
func (e *Env) classOID(name string) (uint32, error) {
	// Split as regclassin splits it: '"a' or 'a b' is 42602 invalid name
	// syntax, '""' a relation named "" that does not exist.
	parts, err := sqltypes.SplitQualifiedName(name)
	if err != nil {
		return 0, err
	}
	switch len(parts) {
	case 1, 2:
	case 3:
		if parts[0] != e.database() {
			return 0, pgerr.New(pgerr.FeatureNotSupported, "cross-database references are not implemented: \"%s\"", strings.Join(parts, "."))
		}
		parts = parts[1:]
	default:
		return 0, pgerr.New(pgerr.SyntaxError, "improper relation name (too many dotted names): %s", strings.Join(parts, "."))
	}
	schema, rel := "", parts[len(parts)-1]
	if len(parts) == 2 {
		schema = parts[0]
	}
	if o := e.objects().find(schema, rel); o != nil {
		return o.oid, nil
	}
	if schema != "" && schema != "pg_temp" {
		if _, err := e.RegOID(sqltypes.TypeRegNamespace, sqltypes.QuoteIdent(schema)); err != nil {
			return 0, err // 3F000, as RangeVarGetRelid reports a missing schema first
		}
		return 0, pgerr.New(pgerr.UndefinedTable, "relation \"%s.%s\" does not exist", schema, rel)
	}
	return 0, pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", rel)
}

// splitQualified splits "schema.name" (either part possibly quoted) and
// folds unquoted parts to lower case, as PostgreSQL reads identifiers.
func splitQualified(s string) (schema, name string) {
	parts := splitIdentifiers(s)
	switch len(parts) {
	case 0:
		return "", ""
	case 1:
		return "", parts[0]
	}
	return parts[len(parts)-2], parts[len(parts)-1]
}

func splitIdentifiers(s string) []string {
	var parts []string
	var cur strings.Builder
	quoted := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' && quoted && i+1 < len(s) && s[i+1] == '"':
			cur.WriteByte('"')
			i++
		case c == '"':
			quoted = !quoted
		case c == '.' && !quoted:
			parts = append(parts, cur.String())
			cur.Reset()
		case !quoted && c >= 'A' && c <= 'Z':
			cur.WriteByte(c + 'a' - 'A')
		case !quoted && (c == ' ' || c == '\t' || c == '\n'):
		default:
			cur.WriteByte(c)
		}
	}
	return append(parts, cur.String())
}

func unquoteIdent(s string) string {
	_, n := splitQualified(s)
	return n
}

// role is one row of pg_roles / pg_authid.
type role struct {
	oid       uint32
	name      string
	superuser bool
	login     bool
	password  bool
	// settings and dbSettings are the role's ALTER ROLE SET defaults, in
	// every database and by database ID (pg_db_role_setting).
	settings   []string
	dbSettings map[uint64][]string
}

// roles lists the roles: the catalog's, the bootstrap superuser, and the
// users that are no role but own tables or run this session (under trust
// authentication such a user is a superuser).
func (e *Env) roles() []role {
	rs := e.Snap.Memo(rolesKey, func() any { return snapshotRoles(e.Snap) }).(*snapRoles)
	if e.Sess == nil {
		return rs.list
	}
	user := e.Sess.User()
	if user == "" || rs.names[user] {
		return rs.list
	}
	// A session's user no role row names (the proxy's own users) is a
	// role too; the snapshot's list is shared, so this one is a copy.
	out := append(make([]role, 0, len(rs.list)+1), rs.list...)
	out = append(out, role{oid: RoleOID(user), name: user, superuser: true, login: true})
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// snapRoles are the roles a snapshot knows, sorted by name (the list is
// shared: callers only read it), and their names.
type snapRoles struct {
	list  []role
	names map[string]bool
}

// snapshotRoles lists snap's roles: its role rows, the owners of its
// tables that no row names and the bootstrap role (made superusers that
// may log in), and the predefined roles. The catalog relations ask for
// them on every row (an owner's name, an ACL's grantees), so they are made
// once per snapshot.
func snapshotRoles(snap *catalog.Snapshot) *snapRoles {
	seen := map[string]bool{}
	var out []role
	if snap != nil {
		for _, r := range snap.Roles() {
			seen[r.Name] = true
			out = append(out, role{oid: RoleOID(r.Name), name: r.Name, superuser: r.Superuser, login: r.Login, password: r.Verifier != "",
				settings: r.Settings, dbSettings: r.DatabaseSettings})
		}
	}
	implicit := []string{BootstrapRole}
	if snap != nil {
		for _, t := range snap.Tables() {
			implicit = append(implicit, t.Owner)
		}
	}
	for _, n := range implicit {
		if n == "" || seen[n] {
			continue
		}
		seen[n] = true
		out = append(out, role{oid: RoleOID(n), name: n, superuser: true, login: true})
	}
	for _, p := range catalog.PredefinedRoles {
		seen[p.Name] = true
		out = append(out, role{oid: p.OID, name: p.Name})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return &snapRoles{list: slices.Clip(out), names: seen}
}

func (e *Env) roleName(oid uint32) (string, bool) {
	for _, r := range e.roles() {
		if r.oid == oid {
			return r.name, true
		}
	}
	return "", false
}

func (e *Env) roleOID(name string) (uint32, error) {
	name = unquoteIdent(name)
	for _, r := range e.roles() {
		if r.name == name {
			return r.oid, nil
		}
	}
	return 0, pgerr.New(pgerr.UndefinedObject, "role %q does not exist", name)
}

// relationACL is relacl of a stored table, view or sequence: nil (NULL,
// the default) until something is granted on it.
func (e *Env) relationACL(o *object) []string {
	if e.Snap == nil || o.isIndex() {
		return nil
	}
	owner, _ := e.roleName(ownerOID(o.owner))
	switch {
	case o.table != nil && o.table.Virtual == nil:
		return e.Snap.ACL(catalog.KindTable, o.table.ID, owner)
	case o.view != nil:
		return e.Snap.ACL(catalog.KindView, o.view.ID, owner)
	case o.seq != nil:
		return e.Snap.ACL(catalog.KindSequence, o.seq.ID, owner)
	case o.rel != nil:
		return aclItems(systemRelationACL(o.rel))
	}
	return nil
}

// ownerOID is the OID of a table owner ("" is the bootstrap superuser).
func ownerOID(owner string) uint32 { return RoleOID(owner) }

// seqDisplay is a SERIAL column's sequence as its default prints it: bare
// when the search path finds it, else qualified by its schema (pg_dump
// empties search_path). Before any user schema exists, the snapshot has no
// path and the name prints as it is stored.
func seqDisplay(snap *catalog.Snapshot, key string) string {
	path, ok := snap.SearchPath()
	if !ok {
		return catalog.QuoteKey(key)
	}
	sc, name := catalog.SplitName(key)
	if slices.Contains(path, sc) && snap.Resolve(name) == key {
		return sqltypes.QuoteIdent(name)
	}
	return sqltypes.QuoteIdent(sc) + "." + sqltypes.QuoteIdent(name)
}
