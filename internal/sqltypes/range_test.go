package sqltypes

import (
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// TestRangeText: range_in and range_out as PostgreSQL 15 answers them
// (canonical discrete forms, emptiness, infinite bounds, quoting), and
// its errors with their SQLSTATEs and details.
func TestRangeText(t *testing.T) {
	cases := []textCase{
		{Int4Range, "[1,5)", "[1,5)", pgerr.Code{}},
		{Int4Range, "(1,5]", "[2,6)", pgerr.Code{}},
		{Int4Range, " [ 1 , 5 ) ", "[1,5)", pgerr.Code{}},
		{Int4Range, "(3,4)", "empty", pgerr.Code{}},
		{Int4Range, "[,5]", "(,6)", pgerr.Code{}},
		{Int8Range, " EMPTY ", "empty", pgerr.Code{}},
		{Int4Range, `["1",  "5"]`, "[1,6)", pgerr.Code{}},
		{Int4Range, `[\1,5)`, "[1,5)", pgerr.Code{}},
		{NumRange, "(1.50,)", "(1.50,)", pgerr.Code{}},
		{NumRange, "(1,1.0]", "empty", pgerr.Code{}},
		{NumRange, "[1.0,1.0]", "[1.0,1.0]", pgerr.Code{}},
		{DateRange, "[2024-01-01,2024-02-01]", "[2024-01-01,2024-02-02)", pgerr.Code{}},
		{DateRange, "[-infinity,infinity]", "[-infinity,infinity]", pgerr.Code{}},
		{TsRange, `["2024-01-01 10:00","2024-01-02")`, `["2024-01-01 10:00:00","2024-01-02 00:00:00")`, pgerr.Code{}},
		{Int4Range, "[3,1]", "", pgerr.DataException},
		{Int4Range, "x", "", pgerr.InvalidTextRepresentation},
		{Int4Range, "[1,2", "", pgerr.InvalidTextRepresentation},
		{Int4Range, "[1,2,3]", "", pgerr.InvalidTextRepresentation},
		{Int4Range, "empty x", "", pgerr.InvalidTextRepresentation},
		{Int4Range, "[1,2] x", "", pgerr.InvalidTextRepresentation},
		{Int4Range, `(1,"2`, "", pgerr.InvalidTextRepresentation},
		{Int4Range, "[2147483647,2147483647]", "", pgerr.NumericValueOutOfRange},
		{TsRange, "[abc,)", "", pgerr.InvalidDatetimeFormat},
	}
	checkTextCases(t, cases)
}

// TestRangeOperators: the operators on a few ranges, as PostgreSQL 15
// answers them.
func TestRangeOperators(t *testing.T) {
	r := func(s string) *RangeValue {
		v, err := ParseText(Type{ID: Int4Range}, s)
		if err != nil {
			t.Fatal(err)
		}
		return v.Range()
	}
	bools := []struct {
		name string
		got  bool
		want bool
	}{
		{"[1,5) @> [2,3)", RangeContains(r("[1,5)"), r("[2,3)")), true},
		{"empty @> empty", RangeContains(r("empty"), r("empty")), true},
		{"(,3] && [4,9)", RangeOverlaps(r("(,3]"), r("[4,9)")), false},
		{"[1,5) << [7,8)", RangeBefore(r("[1,5)"), r("[7,8)")), true},
		{"[1,5) &< [0,5)", RangeOverLeft(r("[1,5)"), r("[0,5)")), true},
		{"[2,) &> [1,2)", RangeOverRight(r("[2,)"), r("[1,2)")), true},
		{"[1,5) -|- [5,7)", RangeAdjacent(r("[1,5)"), r("[5,7)")), true},
		{"[1,5) -|- [6,7)", RangeAdjacent(r("[1,5)"), r("[6,7)")), false},
		{"[1,5) @> 5", RangeContainsElem(r("[1,5)"), NewInt(5)), false},
	}
	for _, c := range bools {
		if c.got != c.want {
			t.Errorf("%s: %v", c.name, c.got)
		}
	}
	vals := []struct {
		name string
		f    func() (Value, error)
		want string
		code pgerr.Code
	}{
		{"[1,5) + [5,8)", func() (Value, error) { return RangeUnion(r("[1,5)"), r("[5,8)"), true) }, "[1,8)", pgerr.Code{}},
		{"[1,5) + [7,8)", func() (Value, error) { return RangeUnion(r("[1,5)"), r("[7,8)"), true) }, "", pgerr.DataException},
		{"range_merge", func() (Value, error) { return RangeUnion(r("[1,2)"), r("[5,6)"), false) }, "[1,6)", pgerr.Code{}},
		{"[1,5) * [6,8)", func() (Value, error) { return RangeIntersect(r("[1,5)"), r("[6,8)")) }, "empty", pgerr.Code{}},
		{"[1,5) - [3,8)", func() (Value, error) { return RangeMinus(r("[1,5)"), r("[3,8)")) }, "[1,3)", pgerr.Code{}},
		{"[1,5) - [0,2)", func() (Value, error) { return RangeMinus(r("[1,5)"), r("[0,2)")) }, "[2,5)", pgerr.Code{}},
		{"[1,5) - [2,3)", func() (Value, error) { return RangeMinus(r("[1,5)"), r("[2,3)")) }, "", pgerr.DataException},
	}
	for _, c := range vals {
		v, err := c.f()
		if c.code != (pgerr.Code{}) {
			if pgerr.CodeOf(err) != c.code {
				t.Errorf("%s: %v, want %s", c.name, err, c.code)
			}
			continue
		}
		if err != nil || FormatText(v) != c.want {
			t.Errorf("%s: %s, %v; want %s", c.name, FormatText(v), err, c.want)
		}
	}
}

// TestMultirangeText: multirange_in and multirange_out as PostgreSQL 15
// answers them (sorted, merged, empties dropped), and its errors.
func TestMultirangeText(t *testing.T) {
	cases := []textCase{
		{Int4Multirange, "{}", "{}", pgerr.Code{}},
		{Int4Multirange, " { } ", "{}", pgerr.Code{}},
		{Int4Multirange, "{[1,3), [2,5), empty, (7,9]}", "{[1,5),[8,10)}", pgerr.Code{}},
		{Int4Multirange, "{[1,2),[2,3)}", "{[1,3)}", pgerr.Code{}},
		{NumMultirange, "{[1.5,2), [0,1]}", "{[0,1],[1.5,2)}", pgerr.Code{}},
		{Int4Multirange, "{ (,3) , [5,) }", "{(,3),[5,)}", pgerr.Code{}},
		{TsMultirange, `{["2024-01-01 10:00","2024-01-02")}`, `{["2024-01-01 10:00:00","2024-01-02 00:00:00")}`, pgerr.Code{}},
		{Int4Multirange, "{", "", pgerr.InvalidTextRepresentation},
		{Int4Multirange, "{[1,2) x}", "", pgerr.InvalidTextRepresentation},
		{Int4Multirange, "{[1,2)} x", "", pgerr.InvalidTextRepresentation},
		{Int4Multirange, "[1,2)", "", pgerr.InvalidTextRepresentation},
		{Int4Multirange, "{[1,2),}", "", pgerr.InvalidTextRepresentation},
		{Int4Multirange, "{[3,1)}", "", pgerr.DataException},
	}
	checkTextCases(t, cases)
	m := func(s string) *MultirangeValue {
		v, err := ParseText(Type{ID: Int4Multirange}, s)
		if err != nil {
			t.Fatal(err)
		}
		return v.Multirange()
	}
	for _, c := range []struct {
		name string
		f    func() (Value, error)
		want string
	}{
		{"+", func() (Value, error) { return MultirangeUnion(m("{[1,3),[5,7)}"), m("{[3,5)}")) }, "{[1,7)}"},
		{"*", func() (Value, error) { return MultirangeIntersect(m("{[1,3),[5,7)}"), m("{[2,6)}")) }, "{[2,3),[5,6)}"},
		{"-", func() (Value, error) { return MultirangeMinus(m("{[1,3),[5,7)}"), m("{[2,6)}")) }, "{[1,2),[6,7)}"},
		{"- middle", func() (Value, error) { return MultirangeMinus(m("{[1,10)}"), m("{[3,4),[6,7)}")) }, "{[1,3),[4,6),[7,10)}"},
	} {
		v, err := c.f()
		if err != nil || FormatText(v) != c.want {
			t.Errorf("%s: %s, %v; want %s", c.name, FormatText(v), err, c.want)
		}
	}
}

// textCase is a value's text input in a type: its output, or the SQLSTATE
// of its error.
type textCase struct {
	typ     TypeID
	in, out string
	code    pgerr.Code
}

func checkTextCases(t *testing.T, cases []textCase) {
	t.Helper()
	for _, c := range cases {
		v, err := ParseText(Type{ID: c.typ}, c.in)
		if c.code != (pgerr.Code{}) {
			if pgerr.CodeOf(err) != c.code {
				t.Errorf("%s %q: %v, want %s", Type{ID: c.typ}, c.in, err, c.code)
			}
			continue
		}
		if err != nil || FormatText(v) != c.out {
			t.Errorf("%s %q: %s, %v; want %s", Type{ID: c.typ}, c.in, FormatText(v), err, c.out)
		}
	}
}
