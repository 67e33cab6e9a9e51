package sqltypes

import (
	"cmp"
	"math"
	"strings"
)

// Kind is the physical representation of a Value.
type Kind uint8

// Value kinds. Several types share a kind: smallint, integer and bigint are
// KindInt; text and varchar are KindText.
const (
	KindNull Kind = iota
	KindInt
	KindFloat
	KindBool
	KindText
	KindBytes
	KindTimestamp   // microseconds since the Unix epoch, no zone
	KindTimestampTZ // microseconds since the Unix epoch, an instant in UTC
	KindDate        // days since the Unix epoch
	KindUUID        // 16 raw bytes in S
)

// Value is one SQL datum. Which field holds the datum depends on K:
// I for ints, bools (0/1), timestamps (µs) and dates (days); F for floats;
// S for text, bytea (raw bytes) and uuid (16 raw bytes).
type Value struct {
	K Kind
	I int64
	F float64
	S string
}

// Null is the SQL NULL.
var Null = Value{}

// NewInt returns an integer value.
func NewInt(i int64) Value { return Value{K: KindInt, I: i} }

// NewFloat returns a floating-point value.
func NewFloat(f float64) Value { return Value{K: KindFloat, F: f} }

// NewBool returns a boolean value.
func NewBool(b bool) Value {
	if b {
		return Value{K: KindBool, I: 1}
	}
	return Value{K: KindBool}
}

// NewText returns a text value.
func NewText(s string) Value { return Value{K: KindText, S: s} }

// NewBytes returns a bytea value.
func NewBytes(b []byte) Value { return Value{K: KindBytes, S: string(b)} }

// NewTimestamp returns a timestamp (without time zone) of µs since the epoch.
func NewTimestamp(us int64) Value { return Value{K: KindTimestamp, I: us} }

// NewTimestampTZ returns a timestamptz of µs since the epoch.
func NewTimestampTZ(us int64) Value { return Value{K: KindTimestampTZ, I: us} }

// NewDate returns a date of days since the epoch.
func NewDate(days int64) Value { return Value{K: KindDate, I: days} }

// NewUUID returns a uuid value from its 16 bytes.
func NewUUID(b [16]byte) Value { return Value{K: KindUUID, S: string(b[:])} }

// IsNull reports whether v is NULL.
func (v Value) IsNull() bool { return v.K == KindNull }

// Bool returns the boolean of a KindBool value.
func (v Value) Bool() bool { return v.I != 0 }

// AsFloat returns v as a float64 for numeric kinds.
func (v Value) AsFloat() float64 {
	if v.K == KindInt {
		return float64(v.I)
	}
	return v.F
}

// Compare orders two non-NULL values of comparable kinds: -1, 0 or +1.
// Ints and floats compare numerically; floats follow PostgreSQL's total
// order (NaN above every number, -0 equal to +0). Text compares by bytes,
// which for UTF-8 is code-point order (the "C" collation).
// NULLs sort first; callers that need SQL three-valued logic check IsNull
// before calling.
func Compare(a, b Value) int {
	if a.K == KindNull || b.K == KindNull {
		switch {
		case a.K == b.K:
			return 0
		case a.K == KindNull:
			return -1
		default:
			return 1
		}
	}
	switch {
	case a.K == KindInt && b.K == KindInt:
		return cmp.Compare(a.I, b.I)
	case (a.K == KindInt || a.K == KindFloat) && (b.K == KindInt || b.K == KindFloat):
		return compareFloat(a.AsFloat(), b.AsFloat())
	case a.K == KindText || a.K == KindBytes || a.K == KindUUID:
		return strings.Compare(a.S, b.S)
	default:
		return cmp.Compare(a.I, b.I)
	}
}

func compareFloat(x, y float64) int {
	xn, yn := math.IsNaN(x), math.IsNaN(y)
	switch {
	case xn && yn:
		return 0
	case xn:
		return 1
	case yn:
		return -1
	}
	return cmp.Compare(x, y)
}

// Equal reports whether two values are equal under Compare, treating two
// NULLs as equal (the grouping and DISTINCT notion, not SQL's =).
func Equal(a, b Value) bool { return Compare(a, b) == 0 }

// Bytes returns the raw bytes of a bytea or uuid value.
func (v Value) Bytes() []byte { return []byte(v.S) }

// Hash mixes v into h (FNV-1a), consistently with Equal for values of one
// kind; used for grouping and shard placement.
func (v Value) Hash(h uint64) uint64 {
	const prime = 1099511628211
	h = (h ^ uint64(v.K)) * prime
	switch v.K {
	case KindNull:
	case KindFloat:
		f := v.F
		if f == 0 {
			f = 0 // fold -0 onto +0
		}
		if math.IsNaN(f) {
			f = math.NaN()
		}
		u := math.Float64bits(f)
		for i := 0; i < 8; i++ {
			h = (h ^ (u & 0xff)) * prime
			u >>= 8
		}
	case KindText, KindBytes, KindUUID:
		for i := 0; i < len(v.S); i++ {
			h = (h ^ uint64(v.S[i])) * prime
		}
	default:
		u := uint64(v.I)
		for i := 0; i < 8; i++ {
			h = (h ^ (u & 0xff)) * prime
			u >>= 8
		}
	}
	return h
}
