package sqltypes

import (
	"fmt"
	"strings"
)

// TypeID names one of the SQL types zproxy supports.
type TypeID uint8

// The supported types. Unknown is the type of an untyped literal or NULL
// before the planner has resolved it.
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
)

// Type is a column or expression type. Width is the n of varchar(n); zero
// means unbounded.
type Type struct {
	ID    TypeID
	Width int
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
)

type typeInfo struct {
	name  string // canonical SQL name, as format_type prints it
	oid   uint32
	size  int16 // pg_type.typlen: -1 for variable length
	kind  Kind
	alias []string
}

var infos = [...]typeInfo{
	Unknown:     {"unknown", 705, -2, KindNull, nil},
	Int2:        {"smallint", 21, 2, KindInt, []string{"int2", "smallint"}},
	Int4:        {"integer", 23, 4, KindInt, []string{"int4", "int", "integer"}},
	Int8:        {"bigint", 20, 8, KindInt, []string{"int8", "bigint"}},
	Float4:      {"real", 700, 4, KindFloat, []string{"float4", "real"}},
	Float8:      {"double precision", 701, 8, KindFloat, []string{"float8", "double precision", "double", "float"}},
	Text:        {"text", 25, -1, KindText, []string{"text"}},
	Varchar:     {"character varying", 1043, -1, KindText, []string{"varchar", "character varying"}},
	Bool:        {"boolean", 16, 1, KindBool, []string{"bool", "boolean"}},
	Timestamp:   {"timestamp without time zone", 1114, 8, KindTimestamp, []string{"timestamp", "timestamp without time zone"}},
	TimestampTZ: {"timestamp with time zone", 1184, 8, KindTimestampTZ, []string{"timestamptz", "timestamp with time zone"}},
	Date:        {"date", 1082, 4, KindDate, []string{"date"}},
	Bytea:       {"bytea", 17, -1, KindBytes, []string{"bytea"}},
	UUID:        {"uuid", 2950, 16, KindUUID, []string{"uuid"}},
}

// OID returns the PostgreSQL type OID.
func (t Type) OID() uint32 { return infos[t.ID].oid }

// Size returns pg_type.typlen: the fixed size in bytes, or -1 for variable
// length types.
func (t Type) Size() int16 { return infos[t.ID].size }

// Kind returns the Value kind that carries values of t.
func (t Type) Kind() Kind { return infos[t.ID].kind }

// String returns the SQL spelling of t, e.g. "character varying(20)".
func (t Type) String() string {
	if t.ID == Varchar && t.Width > 0 {
		return fmt.Sprintf("character varying(%d)", t.Width)
	}
	return infos[t.ID].name
}

// IsNumeric reports whether t is an integer or floating-point type.
func (t Type) IsNumeric() bool { k := t.Kind(); return k == KindInt || k == KindFloat }

// TypeMod returns the atttypmod PostgreSQL reports for t (-1 when none).
func (t Type) TypeMod() int32 {
	if t.ID == Varchar && t.Width > 0 {
		return int32(t.Width + 4)
	}
	return -1
}

// LookupType resolves a type name as written in SQL (any case, any of the
// usual aliases) to a Type. The width of varchar(n) is passed separately.
func LookupType(name string) (Type, bool) {
	name = strings.ToLower(strings.TrimSpace(name))
	for id, in := range infos {
		for _, a := range in.alias {
			if a == name {
				return Type{ID: TypeID(id)}, true
			}
		}
	}
	return Type{}, false
}

// TypeByOID returns the type with the given OID.
func TypeByOID(oid uint32) (Type, bool) {
	for id, in := range infos {
		if in.oid == oid && TypeID(id) != Unknown {
			return Type{ID: TypeID(id)}, true
		}
	}
	return Type{}, false
}

// AllTypes lists the supported column types, in declaration order.
func AllTypes() []Type {
	out := make([]Type, 0, len(infos)-1)
	for id := range infos {
		if TypeID(id) != Unknown {
			out = append(out, Type{ID: TypeID(id)})
		}
	}
	return out
}
