package zorder

import (
	"encoding/binary"
	"fmt"
)

// MaxAttrs is the most attributes a Schema interleaves.
const MaxAttrs = 8

// codes holds one code per attribute; fixed-size so the hot paths never
// allocate.
type codes = [MaxAttrs]uint64

// Schema is a Z-order layout: the attributes in order with their widths.
// It fully determines the Z-address of every tuple of codes.
//
// Interleaving rule: bits are taken from the most significant end in
// rounds. Round r (r = 0, 1, …) takes bit width-1-r of every attribute
// whose width is greater than r, in schema order. So attributes are aligned
// at their most significant bit, and a narrower attribute runs out of bits
// early: every attribute halves its range in the first rounds, and the
// wider ones keep refining after it is exhausted. With widths 2 and 4 the
// address is a1 b3 a0 b2 b1 b0 (a = first attribute, digits = bit index).
//
// Leads shift that alignment. An attribute with Lead l takes part l rounds
// before the attributes with lead 0 (the rounds are counted from the
// largest lead), so its top l bits come first and its bit width-1-l is
// interleaved with the others' top bits. A data-aligned layout gives each
// attribute the lead of the top bits its data leaves fixed (lat in
// [40, 41) as a float code fixes 17): those bits split no data, and every
// attribute's varying bits then start in the same round, so a box that is
// a cube in the data is a cube in address space. Without leads the curve
// splits the attributes whose data spans more of their code space for
// several rounds before the others vary at all, and a cube in the data is
// a slab in address space, which ranges and a skip-scan cover badly. With
// widths 4 and 4 and leads 2 and 0 the address is a3 a2 a1 b3 a0 b2 b1 b0.
//
// A Schema is immutable and safe for concurrent use.
type Schema struct {
	attrs   []Attr
	bits    int
	addrLen int
	// posDim and posBit give, for each address bit from the most
	// significant (position 0), the attribute and the code bit it holds.
	posDim []uint8
	posBit []uint8
	// consumed[k*dims+d] is how many top bits of attribute d the first k
	// address bits hold: the shape of the aligned subcube at depth k.
	consumed []uint8
	// bitPos[d*MaxWidth+b] is the address position of bit b of attribute d.
	bitPos []uint16
	// words is the address length in 64-bit words, the form the planner
	// works in; dimMask[d*words+w] has the address bits of attribute d in
	// word w, and lastMask the used bits of the last word.
	words    int
	dimMask  []uint64
	lastMask uint64
	// blocks cut the address into runs of up to 64 bits, each holding
	// whole rounds of one segment, which decode de-interleaves a word at a
	// time.
	blocks []block
	// maxCodes[d] is attribute d's largest code.
	maxCodes []uint64
}

// block is a run of nbits address bits from position pos holding whole
// rounds of m attributes: lane i (attribute lanes[i].d) has bits i, i+m,
// … from the top of the run, which are the code bits just above
// lanes[i].shift.
type block struct {
	pos      int
	nbits, m uint8
	stages   uint8 // compaction steps that gather nbits/m lane bits
	lanes    [MaxAttrs]lane
}

type lane struct{ d, shift uint8 }

// laneMasks[m][s] selects, in a word whose bits belong to m interleaved
// lanes, the groups of 2^s consecutive lane bits after s compaction steps:
// 2^s ones every m·2^s bits. Step s ORs each odd group onto the even one
// before it (a shift by (m-1)·2^s) and masks with laneMasks[m][s+1].
var laneMasks = func() (t [MaxAttrs + 1][7]uint64) {
	for m := 1; m <= MaxAttrs; m++ {
		for s := 0; s < 7; s++ {
			g := 1 << uint(s)
			for at := 0; at < 64; at += g * m {
				t[m][s] |= maxOf(g) << uint(at)
			}
		}
	}
	return t
}()

// segment is a run of rounds [r0, r1) in which the same attributes take
// part.
type segment struct {
	r0, r1 int
	dims   []uint8
}

// NewSchema builds a schema from 1 to 8 attributes. Widths of 0 take the
// type's default; others must be 1..64.
func NewSchema(attrs ...Attr) (*Schema, error) {
	if len(attrs) == 0 || len(attrs) > MaxAttrs {
		return nil, fmt.Errorf("zorder: a schema has 1 to %d attributes, not %d", MaxAttrs, len(attrs))
	}
	s := &Schema{attrs: make([]Attr, len(attrs))}
	maxLead := 0
	for i, a := range attrs {
		if a.Type < TypeUint || a.Type > TypeBytes {
			return nil, fmt.Errorf("zorder: attribute %d (%s) has unknown type %v", i, a.Name, a.Type)
		}
		if a.Width == 0 {
			a.Width = DefaultWidth(a.Type, a.Nullable)
		}
		if a.Width < 1 || a.Width > MaxWidth {
			return nil, fmt.Errorf("zorder: attribute %d (%s) has width %d, want 1..%d", i, a.Name, a.Width, MaxWidth)
		}
		if a.Lead < 0 || a.Lead > a.Width {
			return nil, fmt.Errorf("zorder: attribute %d (%s) has lead %d, want 0..%d (its width)", i, a.Name, a.Lead, a.Width)
		}
		s.attrs[i] = a
		s.bits += a.Width
		maxLead = max(maxLead, a.Lead)
	}
	// Attribute d takes part in rounds [first[d], first[d]+width): round r
	// holds its bit width-1-(r-first[d]).
	var first [MaxAttrs]int
	rounds := 0
	for d, a := range s.attrs {
		first[d] = maxLead - a.Lead
		rounds = max(rounds, first[d]+a.Width)
	}
	takesPart := func(d, r int) bool { return r >= first[d] && r < first[d]+s.attrs[d].Width }
	s.addrLen = (s.bits + 7) / 8
	for _, a := range s.attrs {
		s.maxCodes = append(s.maxCodes, a.maxCode())
	}
	dims := len(attrs)
	s.posDim = make([]uint8, 0, s.bits)
	s.posBit = make([]uint8, 0, s.bits)
	s.bitPos = make([]uint16, dims*MaxWidth)
	s.consumed = make([]uint8, (s.bits+1)*dims)
	used := make([]uint8, dims)
	for r := 0; r < rounds; r++ {
		for d, a := range s.attrs {
			if !takesPart(d, r) {
				continue
			}
			bit := a.Width - 1 - (r - first[d])
			k := len(s.posDim)
			copy(s.consumed[k*dims:(k+1)*dims], used)
			s.posDim = append(s.posDim, uint8(d))
			s.posBit = append(s.posBit, uint8(bit))
			s.bitPos[d*MaxWidth+bit] = uint16(k)
			used[d]++
		}
	}
	copy(s.consumed[s.bits*dims:], used)
	s.words = (s.bits + 63) / 64
	s.lastMask = ^uint64(0) << uint(64*s.words-s.bits)
	s.dimMask = make([]uint64, dims*s.words)
	for p, d := range s.posDim {
		s.dimMask[int(d)*s.words+p>>6] |= 1 << uint(63-p&63)
	}
	// segments are the runs of rounds with the same attributes taking
	// part; blocks are cut from them.
	var segments []segment
	for r := 0; r < rounds; {
		seg := segment{r0: r, r1: rounds}
		for d, a := range s.attrs {
			if takesPart(d, r) {
				seg.dims = append(seg.dims, uint8(d))
				// The segment ends when an attribute runs out of bits ...
				seg.r1 = min(seg.r1, first[d]+a.Width)
			} else if first[d] > r {
				// ... or one with a smaller lead joins.
				seg.r1 = min(seg.r1, first[d])
			}
		}
		segments = append(segments, seg)
		r = seg.r1
	}
	pos := 0
	for _, seg := range segments {
		m := len(seg.dims)
		per := 64 / m // rounds per block
		for ra := seg.r0; ra < seg.r1; ra += per {
			rb := min(seg.r1, ra+per)
			b := block{pos: pos, nbits: uint8((rb - ra) * m), m: uint8(m)}
			for 1<<b.stages < rb-ra {
				b.stages++
			}
			for i, d := range seg.dims {
				// The lowest code bit the block holds is the one of round rb-1.
				b.lanes[i] = lane{d: d, shift: uint8(s.attrs[d].Width + first[d] - rb)}
			}
			s.blocks = append(s.blocks, b)
			pos += (rb - ra) * m
		}
	}
	return s, nil
}

// MustSchema is NewSchema that panics on error, for fixed schemas in tests
// and package-level variables.
func MustSchema(attrs ...Attr) *Schema {
	s, err := NewSchema(attrs...)
	if err != nil {
		panic(err)
	}
	return s
}

// Attrs returns the attributes with their widths resolved.
func (s *Schema) Attrs() []Attr { return append([]Attr(nil), s.attrs...) }

// Attr returns attribute i with its width resolved; its methods map values
// and SQL bounds to codes.
func (s *Schema) Attr(i int) Attr { return s.attrs[i] }

// Dims is the number of attributes.
func (s *Schema) Dims() int { return len(s.attrs) }

// Bits is the Z-address width in bits: the sum of the attribute widths.
func (s *Schema) Bits() int { return s.bits }

// AddrLen is the Z-address length in bytes, ceil(Bits/8). Unused low bits
// of the last byte are zero.
func (s *Schema) AddrLen() int { return s.addrLen }

// Encode interleaves one code per attribute into a new Z-address. Codes
// above an attribute's largest code are clamped to it.
func (s *Schema) Encode(c []uint64) []byte {
	return s.AppendAddress(make([]byte, 0, s.addrLen), c)
}

// AppendAddress appends the Z-address of the codes to dst.
func (s *Schema) AppendAddress(dst []byte, c []uint64) []byte {
	if len(c) != len(s.attrs) {
		panic(fmt.Sprintf("zorder: %d codes for a %d-attribute schema", len(c), len(s.attrs)))
	}
	var v codes
	for d, a := range s.attrs {
		v[d] = min(c[d], a.maxCode())
	}
	return s.appendAddr(dst, &v)
}

func (s *Schema) appendAddr(dst []byte, v *codes) []byte {
	// Each block's bits are spread from the codes (the inverse of
	// decode's compaction) and ORed in at its position; the slack after the
	// address lets every block write 9 bytes unchecked.
	var buf [maxWords*8 + 8]byte
	for bi := range s.blocks {
		b := &s.blocks[bi]
		m := uint(b.m)
		mk := &laneMasks[m]
		rounds := maxOf(int(b.nbits) / int(m))
		var x uint64
		for l := range m {
			y := v[b.lanes[l].d] >> b.lanes[l].shift & rounds
			x |= spreadLane(y, mk, m-1, b.stages) << (m - 1 - l)
		}
		x <<= 64 - uint(b.nbits)
		i, off := b.pos>>3, uint(b.pos&7)
		binary.BigEndian.PutUint64(buf[i:], binary.BigEndian.Uint64(buf[i:])|x>>off)
		if off > 0 {
			buf[i+8] |= byte(x << (8 - off))
		}
	}
	return append(dst, buf[:s.addrLen]...)
}

// Decode splits a Z-address back into one code per attribute. addr must be
// at least AddrLen bytes; bytes after the address (a key suffix) are
// ignored.
func (s *Schema) Decode(addr []byte) ([]uint64, error) {
	if len(addr) < s.addrLen {
		return nil, fmt.Errorf("zorder: address of %d bytes, want %d", len(addr), s.addrLen)
	}
	var v codes
	s.decode(addr, &v)
	return append([]uint64(nil), v[:len(s.attrs)]...), nil
}

// decode reads the first AddrLen bytes of addr, zero-padding a shorter one.
// It takes a block of whole rounds (up to 64 bits) at a time and gathers
// each attribute's bits out of it with a few shift-and-mask steps, instead
// of a loop over every address bit: the skip-scan calls it on every key.
func (s *Schema) decode(addr []byte, v *codes) {
	*v = codes{}
	// A zero-padded copy lets every block read 9 bytes unchecked.
	var buf [maxWords*8 + 8]byte
	copy(buf[:s.addrLen], addr)
	for bi := range s.blocks {
		b := &s.blocks[bi]
		i, off := b.pos>>3, uint(b.pos&7)
		x := binary.BigEndian.Uint64(buf[i:]) << off
		if off > 0 {
			x |= uint64(buf[i+8]) >> (8 - off)
		}
		x >>= 64 - uint(b.nbits)
		m := uint(b.m)
		mk := &laneMasks[m]
		for l := range m {
			y := compact(x>>(m-1-l)&mk[0], mk, m-1, b.stages)
			v[b.lanes[l].d] |= y << b.lanes[l].shift
		}
	}
}

// compact gathers the lane bits of y, one every m = gap+1 bits from bit 0
// up, into its low bits, in the given number of steps (see laneMasks).
// The steps are written out: a loop costs more than the steps themselves.
func compact(y uint64, mk *[7]uint64, gap uint, stages uint8) uint64 {
	if stages > 0 {
		y = (y | y>>gap) & mk[1]
		if stages > 1 {
			y = (y | y>>(gap<<1)) & mk[2]
			if stages > 2 {
				y = (y | y>>(gap<<2)) & mk[3]
				if stages > 3 {
					y = (y | y>>(gap<<3)) & mk[4]
					if stages > 4 {
						y = (y | y>>(gap<<4)) & mk[5]
						if stages > 5 {
							y = (y | y>>(gap<<5)) & mk[6]
						}
					}
				}
			}
		}
	}
	return y
}

// spreadLane is the inverse of compact: it moves the low bits of y to one
// every gap+1 bits from bit 0 up.
func spreadLane(y uint64, mk *[7]uint64, gap uint, stages uint8) uint64 {
	for st := int(stages) - 1; st >= 0; st-- {
		y = (y | y<<(gap<<uint(st))) & mk[st]
	}
	return y
}

// Box is a query box: one inclusive Interval of codes per attribute. An
// attribute the query leaves unbounded has its Full interval; build a box
// with Schema.Universe and narrow it with Box.Narrow.
type Box []Interval

// Universe is the box of every address: each attribute unbounded, NULL
// included.
func (s *Schema) Universe() Box {
	b := make(Box, len(s.attrs))
	for d, a := range s.attrs {
		b[d] = a.Full()
	}
	return b
}

// Narrow intersects attribute i's interval with iv: the AND of one more
// predicate.
func (b Box) Narrow(i int, iv Interval) { b[i] = b[i].Intersect(iv) }

// Empty reports whether some attribute's interval is empty, so no address
// is in the box.
func (b Box) Empty() bool {
	for _, iv := range b {
		if iv.Empty() {
			return true
		}
	}
	return false
}

// clip checks the box against the schema and returns its bounds with each
// Hi clamped to the attribute's largest code; ok is false for an empty box.
func (s *Schema) clip(b Box) (lo, hi codes, ok bool) {
	if len(b) != len(s.attrs) {
		panic(fmt.Sprintf("zorder: box of %d attributes for a %d-attribute schema", len(b), len(s.attrs)))
	}
	for d, top := range s.maxCodes {
		lo[d], hi[d] = b[d].Lo, min(b[d].Hi, top)
		if lo[d] > hi[d] {
			return lo, hi, false
		}
	}
	return lo, hi, true
}

// Contains reports whether the address (its first AddrLen bytes) is in the
// box.
func (s *Schema) Contains(b Box, addr []byte) bool {
	lo, hi, ok := s.clip(b)
	if !ok {
		return false
	}
	var z codes
	s.decode(addr, &z)
	return s.inside(&lo, &hi, &z)
}

func (s *Schema) inside(lo, hi, z *codes) bool {
	for d := range s.attrs {
		if z[d] < lo[d] || z[d] > hi[d] {
			return false
		}
	}
	return true
}

// The load operations of Tropf & Herzog: set the code bit m (a one-bit
// mask) and the bits below it to 1000… or 0111…, keeping the bits above.
func load1000(x, m uint64) uint64 { return x&^(m|(m-1)) | m }
func load0111(x, m uint64) uint64 { return x&^(m|(m-1)) | (m - 1) }

// atOrAfter is the smallest in-box address >= z (BIGMIN of Tropf & Herzog,
// made inclusive): it walks the address bits from the top, keeping the box
// clipped to the subcube that holds z, and remembers the smallest in-box
// point of the upper half each time z goes into the lower half.
func (s *Schema) atOrAfter(lo, hi, z *codes) (codes, bool) {
	mn, mx := *lo, *hi
	var cand codes
	haveCand := false
	for p, d := range s.posDim {
		m := uint64(1) << s.posBit[p]
		zb, nb, xb := z[d]&m != 0, mn[d]&m != 0, mx[d]&m != 0
		switch {
		case zb == nb && nb == xb:
			// z, min and max agree: stay in this half.
		case !zb && !nb: // max is in the upper half, z in the lower
			cand = mn
			cand[d] = load1000(mn[d], m)
			haveCand = true
			mx[d] = load0111(mx[d], m)
		case !zb: // the box lies wholly in the upper half, above z
			return mn, true
		case !xb: // the box lies wholly in the lower half, below z
			return cand, haveCand
		default: // z in the upper half, min in the lower
			mn[d] = load1000(mn[d], m)
		}
	}
	return *z, true
}

// atOrBefore is the largest in-box address <= z (LITMAX, inclusive).
func (s *Schema) atOrBefore(lo, hi, z *codes) (codes, bool) {
	mn, mx := *lo, *hi
	var cand codes
	haveCand := false
	for p, d := range s.posDim {
		m := uint64(1) << s.posBit[p]
		zb, nb, xb := z[d]&m != 0, mn[d]&m != 0, mx[d]&m != 0
		switch {
		case zb == nb && nb == xb:
		case !zb && !nb: // z in the lower half, max in the upper
			mx[d] = load0111(mx[d], m)
		case !zb: // the box lies wholly above z
			return cand, haveCand
		case !xb: // the box lies wholly below z
			return mx, true
		default: // z in the upper half, min in the lower
			cand = mx
			cand[d] = load0111(mx[d], m)
			haveCand = true
			mn[d] = load1000(mn[d], m)
		}
	}
	return *z, true
}

// BigMin is the smallest in-box address strictly greater than addr, or
// ok false when there is none. addr is read as in Contains.
func (s *Schema) BigMin(b Box, addr []byte) (next []byte, ok bool) {
	lo, hi, ok := s.clip(b)
	if !ok {
		return nil, false
	}
	a := s.fixed(addr)
	if !s.step(a, +1) {
		return nil, false
	}
	var z codes
	s.decode(a, &z)
	r, ok := s.atOrAfter(&lo, &hi, &z)
	if !ok {
		return nil, false
	}
	return s.appendAddr(a[:0], &r), true
}

// LitMax is the largest in-box address strictly smaller than addr, or ok
// false when there is none.
func (s *Schema) LitMax(b Box, addr []byte) (prev []byte, ok bool) {
	lo, hi, ok := s.clip(b)
	if !ok {
		return nil, false
	}
	a := s.fixed(addr)
	if !s.step(a, -1) {
		return nil, false
	}
	var z codes
	s.decode(a, &z)
	r, ok := s.atOrBefore(&lo, &hi, &z)
	if !ok {
		return nil, false
	}
	return s.appendAddr(a[:0], &r), true
}

// NextInBox is the skip-scan step. Given the current key of an ordered scan
// (its first AddrLen bytes are the Z-address; a key suffix is allowed and a
// shorter seek key reads as zero-padded), it reports whether the address is
// inside the box. When it is not, next is the smallest in-box address above
// it, the key to seek to, and ok is false when no in-box address remains so
// the scan is done. When inside, next is nil and ok true.
func (s *Schema) NextInBox(b Box, key []byte) (inside bool, next []byte, ok bool) {
	lo, hi, ok := s.clip(b)
	if !ok {
		return false, nil, false
	}
	var z codes
	s.decode(key, &z)
	if s.inside(&lo, &hi, &z) {
		return true, nil, true
	}
	// z is outside, so the smallest in-box address >= z is > z.
	r, ok := s.atOrAfter(&lo, &hi, &z)
	if !ok {
		return false, nil, false
	}
	return false, s.appendAddr(make([]byte, 0, s.addrLen), &r), true
}

// fixed copies the first AddrLen bytes of addr, zero-padding a short one
// and clearing the unused low bits of the last byte.
func (s *Schema) fixed(addr []byte) []byte {
	a := make([]byte, s.addrLen)
	copy(a, addr)
	if r := s.bits & 7; r != 0 {
		a[len(a)-1] &= 0xff << (8 - r)
	}
	return a
}

// step adds dir (+1 or -1) address units to a in place, where a unit is the
// lowest used bit of the last byte; false when it runs off either end.
func (s *Schema) step(a []byte, dir int) bool {
	unit := 1 << uint(8*s.addrLen-s.bits)
	for i := len(a) - 1; i >= 0; i-- {
		v := int(a[i]) + dir*unit
		switch {
		case v > 0xff:
			a[i] = byte(v - 0x100)
		case v < 0:
			a[i] = byte(v + 0x100)
		default:
			a[i] = byte(v)
			return true
		}
		unit = 1
	}
	return false
}
