package zorder

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// FuzzKeyDecode feeds arbitrary bytes to the tuple decoder: it must never
// panic, and whatever it accepts must re-encode to the bytes it consumed
// (the encoding is canonical).
func FuzzKeyDecode(f *testing.F) {
	f.Add([]byte{}, uint8(0))
	f.Add(AppendString(AppendInt(nil, -7, true), "a\x00b", false), uint8(0b01_11_00_01))
	f.Add(AppendFloat(AppendBool(nil, true, false), math.NaN(), true), uint8(0b11_01_10_10))
	f.Add([]byte{tagBytes, 0, 0xff, 0, 1}, uint8(3))
	f.Fuzz(func(t *testing.T, in []byte, layout uint8) {
		cols := make([]KeyColumn, 1+layout>>6)
		for i := range cols {
			bits := layout >> (2 * i)
			cols[i] = KeyColumn{Kind: allKinds[bits&3], Desc: (layout>>i)&1 == 1}
		}
		fields, rest, err := DecodeTuple(in, cols)
		if err != nil {
			return
		}
		again, err := AppendTuple(nil, cols, fields)
		if err != nil {
			t.Fatal(err)
		}
		if consumed := in[:len(in)-len(rest)]; !bytes.Equal(again, consumed) {
			t.Fatalf("decoded %+v from %x but it encodes as %x", fields, consumed, again)
		}
	})
}

// FuzzKeyOrder checks the order property on fuzzer-chosen values.
func FuzzKeyOrder(f *testing.F) {
	f.Add(int64(-1), int64(1), 0.0, math.Copysign(0, -1), "a", "a\x00", false)
	f.Add(int64(math.MinInt64), int64(math.MaxInt64), math.Inf(1), math.NaN(), "", "\xff", true)
	f.Fuzz(func(t *testing.T, i1, i2 int64, f1, f2 float64, s1, s2 string, desc bool) {
		cols := []KeyColumn{{KeyBytes, desc}, {KeyFloat, !desc}, {KeyInt, desc}}
		a := []KeyField{{Bytes: []byte(s1)}, {Float: f1}, {Int: i1}}
		b := []KeyField{{Bytes: []byte(s2)}, {Float: f2}, {Int: i2}}
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
			t.Fatalf("compare = %d, want %d", got, want)
		}
	})
}

// FuzzAttrCodes checks that codes of every type follow value order at a
// fuzzer-chosen width.
func FuzzAttrCodes(f *testing.F) {
	f.Add(int64(3), int64(-3), 1.5, -0.0, "ab", "ab\x00", uint8(13), false)
	f.Add(int64(math.MaxInt64), int64(math.MinInt64), math.NaN(), math.Inf(1), "", "\xff\xff", uint8(64), true)
	f.Fuzz(func(t *testing.T, i1, i2 int64, f1, f2 float64, s1, s2 string, width uint8, nullable bool) {
		w := 1 + int(width)%64
		check := func(typ Type, c int, x, y uint64) {
			if c < 0 && x > y || c == 0 && x != y || c > 0 && x < y {
				t.Fatalf("%v width %d: compare %d but codes %d, %d", typ, w, c, x, y)
			}
		}
		ai := Attr{Type: TypeInt, Width: w, Nullable: nullable}
		check(TypeInt, cmpInt(i1, i2), ai.Int(i1), ai.Int(i2))
		af := Attr{Type: TypeFloat, Width: w, Nullable: nullable}
		check(TypeFloat, sqlFloatCmp(f1, f2), af.Float(f1), af.Float(f2))
		as := Attr{Type: TypeBytes, Width: w, Nullable: nullable}
		check(TypeBytes, bytes.Compare([]byte(s1), []byte(s2)), as.String(s1), as.String(s2))
	})
}

// FuzzPlan decodes a small schema (widths and leads) and box from the input
// and checks the exact and budgeted covers, BIGMIN and the skip-scan step
// against brute force.
func FuzzPlan(f *testing.F) {
	f.Add([]byte{2, 3, 4, 0, 7, 2, 9}, uint8(3))
	f.Add([]byte{3, 5, 5, 2, 1, 31, 0, 31, 4, 4}, uint8(1))
	f.Add([]byte{4, 3, 3, 3, 4, 0, 0, 7, 7, 1, 6, 2, 2, 0, 15}, uint8(64))
	f.Fuzz(func(t *testing.T, in []byte, budget uint8) {
		if len(in) < 1 {
			return
		}
		dims := 2 + int(in[0])%3
		in = in[1:]
		next := func() uint64 {
			if len(in) == 0 {
				return 0
			}
			v := uint64(in[0])
			in = in[1:]
			return v
		}
		m := small{}
		var attrs []Attr
		for d := 0; d < dims; d++ {
			w := 1 + int(next())%6
			lead := int(next()) % (w + 1)
			m.widths, m.leads = append(m.widths, w), append(m.leads, lead)
			attrs = append(attrs, Attr{Type: TypeUint, Width: w, Lead: lead})
		}
		m.s = MustSchema(attrs...)
		b := m.s.Universe()
		for d, w := range m.widths {
			b[d] = Interval{next() % (1 << uint(w)), next() % (1 << uint(w))}
		}
		inBox := m.inBox(b)
		exact, ok := m.s.ExactRanges(b, 1<<16)
		if !ok || !slices.Equal(m.covered(t, exact), inBox) {
			t.Fatal("exact cover differs from the box")
		}
		k := 1 + int(budget)
		c := m.s.Plan(b, k)
		cov := m.covered(t, c.Ranges)
		n := 0
		for z := range inBox {
			if inBox[z] && !cov[z] {
				t.Fatalf("budget %d misses address %d", k, z)
			}
			if cov[z] {
				n++
			}
		}
		if want, _ := optimalCover(inBox, k); len(c.Ranges) > k || n != want {
			t.Fatalf("budget %d: %d ranges covering %d, optimum %d", k, len(c.Ranges), n, want)
		}
		z := binary.BigEndian.Uint64(append(make([]byte, 8-min(8, len(in))), in[:min(8, len(in))]...)) % uint64(len(inBox))
		inside, nextAddr, ok := m.s.NextInBox(b, m.bytesOf(z))
		want := -1
		for y := int(z); y < len(inBox); y++ {
			if inBox[y] {
				want = y
				break
			}
		}
		switch {
		case inside != (want == int(z)):
			t.Fatalf("NextInBox(%d) inside = %v", z, inside)
		case !inside && ok != (want >= 0):
			t.Fatalf("NextInBox(%d) ok = %v, want next %d", z, ok, want)
		case !inside && ok && int(m.intOf(nextAddr)) != want:
			t.Fatalf("NextInBox(%d) = %d, want %d", z, m.intOf(nextAddr), want)
		}
	})
}

// TestPlanWideBounded plans boxes over 8 attributes of 64 bits: the work
// bound keeps it fast, the cover respects the budget, is sorted, and holds
// random in-box points.
func TestPlanWideBounded(t *testing.T) {
	s := uniformSchema(MaxAttrs)
	r := rand.New(rand.NewPCG(41, 42))
	for _, box := range benchBoxes(s, 5, 3) {
		for _, k := range []int{1, 16, 256} {
			start := time.Now()
			c := s.Plan(box, k)
			if el := time.Since(start); el > 2*time.Second {
				t.Fatalf("8x64 plan with budget %d took %v", k, el)
			}
			if len(c.Ranges) == 0 || len(c.Ranges) > k || c.Covered < c.InBox {
				t.Fatalf("budget %d: %d ranges, covered %g of %g", k, len(c.Ranges), c.Covered, c.InBox)
			}
			for i := 1; i < len(c.Ranges); i++ {
				if bytes.Compare(c.Ranges[i-1].Hi, c.Ranges[i].Lo) >= 0 {
					t.Fatalf("ranges %d and %d overlap or touch", i-1, i)
				}
			}
			for j := 0; j < 200; j++ {
				p := make([]uint64, MaxAttrs)
				for d := range p {
					p[d] = box[d].Lo + r.Uint64N(box[d].Hi-box[d].Lo+1)
				}
				addr := s.Encode(p)
				i, _ := slices.BinarySearchFunc(c.Ranges, addr, func(rg Range, a []byte) int {
					if rg.Hi != nil && bytes.Compare(rg.Hi, a) <= 0 {
						return -1
					}
					if bytes.Compare(rg.Lo, a) > 0 {
						return 1
					}
					return 0
				})
				rg := c.Ranges[min(i, len(c.Ranges)-1)]
				if bytes.Compare(rg.Lo, addr) > 0 || rg.Hi != nil && bytes.Compare(addr, rg.Hi) >= 0 {
					t.Fatalf("budget %d: in-box point not covered", k)
				}
				// The skip-scan agrees the point is inside.
				if inside, _, _ := s.NextInBox(box, addr); !inside {
					t.Fatal("NextInBox says an in-box point is outside")
				}
			}
		}
	}
}

func TestPlanEdgeBoxes(t *testing.T) {
	s := MustSchema(Attr{Type: TypeInt, Width: 8}, Attr{Type: TypeInt, Width: 8})
	all := s.Plan(s.Universe(), 4)
	if len(all.Ranges) != 1 || all.Ranges[0].Hi != nil || !bytes.Equal(all.Ranges[0].Lo, []byte{0, 0}) || !all.Exact {
		t.Fatalf("universe: %+v", all)
	}
	empty := s.Universe()
	empty.Narrow(0, EmptyInterval)
	if c := s.Plan(empty, 4); len(c.Ranges) != 0 || c.InBox != 0 {
		t.Fatalf("empty box: %+v", c)
	}
	point := s.Universe()
	point.Narrow(0, s.Attr(0).IntEq(3))
	point.Narrow(1, s.Attr(1).IntEq(-2))
	c := s.Plan(point, 4)
	want := s.Encode([]uint64{s.Attr(0).Int(3), s.Attr(1).Int(-2)})
	if len(c.Ranges) != 1 || !bytes.Equal(c.Ranges[0].Lo, want) || c.InBox != 1 || !c.Exact {
		t.Fatalf("point box: %+v", c)
	}
	if got := s.Estimate(point); got != 1.0/65536 {
		t.Fatalf("point estimate %v", got)
	}
	half := s.Universe()
	half.Narrow(0, s.Attr(0).IntAbove(0, true))
	if got := s.Estimate(half); got != 0.5 {
		t.Fatalf("half estimate %v", got)
	}
	if inside, _, ok := s.NextInBox(empty, want); inside || ok {
		t.Fatal("skip-scan of an empty box")
	}
}
