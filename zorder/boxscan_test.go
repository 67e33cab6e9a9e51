package zorder

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestBoxScanMatchesBruteForce reads every address of small schemas (half
// of them data-aligned, with leads) in ascending, descending and random
// order, as forward, reverse and seeking scans would, through one BoxScan
// per box: each answer is the brute-force one (and NextInBox's), and each
// remembered cell lies wholly in the box, holds the key and is the largest
// aligned such cell. The boxes include unbounded and one-sided attributes,
// points, boxes at the code space's edges and empty boxes.
func TestBoxScanMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 30))
	for iter := 0; iter < raceScale(120, 20); iter++ {
		m := randSmall(r)
		b := m.randBox(r)
		if iter%7 == 0 {
			// A box at the edges: from code 0, or up to the largest.
			for d, w := range m.widths {
				if r.IntN(2) == 0 {
					b[d].Lo = 0
				} else {
					b[d].Hi = 1<<uint(w) - 1
				}
			}
		}
		in := m.inBox(b)
		n := len(in)
		orders := [][]int{make([]int, n), make([]int, n), r.Perm(n)}
		for i := range n {
			orders[0][i], orders[1][i] = i, n-1-i
		}
		for oi, order := range orders {
			bs := m.s.NewBoxScan(b)
			checked := -1 // the last cell checked, by its first address
			for _, z := range order {
				key := m.bytesOf(uint64(z))
				if r.IntN(3) == 0 {
					key = append(key, byte(r.IntN(256))) // a key suffix
				}
				inside, next, ok := bs.Next(key)
				wantIn, wantNext, wantOK := m.s.NextInBox(b, key)
				if inside != in[z] || inside != wantIn || ok != wantOK || !bytes.Equal(next, wantNext) {
					t.Fatalf("iter %d order %d: Next(%d) = %v %x %v, want %v %x %v", iter, oi, z, inside, next, ok, in[z], wantNext, wantOK)
				}
				if inside && int(m.intOf(bs.cellLo)) != checked {
					m.checkCell(t, bs, in, z)
					checked = int(m.intOf(bs.cellLo))
				} else if inside && (z < checked || z > int(m.intOf(bs.cellHi))) {
					t.Fatalf("cell [%x,%x] does not hold %d", bs.cellLo, bs.cellHi, z)
				}
			}
		}
	}
}

// checkCell checks the BoxScan's cell after an in-box key z: it holds z,
// every address in it is in the box, and the aligned cell one bit shorter
// is not wholly in the box.
func (m small) checkCell(t *testing.T, bs *BoxScan, in []bool, z int) {
	t.Helper()
	lo, hi := int(m.intOf(bs.cellLo)), int(m.intOf(bs.cellHi))
	if z < lo || z > hi {
		t.Fatalf("cell [%d,%d] does not hold %d", lo, hi, z)
	}
	for y := lo; y <= hi; y++ {
		if !in[y] {
			t.Fatalf("cell [%d,%d] of %d holds %d, outside the box", lo, hi, z, y)
		}
	}
	size := hi - lo + 1
	if size&(size-1) != 0 || lo%size != 0 {
		t.Fatalf("cell [%d,%d] is not aligned", lo, hi)
	}
	if size < len(in) {
		plo := lo &^ (2*size - 1)
		if !slices.Contains(in[plo:plo+2*size], false) {
			t.Fatalf("cell [%d,%d] of %d: its parent is in the box too", lo, hi, z)
		}
	}
}

// TestBoxScanWide checks BoxScan against NextInBox on 64-bit attributes
// (the float and integer codes of real schemas), default and data-aligned,
// for in-box points, points near the box's faces and random ones, and that
// a remembered cell's corners are in the box.
func TestBoxScanWide(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 29))
	for _, dims := range []int{2, 3} {
		for _, lead := range []int{0, 17} {
			attrs := make([]Attr, dims)
			for i := range attrs {
				attrs[i] = Attr{Type: TypeUint, Lead: lead * (i % 2)}
			}
			s := MustSchema(attrs...)
			for _, box := range benchBoxes(s, 20, uint64(dims+lead)) {
				if r.IntN(3) == 0 {
					box[dims-1] = s.Attr(dims - 1).Full() // an unbounded attribute
				}
				bs := s.NewBoxScan(box)
				var keys [][]byte
				for j := 0; j < 300; j++ {
					p := make([]uint64, dims)
					for d := range p {
						switch r.IntN(4) {
						case 0:
							p[d] = r.Uint64()
						case 1:
							p[d] = box[d].Lo - uint64(r.IntN(2))
						case 2:
							p[d] = box[d].Hi + uint64(r.IntN(2))
						default:
							p[d] = box[d].Lo + r.Uint64()
							if span := box[d].Hi - box[d].Lo; span < ^uint64(0) {
								p[d] = box[d].Lo + r.Uint64N(span+1)
							}
						}
					}
					keys = append(keys, s.Encode(p))
				}
				slices.SortFunc(keys, bytes.Compare)
				for _, key := range keys {
					inside, next, ok := bs.Next(key)
					wantIn, wantNext, wantOK := s.NextInBox(box, key)
					if inside != wantIn || ok != wantOK || !bytes.Equal(next, wantNext) {
						t.Fatalf("Next(%x) = %v %x %v, want %v %x %v", key, inside, next, ok, wantIn, wantNext, wantOK)
					}
					if inside && (!s.Contains(box, bs.cellLo) || !s.Contains(box, bs.cellHi)) {
						t.Fatalf("cell [%x,%x] of %x leaves the box", bs.cellLo, bs.cellHi, key)
					}
				}
			}
		}
	}
}

// TestBoxScanEmpty: an empty box has no key inside and nothing to seek to.
func TestBoxScanEmpty(t *testing.T) {
	s := MustSchema(Attr{Type: TypeInt, Width: 8}, Attr{Type: TypeInt, Width: 8})
	empty := s.Universe()
	empty.Narrow(0, EmptyInterval)
	bs := s.NewBoxScan(empty)
	for _, key := range [][]byte{{0, 0}, {0x80, 0x80}, {0xff, 0xff}} {
		if inside, _, ok := bs.Next(key); inside || ok {
			t.Fatalf("empty box: Next(%x) = %v, %v", key, inside, ok)
		}
	}
}
