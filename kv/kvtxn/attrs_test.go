package kvtxn

import (
	"math"
	"reflect"
	"testing"

	"github.com/zproxy/zproxy/kv"
)

// TestAttrsRoundTrip: a buffered put's attributes decode as they were
// given (the field each kind makes meaningful; nil and empty bytes kept
// apart), into memory the caller owns.
func TestAttrsRoundTrip(t *testing.T) {
	in := []kv.Attr{
		{Name: "n", Kind: kv.AttrNull},
		{Name: "b", Kind: kv.AttrBool, I: 1, ID: 3},
		{Name: "id", Kind: kv.AttrInt, I: 7, ID: 0xffff}, // IDs are kept for the store's value format
		{Name: "i", Kind: kv.AttrInt, I: math.MinInt64},
		{Name: "f", Kind: kv.AttrFloat, F: math.Copysign(0, -1)},
		{Name: "s", Kind: kv.AttrString, S: "héllo"},
		{Name: "", Kind: kv.AttrString},
		{Name: "by", Kind: kv.AttrBytes, B: []byte{0, 1, 2}},
		{Name: "empty", Kind: kv.AttrBytes, B: []byte{}},
		{Name: "nilb", Kind: kv.AttrBytes},
	}
	enc := encodeAttrs(in)
	out := decodeAttrs(enc)
	if !reflect.DeepEqual(in, out) || math.Signbit(out[4].F) != true {
		t.Fatalf("round trip:\n got %#v\nwant %#v", out, in)
	}
	if out[8].B == nil || out[9].B != nil {
		t.Error("nil and empty bytes not kept apart")
	}
	out[7].B[0] = 9
	if again := decodeAttrs(enc); again[7].B[0] != 0 {
		t.Error("decoded bytes alias the encoding")
	}
	if got := decodeAttrs(encodeAttrs(nil)); got == nil || len(got) != 0 {
		t.Errorf("no attributes: %#v, want an empty non-nil slice", got)
	}
	k := kv.Key{Partition: []byte("part"), Sort: []byte{0, 0xff, 1}}
	if got := decodeKey(encodeKey(k)); !reflect.DeepEqual(got, k) {
		t.Errorf("key: %v, want %v", got, k)
	}
}
