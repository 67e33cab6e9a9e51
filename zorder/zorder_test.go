package zorder

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
)

// small is a schema small enough to enumerate every address.
type small struct {
	s      *Schema
	widths []int
	leads  []int
}

// randSmall makes a small schema; half of them have leads (Attr.Lead), so
// every brute-force check below covers data-aligned layouts too.
func randSmall(r *rand.Rand) small {
	dims := 2 + r.IntN(3)
	withLeads := r.IntN(2) == 0
	var attrs []Attr
	var widths, leads []int
	total := 0
	for d := 0; d < dims; d++ {
		w := 3 + r.IntN(4)
		if total+w > 14 {
			w = max(1, 14-total)
		}
		total += w
		lead := 0
		if withLeads {
			lead = r.IntN(w + 1)
		}
		widths = append(widths, w)
		leads = append(leads, lead)
		attrs = append(attrs, Attr{Type: TypeUint, Width: w, Lead: lead})
	}
	return small{s: MustSchema(attrs...), widths: widths, leads: leads}
}

// refInterleave lists, address bit by address bit from the top, the
// attribute and code bit it holds by the documented rule (Schema), computed
// independently of the schema's tables.
func refInterleave(widths, leads []int) (dims, bits []int) {
	maxLead := 0
	for _, l := range leads {
		maxLead = max(maxLead, l)
	}
	rounds := 0
	for d, w := range widths {
		rounds = max(rounds, maxLead-leads[d]+w)
	}
	for r := 0; r < rounds; r++ {
		for d, w := range widths {
			// Attribute d's top bit is in round maxLead-leads[d].
			if b := w - 1 - (r - (maxLead - leads[d])); b >= 0 && b < w {
				dims, bits = append(dims, d), append(bits, b)
			}
		}
	}
	return dims, bits
}

// refAddr computes the address of codes as an integer by the documented
// rule.
func (m small) refAddr(c []uint64) uint64 {
	var z uint64
	dims, bits := refInterleave(m.widths, m.leads)
	for i, d := range dims {
		z = z<<1 | c[d]>>uint(bits[i])&1
	}
	return z
}

func (m small) bytesOf(z uint64) []byte {
	n := m.s.AddrLen()
	out := make([]byte, n)
	z <<= uint(8*n - m.s.Bits())
	for i := n - 1; i >= 0; i-- {
		out[i] = byte(z)
		z >>= 8
	}
	return out
}

func (m small) intOf(b []byte) uint64 {
	var z uint64
	for _, c := range b {
		z = z<<8 | uint64(c)
	}
	return z >> uint(8*m.s.AddrLen()-m.s.Bits())
}

func (m small) randBox(r *rand.Rand) Box {
	b := m.s.Universe()
	for d, w := range m.widths {
		switch r.IntN(6) {
		case 0: // unbounded
		case 1: // point
			v := r.Uint64N(1 << uint(w))
			b[d] = Interval{v, v}
		case 2: // one-sided
			b[d].Lo = r.Uint64N(1 << uint(w))
		case 3:
			b[d].Hi = r.Uint64N(1 << uint(w))
		default:
			x, y := r.Uint64N(1<<uint(w)), r.Uint64N(1<<uint(w))
			if r.IntN(20) != 0 && x > y {
				x, y = y, x // sometimes empty
			}
			b[d] = Interval{x, y}
		}
	}
	return b
}

// inBox lists, by brute force, whether each address is in the box.
func (m small) inBox(b Box) []bool {
	n := uint64(1) << uint(m.s.Bits())
	in := make([]bool, n)
	var c codes
	for z := uint64(0); z < n; z++ {
		m.s.decode(m.bytesOf(z), &c)
		ok := true
		for d := range m.widths {
			ok = ok && c[d] >= b[d].Lo && c[d] <= b[d].Hi
		}
		in[z] = ok
	}
	return in
}

// covered marks the addresses the ranges hold and checks their shape.
func (m small) covered(t *testing.T, rs []Range) []bool {
	t.Helper()
	n := uint64(1) << uint(m.s.Bits())
	cov := make([]bool, n)
	prevHi := int64(-1)
	for i, r := range rs {
		lo := m.intOf(r.Lo)
		hi := n
		if r.Hi != nil {
			hi = m.intOf(r.Hi)
			if len(r.Hi) != m.s.AddrLen() {
				t.Fatalf("range %d: Hi of %d bytes", i, len(r.Hi))
			}
		} else if i != len(rs)-1 {
			t.Fatalf("range %d of %d is open-ended", i, len(rs))
		}
		if len(r.Lo) != m.s.AddrLen() || lo >= hi || int64(lo) <= prevHi {
			t.Fatalf("range %d [%d,%d) malformed or not after %d", i, lo, hi, prevHi)
		}
		prevHi = int64(hi)
		for z := lo; z < hi; z++ {
			cov[z] = true
		}
	}
	return cov
}

func TestInterleaveMatchesRule(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200; i++ {
		m := randSmall(r)
		c := make([]uint64, len(m.widths))
		for d, w := range m.widths {
			c[d] = r.Uint64N(1 << uint(w))
		}
		addr := m.s.Encode(c)
		if got, want := m.intOf(addr), m.refAddr(c); got != want {
			t.Fatalf("widths %v leads %v codes %v: address %b, want %b", m.widths, m.leads, c, got, want)
		}
		back, err := m.s.Decode(addr)
		if err != nil || !slices.Equal(back, c) {
			t.Fatalf("decode %v = %v, %v", c, back, err)
		}
	}
}

func TestInterleaveDocExample(t *testing.T) {
	s := MustSchema(Attr{Type: TypeUint, Width: 2}, Attr{Type: TypeUint, Width: 4})
	// a1 b3 a0 b2 b1 b0 with a = 0b10, b = 0b0111 gives 1 0 0 1 1 1.
	got := s.Encode([]uint64{0b10, 0b0111})
	if want := []byte{0b100111 << 2}; !bytes.Equal(got, want) {
		t.Fatalf("address %08b, want %08b", got, want)
	}
}

// TestLeadDocExample is Schema's example of leads: widths 4 and 4 with
// leads 2 and 0 give a3 a2 a1 b3 a0 b2 b1 b0.
func TestLeadDocExample(t *testing.T) {
	s := MustSchema(Attr{Type: TypeUint, Width: 4, Lead: 2}, Attr{Type: TypeUint, Width: 4})
	// a = 0b1010, b = 0b0110: a3 a2 a1 b3 a0 b2 b1 b0 = 1 0 1 0 0 1 1 0.
	got := s.Encode([]uint64{0b1010, 0b0110})
	if want := []byte{0b10100110}; !bytes.Equal(got, want) {
		t.Fatalf("address %08b, want %08b", got, want)
	}
	if _, err := NewSchema(Attr{Type: TypeUint, Width: 4, Lead: 5}); err == nil {
		t.Fatal("a lead wider than the attribute was accepted")
	}
}

func TestWideSchemaRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var attrs []Attr
	for i := 0; i < MaxAttrs; i++ {
		attrs = append(attrs, Attr{Type: TypeUint})
	}
	s := MustSchema(attrs...)
	if s.Bits() != 512 || s.AddrLen() != 64 {
		t.Fatalf("bits %d len %d", s.Bits(), s.AddrLen())
	}
	for i := 0; i < 100; i++ {
		c := make([]uint64, MaxAttrs)
		for d := range c {
			c[d] = r.Uint64()
		}
		back, _ := s.Decode(s.Encode(c))
		if !slices.Equal(back, c) {
			t.Fatalf("round trip %x -> %x", c, back)
		}
	}
}

func TestExactRangesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < raceScale(150, 50); i++ {
		m := randSmall(r)
		b := m.randBox(r)
		in := m.inBox(b)
		rs, ok := m.s.ExactRanges(b, 1<<20)
		if !ok {
			t.Fatal("exact cover over limit")
		}
		cov := m.covered(t, rs)
		if !slices.Equal(cov, in) {
			t.Fatalf("widths %v box %v: exact cover differs from the box", m.widths, b)
		}
		// Maximal runs: no two ranges touch.
		for j := 1; j < len(rs); j++ {
			if bytes.Equal(rs[j-1].Hi, rs[j].Lo) {
				t.Fatalf("ranges %d and %d touch", j-1, j)
			}
		}
		if len(rs) > 1 {
			if _, ok := m.s.ExactRanges(b, len(rs)-1); ok {
				t.Fatalf("limit %d accepted a %d-range cover", len(rs)-1, len(rs))
			}
		}
	}
}

// optimalCover is the fewest addresses any cover of at most k ranges can
// hold: the in-box runs merged across all but their k-1 largest gaps.
func optimalCover(in []bool, k int) (covered int, runs int) {
	var gaps []int
	first, last := -1, -1
	for z, ok := range in {
		if !ok {
			continue
		}
		if first < 0 {
			first = z
		} else if z > last+1 {
			gaps = append(gaps, z-last-1)
		}
		last = z
	}
	if first < 0 {
		return 0, 0
	}
	slices.Sort(gaps)
	covered = last - first + 1
	keep := min(k-1, len(gaps))
	for _, g := range gaps[len(gaps)-keep:] {
		covered -= g
	}
	return covered, len(gaps) + 1
}

func TestPlanBudgetedBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 150; i++ {
		m := randSmall(r)
		b := m.randBox(r)
		in := m.inBox(b)
		nIn := 0
		for _, ok := range in {
			if ok {
				nIn++
			}
		}
		for _, k := range []int{1, 2, 3, 4, 7, 16, 1000} {
			c := m.s.Plan(b, k)
			if len(c.Ranges) > k {
				t.Fatalf("budget %d: %d ranges", k, len(c.Ranges))
			}
			cov := m.covered(t, c.Ranges)
			n := 0
			for z := range in {
				if in[z] && !cov[z] {
					t.Fatalf("widths %v box %v budget %d: address %d in box but not covered", m.widths, b, k, z)
				}
				if cov[z] {
					n++
				}
			}
			want, runs := optimalCover(in, k)
			if n != want {
				t.Fatalf("widths %v box %v budget %d: covers %d addresses, optimum %d", m.widths, b, k, n, want)
			}
			if c.Covered != float64(n) || c.InBox != float64(nIn) {
				t.Fatalf("budget %d: reported covered %v in-box %v, counted %d %d", k, c.Covered, c.InBox, n, nIn)
			}
			if c.Exact != (n == nIn) {
				t.Fatalf("budget %d: Exact %v but covered %d of %d", k, c.Exact, n, nIn)
			}
			if k >= runs && len(c.Ranges) != runs {
				t.Fatalf("budget %d >= %d runs but %d ranges", k, runs, len(c.Ranges))
			}
		}
	}
}

func TestBigMinLitMaxBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for i := 0; i < raceScale(80, 24); i++ {
		m := randSmall(r)
		b := m.randBox(r)
		in := m.inBox(b)
		n := uint64(len(in))
		// nextIn[z] / prevIn[z]: the first in-box address > z / < z, or -1.
		nextIn, prevIn := make([]int64, n), make([]int64, n)
		for z, seen := int64(n)-1, int64(-1); z >= 0; z-- {
			nextIn[z] = seen
			if in[z] {
				seen = z
			}
		}
		for z, seen := int64(0), int64(-1); z < int64(n); z++ {
			prevIn[z] = seen
			if in[z] {
				seen = z
			}
		}
		for z := uint64(0); z < n; z++ {
			addr := m.bytesOf(z)
			wantNext, wantPrev := nextIn[z], prevIn[z]
			next, ok := m.s.BigMin(b, addr)
			if got := int64(-1); ok {
				got = int64(m.intOf(next))
				if got != wantNext {
					t.Fatalf("widths %v box %v BIGMIN(%d) = %d, want %d", m.widths, b, z, got, wantNext)
				}
			} else if wantNext >= 0 {
				t.Fatalf("BIGMIN(%d) none, want %d", z, wantNext)
			}
			prev, ok := m.s.LitMax(b, addr)
			if ok {
				if got := int64(m.intOf(prev)); got != wantPrev {
					t.Fatalf("widths %v box %v LITMAX(%d) = %d, want %d", m.widths, b, z, got, wantPrev)
				}
			} else if wantPrev >= 0 {
				t.Fatalf("LITMAX(%d) none, want %d", z, wantPrev)
			}
			if got := m.s.Contains(b, addr); got != in[z] {
				t.Fatalf("Contains(%d) = %v", z, got)
			}
		}
	}
}

// TestSkipScanVisitsExactlyTheBox drives NextInBox the way an ordered scan
// does: read the current key; if inside, emit it and step to the next key;
// otherwise seek.
func TestSkipScanVisitsExactlyTheBox(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for i := 0; i < raceScale(150, 50); i++ {
		m := randSmall(r)
		b := m.randBox(r)
		in := m.inBox(b)
		n := uint64(len(in))
		var visited []uint64
		seeks := 0
		for z := uint64(0); z < n; {
			inside, next, ok := m.s.NextInBox(b, m.bytesOf(z))
			if inside {
				visited = append(visited, z)
				z++
				continue
			}
			if !ok {
				break
			}
			seeks++
			nz := m.intOf(next)
			if nz <= z {
				t.Fatalf("seek from %d went back to %d", z, nz)
			}
			z = nz
		}
		var want []uint64
		for z, ok := range in {
			if ok {
				want = append(want, uint64(z))
			}
		}
		if !slices.Equal(visited, want) {
			t.Fatalf("widths %v box %v: visited %v, want %v", m.widths, b, visited, want)
		}
		if _, runs := optimalCover(in, 1); seeks > runs {
			t.Fatalf("%d seeks for %d runs", seeks, runs)
		}
	}
}
