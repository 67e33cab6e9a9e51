package sqltypes

import (
	"math"
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/zproxy/zproxy/internal/pgerr"
)

// Numeric values are *apd.Decimal kept in one canonical shape so that the
// decimal's exponent is PostgreSQL's display scale (dscale): a finite value
// always has Exponent == -dscale <= 0 and no negative zero. Arithmetic on
// that shape gives PostgreSQL's result scales for free where they are exact
// (the sum has the larger dscale, the product their sum), and the text form
// is apd's plain 'f' formatting.
//
// Limits follow PostgreSQL: dscale <= 16383 and magnitudes below 10^131072
// (a numeric's int16 weight counts base-10000 digits, so 32768 of them,
// 131072 decimal digits, fit before the point). apd's contexts refuse
// adjusted exponents above apd.MaxExponent (100000), so the exact
// operations (add, sub, mul) work on the coefficients themselves; the
// rounding ones (division, functions) report larger operands or results as
// "value overflows numeric format".

const (
	numericMaxDscale        = 16383  // NUMERIC_DSCALE_MAX
	numericMaxIntegerDigits = 131072 // (NUMERIC_WEIGHT_MAX + 1) * DEC_DIGITS
	numericMinSigDigits     = 16     // NUMERIC_MIN_SIG_DIGITS
	numericMaxDisplayScale  = 1000   // NUMERIC_MAX_DISPLAY_SCALE
	numericMaxResultScale   = 2000   // NUMERIC_MAX_RESULT_SCALE
	numericMaxPrecision     = 1000   // NUMERIC_MAX_PRECISION
)

var (
	decNaN    = &apd.Decimal{Form: apd.NaN}
	decPosInf = &apd.Decimal{Form: apd.Infinite}
	decNegInf = &apd.Decimal{Form: apd.Infinite, Negative: true}
	bigTen    = apd.NewBigInt(10)
)

// exactCtx does the exact operations (add, sub, mul): precision 0 disables
// rounding in apd.
var exactCtx = apd.Context{
	Precision:   0,
	MaxExponent: apd.MaxExponent,
	MinExponent: apd.MinExponent,
	Traps:       apd.DefaultTraps,
	Rounding:    apd.RoundHalfUp,
}

func errNumericOverflow() error {
	return pgerr.New(pgerr.NumericValueOutOfRange, "value overflows numeric format")
}

// NumericNaN, NumericInf and NumericNegInf are the special numeric values.
func NumericNaN() Value    { return NewNumeric(new(apd.Decimal).Set(decNaN)) }
func NumericInf() Value    { return NewNumeric(new(apd.Decimal).Set(decPosInf)) }
func NumericNegInf() Value { return NewNumeric(new(apd.Decimal).Set(decNegInf)) }

// NumericFromInt returns i as a numeric of scale 0.
func NumericFromInt(i int64) Value { return NewNumeric(apd.New(i, 0)) }

// dscale is the display scale of a canonical finite decimal.
func dscale(d *apd.Decimal) int {
	if d.Exponent >= 0 {
		return 0
	}
	return int(-d.Exponent)
}

// numericResult checks a computed decimal against PostgreSQL's limits and
// wraps it as a value.
func numericResult(d *apd.Decimal) (Value, error) {
	d, err := canonical(d)
	if err != nil {
		return Null, err
	}
	return NewNumeric(d), nil
}

// NumericScale returns the display scale of a numeric value (PostgreSQL's
// scale()); ok is false for NaN and infinities.
func NumericScale(v Value) (scale int, ok bool) {
	d := v.Numeric()
	if d == nil || d.Form != apd.Finite {
		return 0, false
	}
	return dscale(d), true
}

// canonical brings a finite decimal to Exponent <= 0, without negative
// zero, and checks PostgreSQL's limits. It modifies d.
func canonical(d *apd.Decimal) (*apd.Decimal, error) {
	if d.Form != apd.Finite {
		if d.Form != apd.Infinite {
			d.Form, d.Negative = apd.NaN, false
		}
		return d, nil
	}
	if d.Exponent > 0 {
		if d.Coeff.Sign() == 0 {
			d.Exponent = 0
		} else {
			if int64(d.Exponent)+d.NumDigits() > numericMaxIntegerDigits {
				return nil, errNumericOverflow()
			}
			var p apd.BigInt
			p.Exp(bigTen, apd.NewBigInt(int64(d.Exponent)), nil)
			d.Coeff.Mul(&d.Coeff, &p)
			d.Exponent = 0
		}
	}
	if d.Coeff.Sign() == 0 {
		d.Negative = false
	} else if d.NumDigits()+int64(d.Exponent) > numericMaxIntegerDigits {
		return nil, errNumericOverflow()
	}
	if -d.Exponent > numericMaxDscale {
		return nil, errNumericOverflow()
	}
	return d, nil
}

// ParseNumeric parses PostgreSQL numeric input: optional blanks and sign,
// digits with an optional point and exponent, or NaN / [+-]Infinity / inf
// in any case.
func ParseNumeric(s string) (Value, error) {
	d, err := parseDecimal(s)
	if err != nil {
		return Null, err
	}
	return NewNumeric(d), nil
}

func isPGSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

func trimPGSpace(s string) string {
	i, j := 0, len(s)
	for i < j && isPGSpace(s[i]) {
		i++
	}
	for j > i && isPGSpace(s[j-1]) {
		j--
	}
	return s[i:j]
}

func parseDecimal(s string) (*apd.Decimal, error) {
	bad := func() error {
		return pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type numeric: %q", s)
	}
	in := trimPGSpace(s)
	switch strings.ToLower(in) {
	case "nan":
		return new(apd.Decimal).Set(decNaN), nil
	case "infinity", "+infinity", "inf", "+inf":
		return new(apd.Decimal).Set(decPosInf), nil
	case "-infinity", "-inf":
		return new(apd.Decimal).Set(decNegInf), nil
	}
	i := 0
	neg := false
	if i < len(in) && (in[i] == '+' || in[i] == '-') {
		neg = in[i] == '-'
		i++
	}
	var digits []byte
	frac := 0
	sawDigit, sawPoint := false, false
	for ; i < len(in); i++ {
		c := in[i]
		switch {
		case c >= '0' && c <= '9':
			sawDigit = true
			if len(digits) > 0 || c != '0' {
				digits = append(digits, c)
			}
			if sawPoint {
				frac++
			}
			continue
		case c == '.' && !sawPoint:
			sawPoint = true
			continue
		}
		break
	}
	if !sawDigit {
		return nil, bad()
	}
	exp := int64(0)
	if i < len(in) && (in[i] == 'e' || in[i] == 'E') {
		i++
		eneg := false
		if i < len(in) && (in[i] == '+' || in[i] == '-') {
			eneg = in[i] == '-'
			i++
		}
		start := i
		for ; i < len(in) && in[i] >= '0' && in[i] <= '9'; i++ {
			if exp < 1<<40 {
				exp = exp*10 + int64(in[i]-'0')
			}
		}
		if i == start {
			return nil, bad()
		}
		if eneg {
			exp = -exp
		}
	}
	if i != len(in) {
		return nil, bad()
	}
	scale := int64(frac) - exp
	if scale < -numericMaxIntegerDigits || scale > numericMaxDscale {
		if len(digits) == 0 && scale < 0 {
			scale = 0 // 0e999999 is zero
		} else {
			return nil, errNumericOverflow()
		}
	}
	d := new(apd.Decimal)
	if len(digits) > 0 {
		if _, ok := d.Coeff.SetString(string(digits), 10); !ok {
			return nil, bad()
		}
	}
	d.Negative = neg
	d.Exponent = int32(-scale)
	if scale < 0 {
		// 1.5e3 has scale 0: the exponent is multiplied out by canonical.
		d.Exponent = int32(-scale)
	}
	return canonical(d)
}

// AppendNumeric appends PostgreSQL's text output of a numeric.
func AppendNumeric(buf []byte, d *apd.Decimal) []byte {
	switch d.Form {
	case apd.NaN, apd.NaNSignaling:
		return append(buf, "NaN"...)
	case apd.Infinite:
		if d.Negative {
			return append(buf, "-Infinity"...)
		}
		return append(buf, "Infinity"...)
	}
	return d.Append(buf, 'f')
}

// numericToFloat rounds d to the nearest float64 (±Inf beyond range).
func numericToFloat(d *apd.Decimal) float64 {
	switch d.Form {
	case apd.NaN, apd.NaNSignaling:
		return math.NaN()
	case apd.Infinite:
		if d.Negative {
			return math.Inf(-1)
		}
		return math.Inf(1)
	}
	if d.Coeff.IsInt64() && d.Exponent == 0 {
		if i := d.Coeff.Int64(); i > -1<<53 && i < 1<<53 {
			f := float64(i)
			if d.Negative {
				f = -f
			}
			return f
		}
	}
	f, _ := strconv.ParseFloat(d.Text('f'), 64)
	return f
}

// NumericToFloat converts a numeric to float8 (bits 64) or float4 (bits
// 32), rounding to nearest; out-of-range values are 22003 as in PostgreSQL.
func NumericToFloat(v Value, bits int) (Value, error) {
	d := v.Numeric()
	f := numericToFloat(d)
	if d.Form == apd.Finite {
		if bits == 32 {
			f32 := float64(float32(f))
			if math.IsInf(f32, 0) || f32 == 0 && !d.IsZero() {
				return Null, pgerr.New(pgerr.NumericValueOutOfRange, "%q is out of range for type real", d.Text('f'))
			}
			return NewFloat(f32), nil
		}
		if math.IsInf(f, 0) || f == 0 && !d.IsZero() {
			return Null, pgerr.New(pgerr.NumericValueOutOfRange, "%q is out of range for type double precision", d.Text('f'))
		}
	} else if bits == 32 {
		f = float64(float32(f))
	}
	return NewFloat(f), nil
}

// FloatToNumeric converts a float8 (bits 64) or float4 (bits 32) to numeric
// as PostgreSQL does: through its text with 15 (float4: 6) significant
// digits, so 0.1::float8::numeric is 0.1. NaN and infinities map to the
// numeric specials.
func FloatToNumeric(f float64, bits int) (Value, error) {
	switch {
	case math.IsNaN(f):
		return NumericNaN(), nil
	case math.IsInf(f, 1):
		return NumericInf(), nil
	case math.IsInf(f, -1):
		return NumericNegInf(), nil
	}
	digits := 15
	if bits == 32 {
		digits = 6
	}
	return ParseNumeric(formatG(f, digits))
}

// formatG is C's printf("%.*g", digits, f): shortest of %e and %f at that
// many significant digits, trailing zeros removed.
func formatG(f float64, digits int) string {
	s := strconv.FormatFloat(f, 'e', digits-1, 64)
	mant, expStr, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expStr)
	if exp < -4 || exp >= digits {
		if strings.Contains(mant, ".") {
			mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
		}
		return mant + "e" + expStr
	}
	out := strconv.FormatFloat(f, 'f', max(digits-1-exp, 0), 64)
	if strings.Contains(out, ".") {
		out = strings.TrimRight(strings.TrimRight(out, "0"), ".")
	}
	return out
}

// NumericToInt converts a numeric to an integer of type t (smallint,
// integer or bigint), rounding half away from zero as PostgreSQL does.
func NumericToInt(v Value, t Type) (Value, error) {
	d := v.Numeric()
	name := "bigint"
	switch t.ID {
	case Int2:
		name = "smallint"
	case Int4:
		name = "integer"
	}
	switch d.Form {
	case apd.NaN, apd.NaNSignaling:
		return Null, pgerr.New(pgerr.FeatureNotSupported, "cannot convert NaN to %s", name)
	case apd.Infinite:
		return Null, pgerr.New(pgerr.FeatureNotSupported, "cannot convert infinity to %s", name)
	}
	r := roundScale(d, 0)
	if !r.Coeff.IsInt64() && !(r.Negative && r.Coeff.Cmp(minInt64Abs) == 0) {
		return Null, pgerr.New(pgerr.NumericValueOutOfRange, "%s out of range", name)
	}
	i, err := r.Int64()
	if err != nil {
		return Null, pgerr.New(pgerr.NumericValueOutOfRange, "%s out of range", name)
	}
	return CheckRange(t, NewInt(i))
}

var minInt64Abs = new(apd.BigInt).Neg(apd.NewBigInt(math.MinInt64))

// roundScale returns d rounded half away from zero to scale digits after
// the point (scale may be negative: to tens, hundreds, ...), in canonical
// form with dscale max(scale, 0). d must be finite.
func roundScale(d *apd.Decimal, scale int) *apd.Decimal { return rescale(d, scale, true) }

// truncScale is roundScale truncating toward zero.
func truncScale(d *apd.Decimal, scale int) *apd.Decimal { return rescale(d, scale, false) }

func pow10(n int64) *apd.BigInt {
	var p apd.BigInt
	return p.Exp(bigTen, apd.NewBigInt(n), nil)
}

func rescale(d *apd.Decimal, scale int, round bool) *apd.Decimal {
	r := new(apd.Decimal).Set(d)
	target := int32(-scale)
	if r.Exponent >= target {
		// Nothing to drop: only widen the scale by multiplying out.
		if shift := r.Exponent - target; shift > 0 && scale >= 0 {
			r.Coeff.Mul(&r.Coeff, pow10(int64(shift)))
			r.Exponent = target
		}
		return r
	}
	// Drop digits: coeff / 10^k, rounding half away from zero if asked.
	p := pow10(int64(target - r.Exponent))
	var q, rem apd.BigInt
	q.QuoRem(&r.Coeff, p, &rem)
	if round {
		rem.Mul(&rem, apd.NewBigInt(2))
		if rem.Cmp(p) >= 0 {
			q.Add(&q, apd.NewBigInt(1))
		}
	}
	r.Coeff.Set(&q)
	r.Exponent = target
	if scale < 0 {
		// Rounded to tens or more: keep the canonical exponent 0.
		r.Coeff.Mul(&r.Coeff, pow10(int64(-scale)))
		r.Exponent = 0
	}
	if r.Coeff.Sign() == 0 {
		r.Negative = false
	}
	return r
}

// ApplyNumericTypmod rounds v to the scale of numeric(p, s) and checks it
// fits the precision, as storing into a numeric(p, s) column does: 22003
// "numeric field overflow" otherwise. Unconstrained numeric passes v
// through.
func ApplyNumericTypmod(v Value, t Type) (Value, error) {
	prec, scale, ok := t.NumericPrecision()
	if !ok {
		return v, nil
	}
	d := v.Numeric()
	switch d.Form {
	case apd.NaN, apd.NaNSignaling:
		return v, nil
	case apd.Infinite:
		return Null, pgerr.New(pgerr.NumericValueOutOfRange, "numeric field overflow").
			WithDetail("A field with precision %d, scale %d cannot hold an infinite value.", prec, scale)
	}
	r := roundScale(d, scale)
	maxDigits := prec - scale
	if !r.IsZero() {
		// Integer digits of |r|: NumDigits + Exponent (Exponent <= 0), or
		// the position of its leading digit when it is a fraction.
		lead := r.NumDigits() + int64(r.Exponent) // digits left of the point
		if lead > int64(maxDigits) {
			e := pgerr.New(pgerr.NumericValueOutOfRange, "numeric field overflow")
			if maxDigits != 0 {
				e.WithDetail("A field with precision %d, scale %d must round to an absolute value less than 10^%d.", prec, scale, maxDigits)
			} else {
				e.WithDetail("A field with precision %d, scale %d must round to an absolute value less than 1.", prec, scale)
			}
			return Null, e
		}
	}
	return NewNumeric(r), nil
}

// compareDecimal orders numerics as PostgreSQL does: -Infinity, numbers,
// +Infinity, NaN (NaN equals NaN).
func compareDecimal(a, b *apd.Decimal) int {
	ra, rb := decRank(a), decRank(b)
	if ra != rb || ra != 2 {
		return cmpInt(ra, rb)
	}
	return a.Cmp(b)
}

// decRank places the specials around the finite numbers (rank 2).
func decRank(d *apd.Decimal) int {
	switch d.Form {
	case apd.NaN, apd.NaNSignaling:
		return 4
	case apd.Infinite:
		if d.Negative {
			return 0
		}
		return 3
	}
	return 2
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// CompareNumeric orders two numeric values (see Compare).
func CompareNumeric(a, b Value) int { return compareDecimal(a.Numeric(), b.Numeric()) }

// compareNumericMixed compares a numeric with an int (exactly), a float
// (as float8, which is how PostgreSQL resolves numeric = float8), or a
// numeric.
func compareNumericMixed(a, b Value) int {
	switch {
	case a.K == KindNumeric && b.K == KindNumeric:
		return compareDecimal(a.Numeric(), b.Numeric())
	case a.K == KindFloat || b.K == KindFloat:
		return compareFloat(a.AsFloat(), b.AsFloat())
	case a.K == KindInt:
		return compareDecimal(apd.New(a.I, 0), b.Numeric())
	case b.K == KindInt:
		return compareDecimal(a.Numeric(), apd.New(b.I, 0))
	}
	return cmpInt(int(a.K), int(b.K))
}

// hashNumeric hashes the value, not the representation: trailing zeros
// are stripped so 1.0 and 1.00 hash alike.
func hashNumeric(h uint64, d *apd.Decimal) uint64 {
	if d.Form != apd.Finite {
		h = hashUint64(h, uint64(decRank(d)))
		return h
	}
	if d.IsZero() {
		return hashUint64(h, 2)
	}
	var r apd.Decimal
	r.Reduce(d)
	if r.Negative {
		h = hashUint64(h, 1)
	}
	h = hashUint64(h, uint64(int64(r.Exponent)))
	return hashString(h, r.Coeff.String())
}

// numericSpecials2 handles NaN and infinities of a ± b.
func numericSpecials2(a, b *apd.Decimal, sub bool) (*apd.Decimal, bool) {
	if a.Form == apd.Finite && b.Form == apd.Finite {
		return nil, false
	}
	if a.Form == apd.NaN || b.Form == apd.NaN {
		return new(apd.Decimal).Set(decNaN), true
	}
	bneg := b.Negative
	if sub {
		bneg = !bneg
	}
	switch {
	case a.Form == apd.Infinite && b.Form == apd.Infinite:
		if a.Negative != bneg {
			return new(apd.Decimal).Set(decNaN), true
		}
		return &apd.Decimal{Form: apd.Infinite, Negative: a.Negative}, true
	case a.Form == apd.Infinite:
		return &apd.Decimal{Form: apd.Infinite, Negative: a.Negative}, true
	default:
		return &apd.Decimal{Form: apd.Infinite, Negative: bneg}, true
	}
}

// AddNumeric returns a + b with the larger of their scales.
func AddNumeric(a, b Value) (Value, error) { return addSub(a, b, false) }

// SubNumeric returns a - b with the larger of their scales.
func SubNumeric(a, b Value) (Value, error) { return addSub(a, b, true) }

func addSub(a, b Value, sub bool) (Value, error) {
	x, y := a.Numeric(), b.Numeric()
	if r, ok := numericSpecials2(x, y, sub); ok {
		return NewNumeric(r), nil
	}
	// On the coefficients, not through exactCtx: apd's contexts overflow
	// past 100000 integer digits, and PostgreSQL's sums reach 131072.
	// Canonical operands' exponents lie in [-16383, 0], so aligning them
	// multiplies by at most 10^16383.
	shift := int64(x.Exponent) - int64(y.Exponent)
	if shift > numericMaxDscale || shift < -numericMaxDscale {
		return Null, errNumericOverflow()
	}
	var cx, cy apd.BigInt
	cx.Set(&x.Coeff)
	if x.Negative {
		cx.Neg(&cx)
	}
	cy.Set(&y.Coeff)
	if y.Negative != sub {
		cy.Neg(&cy)
	}
	r := &apd.Decimal{Exponent: min(x.Exponent, y.Exponent)}
	switch {
	case shift > 0:
		cx.Mul(&cx, pow10(shift))
	case shift < 0:
		cy.Mul(&cy, pow10(-shift))
	}
	r.Coeff.Add(&cx, &cy)
	r.Negative = r.Coeff.Sign() < 0
	r.Coeff.Abs(&r.Coeff)
	return numericResult(r)
}

// MulNumeric returns a * b exactly, with scale the sum of theirs (rounded
// to 16383 digits when larger, as PostgreSQL does).
func MulNumeric(a, b Value) (Value, error) {
	x, y := a.Numeric(), b.Numeric()
	if x.Form != apd.Finite || y.Form != apd.Finite {
		if x.Form == apd.NaN || y.Form == apd.NaN {
			return NumericNaN(), nil
		}
		// Infinity times zero is NaN; otherwise the signs multiply.
		sx, sy := decSign(x), decSign(y)
		if sx == 0 || sy == 0 {
			return NumericNaN(), nil
		}
		return NewNumeric(&apd.Decimal{Form: apd.Infinite, Negative: sx*sy < 0}), nil
	}
	// A product has at least lead(x)+lead(y)-1 integer digits: refuse
	// one past the limit before computing it.
	if x.NumDigits()+int64(x.Exponent)+y.NumDigits()+int64(y.Exponent)-1 > numericMaxIntegerDigits {
		return Null, errNumericOverflow()
	}
	// On the coefficients, as addSub, for products past apd's exponent
	// limit (100000) that PostgreSQL's range holds.
	r := &apd.Decimal{Negative: x.Negative != y.Negative, Exponent: x.Exponent + y.Exponent}
	r.Coeff.Mul(&x.Coeff, &y.Coeff)
	if -r.Exponent > numericMaxDscale {
		r = roundScale(r, numericMaxDscale)
	}
	return numericResult(r)
}

func decSign(d *apd.Decimal) int {
	switch {
	case d.Form == apd.NaN:
		return 0
	case d.Form == apd.Infinite:
		if d.Negative {
			return -1
		}
		return 1
	case d.IsZero():
		return 0
	case d.Negative:
		return -1
	}
	return 1
}

func errDivisionByZero() error { return pgerr.New(pgerr.DivisionByZero, "division by zero") }

// nbaseWeight returns PostgreSQL's internal weight and first digit of a
// nonzero finite decimal: numerics are stored in base-10000 digits aligned
// on the decimal point, and several scale rules look at them.
func nbaseWeight(d *apd.Decimal) (weight int, first int) {
	if d.IsZero() {
		return 0, 0
	}
	// e10 is the decimal exponent of the leading digit.
	e10 := int(d.NumDigits()) + int(d.Exponent) - 1
	weight = floorDivInt(e10, 4)
	// The leading base-10000 digit is the integer part of |d| / 10000^weight.
	var q apd.BigInt
	shift := int(d.Exponent) - 4*weight // |d| / 10^(4w) = coeff * 10^shift
	if shift >= 0 {
		var p apd.BigInt
		p.Exp(bigTen, apd.NewBigInt(int64(shift)), nil)
		q.Mul(&d.Coeff, &p)
	} else {
		var p apd.BigInt
		p.Exp(bigTen, apd.NewBigInt(int64(-shift)), nil)
		q.Quo(&d.Coeff, &p)
	}
	q.Abs(&q)
	return weight, int(q.Int64())
}

func floorDivInt(a, b int) int {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// divScale is PostgreSQL's select_div_scale: enough digits for 16
// significant digits of the quotient, and never less than either input's
// scale.
func divScale(x, y *apd.Decimal) int {
	w1, f1 := nbaseWeight(x)
	w2, f2 := nbaseWeight(y)
	qweight := w1 - w2
	if f1 <= f2 {
		qweight--
	}
	rscale := numericMinSigDigits - qweight*4
	rscale = max(rscale, dscale(x), dscale(y), 0)
	return min(rscale, numericMaxDisplayScale)
}

// scaledQuo divides |x| · 10^rscale by |y| in integers: the quotient
// truncated to rscale digits, the remainder and the divisor.
func scaledQuo(x, y *apd.Decimal, rscale int) (q, rem, den *apd.BigInt) {
	// x/y · 10^rscale = cx · 10^(ex - ey + rscale) / cy
	k := int64(x.Exponent) - int64(y.Exponent) + int64(rscale)
	var num, p apd.BigInt
	den = new(apd.BigInt)
	num.Abs(&x.Coeff)
	den.Abs(&y.Coeff)
	if k >= 0 {
		p.Exp(bigTen, apd.NewBigInt(k), nil)
		num.Mul(&num, &p)
	} else {
		p.Exp(bigTen, apd.NewBigInt(-k), nil)
		den.Mul(den, &p)
	}
	q, rem = new(apd.BigInt), new(apd.BigInt)
	q.QuoRem(&num, den, rem)
	return q, rem, den
}

// quoRound returns x / y rounded half away from zero to rscale digits
// (exact integer arithmetic, so the rounding is always correct).
func quoRound(x, y *apd.Decimal, rscale int) *apd.Decimal {
	q, rem, den := scaledQuo(x, y, rscale)
	rem.Mul(rem, apd.NewBigInt(2))
	if rem.Cmp(den) >= 0 {
		q.Add(q, apd.NewBigInt(1))
	}
	r := &apd.Decimal{Exponent: int32(-rscale), Negative: x.Negative != y.Negative}
	r.Coeff.Set(q)
	if rscale < 0 {
		r, _ = canonical(r)
	}
	if r.Coeff.Sign() == 0 {
		r.Negative = false
	}
	return r
}

// DivNumeric returns a / b with PostgreSQL's result scale (at least 16
// significant digits, at least either input's scale, at most 1000).
func DivNumeric(a, b Value) (Value, error) {
	x, y := a.Numeric(), b.Numeric()
	if x.Form != apd.Finite || y.Form != apd.Finite {
		return divSpecials(x, y)
	}
	if y.IsZero() {
		return Null, errDivisionByZero()
	}
	return numericResult(quoRound(x, y, divScale(x, y)))
}

// DivNumericScale returns a / b rounded to rscale digits; avg() and other
// internal callers that choose their own scale use it.
func DivNumericScale(a, b Value, rscale int) (Value, error) {
	x, y := a.Numeric(), b.Numeric()
	if x.Form != apd.Finite || y.Form != apd.Finite {
		return divSpecials(x, y)
	}
	if y.IsZero() {
		return Null, errDivisionByZero()
	}
	return numericResult(quoRound(x, y, rscale))
}

func divSpecials(x, y *apd.Decimal) (Value, error) {
	if x.Form == apd.NaN || y.Form == apd.NaN {
		return NumericNaN(), nil
	}
	if x.Form == apd.Infinite {
		if y.Form == apd.Infinite {
			return NumericNaN(), nil
		}
		if y.IsZero() {
			return Null, errDivisionByZero()
		}
		return NewNumeric(&apd.Decimal{Form: apd.Infinite, Negative: x.Negative != y.Negative}), nil
	}
	// finite / ±Infinity is zero (of scale 0, as PostgreSQL returns).
	return NumericFromInt(0), nil
}

// ModNumeric returns a % b: the remainder of truncating division, with
// the larger of the scales.
func ModNumeric(a, b Value) (Value, error) {
	x, y := a.Numeric(), b.Numeric()
	if x.Form != apd.Finite || y.Form != apd.Finite {
		switch {
		case x.Form == apd.NaN || y.Form == apd.NaN:
			return NumericNaN(), nil
		case x.Form == apd.Infinite:
			if y.Form == apd.Finite && y.IsZero() {
				return Null, errDivisionByZero()
			}
			return NumericNaN(), nil
		}
		// finite % ±Infinity is the finite operand.
		return a, nil
	}
	if y.IsZero() {
		return Null, errDivisionByZero()
	}
	q := truncQuo(x, y)
	var prod, r apd.Decimal
	if _, err := exactCtx.Mul(&prod, q, y); err != nil {
		return Null, errNumericOverflow()
	}
	if _, err := exactCtx.Sub(&r, x, &prod); err != nil {
		return Null, errNumericOverflow()
	}
	return numericResult(&r)
}

// truncQuo is trunc(x / y) exactly.
func truncQuo(x, y *apd.Decimal) *apd.Decimal {
	q, _, _ := scaledQuo(x, y, 0)
	r := &apd.Decimal{Negative: x.Negative != y.Negative}
	r.Coeff.Set(q)
	if r.Coeff.Sign() == 0 {
		r.Negative = false
	}
	return r
}

// RoundNumeric is round(v, scale): half away from zero, the result's
// scale is max(scale, 0). NaN and infinities pass through.
func RoundNumeric(v Value, scale int) (Value, error) {
	d := v.Numeric()
	if d.Form != apd.Finite {
		return v, nil
	}
	return numericResult(roundScale(d, clampRoundScale(scale)))
}

// TruncNumeric is trunc(v, scale): toward zero, scale max(scale, 0).
func TruncNumeric(v Value, scale int) (Value, error) {
	d := v.Numeric()
	if d.Form != apd.Finite {
		return v, nil
	}
	return numericResult(truncScale(d, clampRoundScale(scale)))
}

// clampRoundScale limits the scale of round and trunc as PostgreSQL 15
// does: to the largest display scale, and to the most digits a numeric
// can have before its point (NUMERIC_WEIGHT_MAX + 1 groups of 4).
func clampRoundScale(scale int) int {
	return max(min(scale, numericMaxDscale), -(32767+1)*4)
}

// CeilNumeric and FloorNumeric round to an integer (scale 0).
func CeilNumeric(v Value) (Value, error)  { return ceilFloor(v, true) }
func FloorNumeric(v Value) (Value, error) { return ceilFloor(v, false) }

func ceilFloor(v Value, ceil bool) (Value, error) {
	d := v.Numeric()
	if d.Form != apd.Finite {
		return v, nil
	}
	t := truncScale(d, 0)
	var diff apd.Decimal
	if _, err := exactCtx.Sub(&diff, d, t); err != nil {
		return Null, errNumericOverflow()
	}
	if !diff.IsZero() && (ceil && !d.Negative || !ceil && d.Negative) {
		one := apd.New(1, 0)
		if d.Negative {
			one.Negative = true
		}
		var r apd.Decimal
		if _, err := exactCtx.Add(&r, t, one); err != nil {
			return Null, errNumericOverflow()
		}
		t = &r
	}
	return numericResult(t)
}

// NegNumeric returns -v.
func NegNumeric(v Value) Value {
	d := v.Numeric()
	r := new(apd.Decimal).Set(d)
	if d.Form != apd.NaN {
		r.Negative = !r.Negative
	}
	return NewNumeric(r)
}

// AbsNumeric returns |v|.
func AbsNumeric(v Value) Value {
	r := new(apd.Decimal).Set(v.Numeric())
	r.Negative = false
	return NewNumeric(r)
}

// SignNumeric returns -1, 0 or 1 (numeric of scale 0), NaN for NaN.
func SignNumeric(v Value) Value {
	d := v.Numeric()
	if d.Form == apd.NaN {
		return v
	}
	return NumericFromInt(int64(decSign(d)))
}

// SqrtNumeric returns the square root, correctly rounded, with PostgreSQL's
// scale: about 16 significant digits and at least the input's scale.
func SqrtNumeric(v Value) (Value, error) {
	d := v.Numeric()
	if d.Form != apd.Finite {
		if d.Form == apd.Infinite && d.Negative {
			return Null, pgerr.New(pgerr.InvalidArgumentForPowerFunction, "cannot take square root of a negative number")
		}
		return v, nil
	}
	if d.Negative && !d.IsZero() {
		return Null, pgerr.New(pgerr.InvalidArgumentForPowerFunction, "cannot take square root of a negative number")
	}
	w, _ := nbaseWeight(d)
	sweight := (w+1)*4/2 - 1
	rscale := numericMinSigDigits - sweight
	rscale = min(max(rscale, dscale(d), 0), numericMaxDisplayScale)
	return numericResult(sqrtRound(d, rscale))
}

// sqrtRound returns sqrt(d) rounded half up to rscale digits: the integer
// square root of d scaled by 10^2k, k > rscale, is the truncated root, and
// rounding a truncated value with spare digits is exact.
func sqrtRound(d *apd.Decimal, rscale int) *apd.Decimal {
	k := rscale + 1
	if e := int(d.Exponent); e+2*k < 0 {
		k = (-e + 1) / 2
		if k <= rscale {
			k = rscale + 1
		}
	}
	var n, p apd.BigInt
	p.Exp(bigTen, apd.NewBigInt(int64(int(d.Exponent)+2*k)), nil)
	n.Mul(&d.Coeff, &p)
	n.Sqrt(&n)
	r := &apd.Decimal{Exponent: int32(-k)}
	r.Coeff.Set(&n)
	return roundScale(r, rscale)
}

// ExpNumeric returns e^v with PostgreSQL's scale.
func ExpNumeric(v Value) (Value, error) {
	d := v.Numeric()
	if d.Form != apd.Finite {
		switch {
		case d.Form == apd.NaN:
			return v, nil
		case d.Negative:
			return NumericFromInt(0), nil
		}
		return v, nil
	}
	val := numericToFloat(d)
	if math.Abs(val) >= numericMaxResultScale*3 {
		if val > 0 {
			return Null, errNumericOverflow()
		}
	}
	w := val * 0.434294481903252
	w = max(min(w, numericMaxResultScale), -numericMaxResultScale)
	rscale := numericMinSigDigits - int(w)
	rscale = min(max(rscale, dscale(d), 0), numericMaxDisplayScale)
	if math.Abs(val) >= numericMaxResultScale*3 {
		return NewNumeric(&apd.Decimal{Exponent: int32(-rscale)}), nil
	}
	return apdFunc(d, rscale, int(w), func(c *apd.Context, r, x *apd.Decimal) (apd.Condition, error) { return c.Exp(r, x) })
}

// apdFunc evaluates an apd function with enough working precision for the
// result's integer digits (about weight) plus rscale, then rounds.
func apdFunc(d *apd.Decimal, rscale, weight int, f func(*apd.Context, *apd.Decimal, *apd.Decimal) (apd.Condition, error)) (Value, error) {
	prec := max(weight+1, 1) + rscale + 10
	c := exactCtx.WithPrecision(uint32(prec))
	c.Traps = apd.DefaultTraps &^ apd.Inexact &^ apd.Rounded &^ apd.Underflow &^ apd.Subnormal
	r := new(apd.Decimal)
	if _, err := f(c, r, d); err != nil {
		return Null, errNumericOverflow()
	}
	if r.Form != apd.Finite {
		return Null, errNumericOverflow()
	}
	return numericResult(roundScale(r, rscale))
}

// lnDweight is PostgreSQL's estimate_ln_dweight: the decimal weight of
// ln(d), which fixes the scale of ln, log and power.
func lnDweight(d *apd.Decimal) int {
	if d.Negative || d.IsZero() {
		return 0
	}
	var x apd.Decimal
	lo, hi := apd.New(9, -1), apd.New(11, -1)
	if d.Cmp(lo) >= 0 && d.Cmp(hi) <= 0 {
		_, _ = exactCtx.Sub(&x, d, apd.New(1, 0))
		if x.IsZero() {
			return 0
		}
		// Weight of the most significant decimal digit of x = d - 1.
		return int(x.NumDigits()) + int(x.Exponent) - 1
	}
	// d ~= digits * 10^dweight, with digits its first two base-10000
	// digits, as PostgreSQL estimates.
	w, first := nbaseWeight(d)
	digits := float64(first)
	dweight := w * 4
	// The second base-10000 digit, if d has one.
	e10 := int(d.NumDigits()) + int(d.Exponent) - 1
	lastDigitPos := int(d.Exponent) // decimal exponent of the last digit
	if lastDigitPos < 4*w {
		var q, p apd.BigInt
		shift := int(d.Exponent) - 4*(w-1)
		if shift >= 0 {
			p.Exp(bigTen, apd.NewBigInt(int64(shift)), nil)
			q.Mul(&d.Coeff, &p)
		} else {
			p.Exp(bigTen, apd.NewBigInt(int64(-shift)), nil)
			q.Quo(&d.Coeff, &p)
		}
		var m apd.BigInt
		m.Rem(&q, apd.NewBigInt(10000))
		digits = digits*10000 + float64(m.Int64())
		dweight -= 4
	}
	_ = e10
	lnVar := math.Log(digits) + float64(dweight)*2.302585092994046
	return int(math.Log10(math.Abs(lnVar)))
}

// LnNumeric returns the natural logarithm with PostgreSQL's scale.
func LnNumeric(v Value) (Value, error) {
	d := v.Numeric()
	if d.Form != apd.Finite {
		if d.Form == apd.Infinite && d.Negative {
			return Null, pgerr.New(pgerr.InvalidArgumentForLog, "cannot take logarithm of a negative number")
		}
		return v, nil
	}
	if d.IsZero() {
		return Null, pgerr.New(pgerr.InvalidArgumentForLog, "cannot take logarithm of zero")
	}
	if d.Negative {
		return Null, pgerr.New(pgerr.InvalidArgumentForLog, "cannot take logarithm of a negative number")
	}
	lw := lnDweight(d)
	rscale := numericMinSigDigits - lw
	rscale = min(max(rscale, dscale(d), 0), numericMaxDisplayScale)
	return apdFunc(d, rscale, lw, func(c *apd.Context, r, x *apd.Decimal) (apd.Condition, error) { return c.Ln(r, x) })
}

// LogNumeric returns the logarithm of num in base base (log(b, x)).
func LogNumeric(base, num Value) (Value, error) {
	b, x := base.Numeric(), num.Numeric()
	if b.Form != apd.Finite || x.Form != apd.Finite {
		if b.Form == apd.NaN || x.Form == apd.NaN {
			return NumericNaN(), nil
		}
		if decSign(b) < 0 || decSign(x) < 0 {
			return Null, pgerr.New(pgerr.InvalidArgumentForLog, "cannot take logarithm of a negative number")
		}
		if decSign(b) == 0 || decSign(x) == 0 {
			return Null, pgerr.New(pgerr.InvalidArgumentForLog, "cannot take logarithm of zero")
		}
		if b.Form == apd.Infinite {
			if x.Form == apd.Infinite {
				return NumericNaN(), nil
			}
			return NumericFromInt(0), nil
		}
		return NumericInf(), nil
	}
	for _, d := range []*apd.Decimal{b, x} {
		if d.IsZero() {
			return Null, pgerr.New(pgerr.InvalidArgumentForLog, "cannot take logarithm of zero")
		}
		if d.Negative {
			return Null, pgerr.New(pgerr.InvalidArgumentForLog, "cannot take logarithm of a negative number")
		}
	}
	rw := lnDweight(x) - lnDweight(b)
	rscale := numericMinSigDigits - rw
	rscale = min(max(rscale, dscale(b), dscale(x), 0), numericMaxDisplayScale)
	prec := uint32(max(rw+1, 1) + rscale + 10)
	c := exactCtx.WithPrecision(prec + 10)
	c.Traps = 0
	var lb, lx, r apd.Decimal
	if _, err := c.Ln(&lb, b); err != nil {
		return Null, errNumericOverflow()
	}
	if _, err := c.Ln(&lx, x); err != nil {
		return Null, errNumericOverflow()
	}
	if lb.IsZero() {
		return Null, errDivisionByZero()
	}
	if _, err := c.Quo(&r, &lx, &lb); err != nil || r.Form != apd.Finite {
		return Null, errNumericOverflow()
	}
	return numericResult(roundScale(&r, rscale))
}

// PowerNumeric returns base ^ exp with PostgreSQL's rules: integer
// exponents give max(16, scale of base) digits, others about 16 significant
// digits; 0 ^ negative and negative ^ fraction are 2201F errors.
func PowerNumeric(base, exp Value) (Value, error) {
	x, y := base.Numeric(), exp.Numeric()
	if x.Form != apd.Finite || y.Form != apd.Finite {
		return powerSpecials(x, y)
	}
	if x.IsZero() && y.Negative && !y.IsZero() {
		return Null, pgerr.New(pgerr.InvalidArgumentForPowerFunction, "zero raised to a negative power is undefined")
	}
	// Integral exponent that fits int32: power_var_int.
	if isIntegral(y) {
		if n, err := truncScale(y, 0).Int64(); err == nil && n >= math.MinInt32 && n <= math.MaxInt32 {
			rscale := min(max(numericMinSigDigits, dscale(x), 0), numericMaxDisplayScale)
			return powerInt(x, n, rscale)
		}
	}
	if x.IsZero() {
		return NewNumeric(&apd.Decimal{Exponent: -numericMinSigDigits}), nil
	}
	neg := false
	ax := x
	if x.Negative {
		if !isIntegral(y) {
			return Null, pgerr.New(pgerr.InvalidArgumentForPowerFunction, "a negative number raised to a non-integer power yields a complex result")
		}
		neg = isOdd(y)
		ax = new(apd.Decimal).Abs(x)
	}
	// Estimate the result's decimal weight from a low-precision
	// exp * ln(base), as PostgreSQL does, to pick the scale.
	lc := exactCtx.WithPrecision(20)
	lc.Traps = 0
	var l, ln apd.Decimal
	lc.Ln(&l, ax)
	lc.Mul(&ln, &l, y)
	val := numericToFloat(&ln)
	if math.Abs(val) > numericMaxResultScale*3.01 {
		if val > 0 {
			return Null, errNumericOverflow()
		}
		return NewNumeric(&apd.Decimal{Exponent: -numericMaxDisplayScale}), nil
	}
	val *= 0.434294481903252
	rscale := numericMinSigDigits - int(val)
	rscale = min(max(rscale, dscale(x), dscale(y), 0), numericMaxDisplayScale)
	prec := uint32(max(int(val)+1, 1) + rscale + 12)
	c := exactCtx.WithPrecision(prec)
	c.Traps = 0
	var r apd.Decimal
	if _, err := c.Ln(&l, ax); err != nil {
		return Null, errNumericOverflow()
	}
	c.Mul(&ln, &l, y)
	if _, err := c.Exp(&r, &ln); err != nil || r.Form != apd.Finite {
		return Null, errNumericOverflow()
	}
	r.Negative = neg && !r.IsZero()
	return numericResult(roundScale(&r, rscale))
}

func isIntegral(d *apd.Decimal) bool {
	if d.Form != apd.Finite {
		return false
	}
	var t apd.Decimal
	t.Reduce(d)
	return t.Exponent >= 0
}

func isOdd(d *apd.Decimal) bool {
	t := truncScale(d, 0)
	var m apd.BigInt
	m.Rem(&t.Coeff, apd.NewBigInt(2))
	return m.Sign() != 0
}

func powerInt(x *apd.Decimal, n int64, rscale int) (Value, error) {
	switch n {
	case 0:
		return NewNumeric(roundScale(apd.New(1, 0), rscale)), nil
	case 1:
		return numericResult(roundScale(x, rscale))
	}
	if x.IsZero() {
		if n < 0 {
			return Null, errDivisionByZero()
		}
		return NewNumeric(&apd.Decimal{Exponent: int32(-rscale)}), nil
	}
	// log10 of the result, to size the working precision and catch
	// overflow early.
	e10 := float64(x.NumDigits()+int64(x.Exponent)-1) + math.Log10(leadingFraction(x))
	f := float64(n) * e10
	if f > 3*32767*4 {
		return Null, errNumericOverflow()
	}
	if f+1 < -float64(rscale) || f+1 < -numericMaxDisplayScale {
		return NewNumeric(&apd.Decimal{Exponent: int32(-rscale)}), nil
	}
	sig := 1 + rscale + int(f) + int(math.Log(math.Abs(float64(n)))) + 10
	c := exactCtx.WithPrecision(uint32(max(sig, 20)))
	c.Traps = 0
	var r apd.Decimal
	if _, err := c.Pow(&r, x, apd.New(n, 0)); err != nil || r.Form != apd.Finite {
		return Null, errNumericOverflow()
	}
	return numericResult(roundScale(&r, rscale))
}

// leadingFraction is |x| / 10^(its decimal exponent), in [1, 10).
func leadingFraction(x *apd.Decimal) float64 {
	s := x.Coeff.String()
	if len(s) > 17 {
		s = s[:17]
	}
	f, _ := strconv.ParseFloat(s, 64)
	for f >= 10 {
		f /= 10
	}
	if f < 0 {
		f = -f
	}
	return f
}

func powerSpecials(x, y *apd.Decimal) (Value, error) {
	one := apd.New(1, 0)
	if x.Form == apd.NaN {
		if y.Form == apd.Finite && y.IsZero() {
			return NumericFromInt(1), nil
		}
		return NumericNaN(), nil
	}
	if y.Form == apd.NaN {
		if x.Form == apd.Finite && x.Cmp(one) == 0 {
			return NumericFromInt(1), nil
		}
		return NumericNaN(), nil
	}
	s1, s2 := decSign(x), decSign(y)
	if s1 == 0 && s2 < 0 {
		return Null, pgerr.New(pgerr.InvalidArgumentForPowerFunction, "zero raised to a negative power is undefined")
	}
	if s1 < 0 && y.Form == apd.Finite && !isIntegral(y) {
		return Null, pgerr.New(pgerr.InvalidArgumentForPowerFunction, "a negative number raised to a non-integer power yields a complex result")
	}
	if x.Form == apd.Finite && x.Cmp(one) == 0 {
		return NumericFromInt(1), nil
	}
	if s2 == 0 {
		return NumericFromInt(1), nil
	}
	if s1 == 0 && s2 > 0 {
		return NumericFromInt(0), nil
	}
	if y.Form == apd.Infinite {
		absGtOne := true
		if x.Form == apd.Finite {
			if x.Cmp(apd.New(-1, 0)) == 0 {
				return NumericFromInt(1), nil
			}
			absGtOne = new(apd.Decimal).Abs(x).Cmp(one) > 0
		}
		if absGtOne == (s2 > 0) {
			return NumericInf(), nil
		}
		return NumericFromInt(0), nil
	}
	if x.Form == apd.Infinite && !x.Negative {
		if s2 > 0 {
			return NumericInf(), nil
		}
		return NumericFromInt(0), nil
	}
	// x is -Infinity, y finite and nonzero.
	if s2 < 0 {
		return NumericFromInt(0), nil
	}
	if isIntegral(y) && isOdd(y) {
		return NumericNegInf(), nil
	}
	return NumericInf(), nil
}

// SumIntsToNumeric adds an integer to a numeric running sum; sum(bigint)
// and avg of integers accumulate in numeric as PostgreSQL does.
func SumIntsToNumeric(sum Value, i int64) (Value, error) {
	if sum.IsNull() {
		return NumericFromInt(i), nil
	}
	return AddNumeric(sum, NumericFromInt(i))
}

// AvgNumeric is sum / count with numeric division's scale (avg of
// integers and of numerics).
func AvgNumeric(sum Value, count int64) (Value, error) {
	if count == 0 {
		return Null, nil
	}
	return DivNumeric(sum, NumericFromInt(count))
}

// NumericDigits is finite nonzero d as PostgreSQL's numeric stores it:
// base-10000 digits aligned on the decimal point, without leading or
// trailing zero digits, and the weight (the power of 10000) of the first.
func NumericDigits(d *apd.Decimal) (groups []uint16, weight int) {
	digits := d.Coeff.String() // coefficient; the value is digits × 10^Exponent
	frac := int(-d.Exponent)
	// Pad to whole base-10000 groups on both sides of the point.
	intLen := len(digits) - frac
	rpad := (4 - frac%4) % 4
	var s []byte
	if intLen > 0 {
		lpad := (4 - intLen%4) % 4
		s = make([]byte, 0, lpad+len(digits)+rpad)
		for i := 0; i < lpad; i++ {
			s = append(s, '0')
		}
		s = append(s, digits...)
		weight = (intLen+lpad)/4 - 1
	} else {
		// Only fraction digits: prepend the zeros between the point and
		// the first digit, then group.
		zeros := -intLen
		s = make([]byte, 0, zeros+len(digits)+rpad)
		for i := 0; i < zeros; i++ {
			s = append(s, '0')
		}
		s = append(s, digits...)
		weight = -1
	}
	for i := 0; i < rpad; i++ {
		s = append(s, '0')
	}
	groups = make([]uint16, 0, len(s)/4)
	for i := 0; i < len(s); i += 4 {
		groups = append(groups, uint16(s[i]-'0')*1000+uint16(s[i+1]-'0')*100+uint16(s[i+2]-'0')*10+uint16(s[i+3]-'0'))
	}
	for len(groups) > 0 && groups[0] == 0 {
		groups = groups[1:]
		weight--
	}
	for len(groups) > 0 && groups[len(groups)-1] == 0 {
		groups = groups[:len(groups)-1]
	}
	return groups, weight
}
