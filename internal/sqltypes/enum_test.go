package sqltypes

import "testing"

// TestEnumSameAcrossDefinitions: two snapshots' definitions of one enum
// are one type; two enums are not, nor an enum and its array.
func TestEnumSameAcrossDefinitions(t *testing.T) {
	a1 := &EnumType{OID: 16400, ArrayOID: 16401, Name: "mood", Labels: []EnumLabel{{OID: 1, Label: "sad", Order: 1}}}
	a2 := &EnumType{OID: 16400, ArrayOID: 16401, Name: "mood", Labels: []EnumLabel{{OID: 1, Label: "sad", Order: 1}, {OID: 2, Label: "ok", Order: 2}}}
	b := &EnumType{OID: 16500, ArrayOID: 16501, Name: "color"}
	for _, c := range []struct {
		x, y Type
		same bool
	}{
		{EnumOf(a1), EnumOf(a2), true},
		{ArrayOf(EnumOf(a1)), ArrayOf(EnumOf(a2)), true},
		{EnumOf(a1), EnumOf(b), false},
		{EnumOf(a1), ArrayOf(EnumOf(a2)), false},
		{EnumOf(a1), TypeText, false},
		{TypeInt4, TypeInt4, true},
	} {
		if got := c.x.Same(c.y); got != c.same {
			t.Errorf("%v.Same(%v) = %v, want %v", c.x, c.y, got, c.same)
		}
	}
	// Values of the two definitions compare by sort order.
	if Compare(a1.Value(a1.Labels[0]), a2.Value(a2.Labels[1])) >= 0 {
		t.Error("sad does not sort before ok")
	}
}
