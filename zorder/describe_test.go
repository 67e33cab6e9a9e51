package zorder

import "testing"

func TestValueText(t *testing.T) {
	ts := int64(1704067200000000) // 2024-01-01 00:00:00 UTC in µs
	for _, tc := range []struct {
		name string
		attr Attr
		code uint64
		want string
	}{
		{"float", Attr{Type: TypeFloat}, Attr{Type: TypeFloat}.Float(40.5), "40.5"},
		{"negative float", Attr{Type: TypeFloat}, Attr{Type: TypeFloat}.Float(-73.9), "-73.9"},
		{"narrow float keeps top bits", Attr{Type: TypeFloat, Width: 16}, Attr{Type: TypeFloat, Width: 16}.Float(40.7), "40"},
		{"int", Attr{Type: TypeInt}, Attr{Type: TypeInt}.Int(-42), "-42"},
		{"narrow int", Attr{Type: TypeInt, Width: 16}, Attr{Type: TypeInt, Width: 16}.Int(-300), "-300"},
		{"uint", Attr{Type: TypeUint}, 7, "7"},
		{"timestamp", Attr{Type: TypeTimestamp}, Attr{Type: TypeTimestamp}.Int(ts + 1500000), "2024-01-01 00:00:01.5"},
		{"date", Attr{Type: TypeDate}, Attr{Type: TypeDate}.Int(19723), "2024-01-01"},
		{"bool", Attr{Type: TypeBool}, 1, "true"},
		{"text prefix", Attr{Type: TypeBytes}, Attr{Type: TypeBytes}.String("abcdefghij"), `"abcdefgh"`},
		{"null", Attr{Type: TypeInt, Nullable: true}, 0, "NULL"},
		{"nullable value", Attr{Type: TypeInt, Nullable: true}, Attr{Type: TypeInt, Nullable: true}.Int(5), "5"},
	} {
		if got := tc.attr.ValueText(tc.code); got != tc.want {
			t.Errorf("%s: ValueText(%#x) = %s, want %s", tc.name, tc.code, got, tc.want)
		}
	}
}
