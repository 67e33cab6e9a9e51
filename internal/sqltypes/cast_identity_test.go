package sqltypes

import (
	"math"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// TestCastIdentityAgreesWithCastAny holds castValue's shortcut (alreadyOf)
// to castAny's answer: for values of many kinds cast to the shortcut's
// types (with and without precision, and a domain over one of them), the
// result and the error's SQLSTATE are castAny's, and the shortcut is taken
// exactly when castAny returns the value unchanged for a plain type.
func TestCastIdentityAgreesWithCastAny(t *testing.T) {
	posint, _, _ := testDomains(t)
	big := &DomainType{OID: 20011, ArrayOID: 20012, Name: "bigpos", Base: TypeInt8, Checks: posint.Checks}
	values := []Value{
		NewInt(7), NewInt(-1), NewInt(math.MaxInt64), NewReg(1259, "pg_class"), NewOID(26),
		NewFloat(1.5), NewFloat(math.NaN()), NewFloat(math.Inf(-1)), NewFloat(3e300),
		NewText("12"), NewText("x"), NewText("2024-01-02 03:04:05.678901"), NewText("true"), NewBPChar("ab  "), NewCitext("Ab"),
		NewBool(true), NewBool(false), NewDate(19000), NewTimestamp(1_700_000_000_123_456), NewTimestampTZ(-5),
		NewTime(3), NewBytes([]byte{1, 2}), NewMoney(150), NewPoint(1, 2), NewJSON(`{"a":1}`),
	}
	types := []Type{TypeInt8, TypeFloat8, TypeText, {ID: Bool}, {ID: Date}, {ID: Timestamp}, {ID: TimestampTZ},
		{ID: Timestamp, Scale: 1}, {ID: TimestampTZ, Scale: 4}, DomainOf(big), TypeInt4, {ID: Varchar, Width: 1}}
	shortcuts := 0
	for _, typ := range types {
		for _, v := range values {
			for _, explicit := range []bool{false, true} {
				got, gotErr := castValue(v, typ, explicit)
				want, wantErr := castAny(v, typ, explicit)
				if pgerr.CodeOf(gotErr) != pgerr.CodeOf(wantErr) || (gotErr == nil) != (wantErr == nil) {
					t.Fatalf("cast %v to %s: error %v, castAny's %v", v, typ, gotErr, wantErr)
				}
				if gotErr == nil && !sameBits(got, want) {
					t.Fatalf("cast %v to %s = %#v, castAny's %#v", v, typ, got, want)
				}
				if alreadyOf(v, typ) {
					shortcuts++
					if wantErr != nil || !sameBits(want, v) {
						t.Fatalf("shortcut for %v to %s, but castAny gives %#v, %v", v, typ, want, wantErr)
					}
				}
			}
		}
	}
	if shortcuts == 0 {
		t.Fatal("no cast took the shortcut")
	}
}

// sameBits reports whether two values are the same representation (a NaN
// the same as itself; X compared by identity).
func sameBits(a, b Value) bool {
	return a.K == b.K && a.I == b.I && a.S == b.S && math.Float64bits(a.F) == math.Float64bits(b.F) && a.X == b.X
}
