package dynamodb

import (
	"fmt"
	"testing"

	"github.com/zproxy/zproxy/kv"
)

// benchStore opens a store on a fresh table holding n small items in
// partition "p" (sort keys %06d).
func benchStore(b *testing.B, n int) *Store {
	requireDynamo(b)
	s := openTest(b, testOptions(uniqueTable(b), endpoint))
	deleteTableOnCleanup(b, s)
	var ops []kv.Op
	for i := range n {
		ops = append(ops, putOp(key("p", fmt.Sprintf("%06d", i)), intAttr("i", int64(i)), kv.Attr{Name: "s", Kind: kv.AttrString, S: "some text of a row"}))
	}
	mustWrite(b, s, kv.Batch{Ops: ops})
	return s
}

func reportStats(b *testing.B, st *kv.Stats) {
	b.ReportMetric(float64(st.Requests.Load())/float64(b.N), "requests/op")
	b.ReportMetric(float64(st.ItemsRead.Load()+st.ItemsWritten.Load())/float64(b.N), "items/op")
	b.ReportMetric(st.Capacity()/float64(b.N), "capacity/op")
}

func BenchmarkGet100(b *testing.B) {
	s := benchStore(b, 1000)
	keys := make([]kv.Key, 100)
	for i := range keys {
		keys[i] = key("p", fmt.Sprintf("%06d", i*10))
	}
	var st kv.Stats
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Get(bg, kv.GetRequest{Keys: keys, Stats: &st}); err != nil {
			b.Fatal(err)
		}
	}
	reportStats(b, &st)
}

func BenchmarkScan1000(b *testing.B) {
	s := benchStore(b, 1000)
	var st kv.Stats
	b.ReportAllocs()
	for b.Loop() {
		it := s.Scan(bg, kv.ScanRequest{Partition: []byte("p"), Stats: &st})
		n := 0
		for it.Next() {
			n++
		}
		if err := it.Err(); err != nil || n != 1000 {
			b.Fatalf("scan: %d items, %v", n, err)
		}
		it.Close()
	}
	reportStats(b, &st)
}

func BenchmarkTransactWrite3(b *testing.B) {
	s := benchStore(b, 0)
	var st kv.Stats
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		ops := []kv.Op{
			{Kind: kv.OpPut, Key: key("p", fmt.Sprintf("r%08d", i)), Attrs: []kv.Attr{intAttr("i", int64(i))}, Cond: kv.CondNotExists},
			putOp(key("ix1", fmt.Sprintf("%08d", i))),
			putOp(key("ix2", fmt.Sprintf("%08d", i))),
		}
		if err := s.Write(bg, kv.Batch{Atomic: true, Ops: ops, Stats: &st}); err != nil {
			b.Fatal(err)
		}
	}
	reportStats(b, &st)
}
