package sqltypes

import (
	"math"
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// money is a KindMoney value: a count of cents in I (PostgreSQL's Cash,
// an int64 of the currency's smallest unit). zproxy formats and reads it
// as PostgreSQL does under lc_monetary C: "$" before the amount, "," every
// three digits, "." before two fraction digits, a leading "-" when
// negative.

// NewMoney returns a money value of cents.
func NewMoney(cents int64) Value { return Value{K: KindMoney, I: cents} }

// ErrMoneyOutOfRange is the error of money arithmetic that overflows.
func ErrMoneyOutOfRange() error {
	return pgerr.New(pgerr.NumericValueOutOfRange, "money out of range")
}

// ParseMoney reads money's text as cash_in does in the C locale: blanks,
// an optional "$", a sign ("-", "+" or "("), digits with "," anywhere
// among them and at most two after ".", a third fraction digit rounding
// half up, then only digits, blanks, ")", a sign or "$".
func ParseMoney(in string) (Value, error) {
	bad := func() error {
		return pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type money: %q", in)
	}
	overflow := func() error {
		return pgerr.New(pgerr.NumericValueOutOfRange, "value \"%s\" is out of range for type money", in)
	}
	s := in
	skip := func() {
		s = strings.TrimLeft(s, " \t\n\r\f\v")
	}
	skipSymbol := func() {
		skip()
		s = strings.TrimPrefix(s, "$")
		skip()
	}
	skipSymbol()
	neg := false
	switch {
	case strings.HasPrefix(s, "-"):
		neg, s = true, s[1:]
	case strings.HasPrefix(s, "("):
		neg, s = true, s[1:]
	case strings.HasPrefix(s, "+"):
		s = s[1:]
	}
	skipSymbol()
	// The value is built negative, as cash_in does, so the most negative
	// amount reads.
	var value int64
	dec, seenDot := 0, false
	for ; s != ""; s = s[1:] {
		c := s[0]
		switch {
		case c >= '0' && c <= '9' && (!seenDot || dec < 2):
			if value < math.MinInt64/10 || value*10 < math.MinInt64+int64(c-'0') {
				return Null, overflow()
			}
			value = value*10 - int64(c-'0')
			if seenDot {
				dec++
			}
			continue
		case c == '.' && !seenDot:
			seenDot = true
			continue
		case c == ',':
			continue
		}
		break
	}
	if s != "" && s[0] >= '5' && s[0] <= '9' {
		if value == math.MinInt64 {
			return Null, overflow()
		}
		value--
	}
	for ; dec < 2; dec++ {
		if value < math.MinInt64/10 {
			return Null, overflow()
		}
		value *= 10
	}
	s = strings.TrimLeft(s, "0123456789")
	for s != "" {
		switch c := s[0]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == ')' || c == '+' || c == '$':
		case c == '-':
			neg = true
		default:
			return Null, bad()
		}
		s = s[1:]
	}
	if !neg {
		if value == math.MinInt64 {
			return Null, overflow()
		}
		value = -value
	}
	return NewMoney(value), nil
}

// AppendMoney appends money's text as cash_out writes it in the C locale.
func AppendMoney(buf []byte, cents int64) []byte {
	u := uint64(cents)
	if cents < 0 {
		buf = append(buf, '-')
		u = -u
	}
	buf = append(buf, '$')
	digits := strconv.FormatUint(u, 10)
	if len(digits) < 3 {
		digits = strings.Repeat("0", 3-len(digits)) + digits
	}
	whole, frac := digits[:len(digits)-2], digits[len(digits)-2:]
	for i := 0; i < len(whole); i++ {
		if i > 0 && (len(whole)-i)%3 == 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, whole[i])
	}
	buf = append(buf, '.')
	return append(buf, frac...)
}

// MoneyToNumeric is cash_numeric: the amount with two fraction digits.
func MoneyToNumeric(cents int64) Value {
	d := apd.New(cents, -2)
	return NewNumeric(d)
}

// castMoney converts to and from money: numeric, integer and bigint to
// money (cents, rounded half away from zero), money to numeric, strings
// through cash_in. ok is false for the conversions castValue does itself.
func castMoney(v Value, t Type) (Value, bool, error) {
	switch {
	case t.ID == Money && v.K == KindMoney:
		return v, true, nil
	case t.ID == Money && (v.K == KindText || v.K == KindBPChar || v.K == KindCitext):
		r, err := ParseMoney(v.S)
		return r, true, err
	case t.ID == Money && v.K == KindInt:
		if v.I > math.MaxInt64/100 || v.I < math.MinInt64/100 {
			return Null, true, pgerr.New(pgerr.NumericValueOutOfRange, "bigint out of range")
		}
		return NewMoney(v.I * 100), true, nil
	case t.ID == Money && v.K == KindNumeric:
		d := new(apd.Decimal)
		if _, err := apd.BaseContext.WithPrecision(1000).Mul(d, v.Numeric(), apd.New(1, 2)); err != nil {
			return Null, true, err
		}
		r, err := NumericToInt(NewNumeric(d), TypeInt8)
		if err != nil {
			return Null, true, err
		}
		return NewMoney(r.I), true, nil
	case v.K == KindMoney && t.Kind() == KindNumeric:
		r, err := ApplyNumericTypmod(MoneyToNumeric(v.I), t)
		return r, true, err
	}
	return Null, false, nil
}

// CashWords is cash_words: the amount in English words, as PostgreSQL
// spells it ("One thousand two hundred thirty four dollars and fifty six
// cents").
func CashWords(cents int64) string {
	var b strings.Builder
	u := uint64(cents)
	if cents < 0 {
		b.WriteString("minus ")
		u = -u
	}
	start := b.Len()
	groups := []struct {
		div  uint64
		name string
	}{
		{100000000000000000, " quadrillion "}, {100000000000000, " trillion "},
		{100000000000, " billion "}, {100000000, " million "}, {100000, " thousand "},
	}
	for _, g := range groups {
		if m := u / g.div % 1000; m != 0 {
			b.WriteString(numWord(m))
			b.WriteString(g.name)
		}
	}
	if m := u / 100 % 1000; m != 0 {
		b.WriteString(numWord(m))
	}
	if b.Len() == start {
		b.WriteString("zero")
	}
	if u/100 == 1 {
		b.WriteString(" dollar and ")
	} else {
		b.WriteString(" dollars and ")
	}
	b.WriteString(numWord(u % 100))
	if u%100 == 1 {
		b.WriteString(" cent")
	} else {
		b.WriteString(" cents")
	}
	out := []byte(b.String())
	if out[0] >= 'a' && out[0] <= 'z' {
		out[0] -= 'a' - 'A'
	}
	return string(out)
}

var smallWords = []string{"zero", "one", "two", "three", "four", "five", "six", "seven",
	"eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen",
	"fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
	"thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"}

// numWord spells a number below 1000 as cash_words' num_word does.
func numWord(v uint64) string {
	tens := func(n uint64) string { return smallWords[18+n] } // 2 -> twenty
	if v <= 20 {
		return smallWords[v]
	}
	tu := v % 100
	var rest string
	switch {
	case v%10 == 0 && tu > 10:
		rest = tens(tu / 10)
	case tu < 20:
		rest = smallWords[tu]
	default:
		rest = tens(tu/10) + " " + smallWords[tu%10]
	}
	if v <= 99 {
		return rest
	}
	hundreds := smallWords[v/100] + " hundred"
	switch {
	case tu == 0:
		return hundreds
	case v%10 == 0 && tu > 10:
		return hundreds + " " + rest
	case tu < 20:
		return hundreds + " and " + rest
	}
	return hundreds + " " + rest
}
