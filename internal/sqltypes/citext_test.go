package sqltypes

import "testing"

func TestCitextCompare(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"abc", "ABC", 0},
		{"Alice", "alice", 0},
		{"a", "B", -1},  // by the lower case: a < b (text would say B < a)
		{"Z", "a", 1},   // z > a
		{"ÄB", "äb", 0}, // Unicode case mapping, as str_tolower under C.UTF-8
		{"É", "f", 1},   // é (U+00E9) sorts after f in code-point order
		{"", "", 0},
	}
	for _, c := range cases {
		a, b := NewCitext(c.a), NewCitext(c.b)
		if got := Compare(a, b); got != c.want {
			t.Errorf("Compare(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if c.want == 0 && a.Hash(7) != b.Hash(7) {
			t.Errorf("%q and %q are equal but hash differently", c.a, c.b)
		}
	}
	// Equal but not identical: a key's stored copy keeps its case.
	if Identical(NewCitext("A"), NewCitext("a")) {
		t.Error("citext 'A' and 'a' must not be Identical")
	}
}

func TestCitextCasts(t *testing.T) {
	cases := []struct {
		v    Value
		to   Type
		want Value
	}{
		{NewCitext("Ab"), TypeText, NewText("Ab")},
		{NewText("Ab"), TypeCitext, NewCitext("Ab")},
		{NewBPChar("x  "), TypeCitext, NewCitext("x")},
		{NewBool(true), TypeCitext, NewCitext("true")},
		{NewInt(12), TypeCitext, NewCitext("12")},
		{NewCitext("abc"), Type{ID: Varchar, Width: 2}, NewText("ab")},
	}
	for _, c := range cases {
		got, err := CastExplicit(c.v, c.to)
		if err != nil || got.K != c.want.K || got.S != c.want.S {
			t.Errorf("%v::%s = %v, %v; want %v", c.v, c.to, got, err, c.want)
		}
	}
	a, err := ParseText(ArrayOf(TypeCitext), "{a,B}")
	if err != nil || FormatText(a) != "{a,B}" || a.Array().Elems[1].K != KindCitext {
		t.Errorf("citext[] input: %v, %v", a, err)
	}
}
