package pebble

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

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

// BenchmarkGet100 gets 100 keys scattered over 10,000 rows in one request
// (the rows an index scan or an IN list names), with one in ten absent.
func BenchmarkGet100(b *testing.B) {
	s := benchStore(b, 10_000)
	keys := make([]kv.Key, 100)
	for i := range keys {
		keys[i] = benchKey((i * 7919) % 11_000)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Get(bg, kv.GetRequest{Keys: keys}); err != nil {
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

// rowOps is the shape of a one-row INSERT: the row (CondNotExists) and two
// index entries.
func rowOps(n int) []kv.Op {
	k := benchKey(n)
	ix := func(id byte) kv.Key {
		return kv.Key{Partition: []byte{'I', id}, Sort: append([]byte(fmt.Sprintf("%08d", n%1000)), k.Sort...)}
	}
	return []kv.Op{
		{Kind: kv.OpPut, Key: k, Attrs: rowAttrs(n), Cond: kv.CondNotExists},
		{Kind: kv.OpPut, Key: ix(1), Attrs: rowAttrs(n)[:2]},
		{Kind: kv.OpPut, Key: ix(2), Attrs: rowAttrs(n)[:2]},
	}
}

// BenchmarkInsertRow is an autocommit one-row INSERT as a plain atomic
// Write (each synced), run from 8 goroutines so syncs share group commits.
func BenchmarkInsertRow(b *testing.B) {
	insertRows(b, benchStore(b, 0))
}

// BenchmarkInsertRowWithLiveTxn is BenchmarkInsertRow while a read-write
// transaction is open, so every write records its keys for conflict
// checks.
func BenchmarkInsertRowWithLiveTxn(b *testing.B) {
	s := benchStore(b, 0)
	txn, err := s.Begin(bg, kv.TxnOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer txn.Rollback()
	insertRows(b, s)
}

func insertRows(b *testing.B, s *Store) {
	var n atomic.Int64
	b.ReportAllocs()
	b.SetParallelism(8)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := s.Write(bg, kv.Batch{Atomic: true, Ops: rowOps(int(n.Add(1)))}); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkInsertRowTxn is the same INSERT as a transaction of its own
// (Begin, Write, Commit).
func BenchmarkInsertRowTxn(b *testing.B) {
	s := benchStore(b, 0)
	var n atomic.Int64
	b.ReportAllocs()
	b.SetParallelism(8)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			txn, err := s.Begin(bg, kv.TxnOptions{})
			if err == nil {
				if err = txn.Write(bg, kv.Batch{Ops: rowOps(int(n.Add(1)))}); err == nil {
					err = txn.Commit(bg)
				}
			}
			if err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkTxnTransfer reads two of 1000 accounts and writes both back in a
// transaction, from 8 goroutines; conflicts are counted, not retried.
func BenchmarkTxnTransfer(b *testing.B) {
	s := benchStore(b, 1000)
	var conflicts atomic.Int64
	b.ReportAllocs()
	b.SetParallelism(8)
	b.RunParallel(func(pb *testing.PB) {
		rng := rand.New(rand.NewPCG(rand.Uint64(), 1))
		for pb.Next() {
			keys := []kv.Key{benchKey(rng.IntN(1000)), benchKey(rng.IntN(1000))}
			txn, err := s.Begin(bg, kv.TxnOptions{})
			if err != nil {
				b.Error(err)
				return
			}
			items, err := txn.Get(bg, kv.GetRequest{Keys: keys})
			if err == nil {
				err = txn.Write(bg, kv.Batch{Ops: []kv.Op{
					{Kind: kv.OpPut, Key: keys[0], Attrs: items[0].Attrs},
					{Kind: kv.OpPut, Key: keys[1], Attrs: items[1].Attrs},
				}})
			}
			if err == nil {
				err = txn.Commit(bg)
			}
			var ce *kv.ConflictError
			if errors.As(err, &ce) {
				conflicts.Add(1)
			} else if err != nil {
				b.Error(err)
				return
			}
			txn.Rollback()
		}
	})
	b.ReportMetric(float64(conflicts.Load())/float64(b.N), "conflicts/op")
}

// BenchmarkReadOnlyTxnGet is a read-only transaction reading one key.
func BenchmarkReadOnlyTxnGet(b *testing.B) {
	s := benchStore(b, 10_000)
	keys := []kv.Key{benchKey(4321)}
	b.ReportAllocs()
	for b.Loop() {
		txn, err := s.Begin(bg, kv.TxnOptions{ReadOnly: true})
		if err != nil {
			b.Fatal(err)
		}
		items, err := txn.Get(bg, kv.GetRequest{Keys: keys})
		if err != nil || !kv.Found(items[0]) {
			b.Fatal(err)
		}
		txn.Commit(bg)
	}
}

// BenchmarkTxn10000 commits transactions of 10,000 one-row inserts.
func BenchmarkTxn10000(b *testing.B) {
	s := benchStore(b, 0)
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		txn, err := s.Begin(bg, kv.TxnOptions{})
		if err != nil {
			b.Fatal(err)
		}
		for range 10_000 {
			if err := txn.Write(bg, kv.Batch{Ops: rowOps(n)}); err != nil {
				b.Fatal(err)
			}
			n++
		}
		if err := txn.Commit(bg); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Seconds())/float64(b.N)/10_000*1e6, "µs/row")
}

// BenchmarkInsert500Concurrent is two connections bulk-loading disjoint
// rows: atomic Writes of 500 rows (a row with CondNotExists and two index
// entries each, 1,500 ops), each synced, from 2 goroutines. Writes that
// share no key should commit concurrently and share WAL syncs.
func BenchmarkInsert500Concurrent(b *testing.B) {
	s := benchStore(b, 0)
	var next atomic.Int64
	b.SetParallelism(1) // GOMAXPROCS goroutines; run with -cpu 2
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		ops := make([]kv.Op, 0, 1500)
		for pb.Next() {
			base := int(next.Add(500)) - 500
			ops = ops[:0]
			for i := range 500 {
				ops = append(ops, rowOps(base+i)...)
			}
			if err := s.Write(bg, kv.Batch{Atomic: true, Ops: ops}); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N*500)/b.Elapsed().Seconds(), "rows/s")
}

// loadOps are the ops of rows [from, from+n) of a bulk load shaped like the
// side-by-side harness's: the row with CondNotExists plus a btree and a
// Z-order entry, rows ordered slot by slot (sensor = i % 2000), so one
// batch's keys are scattered over the table.
func loadOps(ops []kv.Op, from, n int) []kv.Op {
	ops = ops[:0]
	for i := from; i < from+n; i++ {
		sensor, slot := uint64(i%2000), uint64(i/2000)
		pk := binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(make([]byte, 0, 16), sensor), slot)
		h := (uint64(i) + 1) * 0x9E3779B97F4A7C15
		note := fmt.Appendf(nil, "code-%05d", h%2000)
		z := binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(nil, h^h>>29), h*31)
		attrs := rowAttrs(i)
		ops = append(ops,
			kv.Op{Kind: kv.OpPut, Key: kv.Key{Partition: []byte("T\x00\x00\x00\x07\x00"), Sort: pk}, Attrs: attrs, Cond: kv.CondNotExists},
			kv.Op{Kind: kv.OpPut, Key: kv.Key{Partition: []byte("I\x00\x00\x00\x08\x00"), Sort: append(note, pk...)}, Attrs: attrs[2:3]},
			kv.Op{Kind: kv.OpPut, Key: kv.Key{Partition: []byte("I\x00\x00\x00\x09\x00"), Sort: append(z, pk...)}, Attrs: attrs[2:]},
		)
	}
	return ops
}

// BenchmarkInsert500Scattered is one loader's 500-row INSERT (1,500 ops, a
// condition per row) into a table of 200,000 rows, its keys scattered as a
// fleet's readings are: the existence checks and memtable inserts of a
// bulk load.
func BenchmarkInsert500Scattered(b *testing.B) {
	s := benchStore(b, 0)
	var ops []kv.Op
	const preload = 200_000
	for from := 0; from < preload; from += 500 {
		ops = loadOps(ops, from, 500)
		if err := s.Write(bg, kv.Batch{Atomic: true, Ops: ops}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	n := preload
	cpu0 := processCPU()
	for b.Loop() {
		ops = loadOps(ops, n, 500)
		n += 500
		if err := s.Write(bg, kv.Batch{Atomic: true, Ops: ops}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*500), "µs/row")
	b.ReportMetric(float64((processCPU()-cpu0).Microseconds())/float64(b.N*500), "cpu-µs/row")
}

// processCPU is the CPU time (user + system) the process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkDecodeProjected decodes one attribute (the fourth) of a
// seven-attribute row, as a scan of one column does, from a value in
// format 1 (matched by name) and in format 2 (by ID).
func BenchmarkDecodeProjected(b *testing.B) {
	attrs := append(rowAttrs(1), kv.Attr{Name: "zproxy:version", Kind: kv.AttrInt, I: 1})
	for i := range attrs {
		attrs[i].ID = uint16(i + 1)
	}
	v2, _ := appendValue(nil, attrs)
	for i := range attrs {
		attrs[i].ID = 0
	}
	v1, _ := appendValue(nil, attrs)
	for _, c := range []struct {
		name string
		v    []byte
	}{{"format1", v1}, {"format2", v2}} {
		b.Run(c.name, func(b *testing.B) {
			p := newProjection([]string{"lat"}, []uint16{4})
			var dst []kv.Attr
			b.ReportAllocs()
			for b.Loop() {
				var err error
				if dst, err = decodeValueAliased(dst, c.v, p); err != nil || len(dst) != 1 || dst[0].F != 40.7 {
					b.Fatal(err, dst)
				}
			}
		})
	}
}

// BenchmarkGet100Flushed gets 100 keys scattered over 100,000 rows of
// about 250 bytes that are in sstables, in one request: the row reads of
// a gin index scan returning a hundred documents (bench/README, issue 28).
func BenchmarkGet100Flushed(b *testing.B) {
	s, err := Open(b.TempDir(), Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	const n = 100_000
	body := kv.Attr{Name: "attrs", Kind: kv.AttrString, S: `{"dims": {"h": 12, "w": 27}, "size": 3, "brand": "b123", "color": "c4", "x1234": true} the qbcd qfgh qjkl qmnp qrst qvwx`}
	for start := 0; start < n; start += 5000 {
		ops := make([]kv.Op, 0, 5000)
		for i := start; i < start+5000; i++ {
			attrs := append(rowAttrs(i), body, kv.Attr{Name: "tags", Kind: kv.AttrString, S: fmt.Sprintf("{t%d,t%d,t%d}", i%3000, i%2999, i%2998)})
			ops = append(ops, kv.Op{Kind: kv.OpPut, Key: benchKey(i), Attrs: attrs})
		}
		if err := s.Write(bg, kv.Batch{Ops: ops}); err != nil {
			b.Fatal(err)
		}
	}
	if err := s.db.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := s.db.Compact([]byte{0}, []byte{0xff}, true); err != nil {
		b.Fatal(err)
	}
	keys := make([]kv.Key, 100)
	for i := range keys {
		keys[i] = benchKey(i*(n/100) + (i*7919)%(n/100))
	}
	b.ReportAllocs()
	cpu0 := processCPU()
	for b.Loop() {
		items, err := s.Get(bg, kv.GetRequest{Keys: keys})
		if err != nil || !kv.Found(items[0]) {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((processCPU()-cpu0).Nanoseconds())/float64(b.N*len(keys)), "cpu-ns/key")
}
