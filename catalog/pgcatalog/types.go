package pgcatalog

import (
	"slices"
	"strings"

	"github.com/zproxy/zproxy/catalog"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// proc names a function by OID and name (pg_type's typinput and friends).
type proc struct {
	oid  uint32
	name string
}

// pgType is one row of pg_type.
type pgType struct {
	oid                 uint32
	name                string
	len                 int16
	byval               bool
	typtype, category   byte
	preferred           bool
	delim               byte
	elem, array         uint32
	in, out, recv, send proc
	align, storage      byte
	collation           uint32
	subscript           string
	ns                  uint32
	relid               uint32
	display             string // format_type's spelling (regtype output)
	owner               string
	// A domain's: its base type, typtypmod, NOT NULL, DEFAULT (as
	// pg_type's typdefault) and typndims.
	basetype   uint32
	typmod     int32
	notNull    bool
	typdefault string
	ndims      int
	// acl is typacl (nil: NULL, the default).
	acl []string
}

// typtypmod is pg_type's typtypmod: a domain's base type's modifier, -1
// for every other type.
func (t *pgType) typtypmod() int32 {
	if t.basetype == 0 {
		return -1
	}
	return t.typmod
}

var typesByOID = map[uint32]*pgType{}

func init() {
	for i := range builtinTypes {
		t := &builtinTypes[i]
		t.ns = NamespaceCatalog
		typesByOID[t.oid] = t
	}
	for i := range extensionTypes {
		t := &extensionTypes[i]
		t.ns = NamespacePublic
		typesByOID[t.oid] = t
	}
}

// BuiltinTypeName is pg_type.typname of the built-in type (PostgreSQL's,
// or a built-in extension's) whose OID is oid: the name PostgreSQL's
// grammar reduces every spelling of the type to (integer and int are
// int4, bit varying(5) is varbit, double precision is float8), which is
// how FigureColname names a cast's column. ok false for any other OID.
func BuiltinTypeName(oid uint32) (name string, ok bool) {
	if t, found := typesByOID[oid]; found {
		return t.name, true
	}
	return "", false
}

// knownTypes are the pg_type rows of every type zproxy has built in:
// PostgreSQL's and its built-in extensions'.
func knownTypes() []*pgType {
	out := make([]*pgType, 0, len(builtinTypes)+len(extensionTypes))
	for i := range builtinTypes {
		out = append(out, &builtinTypes[i])
	}
	for i := range extensionTypes {
		out = append(out, &extensionTypes[i])
	}
	return out
}

// userTypes are the row types of tables and views and the enum types made
// by CREATE TYPE (and the arrays of each).
func (e *Env) userTypes() []*pgType {
	var out []*pgType
	for _, o := range e.objects().list {
		rt := o.rowType()
		if rt == 0 || o.kind == 'c' {
			continue // a composite type's rows are its UserType's, below
		}
		var id uint64
		if o.table != nil {
			id = o.table.ID
		} else {
			id = o.view.ID
		}
		arr := ObjectOID(id, slotRowTypeArray)
		out = append(out,
			&pgType{oid: rt, name: o.name, len: -1, typtype: 'c', category: 'C', delim: ',', array: arr, ns: o.ns, relid: o.oid,
				in: proc{2290, "record_in"}, out: proc{2291, "record_out"}, recv: proc{2402, "record_recv"}, send: proc{2403, "record_send"},
				align: 'd', storage: 'x', display: sqltypes.QuoteIdent(o.name), owner: o.owner},
			&pgType{oid: arr, name: "_" + o.name, len: -1, typtype: 'b', category: 'A', delim: ',', elem: rt, ns: o.ns,
				in: proc{750, "array_in"}, out: proc{751, "array_out"}, recv: proc{2400, "array_recv"}, send: proc{2401, "array_send"},
				align: 'd', storage: 'x', subscript: "array_subscript_handler", display: sqltypes.QuoteIdent(o.name) + "[]", owner: o.owner})
	}
	for _, u := range e.enumTypes() {
		n := len(out)
		switch {
		case u.Enum != nil:
			out = append(out, enumPgType(u.OID, u.Name, u.ArrayOID, u.Owner), arrayPgType(u.ArrayOID, u.Name, u.OID, 'i', u.Owner))
		case u.Domain != nil:
			out = append(out, domainPgTypes(u)...)
		case u.Range != nil:
			out = append(out, e.rangePgTypes(u)...)
			setTypeACL(out[n:], u)
			continue // placed in their schemas
		case u.Composite != nil:
			// A composite type's row, as a table's row type has it
			// (typrelid its relation slot), and its array type's.
			out = append(out,
				&pgType{oid: u.OID, name: u.Name, len: -1, typtype: 'c', category: 'C', delim: ',', array: u.ArrayOID, ns: NamespacePublic, relid: u.Composite.RelID,
					in: proc{2290, "record_in"}, out: proc{2291, "record_out"}, recv: proc{2402, "record_recv"}, send: proc{2403, "record_send"},
					align: 'd', storage: 'x', display: sqltypes.QuoteIdent(u.Name), owner: u.Owner},
				arrayPgType(u.ArrayOID, u.Name, u.OID, 'd', u.Owner))
		}
		setTypeACL(out[n:], u)
		for _, t := range out[n:] {
			e.placeType(t, u.Name)
		}
	}
	return out
}

// userTypeByOID is the user-defined type (not a multirange type, whose
// ACL zproxy does not keep) numbered oid, or nil.
func (e *Env) userTypeByOID(oid uint32) *catalog.UserType {
	for _, u := range e.enumTypes() {
		if u.OID == oid {
			return u
		}
	}
	return nil
}

// setTypeACL gives the row of u among rows (u's and its array's) u's
// typacl.
func setTypeACL(rows []*pgType, u *catalog.UserType) {
	for _, t := range rows {
		if t.oid == u.OID {
			t.acl = u.ACLItems(UserTypeOwner(u))
		}
	}
}

// UserTypeOwner is the name of u's owner: its Owner, or the bootstrap
// superuser.
func UserTypeOwner(u *catalog.UserType) string {
	if u.Owner != "" {
		return u.Owner
	}
	return BootstrapRole
}

// placeType puts the pg_type row t of the user-defined type keyed key
// (or of its array type) in its schema: typname its bare name,
// typnamespace the schema's OID, and its display as format_type prints
// it, qualified unless the session's search path finds the type by its
// bare name (TypeIsVisible).
func (e *Env) placeType(t *pgType, key string) {
	sc, bare := catalog.SplitName(key)
	t.ns = schemaOID(e.Snap, sc)
	name := catalog.Names{Snap: e.Snap}.Type(key)
	if t.elem != 0 {
		t.name, t.display = "_"+bare, name+"[]"
	} else {
		t.name, t.display = bare, name
	}
}

// enumPgType is the pg_type row of an enum type.
func enumPgType(oid uint32, name string, array uint32, owner string) *pgType {
	return &pgType{oid: oid, name: name, len: 4, byval: true, typtype: 'e', category: 'E', delim: ',', array: array, ns: NamespacePublic,
		in: proc{3506, "enum_in"}, out: proc{3507, "enum_out"}, recv: proc{3532, "enum_recv"}, send: proc{3533, "enum_send"},
		align: 'i', storage: 'p', display: sqltypes.QuoteIdent(name), owner: owner}
}

// arrayPgType is the pg_type row of the array type of a user-defined
// type named name of OID elem.
func arrayPgType(oid uint32, name string, elem uint32, align byte, owner string) *pgType {
	return &pgType{oid: oid, name: "_" + name, len: -1, typtype: 'b', category: 'A', delim: ',', elem: elem, ns: NamespacePublic,
		in: proc{750, "array_in"}, out: proc{751, "array_out"}, recv: proc{2400, "array_recv"}, send: proc{2401, "array_send"},
		align: align, storage: 'x', subscript: "array_subscript_handler", display: sqltypes.QuoteIdent(name) + "[]", owner: owner}
}

// enumTypes are the user-defined types of the Env's snapshot (none
// without one).
func (e *Env) enumTypes() []*catalog.UserType {
	if e.Snap == nil {
		return nil
	}
	return e.Snap.UserTypes()
}

// allTypes lists every row of pg_type.
func (e *Env) allTypes() []*pgType {
	return append(knownTypes(), e.userTypes()...)
}

func (e *Env) typeByOID(oid uint32) (*pgType, bool) {
	if t, ok := typesByOID[oid]; ok {
		return t, true
	}
	if oid < FirstNormalOID {
		return nil, false
	}
	for _, t := range e.userTypes() {
		if t.oid == oid {
			return t, true
		}
	}
	return nil, false
}

// typeOID reads a type name as regtype's input does: any spelling
// PostgreSQL accepts for the types zproxy knows ("int4", "integer",
// "character varying(20)", "text[]", "pg_catalog.int8", "\"char\"").
func (e *Env) typeOID(name string) (uint32, error) {
	if oid, ok := e.schemaTypeOID(name); ok {
		return oid, nil
	}
	n := strings.TrimSpace(name)
	if strings.HasPrefix(n, `"`) && !strings.HasPrefix(n, `"char"`) {
		// A quoted name ("pg_catalog"."uuid", as TypeORM writes it) is
		// matched as written, in pg_catalog or public.
		schema, bare := splitQualified(n)
		if schema == "" || schema == "pg_catalog" || schema == "public" {
			for _, t := range knownTypes() {
				if t.name == bare {
					return t.oid, nil
				}
			}
			for _, t := range e.userTypes() {
				if t.name == bare {
					return t.oid, nil
				}
			}
		}
		return 0, pgerr.New(pgerr.UndefinedObject, "type %q does not exist", n)
	}
	lower := strings.ToLower(n)
	lower = strings.TrimPrefix(lower, "pg_catalog.")
	if bare := strings.TrimPrefix(lower, "public."); bare != lower {
		// The extensions' types live in public.
		for _, t := range extensionTypes {
			if t.name == bare || t.display == bare {
				return t.oid, nil
			}
		}
	}
	for _, t := range knownTypes() {
		if t.name == lower || t.display == lower {
			return t.oid, nil
		}
	}
	if lower == `"char"` || lower == `"char"[]` {
		if strings.HasSuffix(lower, "[]") {
			return 1002, nil
		}
		return 18, nil
	}
	if st, ok := sqltypes.ParseTypeName(lower); ok {
		if oid := st.OID(); oid != 0 {
			return oid, nil
		}
	}
	for _, t := range e.userTypes() {
		if t.name == unquoteIdent(n) || t.display == n {
			return t.oid, nil
		}
	}
	return 0, pgerr.New(pgerr.UndefinedObject, "type %q does not exist", n)
}

// schemaTypeOID finds a type of a user schema by name as regtype's input
// reads it: "s.t" (either part possibly quoted, an array's with "[]") by
// its key, an unqualified name through the session's search path.
func (e *Env) schemaTypeOID(name string) (uint32, bool) {
	if e.Snap == nil || !e.Snap.HasUserSchemas() {
		return 0, false
	}
	n, array := strings.CutSuffix(strings.TrimSpace(name), "[]")
	schema, bare := splitQualified(n)
	key := bare
	if schema != "" {
		if schema == catalog.PublicSchema || !e.Snap.HasSchema(schema) {
			return 0, false
		}
		key = catalog.QualifiedKey(schema, bare)
	}
	u, ok := e.Snap.UserType(key)
	if !ok {
		return 0, false
	}
	if array {
		return u.ArrayOID, true
	}
	return u.OID, true
}

// formatType is format_type(oid, typmod): the SQL spelling with the
// modifier, NULL-free ("???" for an unknown OID, as PostgreSQL prints).
func (e *Env) formatType(oid uint32, typmod int32, hasMod bool) string {
	if st, ok := sqltypes.TypeByOID(oid); ok {
		if hasMod && typmod >= 0 {
			st = withTypmod(st, typmod)
		}
		if st.ID == sqltypes.Bit && hasMod && typmod < 0 {
			// bit of no length, quoted: unquoted, bit means bit(1).
			return `"bit"`
		}
		if e.extensionTypeOffPath(st) {
			// As PostgreSQL prints a type its search path does not reach
			// (pg_dump's empty path): public.geometry(Point,4326).
			return catalog.PublicSchema + "." + st.String()
		}
		return st.String()
	}
	if t, ok := e.typeByOID(oid); ok {
		return t.display
	}
	return "???"
}

// extensionTypeOffPath reports whether t is (or is an array of) one of
// the built-in extensions' types, which live in public, under a search
// path without public.
func (e *Env) extensionTypeOffPath(t sqltypes.Type) bool {
	if e.Snap == nil {
		return false
	}
	path, set := e.Snap.SearchPath()
	if !set || slices.Contains(path, catalog.PublicSchema) {
		return false
	}
	if t.IsArray() {
		t = t.ElemType()
	}
	return t.ID.IsExtension()
}

// withTypmod applies atttypmod to a type (varchar(n), numeric(p,s), ...).
func withTypmod(t sqltypes.Type, typmod int32) sqltypes.Type {
	id := t.ID
	if id == sqltypes.Array {
		id = t.Elem
	}
	switch id {
	case sqltypes.Varchar, sqltypes.BPChar:
		t.Width = int(typmod - 4)
	case sqltypes.Numeric:
		m := typmod - 4
		t.Width = int(m >> 16)
		s := int16(m & 0x7ff)
		if s > 1023 {
			s -= 2048
		}
		t.Scale = s
	case sqltypes.Timestamp, sqltypes.TimestampTZ, sqltypes.Time, sqltypes.TimeTZ:
		t.Scale = int16(typmod + 1) // an array keeps its element's modifier
	case sqltypes.Bit, sqltypes.VarBit:
		t.Width = int(typmod)
	case sqltypes.Geometry, sqltypes.Geography:
		t.Width = int(typmod) // PostGIS's packed typmod
		if typmod == 0 {
			t.Width = -1 // geometry(Geometry)
		}
	}
	return t
}

// typeOf returns the pg_type OID and the atttypmod of a column type.
func typeOf(t sqltypes.Type) (uint32, int32) {
	if t.Domain != nil {
		return t.OID(), -1 // the domain has the modifier
	}
	return t.OID(), t.TypeMod()
}
