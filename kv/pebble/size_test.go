package pebble

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/zproxy/zproxy/kv"
)

// TestPartitionBytes: the bytes measured for a partition count what was
// just written (no flush by the caller), only that partition's, and shrink
// once its deleted items are compacted.
func TestPartitionBytes(t *testing.T) {
	s := openMem(t)
	defer s.Close()
	a, b := []byte("Ta"), []byte("Tb")
	size := func(parts ...[]byte) int64 {
		t.Helper()
		n, err := s.PartitionBytes(bg, parts)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := size(a); n != 0 {
		t.Fatalf("an empty partition measures %d bytes", n)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var puts, dels []kv.Op
	for i := 0; i < 1000; i++ {
		k := kv.Key{Partition: a, Sort: []byte(fmt.Sprintf("%06d", i))}
		value := make([]byte, 256) // incompressible
		for j := range value {
			value[j] = byte(rng.Uint32())
		}
		puts = append(puts, kv.Op{Kind: kv.OpPut, Key: k, Attrs: []kv.Attr{{Name: "v", Kind: kv.AttrBytes, B: value}}})
		dels = append(dels, kv.Op{Kind: kv.OpDelete, Key: k})
	}
	if err := s.Write(bg, kv.Batch{Ops: puts}); err != nil {
		t.Fatal(err)
	}
	full := size(a)
	if full < 1000*256 || size(b) != 0 || size(a, b) != full {
		t.Fatalf("after 1000 items of 256 bytes: %d bytes (b %d, both %d)", full, size(b), size(a, b))
	}
	if err := s.Write(bg, kv.Batch{Ops: dels}); err != nil {
		t.Fatal(err)
	}
	if err := s.CompactPartitions(bg, [][]byte{a}); err != nil {
		t.Fatal(err)
	}
	if n := size(a); n >= full/10 {
		t.Fatalf("after deleting every item and compacting: %d bytes (was %d)", n, full)
	}
}
