package kv

import (
	"bytes"
	"testing"
)

// TestAppendPrefixEnd checks that AppendPrefixEnd into a buffer of its own
// is PrefixEnd.
func TestAppendPrefixEnd(t *testing.T) {
	for _, p := range [][]byte{nil, {}, {0}, {1, 2}, {1, 0xff}, {0xff}, {0xff, 0xff}, {3, 0xff, 0xff}, {0xfe}} {
		want := PrefixEnd(p)
		var room [8]byte
		got := AppendPrefixEnd(room[:0], p)
		if !bytes.Equal(got, want) || (got == nil) != (want == nil) {
			t.Errorf("AppendPrefixEnd(%x) = %x, want %x", p, got, want)
		}
	}
}
