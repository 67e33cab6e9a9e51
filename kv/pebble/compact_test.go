package pebble

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/zproxy/zproxy/kv"
)

// TestCompactPartitions: deleted items keep their space (tombstones over
// flushed values) until their partition is compacted, and compacting one
// partition gives it back without touching another's items.
func TestCompactPartitions(t *testing.T) {
	s := openMem(t)
	defer s.Close()
	victim, kept := []byte("Tvictim"), []byte("Tkept")
	rng := rand.New(rand.NewPCG(1, 2))
	var puts, dels []kv.Op
	for i := 0; i < 2000; i++ {
		for _, p := range [][]byte{victim, kept} {
			k := kv.Key{Partition: p, Sort: []byte(fmt.Sprintf("%06d", i))}
			value := make([]byte, 512) // incompressible, so the space is the values'
			for j := range value {
				value[j] = byte(rng.Uint32())
			}
			puts = append(puts, kv.Op{Kind: kv.OpPut, Key: k, Attrs: []kv.Attr{{Name: "v", Kind: kv.AttrBytes, B: value}}})
			if bytes.Equal(p, victim) {
				dels = append(dels, kv.Op{Kind: kv.OpDelete, Key: k})
			}
		}
	}
	if err := s.Write(bg, kv.Batch{Ops: puts}); err != nil {
		t.Fatal(err)
	}
	if err := s.db.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := s.Write(bg, kv.Batch{Ops: dels}); err != nil {
		t.Fatal(err)
	}
	if err := s.db.Flush(); err != nil {
		t.Fatal(err)
	}
	usage := func(p []byte) uint64 {
		prefix := appendPartitionPrefix(nil, p)
		n, err := s.db.EstimateDiskUsage(prefix, kv.PrefixEnd(prefix))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := usage(victim)
	if before < 2000*512/2 {
		t.Fatalf("the deleted partition takes %d bytes before compaction: the test does not measure what it means to", before)
	}
	if err := s.CompactPartitions(bg, [][]byte{victim}); err != nil {
		t.Fatal(err)
	}
	if after := usage(victim); after > before/10 {
		t.Errorf("the deleted partition takes %d bytes after compaction, %d before", after, before)
	}
	it := s.Scan(bg, kv.ScanRequest{Partition: kept})
	n := 0
	for it.Next() {
		n++
	}
	if err := it.Err(); err != nil || n != 2000 {
		t.Errorf("the other partition after compaction: %d items, %v", n, err)
	}
}
