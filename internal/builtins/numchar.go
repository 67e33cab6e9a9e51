package builtins

import (
	"math"
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// to_char for numbers: PostgreSQL's number templates (9, 0, ., D, ',', G,
// S, MI, PL, SG, PR, FM, V, EEEE, RN, TH) in the C locale. The number is
// first rendered as digits (rounded to the template's decimal places),
// then laid into the template: digit positions before the point pad with
// blanks (9) or zeros (0), the sign goes where the template or the
// leftmost digit puts it, and a number too wide fills its positions with #.

// Template flags (PostgreSQL's NUM_F_*).
const (
	numDecimal = 1 << iota
	numZero
	numBlank
	numFill
	numLSign
	numBracket
	numMinus
	numPlus
	numRoman
	numMulti
	numEEEE
)

// numDesc describes a number template.
type numDesc struct {
	pre, post, multi   int
	zeroStart, zeroEnd int
	lsign              int // -1: S before the digits, 1: after, 0: none
	preLsignNum        int
	flags              int
}

func (d *numDesc) is(f int) bool { return d.flags&f != 0 }

func numSyntaxError(msg string) error { return pgerr.New(pgerr.SyntaxError, "%s", msg) }

// describe reads a parsed number template, with PostgreSQL's checks.
func describeNumber(nodes []fmtNode) (numDesc, error) {
	var d numDesc
	for _, n := range nodes {
		if n.kw == nil {
			continue
		}
		id := n.kw.id
		if d.is(numEEEE) && id != "EEEE" {
			return d, numSyntaxError(`"EEEE" must be the last pattern used`)
		}
		switch id {
		case "9", "0":
			if d.is(numBracket) {
				return d, numSyntaxError(`"` + id + `" must be ahead of "PR"`)
			}
			if id == "0" && !d.is(numZero) && !d.is(numDecimal) {
				d.flags |= numZero
				d.zeroStart = d.pre + 1
			}
			switch {
			case id == "9" && d.is(numMulti):
				d.multi++
			case d.is(numDecimal):
				d.post++
			default:
				d.pre++
			}
			if id == "0" {
				d.zeroEnd = d.pre + d.post
			}
		case "B":
			if d.pre == 0 && d.post == 0 && !d.is(numZero) {
				d.flags |= numBlank
			}
		case "D", ".":
			if d.is(numDecimal) {
				return d, numSyntaxError("multiple decimal points")
			}
			if d.is(numMulti) {
				return d, numSyntaxError(`cannot use "V" and decimal point together`)
			}
			d.flags |= numDecimal
		case "FM":
			d.flags |= numFill
		case "S":
			if d.is(numLSign) {
				return d, numSyntaxError(`cannot use "S" twice`)
			}
			if d.is(numPlus) || d.is(numMinus) || d.is(numBracket) {
				return d, numSyntaxError(`cannot use "S" and "PL"/"MI"/"SG"/"PR" together`)
			}
			if !d.is(numDecimal) {
				d.lsign, d.preLsignNum = -1, d.pre
			} else if d.lsign == 0 {
				d.lsign = 1
			}
			d.flags |= numLSign
		case "MI", "PL", "SG":
			if d.is(numLSign) {
				return d, numSyntaxError(`cannot use "S" and "` + id + `" together`)
			}
			switch id {
			case "MI":
				d.flags |= numMinus
			case "PL":
				d.flags |= numPlus
			default:
				d.flags |= numMinus | numPlus
			}
		case "PR":
			if d.is(numLSign) || d.is(numPlus) || d.is(numMinus) {
				return d, numSyntaxError(`cannot use "PR" and "S"/"PL"/"MI"/"SG" together`)
			}
			d.flags |= numBracket
		case "RN", "rn":
			d.flags |= numRoman
		case "V":
			if d.is(numDecimal) {
				return d, numSyntaxError(`cannot use "V" and decimal point together`)
			}
			d.flags |= numMulti
		case "EEEE":
			if d.is(numEEEE) {
				return d, numSyntaxError(`cannot use "EEEE" twice`)
			}
			if d.is(numBlank | numFill | numLSign | numBracket | numMinus | numPlus | numRoman | numMulti) {
				return d, pgerr.New(pgerr.SyntaxError, `"EEEE" is incompatible with other formats`).
					WithDetail(`"EEEE" may only be used together with digit and decimal point patterns.`)
			}
			d.flags |= numEEEE
		}
	}
	return d, nil
}

// numOut lays number (digits with an optional point, no sign) into the
// template; sign is '+' or '-' (0 for roman numerals), outPreSpaces the
// digit positions before the number's first digit.
type numOut struct {
	d            numDesc
	number       string
	np           int // next character of number
	sign         byte
	signWrote    bool
	numIn        bool
	numCurr      int
	numCount     int
	outPreSpaces int
	lastRelevant int // index in number of the last significant decimal, -1 if none
	b            strings.Builder
}

func layoutNumber(nodes []fmtNode, d numDesc, number string, outPreSpaces int, sign byte) string {
	o := &numOut{d: d, number: number, sign: sign, outPreSpaces: outPreSpaces, lastRelevant: -1}
	if o.d.zeroStart > 0 {
		o.d.zeroStart--
	}
	if d.is(numEEEE) {
		return number
	}
	if d.is(numRoman) {
		o.d = numDesc{flags: numRoman | d.flags&numFill}
		o.outPreSpaces, o.sign = 0, 0
	}
	if o.d.is(numPlus) || o.d.is(numMinus) {
		o.signWrote = !(o.d.is(numPlus) && !o.d.is(numMinus))
	} else {
		if o.sign != '-' && o.d.is(numFill) {
			o.d.flags &^= numBracket
		}
		o.signWrote = o.sign == '+' && o.d.is(numFill) && !o.d.is(numLSign)
		if o.d.lsign == -1 && o.d.pre == o.d.preLsignNum {
			o.d.lsign = 1
		}
	}
	o.numCount = o.d.post + o.d.pre - 1
	if o.d.is(numFill) && o.d.is(numDecimal) {
		if p := strings.IndexByte(number, '.'); p >= 0 {
			o.lastRelevant = p
			for i := p + 1; i < len(number); i++ {
				if number[i] != '0' {
					o.lastRelevant = i
				}
			}
			// Keep the digits that 0 patterns ask for.
			if o.d.zeroEnd > o.outPreSpaces {
				lastZero := min(len(number)-1, o.d.zeroEnd-o.outPreSpaces)
				o.lastRelevant = max(o.lastRelevant, lastZero)
			}
		}
	}
	if !o.signWrote && o.outPreSpaces == 0 {
		o.numCount++
	}
	for _, n := range nodes {
		if n.kw == nil {
			o.b.WriteString(n.lit)
			continue
		}
		switch n.kw.id {
		case "9", "0", ".", "D":
			o.digit(n.kw.id)
		case ",", "G":
			switch {
			case o.numIn:
				o.b.WriteByte(',')
			case !o.d.is(numFill):
				o.b.WriteByte(' ')
			}
		case "L":
			o.b.WriteByte(' ') // the C locale has no currency symbol
		case "RN", "rn":
			s := o.number
			if n.kw.id == "rn" {
				s = strings.ToLower(s)
			}
			if !o.d.is(numFill) && len(s) < 15 {
				s = strings.Repeat(" ", 15-len(s)) + s
			}
			o.b.WriteString(s)
		case "TH", "th":
			if o.d.is(numRoman) || strings.HasPrefix(o.number, "#") || o.sign == '-' || o.d.is(numDecimal) {
				continue
			}
			o.b.WriteString(ordinal(o.number, n.kw.id == "TH"))
		case "MI", "PL":
			// The sign the pattern shows, a blank for the other one.
			switch want := map[string]byte{"MI": '-', "PL": '+'}[n.kw.id]; {
			case o.sign == want:
				o.b.WriteByte(want)
			case !o.d.is(numFill):
				o.b.WriteByte(' ')
			}
		case "SG":
			o.b.WriteByte(o.sign)
		}
	}
	out := o.b.String()
	// PostgreSQL writes the number's terminating NUL when a template has
	// more digit positions than the number digits, cutting the text there.
	if i := strings.IndexByte(out, 0); i >= 0 {
		out = out[:i]
	}
	return out
}

// predecSpace is PostgreSQL's IS_PREDEC_SPACE: at the number's leading
// "0" of "0.5" under a 9 pattern with decimals, which prints as a blank.
func (o *numOut) predecSpace() bool {
	return !o.d.is(numZero) && o.np == 0 && strings.HasPrefix(o.number, "0") && o.d.post != 0
}

func (o *numOut) lastIsPoint() bool {
	return o.lastRelevant >= 0 && o.number[o.lastRelevant] == '.'
}

func (o *numOut) writeSign(neg, pos string) {
	if o.sign == '-' {
		o.b.WriteString(neg)
	} else {
		o.b.WriteString(pos)
	}
}

// digit handles one digit or decimal-point position of the template.
func (o *numOut) digit(id string) {
	if o.d.is(numRoman) {
		return
	}
	o.numIn = false
	if !o.signWrote && (o.numCurr >= o.outPreSpaces || o.d.is(numZero) && o.d.zeroStart == o.numCurr) &&
		(!o.predecSpace() || o.lastIsPoint()) {
		switch {
		case o.d.is(numLSign):
			if o.d.lsign == -1 {
				o.writeSign("-", "+")
				o.signWrote = true
			}
		case o.d.is(numBracket):
			o.writeSign("<", " ")
			o.signWrote = true
		case o.sign == '+':
			if !o.d.is(numFill) {
				o.b.WriteByte(' ')
			}
			o.signWrote = true
		case o.sign == '-':
			o.b.WriteByte('-')
			o.signWrote = true
		}
	}
	cur := byte(0)
	if o.np < len(o.number) {
		cur = o.number[o.np]
	}
	switch {
	case o.numCurr < o.outPreSpaces && (o.d.zeroStart > o.numCurr || !o.d.is(numZero)):
		if !o.d.is(numFill) {
			o.b.WriteByte(' ')
		}
	case o.d.is(numZero) && o.numCurr < o.outPreSpaces && o.d.zeroStart <= o.numCurr:
		o.b.WriteByte('0')
		o.numIn = true
	default:
		switch {
		case cur == '.':
			if !o.lastIsPoint() || o.d.is(numFill) {
				o.b.WriteByte('.')
			}
		case o.lastRelevant >= 0 && o.np > o.lastRelevant && id != "0":
		case o.predecSpace():
			if !o.d.is(numFill) {
				o.b.WriteByte(' ')
			} else if o.lastIsPoint() {
				o.b.WriteByte('0')
			}
		default:
			o.b.WriteByte(cur)
			o.numIn = true
		}
		if o.np < len(o.number) {
			o.np++
		}
	}
	end := o.numCount
	if o.outPreSpaces > 0 {
		end++
	}
	if o.d.is(numDecimal) {
		end++
	}
	if o.lastRelevant >= 0 && o.lastRelevant == o.np {
		end = o.numCurr
	}
	if o.numCurr+1 == end {
		switch {
		case o.signWrote && o.d.is(numBracket):
			o.writeSign(">", " ")
		case o.d.is(numLSign) && o.d.lsign == 1:
			o.writeSign("-", "+")
		}
	}
	o.numCurr++
}

// toRoman is PostgreSQL's int_to_roman: 1 to 3999, else fifteen #.
func toRoman(n int64) string {
	if n < 1 || n > 3999 {
		return strings.Repeat("#", 15)
	}
	digits := [][]string{
		{"", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"},
		{"", "X", "XX", "XXX", "XL", "L", "LX", "LXX", "LXXX", "XC"},
		{"", "C", "CC", "CCC", "CD", "D", "DC", "DCC", "DCCC", "CM"},
	}
	s := strings.Repeat("M", int(n/1000))
	for p, div := 2, int64(100); p >= 0; p, div = p-1, div/10 {
		s += digits[p][n/div%10]
	}
	return s
}

// fitDigits splits a rendered number (digits, optional point, optional
// leading '-') into its sign and digits, and fits it to the template: the
// blank positions before it, or # everywhere when it is too wide.
func fitDigits(d numDesc, rendered string) (number string, outPreSpaces int, sign byte) {
	sign = '+'
	if strings.HasPrefix(rendered, "-") {
		sign, rendered = '-', rendered[1:]
	}
	preLen := len(rendered)
	if p := strings.IndexByte(rendered, '.'); p >= 0 {
		preLen = p
	}
	switch {
	case preLen < d.pre:
		outPreSpaces = d.pre - preLen
	case preLen > d.pre:
		rendered = strings.Repeat("#", d.pre) + "." + strings.Repeat("#", d.post)
	}
	return rendered, outPreSpaces, sign
}

// overflowEEEE is what an EEEE template shows for NaN and infinities.
func overflowEEEE(d numDesc) string {
	b := []byte(strings.Repeat("#", d.pre+d.post+6))
	b[0] = ' '
	b[d.pre+1] = '.'
	return string(b)
}

// numericSci is PostgreSQL's numeric_out_sci: d.ddd...e±XX with post
// decimals, the significand rounded half away from zero (and not
// renormalised when rounding reaches 10).
func numericSci(v sqltypes.Value, post int) string {
	d := v.Numeric()
	if d.Form != apd.Finite {
		return sqltypes.FormatText(v)
	}
	exp := 0
	if !d.IsZero() {
		exp = int(d.NumDigits()) + int(d.Exponent) - 1
	}
	sig := new(apd.Decimal).Set(d)
	sig.Exponent -= int32(exp)
	r, _ := sqltypes.RoundNumeric(sqltypes.NewNumeric(sig), post)
	s := sqltypes.FormatText(r)
	if exp < 0 {
		return s + "e-" + pad2(-exp)
	}
	return s + "e+" + pad2(exp)
}

func pad2(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// floatSci is C's %+.*e with the plus sign shown as a blank.
func floatSci(f float64, post int) string {
	s := strconv.FormatFloat(f, 'e', post, 64)
	if !strings.HasPrefix(s, "-") {
		s = " " + s
	}
	return s
}

// NumberToChar is to_char(number, template) for integers, floats and
// numerics.
func NumberToChar(v sqltypes.Value, t sqltypes.Type, tmpl string) (sqltypes.Value, error) {
	if tmpl == "" {
		return sqltypes.NewText(""), nil
	}
	nodes := parseTemplate(tmpl, numKeywords, false)
	d, err := describeNumber(nodes)
	if err != nil {
		return sqltypes.Null, err
	}
	var number string
	pre, sign := 0, byte('+')
	switch {
	case d.is(numRoman):
		var n int64 = math.MaxInt32
		switch v.K {
		case sqltypes.KindInt:
			if v.I >= math.MinInt32 && v.I <= math.MaxInt32 {
				n = v.I
			}
		case sqltypes.KindFloat:
			if r := math.RoundToEven(v.F); !math.IsNaN(r) && r >= math.MinInt32 && r < -math.MinInt32 {
				n = int64(r)
			}
		case sqltypes.KindNumeric:
			if i, err := sqltypes.NumericToInt(v, sqltypes.TypeInt4); err == nil {
				n = i.I
			}
		}
		number = toRoman(n)
	case d.is(numEEEE):
		switch {
		case v.K == sqltypes.KindNumeric || t.ID == sqltypes.Int8:
			nv := v
			if v.K == sqltypes.KindInt {
				nv = sqltypes.NumericFromInt(v.I)
			}
			s := numericSci(nv, d.post)
			switch {
			case s == "NaN" || s == "Infinity" || s == "-Infinity":
				number = overflowEEEE(d)
			case strings.HasPrefix(s, "-"):
				number = s
			default:
				number = " " + s
			}
		case v.K == sqltypes.KindFloat && (math.IsNaN(v.F) || math.IsInf(v.F, 0)):
			number = overflowEEEE(d)
		default:
			number = floatSci(v.AsFloat(), d.post)
		}
	default:
		var rendered string
		switch v.K {
		case sqltypes.KindInt:
			i := v.I
			if d.is(numMulti) {
				p := int64(math.Pow10(d.multi))
				if t.ID == sqltypes.Int8 {
					r, err := IntArith('*', i, p, tInt8)
					if err != nil {
						return sqltypes.Null, err
					}
					i = r.I
				} else {
					i = int64(int32(i * p)) // PostgreSQL multiplies in 32 bits here
				}
				d.pre += d.multi
			}
			rendered = strconv.FormatInt(i, 10)
			if d.post > 0 {
				rendered += "." + strings.Repeat("0", d.post)
			}
		case sqltypes.KindFloat:
			f := v.F
			if d.is(numMulti) {
				f *= math.Pow(10, float64(d.multi))
				if t.ID == sqltypes.Float4 {
					f = float64(float32(f))
				}
				d.pre += d.multi
			}
			if math.IsNaN(f) || math.IsInf(f, 0) {
				// Laid out like their output text: "NaN", or # for infinities.
				rendered = sqltypes.FormatText(sqltypes.NewFloat(f))
				break
			}
			digits := 15 // DBL_DIG
			if t.ID == sqltypes.Float4 {
				digits = 6 // FLT_DIG
			}
			preLen := len(cFixed(math.Abs(f), 0))
			switch {
			case preLen >= digits:
				d.post = 0
			case preLen+d.post > digits:
				d.post = digits - preLen
			}
			rendered = cFixed(f, d.post)
		default:
			nv := v
			if d.is(numMulti) {
				scale, err := sqltypes.PowerNumeric(sqltypes.NumericFromInt(10), sqltypes.NumericFromInt(int64(d.multi)))
				if err != nil {
					return sqltypes.Null, err
				}
				if nv, err = sqltypes.MulNumeric(nv, scale); err != nil {
					return sqltypes.Null, err
				}
				d.pre += d.multi
			}
			r, err := sqltypes.RoundNumeric(nv, d.post)
			if err != nil {
				return sqltypes.Null, err
			}
			rendered = sqltypes.FormatText(r)
		}
		number, pre, sign = fitDigits(d, rendered)
	}
	return sqltypes.NewText(layoutNumber(nodes, d, number, pre, sign)), nil
}

// cFixed is C's %.*f for a finite double.
func cFixed(f float64, prec int) string { return strconv.FormatFloat(f, 'f', prec, 64) }
