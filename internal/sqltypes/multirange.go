package sqltypes

import (
	"sort"
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// The multirange types of the built-in range types (int4multirange ...
// datemultirange): a MultirangeValue in Value.X, of kind KindMultirange.
// A multirange holds its ranges canonically, as PostgreSQL's
// make_multirange leaves them: no empty range, sorted, and no two that
// overlap or touch (those are merged), so equal multiranges hold equal
// ranges.

// MultirangeValue is a multirange of type Typ.
type MultirangeValue struct {
	Typ    Type
	Ranges []*RangeValue
}

// NewMultirange returns a multirange value.
func NewMultirange(m *MultirangeValue) Value { return Value{K: KindMultirange, X: m} }

// Multirange returns the multirange of a KindMultirange value (read-only).
func (v Value) Multirange() *MultirangeValue {
	m, _ := v.X.(*MultirangeValue)
	return m
}

// IsMultirange reports whether t is one of the multirange types.
func (t Type) IsMultirange() bool {
	return t.ID >= Int4Multirange && t.ID <= DateMultirange || t.ID == UserMultirange
}

// MultirangeOf returns the multirange type of a range type (Unknown for a
// type that is not a range).
func MultirangeOf(t Type) Type {
	switch {
	case t.ID == UserRange:
		return MultirangeOfUser(t.Range)
	case !t.ID.IsRange():
		return TypeUnknown
	}
	return Type{ID: Int4Multirange + (t.ID - Int4Range)}
}

// MultirangeRange returns the range type of a multirange type.
func MultirangeRange(t Type) Type {
	switch {
	case t.ID == UserMultirange:
		return RangeOf(t.Range)
	case t.ID < Int4Multirange || t.ID > DateMultirange:
		return TypeUnknown
	}
	return Type{ID: Int4Range + (t.ID - Int4Multirange)}
}

// MakeMultirange builds the multirange of type id of ranges, as
// make_multirange: empty ranges dropped, the others sorted, and those that
// overlap or touch merged.
func MakeMultirange(id Type, ranges []*RangeValue) (Value, error) {
	sorted := make([]*RangeValue, 0, len(ranges))
	for _, r := range ranges {
		if !r.Empty {
			sorted = append(sorted, r)
		}
	}
	sort.SliceStable(sorted, func(i, j int) bool { return CompareRanges(sorted[i], sorted[j]) < 0 })
	out := make([]*RangeValue, 0, len(sorted))
	for _, r := range sorted {
		// Sorted, r starts no earlier than the last: it touches or
		// overlaps it unless it lies wholly after it.
		if n := len(out); n > 0 && (RangeAdjacent(out[n-1], r) || !RangeBefore(out[n-1], r)) {
			u, err := RangeUnion(out[n-1], r, false)
			if err != nil {
				return Null, err
			}
			out[n-1] = u.Range()
			continue
		}
		out = append(out, r)
	}
	return NewMultirange(&MultirangeValue{Typ: id, Ranges: out}), nil
}

func malformedMultirange(s, detail string) error {
	return pgerr.New(pgerr.InvalidTextRepresentation, "malformed multirange literal: \"%s\"", s).WithDetail("%s", detail)
}

// ParseMultirange reads a multirange's text form as multirange_in: braces
// around ranges (or "empty") separated by commas; each range is read by
// parseRange, within quotes and backslashes as range_in reads them.
func ParseMultirange(id Type, s string, parseRange func(string) (Value, error)) (Value, error) {
	i := 0
	skip := func() {
		for i < len(s) && isRangeSpace(s[i]) {
			i++
		}
	}
	skip()
	if i >= len(s) || s[i] != '{' {
		return Null, malformedMultirange(s, "Missing left brace.")
	}
	i++
	var ranges []*RangeValue
	const (
		before = iota
		after
	)
	state, seen := before, 0
	for {
		skip()
		if i >= len(s) {
			return Null, malformedMultirange(s, "Unexpected end of input.")
		}
		c := s[i]
		if state == after {
			i++
			if c == '}' {
				break
			}
			if c != ',' {
				return Null, malformedMultirange(s, "Expected comma or end of multirange.")
			}
			state = before
			continue
		}
		switch {
		case c == '}' && seen == 0:
			i++
		case len(s)-i >= 5 && strings.EqualFold(s[i:i+5], "empty"):
			i += 5
			seen++
			state = after
			continue
		case c == '[' || c == '(':
			// The range's text runs to its closing bracket outside quotes
			// and escapes.
			start := i
			inQuote := false
			for i++; ; {
				if i >= len(s) {
					return Null, malformedMultirange(s, "Unexpected end of input.")
				}
				c := s[i]
				i++
				switch {
				case c == '\\':
					i++ // the escaped character
				case c == '"' && inQuote && i < len(s) && s[i] == '"':
					i++ // a doubled quote inside quotes
				case c == '"':
					inQuote = !inQuote
				case !inQuote && (c == ']' || c == ')'):
					goto end
				}
			}
		end:
			r, err := parseRange(s[start:i])
			if err != nil {
				return Null, err
			}
			ranges = append(ranges, r.Range())
			seen++
			state = after
			continue
		default:
			return Null, malformedMultirange(s, "Expected range start.")
		}
		break // "{}"
	}
	skip()
	if i != len(s) {
		return Null, malformedMultirange(s, "Junk after closing right brace.")
	}
	return MakeMultirange(id, ranges)
}

// parseMultirangeStyled reads a multirange in a session's settings.
func parseMultirangeStyled(t Type, s string, st Style) (Value, error) {
	rt := MultirangeRange(t)
	return ParseMultirange(t, s, func(r string) (Value, error) { return parseRangeStyled(rt, r, st) })
}

// AppendMultirangeStyled appends m's text form as multirange_out: its
// ranges' text between braces.
func AppendMultirangeStyled(buf []byte, m *MultirangeValue, st Style) []byte {
	buf = append(buf, '{')
	for i, r := range m.Ranges {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = AppendRangeStyled(buf, r, st)
	}
	return append(buf, '}')
}

// CompareMultiranges is multirange_cmp: range by range, a multirange
// that runs out first sorting first.
func CompareMultiranges(a, b *MultirangeValue) int {
	for i := 0; ; i++ {
		switch {
		case i >= len(a.Ranges) && i >= len(b.Ranges):
			return 0
		case i >= len(a.Ranges):
			return -1
		case i >= len(b.Ranges):
			return 1
		}
		if c := CompareRanges(a.Ranges[i], b.Ranges[i]); c != 0 {
			return c
		}
	}
}

// MultirangeSpan is range_merge(multirange): the smallest range holding
// every range of m (empty for the empty multirange).
func MultirangeSpan(m *MultirangeValue) Value {
	rt := MultirangeRange(m.Typ)
	if len(m.Ranges) == 0 {
		return EmptyRange(rt)
	}
	first, last := m.Ranges[0], m.Ranges[len(m.Ranges)-1]
	return NewRange(&RangeValue{Typ: rt, Lower: first.Lower, LowerInf: first.LowerInf, LowerInc: first.LowerInc,
		Upper: last.Upper, UpperInf: last.UpperInf, UpperInc: last.UpperInc})
}

// MultirangeContainsElem is multirange @> element.
func MultirangeContainsElem(m *MultirangeValue, v Value) bool {
	for _, r := range m.Ranges {
		if RangeContainsElem(r, v) {
			return true
		}
	}
	return false
}

// MultirangeContainsRange is multirange @> range: the empty range is in
// every multirange; another is within one of its (disjoint) ranges.
func MultirangeContainsRange(m *MultirangeValue, r *RangeValue) bool {
	if r.Empty {
		return true
	}
	for _, x := range m.Ranges {
		if RangeContains(x, r) {
			return true
		}
	}
	return false
}

// RangeContainsMultirange is range @> multirange.
func RangeContainsMultirange(r *RangeValue, m *MultirangeValue) bool {
	if len(m.Ranges) == 0 {
		return true
	}
	return RangeContains(r, MultirangeSpan(m).Range())
}

// MultirangeContains is multirange @> multirange.
func MultirangeContains(a, b *MultirangeValue) bool {
	for _, r := range b.Ranges {
		if !MultirangeContainsRange(a, r) {
			return false
		}
	}
	return true
}

// MultirangeOverlapsRange is multirange && range.
func MultirangeOverlapsRange(m *MultirangeValue, r *RangeValue) bool {
	for _, x := range m.Ranges {
		if RangeOverlaps(x, r) {
			return true
		}
	}
	return false
}

// MultirangeOverlaps is multirange && multirange.
func MultirangeOverlaps(a, b *MultirangeValue) bool {
	for _, r := range b.Ranges {
		if MultirangeOverlapsRange(a, r) {
			return true
		}
	}
	return false
}

// MultirangeUnion is multirange + multirange.
func MultirangeUnion(a, b *MultirangeValue) (Value, error) {
	return MakeMultirange(a.Typ, append(append([]*RangeValue{}, a.Ranges...), b.Ranges...))
}

// MultirangeIntersect is multirange * multirange.
func MultirangeIntersect(a, b *MultirangeValue) (Value, error) {
	var out []*RangeValue
	for _, x := range a.Ranges {
		for _, y := range b.Ranges {
			if RangeOverlaps(x, y) {
				r, err := RangeIntersect(x, y)
				if err != nil {
					return Null, err
				}
				out = append(out, r.Range())
			}
		}
	}
	return MakeMultirange(a.Typ, out)
}

// MultirangeMinus is multirange - multirange: what of a's ranges no range
// of b covers (a range with one cut out of its middle leaves two).
func MultirangeMinus(a, b *MultirangeValue) (Value, error) {
	var out []*RangeValue
	for _, x := range a.Ranges {
		pieces := []*RangeValue{x}
		for _, y := range b.Ranges {
			var next []*RangeValue
			for _, p := range pieces {
				if !RangeOverlaps(p, y) {
					next = append(next, p)
					continue
				}
				pl, pu := p.Bounds()
				yl, yu := y.Bounds()
				if CompareRangeBounds(pl, yl) < 0 {
					// The part of p before y: up to y's lower bound, flipped.
					yl.Inc, yl.Lower = !yl.Inc, false
					r, err := MakeRange(p.Typ, pl, yl, false)
					if err != nil {
						return Null, err
					}
					next = append(next, r.Range())
				}
				if CompareRangeBounds(pu, yu) > 0 {
					yu.Inc, yu.Lower = !yu.Inc, true
					r, err := MakeRange(p.Typ, yu, pu, false)
					if err != nil {
						return Null, err
					}
					next = append(next, r.Range())
				}
			}
			pieces = next
		}
		out = append(out, pieces...)
	}
	return MakeMultirange(a.Typ, out)
}
