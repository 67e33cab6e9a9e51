package pebble

import (
	"bytes"
	"testing"

	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/kv/kvtest"
)

func TestValueRoundTrip(t *testing.T) {
	cases := [][]kv.Attr{
		nil,
		kvtest.AllKinds(),
		{{Name: "", Kind: kv.AttrNull}},
		{{Name: "b", Kind: kv.AttrBytes, B: []byte{}}, {Name: "c", Kind: kv.AttrBytes, B: []byte{1, 2}}, {Name: "d", Kind: kv.AttrBytes, B: []byte{3}}},
	}
	for i, attrs := range cases {
		enc, err := appendValue(nil, attrs)
		if err != nil {
			t.Fatal(err)
		}
		got, err := decodeValue(enc)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if len(got) != len(attrs) {
			t.Fatalf("case %d: %d attrs, want %d", i, len(got), len(attrs))
		}
		for j := range attrs { // order is kept, not just the set
			if !kvtest.AttrEqual(attrs[j], got[j]) {
				t.Errorf("case %d attr %d: %s, want %s", i, j, kvtest.FormatAttrs(got[j:j+1]), kvtest.FormatAttrs(attrs[j:j+1]))
			}
		}
	}
}

// TestDecodedValueIsIndependent: decoded attributes share no memory with the
// encoded value (iterator memory Pebble reuses), and appending to one Bytes
// attribute cannot overwrite its neighbour.
func TestDecodedValueIsIndependent(t *testing.T) {
	attrs := []kv.Attr{{Name: "s", Kind: kv.AttrString, S: "hello"}, {Name: "a", Kind: kv.AttrBytes, B: []byte{1, 2}}, {Name: "b", Kind: kv.AttrBytes, B: []byte{3, 4}}}
	enc, _ := appendValue(nil, attrs)
	got, err := decodeValue(enc)
	if err != nil {
		t.Fatal(err)
	}
	for i := range enc {
		enc[i] = 0xee
	}
	_ = append(got[1].B, 9, 9)
	got[2].B[0] = 3 // writable
	if got[0].S != "hello" || got[0].Name != "s" || !bytes.Equal(got[1].B, []byte{1, 2}) || !bytes.Equal(got[2].B, []byte{3, 4}) {
		t.Errorf("decoded value changed: %s", kvtest.FormatAttrs(got))
	}
}

func TestValueRejectsBadInput(t *testing.T) {
	if _, err := appendValue(nil, []kv.Attr{{Name: "x", Kind: 99}}); err == nil {
		t.Error("unknown kind encoded")
	}
	good, _ := appendValue(nil, []kv.Attr{{Name: "name", Kind: kv.AttrString, S: "value"}, {Name: "f", Kind: kv.AttrFloat, F: 1}})
	bad := [][]byte{
		nil,
		{0x02},                      // unknown format
		{valueFormatV1, 99, 0},      // unknown kind
		{valueFormatV1, 1, 0, 2},    // bool other than 0/1
		{valueFormatV1, 2, 0, 0x80}, // truncated varint
		{valueFormatV1, 4, 5, 'a'},  // name longer than the value
	}
	firstAttr, _ := appendValue(nil, []kv.Attr{{Name: "name", Kind: kv.AttrString, S: "value"}})
	for i := 2; i < len(good); i++ {
		if i != len(firstAttr) { // a whole first attribute is a valid value
			bad = append(bad, good[:i])
		}
	}
	for _, b := range bad {
		if _, err := decodeValue(b); err == nil {
			t.Errorf("decodeValue(%x) accepted corrupt input", b)
		}
	}
}

// FuzzDecodeValue: decoding never panics, and whatever decodes re-encodes
// to the same bytes.
func FuzzDecodeValue(f *testing.F) {
	all, _ := appendValue(nil, kvtest.AllKinds())
	f.Add(all)
	f.Add([]byte{valueFormatV1})
	f.Add([]byte{valueFormatV1, 5, 1, 'b', 0})
	f.Add([]byte{valueFormatV1, 2, 0, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		attrs, err := decodeValue(b)
		if err != nil {
			return
		}
		again, err := appendValue(nil, attrs)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(again, b) {
			t.Fatalf("re-encoding %x gave %x", b, again)
		}
	})
}

func TestKeyLayout(t *testing.T) {
	// Distinct (partition, sort) pairs never share an encoded key, even when
	// their concatenations would.
	pairs := []kv.Key{
		{Partition: []byte("a"), Sort: []byte("bx")},
		{Partition: []byte("ab"), Sort: []byte("x")},
		{Partition: []byte(""), Sort: []byte("\x01ab")},
		{Partition: []byte{0xff}, Sort: nil},
	}
	seen := map[string]int{}
	for i, k := range pairs {
		enc := string(appendKey(nil, k))
		if j, dup := seen[enc]; dup {
			t.Errorf("keys %d and %d encode the same", i, j)
		}
		seen[enc] = i
	}
	// A scan's bounds keep it inside the partition's span.
	lo, hi, n := scanBounds(kv.ScanRequest{Partition: []byte{0xff, 0xff}})
	if string(lo) != "\x02\xff\xff" || string(hi) != "\x03" || n != 3 {
		t.Errorf("scanBounds = %x, %x, %d", lo, hi, n)
	}
	lo, hi, _ = scanBounds(kv.ScanRequest{Partition: []byte("p"), Start: []byte("a"), End: []byte("c")})
	if string(lo) != "\x01pa" || string(hi) != "\x01pc" {
		t.Errorf("scanBounds = %q, %q", lo, hi)
	}
}

func TestValueRejectsOverlongVarints(t *testing.T) {
	for _, b := range [][]byte{
		{valueFormatV1, byte(kv.AttrNull), 0x80, 0x00},                 // name length 0, two bytes
		{valueFormatV1, byte(kv.AttrInt), 0, 0x81, 0x00},               // int -1 padded to two bytes
		{valueFormatV1, byte(kv.AttrString), 0, 0x81, 0x80, 0x00, 'x'}, // string length 1, three bytes
	} {
		if _, err := decodeValue(b); err == nil {
			t.Errorf("decodeValue(%x) accepted an overlong varint", b)
		}
	}
}
