package sqltypes

import (
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// TestTypeModAndOID: OIDs, typmods and names as PostgreSQL 15 reports them
// (pg_attribute.atttypmod, format_type) for declared columns.
func TestTypeModAndOID(t *testing.T) {
	dayToSecond := IntervalDay | IntervalHour | IntervalMinute | IntervalSecond
	cases := []struct {
		typ    Type
		oid    uint32
		typmod int32
		name   string
	}{
		{IntervalType(dayToSecond, 3), 1186, 470286339, "interval day to second(3)"},
		{IntervalType(IntervalFull, 2), 1186, 2147418114, "interval(2)"},
		{IntervalType(IntervalYear, -1), 1186, 327679, "interval year"},
		{TypeInterval, 1186, -1, "interval"},
		{NumericType(10, 2), 1700, 655366, "numeric(10,2)"},
		{NumericType(5, -2), 1700, 329730, "numeric(5,-2)"},
		{TypeNumeric, 1700, -1, "numeric"},
		{Type{ID: BPChar, Width: 3}, 1042, 7, "character(3)"},
		{TypeBPChar, 1042, -1, "bpchar"},
		{TypeJSON, 114, -1, "json"},
		{TypeJSONB, 3802, -1, "jsonb"},
		{ArrayOf(TypeInt4), 1007, -1, "integer[]"},
		{ArrayOf(NumericType(10, 2)), 1231, 655366, "numeric(10,2)[]"},
		{ArrayOf(Type{ID: Varchar, Width: 5}), 1015, 9, "character varying(5)[]"},
		{ArrayOf(TypeJSONB), 3807, -1, "jsonb[]"},
		{ArrayOf(TypeInterval), 1187, -1, "interval[]"},
		{ArrayOf(TypeBPChar), 1014, -1, "bpchar[]"},
		{ArrayOf(TypeJSON), 199, -1, "json[]"},
	}
	for _, c := range cases {
		if c.typ.OID() != c.oid || c.typ.TypeMod() != c.typmod || c.typ.String() != c.name {
			t.Errorf("%v: oid %d typmod %d name %q; want %d %d %q", c.typ, c.typ.OID(), c.typ.TypeMod(), c.typ.String(), c.oid, c.typmod, c.name)
		}
	}
	for _, typ := range AllTypes() {
		for _, tt := range []Type{typ, ArrayOf(typ)} {
			back, ok := TypeByOID(tt.OID())
			if !ok || back.ID != tt.ID || back.Elem != tt.Elem {
				t.Errorf("TypeByOID(%d) = %v, %v; want %v", tt.OID(), back, ok, tt)
			}
		}
	}
	// OID 0 is a client leaving a parameter's type open, never a type
	// (void, OID 2278, has no array type: its typarray is 0).
	if typ, ok := TypeByOID(0); ok {
		t.Errorf("TypeByOID(0) = %v", typ)
	}
	if typ, ok := TypeByOID(2278); !ok || typ != TypeVoid {
		t.Errorf("TypeByOID(2278) = %v, %v; want void", typ, ok)
	}
	if ArrayOf(ArrayOf(TypeInt8)) != ArrayOf(TypeInt8) {
		t.Error("int8[][] is not int8[]")
	}
	if c, _ := LookupType("char"); c != (Type{ID: BPChar, Width: 1}) {
		t.Errorf("char is %v", c)
	}
}

func TestDateHelpers(t *testing.T) {
	if d, err := DateAddDays(0, 31); err != nil || d != 31 {
		t.Errorf("1970-01-01 + 31 = %d, %v", d, err)
	}
	if d, err := DateAddDays(DateInfinity, -5); err != nil || d != DateInfinity {
		t.Errorf("infinity - 5 = %d, %v", d, err)
	}
	if _, err := DateAddDays(MaxDate, 1); pgerr.CodeOf(err) != pgerr.DatetimeValueOutOfRange {
		t.Errorf("max date + 1: %v", err)
	}
	if n, err := DateDiff(10, 3); err != nil || n != 7 {
		t.Errorf("date diff %d, %v", n, err)
	}
	if _, err := DateDiff(DateInfinity, 3); err == nil {
		t.Error("infinity - date succeeded")
	}
	if _, err := DateToTimestamp(MaxDate); pgerr.CodeOf(err) != pgerr.DatetimeValueOutOfRange {
		t.Errorf("5874897-12-31 as timestamp: %v", err)
	}
	if TimestampToDate(-1) != PGEpochDays-1 || TimestampToDate(TimestampNegInfinity) != DateNegInfinity {
		t.Error("TimestampToDate")
	}
	v, err := Cast(NewDate(DateInfinity), TypeTimestamp)
	if err != nil || v.I != TimestampInfinity {
		t.Errorf("infinity::date::timestamp = %v, %v", v, err)
	}
}

func TestTypeOfValue(t *testing.T) {
	if got := TypeOfValue(NewArray1(TypeFloat4, nil)); got != ArrayOf(TypeFloat4) {
		t.Errorf("TypeOfValue(real[]) = %v", got)
	}
	for _, k := range []Kind{KindNumeric, KindInterval, KindBPChar, KindJSON, KindJSONB} {
		if KindType(k).Kind() != k {
			t.Errorf("KindType(%d) = %v", k, KindType(k))
		}
	}
	if _, err := Cast(NewBool(true), TypeNumeric); pgerr.CodeOf(err) != pgerr.CannotCoerce {
		t.Errorf("true::numeric: %v", err)
	}
	if v, err := Cast(NewBool(true), TypeText); err != nil || v.S != "true" {
		t.Errorf("true::text = %v, %v", v, err)
	}
}
