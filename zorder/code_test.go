package zorder

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"
)

// attrCases are attributes of every type at default and narrowed widths.
var attrCases = []Attr{
	{Type: TypeInt}, {Type: TypeInt, Width: 16, Nullable: true}, {Type: TypeInt, Width: 5},
	{Type: TypeTimestamp, Nullable: true}, {Type: TypeDate},
	{Type: TypeUint}, {Type: TypeUint, Width: 7, Nullable: true},
	{Type: TypeFloat}, {Type: TypeFloat, Width: 32, Nullable: true}, {Type: TypeFloat, Width: 12},
	{Type: TypeBool}, {Type: TypeBool, Nullable: true},
	{Type: TypeBytes}, {Type: TypeBytes, Width: 16, Nullable: true}, {Type: TypeBytes, Width: 13},
}

// sample draws a value for an attribute and compares two of them in SQL
// order (floats: -0 = +0, NaN last).
type sampler struct {
	draw    func(r *rand.Rand) any
	code    func(a Attr, v any) uint64
	compare func(x, y any) int
	above   func(a Attr, v any, incl bool) Interval
	below   func(a Attr, v any, incl bool) Interval
}

func sqlFloatCmp(x, y float64) int {
	xn, yn := math.IsNaN(x), math.IsNaN(y)
	switch {
	case xn || yn:
		return boolInt(xn) - boolInt(yn)
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

func samplerFor(t Type) sampler {
	switch t {
	case TypeInt, TypeTimestamp, TypeDate:
		return sampler{
			draw: func(r *rand.Rand) any {
				if r.IntN(4) == 0 {
					return edgeInts[r.IntN(len(edgeInts))]
				}
				return int64(r.Uint64()) >> r.IntN(64)
			},
			code:    func(a Attr, v any) uint64 { return a.Int(v.(int64)) },
			compare: func(x, y any) int { return cmpInt(x.(int64), y.(int64)) },
			above:   func(a Attr, v any, incl bool) Interval { return a.IntAbove(v.(int64), incl) },
			below:   func(a Attr, v any, incl bool) Interval { return a.IntBelow(v.(int64), incl) },
		}
	case TypeUint:
		return sampler{
			draw: func(r *rand.Rand) any {
				if r.IntN(4) == 0 {
					return []uint64{0, 1, math.MaxUint64}[r.IntN(3)]
				}
				return r.Uint64() >> r.IntN(64)
			},
			code: func(a Attr, v any) uint64 { return a.Uint(v.(uint64)) },
			compare: func(x, y any) int {
				return cmpInt(int64(x.(uint64)^1<<63), int64(y.(uint64)^1<<63))
			},
			above: func(a Attr, v any, incl bool) Interval { return a.UintAbove(v.(uint64), incl) },
			below: func(a Attr, v any, incl bool) Interval { return a.UintBelow(v.(uint64), incl) },
		}
	case TypeFloat:
		return sampler{
			draw: func(r *rand.Rand) any {
				switch r.IntN(3) {
				case 0:
					return edgeFloats[r.IntN(len(edgeFloats))]
				case 1:
					return float64(r.IntN(9)-4) / 2 // collisions and neighbours
				}
				return math.Float64frombits(r.Uint64())
			},
			code:    func(a Attr, v any) uint64 { return a.Float(v.(float64)) },
			compare: func(x, y any) int { return sqlFloatCmp(x.(float64), y.(float64)) },
			above:   func(a Attr, v any, incl bool) Interval { return a.FloatAbove(v.(float64), incl) },
			below:   func(a Attr, v any, incl bool) Interval { return a.FloatBelow(v.(float64), incl) },
		}
	case TypeBool:
		return sampler{
			draw:    func(r *rand.Rand) any { return r.IntN(2) == 0 },
			code:    func(a Attr, v any) uint64 { return a.Bool(v.(bool)) },
			compare: func(x, y any) int { return boolInt(x.(bool)) - boolInt(y.(bool)) },
			above: func(a Attr, v any, incl bool) Interval {
				if !incl && v.(bool) {
					return EmptyInterval
				}
				if !incl || v.(bool) {
					return a.BoolEq(true)
				}
				return a.NotNull()
			},
			below: func(a Attr, v any, incl bool) Interval {
				if !incl && !v.(bool) {
					return EmptyInterval
				}
				if !incl || !v.(bool) {
					return a.BoolEq(false)
				}
				return a.NotNull()
			},
		}
	}
	return sampler{
		draw: func(r *rand.Rand) any {
			if r.IntN(3) == 0 {
				return string(edgeBytes[r.IntN(len(edgeBytes))])
			}
			b := make([]byte, r.IntN(11))
			for i := range b {
				b[i] = []byte{0, 1, 'a', 'b', 0xff}[r.IntN(5)]
			}
			return string(b)
		},
		code:    func(a Attr, v any) uint64 { return a.String(v.(string)) },
		compare: func(x, y any) int { return bytes.Compare([]byte(x.(string)), []byte(y.(string))) },
		above:   func(a Attr, v any, incl bool) Interval { return a.StringAbove(v.(string), incl) },
		below:   func(a Attr, v any, incl bool) Interval { return a.StringBelow(v.(string), incl) },
	}
}

func cmpInt(x, y int64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

func in(iv Interval, c uint64) bool { return c >= iv.Lo && c <= iv.Hi }

// TestCodesMonotone: a < b implies code(a) <= code(b), codes fit the
// width, and a nullable attribute's values all sit above the NULL code.
func TestCodesMonotone(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	for _, a := range attrCases {
		a.Width = a.w()
		sm := samplerFor(a.Type)
		for i := 0; i < 4000; i++ {
			x, y := sm.draw(r), sm.draw(r)
			cx, cy := sm.code(a, x), sm.code(a, y)
			if cx > a.maxCode() || (a.Nullable && cx == 0) {
				t.Fatalf("%+v: code(%v) = %d out of place", a, x, cx)
			}
			if c := sm.compare(x, y); (c < 0 && cx > cy) || (c == 0 && cx != cy) {
				t.Fatalf("%+v: %v vs %v compare %d but codes %d %d", a, x, y, c, cx, cy)
			}
		}
	}
}

// TestBoundsSoundAndTight: every value satisfying a bound has its code in
// the bound's interval (no row is lost), and, for attributes whose codes
// are one-to-one on the sampled values, no code outside the predicate is
// included at the interval's ends.
func TestBoundsSoundAndTight(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 34))
	for _, a := range attrCases {
		a.Width = a.w()
		sm := samplerFor(a.Type)
		for i := 0; i < 3000; i++ {
			v := sm.draw(r)
			incl := r.IntN(2) == 0
			above, below := sm.above(a, v, incl), sm.below(a, v, incl)
			if in(above, 0) && a.Nullable || in(below, 0) && a.Nullable {
				t.Fatalf("%+v: bound %v includes NULL", a, v)
			}
			for j := 0; j < 20; j++ {
				x := sm.draw(r)
				c, cx := sm.compare(x, v), sm.code(a, x)
				if (c > 0 || c == 0 && incl) && !in(above, cx) {
					t.Fatalf("%+v: %v above %v (incl %v) but code %d not in %v", a, x, v, incl, cx, above)
				}
				if (c < 0 || c == 0 && incl) && !in(below, cx) {
					t.Fatalf("%+v: %v below %v (incl %v) but code %d not in %v", a, x, v, incl, cx, below)
				}
			}
		}
	}
}

func TestBoundsExamples(t *testing.T) {
	i64 := Attr{Type: TypeInt, Width: 64}
	nullInt := Attr{Type: TypeInt, Width: 64, Nullable: true}
	txt := Attr{Type: TypeBytes, Width: 64}
	f := Attr{Type: TypeFloat, Width: 64, Nullable: true}
	tests := []struct {
		name string
		got  Interval
		want Interval
	}{
		{"x > 5", i64.IntAbove(5, false), Interval{i64.Int(6), math.MaxUint64}},
		{"x >= 5", i64.IntAbove(5, true), Interval{i64.Int(5), math.MaxUint64}},
		{"x < 5", i64.IntBelow(5, false), Interval{0, i64.Int(4)}},
		{"x > max", i64.IntAbove(math.MaxInt64, false), EmptyInterval},
		{"x < min", i64.IntBelow(math.MinInt64, false), EmptyInterval},
		{"nullable x >= min", nullInt.IntAbove(math.MinInt64, true), Interval{1, math.MaxUint64}},
		{"IS NULL", nullInt.IsNull(), Interval{0, 0}},
		{"IS NULL of NOT NULL", i64.IsNull(), EmptyInterval},
		{"text > 'abc' stays inclusive", txt.StringAbove("abc", false), Interval{txt.String("abc"), math.MaxUint64}},
		{"text < 'abc' drops its code", txt.StringBelow("abc", false), Interval{0, txt.String("abc") - 1}},
		{"text < 'abc\\x00' keeps it ('abc' shares it)", txt.StringBelow("abc\x00", false), Interval{0, txt.String("abc")}},
		{"text < 'abcdefghij' keeps the prefix", txt.StringBelow("abcdefghij", false), Interval{0, txt.String("abcdefgh")}},
		{"text < ''", txt.StringBelow("", false), EmptyInterval},
		{"LIKE 'ab%'", txt.StringPrefix("ab"), Interval{txt.String("ab"), txt.String("ac") - 1}},
		{"LIKE '\\xff%'", txt.StringPrefix("\xff"), Interval{txt.String("\xff"), math.MaxUint64}},
		{"lat BETWEEN 40.5 AND 40.9", f.FloatBetween(40.5, 40.9), Interval{f.Float(40.5), f.Float(40.9)}},
		{"x > 0 excludes both zeros", f.FloatAbove(math.Copysign(0, -1), false), Interval{f.Float(math.SmallestNonzeroFloat64), math.MaxUint64}},
		{"x = -0 finds +0", f.FloatEq(math.Copysign(0, -1)), Interval{f.Float(0), f.Float(0)}},
		{"x > +Inf is NaN", f.FloatAbove(math.Inf(1), false), Interval{f.Float(math.NaN()), f.Float(math.NaN())}},
		{"x < NaN is every number", f.FloatBelow(math.NaN(), false), Interval{1, f.Float(math.Inf(1))}},
		{"x > NaN", f.FloatAbove(math.NaN(), false), EmptyInterval},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, tt.got, tt.want)
		}
	}
}

func TestFloatCodeOrder(t *testing.T) {
	for i := 1; i < len(edgeFloats); i++ {
		a, b := FloatCode(edgeFloats[i-1], 64), FloatCode(edgeFloats[i], 64)
		zero := edgeFloats[i-1] == 0 && edgeFloats[i] == 0
		if zero && a != b || !zero && a >= b {
			t.Errorf("FloatCode(%v) = %x, FloatCode(%v) = %x", edgeFloats[i-1], a, edgeFloats[i], b)
		}
	}
}

func TestSchemaErrors(t *testing.T) {
	tests := [][]Attr{
		nil,
		make([]Attr, 9),
		{{Type: 0}},
		{{Type: TypeInt, Width: 65}},
		{{Type: TypeInt, Width: -1}},
	}
	for i, attrs := range tests {
		if _, err := NewSchema(attrs...); err == nil {
			t.Errorf("case %d: no error", i)
		}
	}
}
