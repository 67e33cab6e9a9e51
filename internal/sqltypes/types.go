package sqltypes

import (
	"fmt"
	"strconv"
	"strings"
)

// TypeID names one of the SQL types zproxy supports.
type TypeID uint8

// The supported types. Unknown is the type of an untyped literal or NULL
// before the planner has resolved it. Array is "array of Type.Elem".
const (
	Unknown TypeID = iota
	Int2
	Int4
	Int8
	Float4
	Float8
	Text
	Varchar
	Bool
	Timestamp
	TimestampTZ
	Date
	Bytea
	UUID
	Numeric
	Interval
	BPChar
	JSON
	JSONB
	Array
	Time
	TimeTZ
	// The system types of the catalogs (oidtypes.go): never column types.
	Oid
	RegClass
	RegType
	RegProc
	RegProcedure
	RegNamespace
	RegRole
	Name
	Char
	Int2Vector
	OidVector
	Record
	// Void is the result type of functions called for their effect
	// (setseed): its one value prints as the empty string.
	Void
	// The types of the built-in extensions citext and hstore (citext.go,
	// hstore.go). They follow Void because descriptors store a type's ID
	// as a number: inserting them earlier would renumber stored types.
	Citext
	Hstore
	// Enum is a user-defined enum type (enum.go): which one, Type.Enum says.
	Enum
	// The bit-string types (bits.go) and money (money.go). Width is
	// bit(n)'s and bit varying(n)'s n (0: none; the DDL's bare "bit" is
	// bit(1), while a B'...' constant is bit of no length).
	Bit
	VarBit
	Money
	// The built-in range types (range.go), in their subtypes' order.
	Int4Range
	Int8Range
	NumRange
	TsRange
	TstzRange
	DateRange
	// Their multirange types (multirange.go), in the same order.
	Int4Multirange
	Int8Multirange
	NumMultirange
	TsMultirange
	TstzMultirange
	DateMultirange
	// PostgreSQL's network address types (net.go), after Enum for the
	// same reason.
	Inet
	Cidr
	MacAddr
	MacAddr8
	// The full-text search types (tsvector.go, tsquery.go) and regconfig,
	// the reg* alias naming a text search configuration (oidtypes.go).
	TSVector
	TSQuery
	RegConfig
	// xml (xml.go) and the system-information types a column may have
	// (systypes.go): pg_lsn, xid, xid8 and tid.
	XML
	PgLSN
	XID
	XID8
	TID
	// PostgreSQL's geometric types (geo.go), in this order (IsGeo).
	GeoPoint
	GeoLSeg
	GeoBox
	GeoLine
	GeoPath
	GeoPolygon
	GeoCircle
	// The PostGIS extension's geometry and geography (geometry.go); a
	// type's Width is PostGIS's typmod.
	Geometry
	Geography
	// RefCursor is refcursor, a cursor's (portal's) name: text in
	// everything but its type (PL/pgSQL's cursor variables).
	RefCursor
	// regdictionary, the reg* alias naming a text search dictionary
	// (regconfig.go), for ts_debug's columns.
	RegDictionary
	// UserRange and UserMultirange are the range types CREATE TYPE ... AS
	// RANGE makes and their multirange types (userrange.go): which one,
	// Type.Range says.
	UserRange
	UserMultirange
	// JSONPath is the SQL/JSON path language's jsonpath (jsonpath.go).
	JSONPath
	// regoper and regoperator, the reg* aliases naming an operator by its
	// name and by its name and operand types (oidtypes.go).
	RegOper
	RegOperator
	// RegCollation is regcollation, the reg* alias naming a collation
	// (Collations).
	RegCollation
	// ACLItem is aclitem, an access control list's entry (aclitem.go),
	// the element type of the catalogs' ACL columns.
	ACLItem
	// The ltree extension's types (ltree.go): a label path, a pattern
	// over paths and a boolean query over a path's labels.
	Ltree
	Lquery
	Ltxtquery
	// Box2D is PostGIS's box2d (geometry.go): a geometry value holding
	// the box's own geometry, printed as BOX(xmin ymin,xmax ymax).
	Box2D
	numTypeIDs
)

// Type is a column or expression type. It is small and comparable with ==,
// so it can key maps and sit in plan nodes by value.
//
// The modifiers mean, by ID:
//
//	varchar(n), char(n)   Width = n (0: unbounded; char without a length is char(1))
//	bit(n), varbit(n)     Width = n (0: no length)
//	numeric(p, s)         Width = p (0: unconstrained), Scale = s (-1000..1000)
//	interval fields (p)   Width = IntervalFields mask (0: all), Scale = p+1 (0: default 6)
//	T[]                   Elem = T's ID; Width and Scale are T's modifiers
//
// Elem is zero for every type but Array.
type Type struct {
	ID    TypeID
	Elem  TypeID
	Scale int16
	Width int
	// Enum is the definition of an enum type, or of an array of one's
	// element (ID or Elem is Enum); nil for every other type.
	Enum *EnumType
	// Domain is the domain t is, or is an array of (domain.go); the
	// other fields are then the domain's innermost base type's.
	Domain *DomainType
	// Composite is the row type of a record (ID Record), or of an array
	// of records' elements (composite.go); nil for an anonymous record
	// whose fields are unknown, and for every other type.
	Composite *CompositeType
	// Range is the definition of a user-defined range type, of its
	// multirange type, or of an array of either's elements (ID or Elem
	// is UserRange or UserMultirange); nil for every other type.
	Range *RangeType
}

// Common types, for brevity at call sites.
var (
	TypeUnknown     = Type{ID: Unknown}
	TypeInt2        = Type{ID: Int2}
	TypeInt4        = Type{ID: Int4}
	TypeInt8        = Type{ID: Int8}
	TypeFloat4      = Type{ID: Float4}
	TypeFloat8      = Type{ID: Float8}
	TypeText        = Type{ID: Text}
	TypeBool        = Type{ID: Bool}
	TypeTimestamp   = Type{ID: Timestamp}
	TypeTimestampTZ = Type{ID: TimestampTZ}
	TypeDate        = Type{ID: Date}
	TypeBytea       = Type{ID: Bytea}
	TypeUUID        = Type{ID: UUID}
	TypeNumeric     = Type{ID: Numeric}
	TypeInterval    = Type{ID: Interval}
	TypeBPChar      = Type{ID: BPChar}
	TypeJSON        = Type{ID: JSON}
	TypeJSONB       = Type{ID: JSONB}
	TypeCitext      = Type{ID: Citext}
	TypeHstore      = Type{ID: Hstore}
	TypeInet        = Type{ID: Inet}
	TypeCidr        = Type{ID: Cidr}
	TypeMacAddr     = Type{ID: MacAddr}
	TypeMacAddr8    = Type{ID: MacAddr8}
	TypeTSVector    = Type{ID: TSVector}
	TypeTSQuery     = Type{ID: TSQuery}
	TypeRegConfig   = Type{ID: RegConfig}
	// TypeRegDictionary is regdictionary.
	TypeRegDictionary = Type{ID: RegDictionary}
	TypeGeometry      = Type{ID: Geometry}
	TypeGeography     = Type{ID: Geography}
	TypeBox2D         = Type{ID: Box2D}
	TypeJSONPath      = Type{ID: JSONPath}
	TypeLtree         = Type{ID: Ltree}
	TypeLquery        = Type{ID: Lquery}
	TypeLtxtquery     = Type{ID: Ltxtquery}
)

type typeInfo struct {
	name     string // canonical SQL name, as format_type prints it
	oid      uint32
	arrayOID uint32 // OID of the array type T[]
	size     int16  // pg_type.typlen: -1 for variable length
	kind     Kind
	alias    []string
}

var infos = [numTypeIDs]typeInfo{
	Unknown:     {"unknown", 705, 0, -2, KindNull, nil},
	Int2:        {"smallint", 21, 1005, 2, KindInt, []string{"int2", "smallint"}},
	Int4:        {"integer", 23, 1007, 4, KindInt, []string{"int4", "int", "integer"}},
	Int8:        {"bigint", 20, 1016, 8, KindInt, []string{"int8", "bigint"}},
	Float4:      {"real", 700, 1021, 4, KindFloat, []string{"float4", "real"}},
	Float8:      {"double precision", 701, 1022, 8, KindFloat, []string{"float8", "double precision", "double", "float"}},
	Text:        {"text", 25, 1009, -1, KindText, []string{"text"}},
	Varchar:     {"character varying", 1043, 1015, -1, KindText, []string{"varchar", "character varying"}},
	Bool:        {"boolean", 16, 1000, 1, KindBool, []string{"bool", "boolean"}},
	Timestamp:   {"timestamp without time zone", 1114, 1115, 8, KindTimestamp, []string{"timestamp", "timestamp without time zone"}},
	TimestampTZ: {"timestamp with time zone", 1184, 1185, 8, KindTimestampTZ, []string{"timestamptz", "timestamp with time zone"}},
	Date:        {"date", 1082, 1182, 4, KindDate, []string{"date"}},
	Bytea:       {"bytea", 17, 1001, -1, KindBytes, []string{"bytea"}},
	UUID:        {"uuid", 2950, 2951, 16, KindUUID, []string{"uuid"}},
	Numeric:     {"numeric", 1700, 1231, -1, KindNumeric, []string{"numeric", "decimal", "dec"}},
	Interval:    {"interval", 1186, 1187, 16, KindInterval, []string{"interval"}},
	BPChar:      {"bpchar", 1042, 1014, -1, KindBPChar, []string{"bpchar", "char", "character"}},
	JSON:        {"json", 114, 199, -1, KindJSON, []string{"json"}},
	JSONB:       {"jsonb", 3802, 3807, -1, KindJSONB, []string{"jsonb"}},
	Array:       {"array", 0, 0, -1, KindArray, nil},
	Time:        {"time without time zone", 1083, 1183, 8, KindTime, []string{"time", "time without time zone"}},
	TimeTZ:      {"time with time zone", 1266, 1270, 12, KindTimeTZ, []string{"timetz", "time with time zone"}},

	Oid:          {"oid", 26, 1028, 4, KindInt, []string{"oid"}},
	RegClass:     {"regclass", 2205, 2210, 4, KindInt, []string{"regclass"}},
	RegType:      {"regtype", 2206, 2211, 4, KindInt, []string{"regtype"}},
	RegProc:      {"regproc", 24, 1008, 4, KindInt, []string{"regproc"}},
	RegProcedure: {"regprocedure", 2202, 2207, 4, KindInt, []string{"regprocedure"}},
	RegNamespace: {"regnamespace", 4089, 4090, 4, KindInt, []string{"regnamespace"}},
	RegRole:      {"regrole", 4096, 4097, 4, KindInt, []string{"regrole"}},
	Name:         {"name", 19, 1003, 64, KindText, []string{"name"}},
	Char:         {`"char"`, 18, 1002, 1, KindText, []string{`"char"`}},
	Int2Vector:   {"int2vector", 22, 1006, -1, KindArray, []string{"int2vector"}},
	OidVector:    {"oidvector", 30, 1013, -1, KindArray, []string{"oidvector"}},
	Record:       {"record", 2249, 2287, -1, KindArray, nil},
	Void:         {"void", 2278, 0, 4, KindText, []string{"void"}},

	// PostgreSQL gives an extension's types OIDs when CREATE EXTENSION
	// runs, so they differ between databases. zproxy's extensions are
	// built in: their types have fixed OIDs below FirstNormalObjectId
	// (16384), in the range zproxy keeps for its built-in extensions
	// (catalog/pgcatalog/extensions.go), so they are the same on every
	// proxy and across restarts, and no user object's OID (16384 and up)
	// can take them.
	Citext: {"citext", CitextOID, CitextArrayOID, -1, KindCitext, []string{"citext"}},
	Hstore: {"hstore", HstoreOID, HstoreArrayOID, -1, KindHstore, []string{"hstore"}},
	// An enum's name and OIDs are its EnumType's.
	Enum: {"enum", 0, 0, 4, KindEnum, nil},

	Bit:       {"bit", 1560, 1561, -1, KindBit, []string{"bit"}},
	VarBit:    {"bit varying", 1562, 1563, -1, KindBit, []string{"varbit", "bit varying"}},
	Money:     {"money", 790, 791, 8, KindMoney, []string{"money"}},
	Int4Range: {"int4range", 3904, 3905, -1, KindRange, []string{"int4range"}},
	Int8Range: {"int8range", 3926, 3927, -1, KindRange, []string{"int8range"}},
	NumRange:  {"numrange", 3906, 3907, -1, KindRange, []string{"numrange"}},
	TsRange:   {"tsrange", 3908, 3909, -1, KindRange, []string{"tsrange"}},
	TstzRange: {"tstzrange", 3910, 3911, -1, KindRange, []string{"tstzrange"}},
	DateRange: {"daterange", 3912, 3913, -1, KindRange, []string{"daterange"}},

	Int4Multirange: {"int4multirange", 4451, 6150, -1, KindMultirange, []string{"int4multirange"}},
	Int8Multirange: {"int8multirange", 4536, 6157, -1, KindMultirange, []string{"int8multirange"}},
	NumMultirange:  {"nummultirange", 4532, 6151, -1, KindMultirange, []string{"nummultirange"}},
	TsMultirange:   {"tsmultirange", 4533, 6152, -1, KindMultirange, []string{"tsmultirange"}},
	TstzMultirange: {"tstzmultirange", 4534, 6153, -1, KindMultirange, []string{"tstzmultirange"}},
	DateMultirange: {"datemultirange", 4535, 6155, -1, KindMultirange, []string{"datemultirange"}},
	Inet:           {"inet", 869, 1041, -1, KindInet, []string{"inet"}},
	Cidr:           {"cidr", 650, 651, -1, KindInet, []string{"cidr"}},
	MacAddr:        {"macaddr", 829, 1040, 6, KindMacAddr, []string{"macaddr"}},
	MacAddr8:       {"macaddr8", 774, 775, 8, KindMacAddr, []string{"macaddr8"}},
	TSVector:       {"tsvector", 3614, 3643, -1, KindTSVector, []string{"tsvector"}},
	TSQuery:        {"tsquery", 3615, 3645, -1, KindTSQuery, []string{"tsquery"}},
	RegConfig:      {"regconfig", 3734, 3735, 4, KindInt, []string{"regconfig"}},

	XML:   {"xml", 142, 143, -1, KindXML, []string{"xml"}},
	PgLSN: {"pg_lsn", 3220, 3221, 8, KindLSN, []string{"pg_lsn"}},
	XID:   {"xid", 28, 1011, 4, KindXID, []string{"xid"}},
	XID8:  {"xid8", 5069, 271, 8, KindXID8, []string{"xid8"}},
	TID:   {"tid", 27, 1010, 6, KindTID, []string{"tid"}},

	GeoPoint:      {"point", 600, 1017, 16, KindGeo, []string{"point"}},
	GeoLSeg:       {"lseg", 601, 1018, 32, KindGeo, []string{"lseg"}},
	GeoBox:        {"box", 603, 1020, 32, KindGeo, []string{"box"}},
	GeoLine:       {"line", 628, 629, 24, KindGeo, []string{"line"}},
	GeoPath:       {"path", 602, 1019, -1, KindGeo, []string{"path"}},
	GeoPolygon:    {"polygon", 604, 1027, -1, KindGeo, []string{"polygon"}},
	GeoCircle:     {"circle", 718, 719, 24, KindGeo, []string{"circle"}},
	Geometry:      {"geometry", GeometryOID, GeometryArrayOID, -1, KindGeometry, []string{"geometry"}},
	Geography:     {"geography", GeographyOID, GeographyArrayOID, -1, KindGeometry, []string{"geography"}},
	RefCursor:     {"refcursor", 1790, 2201, -1, KindText, []string{"refcursor"}},
	RegDictionary: {"regdictionary", 3769, 3770, 4, KindInt, []string{"regdictionary"}},
	// A user-defined range's names and OIDs are its RangeType's.
	UserRange:      {"anyrange", 0, 0, -1, KindRange, nil},
	UserMultirange: {"anymultirange", 0, 0, -1, KindMultirange, nil},
	JSONPath:       {"jsonpath", 4072, 4073, -1, KindJSONPath, []string{"jsonpath"}},
	RegOper:        {"regoper", 2203, 2208, 4, KindInt, []string{"regoper"}},
	RegOperator:    {"regoperator", 2204, 2209, 4, KindInt, []string{"regoperator"}},
	RegCollation:   {"regcollation", 4191, 4192, 4, KindInt, []string{"regcollation"}},
	ACLItem:        {"aclitem", 1033, 1034, 12, KindText, []string{"aclitem"}},
	Ltree:          {"ltree", LtreeOID, LtreeArrayOID, -1, KindLtree, []string{"ltree"}},
	Lquery:         {"lquery", LqueryOID, LqueryArrayOID, -1, KindLquery, []string{"lquery"}},
	Ltxtquery:      {"ltxtquery", LtxtqueryOID, LtxtqueryArrayOID, -1, KindLtxtquery, []string{"ltxtquery"}},
	Box2D:          {"box2d", Box2DOID, Box2DArrayOID, 65, KindGeometry, []string{"box2d"}},
}

// The fixed OIDs of the extension types (see infos).
const (
	CitextOID      = 12940
	CitextArrayOID = 12941
	HstoreOID      = 12942
	HstoreArrayOID = 12943
	// postgis's (catalog/pgcatalog/extensions.go).
	GeometryOID       = 12961
	GeometryArrayOID  = 12962
	GeographyOID      = 12963
	GeographyArrayOID = 12964
	Box2DOID          = 12952
	Box2DArrayOID     = 12953
	// ltree's (catalog/pgcatalog/extensions.go).
	LtreeOID          = 12981
	LtreeArrayOID     = 12982
	LqueryOID         = 12983
	LqueryArrayOID    = 12984
	LtxtqueryOID      = 12985
	LtxtqueryArrayOID = 12986
)

// ArrayOf returns the type of arrays of elem. Arrays of arrays are not
// types of their own (PostgreSQL's int[][] is int[]), so an array elem
// returns elem itself.
func ArrayOf(elem Type) Type {
	if elem.ID == Array {
		return elem.StripDomain() // a domain over an array: its base
	}
	return Type{ID: Array, Elem: elem.ID, Width: elem.Width, Scale: elem.Scale, Enum: elem.Enum, Domain: elem.Domain, Composite: elem.Composite, Range: elem.Range}
}

// ElemType returns the element type of an array type (Unknown otherwise).
func (t Type) ElemType() Type {
	if t.ID != Array {
		return TypeUnknown
	}
	if t.IsDomain() {
		t.Domain = nil // a domain over an array: its base's elements
	}
	return Type{ID: t.Elem, Width: t.Width, Scale: t.Scale, Enum: t.Enum, Domain: t.Domain, Composite: t.Composite, Range: t.Range}
}

// ArrayDelim is pg_type's typdelim: the separator of t's elements in an
// array's text form (PostGIS's types take ':', box, whose text has
// commas, ';').
func (t Type) ArrayDelim() byte {
	switch t.ID {
	case Geometry, Geography:
		return ':'
	case GeoBox:
		return ';'
	}
	return ','
}

// IsArray reports whether t is an array type.
func (t Type) IsArray() bool { return t.ID == Array }

// NumericType returns numeric(precision, scale); precision 0 means
// unconstrained numeric (scale is then ignored).
func NumericType(precision, scale int) Type {
	if precision == 0 {
		return TypeNumeric
	}
	return Type{ID: Numeric, Width: precision, Scale: int16(scale)}
}

// NumericPrecision returns the p and s of numeric(p, s); ok is false for
// unconstrained numeric.
func (t Type) NumericPrecision() (precision, scale int, ok bool) {
	if t.ID != Numeric && !(t.ID == Array && t.Elem == Numeric) || t.Width == 0 {
		return 0, 0, false
	}
	return t.Width, int(t.Scale), true
}

// OID returns the PostgreSQL type OID.
func (t Type) OID() uint32 {
	if t.Domain != nil {
		if t.IsDomain() {
			return t.Domain.OID
		}
		return t.Domain.ArrayOID
	}
	if t.Enum != nil {
		if t.ID == Array {
			return t.Enum.ArrayOID
		}
		return t.Enum.OID
	}
	if t.Composite.Named() {
		if t.ID == Array {
			return t.Composite.ArrayOID
		}
		return t.Composite.OID
	}
	if t.Range != nil {
		return t.Range.oid(t)
	}
	if t.ID == Array {
		return infos[t.Elem].arrayOID
	}
	return infos[t.ID].oid
}

// ArrayOID returns the OID of the array type whose elements are t.
func (t Type) ArrayOID() uint32 {
	if t.IsDomain() {
		return t.Domain.ArrayOID
	}
	if t.Enum != nil {
		return t.Enum.ArrayOID
	}
	if t.Composite.Named() {
		return t.Composite.ArrayOID
	}
	if t.Range != nil {
		return t.Range.oid(ArrayOf(t))
	}
	return infos[t.ID].arrayOID
}

// Size returns pg_type.typlen: the fixed size in bytes, or -1 for variable
// length types.
func (t Type) Size() int16 { return infos[t.ID].size }

// Kind returns the Value kind that carries values of t.
func (t Type) Kind() Kind { return infos[t.ID].kind }

// String returns the SQL spelling of t as PostgreSQL's format_type prints
// it, e.g. "character varying(20)", "numeric(10,2)", "integer[]".
func (t Type) String() string {
	if t.IsDomain() {
		return t.Domain.TypeName()
	}
	switch t.ID {
	case Varchar:
		if t.Width > 0 {
			return "character varying(" + strconv.Itoa(t.Width) + ")"
		}
	case BPChar:
		if t.Width > 0 {
			return "character(" + strconv.Itoa(t.Width) + ")"
		}
	case Numeric:
		if t.Width > 0 {
			return fmt.Sprintf("numeric(%d,%d)", t.Width, t.Scale)
		}
	case Interval:
		return intervalTypeName(t)
	case Array:
		return t.ElemType().String() + "[]"
	case Timestamp, TimestampTZ, Time, TimeTZ:
		return datetimeTypeName(t)
	case Enum:
		if t.Enum != nil {
			return t.Enum.TypeName()
		}
	case Record:
		if t.Composite.Named() {
			return t.Composite.TypeName()
		}
	case UserRange, UserMultirange:
		if t.Range != nil {
			return t.Range.TypeName(t.ID == UserMultirange)
		}
	case Bit, VarBit:
		return bitTypeName(t)
	case Geometry, Geography:
		return geomTypeName(t)
	}
	return infos[t.ID].name
}

// InfoSchemaName is the type's name in information_schema.columns'
// data_type: the name without modifiers, "character" for char(n), "ARRAY"
// for arrays, as PostgreSQL reports them.
func (t Type) InfoSchemaName() string {
	if t.IsDomain() {
		return t.StripDomain().InfoSchemaName()
	}
	switch t.ID {
	case Array:
		return "ARRAY"
	case BPChar:
		return "character"
	case Record:
		if t.Composite.Named() {
			return "USER-DEFINED"
		}
	case Enum, UserRange, UserMultirange:
		return "USER-DEFINED"
	}
	if t.ID.IsExtension() {
		// Extension types are user-defined to information_schema.
		return "USER-DEFINED"
	}
	return Type{ID: t.ID}.String()
}

// IsExtension reports whether id is one of the built-in extensions'
// types (citext, hstore, PostGIS's geometry and geography, ltree's), which
// live in schema public as CREATE EXTENSION puts them, not in pg_catalog.
func (id TypeID) IsExtension() bool {
	switch id {
	case Citext, Hstore, Geometry, Geography, Box2D, Ltree, Lquery, Ltxtquery:
		return true
	}
	return false
}

// IsNumeric reports whether t is an integer, floating-point or numeric type.
func (t Type) IsNumeric() bool {
	k := t.Kind()
	return k == KindInt || k == KindFloat || k == KindNumeric
}

// IsTextual reports whether t is one of the character types (text,
// varchar(n), char(n)).
func (t Type) IsTextual() bool { return t.ID == Text || t.ID == Varchar || t.ID == BPChar }

// TypeMod returns the atttypmod PostgreSQL reports for t (-1 when none).
// An array reports its element's modifier, as PostgreSQL does.
func (t Type) TypeMod() int32 {
	id := t.ID
	if id == Array {
		id = t.Elem
	}
	switch id {
	case Varchar, BPChar:
		if t.Width > 0 {
			return int32(t.Width + 4)
		}
	case Numeric:
		if t.Width > 0 {
			// PostgreSQL 15 keeps a possibly negative scale in 11 bits.
			return int32(t.Width<<16|int(t.Scale)&0x7ff) + 4
		}
	case Interval:
		if t.Width != 0 || t.Scale != 0 {
			fields := t.Width
			if fields == 0 {
				fields = int(IntervalFull)
			}
			prec := 0xffff
			if t.Scale > 0 {
				prec = int(t.Scale) - 1
			}
			return int32(fields<<16 | prec)
		}
	case Timestamp, TimestampTZ, Time, TimeTZ:
		if t.Scale > 0 {
			return int32(t.Scale) - 1
		}
	case Bit, VarBit:
		if t.Width > 0 {
			return int32(t.Width) // bit's typmod is the length itself
		}
	case Geometry, Geography:
		if t.Width != 0 {
			return int32(max(t.Width, 0)) // PostGIS's packed typmod
		}
	}
	return -1
}

// LookupType resolves a type name as written in SQL (any case, any of the
// usual aliases) to a Type. Modifiers (varchar(n), numeric(p,s)) and array
// brackets are parsed by the caller; see ParseTypeName for the full form.
func LookupType(name string) (Type, bool) {
	name = strings.ToLower(strings.TrimSpace(name))
	for id, in := range infos {
		for _, a := range in.alias {
			if a == name {
				t := Type{ID: TypeID(id)}
				if name == "char" || name == "character" {
					t.Width = 1 // char without a length is char(1)
				}
				return t, true
			}
		}
	}
	return Type{}, false
}

// TypeByOID returns the type with the given OID, array types included.
func TypeByOID(oid uint32) (Type, bool) {
	for id, in := range infos {
		if TypeID(id) == Unknown || TypeID(id) == Array || TypeID(id).userDefined() {
			continue // an enum's OIDs are its EnumType's, in the catalog
		}
		if in.oid == oid {
			return Type{ID: TypeID(id)}, true
		}
		if in.arrayOID == oid && oid != 0 { // void has no array type
			return Type{ID: Array, Elem: TypeID(id)}, true
		}
	}
	return Type{}, false
}

// AllTypes lists the supported scalar column types, in declaration order
// (array types are ArrayOf any of them). The catalogs' system types
// (SystemTypes) are not among them, nor Enum, UserRange and
// UserMultirange, which are types only with a catalog's definition.
func AllTypes() []Type {
	out := make([]Type, 0, len(infos)-2)
	for id := range infos {
		if TypeID(id) != Unknown && TypeID(id) != Array && !TypeID(id).userDefined() && !TypeID(id).System() {
			out = append(out, Type{ID: TypeID(id)})
		}
	}
	return out
}

// userDefined reports whether id is a type only with a catalog's
// definition (an enum's, a user-defined range's).
func (id TypeID) userDefined() bool { return id == Enum || id == UserRange || id == UserMultirange }
