package pebble

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
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
const valueFormatV1 = 0x01

// errCorruptValue reports a stored value this code cannot decode.
var errCorruptValue = errors.New("kv/pebble: corrupt stored value")

// appendValue appends the encoding of attrs to dst.
func appendValue(dst []byte, attrs []kv.Attr) ([]byte, error) {
	dst = append(dst, valueFormatV1)
	for i := range attrs {
		a := &attrs[i]
		dst = append(dst, byte(a.Kind))
		dst = binary.AppendUvarint(dst, uint64(len(a.Name)))
		dst = append(dst, a.Name...)
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
	}
	return dst, nil
}

// emptyBytes is what an empty Bytes attribute decodes to: non-nil, and with
// no capacity, so a caller appending to it cannot write into shared memory.
var emptyBytes = []byte{}

// valueReader walks an encoded value attribute by attribute.
type valueReader struct {
	buf []byte
	pos int
}

// next decodes the attribute header and payload at the cursor. For String
// and Bytes, data is the raw payload and a.S/a.B are left unset; name is
// always raw. It reports false at the end of the value.
func (r *valueReader) next() (a kv.Attr, name, data []byte, ok bool, err error) {
	if r.pos >= len(r.buf) {
		return a, nil, nil, false, nil
	}
	if a.Kind, name, err = r.header(); err != nil {
		return a, nil, nil, false, err
	}
	if data, err = r.payload(&a); err != nil {
		return a, nil, nil, false, err
	}
	return a, name, data, true, nil
}

// header reads the kind and the name of the attribute at the cursor, which
// must not be at the end.
func (r *valueReader) header() (kv.AttrKind, []byte, error) {
	kind := kv.AttrKind(r.buf[r.pos])
	r.pos++
	name, err := r.lengthPrefixed()
	return kind, name, err
}

// payload reads the payload of an attribute of kind a.Kind into a: Bool and
// Int into I, Float into F; String and Bytes payloads are returned raw, with
// a.S/a.B left unset.
func (r *valueReader) payload(a *kv.Attr) (data []byte, err error) {
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
	if len(v) == 0 || v[0] != valueFormatV1 {
		return nil, errCorruptValue
	}
	var n, textLen, bytesLen int
	r := valueReader{buf: v, pos: 1}
	var keptBuf [16]bool
	kept := keptBuf[:0] // of each attribute, with a projection
	for i := 0; ; i++ {
		a, name, data, ok, err := r.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if p != nil {
			keep := p.keeps(i, name)
			if kept = append(kept, keep); !keep {
				continue
			}
		}
		n++
		textLen += len(name)
		if a.Kind == kv.AttrString {
			textLen += len(data)
		} else if a.Kind == kv.AttrBytes {
			bytesLen += len(data)
		}
	}

	attrs := make([]kv.Attr, n)
	var text strings.Builder
	text.Grow(textLen)
	// appendText returns data as a substring of the builder's buffer.
	// Grow reserved the whole length, so the buffer never moves and every
	// earlier substring stays valid (and unchanged: a Builder never rewrites
	// what it holds).
	appendText := func(data []byte) string {
		text.Write(data)
		s := text.String()
		return s[len(s)-len(data):]
	}
	var blob []byte
	if bytesLen > 0 {
		blob = make([]byte, 0, bytesLen)
	}
	r = valueReader{buf: v, pos: 1}
	for i, j := 0, 0; i < n; j++ {
		a, name, data, _, _ := r.next() // validated by the first pass
		if p != nil && !kept[j] {
			continue
		}
		a.Name = appendText(name)
		switch a.Kind {
		case kv.AttrString:
			a.S = appendText(data)
		case kv.AttrBytes:
			if len(data) == 0 {
				a.B = emptyBytes
			} else {
				start := len(blob)
				blob = append(blob, data...)
				a.B = blob[start:len(blob):len(blob)]
			}
		}
		attrs[i] = a
		i++
	}
	return attrs, nil
}

// decodeValueAliased decodes v into dst (reused, grown as needed) without
// copying: names, strings and bytes alias v, so the attributes are valid only
// as long as v is. Iterators use it, since kv.Iterator items live only until
// the next Next or Seek; Get returns owned memory through decodeValue.
//
// With a projection, only the attributes it keeps are decoded.
func decodeValueAliased(dst []kv.Attr, v []byte, p *projection) ([]kv.Attr, error) {
	if len(v) == 0 || v[0] != valueFormatV1 {
		return nil, errCorruptValue
	}
	dst = dst[:0]
	r := valueReader{buf: v, pos: 1}
	var skipped kv.Attr
	for i := 0; r.pos < len(r.buf); i++ {
		kind, name, err := r.header()
		if err != nil {
			return nil, err
		}
		if p != nil && !p.keeps(i, name) {
			// Read (and so checked) but not kept.
			skipped.Kind = kind
			if _, err := r.payload(&skipped); err != nil {
				return nil, err
			}
			continue
		}
		// Filled in place: an attribute is a large struct to copy.
		dst = append(dst, kv.Attr{Kind: kind, Name: aliasString(name)})
		a := &dst[len(dst)-1]
		data, err := r.payload(a)
		if err != nil {
			return nil, err
		}
		switch kind {
		case kv.AttrString:
			a.S = aliasString(data)
		case kv.AttrBytes:
			if len(data) == 0 {
				a.B = emptyBytes
			} else {
				a.B = data[:len(data):len(data)]
			}
		}
	}
	return dst, nil
}

// projection is a scan's kv.ScanRequest.Attrs: the attribute names to
// decode. The items of one scan almost always list their attributes in one
// order, so it remembers the name at each position and whether it was kept,
// and an item is then matched by one comparison per attribute.
type projection struct {
	names []string
	// seen[i] is the name last seen at position i, keep[i] whether it is
	// among names.
	seen []string
	keep []bool
	// Room for seen and keep of a table's usual width, in the one
	// allocation of the projection (growing them one attribute at a time
	// cost most of a short scan's allocations).
	seenBuf [16]string
	keepBuf [16]bool
}

func newProjection(names []string) *projection {
	if names == nil {
		return nil
	}
	p := &projection{names: names}
	p.seen, p.keep = p.seenBuf[:0], p.keepBuf[:0]
	return p
}

// keeps reports whether the attribute named name, at position i of its
// item, is to be decoded.
func (p *projection) keeps(i int, name []byte) bool {
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
