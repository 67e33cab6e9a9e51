package zorder

import (
	"bytes"
	"cmp"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// natural compares two values of one key kind in the documented order:
// NULL first, -0.0 just below +0.0, NaN last, bytes lexicographically.
func natural(k KeyKind, a, b KeyField) int {
	if a.Null || b.Null {
		return cmp.Compare(boolInt(!a.Null), boolInt(!b.Null))
	}
	switch k {
	case KeyInt:
		return cmp.Compare(a.Int, b.Int)
	case KeyBool:
		return cmp.Compare(boolInt(a.Bool), boolInt(b.Bool))
	case KeyBytes:
		return bytes.Compare(a.Bytes, b.Bytes)
	}
	x, y := a.Float, b.Float
	switch xn, yn := math.IsNaN(x), math.IsNaN(y); {
	case xn || yn:
		return cmp.Compare(boolInt(xn), boolInt(yn))
	case x == 0 && y == 0:
		return cmp.Compare(boolInt(!math.Signbit(x)), boolInt(!math.Signbit(y)))
	}
	return cmp.Compare(x, y)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

var edgeFloats = []float64{math.Inf(-1), -math.MaxFloat64, -1, -math.SmallestNonzeroFloat64,
	math.Copysign(0, -1), 0, math.SmallestNonzeroFloat64, 1, 40.5, math.MaxFloat64, math.Inf(1), math.NaN()}

var edgeInts = []int64{math.MinInt64, math.MinInt64 + 1, -1, 0, 1, math.MaxInt64 - 1, math.MaxInt64}

var edgeBytes = [][]byte{{}, {0}, {0, 0}, {0, 1}, {0xff}, {0xff, 0}, {0xff, 0xff}, []byte("a"), []byte("a\x00"),
	[]byte("a\x00b"), []byte("a\x01"), []byte("ab"), []byte("é"), []byte("日本"), []byte("\U0001F600"), []byte("z\xff")}

// randField draws a value of kind k, often an edge value, sometimes NULL.
func randField(r *rand.Rand, k KeyKind) KeyField {
	if r.IntN(10) == 0 {
		return KeyField{Null: true}
	}
	switch k {
	case KeyInt:
		if r.IntN(3) == 0 {
			return KeyField{Int: edgeInts[r.IntN(len(edgeInts))]}
		}
		return KeyField{Int: int64(r.Uint64()) >> r.IntN(64)}
	case KeyFloat:
		if r.IntN(3) == 0 {
			return KeyField{Float: edgeFloats[r.IntN(len(edgeFloats))]}
		}
		return KeyField{Float: math.Float64frombits(r.Uint64())} // includes NaN payloads
	case KeyBool:
		return KeyField{Bool: r.IntN(2) == 0}
	}
	if r.IntN(3) == 0 {
		return KeyField{Bytes: edgeBytes[r.IntN(len(edgeBytes))]}
	}
	b := make([]byte, r.IntN(6))
	for i := range b {
		b[i] = []byte{0, 1, 'a', 'b', 0xfe, 0xff}[r.IntN(6)]
	}
	return KeyField{Bytes: b}
}

var allKinds = []KeyKind{KeyInt, KeyFloat, KeyBool, KeyBytes}

func encodeOne(t testing.TB, c KeyColumn, f KeyField) []byte {
	b, err := AppendTuple(nil, []KeyColumn{c}, []KeyField{f})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestKeyOrderSingleColumn(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for _, k := range allKinds {
		for _, desc := range []bool{false, true} {
			c := KeyColumn{Kind: k, Desc: desc}
			for i := 0; i < 1500; i++ {
				a, b := randField(r, k), randField(r, k)
				want := natural(k, a, b)
				if desc {
					want = -want
				}
				if got := bytes.Compare(encodeOne(t, c, a), encodeOne(t, c, b)); got != want {
					t.Fatalf("%v desc=%v: compare(%+v, %+v) = %d, want %d", k, desc, a, b, got, want)
				}
			}
		}
	}
}

func TestKeyOrderEdgeValuesSorted(t *testing.T) {
	// Each edge list is in ascending order; adjacent pairs must encode in
	// strictly increasing order (so -0.0 and +0.0 are distinct).
	for i := 1; i < len(edgeFloats); i++ {
		a, b := AppendFloat(nil, edgeFloats[i-1], false), AppendFloat(nil, edgeFloats[i], false)
		if bytes.Compare(a, b) >= 0 {
			t.Errorf("float %v !< %v", edgeFloats[i-1], edgeFloats[i])
		}
	}
	for i := 1; i < len(edgeInts); i++ {
		if bytes.Compare(AppendInt(nil, edgeInts[i-1], false), AppendInt(nil, edgeInts[i], false)) >= 0 {
			t.Errorf("int %v !< %v", edgeInts[i-1], edgeInts[i])
		}
	}
	if bytes.Compare(AppendNull(nil, false), AppendInt(nil, math.MinInt64, false)) >= 0 {
		t.Error("NULL not first ascending")
	}
	if bytes.Compare(AppendNull(nil, true), AppendString(nil, "", true)) <= 0 {
		t.Error("NULL not last descending")
	}
	if !bytes.Equal(AppendFloat(nil, math.NaN(), false), AppendFloat(nil, -math.NaN(), false)) {
		t.Error("NaNs encode differently")
	}
}

func TestKeyOrderTuples(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	for i := 0; i < 1500; i++ {
		cols := make([]KeyColumn, 1+r.IntN(4))
		for j := range cols {
			cols[j] = KeyColumn{Kind: allKinds[r.IntN(len(allKinds))], Desc: r.IntN(2) == 0}
		}
		a, b := make([]KeyField, len(cols)), make([]KeyField, len(cols))
		for j, c := range cols {
			a[j] = randField(r, c.Kind)
			if r.IntN(2) == 0 {
				b[j] = a[j] // equal prefixes exercise the later columns
			} else {
				b[j] = randField(r, c.Kind)
			}
		}
		want := 0
		for j, c := range cols {
			if want = natural(c.Kind, a[j], b[j]); want != 0 {
				if c.Desc {
					want = -want
				}
				break
			}
		}
		ea, _ := AppendTuple(nil, cols, a)
		eb, _ := AppendTuple(nil, cols, b)
		if got := bytes.Compare(ea, eb); got != want {
			t.Fatalf("cols %v: compare(%+v, %+v) = %d, want %d", cols, a, b, got, want)
		}
		// Round trip, with a suffix after the tuple left untouched.
		fields, rest, err := DecodeTuple(append(ea, 0xAB), cols)
		if err != nil || !bytes.Equal(rest, []byte{0xAB}) {
			t.Fatalf("decode: %v rest %x", err, rest)
		}
		for j, c := range cols {
			if natural(c.Kind, fields[j], a[j]) != 0 {
				t.Fatalf("column %d: decoded %+v, want %+v", j, fields[j], a[j])
			}
		}
		// SkipColumn steps over the same bytes.
		p := ea
		for _, c := range cols {
			if p, err = SkipColumn(p, c.Desc); err != nil {
				t.Fatal(err)
			}
		}
		if len(p) != 0 {
			t.Fatalf("skip left %x", p)
		}
	}
}

func TestKeyDecodeErrors(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		kind KeyKind
		desc bool
	}{
		{"empty", nil, KeyInt, false},
		{"truncated int", AppendInt(nil, 5, false)[:5], KeyInt, false},
		{"wrong kind", AppendInt(nil, 5, false), KeyFloat, false},
		{"wrong direction", AppendInt(nil, 5, false), KeyInt, true},
		{"bad bool", []byte{tagBool, 7}, KeyBool, false},
		{"unterminated", AppendString(nil, "abc", false)[:4], KeyBytes, false},
		{"bad escape", []byte{tagBytes, 'a', 0, 7}, KeyBytes, false},
		{"escape at end", []byte{tagBytes, 'a', 0}, KeyBytes, false},
		{"odd NaN", append([]byte{tagFloat}, 0xff, 0xf8, 0, 0, 0, 0, 0, 1), KeyFloat, false},
		{"unterminated desc", AppendString(nil, "abc", true)[:3], KeyBytes, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := DecodeTuple(tt.in, []KeyColumn{{Kind: tt.kind, Desc: tt.desc}})
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("err = %v, want ErrCorrupt", err)
			}
		})
	}
}

func TestDecodeNull(t *testing.T) {
	for _, desc := range []bool{false, true} {
		b := AppendNull(nil, desc)
		b = AppendBool(b, true, desc)
		null, rest, err := DecodeNull(b, desc)
		if err != nil || !null {
			t.Fatalf("desc=%v: %v %v", desc, null, err)
		}
		null, rest2, err := DecodeNull(rest, desc)
		if err != nil || null || len(rest2) != len(rest) {
			t.Fatalf("desc=%v: non-null read as %v", desc, null)
		}
		v, null, _, err := DecodeBool(rest2, desc)
		if err != nil || null || !v {
			t.Fatalf("bool: %v %v %v", v, null, err)
		}
	}
}

func BenchmarkAppendTuple(b *testing.B) {
	b.ReportAllocs()
	buf := make([]byte, 0, 64)
	for b.Loop() {
		buf = AppendInt(buf[:0], 42, false)
		buf = AppendInt(buf, 1700000000000000, true)
		buf = AppendString(buf, "sensor-17", false)
	}
}
