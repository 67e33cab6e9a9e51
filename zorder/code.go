package zorder

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
)

// Type is the kind of value a Z-order attribute holds; it fixes how a value
// becomes a code and the attribute's default width.
type Type uint8

// Attribute types. Timestamps (µs since the epoch) and dates (days since the
// epoch) are signed integers with their own default widths; text, varchar,
// bytea and uuid are all Bytes.
const (
	TypeUint Type = iota + 1
	TypeInt
	TypeFloat
	TypeTimestamp
	TypeDate
	TypeBool
	TypeBytes
)

func (t Type) String() string {
	switch t {
	case TypeUint:
		return "uint"
	case TypeInt:
		return "int"
	case TypeFloat:
		return "float"
	case TypeTimestamp:
		return "timestamp"
	case TypeDate:
		return "date"
	case TypeBool:
		return "bool"
	case TypeBytes:
		return "bytes"
	}
	return fmt.Sprintf("Type(%d)", uint8(t))
}

// MaxWidth is the widest attribute code, in bits.
const MaxWidth = 64

// DefaultWidth is the code width in bits used when an Attr leaves Width 0.
// A nullable bool needs a second bit so NULL, false and true stay apart.
func DefaultWidth(t Type, nullable bool) int {
	switch t {
	case TypeDate:
		return 32
	case TypeBool:
		if nullable {
			return 2
		}
		return 1
	}
	return 64
}

// Attr is one attribute (column) of a Z-order schema.
//
// Its code is a fixed-width unsigned number whose order follows the value's
// order: a monotone, non-decreasing map, so two values may share a code (a
// text prefix, a clamped integer) but never swap places. Shared codes cost
// reads, never correctness, as long as rows are re-checked by a residual
// filter.
//
// When Nullable, code 0 means NULL (the lowest place) and the raw code of
// every value is shifted up by one; the top two raw codes then share the
// largest code. When not Nullable every code is a value.
type Attr struct {
	Name     string
	Type     Type
	Width    int // bits, 1..64; 0 (or out of range) means DefaultWidth(Type, Nullable)
	Nullable bool
	// Lead is how many of the code's top bits the address holds before the
	// interleaved rounds of the attributes' remaining bits (0..width; see
	// Schema). Codes are as they are whatever the lead: it moves bits in
	// the address, never changes a code.
	Lead int
}

func (a Attr) maxCode() uint64 { return maxOf(a.w()) }

// DataLead is the lead (Attr.Lead) that aligns the attribute to data whose
// codes lie in [lo, hi]: how many top bits of its width the span hi-lo
// leaves unused, so that the attribute's first interleaved round splits
// the data's span in about half, as every other aligned attribute's does.
// (The bits lo and hi share would often be fewer: a span that straddles a
// power of two shares none below it. Such data lies in two cells of the
// leading bits, each of them aligned.) 0 for an empty interval.
func (a Attr) DataLead(lo, hi uint64) int {
	if lo > hi {
		return 0
	}
	return a.w() - bits.Len64(hi-lo)
}

// w is the attribute's width with the default applied.
func (a Attr) w() int {
	if a.Width <= 0 || a.Width > MaxWidth {
		return DefaultWidth(a.Type, a.Nullable)
	}
	return a.Width
}

// normWidth treats a width outside 1..64 as 64, so a zero width never
// becomes a shift by 64.
func normWidth(width int) int {
	if width <= 0 || width > MaxWidth {
		return MaxWidth
	}
	return width
}

func maxOf(width int) uint64 {
	if width >= 64 {
		return math.MaxUint64
	}
	return 1<<uint(width) - 1
}

// shift places a raw code in the attribute's code space: past the NULL code
// when nullable, saturating at the top.
func (a Attr) shift(raw uint64) uint64 {
	if a.Nullable && raw < a.maxCode() {
		return raw + 1
	}
	return raw
}

// Null is the code of NULL: 0. A NOT NULL attribute has no NULL code and
// code 0 is its smallest value; Null still returns 0.
func (a Attr) Null() uint64 { return 0 }

// Uint is the code of an unsigned value.
func (a Attr) Uint(v uint64) uint64 { return a.shift(UintCode(v, a.w())) }

// Int is the code of a signed integer, timestamp (µs) or date (days).
func (a Attr) Int(v int64) uint64 { return a.shift(IntCode(v, a.w())) }

// Float is the code of a float.
func (a Attr) Float(v float64) uint64 { return a.shift(FloatCode(v, a.w())) }

// Bool is the code of a boolean.
func (a Attr) Bool(v bool) uint64 { return a.shift(BoolCode(v, a.w())) }

// Bytes is the code of a byte string (text, bytea, uuid).
func (a Attr) Bytes(v []byte) uint64 { return a.shift(BytesCode(v, a.w())) }

// String is the code of a string.
func (a Attr) String(v string) uint64 { return a.shift(StringCode(v, a.w())) }

// UintCode is the raw width-bit code of an unsigned value: the value itself,
// clamped to the largest code.
func UintCode(v uint64, width int) uint64 {
	width = normWidth(width)
	return min(v, maxOf(width))
}

// IntCode is the raw width-bit code of a signed value: the value as a
// width-bit two's-complement number with the sign bit flipped, so negatives
// sort first. Values outside the width's range clamp to its ends, so pick a
// width that holds the column's values (16 for smallint, 32 for integer).
func IntCode(v int64, width int) uint64 {
	width = normWidth(width)
	if width >= 64 {
		return uint64(v) ^ 1<<63
	}
	half := int64(1) << uint(width-1)
	switch {
	case v < -half:
		return 0
	case v >= half:
		return maxOf(width)
	}
	return uint64(v + half)
}

// FloatCode is the raw width-bit code of a float: the leading width bits of
// the IEEE total order (positives with the sign bit flipped, negatives with
// all bits flipped):
//
//	-Inf < negatives < ±0 < positives < +Inf < NaN
//
// Unlike the key encoding, -0.0 and +0.0 get the same code (SQL equality
// folds them, and a box bound at 0 must find both). Every NaN gets the
// largest code, above +Inf, as PostgreSQL orders them. A width below 64
// keeps the sign, the exponent and the top of the mantissa: 32 bits keep
// about six significant decimal digits.
func FloatCode(v float64, width int) uint64 {
	width = normWidth(width)
	if v == 0 {
		v = 0 // folds -0.0
	}
	return floatOrderBits(v) >> uint(64-width)
}

// BoolCode is the raw code of a boolean: 0 or 1.
func BoolCode(v bool, width int) uint64 {
	if v {
		return 1
	}
	return 0
}

// BytesCode is the raw width-bit code of a byte string: its first
// ceil(width/8) bytes, zero-padded, truncated to width bits. Values sharing
// that prefix share the code.
func BytesCode(v []byte, width int) uint64 {
	width = normWidth(width)
	var buf [8]byte
	copy(buf[:], v)
	return binary.BigEndian.Uint64(buf[:]) >> uint(64-width)
}

// StringCode is BytesCode for a string.
func StringCode(v string, width int) uint64 {
	width = normWidth(width)
	var buf [8]byte
	copy(buf[:], v)
	return binary.BigEndian.Uint64(buf[:]) >> uint(64-width)
}

// minBytesOfCode is the smallest byte string whose raw code is c: the
// code's bytes with trailing zero bytes trimmed (a shorter string pads with
// zeros, so it shares the code and sorts first).
func minBytesOfCode(c uint64, width int) []byte {
	var buf [8]byte
	binary.BigEndian.PutUint64(buf[:], c<<uint(64-width))
	n := 8
	for n > 0 && buf[n-1] == 0 {
		n--
	}
	return append([]byte(nil), buf[:n]...)
}

// Interval is an inclusive range of codes of one attribute. Lo > Hi means
// empty: no value satisfies the predicate it came from.
type Interval struct {
	Lo, Hi uint64
}

// EmptyInterval is the canonical empty interval.
var EmptyInterval = Interval{Lo: 1, Hi: 0}

// Empty reports whether no code is in the interval.
func (iv Interval) Empty() bool { return iv.Lo > iv.Hi }

// Intersect is the codes in both intervals: the AND of two predicates on one
// attribute.
func (iv Interval) Intersect(o Interval) Interval {
	r := Interval{Lo: max(iv.Lo, o.Lo), Hi: min(iv.Hi, o.Hi)}
	if r.Empty() {
		return EmptyInterval
	}
	return r
}

// Full is every code of the attribute, NULL included: an unbounded
// dimension.
func (a Attr) Full() Interval { return Interval{Lo: 0, Hi: a.maxCode()} }

// NotNull is every code of a value: IS NOT NULL.
func (a Attr) NotNull() Interval { return a.rawInterval(0, a.rawMax()) }

// IsNull is the NULL code: IS NULL. Empty for a NOT NULL attribute.
func (a Attr) IsNull() Interval {
	if !a.Nullable {
		return EmptyInterval
	}
	return Interval{Lo: 0, Hi: 0}
}

func (a Attr) rawMax() uint64 {
	if a.Type == TypeBool {
		return min(1, a.maxCode())
	}
	return a.maxCode()
}

// rawInterval maps an inclusive interval of raw codes to attribute codes.
// The shift is monotone, so the image of the interval is an interval.
func (a Attr) rawInterval(lo, hi uint64) Interval {
	if lo > hi {
		return EmptyInterval
	}
	return Interval{Lo: a.shift(lo), Hi: a.shift(hi)}
}

// The bound mappings below turn one side of a SQL comparison into the
// codes that may hold matching rows. Values that share a code with the bound
// stay in (the residual filter drops them), so an exclusive bound tightens
// the code only when no other value shares it: x > 5 maps to code(6), but
// text > 'abc' keeps code('abc') whenever a longer value can share it. NULL
// never satisfies a comparison, so the results exclude the NULL code.

// IntAbove is x >= v (inclusive) or x > v for a signed attribute.
func (a Attr) IntAbove(v int64, inclusive bool) Interval {
	if !inclusive {
		if v == math.MaxInt64 {
			return EmptyInterval
		}
		v++
	}
	return a.rawInterval(IntCode(v, a.w()), a.rawMax())
}

// IntBelow is x <= v (inclusive) or x < v for a signed attribute.
func (a Attr) IntBelow(v int64, inclusive bool) Interval {
	if !inclusive {
		if v == math.MinInt64 {
			return EmptyInterval
		}
		v--
	}
	return a.rawInterval(0, IntCode(v, a.w()))
}

// IntBetween is lo <= x <= hi (SQL BETWEEN) for a signed attribute.
func (a Attr) IntBetween(lo, hi int64) Interval {
	return a.IntAbove(lo, true).Intersect(a.IntBelow(hi, true))
}

// IntEq is x = v for a signed attribute.
func (a Attr) IntEq(v int64) Interval { return a.IntBetween(v, v) }

// UintAbove is x >= v or x > v for an unsigned attribute.
func (a Attr) UintAbove(v uint64, inclusive bool) Interval {
	if !inclusive {
		if v == math.MaxUint64 {
			return EmptyInterval
		}
		v++
	}
	return a.rawInterval(UintCode(v, a.w()), a.rawMax())
}

// UintBelow is x <= v or x < v for an unsigned attribute.
func (a Attr) UintBelow(v uint64, inclusive bool) Interval {
	if !inclusive {
		if v == 0 {
			return EmptyInterval
		}
		v--
	}
	return a.rawInterval(0, UintCode(v, a.w()))
}

// UintBetween is lo <= x <= hi for an unsigned attribute.
func (a Attr) UintBetween(lo, hi uint64) Interval {
	return a.UintAbove(lo, true).Intersect(a.UintBelow(hi, true))
}

// FloatAbove is x >= v or x > v for a float attribute, in PostgreSQL's
// order where NaN is above every number (so x > 5 includes NaN).
func (a Attr) FloatAbove(v float64, inclusive bool) Interval {
	switch {
	case math.IsNaN(v):
		if !inclusive {
			return EmptyInterval
		}
	case !inclusive && math.IsInf(v, 1):
		v = math.NaN()
	case !inclusive:
		v = math.Nextafter(v+0, math.Inf(1)) // v+0 folds -0 to +0
	}
	return a.rawInterval(FloatCode(v, a.w()), a.rawMax())
}

// FloatBelow is x <= v or x < v for a float attribute.
func (a Attr) FloatBelow(v float64, inclusive bool) Interval {
	switch {
	case math.IsNaN(v):
		if !inclusive {
			v = math.Inf(1)
		}
	case !inclusive && math.IsInf(v, -1):
		return EmptyInterval
	case !inclusive:
		v = math.Nextafter(v+0, math.Inf(-1))
	}
	return a.rawInterval(0, FloatCode(v, a.w()))
}

// FloatBetween is lo <= x <= hi for a float attribute: the box side of
// WHERE lat BETWEEN 40.5 AND 40.9.
func (a Attr) FloatBetween(lo, hi float64) Interval {
	return a.FloatAbove(lo, true).Intersect(a.FloatBelow(hi, true))
}

// FloatEq is x = v for a float attribute (-0.0 and +0.0 match each other).
func (a Attr) FloatEq(v float64) Interval { return a.FloatBetween(v, v) }

// BoolEq is x = v for a boolean attribute.
func (a Attr) BoolEq(v bool) Interval {
	c := BoolCode(v, a.w())
	return a.rawInterval(c, c)
}

// BytesAbove is x >= v or x > v for a byte-string attribute. x > v means
// x >= v||0x00, the next string, which always shares v's prefix code: an
// exclusive lower bound on a prefix code stays inclusive.
func (a Attr) BytesAbove(v []byte, inclusive bool) Interval {
	// v||0x00 pads to v's own prefix, so both cases start at v's code.
	return a.rawInterval(BytesCode(v, a.w()), a.rawMax())
}

// BytesBelow is x <= v or x < v for a byte-string attribute. x < v drops
// v's code only when v is the smallest string with that code; otherwise a
// smaller string (a proper prefix of v, say) may share it.
func (a Attr) BytesBelow(v []byte, inclusive bool) Interval {
	c := BytesCode(v, a.w())
	if !inclusive {
		if len(v) == 0 {
			return EmptyInterval
		}
		if string(minBytesOfCode(c, a.w())) == string(v) {
			if c == 0 {
				return EmptyInterval
			}
			c--
		}
	}
	return a.rawInterval(0, c)
}

// BytesBetween is lo <= x <= hi for a byte-string attribute.
func (a Attr) BytesBetween(lo, hi []byte) Interval {
	return a.BytesAbove(lo, true).Intersect(a.BytesBelow(hi, true))
}

// BytesEq is x = v for a byte-string attribute.
func (a Attr) BytesEq(v []byte) Interval { return a.BytesBetween(v, v) }

// StringAbove is BytesAbove for a string.
func (a Attr) StringAbove(v string, inclusive bool) Interval {
	return a.BytesAbove([]byte(v), inclusive)
}

// StringBelow is BytesBelow for a string.
func (a Attr) StringBelow(v string, inclusive bool) Interval {
	return a.BytesBelow([]byte(v), inclusive)
}

// StringBetween is lo <= x <= hi for a string attribute.
func (a Attr) StringBetween(lo, hi string) Interval {
	return a.BytesBetween([]byte(lo), []byte(hi))
}

// StringEq is x = v for a string attribute.
func (a Attr) StringEq(v string) Interval { return a.StringBetween(v, v) }

// StringPrefix is x LIKE 'p%': every string starting with p.
func (a Attr) StringPrefix(p string) Interval {
	lo := a.StringAbove(p, true)
	// Strings with prefix p sort below p with its last non-0xff byte
	// incremented; without one, they run to the end of the space.
	end := []byte(p)
	for len(end) > 0 && end[len(end)-1] == 0xff {
		end = end[:len(end)-1]
	}
	if len(end) == 0 {
		return lo
	}
	end[len(end)-1]++
	return lo.Intersect(a.BytesBelow(end, false))
}
