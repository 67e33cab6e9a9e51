package pebble

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"unsafe"

	"github.com/zproxy/zproxy/kv"
)

// Value layout (format version 1):
//
//	value := 0x01 attr*
//	attr  := kind:byte uvarint(len(name)) name payload
//
// with the payload by kind: Null nothing; Bool one byte 0 or 1; Int a
// zig-zag varint; Float the 8 IEEE-754 bits, little-endian (so -0, NaN
// payloads and infinities survive bit for bit); String and Bytes
// uvarint(len) followed by the bytes. There is no attribute count: the value
// ends where its last attribute does.
//
// Format version 2 is written when every attribute has an ID (kv.Attr.ID:
// a table row's columns, its version and expiry) in strictly increasing
// order, and every attribute starts within the first 64 KiB, and leads
// with a table of them:
//
//	value := 0x02 uvarint(n) entry{n} attr{n}
//	entry := id:uint16 offset:uint16                (little-endian, 4 bytes)
//
// with attr as in format 1; offset is where the entry's attr starts,
// counted from the value's first byte, and the attrs follow one another in
// entry order, the value ending with the last. A scan that asks for a few
// IDs (kv.ScanRequest.AttrIDs) walks the fixed-size entries, jumps to the
// attrs it wants and reads nothing of the others, comparing no names; the
// names stay so that readers that go by name (row versions, DecodeRow, a
// copy to a store without IDs) read the value as they read format 1. The
// table costs 1 + 4n bytes a value. The first byte tells the formats
// apart, so a store holds both and rows written before version 2 read as
// they did.
const (
	valueFormatV1 = 0x01
	valueFormatV2 = 0x02
)

// v2EntrySize is the size of one entry of a format 2 value's table.
const v2EntrySize = 4

// errCorruptValue reports a stored value this code cannot decode.
var errCorruptValue = errors.New("kv/pebble: corrupt stored value")

// appendValue appends the encoding of attrs to dst: format 2 when every
// attribute has an ID, in increasing order, and fits its table, format 1
// otherwise.
func appendValue(dst []byte, attrs []kv.Attr) ([]byte, error) {
	if hasIDs(attrs) {
		if v, ok, err := appendValueV2(dst, attrs); ok || err != nil {
			return v, err
		}
	}
	dst = append(dst, valueFormatV1)
	for i := range attrs {
		var err error
		if dst, err = appendAttr(dst, &attrs[i]); err != nil {
			return nil, err
		}
	}
	return dst, nil
}

// appendAttr appends a as format 1 lays out an attribute.
func appendAttr(dst []byte, a *kv.Attr) ([]byte, error) {
	dst = append(dst, byte(a.Kind))
	dst = binary.AppendUvarint(dst, uint64(len(a.Name)))
	dst = append(dst, a.Name...)
	return appendPayload(dst, a)
}

// hasIDs reports whether attrs can be written in format 2: at least one,
// each with an ID, strictly increasing.
func hasIDs(attrs []kv.Attr) bool {
	var last uint16
	for i := range attrs {
		if attrs[i].ID <= last {
			return false
		}
		last = attrs[i].ID
	}
	return len(attrs) > 0
}

// appendValueV2 appends attrs, which have increasing IDs, in format 2; ok
// is false (and dst's contents past its length undefined) when an
// attribute would start past an offset the table can hold.
func appendValueV2(dst []byte, attrs []kv.Attr) (_ []byte, ok bool, err error) {
	start := len(dst)
	dst = append(dst, valueFormatV2)
	dst = binary.AppendUvarint(dst, uint64(len(attrs)))
	table := len(dst)
	dst = append(dst, make([]byte, len(attrs)*v2EntrySize)...)
	for i := range attrs {
		off := len(dst) - start
		if off > math.MaxUint16 {
			return dst[:start], false, nil
		}
		e := dst[table+i*v2EntrySize:]
		binary.LittleEndian.PutUint16(e, attrs[i].ID)
		binary.LittleEndian.PutUint16(e[2:], uint16(off))
		if dst, err = appendAttr(dst, &attrs[i]); err != nil {
			return nil, false, err
		}
	}
	return dst, true, nil
}

// appendPayload appends a's payload, as its kind encodes it.
func appendPayload(dst []byte, a *kv.Attr) ([]byte, error) {
	switch a.Kind {
	case kv.AttrNull:
	case kv.AttrBool:
		if a.I != 0 {
			dst = append(dst, 1)
		} else {
			dst = append(dst, 0)
		}
	case kv.AttrInt:
		dst = binary.AppendVarint(dst, a.I)
	case kv.AttrFloat:
		dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(a.F))
	case kv.AttrString:
		dst = binary.AppendUvarint(dst, uint64(len(a.S)))
		dst = append(dst, a.S...)
	case kv.AttrBytes:
		dst = binary.AppendUvarint(dst, uint64(len(a.B)))
		dst = append(dst, a.B...)
	default:
		return nil, fmt.Errorf("kv/pebble: attribute %q has unknown kind %d", a.Name, a.Kind)
	}
	return dst, nil
}

// emptyBytes is what an empty Bytes attribute decodes to: non-nil, and with
// no capacity, so a caller appending to it cannot write into shared memory.
var emptyBytes = []byte{}

// valueReader walks an encoded value attribute by attribute, in either
// format.
type valueReader struct {
	buf []byte
	pos int
	// Format 2: the table's start, its entries, the next entry to read and
	// the ID of the last one read.
	v2     bool
	table  int
	n, i   int
	lastID uint16
}

// newValueReader checks v's format and header and returns a reader at its
// first attribute.
func newValueReader(v []byte) (valueReader, error) {
	var r valueReader
	err := r.init(v)
	return r, err
}

// init sets r to read v, as newValueReader returns it; r is left undefined
// when v's header does not decode.
func (r *valueReader) init(v []byte) error {
	if len(v) == 0 {
		return errCorruptValue
	}
	// Field by field: a reader built and then copied whole was a stall
	// (its fields stored one by one, read back in wider loads).
	r.buf, r.i, r.lastID = v, 0, 0
	switch v[0] {
	case valueFormatV1:
		r.pos, r.v2, r.table, r.n = 1, false, 0, 0
		return nil
	case valueFormatV2:
		n, w := binary.Uvarint(v[1:])
		if w <= 0 || !minimalVarint(v[1:], w) || n == 0 || n > uint64(len(v)-1-w)/v2EntrySize {
			return errCorruptValue
		}
		r.v2, r.table, r.n = true, 1+w, int(n)
		r.pos = r.table + r.n*v2EntrySize
		return nil
	}
	return errCorruptValue
}

// more reports whether an attribute is left to read. At the end of a
// format 2 value, the last attribute must end the value.
func (r *valueReader) more() (bool, error) {
	if !r.v2 {
		return r.pos < len(r.buf), nil
	}
	if r.i < r.n {
		return true, nil
	}
	if r.pos != len(r.buf) {
		return false, errCorruptValue
	}
	return false, nil
}

// next decodes the attribute header and payload at the cursor. For String
// and Bytes, data is the raw payload and a.S/a.B are left unset; name is
// always raw. It reports false at the end of the value.
func (r *valueReader) next() (a kv.Attr, name, data []byte, ok bool, err error) {
	if ok, err = r.more(); !ok {
		return a, nil, nil, false, err
	}
	if a.Kind, a.ID, name, err = r.header(); err != nil {
		return a, nil, nil, false, err
	}
	if data, err = r.payload(&a); err != nil {
		return a, nil, nil, false, err
	}
	return a, name, data, true, nil
}

// header reads the kind, ID (0 in format 1) and name of the attribute at
// the cursor, which must not be at the end. In format 2 the entry must
// point at the cursor and IDs must increase: each value has one encoding.
func (r *valueReader) header() (kind kv.AttrKind, id uint16, name []byte, err error) {
	if r.v2 {
		e := r.buf[r.table+r.i*v2EntrySize:]
		id = binary.LittleEndian.Uint16(e)
		if int(binary.LittleEndian.Uint16(e[2:])) != r.pos || id <= r.lastID || r.pos >= len(r.buf) {
			return 0, 0, nil, errCorruptValue
		}
		r.i++
		r.lastID = id
	}
	kind = kv.AttrKind(r.buf[r.pos])
	r.pos++
	name, err = r.lengthPrefixed()
	return kind, id, name, err
}

// payload reads the payload of an attribute of kind a.Kind into a: Bool and
// Int into I, Float into F; String and Bytes payloads are returned raw, with
// a.S/a.B left unset.
func (r *valueReader) payload(a *kv.Attr) (data []byte, err error) {
	if r.pos > len(r.buf) {
		return nil, errCorruptValue
	}
	switch a.Kind {
	case kv.AttrNull:
	case kv.AttrBool:
		if r.pos >= len(r.buf) || r.buf[r.pos] > 1 {
			return nil, errCorruptValue
		}
		a.I = int64(r.buf[r.pos])
		r.pos++
	case kv.AttrInt:
		v, n := binary.Varint(r.buf[r.pos:])
		if n <= 0 || !minimalVarint(r.buf[r.pos:], n) {
			return nil, errCorruptValue
		}
		a.I = v
		r.pos += n
	case kv.AttrFloat:
		if len(r.buf)-r.pos < 8 {
			return nil, errCorruptValue
		}
		a.F = math.Float64frombits(binary.LittleEndian.Uint64(r.buf[r.pos:]))
		r.pos += 8
	case kv.AttrString, kv.AttrBytes:
		return r.lengthPrefixed()
	default:
		return nil, errCorruptValue
	}
	return nil, nil
}

func (r *valueReader) lengthPrefixed() ([]byte, error) {
	if r.pos < len(r.buf) && r.buf[r.pos] < 0x80 {
		// A length under 128 (every name, most strings): one byte,
		// read here rather than by a call to binary.Uvarint's loop.
		start := r.pos + 1
		if end := start + int(r.buf[r.pos]); end <= len(r.buf) {
			r.pos = end
			return r.buf[start:end], nil
		}
		return nil, errCorruptValue
	}
	l, n := binary.Uvarint(r.buf[r.pos:])
	if n <= 0 || !minimalVarint(r.buf[r.pos:], n) || l > uint64(len(r.buf)-r.pos-n) {
		return nil, errCorruptValue
	}
	start := r.pos + n
	r.pos = start + int(l)
	return r.buf[start:r.pos], nil
}

// minimalVarint reports whether the n-byte varint at the start of b has no
// redundant trailing zero group, so every value has exactly one accepted
// encoding (decode then encode gives back the input).
func minimalVarint(b []byte, n int) bool { return n == 1 || b[n-1] != 0 }

// decodeValue decodes an encoded value into attributes that share nothing
// with v (v may be iterator memory that is reused).
//
// It makes at most three allocations whatever the number of attributes: the
// []kv.Attr, one string holding every name and String payload (each
// attribute's Name and S are substrings of it), and one []byte holding every
// Bytes payload (each B is a sub-slice capped at its own length, so appending
// to one cannot overwrite the next). That takes two passes: the first sizes
// the three buffers, the second fills them.
func decodeValue(v []byte) ([]kv.Attr, error) { return decodeValueOf(v, nil) }

// decodeValueOf is decodeValue keeping only the attributes p keeps (all
// of them when p is nil): a Get that names its attributes copies nothing
// of the others.
func decodeValueOf(v []byte, p *projection) ([]kv.Attr, error) {
	return decodeValueIn(v, p, nil)
}

// decodeValueIn is decodeValueOf taking the attributes and the copies of
// names, strings and bytes from a (exactly sized allocations of their own
// when a is nil).
func decodeValueIn(v []byte, p *projection, a *valueArena) ([]kv.Attr, error) {
	r, err := newValueReader(v)
	if err != nil {
		return nil, err
	}
	first := r
	var n, copyLen int
	var keptBuf [16]bool
	kept := keptBuf[:0] // of each attribute, with a projection
	for i := 0; ; i++ {
		at, name, data, ok, err := r.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if p != nil {
			keep := p.keeps(i, at.ID, name)
			if kept = append(kept, keep); !keep {
				continue
			}
		}
		n++
		copyLen += len(name)
		if at.Kind == kv.AttrString || at.Kind == kv.AttrBytes {
			copyLen += len(data)
		}
	}

	var attrs []kv.Attr
	var buf []byte // the copies, appended within its capacity: it never moves
	if a != nil {
		attrs, buf = a.attrSlice(n), a.bytes(copyLen)
	} else {
		attrs, buf = make([]kv.Attr, n), make([]byte, 0, copyLen)
	}
	// appendCopy returns data's copy in buf, which no later append rewrites.
	appendCopy := func(data []byte) []byte {
		start := len(buf)
		buf = append(buf, data...)
		return buf[start:len(buf):len(buf)]
	}
	r = first
	for i, j := 0, 0; i < n; j++ {
		at, name, data, _, _ := r.next() // validated by the first pass
		if p != nil && !kept[j] {
			continue
		}
		at.Name = aliasString(appendCopy(name))
		switch at.Kind {
		case kv.AttrString:
			at.S = aliasString(appendCopy(data))
		case kv.AttrBytes:
			if len(data) == 0 {
				at.B = emptyBytes
			} else {
				at.B = appendCopy(data)
			}
		}
		attrs[i] = at
		i++
	}
	return attrs, nil
}

// valueArena hands the items of one batched get their attributes and the
// copies of their names, strings and bytes from shared blocks, a pair of
// allocations for many rows rather than a pair a row. What it hands out is
// never written again, so every string stays valid; an item kept after
// the others keeps its block alive, which the block's cap bounds.
type valueArena struct {
	attrs []kv.Attr // the current block's unused part
	buf   []byte    // the current block's unused part
	// rows is how many rows are still to decode: a new block is sized for
	// them, from the row that needs it.
	rows int
}

// Largest blocks a valueArena allocates for several rows; a row larger
// than a block gets one of its own size.
const (
	arenaMaxAttrs = 1024
	arenaMaxBytes = 64 << 10
)

// attrSlice returns n attributes of the arena's.
func (a *valueArena) attrSlice(n int) []kv.Attr {
	if n == 0 {
		return []kv.Attr{} // not nil: the item was found (kv.Found)
	}
	if cap(a.attrs) < n {
		a.attrs = make([]kv.Attr, 0, max(n, min(n*a.rows, arenaMaxAttrs)))
	}
	out := a.attrs[:n:n]
	a.attrs = a.attrs[n:n]
	return out
}

// bytes returns an empty slice with capacity n of the arena's.
func (a *valueArena) bytes(n int) []byte {
	if cap(a.buf) < n {
		a.buf = make([]byte, 0, max(n, min(n*a.rows, arenaMaxBytes)))
	}
	out := a.buf[:0:n]
	a.buf = a.buf[n:n]
	return out
}

// decodeValueAliased decodes v into dst (reused, grown as needed) without
// copying: names, strings and bytes alias v, so the attributes are valid only
// as long as v is. Iterators use it, since kv.Iterator items live only until
// the next Next or Seek; Get returns owned memory through decodeValue.
//
// With a projection, only the attributes it keeps are decoded; of a format
// 2 value and a projection by IDs, nothing else is read at all.
func decodeValueAliased(dst []kv.Attr, v []byte, p *projection) ([]kv.Attr, error) {
	r, err := newValueReader(v)
	if err != nil {
		return nil, err
	}
	if r.v2 && p != nil && p.ids != nil {
		return decodeV2Projected(dst, r, p.ids)
	}
	dst = dst[:0]
	var skipped kv.Attr
	for i := 0; ; i++ {
		if ok, err := r.more(); !ok {
			if err != nil {
				return nil, err
			}
			return dst, nil
		}
		kind, id, name, err := r.header()
		if err != nil {
			return nil, err
		}
		if p != nil && !p.keeps(i, id, name) {
			// Read (and so checked) but not kept.
			skipped.Kind = kind
			if _, err := r.payload(&skipped); err != nil {
				return nil, err
			}
			continue
		}
		// Filled in place: an attribute is a large struct to copy.
		dst = append(dst, kv.Attr{Kind: kind, ID: id, Name: aliasString(name)})
		if err := r.aliasPayload(&dst[len(dst)-1]); err != nil {
			return nil, err
		}
	}
}

// decodeV2Projected is decodeValueAliased of a format 2 value for the
// attributes whose IDs are among ids (sorted): a walk of the table merged
// with ids that reads the attributes of the wanted entries only.
func decodeV2Projected(dst []kv.Attr, r valueReader, ids []uint16) ([]kv.Attr, error) {
	dst = dst[:0]
	w := v2Walk{r: r, first: r.pos}
	for {
		id, _, kind, name, ok, err := w.next(ids)
		if err != nil {
			return nil, err
		}
		if !ok {
			return dst, nil
		}
		dst = append(dst, kv.Attr{Kind: kind, ID: id, Name: aliasString(name)})
		if err := w.r.aliasPayload(&dst[len(dst)-1]); err != nil {
			return nil, err
		}
	}
}

// v2Walk walks a format 2 value's table merged with sorted IDs, stopping
// at the attributes of the wanted ones only.
type v2Walk struct {
	r     valueReader
	first int // the first attr starts after the table
	i, j  int // the next entry of the table and of ids
}

// next moves to the next attribute whose ID is among ids (sorted) and
// reads its header: its ID, its position among ids, kind and name, the
// reader's cursor left at its payload. It reports false at the end (err
// when the value is corrupt).
func (w *v2Walk) next(ids []uint16) (id uint16, at int, kind kv.AttrKind, name []byte, ok bool, err error) {
	r := &w.r
	for ; w.i < r.n && w.j < len(ids); w.i++ {
		e := r.buf[r.table+w.i*v2EntrySize:]
		id = binary.LittleEndian.Uint16(e)
		for w.j < len(ids) && ids[w.j] < id {
			w.j++
		}
		if w.j == len(ids) {
			break
		}
		if ids[w.j] != id {
			continue
		}
		at = w.j
		w.i, w.j = w.i+1, w.j+1
		off := int(binary.LittleEndian.Uint16(e[2:]))
		if off < w.first || off >= len(r.buf) {
			return 0, 0, 0, nil, false, errCorruptValue
		}
		kind = kv.AttrKind(r.buf[off])
		r.pos = off + 1
		if name, err = r.lengthPrefixed(); err != nil {
			return 0, 0, 0, nil, false, err
		}
		return id, at, kind, name, true, nil
	}
	return 0, 0, 0, nil, false, nil
}

// decodeV2Scalars is kv.ScalarIterator's read of a format 2 value for a
// projection by IDs (p.slots set): each wanted attribute's kind and payload
// go into the slot of its request position, aliasing v. It reports false
// for a value of another format, a corrupt one, or an attribute whose name
// is not the one requested with its ID (decodeValueAliased then decides,
// as it did before this path).
func decodeV2Scalars(dst []kv.Scalar, v []byte, p *projection) bool {
	if len(v) == 0 || v[0] != valueFormatV2 || len(dst) != len(p.slots) {
		return false
	}
	w := &p.walk
	if w.r.init(v) != nil {
		return false
	}
	w.first, w.i, w.j = w.r.pos, 0, 0
	for k := range dst {
		dst[k].Present = false
	}
	var a kv.Attr
	for {
		_, at, kind, name, ok, err := w.next(p.ids)
		if !ok {
			return err == nil
		}
		slot := p.slots[at]
		if string(name) != p.names[slot] {
			return false
		}
		a.Kind, a.I, a.F = kind, 0, 0
		data, err := w.r.payload(&a)
		if err != nil {
			return false
		}
		// Field by field, in place (see setDirect in catalog).
		s := &dst[slot]
		s.Kind, s.Present, s.I, s.F, s.B = kind, true, a.I, a.F, data
	}
}

// aliasPayload reads a's payload at the cursor into a, String and Bytes
// aliasing the value.
func (r *valueReader) aliasPayload(a *kv.Attr) error {
	data, err := r.payload(a)
	if err != nil {
		return err
	}
	switch a.Kind {
	case kv.AttrString:
		a.S = aliasString(data)
	case kv.AttrBytes:
		if len(data) == 0 {
			a.B = emptyBytes
		} else {
			a.B = data[:len(data):len(data)]
		}
	}
	return nil
}

// projection is a scan's kv.ScanRequest.Attrs (and AttrIDs): the
// attributes to decode. An attribute written with an ID (format 2) is
// matched by it. Others are matched by name; the items of one scan almost
// always list their attributes in one order, so it remembers the name at
// each position and whether it was kept, and an item is then matched by one
// comparison per attribute.
type projection struct {
	names []string
	// ids are the IDs of names, sorted, without the zeros (nil when the
	// request gave none).
	ids []uint16
	// seen[i] is the name last seen at position i, keep[i] whether it is
	// among names.
	seen []string
	keep []bool
	// slots[k] is the request position of ids[k] (decodeV2Scalars's
	// slot), nil when some requested attribute has no ID.
	slots []int
	// walk is decodeV2Scalars's walk of the current value.
	walk v2Walk
	// Room for ids, seen and keep of a table's usual width, in the one
	// allocation of the projection (growing them one attribute at a time
	// cost most of a short scan's allocations).
	idsBuf   [16]uint16
	seenBuf  [16]string
	keepBuf  [16]bool
	slotsBuf [16]int
}

func newProjection(names []string, ids []uint16) *projection {
	if names == nil {
		return nil
	}
	p := &projection{names: names}
	p.seen, p.keep = p.seenBuf[:0], p.keepBuf[:0]
	if ids != nil {
		p.ids = p.idsBuf[:0]
		for _, id := range ids {
			if id != 0 {
				p.ids = append(p.ids, id)
			}
		}
		slices.Sort(p.ids)
		p.slots = scalarSlots(p.slotsBuf[:0], ids, p.ids)
	}
	return p
}

// scalarSlots returns, for each of sorted (ids without zeros, sorted), its
// position in ids, appended to dst; nil when an ID is 0 or repeated (a
// column without an ID is matched by name, which Scalars does not do).
func scalarSlots(dst []int, ids, sorted []uint16) []int {
	if len(sorted) != len(ids) || len(ids) == 0 {
		return nil
	}
	for k, id := range sorted {
		if k > 0 && sorted[k-1] == id {
			return nil
		}
		dst = append(dst, slices.Index(ids, id))
	}
	return dst
}

// keeps reports whether the attribute with ID id (0 for none) and name
// name, at position i of its item, is to be decoded.
func (p *projection) keeps(i int, id uint16, name []byte) bool {
	if id != 0 && p.ids != nil {
		_, found := slices.BinarySearch(p.ids, id)
		return found
	}
	if i < len(p.seen) && p.seen[i] == string(name) {
		return p.keep[i]
	}
	keep := false
	var seen string
	for _, n := range p.names {
		if n == string(name) {
			keep, seen = true, n // the request's own string: no copy
			break
		}
	}
	if !keep {
		seen = string(name) // a copy: name is store memory
	}
	if i >= len(p.seen) {
		p.seen = slices.Grow(p.seen, i+1-len(p.seen))[:i+1]
		p.keep = slices.Grow(p.keep, i+1-len(p.keep))[:i+1]
	}
	p.seen[i], p.keep[i] = seen, keep
	return keep
}

func aliasString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}
