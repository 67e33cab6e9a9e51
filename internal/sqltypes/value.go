package sqltypes

import (
	"cmp"
	"math"
	"strings"

	"github.com/cockroachdb/apd/v3"
)

// Kind is the physical representation of a Value.
type Kind uint8

// Value kinds. Several types share a kind: smallint, integer and bigint are
// KindInt; text and varchar are KindText. The kinds after KindUUID carry
// their datum in Value.X (see Value).
const (
	KindNull Kind = iota
	KindInt
	KindFloat
	KindBool
	KindText
	KindBytes
	KindTimestamp   // microseconds since 2000-01-01 (PostgreSQL's), no zone
	KindTimestampTZ // microseconds since 2000-01-01 UTC, an instant
	KindDate        // days since the Unix epoch
	KindUUID        // 16 raw bytes in S
	KindNumeric     // *apd.Decimal in X
	KindInterval    // IntervalValue in X
	KindBPChar      // char(n): the stored string in S, blank-padded to n
	KindJSON        // json: the input text, verbatim, in S
	KindJSONB       // jsonb: *JSONValue in X
	KindArray       // *ArrayValue in X
	KindTime        // µs since midnight in I
	KindTimeTZ      // TimeTZValue in X
	KindCitext      // citext: the string as written, in S; compares by its lower case
	KindHstore      // hstore: *HstoreValue in X
	KindEnum        // an enum: the label in S, its sort order in F, the *EnumType in X
	KindBit         // bit(n), varbit(n): the bits packed in S (pad bits zero), their number in I
	KindMoney       // money: cents in I
	KindRange       // a range: *RangeValue in X
	KindMultirange  // a multirange: *MultirangeValue in X
	KindInet        // inet and cidr: the order-preserving form in S, 1 in I for a cidr (net.go)
	KindMacAddr     // macaddr and macaddr8: the 6 or 8 bytes in S
	KindTSVector    // tsvector: *TSVector in X
	KindTSQuery     // tsquery: *TSQuery in X
	KindXML         // xml: the text as written, in S
	KindLSN         // pg_lsn: the unsigned 64-bit position in I
	KindXID         // xid: the 32-bit id in I
	KindXID8        // xid8: the unsigned 64-bit id in I
	KindTID         // tid: block<<16 | offset in I
	KindGeo         // a geometric type: a Point, LSeg, Box, Line, Path, Polygon or Circle in X (geo.go)
	KindGeometry    // geometry and geography: EWKB in S, 1 in I for a geography (geometry.go)
	KindJSONPath    // jsonpath: its canonical text in S, the *JSONPath in X when parsed (jsonpath.go)
	KindLtree       // ltree: its canonical text in S, which orders as ltree_cmp does (ltree.go)
	KindLquery      // lquery: its canonical text in S (ltree.go)
	KindLtxtquery   // ltxtquery: its canonical text in S (ltree.go)
)

// Value is one SQL datum. Which field holds the datum depends on K:
// I for ints, bools (0/1), timestamps (µs) and dates (days); F for floats;
// S for text, bytea (raw bytes), uuid (16 raw bytes), char(n) and json;
// X for numeric (*apd.Decimal), interval (IntervalValue), jsonb (*JSONValue)
// and arrays (*ArrayValue).
//
// The datum X points to is shared by copies of the Value and must never be
// modified: every function here returns fresh results. Values of the X
// kinds are not comparable with ==; use Equal.
type Value struct {
	K Kind
	I int64
	F float64
	S string
	X any
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
// TimestampInfinity and TimestampNegInfinity are PostgreSQL's ±infinity.
func NewTimestamp(us int64) Value { return Value{K: KindTimestamp, I: us} }

// NewTimestampTZ returns a timestamptz of µs since the epoch.
func NewTimestampTZ(us int64) Value { return Value{K: KindTimestampTZ, I: us} }

// NewDate returns a date of days since the epoch. DateInfinity and
// DateNegInfinity are PostgreSQL's ±infinity.
func NewDate(days int64) Value { return Value{K: KindDate, I: days} }

// NewUUID returns a uuid value from its 16 bytes.
func NewUUID(b [16]byte) Value { return Value{K: KindUUID, S: string(b[:])} }

// NewNumeric returns a numeric value holding d, which it takes over: the
// caller must not modify d afterwards. A negative zero becomes zero (numeric
// has no -0).
func NewNumeric(d *apd.Decimal) Value {
	if d.Form == apd.Finite && d.Negative && d.Coeff.Sign() == 0 {
		d.Negative = false
	}
	return Value{K: KindNumeric, X: d}
}

// NewInterval returns an interval value.
func NewInterval(iv IntervalValue) Value { return Value{K: KindInterval, X: iv} }

// NewBPChar returns a char(n) value whose stored form (already padded or
// truncated for its type) is s.
func NewBPChar(s string) Value { return Value{K: KindBPChar, S: s} }

// NewJSON returns a json value of already validated text.
func NewJSON(text string) Value { return Value{K: KindJSON, S: text} }

// NewJSONB returns a jsonb value of a parsed document.
func NewJSONB(j *JSONValue) Value { return Value{K: KindJSONB, X: j} }

// NewArray returns an array value.
func NewArray(a *ArrayValue) Value { return Value{K: KindArray, X: a} }

// IsNull reports whether v is NULL.
func (v Value) IsNull() bool { return v.K == KindNull }

// Bool returns the boolean of a KindBool value.
func (v Value) Bool() bool { return v.I != 0 }

// Numeric returns the decimal of a KindNumeric value (read-only).
func (v Value) Numeric() *apd.Decimal {
	d, _ := v.X.(*apd.Decimal)
	return d
}

// Interval returns the interval of a KindInterval value.
func (v Value) Interval() IntervalValue {
	iv, _ := v.X.(IntervalValue)
	return iv
}

// JSONB returns the document of a KindJSONB value (read-only).
func (v Value) JSONB() *JSONValue {
	switch j := v.X.(type) {
	case *JSONValue:
		return j
	case *storedJSONB:
		return j.parsed()
	}
	return nil
}

// Array returns the array of a KindArray value (read-only).
func (v Value) Array() *ArrayValue {
	a, _ := v.X.(*ArrayValue)
	return a
}

// AsFloat returns v as a float64 for numeric kinds (numeric rounds to the
// nearest float64).
func (v Value) AsFloat() float64 {
	switch v.K {
	case KindInt:
		return float64(v.I)
	case KindNumeric:
		return numericToFloat(v.Numeric())
	}
	return v.F
}

// Compare orders two non-NULL values of comparable kinds: -1, 0 or +1.
// Ints and floats compare numerically; floats follow PostgreSQL's total
// order (NaN above every number, -0 equal to +0). Numeric compares exactly
// with ints and numerics (NaN above +Infinity above every number) and as
// float8 with floats, as PostgreSQL's implicit casts do. Text compares by
// bytes, which for UTF-8 is code-point order (the "C" collation); char(n)
// ignores trailing blanks. Intervals compare by their span with 30-day
// months and 24-hour days; jsonb and arrays by PostgreSQL's btree order.
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
	case a.K == KindNumeric || b.K == KindNumeric:
		return compareNumericMixed(a, b)
	case a.K == KindCitext && b.K == KindCitext:
		return strings.Compare(CitextFold(a.S), CitextFold(b.S))
	case a.K == KindHstore && b.K == KindHstore:
		return CompareHstore(a.Hstore(), b.Hstore())
	case a.K == KindTSVector && b.K == KindTSVector:
		return CompareTSVector(a.TSVector(), b.TSVector())
	case a.K == KindTSQuery && b.K == KindTSQuery:
		return CompareTSQuery(a.TSQuery(), b.TSQuery())
	case a.K == KindEnum && b.K == KindEnum:
		return cmp.Compare(a.F, b.F)
	case a.K == KindBit && b.K == KindBit:
		return CompareBit(a, b)
	case a.K == KindRange && b.K == KindRange:
		return CompareRanges(a.Range(), b.Range())
	case a.K == KindMultirange && b.K == KindMultirange:
		return CompareMultiranges(a.Multirange(), b.Multirange())
	case a.K == KindBPChar || b.K == KindBPChar:
		return strings.Compare(bpcharCompareForm(a), bpcharCompareForm(b))
	case a.K == KindCitext || b.K == KindCitext:
		// citext beside text (never bound so; kept total): by the fold.
		return strings.Compare(compareForm(a), compareForm(b))
	case a.K == KindText || a.K == KindBytes || a.K == KindUUID || a.K == KindJSON || a.K == KindInet || a.K == KindMacAddr || a.K == KindLtree:
		// An ltree's text orders as ltree_cmp (ltree.go).
		return strings.Compare(a.S, b.S)
	case a.K == KindInterval && b.K == KindInterval:
		return CompareInterval(a.Interval(), b.Interval())
	case a.K == KindJSONB && b.K == KindJSONB:
		return CompareJSONB(a.JSONB(), b.JSONB())
	case a.K == KindArray && b.K == KindArray:
		return CompareArrays(a.Array(), b.Array())
	case a.K == KindTimeTZ && b.K == KindTimeTZ:
		return CompareTimeTZ(a.TimeTZ(), b.TimeTZ())
	case a.K == KindLSN || a.K == KindXID8:
		return cmp.Compare(uint64(a.I), uint64(b.I))
	case a.K == KindXML || a.K == KindJSONPath || a.K == KindLquery || a.K == KindLtxtquery:
		return strings.Compare(a.S, b.S) // no SQL operator; sorts for DISTINCT and hashing only
	case a.K == KindGeo && b.K == KindGeo:
		// No SQL ordering (the planner refuses ORDER BY, GROUP BY and
		// DISTINCT); a total order for what sorts values internally.
		return compareGeo(a, b)
	case a.K == KindGeometry:
		// By the EWKB bytes: equality is PostGIS's =; the order is not
		// PostGIS's (a Hilbert order of the boxes).
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

// bpcharCompareForm is the string a char(n) value compares by: without its
// trailing blanks (PostgreSQL's bpchar comparison, and bpchar's cast to
// text, ignore them). Other kinds compare by S unchanged.
func bpcharCompareForm(v Value) string {
	if v.K == KindBPChar {
		return strings.TrimRight(v.S, " ")
	}
	return v.S
}

// Equal reports whether two values are equal under Compare, treating two
// NULLs as equal (the grouping and DISTINCT notion, not SQL's =).
func Equal(a, b Value) bool { return Compare(a, b) == 0 }

// Bytes returns the raw bytes of a bytea or uuid value.
func (v Value) Bytes() []byte { return []byte(v.S) }

const fnvPrime = 1099511628211

func hashUint64(h, u uint64) uint64 {
	for i := 0; i < 8; i++ {
		h = (h ^ (u & 0xff)) * fnvPrime
		u >>= 8
	}
	return h
}

func hashString(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * fnvPrime
	}
	return h
}

// Hash mixes v into h (FNV-1a), consistently with Equal for values of one
// kind: 1.0 and 1.00 hash alike, as do '1 mon' and '30 days', and char(n)
// values that differ only in trailing blanks. Used for grouping and shard
// placement.
func (v Value) Hash(h uint64) uint64 {
	h = (h ^ uint64(v.K)) * fnvPrime
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
		h = hashUint64(h, math.Float64bits(f))
	case KindText, KindBytes, KindUUID, KindJSON, KindEnum, KindInet, KindMacAddr, KindXML, KindGeometry, KindJSONPath, KindLtree, KindLquery, KindLtxtquery:
		h = hashString(h, v.S)
	case KindGeo:
		h = hashString(h, string(AppendGeoBinary(nil, v)))
	case KindBPChar:
		h = hashString(h, strings.TrimRight(v.S, " "))
	case KindCitext:
		h = hashString(h, CitextFold(v.S))
	case KindHstore:
		h = hashHstore(h, v.Hstore())
	case KindRange:
		h = hashRange(h, v.Range())
	case KindMultirange:
		for _, r := range v.Multirange().Ranges {
			h = hashRange(h, r)
		}
	case KindTSVector:
		h = hashTSVector(h, v.TSVector())
	case KindTSQuery:
		h = hashTSQuery(h, v.TSQuery())
	case KindNumeric:
		h = hashNumeric(h, v.Numeric())
	case KindInterval:
		hi, lo := v.Interval().span()
		h = hashUint64(hashUint64(h, uint64(hi)), lo)
	case KindJSONB:
		h = hashJSONB(h, v.JSONB())
	case KindArray:
		h = hashArray(h, v.Array())
	case KindTimeTZ:
		t := v.TimeTZ()
		h = hashUint64(hashUint64(h, uint64(t.Micros)), uint64(t.Offset))
	case KindBit:
		h = hashUint64(hashString(h, v.S), uint64(v.I))
	default:
		h = hashUint64(h, uint64(v.I))
	}
	return h
}

// Identical reports whether a and b are the same datum, not just equal
// under Compare: numeric 1.0 and 1.00, intervals '1 mon' and '30 days',
// floats -0 and +0 are Equal but not Identical (they print differently).
// Writers use it to decide whether a stored copy (an index entry's
// included column) must be rewritten.
func Identical(a, b Value) bool {
	if a.K != b.K {
		return false
	}
	switch a.K {
	case KindFloat:
		return math.Float64bits(a.F) == math.Float64bits(b.F) || math.IsNaN(a.F) && math.IsNaN(b.F)
	case KindNumeric:
		x, y := a.Numeric(), b.Numeric()
		return x.Form == y.Form && x.Negative == y.Negative && x.Exponent == y.Exponent && x.Coeff.Cmp(&y.Coeff) == 0
	case KindInterval:
		return a.Interval() == b.Interval()
	case KindTimeTZ:
		return a.TimeTZ() == b.TimeTZ()
	case KindJSONB:
		return a.JSONB() == b.JSONB() || JSONBText(a.JSONB()) == JSONBText(b.JSONB())
	case KindHstore:
		return CompareHstore(a.Hstore(), b.Hstore()) == 0
	case KindRange:
		return identicalRanges(a.Range(), b.Range())
	case KindMultirange:
		x, y := a.Multirange(), b.Multirange()
		if !x.Typ.Same(y.Typ) || len(x.Ranges) != len(y.Ranges) {
			return false
		}
		for i := range x.Ranges {
			if !identicalRanges(x.Ranges[i], y.Ranges[i]) {
				return false
			}
		}
		return true
	case KindGeo:
		return compareGeo(a, b) == 0 // the same floats, bit for bit
	case KindTSVector:
		return CompareTSVector(a.TSVector(), b.TSVector()) == 0
	case KindTSQuery:
		return CompareTSQuery(a.TSQuery(), b.TSQuery()) == 0
	case KindArray:
		x, y := a.Array(), b.Array()
		if x == y {
			return true
		}
		if x.Elem != y.Elem || len(x.Elems) != len(y.Elems) || len(x.Dims) != len(y.Dims) {
			return false
		}
		for d := range x.Dims {
			if x.Dims[d] != y.Dims[d] || x.LowerBound(d) != y.LowerBound(d) {
				return false
			}
		}
		for i := range x.Elems {
			if !Identical(x.Elems[i], y.Elems[i]) {
				return false
			}
		}
		return true
	}
	return a.I == b.I && a.S == b.S
}
