package pgcatalog

import (
	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// opclass is a row of pg_opclass: PostgreSQL 15's default btree operator
// classes, the GIN classes zproxy's inverted indexes use and the GiST
// classes of its gist indexes (catalog.GistKey), with their
// OIDs, families and input types as PostgreSQL 15 has them (SELECT oid,
// opcmethod, opcname, opcfamily, opcintype, opckeytype FROM pg_opclass
// WHERE opcmethod = 403 AND opcdefault, and the GIN ones by name).
// pg_index.indclass names them, and introspection tools (Prisma, pgAdmin)
// join the two to read each key's class.
type opclass struct {
	oid, method       uint32
	name              string
	family, in, keyty uint32
	dflt              bool
}

const (
	amBTree = 403
	amGiST  = 783
	amGIN   = 2742
)

var opclasses = []opclass{
	// The ltree extension's btree and gist classes, at fixed OIDs of the
	// built-in extensions' range (extensions.go).
	{12973, amBTree, "ltree_ops", 12974, sqltypes.LtreeOID, 0, true}, {12975, amGiST, "gist_ltree_ops", 12976, sqltypes.LtreeOID, 0, true},
	{10000, amBTree, "array_ops", 397, 2277, 0, true}, {10002, amBTree, "bit_ops", 423, 1560, 0, true},
	{10003, amBTree, "bool_ops", 424, 16, 0, true}, {10004, amBTree, "bpchar_ops", 426, 1042, 0, true},
	{10006, amBTree, "bytea_ops", 428, 17, 0, true}, {10007, amBTree, "char_ops", 429, 18, 0, true},
	{10012, amBTree, "float4_ops", 1970, 700, 0, true}, {10015, amBTree, "inet_ops", 1974, 869, 0, true},
	{10022, amBTree, "interval_ops", 1982, 1186, 0, true}, {10024, amBTree, "macaddr_ops", 1984, 829, 0, true},
	{10026, amBTree, "macaddr8_ops", 3371, 774, 0, true}, {10028, amBTree, "name_ops", 1994, 19, 2275, true},
	{10032, amBTree, "oidvector_ops", 1991, 30, 0, true}, {10034, amBTree, "record_ops", 2994, 2249, 0, true},
	{10038, amBTree, "time_ops", 1996, 1083, 0, true}, {10041, amBTree, "timetz_ops", 2000, 1266, 0, true},
	{10043, amBTree, "varbit_ops", 2002, 1562, 0, true}, {10047, amBTree, "money_ops", 2099, 790, 0, true},
	{10050, amBTree, "tid_ops", 2789, 27, 0, true}, {10053, amBTree, "xid8_ops", 5067, 5069, 0, true},
	{10064, amGIN, "array_ops", 2745, 2277, 2283, true}, {10065, amBTree, "uuid_ops", 2968, 2950, 0, true},
	{10067, amBTree, "pg_lsn_ops", 3253, 3220, 0, true}, {10069, amBTree, "enum_ops", 3522, 3500, 0, true},
	{10071, amBTree, "tsvector_ops", 3626, 3614, 0, true}, {10073, amGIN, "tsvector_ops", 3659, 3614, 25, true},
	{10074, amBTree, "tsquery_ops", 3683, 3615, 0, true}, {10076, amBTree, "range_ops", 3901, 3831, 0, true},
	{10080, amBTree, "multirange_ops", 4199, 4537, 0, true}, {10088, amBTree, "jsonb_ops", 4033, 3802, 0, true},
	{10090, amGIN, "jsonb_ops", 4036, 3802, 25, true}, {10091, amGIN, "jsonb_path_ops", 4037, 3802, 23, false},
	{1978, amBTree, "int4_ops", 1976, 23, 0, true}, {1979, amBTree, "int2_ops", 1976, 21, 0, true},
	{1981, amBTree, "oid_ops", 1989, 26, 0, true}, {3122, amBTree, "date_ops", 434, 1082, 0, true},
	{3123, amBTree, "float8_ops", 1970, 701, 0, true}, {3124, amBTree, "int8_ops", 1976, 20, 0, true},
	{3125, amBTree, "numeric_ops", 1988, 1700, 0, true}, {3126, amBTree, "text_ops", 1994, 25, 0, true},
	{3127, amBTree, "timestamptz_ops", 434, 1184, 0, true}, {3128, amBTree, "timestamp_ops", 434, 1114, 0, true},
	{10061, amGiST, "point_ops", 1029, 600, 603, true}, {10078, amGiST, "range_ops", 3919, 3831, 0, true},
	{10082, amGiST, "multirange_ops", 6158, 4537, 3831, true},
}

// btreeGistOpclassBase is the first OID of btree_gist's operator classes.
// PostgreSQL assigns an extension's OIDs when it is created; zproxy's
// btree_gist is built in (pg_extension lists it always), so its classes
// keep fixed OIDs below 16384, as the other built-in extensions' objects
// do (extensions.go), each class its own family's OID too.
const btreeGistOpclassBase = 14300

// btreeGistOpclasses are btree_gist's default gist classes of scalar
// types (their input types), which exclusion constraints over those
// types use (planner/exclusion.go's btreeGistTypes). Their key types are
// btree_gist's internal gbtreekey types, which zproxy lacks: opckeytype
// is 0.
var btreeGistOpclasses = []struct {
	name string
	in   uint32
}{
	{"gist_bit_ops", 1560}, {"gist_bool_ops", 16}, {"gist_bpchar_ops", 1042}, {"gist_bytea_ops", 17},
	{"gist_cash_ops", 790}, {"gist_cidr_ops", 650}, {"gist_date_ops", 1082}, {"gist_enum_ops", 3500},
	{"gist_float4_ops", 700}, {"gist_float8_ops", 701}, {"gist_inet_ops", 869}, {"gist_int2_ops", 21},
	{"gist_int4_ops", 23}, {"gist_int8_ops", 20}, {"gist_interval_ops", 1186}, {"gist_macaddr8_ops", 774},
	{"gist_macaddr_ops", 829}, {"gist_numeric_ops", 1700}, {"gist_oid_ops", 26}, {"gist_text_ops", 25},
	{"gist_time_ops", 1083}, {"gist_timestamp_ops", 1114}, {"gist_timestamptz_ops", 1184},
	{"gist_timetz_ops", 1266}, {"gist_uuid_ops", 2950}, {"gist_vbit_ops", 1562},
}

func init() {
	for i, c := range btreeGistOpclasses {
		oid := uint32(btreeGistOpclassBase + i)
		opclasses = append(opclasses, opclass{oid, amGiST, c.name, oid, c.in, 0, true})
	}
}

// gistKeyOpclass is the pg_index.indclass entry of a key of type t in a
// gist index PostgreSQL builds for an exclusion constraint: range_ops or
// multirange_ops for a range or multirange, else btree_gist's class for
// the type (varchar takes text's, as a binary-coercible type does).
func gistKeyOpclass(t sqltypes.Type) uint32 {
	t = t.StripDomain()
	in := t.OID()
	switch {
	case t.Kind() == sqltypes.KindRange:
		in = 3831
	case t.Kind() == sqltypes.KindMultirange:
		in = 4537
	case t.ID == sqltypes.Enum:
		in = 3500
	case t.ID == sqltypes.Varchar || t.ID == sqltypes.Citext:
		in = 25
	}
	for _, c := range opclasses {
		if c.method == amGiST && c.in == in && c.dflt {
			return c.oid
		}
	}
	return 0
}

// gistOpclass is the pg_index.indclass entry of a gist index's column
// (catalog.GistKey.Opclass names the class); 0 for a class of an
// extension (PostGIS's), whose OID PostgreSQL assigns at installation.
func gistOpclass(name string) uint32 {
	for _, c := range opclasses {
		if c.method == amGiST && c.name == name {
			return c.oid
		}
	}
	return 0
}

func init() {
	generate("pg_catalog.pg_opclass", func(*Env) []row {
		out := make([]row, 0, len(opclasses))
		for _, c := range opclasses {
			out = append(out, &pgOpclassRow{Oid: oidV(c.oid), Opcmethod: oidV(c.method), Opcname: nameV(c.name),
				Opcnamespace: oidV(NamespaceCatalog), Opcowner: oidV(BootstrapOID), Opcfamily: oidV(c.family),
				Opcintype: oidV(c.in), Opcdefault: boolV(c.dflt), Opckeytype: oidV(c.keyty)})
		}
		return out
	})
}

// keyOpclass is the pg_index.indclass entry of a key of type t in an index
// of kind (opclassName for a GIN key's class): PostgreSQL's default btree
// class for the type (varchar and citext take text's, as a binary-coercible
// type does; arrays, enums and ranges their polymorphic classes), or the
// GIN class named; 0 for a Z-order index, which PostgreSQL has no class for.
func keyOpclass(kind catalog.IndexKind, t sqltypes.Type, opclassName string) uint32 {
	t = t.StripDomain()
	switch kind {
	case catalog.KindZOrder:
		return 0
	case catalog.KindGIN:
		for _, c := range opclasses {
			if c.method == amGIN && c.name == opclassName {
				return c.oid
			}
		}
		return 0
	}
	in := t.OID()
	switch {
	case t.ID == sqltypes.Array:
		in = 2277
	case t.ID == sqltypes.Enum:
		in = 3500
	case t.Kind() == sqltypes.KindRange:
		in = 3831
	case t.ID == sqltypes.Varchar || t.ID == sqltypes.Citext:
		in = 25
	}
	for _, c := range opclasses {
		if c.method == amBTree && c.in == in {
			return c.oid
		}
	}
	return 0
}
