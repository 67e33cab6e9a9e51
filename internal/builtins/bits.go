package builtins

import (
	"math"
	"math/bits"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The bit-string functions and operators of PostgreSQL 15 (varbit.c):
// the bitwise operators over bit, concatenation over bit varying, shifts
// keeping the length, and length, position, substring, overlay, get_bit,
// set_bit and bit_count. The values are sqltypes' KindBit (bits.go).

var (
	tBit    = sqltypes.Type{ID: sqltypes.Bit}
	tVarBit = sqltypes.Type{ID: sqltypes.VarBit}
)

// BitAnd, BitOr and BitXor are bitand, bitor and bitxor: bit strings of
// one length combined byte by byte (22026 for different lengths, as
// PostgreSQL words it per operation).
func BitAnd(a, b sqltypes.Value) (sqltypes.Value, error) {
	return bitwise("AND", a, b, func(x, y byte) byte { return x & y })
}

// BitOr is bitor (see BitAnd).
func BitOr(a, b sqltypes.Value) (sqltypes.Value, error) {
	return bitwise("OR", a, b, func(x, y byte) byte { return x | y })
}

// BitXor is bitxor (see BitAnd).
func BitXor(a, b sqltypes.Value) (sqltypes.Value, error) {
	return bitwise("XOR", a, b, func(x, y byte) byte { return x ^ y })
}

func bitwise(name string, a, b sqltypes.Value, f func(x, y byte) byte) (sqltypes.Value, error) {
	if a.BitLen() != b.BitLen() {
		return sqltypes.Null, pgerr.New(pgerr.StringDataLengthMismatch, "cannot %s bit strings of different sizes", name)
	}
	out := make([]byte, len(a.S))
	for i := range out {
		out[i] = f(a.S[i], b.S[i])
	}
	return sqltypes.NewBit(out, a.BitLen()), nil
}

// bitNot is bitnot: every bit flipped, the pad bits cleared again.
func bitNot(a sqltypes.Value) sqltypes.Value {
	out := make([]byte, len(a.S))
	for i := range out {
		out[i] = ^a.S[i]
	}
	return sqltypes.NewBit(out, a.BitLen())
}

// bitShift is bitshiftleft (n > 0) and bitshiftright (n < 0): the bits
// move, zeros come in, the length stays.
func bitShift(a sqltypes.Value, left int64) sqltypes.Value {
	n := a.BitLen()
	out := make([]byte, len(a.S))
	for i := 0; i < n; i++ {
		src := int64(i) + left
		if src >= 0 && src < int64(n) && a.BitAt(int(src)) {
			out[i/8] |= 0x80 >> (i % 8)
		}
	}
	return sqltypes.NewBit(out, n)
}

// bitBuilder appends bits one at a time.
type bitBuilder struct {
	b []byte
	n int
}

func (w *bitBuilder) add(set bool) {
	if w.n%8 == 0 {
		w.b = append(w.b, 0)
	}
	if set {
		w.b[w.n/8] |= 0x80 >> (w.n % 8)
	}
	w.n++
}

// addRange appends bits [from, to) of v (0-based, clipped to v).
func (w *bitBuilder) addRange(v sqltypes.Value, from, to int) {
	from, to = max(from, 0), min(to, v.BitLen())
	if w.n%8 == 0 && from%8 == 0 && from < to {
		// Byte-aligned: copy whole bytes.
		w.b = append(w.b, v.S[from/8:(to+7)/8]...)
		w.n += to - from
		if w.n%8 != 0 {
			w.b[len(w.b)-1] &= byte(0xff << (8 - w.n%8))
		}
		return
	}
	for i := from; i < to; i++ {
		w.add(v.BitAt(i))
	}
}

func (w *bitBuilder) value() sqltypes.Value { return sqltypes.NewBit(w.b, w.n) }

// bitCat is bitcat: a then b.
func bitCat(a, b sqltypes.Value) (sqltypes.Value, error) {
	if a.BitLen()+b.BitLen() > sqltypes.BitMaxLength {
		return sqltypes.Null, pgerr.New(pgerr.ProgramLimitExceeded, "bit string length exceeds the maximum allowed (%d)", sqltypes.BitMaxLength)
	}
	var w bitBuilder
	w.addRange(a, 0, a.BitLen())
	w.addRange(b, 0, b.BitLen())
	return w.value(), nil
}

// bitSubstr is bitsubstr: bits start.. of length n (1-based; n < 0 is no
// limit when noLen), as text's substring counts them.
func bitSubstr(a sqltypes.Value, start, n int64, noLen bool) (sqltypes.Value, error) {
	// 1-based positions; the arguments are int4, so int64 cannot overflow.
	end := int64(a.BitLen()) + 1
	if !noLen {
		if n < 0 {
			return sqltypes.Null, pgerr.New(pgerr.SubstringError, "negative substring length not allowed")
		}
		end = min(start+n, end)
	}
	from := max(start, 1)
	var w bitBuilder
	if from < end {
		w.addRange(a, int(from-1), int(end-1))
	}
	return w.value(), nil
}

// bitOverlay is bitoverlay: a with its bits from start (1-based) for n
// replaced by b.
func bitOverlay(a, b sqltypes.Value, start, n int64) (sqltypes.Value, error) {
	if start <= 0 {
		return sqltypes.Null, pgerr.New(pgerr.SubstringError, "negative substring length not allowed")
	}
	if e := start + n; e > math.MaxInt32 || e < math.MinInt32 {
		return sqltypes.Null, pgerr.New(pgerr.NumericValueOutOfRange, "integer out of range")
	}
	var w bitBuilder
	w.addRange(a, 0, int(start-1))
	w.addRange(b, 0, b.BitLen())
	if rest := start - 1 + n; rest < int64(a.BitLen()) {
		w.addRange(a, int(max(rest, 0)), a.BitLen())
	}
	return w.value(), nil
}

// bitPosition is bitposition: where sub first starts in a (1-based), 0
// when nowhere; an empty sub is at 1.
func bitPosition(a, sub sqltypes.Value) int64 {
	n, m := a.BitLen(), sub.BitLen()
	if m == 0 {
		return 1
	}
	for i := 0; i+m <= n; i++ {
		j := 0
		for j < m && a.BitAt(i+j) == sub.BitAt(j) {
			j++
		}
		if j == m {
			return int64(i + 1)
		}
	}
	return 0
}

// bitIndex checks get_bit's and set_bit's index.
func bitIndex(a sqltypes.Value, n int64) error {
	if n < 0 || n >= int64(a.BitLen()) {
		return pgerr.New(pgerr.ArraySubscriptError, "bit index %d out of valid range (0..%d)", n, a.BitLen()-1)
	}
	return nil
}

func init() {
	bit1 := func(doc string, res sqltypes.Type, f func(a sqltypes.Value) (sqltypes.Value, error)) Overload {
		return Overload{Params: []Param{T(tBit)}, Result: Returns(res), Doc: doc,
			Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) { return f(a[0]) }}
	}
	Register("length", bit1("the number of bits", tInt4, func(a sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewInt(int64(a.BitLen())), nil
	}))
	Register("bit_length", bit1("the number of bits", tInt4, func(a sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewInt(int64(a.BitLen())), nil
	}))
	Register("octet_length", bit1("the number of bytes the bits take", tInt4, func(a sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewInt(int64(len(a.S))), nil
	}))
	Register("bit_count", bit1("the number of bits set", tInt8, func(a sqltypes.Value) (sqltypes.Value, error) {
		n := 0
		for i := 0; i < len(a.S); i++ {
			n += bits.OnesCount8(a.S[i])
		}
		return sqltypes.NewInt(int64(n)), nil
	}))
	Register("position", Overload{Params: []Param{T(tBit), T(tBit)}, Result: Returns(tInt4),
		Doc: "where the second bit string first occurs in the first (1-based; 0 if nowhere)",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewInt(bitPosition(a[0], a[1])), nil
		}})
	Register("substring",
		Overload{Params: []Param{T(tBit), T(tInt4), T(tInt4)}, Result: Returns(tBit),
			Doc: "the bits from a 1-based start, for a length",
			Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				return bitSubstr(a[0], a[1].I, a[2].I, false)
			}},
		Overload{Params: []Param{T(tBit), T(tInt4)}, Result: Returns(tBit),
			Doc: "the bits from a 1-based start to the end",
			Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				return bitSubstr(a[0], a[1].I, 0, true)
			}})
	Register("overlay",
		Overload{Params: []Param{T(tBit), T(tBit), T(tInt4), T(tInt4)}, Result: Returns(tBit),
			Doc: "the first bit string with the bits from a 1-based start, for a length, replaced by the second",
			Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				return bitOverlay(a[0], a[1], a[2].I, a[3].I)
			}},
		Overload{Params: []Param{T(tBit), T(tBit), T(tInt4)}, Result: Returns(tBit),
			Doc: "the first bit string with the bits from a 1-based start replaced by the second",
			Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				return bitOverlay(a[0], a[1], a[2].I, int64(a[1].BitLen()))
			}})
	Register("get_bit", Overload{Params: []Param{T(tBit), T(tInt4)}, Result: Returns(tInt4),
		Doc: "the bit at a 0-based index",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			if err := bitIndex(a[0], a[1].I); err != nil {
				return sqltypes.Null, err
			}
			if a[0].BitAt(int(a[1].I)) {
				return sqltypes.NewInt(1), nil
			}
			return sqltypes.NewInt(0), nil
		}})
	Register("set_bit", Overload{Params: []Param{T(tBit), T(tInt4), T(tInt4)}, Result: Returns(tBit),
		Doc: "the bit string with the bit at a 0-based index set to 0 or 1",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			if err := bitIndex(a[0], a[1].I); err != nil {
				return sqltypes.Null, err
			}
			if a[2].I != 0 && a[2].I != 1 {
				return sqltypes.Null, pgerr.New(pgerr.InvalidParameterValue, "new bit must be 0 or 1")
			}
			out := []byte(a[0].S)
			i := a[1].I
			out[i/8] &^= 0x80 >> (i % 8)
			if a[2].I == 1 {
				out[i/8] |= 0x80 >> (i % 8)
			}
			return sqltypes.NewBit(out, a[0].BitLen()), nil
		}})

	RegisterOperator("&", binop(tBit, tBit, tBit, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) { return BitAnd(a, b) }))
	RegisterOperator("|", binop(tBit, tBit, tBit, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) { return BitOr(a, b) }))
	RegisterOperator("#", binop(tBit, tBit, tBit, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) { return BitXor(a, b) }))
	RegisterOperator("~", prefix(tBit, func(a sqltypes.Value) (sqltypes.Value, error) { return bitNot(a), nil }))
	RegisterOperator("||", binop(tVarBit, tVarBit, tVarBit, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) { return bitCat(a, b) }))
	RegisterOperator("<<", binop(tBit, tInt4, tBit, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
		return bitShift(a, b.I), nil
	}))
	RegisterOperator(">>", binop(tBit, tInt4, tBit, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
		return bitShift(a, -b.I), nil
	}))
	// The integer shifts and complement, which PostgreSQL spells alike.
	for _, t := range []sqltypes.Type{tInt2, tInt4, tInt8} {
		t := t
		width := map[sqltypes.TypeID]uint{sqltypes.Int2: 16, sqltypes.Int4: 32, sqltypes.Int8: 64}[t.ID]
		RegisterOperator("<<", binop(t, tInt4, t, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return intShift(a.I, b.I, width, true), nil
		}))
		RegisterOperator(">>", binop(t, tInt4, t, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return intShift(a.I, b.I, width, false), nil
		}))
		RegisterOperator("~", prefix(t, func(a sqltypes.Value) (sqltypes.Value, error) { return sqltypes.NewInt(^a.I), nil }))
	}
}

// intShift is int2shl, int4shr and the like: C's shift of the type's
// width, the count taken modulo the width as the hardware does, so that
// 1 << 33 is 2 for an integer, as on PostgreSQL's usual platforms.
func intShift(v, n int64, width uint, left bool) sqltypes.Value {
	s := uint(n) % width
	if width == 16 {
		// int2shl computes in int and truncates: the count is modulo 32.
		s = uint(n) % 32
	}
	var r int64
	if left {
		r = v << s
	} else {
		r = v >> s
	}
	switch width {
	case 16:
		r = int64(int16(r))
	case 32:
		r = int64(int32(r))
	}
	return sqltypes.NewInt(r)
}

// BitStringFold returns the step of bit_and, bit_or or bit_xor over bit
// strings (nil for another name).
func BitStringFold(name string) func(a, b sqltypes.Value) (sqltypes.Value, error) {
	return map[string]func(a, b sqltypes.Value) (sqltypes.Value, error){
		"bit_and": BitAnd, "bit_or": BitOr, "bit_xor": BitXor,
	}[name]
}
