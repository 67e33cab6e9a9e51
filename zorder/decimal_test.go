package zorder

import (
	"bytes"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
)

// decimalRat is the exact value of a finite Decimal.
func decimalRat(d Decimal) *big.Rat {
	if d.Class == DecimalZero {
		return new(big.Rat)
	}
	r, _ := new(big.Rat).SetString("0." + string(d.Digits))
	exp := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(abs32(d.Exp)), nil))
	if d.Exp >= 0 {
		r.Mul(r, exp)
	} else {
		r.Quo(r, exp)
	}
	if d.Class == DecimalNeg {
		r.Neg(r)
	}
	return r
}

func abs32(x int32) int64 {
	if x < 0 {
		return -int64(x)
	}
	return int64(x)
}

// compareDecimal is the order the encoding must give: -Inf, numbers,
// +Inf, NaN.
func compareDecimal(a, b Decimal) int {
	rank := func(d Decimal) int {
		switch d.Class {
		case DecimalNegInf:
			return 0
		case DecimalPosInf:
			return 2
		case DecimalNaN:
			return 3
		}
		return 1
	}
	if ra, rb := rank(a), rank(b); ra != rb || ra != 1 {
		return ra - rb
	}
	if abs32(a.Exp) < 1000 && abs32(b.Exp) < 1000 {
		return decimalRat(a).Cmp(decimalRat(b))
	}
	// Huge exponents: compare sign, then magnitude by exponent, then the
	// digit strings as fractions.
	sa, sb := decSign(a), decSign(b)
	if sa != sb {
		return sa - sb
	}
	mag := 0
	switch {
	case a.Exp != b.Exp:
		mag = sign(int(int64(a.Exp) - int64(b.Exp)))
	default:
		mag = strings.Compare(string(a.Digits), string(b.Digits))
	}
	return mag * sa
}

func decSign(d Decimal) int {
	switch d.Class {
	case DecimalNeg:
		return -1
	case DecimalZero:
		return 0
	}
	return 1
}

func randDecimal(r *rand.Rand) Decimal {
	switch r.IntN(12) {
	case 0:
		return Decimal{Class: DecimalNegInf}
	case 1:
		return Decimal{Class: DecimalPosInf}
	case 2:
		return Decimal{Class: DecimalNaN}
	case 3:
		return Decimal{Class: DecimalZero}
	}
	n := 1 + r.IntN(12)
	digits := make([]byte, n)
	for i := range digits {
		digits[i] = byte('0' + r.IntN(10))
	}
	digits[0] = byte('1' + r.IntN(9))
	digits[n-1] = byte('1' + r.IntN(9))
	if n == 1 && r.IntN(3) == 0 {
		digits[0] = '1'
	}
	d := Decimal{Class: DecimalPos, Exp: int32(r.IntN(40) - 20), Digits: digits}
	if r.IntN(6) == 0 {
		d.Exp = []int32{-1 << 31, 1<<31 - 1, 131072, -16383}[r.IntN(4)]
	}
	if r.IntN(2) == 0 {
		d.Class = DecimalNeg
	}
	return d
}

// TestDecimalKeyOrder: byte order of encoded decimals is their numeric
// order, ascending and descending, with equal values encoding equal.
func TestDecimalKeyOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	for i := 0; i < 50000; i++ {
		a, b := randDecimal(r), randDecimal(r)
		if i%5 == 0 {
			b = a // equal values
		}
		want := compareDecimal(a, b)
		for _, desc := range []bool{false, true} {
			ea, eb := AppendDecimal(nil, a, desc), AppendDecimal(nil, b, desc)
			got := bytes.Compare(ea, eb)
			w := want
			if desc {
				w = -w
			}
			if sign(got) != sign(w) {
				t.Fatalf("%+v vs %+v (desc %v): bytes %d, values %d", a, b, desc, got, w)
			}
			back, null, rest, err := DecodeDecimal(append(ea, 0x42), desc)
			if err != nil || null || !bytes.Equal(rest, []byte{0x42}) || compareDecimal(back, a) != 0 {
				t.Fatalf("decode %+v: %+v, %v", a, back, err)
			}
			if skipped, err := SkipColumn(append(ea, 0x42), desc); err != nil || !bytes.Equal(skipped, []byte{0x42}) {
				t.Fatalf("skip %+v: %x, %v", a, skipped, err)
			}
		}
	}
}

func sign(x int) int {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}

// TestInt128KeyOrder: the 128-bit encoding orders like the number.
func TestInt128KeyOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 34))
	val := func(hi int64, lo uint64) *big.Int {
		v := new(big.Int).Lsh(big.NewInt(hi), 64)
		return v.Add(v, new(big.Int).SetUint64(lo))
	}
	for i := 0; i < 20000; i++ {
		h1, h2 := int64(r.IntN(5)-2), int64(r.IntN(5)-2)
		l1, l2 := r.Uint64(), r.Uint64()
		want := val(h1, l1).Cmp(val(h2, l2))
		for _, desc := range []bool{false, true} {
			got := bytes.Compare(AppendInt128(nil, h1, l1, desc), AppendInt128(nil, h2, l2, desc))
			if desc {
				got = -got
			}
			if got != want {
				t.Fatalf("(%d,%d) vs (%d,%d) desc %v: %d, want %d", h1, l1, h2, l2, desc, got, want)
			}
		}
		hi, lo, _, _, err := DecodeInt128(AppendInt128(nil, h1, l1, true), true)
		if err != nil || hi != h1 || lo != l1 {
			t.Fatalf("decode: %d %d %v", hi, lo, err)
		}
	}
}

// FuzzDecimalKey: the decimal decoder never panics on arbitrary bytes, and
// what it accepts is canonical (it re-encodes to the consumed bytes).
func FuzzDecimalKey(f *testing.F) {
	r := rand.New(rand.NewPCG(35, 36))
	for i := 0; i < 20; i++ {
		f.Add(AppendDecimal(nil, randDecimal(r), i%2 == 0), i%2 == 0)
	}
	f.Add([]byte{tagDecimal, byte(DecimalPos), 0x80, 0, 0, 1, 11, 0}, false)
	f.Fuzz(func(t *testing.T, in []byte, desc bool) {
		d, null, rest, err := DecodeDecimal(in, desc)
		if err != nil || null {
			return
		}
		consumed := in[:len(in)-len(rest)]
		if again := AppendDecimal(nil, d, desc); !bytes.Equal(again, consumed) {
			t.Fatalf("decoded %+v from %x, encodes as %x", d, consumed, again)
		}
		if strings.Trim(string(d.Digits), "0123456789") != "" {
			t.Fatalf("digits %q", d.Digits)
		}
	})
}
