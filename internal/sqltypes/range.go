package sqltypes

import (
	"math"
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// PostgreSQL's built-in range types (int4range, int8range, numrange,
// tsrange, tstzrange, daterange): a RangeValue in Value.X, of kind
// KindRange. A range is empty, or has a lower and an upper bound, each
// infinite or a value of the subtype, inclusive or exclusive. Every
// constructor goes through MakeRange, which checks the bounds' order,
// makes a range with equal bounds not both inclusive empty, and brings
// the discrete types (int4range, int8range, daterange) to their canonical
// [) form, as PostgreSQL's make_range and the types' canonical functions
// do; so two equal ranges always have equal bounds and flags.

// RangeValue is a range. Lower and Upper hold the bound values (NULL when
// the bound is infinite or the range empty); the Inc flags are false for
// infinite bounds and for the empty range.
type RangeValue struct {
	Typ                Type
	Empty              bool
	Lower, Upper       Value
	LowerInf, UpperInf bool
	LowerInc, UpperInc bool
}

// RangeBound is one bound of a range, as PostgreSQL's RangeBound: which
// side it is (Lower), whether it is infinite, and if not its value and
// whether it is inclusive.
type RangeBound struct {
	Val      Value
	Inf, Inc bool
	Lower    bool
}

// Bounds returns r's lower and upper bounds (meaningless for empty r).
func (r *RangeValue) Bounds() (lower, upper RangeBound) {
	return RangeBound{Val: r.Lower, Inf: r.LowerInf, Inc: r.LowerInc, Lower: true},
		RangeBound{Val: r.Upper, Inf: r.UpperInf, Inc: r.UpperInc}
}

// NewRange returns a range value.
func NewRange(r *RangeValue) Value { return Value{K: KindRange, X: r} }

// Range returns the range of a KindRange value (read-only).
func (v Value) Range() *RangeValue {
	r, _ := v.X.(*RangeValue)
	return r
}

// IsRange reports whether t is one of the range types.
func (t Type) IsRange() bool { return t.ID.IsRange() }

// IsRange reports whether id is one of the range types.
func (id TypeID) IsRange() bool { return id >= Int4Range && id <= DateRange || id == UserRange }

// RangeSubtype returns the type of a range type's bounds (Unknown for a
// type that is not a range).
func RangeSubtype(t Type) Type {
	switch t.ID {
	case UserRange:
		if t.Range != nil {
			return t.Range.Subtype
		}
	case Int4Range:
		return TypeInt4
	case Int8Range:
		return TypeInt8
	case NumRange:
		return TypeNumeric
	case TsRange:
		return TypeTimestamp
	case TstzRange:
		return TypeTimestampTZ
	case DateRange:
		return TypeDate
	}
	return TypeUnknown
}

// rangeDiscrete reports whether a range type has a canonical function.
func rangeDiscrete(t Type) bool { return t.ID == Int4Range || t.ID == Int8Range || t.ID == DateRange }

// EmptyRange returns the empty range of type id.
func EmptyRange(t Type) Value { return NewRange(&RangeValue{Typ: t, Empty: true}) }

// CompareRangeBounds orders two bounds as PostgreSQL's range_cmp_bounds:
// an infinite lower bound first, an infinite upper bound last; on equal
// values an inclusive lower bound before an exclusive one, and an
// exclusive upper bound before an inclusive one (and an exclusive upper
// before an exclusive lower of the same value).
func CompareRangeBounds(b1, b2 RangeBound) int {
	switch {
	case b1.Inf && b2.Inf:
		if b1.Lower == b2.Lower {
			return 0
		}
		return sideSign(b1.Lower)
	case b1.Inf:
		return sideSign(b1.Lower)
	case b2.Inf:
		return -sideSign(b2.Lower)
	}
	c := Compare(b1.Val, b2.Val)
	if c != 0 {
		return c
	}
	switch {
	case !b1.Inc && !b2.Inc:
		if b1.Lower == b2.Lower {
			return 0
		}
		return -sideSign(b1.Lower)
	case !b1.Inc:
		return -sideSign(b1.Lower)
	case !b2.Inc:
		return sideSign(b2.Lower)
	}
	return 0
}

// sideSign is -1 for a lower bound, +1 for an upper one.
func sideSign(lower bool) int {
	if lower {
		return -1
	}
	return 1
}

// compareBoundValues is PostgreSQL's range_cmp_bound_values: the bounds'
// positions without their inclusivity.
func compareBoundValues(b1, b2 RangeBound) int {
	b1.Inc, b2.Inc = true, true
	return CompareRangeBounds(b1, b2)
}

func errRangeBoundOrder() error {
	return pgerr.New(pgerr.DataException, "range lower bound must be less than or equal to range upper bound")
}

// MakeRange builds a range of type id from its bounds as PostgreSQL's
// make_range: 22000 when the lower bound is above the upper, empty when
// they are equal and not both inclusive, canonical for the discrete
// types (22003 when a canonical bound overflows its type).
func MakeRange(id Type, lower, upper RangeBound, empty bool) (Value, error) {
	r, err := serializeRange(id, lower, upper, empty)
	if err != nil {
		return Null, err
	}
	if r.Empty || !rangeDiscrete(id) {
		return NewRange(r), nil
	}
	// The canonical form [): an exclusive lower bound moves up a step,
	// an inclusive upper bound too ('infinity' dates stay).
	step := func(b *RangeBound) error {
		if b.Val.K == KindDate && (b.Val.I == DateInfinity || b.Val.I == DateNegInfinity) {
			return nil
		}
		if b.Val.K == KindDate {
			b.Val = NewDate(b.Val.I + 1)
		} else {
			if b.Val.I == math.MaxInt64 {
				return pgerr.New(pgerr.NumericValueOutOfRange, "bigint out of range")
			}
			n, err := CheckRange(RangeSubtype(id), NewInt(b.Val.I+1))
			if err != nil {
				return err
			}
			b.Val = n
		}
		b.Inc = !b.Inc
		return nil
	}
	lower.Inf, lower.Inc, lower.Val = r.LowerInf, r.LowerInc, r.Lower
	upper.Inf, upper.Inc, upper.Val = r.UpperInf, r.UpperInc, r.Upper
	if !lower.Inf && !lower.Inc {
		if err := step(&lower); err != nil {
			return Null, err
		}
	}
	if !upper.Inf && upper.Inc {
		if err := step(&upper); err != nil {
			return Null, err
		}
	}
	if r, err = serializeRange(id, lower, upper, false); err != nil {
		return Null, err
	}
	return NewRange(r), nil
}

// serializeRange is PostgreSQL's range_serialize: the order check and
// the emptiness of equal bounds, without canonicalisation.
func serializeRange(id Type, lower, upper RangeBound, empty bool) (*RangeValue, error) {
	if !empty && !lower.Inf && !upper.Inf {
		c := Compare(lower.Val, upper.Val)
		if c > 0 {
			return nil, errRangeBoundOrder()
		}
		empty = c == 0 && !(lower.Inc && upper.Inc)
	}
	if empty {
		return &RangeValue{Typ: id, Empty: true}, nil
	}
	r := &RangeValue{Typ: id, LowerInf: lower.Inf, UpperInf: upper.Inf}
	if !lower.Inf {
		r.Lower, r.LowerInc = lower.Val, lower.Inc
	}
	if !upper.Inf {
		r.Upper, r.UpperInc = upper.Val, upper.Inc
	}
	return r, nil
}

// ConstructRange is the constructor functions int4range(lower, upper
// [, flags]): a NULL bound is infinite; flags is one of "[]", "[)", "(]"
// and "()" (42601 otherwise).
func ConstructRange(id Type, lower, upper Value, flags string) (Value, error) {
	if len(flags) != 2 || (flags[0] != '[' && flags[0] != '(') || (flags[1] != ']' && flags[1] != ')') {
		return Null, pgerr.New(pgerr.SyntaxError, "invalid range bound flags").
			WithHint(`Valid values are "[]", "[)", "(]", and "()".`)
	}
	return MakeRange(id,
		RangeBound{Val: lower, Inf: lower.IsNull(), Inc: flags[0] == '[', Lower: true},
		RangeBound{Val: upper, Inf: upper.IsNull(), Inc: flags[1] == ']'}, false)
}

func malformedRange(s, detail string) error {
	return pgerr.New(pgerr.InvalidTextRepresentation, "malformed range literal: \"%s\"", s).WithDetail("%s", detail)
}

// isRangeSpace is isspace in the C locale, as range_parse skips blanks.
func isRangeSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// ParseRange reads a range's text form as PostgreSQL's range_in: "empty",
// or a bracket or parenthesis, the bounds (empty for infinite, in double
// quotes or with backslashes when they hold special characters) and a
// closing bracket or parenthesis. parseBound reads a bound's text as the
// subtype (in the session's settings).
func ParseRange(id Type, s string, parseBound func(string) (Value, error)) (Value, error) {
	i := 0
	skip := func() {
		for i < len(s) && isRangeSpace(s[i]) {
			i++
		}
	}
	skip()
	if len(s)-i >= 5 && strings.EqualFold(s[i:i+5], "empty") {
		i += 5
		skip()
		if i != len(s) {
			return Null, malformedRange(s, `Junk after "empty" key word.`)
		}
		return EmptyRange(id), nil
	}
	var lower, upper RangeBound
	lower.Lower = true
	switch {
	case i < len(s) && s[i] == '[':
		lower.Inc = true
	case i < len(s) && s[i] == '(':
	default:
		return Null, malformedRange(s, "Missing left parenthesis or bracket.")
	}
	i++
	// bound reads one bound's text: nothing before , ) or ] is infinite.
	bound := func(b *RangeBound) error {
		if i < len(s) && (s[i] == ',' || s[i] == ')' || s[i] == ']') {
			b.Inf, b.Inc = true, false
			return nil
		}
		var text strings.Builder
		inQuote := false
		for inQuote || i >= len(s) || !(s[i] == ',' || s[i] == ')' || s[i] == ']') {
			if i >= len(s) {
				return malformedRange(s, "Unexpected end of input.")
			}
			c := s[i]
			i++
			switch {
			case c == '\\':
				if i >= len(s) {
					return malformedRange(s, "Unexpected end of input.")
				}
				text.WriteByte(s[i])
				i++
			case c == '"' && !inQuote:
				inQuote = true
			case c == '"' && i < len(s) && s[i] == '"':
				text.WriteByte('"') // a doubled quote inside quotes
				i++
			case c == '"':
				inQuote = false
			default:
				text.WriteByte(c)
			}
		}
		v, err := parseBound(text.String())
		if err != nil {
			return err
		}
		b.Val = v
		return nil
	}
	if err := bound(&lower); err != nil {
		return Null, err
	}
	if i >= len(s) || s[i] != ',' {
		return Null, malformedRange(s, "Missing comma after lower bound.")
	}
	i++
	if err := bound(&upper); err != nil {
		return Null, err
	}
	switch s[i] {
	case ']':
		upper.Inc = !upper.Inf
	case ')':
	default:
		return Null, malformedRange(s, "Too many commas.")
	}
	i++
	skip()
	if i != len(s) {
		return Null, malformedRange(s, "Junk after right parenthesis or bracket.")
	}
	return MakeRange(id, lower, upper, false)
}

// parseRangeStyled reads a range in a session's settings (its bounds'
// dates and time zone).
func parseRangeStyled(t Type, s string, st Style) (Value, error) {
	sub := RangeSubtype(t)
	return ParseRange(t, s, func(b string) (Value, error) {
		v, err := ParseTextStyled(sub, b, st)
		if err == nil {
			err = CheckDomain(sub, v, true) // a user-defined range's subtype may be a domain
		}
		return v, err
	})
}

// AppendRangeStyled appends r's text form as range_out: "empty", or the
// bounds between brackets, each in its subtype's output (in st) and
// quoted when it is empty or holds a quote, backslash, bracket,
// parenthesis, comma or blank.
func AppendRangeStyled(buf []byte, r *RangeValue, st Style) []byte {
	if r.Empty {
		return append(buf, "empty"...)
	}
	if r.LowerInc {
		buf = append(buf, '[')
	} else {
		buf = append(buf, '(')
	}
	sub := RangeSubtype(r.Typ)
	if !r.LowerInf {
		buf = appendRangeBound(buf, AppendTextStyled(nil, sub, r.Lower, st))
	}
	buf = append(buf, ',')
	if !r.UpperInf {
		buf = appendRangeBound(buf, AppendTextStyled(nil, sub, r.Upper, st))
	}
	if r.UpperInc {
		return append(buf, ']')
	}
	return append(buf, ')')
}

// appendRangeBound is range_bound_escape.
func appendRangeBound(buf, text []byte) []byte {
	quote := len(text) == 0
	for _, c := range text {
		if c == '"' || c == '\\' || c == '(' || c == ')' || c == '[' || c == ']' || c == ',' || isRangeSpace(c) {
			quote = true
			break
		}
	}
	if quote {
		buf = append(buf, '"')
	}
	for _, c := range text {
		if c == '"' || c == '\\' {
			buf = append(buf, c)
		}
		buf = append(buf, c)
	}
	if quote {
		buf = append(buf, '"')
	}
	return buf
}

// CompareRanges is range_cmp: the empty range first, then by lower bound,
// then by upper bound.
func CompareRanges(a, b *RangeValue) int {
	switch {
	case a.Empty && b.Empty:
		return 0
	case a.Empty:
		return -1
	case b.Empty:
		return 1
	}
	al, au := a.Bounds()
	bl, bu := b.Bounds()
	if c := CompareRangeBounds(al, bl); c != 0 {
		return c
	}
	return CompareRangeBounds(au, bu)
}

func hashRange(h uint64, r *RangeValue) uint64 {
	flags := RangeFlags(r)
	h = hashUint64(h, uint64(flags))
	if !r.Empty && !r.LowerInf {
		h = r.Lower.Hash(h)
	}
	if !r.Empty && !r.UpperInf {
		h = r.Upper.Hash(h)
	}
	return h
}

// The flag bits of PostgreSQL's range representation (rangetypes.h),
// also the first byte of its binary form.
const (
	RangeFlagEmpty = 0x01
	RangeFlagLBInc = 0x02
	RangeFlagUBInc = 0x04
	RangeFlagLBInf = 0x08
	RangeFlagUBInf = 0x10
)

// RangeFlags returns r's flags byte as range_send writes it.
func RangeFlags(r *RangeValue) byte {
	if r.Empty {
		return RangeFlagEmpty
	}
	var f byte
	if r.LowerInc {
		f |= RangeFlagLBInc
	}
	if r.UpperInc {
		f |= RangeFlagUBInc
	}
	if r.LowerInf {
		f |= RangeFlagLBInf
	}
	if r.UpperInf {
		f |= RangeFlagUBInf
	}
	return f
}

// RangeFromFlags builds a range of type id from a flags byte and its bound
// values (read only where the flags say the bound is there), through
// MakeRange as range_recv does.
func RangeFromFlags(id Type, flags byte, lower, upper Value) (Value, error) {
	return MakeRange(id,
		RangeBound{Val: lower, Inf: flags&RangeFlagLBInf != 0, Inc: flags&RangeFlagLBInc != 0, Lower: true},
		RangeBound{Val: upper, Inf: flags&RangeFlagUBInf != 0, Inc: flags&RangeFlagUBInc != 0},
		flags&RangeFlagEmpty != 0)
}

// identicalRanges reports whether two ranges are the same datum (Identical).
func identicalRanges(x, y *RangeValue) bool {
	return x.Typ.Same(y.Typ) && RangeFlags(x) == RangeFlags(y) && Identical(x.Lower, y.Lower) && Identical(x.Upper, y.Upper)
}
