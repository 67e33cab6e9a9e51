package pebble

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/kv"
)

// TestCopyPrefix: the partitions under a prefix are listed whatever their
// lengths, none outside it, and CopyPrefix copies their items (more than
// one write batch of them) under another prefix, leaving the source and
// the other partitions as they were; DeletePartitionPrefix removes the
// copy alone.
func TestCopyPrefix(t *testing.T) {
	s := openMem(t)
	defer s.Close()
	from, to := []byte("\xffd\x00\x01"), []byte("\xffd\x00\x02")
	parts := [][]byte{
		append(bytes.Clone(from), "T1"...),
		append(bytes.Clone(from), "Ilonger-partition"...),
		append(bytes.Clone(from), "C"...),
		[]byte("Tunprefixed"),
		[]byte("\xffd\x00\x03T1"),
	}
	counts := []int{600, 3, 1, 5, 7}
	var ops []kv.Op
	for i, p := range parts {
		for j := 0; j < counts[i]; j++ {
			ops = append(ops, kv.Op{Kind: kv.OpPut, Key: kv.Key{Partition: p, Sort: []byte(fmt.Sprintf("%05d", j))},
				Attrs: []kv.Attr{{Name: "v", Kind: kv.AttrString, S: fmt.Sprintf("%s/%d", p, j)}}})
		}
	}
	if err := s.Write(bg, kv.Batch{Ops: ops}); err != nil {
		t.Fatal(err)
	}
	listed, err := s.PartitionsWithPrefix(bg, from)
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(listed, bytes.Compare)
	want := slices.Clone(parts[:3])
	slices.SortFunc(want, bytes.Compare)
	if !slices.EqualFunc(listed, want, bytes.Equal) {
		t.Fatalf("partitions under the prefix: %q, want %q", listed, want)
	}
	n, err := kv.CopyPrefix(bg, s, from, to)
	if err != nil {
		t.Fatal(err)
	}
	if n != 604 {
		t.Errorf("copied %d items, want 604", n)
	}
	count := func(p []byte) (int, string) {
		it := s.Scan(bg, kv.ScanRequest{Partition: p})
		defer it.Close()
		c, last := 0, ""
		for it.Next() {
			c++
			last = strings.Clone(it.Item().Attrs[0].S) // valid until Next: the iterator may decode in place
		}
		if err := it.Err(); err != nil {
			t.Fatal(err)
		}
		return c, last
	}
	for i, p := range parts {
		if c, _ := count(p); c != counts[i] {
			t.Errorf("partition %q holds %d items after the copy, want %d", p, c, counts[i])
		}
		if i < 3 {
			dst := append(bytes.Clone(to), p[len(from):]...)
			c, last := count(dst)
			if c != counts[i] || last != fmt.Sprintf("%s/%d", p, counts[i]-1) {
				t.Errorf("the copy of %q holds %d items, the last %q", p, c, last)
			}
		}
	}
	// Deleting the copy's prefix leaves the source whole.
	if err := s.DeletePartitionPrefix(bg, to); err != nil {
		t.Fatal(err)
	}
	for i, p := range parts {
		if c, _ := count(p); c != counts[i] {
			t.Errorf("partition %q holds %d items after the copy was deleted, want %d", p, c, counts[i])
		}
	}
	if left, err := s.PartitionsWithPrefix(bg, to); err != nil || len(left) != 0 {
		t.Errorf("partitions left under the deleted prefix: %q (%v)", left, err)
	}
}
