package builtins

import (
	"strings"
	"unicode/utf8"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// to_number reads text through a number template (the patterns of
// to_char's number form, numchar.go), in the C locale, as PostgreSQL 15
// does: the template is walked left to right over the input; a digit
// position (9, 0) takes a digit if one is there, the decimal point (. or
// D) a point, S, MI, PL, SG and PR a sign where they stand or next to the
// digits; a group separator (',' or G) is skipped when the input has one
// there; L, MI, PL and SG skip a character that is not a digit; any other
// template character skips one input character, whatever it is. What was
// read becomes numeric(digit positions, digits read after the point), and
// V divides it by ten per digit after the V.

// numberReader is the state of one to_number call.
type numberReader struct {
	in                []byte
	p                 int
	d                 numDesc
	sign              byte // ' ' until a sign is read
	digits            []byte
	readPre, readPost int
	readDec           bool
}

func (r *numberReader) done() bool { return r.p >= len(r.in) }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// numPart reads at a digit or decimal-point position (PostgreSQL's
// NUM_numpart_from_char): a sign before the first digit, a digit or the
// point, a sign right after the last digit. The caller moves past the
// character it stood on.
func (r *numberReader) numPart(id string) {
	if !r.done() && r.in[r.p] == ' ' {
		r.p++
	}
	if r.done() {
		return
	}
	if r.sign == ' ' && (id == "9" || id == "0") && r.readPre+r.readPost == 0 {
		c := r.in[r.p]
		switch {
		case r.d.is(numLSign) && r.d.lsign == -1:
			if c == '-' || c == '+' {
				r.sign = c
				r.p++
			}
		case c == '-' || r.d.is(numBracket) && c == '<':
			r.sign = '-'
			r.p++
		case c == '+':
			r.sign = '+'
			r.p++
		}
	}
	if r.done() {
		return
	}
	read := false
	c := r.in[r.p]
	switch {
	case isDigit(c):
		if r.readDec && r.readPost == r.d.post {
			return
		}
		r.digits = append(r.digits, c)
		if r.readDec {
			r.readPost++
		} else {
			r.readPre++
		}
		read = true
	case r.d.is(numDecimal) && !r.readDec && c == '.':
		r.digits = append(r.digits, '.')
		r.readDec, read = true, true
	}
	if r.done() || r.sign != ' ' || r.readPre+r.readPost == 0 {
		return
	}
	// A sign right behind the last digit: S's (when the next character
	// is not a digit), or MI/PL/SG's where the template cannot say.
	switch {
	case r.d.is(numLSign) && read:
		if r.p+1 < len(r.in) && !isDigit(r.in[r.p+1]) {
			if c := r.in[r.p+1]; c == '-' || c == '+' {
				r.sign = c
				r.p++
			}
		}
	case !read && !r.d.is(numLSign) && r.d.is(numPlus|numMinus):
		if c == '-' || c == '+' {
			r.sign = c
		}
	}
}

// skipChar moves past one (possibly multibyte) input character.
func (r *numberReader) skipChar() {
	_, n := utf8.DecodeRune(r.in[r.p:])
	r.p += n
}

// ToNumber is to_number(text, template).
func ToNumber(s, tmpl string) (sqltypes.Value, error) {
	if tmpl == "" {
		return sqltypes.Null, nil
	}
	nodes := parseTemplate(tmpl, numKeywords, false)
	d, err := describeNumber(nodes)
	if err != nil {
		return sqltypes.Null, err
	}
	switch {
	case d.is(numEEEE):
		return sqltypes.Null, pgerr.New(pgerr.FeatureNotSupported, `"EEEE" not supported for input`)
	case d.is(numRoman):
		return sqltypes.Null, pgerr.New(pgerr.FeatureNotSupported, `"RN" not supported for input`)
	}
	r := &numberReader{in: []byte(s), d: d, sign: ' '}
	for _, n := range nodes {
		if r.done() {
			break
		}
		if n.kw == nil {
			// Literal template text skips one input character each.
			for range n.lit {
				if r.done() {
					break
				}
				r.skipChar()
			}
			continue
		}
		c := r.in[r.p]
		switch id := n.kw.id; id {
		case "9", "0", ".", "D":
			r.numPart(id)
		case ",", "G":
			if d.is(numFill) || c != ',' {
				continue
			}
		case "L", "MI", "PL", "SG":
			if isDigit(c) {
				continue
			}
			switch {
			case c == '-' && (id == "MI" || id == "SG"):
				r.sign = '-'
			case c == '+' && (id == "PL" || id == "SG"):
				r.sign = '+'
			}
			r.skipChar()
			continue
		case "TH", "th":
			if d.is(numDecimal) || r.sign == '-' {
				continue
			}
			r.p++
		default:
			// FM, B, S, PR, V: nothing to read where they stand.
			continue
		}
		r.p++
	}
	digits := string(r.digits)
	digits = strings.TrimSuffix(digits, ".")
	numstr := string(r.sign) + digits
	if digits == "" || digits == "." {
		return sqltypes.Null, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type numeric: \"%s\"", numstr)
	}
	v, err := sqltypes.ParseNumeric(numstr)
	if err != nil {
		return sqltypes.Null, err
	}
	v, err = sqltypes.ApplyNumericTypmod(v, sqltypes.NumericType(max(d.pre+d.multi+r.readPost, 1), r.readPost))
	if err != nil {
		return sqltypes.Null, err
	}
	if d.is(numMulti) {
		f, err := sqltypes.PowerNumeric(sqltypes.NumericFromInt(10), sqltypes.NumericFromInt(int64(-d.multi)))
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.MulNumeric(v, f)
	}
	return v, nil
}

func init() {
	textT := T(sqltypes.TypeText)
	Register("to_number", Overload{Params: []Param{textT, textT}, Result: Returns(sqltypes.TypeNumeric), Volatility: Stable,
		Doc:  "convert text to numeric through a number template",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) { return ToNumber(a[0].S, a[1].S) }})
}
