package sqltypes

import (
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// testComposite is (a text, b int4, c text[]), as CREATE TYPE makes one.
func testComposite() Type {
	return CompositeOf(&CompositeType{Name: "tc", OID: 20000, ArrayOID: 20001, Fields: []CompositeField{
		{Name: "a", Type: TypeText}, {Name: "b", Type: TypeInt4}, {Name: "c", Type: ArrayOf(TypeText)},
	}})
}

// TestRecordText checks record_in and record_out against PostgreSQL 15's
// answers for the same text.
func TestRecordText(t *testing.T) {
	typ := testComposite()
	cases := []struct {
		in, out, detail string
	}{
		{in: "(x,1,{a})", out: "(x,1,{a})"},
		{in: "  (x,1,)  ", out: "(x,1,)"},
		{in: "(,,)", out: "(,,)"},
		{in: `("",,)`, out: `("",,)`},
		{in: `(" a b ",2,"{""q r"",NULL}")`, out: `(" a b ",2,"{""q r"",NULL}")`},
		{in: `(a\,b,3,)`, out: `("a,b",3,)`},
		{in: `("x""y\\z",,)`, out: `("x""y\\z",,)`},
		{in: `(a"b,c"d,4,)`, out: `("ab,cd",4,)`},
		{in: "( x ,1,)", out: `(" x ",1,)`},
		{in: "x,1,", detail: "Missing left parenthesis."},
		{in: "", detail: "Missing left parenthesis."},
		{in: "(x,1)", detail: "Too few columns."},
		{in: "(x,1,,)", detail: "Too many columns."},
		{in: "(x,1,) y", detail: "Junk after right parenthesis."},
		{in: `(x,1,"{a}`, detail: "Unexpected end of input."},
		{in: `(x,1,\`, detail: "Unexpected end of input."},
	}
	for _, c := range cases {
		v, err := ParseText(typ, c.in)
		if c.detail != "" {
			pe := pgerr.As(err)
			if pe == nil || pe.Code != pgerr.InvalidTextRepresentation || pe.Detail != c.detail {
				t.Errorf("%q: got %v, want 22P02 with DETAIL %q", c.in, err, c.detail)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if got := FormatText(v); got != c.out {
			t.Errorf("%q: printed %q, want %q", c.in, got, c.out)
		}
	}
	if _, err := ParseText(Type{ID: Record}, "(1)"); pgerr.CodeOf(err) != pgerr.FeatureNotSupported {
		t.Errorf("anonymous record input: %v, want 0A000", err)
	}
}

// TestStoredRecordShort reads a value stored before ADD ATTRIBUTE.
func TestStoredRecordShort(t *testing.T) {
	typ := testComposite()
	v, err := ParseStoredRecord(typ, "(x,1)")
	if err != nil || FormatText(v) != "(x,1,)" {
		t.Fatalf("got %v, %v", v, err)
	}
	arr, err := ParseStoredRecord(ArrayOf(typ), `{"(x,1)",NULL}`)
	if err != nil || FormatText(arr) != `{"(x,1,)",NULL}` {
		t.Fatalf("array: got %v, %v", arr, err)
	}
	if _, err := ParseText(typ, "(x,1)"); err == nil {
		t.Fatal("record_in accepted a short record")
	}
}

// FuzzParseRecord feeds arbitrary text to record_in: no panic, only
// 22P02 (or the fields' own input errors), and what is accepted prints to
// a form that reads back as the same value.
func FuzzParseRecord(f *testing.F) {
	for _, s := range []string{"(x,1,{a})", `("a""b",,)`, `(a\,b,3,)`, "(,,)", "((", `(" ",-2147483648,"{}")`} {
		f.Add(s)
	}
	typ := testComposite()
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseText(typ, s)
		if err != nil {
			fuzzCodes(t, "record_in", s, err, pgerr.InvalidTextRepresentation.String(), pgerr.NumericValueOutOfRange.String(),
				pgerr.CharacterNotInRepertoire.String(), pgerr.ArraySubscriptError.String(), pgerr.ProgramLimitExceeded.String())
			return
		}
		text := FormatText(v)
		back, err := ParseText(typ, text)
		if err != nil || !Equal(back, v) || FormatText(back) != text {
			t.Fatalf("%q -> %q -> %v, %v", s, text, back, err)
		}
	})
}
