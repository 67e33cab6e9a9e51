package pebble

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
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
		{0x03},                      // unknown format
		{valueFormatV2},             // no table
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
	v2, _ := appendValue(nil, withIDs(kvtest.AllKinds()))
	f.Add(v2)
	f.Fuzz(func(t *testing.T, b []byte) {
		// A projection by IDs jumps by the table's offsets: never out of
		// the value.
		decodeValueAliased(nil, b, newProjection([]string{"x", "y"}, []uint16{2, 5}))
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

// withIDs returns attrs numbered 1, 2, ... as a table's columns are.
func withIDs(attrs []kv.Attr) []kv.Attr {
	out := slices.Clone(attrs)
	for i := range out {
		out[i].ID = uint16(i + 1)
	}
	return out
}

// TestValueFormats: attributes that all have increasing IDs are written in
// format 2, any others in format 1, and both decode to what was written,
// IDs included (0 in format 1).
func TestValueFormats(t *testing.T) {
	all := withIDs(kvtest.AllKinds())
	descending := withIDs(kvtest.AllKinds())
	descending[0].ID, descending[1].ID = 2, 1
	oneWithout := withIDs(kvtest.AllKinds())
	oneWithout[3].ID = 0
	// An attribute starting past 64 KiB: past what the table can point at.
	big := withIDs([]kv.Attr{{Name: "a", Kind: kv.AttrBytes, B: make([]byte, 70000)}, {Name: "b", Kind: kv.AttrInt, I: 1}})
	for _, c := range []struct {
		name   string
		attrs  []kv.Attr
		format byte
	}{
		{"large first attribute", big[:1], valueFormatV2},
		{"attribute past 64 KiB", big, valueFormatV1},
		{"ids", all, valueFormatV2},
		{"one attribute", all[:1], valueFormatV2},
		{"no ids", kvtest.AllKinds(), valueFormatV1},
		{"ids out of order", descending, valueFormatV1},
		{"one without an id", oneWithout, valueFormatV1},
		{"none", nil, valueFormatV1},
	} {
		enc, err := appendValue(nil, c.attrs)
		if err != nil {
			t.Fatal(err)
		}
		if enc[0] != c.format {
			t.Errorf("%s: format %d, want %d", c.name, enc[0], c.format)
		}
		for _, dec := range []func([]byte) ([]kv.Attr, error){
			decodeValue,
			func(b []byte) ([]kv.Attr, error) { return decodeValueAliased(nil, b, nil) },
		} {
			got, err := dec(enc)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if len(got) != len(c.attrs) {
				t.Fatalf("%s: %d attributes, want %d", c.name, len(got), len(c.attrs))
			}
			for j, a := range c.attrs {
				wantID := a.ID
				if c.format == valueFormatV1 {
					wantID = 0
				}
				if !kvtest.AttrEqual(a, got[j]) || got[j].ID != wantID {
					t.Errorf("%s attr %d: %s id %d, want %s id %d", c.name, j, kvtest.FormatAttrs(got[j:j+1]), got[j].ID, kvtest.FormatAttrs(c.attrs[j:j+1]), wantID)
				}
			}
		}
	}
}

// TestValueProjection: a projection keeps the same attributes of a value
// in either format, by ID in format 2 (the names there are not compared:
// a request's name for an ID is not even looked at) and by name in
// format 1; decodeValueOf (Get) and decodeValueAliased (scans) agree.
func TestValueProjection(t *testing.T) {
	attrs := withIDs(kvtest.AllKinds())
	v2, _ := appendValue(nil, attrs)
	plain := slices.Clone(attrs)
	for i := range plain {
		plain[i].ID = 0
	}
	v1, _ := appendValue(nil, plain)
	if v1[0] != valueFormatV1 || v2[0] != valueFormatV2 {
		t.Fatal("formats not as meant")
	}
	pick := []int{len(attrs) - 1, 1, 3} // out of order: the result is in stored order
	var names []string
	var ids []uint16
	for _, i := range pick {
		names = append(names, attrs[i].Name)
		ids = append(ids, attrs[i].ID)
	}
	want := []kv.Attr{attrs[1], attrs[3], attrs[len(attrs)-1]}
	check := func(what string, got []kv.Attr, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %s, want %s", what, kvtest.FormatAttrs(got), kvtest.FormatAttrs(want))
		}
		for i := range want {
			if !kvtest.AttrEqual(want[i], got[i]) {
				t.Errorf("%s: %s, want %s", what, kvtest.FormatAttrs(got), kvtest.FormatAttrs(want))
			}
		}
	}
	for _, v := range [][]byte{v1, v2} {
		for _, p := range []struct {
			what  string
			names []string
			ids   []uint16
		}{{"by name", names, nil}, {"by id", names, ids}} {
			what := fmt.Sprintf("format %d %s", v[0], p.what)
			got, err := decodeValueOf(v, newProjection(p.names, p.ids))
			check(what+" (get)", got, err)
			proj := newProjection(p.names, p.ids)
			for range 2 { // the second item meets the projection's memory
				got, err = decodeValueAliased(nil, v, proj)
				check(what+" (scan)", got, err)
			}
		}
	}
	// In format 2 the IDs decide: a request naming other attributes by the
	// same IDs gets the attributes with those IDs.
	got, err := decodeValueAliased(nil, v2, newProjection([]string{"x", "y", "z"}, ids))
	check("format 2 by id under other names", got, err)
	// No attribute asked for: none decoded.
	if got, err := decodeValueAliased(nil, v2, newProjection([]string{}, []uint16{})); err != nil || len(got) != 0 {
		t.Errorf("empty projection: %s, %v", kvtest.FormatAttrs(got), err)
	}
}

// TestValueV2RejectsBadInput: every truncation of a format 2 value, an
// entry whose offset is not where its body starts, IDs out of order and a
// count past the table are refused, by a full decode and (where it reads
// the damaged part) by a projection.
func TestValueV2RejectsBadInput(t *testing.T) {
	attrs := withIDs([]kv.Attr{{Name: "a", Kind: kv.AttrString, S: "value"}, {Name: "b", Kind: kv.AttrFloat, F: 1}, {Name: "c", Kind: kv.AttrInt, I: -3}})
	good, _ := appendValue(nil, attrs)
	if _, err := decodeValue(good); err != nil {
		t.Fatal(err)
	}
	var bad [][]byte
	for i := 1; i < len(good); i++ {
		bad = append(bad, good[:i])
	}
	table := 2 // after the format byte and the one-byte count
	mutate := func(f func(b []byte)) {
		b := slices.Clone(good)
		f(b)
		bad = append(bad, b)
	}
	third := int(binary.LittleEndian.Uint16(good[table+2*v2EntrySize+2:]))
	mutate(func(b []byte) { b[table+2]++ })                          // first offset past its attr
	mutate(func(b []byte) { b[table+v2EntrySize+2]-- })              // second offset inside the first attr
	mutate(func(b []byte) { b[table], b[table+v2EntrySize] = 2, 1 }) // IDs decreasing
	mutate(func(b []byte) { b[table+v2EntrySize] = 1 })              // an ID twice
	mutate(func(b []byte) { b[1] = 50 })                             // more entries than bytes
	mutate(func(b []byte) { b[1] = 0 })                              // no entries
	mutate(func(b []byte) { b[third] = byte(kv.AttrBool) })          // kind not the payload's
	bad = append(bad, append(slices.Clone(good), 0))                 // bytes past the last attr
	for _, b := range bad {
		if _, err := decodeValue(b); err == nil {
			t.Errorf("decodeValue(%x) accepted corrupt input", b)
		}
		if _, err := decodeValueAliased(nil, b, nil); err == nil {
			t.Errorf("decodeValueAliased(%x) accepted corrupt input", b)
		}
	}
	// A projection reads only the entries it wants, but those it checks.
	far := slices.Clone(good)
	binary.LittleEndian.PutUint16(far[table+v2EntrySize+2:], uint16(len(far)+10))
	if _, err := decodeValueAliased(nil, far, newProjection([]string{"b"}, []uint16{2})); err == nil {
		t.Error("a projection followed an offset past the value")
	}
	early := slices.Clone(good)
	binary.LittleEndian.PutUint16(early[table+2:], 1)
	if _, err := decodeValueAliased(nil, early, newProjection([]string{"a"}, []uint16{1})); err == nil {
		t.Error("a projection followed an offset into the table")
	}
}
