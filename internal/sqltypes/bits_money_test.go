package sqltypes

import (
	"math"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// TestParseBit: bit_in's and varbit_in's forms, length rules and errors,
// with PostgreSQL 15's answers.
func TestParseBit(t *testing.T) {
	for _, c := range []struct {
		in      string
		width   int
		varying bool
		want    string // text output, or the SQLSTATE
	}{
		{"0101", 0, false, "0101"},
		{"b0101", 0, false, "0101"},
		{"B1", 0, true, "1"},
		{"x1F", 0, false, "00011111"},
		{"XaB", 0, true, "10101011"},
		{"", 0, true, ""},
		{"x", 0, true, ""},
		{"101", 3, false, "101"},
		{"10", 3, false, "22026"},
		{"1010", 3, false, "22026"},
		{"10", 3, true, "10"},
		{"1010", 3, true, "22001"},
		{"012", 0, false, "22P02"},
		{"x1g", 0, false, "22P02"},
		{"12", 3, false, "22026"}, // the length is checked before the digits
		{"1é", 0, true, "22P02"},
	} {
		v, err := ParseBit(c.in, c.width, c.varying)
		got := FormatText(v)
		if err != nil {
			got = pgerr.CodeOf(err).String()
		}
		if got != c.want {
			t.Errorf("ParseBit(%q, %d, %v) = %s, want %s", c.in, c.width, c.varying, got, c.want)
		}
	}
}

// TestCompareBit: bit_cmp's order, bytes first and then the length.
func TestCompareBit(t *testing.T) {
	bit := func(s string) Value {
		v, err := ParseBit(s, 0, true)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"1", "1", 0}, {"10", "1", 1}, {"0", "00", -1}, {"01", "1", -1}, {"1", "0111", 1},
		{"", "0", -1}, {"100000000", "10000000", 1}, {"100000001", "11", -1},
	} {
		if got := Compare(bit(c.a), bit(c.b)); got != c.want {
			t.Errorf("Compare(B'%s', B'%s') = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// TestBitCasts: explicit casts cut and pad, assignment errs; integers
// give their low bits, sign-extended.
func TestBitCasts(t *testing.T) {
	bit := func(s string) Value { v, _ := ParseBit(s, 0, true); return v }
	for _, c := range []struct {
		v        Value
		to       Type
		explicit bool
		want     string
	}{
		{bit("10101"), Type{ID: Bit, Width: 3}, true, "101"},
		{bit("1"), Type{ID: Bit, Width: 3}, true, "100"},
		{bit("1"), Type{ID: Bit, Width: 3}, false, "22026"},
		{bit("101"), Type{ID: VarBit, Width: 2}, true, "10"},
		{bit("101"), Type{ID: VarBit, Width: 2}, false, "22001"},
		{bit("1"), Type{ID: VarBit, Width: 2}, false, "1"},
		{NewText("10101"), Type{ID: Bit, Width: 3}, true, "101"},
		{NewText("10101"), Type{ID: Bit, Width: 3}, false, "22026"},
		{NewInt(5), Type{ID: Bit, Width: 3}, true, "101"},
		{NewInt(-1), Type{ID: Bit, Width: 66}, true, "111111111111111111111111111111111111111111111111111111111111111111"},
		{NewInt(300), Type{ID: Bit}, true, "0"},
		{bit("11111111111111111111111111111111"), TypeInt4, true, "-1"},
		{bit("111111111111111111111111111111111"), TypeInt4, true, "22003"},
		{bit("1010"), TypeInt8, true, "10"},
		{bit("1010"), TypeText, true, "1010"},
	} {
		r, err := castValue(c.v, c.to, c.explicit)
		got := FormatText(r)
		if err != nil {
			got = pgerr.CodeOf(err).String()
		}
		if got != c.want {
			t.Errorf("cast %s to %s (explicit %v) = %s, want %s", FormatText(c.v), c.to, c.explicit, got, c.want)
		}
	}
}

// TestMoneyText: cash_in and cash_out in the C locale, with PostgreSQL
// 15's answers.
func TestMoneyText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"1,234.5", "$1,234.50"},
		{"-1", "-$1.00"},
		{"$-1.2", "-$1.20"},
		{"(1.00)", "-$1.00"},
		{"($1,234.567)", "-$1,234.57"},
		{"1.005", "$1.01"},
		{"1.004", "$1.00"},
		{" $ 12 ", "$12.00"},
		{"12-", "-$12.00"},
		{"", "$0.00"},
		{"+3", "$3.00"},
		{"1,2,3", "$123.00"},
		{"0.001", "$0.00"},
		{"-0.005", "-$0.01"},
		{"92233720368547758.07", "$92,233,720,368,547,758.07"},
		{"-92233720368547758.08", "-$92,233,720,368,547,758.08"},
		{"abc", "22P02"},
		{"1.2.3", "22P02"},
		{"99999999999999999999", "22003"},
		{"92233720368547758.08", "22003"},
	} {
		v, err := ParseMoney(c.in)
		got := FormatText(v)
		if err != nil {
			got = pgerr.CodeOf(err).String()
		}
		if got != c.want {
			t.Errorf("ParseMoney(%q) = %s, want %s", c.in, got, c.want)
		}
	}
	if got := string(AppendMoney(nil, math.MinInt64)); got != "-$92,233,720,368,547,758.08" {
		t.Errorf("AppendMoney(MinInt64) = %s", got)
	}
}

// TestCashWords: cash_words' English, as PostgreSQL 15 spells it.
func TestCashWords(t *testing.T) {
	for _, c := range []struct {
		cents int64
		want  string
	}{
		{123456, "One thousand two hundred thirty four dollars and fifty six cents"},
		{-101, "Minus one dollar and one cent"},
		{0, "Zero dollars and zero cents"},
		{100, "One dollar and zero cents"},
		{11220, "One hundred and twelve dollars and twenty cents"},
		{12000, "One hundred twenty dollars and zero cents"},
		{100000000, "One million  dollars and zero cents"}, // sic: the group's trailing blank stays
	} {
		if got := CashWords(c.cents); got != c.want {
			t.Errorf("CashWords(%d) = %q, want %q", c.cents, got, c.want)
		}
	}
}

// FuzzParseMoney: cash_in never panics, and what it reads prints as text
// that reads back to the same amount.
func FuzzParseMoney(f *testing.F) {
	for _, s := range []string{"1,234.5", "($1.005)", "-92233720368547758.08", "12-", "", "$"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseMoney(s)
		if err != nil {
			return
		}
		back, err := ParseMoney(FormatText(v))
		if err != nil || back.I != v.I {
			t.Fatalf("%q -> %s -> %v, %v", s, FormatText(v), back.I, err)
		}
	})
}

// FuzzParseBit: bit_in never panics, keeps the pad bits zero, and its
// output reads back to the same value.
func FuzzParseBit(f *testing.F) {
	for _, s := range []string{"0101", "x1F", "B1", "", "x", "2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseBit(s, 0, true)
		if err != nil {
			return
		}
		if n := v.BitLen(); n%8 != 0 && v.S[len(v.S)-1]&byte(0xff>>(n%8)) != 0 {
			t.Fatalf("%q: pad bits set", s)
		}
		back, err := ParseBit(FormatText(v), 0, true)
		if err != nil || back != v {
			t.Fatalf("%q -> %s -> %v", s, FormatText(v), err)
		}
	})
}
