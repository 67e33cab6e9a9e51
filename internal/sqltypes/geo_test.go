package sqltypes

import (
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// TestGeoText: the geometric types' input forms and their output, and
// the errors of bad input, as PostgreSQL 15 answers them.
func TestGeoText(t *testing.T) {
	for _, c := range []struct {
		typ      TypeID
		in, want string // want: the output, or "!" and the SQLSTATE
	}{
		{GeoPoint, "(1,2)", "(1,2)"},
		{GeoPoint, " 1.5 , -2 ", "(1.5,-2)"},
		{GeoPoint, "( 1e3 , 2.5e-3 )", "(1000,0.0025)"},
		{GeoPoint, "(-0,inf)", "(-0,Infinity)"},
		{GeoPoint, "(NaN,-Infinity)", "(NaN,-Infinity)"},
		{GeoPoint, "(0.1,0.2)", "(0.1,0.2)"},
		{GeoPoint, "(1,2", "!22P02"},
		{GeoPoint, "1", "!22P02"},
		{GeoPoint, "(1,2),", "!22P02"},
		{GeoPoint, "(1e400,1)", "!22003"},
		{GeoPoint, "(1e-400,1)", "!22003"},
		{GeoPoint, "", "!22P02"},
		{GeoLSeg, "((0,0),(1,1))", "[(0,0),(1,1)]"},
		{GeoLSeg, "[(0,0),(1,1)]", "[(0,0),(1,1)]"},
		{GeoLSeg, "0,0,1,1", "[(0,0),(1,1)]"},
		{GeoLSeg, "(0,0,1,1)", "[(0,0),(1,1)]"},
		{GeoLSeg, "(0,0),(1,1),(2,2)", "!22P02"},
		{GeoBox, "(0,0),(2,3)", "(2,3),(0,0)"},
		{GeoBox, "((3,1),(1,2))", "(3,2),(1,1)"},
		{GeoBox, "1,2,3,4", "(3,4),(1,2)"},
		{GeoBox, "[(0,0),(1,1)]", "!22P02"},
		{GeoLine, "{1,2,3}", "{1,2,3}"},
		{GeoLine, "[(0,0),(1,1)]", "{1,-1,0}"},
		{GeoLine, "((0,0),(0,1))", "{-1,0,0}"},
		{GeoLine, "(1,1),(2,1)", "{0,-1,1}"},
		{GeoLine, "{0,0,1}", "!22P02"},
		{GeoLine, "(1,1),(1,1)", "!22P02"},
		{GeoLine, "{1,2}", "!22P02"},
		{GeoPath, "((0,0),(1,1),(2,0))", "((0,0),(1,1),(2,0))"},
		{GeoPath, "[(0,0),(1,1)]", "[(0,0),(1,1)]"},
		{GeoPath, "(0,0,1,1)", "((0,0),(1,1))"},
		{GeoPath, "(1,2)", "((1,2))"},
		{GeoPath, "0,0,1,1,2,2", "((0,0),(1,1),(2,2))"},
		{GeoPath, "", "!22P02"},
		{GeoPath, "(0,0),(1", "!22P02"},
		{GeoPolygon, "(0,0),(1,1),(2,0)", "((0,0),(1,1),(2,0))"},
		{GeoPolygon, "(0,0,1,1,2,0)", "((0,0),(1,1),(2,0))"},
		{GeoPolygon, "[(0,0),(1,1)]", "!22P02"},
		{GeoCircle, "<(1,2),3>", "<(1,2),3>"},
		{GeoCircle, "((1,2),3)", "<(1,2),3>"},
		{GeoCircle, "(1,2),3", "<(1,2),3>"},
		{GeoCircle, "1,2,3", "<(1,2),3>"},
		{GeoCircle, "<(1,2),-1>", "!22P02"},
		{GeoCircle, "<(1,2),3", "!22P02"},
	} {
		v, err := ParseGeo(c.typ, c.in)
		got := ""
		if err != nil {
			got = "!" + pgerr.CodeOf(err).String()
		} else {
			got = FormatText(v)
		}
		if got != c.want {
			t.Errorf("%s %q: got %s, want %s", infos[c.typ].name, c.in, got, c.want)
		}
	}
}

// TestGeoFloatStyle: the coordinates print as float8out does under
// extra_float_digits 0 (15 significant digits).
func TestGeoFloatStyle(t *testing.T) {
	v, err := ParseGeo(GeoPoint, "(0.30000000000000004,1)")
	if err != nil {
		t.Fatal(err)
	}
	if got := string(AppendTextStyled(nil, Type{ID: GeoPoint}, v, Style{RoundFloats: true})); got != "(0.3,1)" {
		t.Errorf("got %s", got)
	}
	if got := FormatText(v); got != "(0.30000000000000004,1)" {
		t.Errorf("got %s", got)
	}
}

// FuzzParseGeometric feeds arbitrary text to the geometric types' input:
// it never panics, fails only with 22P02 or 22003, and what it accepts
// prints as text that reads back as the same value and prints the same;
// the binary form reads back too.
func FuzzParseGeometric(f *testing.F) {
	for _, s := range []string{"(1,2)", " 1.5 , -2 ", "((0,0),(1,1))", "[(0,0),(1,1)]", "(0,0),(2,3)", "{1,2,3}",
		"((0,0),(1,1),(2,0))", "(0,0,1,1)", "<(1,2),3>", "1,2,3", "(NaN,inf)", "( ( 1 , 2 ) , 3 )", "[(1e300,-1e-300)]"} {
		for id := uint8(0); id < 7; id++ {
			f.Add(id, s)
		}
	}
	f.Fuzz(func(t *testing.T, id uint8, s string) {
		typ := GeoPoint + TypeID(id%7)
		v, err := ParseGeo(typ, s)
		if err != nil {
			if c := pgerr.CodeOf(err); c != pgerr.InvalidTextRepresentation && c != pgerr.NumericValueOutOfRange {
				t.Fatalf("%s %q: code %s: %v", infos[typ].name, s, c, err)
			}
			return
		}
		out := FormatText(v)
		back, err := ParseGeo(typ, out)
		if err != nil || !Identical(back, v) || FormatText(back) != out {
			t.Fatalf("%s %q prints %q, which reads back as %q, %v", infos[typ].name, s, out, FormatText(back), err)
		}
		bin, err := DecodeGeoBinary(typ, AppendGeoBinary(nil, v))
		if err != nil || !Identical(bin, v) {
			t.Fatalf("%s %q: binary round trip %v, %v", infos[typ].name, s, FormatText(bin), err)
		}
	})
}
