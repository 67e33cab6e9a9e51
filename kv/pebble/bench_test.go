package pebble

import (
	"fmt"
	"testing"

	"github.com/zproxy/zproxy/kv"
)

// rowAttrs is a typical table row: a few numbers and short strings.
func rowAttrs(i int) []kv.Attr {
	return []kv.Attr{
		{Name: "sensor_id", Kind: kv.AttrInt, I: int64(i % 100)},
		{Name: "ts", Kind: kv.AttrInt, I: 1_700_000_000_000_000 + int64(i)},
		{Name: "celsius", Kind: kv.AttrFloat, F: 21.5},
		{Name: "lat", Kind: kv.AttrFloat, F: 40.7},
		{Name: "lon", Kind: kv.AttrFloat, F: -73.9},
		{Name: "note", Kind: kv.AttrString, S: "reading ok"},
	}
}

func benchStore(b *testing.B, n int) *Store {
	b.Helper()
	s, err := Open(b.TempDir(), Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	ops := make([]kv.Op, n)
	for i := range ops {
		ops[i] = kv.Op{Kind: kv.OpPut, Key: benchKey(i), Attrs: rowAttrs(i)}
	}
	if err := s.Write(bg, kv.Batch{Ops: ops}); err != nil {
		b.Fatal(err)
	}
	return s
}

func benchKey(i int) kv.Key {
	return kv.Key{Partition: []byte("\x00\x00\x00\x07\x00\x01"), Sort: []byte(fmt.Sprintf("%08d", i))}
}

func BenchmarkDecodeValue(b *testing.B) {
	enc, _ := appendValue(nil, rowAttrs(1))
	b.ReportAllocs()
	b.SetBytes(int64(len(enc)))
	for b.Loop() {
		if _, err := decodeValue(enc); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeValue(b *testing.B) {
	attrs := rowAttrs(1)
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		buf, _ = appendValue(buf[:0], attrs)
	}
}

func BenchmarkGet(b *testing.B) {
	s := benchStore(b, 10_000)
	keys := []kv.Key{benchKey(4321)}
	b.ReportAllocs()
	for b.Loop() {
		items, err := s.Get(bg, kv.GetRequest{Keys: keys})
		if err != nil || !kv.Found(items[0]) {
			b.Fatal(err)
		}
	}
}

func BenchmarkScan1000(b *testing.B) {
	s := benchStore(b, 10_000)
	req := kv.ScanRequest{Partition: benchKey(0).Partition, Start: benchKey(2000).Sort, End: benchKey(3000).Sort}
	b.ReportAllocs()
	for b.Loop() {
		it := s.Scan(bg, req)
		n := 0
		for it.Next() {
			n++
		}
		if err := it.Close(); err != nil || n != 1000 {
			b.Fatal(n, err)
		}
	}
}

// BenchmarkWrite100 writes atomic batches of 100 puts, each synced to disk
// (the temp directory's file system decides what an fsync costs).
func BenchmarkWrite100(b *testing.B) {
	s := benchStore(b, 0)
	ops := make([]kv.Op, 100)
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		for i := range ops {
			ops[i] = kv.Op{Kind: kv.OpPut, Key: benchKey(n), Attrs: rowAttrs(n)}
			n++
		}
		if err := s.Write(bg, kv.Batch{Atomic: true, Ops: ops}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkConditionalInsert100 is Write100 with CondNotExists on every op,
// the shape of a multi-row INSERT.
func BenchmarkConditionalInsert100(b *testing.B) {
	s := benchStore(b, 0)
	ops := make([]kv.Op, 100)
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		for i := range ops {
			ops[i] = kv.Op{Kind: kv.OpPut, Key: benchKey(n), Attrs: rowAttrs(n), Cond: kv.CondNotExists}
			n++
		}
		if err := s.Write(bg, kv.Batch{Atomic: true, Ops: ops}); err != nil {
			b.Fatal(err)
		}
	}
}
