package kvtxn

import (
	"encoding/binary"
	"math"
	"unsafe"

	"github.com/zproxy/zproxy/kv"
)

// A buffered put keeps its attributes encoded, not as []kv.Attr: an Attr
// is 80 bytes whatever its value, so a row of six columns cost 480 bytes
// plus its strings (a 98 MB COPY in a transaction block held 458 MB of
// cloned attributes), where the encoding is about the values' size.
// Only the field that an attribute's kind makes meaningful is kept, as
// every store keeps it.
//
//	attr := kind:byte uvarint(id) uvarint(len(name)) name payload
//
// (id is kv.Attr.ID, kept so a store that writes IDs gets them at commit)
// payload: Null nothing; Bool and Int a varint; Float 8 bytes; String
// uvarint(len) bytes; Bytes a byte (0: nil, 1: not) then uvarint(len)
// bytes; another kind every field.

// encodeAttrs encodes attrs; nil for none.
func encodeAttrs(attrs []kv.Attr) []byte {
	if len(attrs) == 0 {
		return nil
	}
	b := appendAttrs(make([]byte, 0, attrsSize(attrs)), attrs)
	// Trimmed, so the node keeps only what it needs.
	return append([]byte(nil), b...)
}

// attrsSize bounds the size of attrs' encoding.
func attrsSize(attrs []kv.Attr) int {
	n := 0
	for i := range attrs {
		n += 3*binary.MaxVarintLen64 + 2 + len(attrs[i].Name) + len(attrs[i].S) + len(attrs[i].B)
	}
	return n
}

// appendAttrs appends attrs' encoding to b.
func appendAttrs(b []byte, attrs []kv.Attr) []byte {
	for i := range attrs {
		a := &attrs[i]
		b = append(b, byte(a.Kind))
		b = binary.AppendUvarint(b, uint64(a.ID))
		b = binary.AppendUvarint(b, uint64(len(a.Name)))
		b = append(b, a.Name...)
		switch a.Kind {
		case kv.AttrNull:
		case kv.AttrBool, kv.AttrInt:
			b = binary.AppendVarint(b, a.I)
		case kv.AttrFloat:
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(a.F))
		case kv.AttrString:
			b = binary.AppendUvarint(b, uint64(len(a.S)))
			b = append(b, a.S...)
		case kv.AttrBytes:
			b = appendBytes(b, a.B)
		default:
			b = binary.AppendVarint(b, a.I)
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(a.F))
			b = binary.AppendUvarint(b, uint64(len(a.S)))
			b = append(b, a.S...)
			b = appendBytes(b, a.B)
		}
	}
	return b
}

func appendBytes(b, v []byte) []byte {
	if v == nil {
		return append(b, 0)
	}
	b = append(b, 1)
	b = binary.AppendUvarint(b, uint64(len(v)))
	return append(b, v...)
}

// decodeAttrs decodes what encodeAttrs made into fresh attributes the
// caller owns (byte slices included); a put without attributes decodes
// to an empty, non-nil slice.
func decodeAttrs(b []byte) []kv.Attr {
	n := 0
	for p := 0; p < len(b); n++ {
		p = skipAttr(b, p)
	}
	return decodeAttrsInto(make([]kv.Attr, n), b, false)
}

// decodeAttrsAliased decodes b into dst's memory (grown as needed), the
// names, strings and byte slices aliasing b: for a commit's yield, whose
// Write is valid only during the call, over bytes that never change.
func decodeAttrsAliased(dst []kv.Attr, b []byte) []kv.Attr {
	n := 0
	for p := 0; p < len(b); n++ {
		p = skipAttr(b, p)
	}
	if cap(dst) < n {
		dst = make([]kv.Attr, n)
	}
	dst = dst[:n]
	clear(dst)
	return decodeAttrsInto(dst, b, true)
}

// decodeAttrsInto decodes b into out, which has one zero Attr per
// encoded attribute; alias says whether strings and byte slices may
// share b's memory.
func decodeAttrsInto(out []kv.Attr, b []byte, alias bool) []kv.Attr {
	p := 0
	for i := range out {
		a := &out[i]
		a.Kind = kv.AttrKind(b[p])
		p++
		id, w := binary.Uvarint(b[p:])
		a.ID = uint16(id)
		p += w
		l, w := binary.Uvarint(b[p:])
		p += w
		a.Name = strAt(b, p, int(l), alias)
		p += int(l)
		switch a.Kind {
		case kv.AttrNull:
		case kv.AttrBool, kv.AttrInt:
			a.I, p = varint(b, p)
		case kv.AttrFloat:
			a.F = math.Float64frombits(binary.LittleEndian.Uint64(b[p:]))
			p += 8
		case kv.AttrString:
			a.S, p = str(b, p, alias)
		case kv.AttrBytes:
			a.B, p = bytesAt(b, p, alias)
		default:
			a.I, p = varint(b, p)
			a.F = math.Float64frombits(binary.LittleEndian.Uint64(b[p:]))
			p += 8
			a.S, p = str(b, p, alias)
			a.B, p = bytesAt(b, p, alias)
		}
	}
	return out
}

func varint(b []byte, p int) (int64, int) {
	v, w := binary.Varint(b[p:])
	return v, p + w
}

// strAt is the l bytes of b at p as a string, sharing b's memory when
// alias is set.
func strAt(b []byte, p, l int, alias bool) string {
	if alias {
		if l == 0 {
			return ""
		}
		return unsafe.String(&b[p], l)
	}
	return string(b[p : p+l])
}

func str(b []byte, p int, alias bool) (string, int) {
	l, w := binary.Uvarint(b[p:])
	p += w
	return strAt(b, p, int(l), alias), p + int(l)
}

func bytesAt(b []byte, p int, alias bool) ([]byte, int) {
	if b[p] == 0 {
		return nil, p + 1
	}
	p++
	l, w := binary.Uvarint(b[p:])
	p += w
	if alias {
		return b[p : p+int(l) : p+int(l)], p + int(l)
	}
	return append([]byte{}, b[p:p+int(l)]...), p + int(l)
}

// skipAttr returns where the attribute at p ends.
func skipAttr(b []byte, p int) int {
	kind := kv.AttrKind(b[p])
	p++
	_, w := binary.Uvarint(b[p:]) // the ID
	p += w
	l, w := binary.Uvarint(b[p:])
	p += w + int(l)
	switch kind {
	case kv.AttrNull:
	case kv.AttrBool, kv.AttrInt:
		_, p = varint(b, p)
	case kv.AttrFloat:
		p += 8
	case kv.AttrString:
		p = skipLen(b, p)
	case kv.AttrBytes:
		p = skipBytes(b, p)
	default:
		_, p = varint(b, p)
		p += 8
		p = skipLen(b, p)
		p = skipBytes(b, p)
	}
	return p
}

func skipLen(b []byte, p int) int {
	l, w := binary.Uvarint(b[p:])
	return p + w + int(l)
}

func skipBytes(b []byte, p int) int {
	if b[p] == 0 {
		return p + 1
	}
	return skipLen(b, p+1)
}

// decodeKey is the kv.Key of an encoded key (encodeKey's inverse), in
// fresh slices.
func decodeKey(ks string) kv.Key {
	l, w := binary.Uvarint([]byte(ks[:min(len(ks), binary.MaxVarintLen64)]))
	return kv.Key{Partition: []byte(ks[w : w+int(l)]), Sort: []byte(ks[w+int(l):])}
}
