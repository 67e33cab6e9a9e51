package executor

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/optimizer"
)

// prefetchKV is a store of one partition whose iterators prefetch
// (kv.Prefetcher): it records the order in which ranges are opened,
// prefetched and read, and how many iterators are open at once.
type prefetchKV struct {
	kv.ReadWriter
	keys    [][]byte
	failAt  []byte // a range starting here fails when read
	mu      sync.Mutex
	open    int
	maxOpen int
	fetched []string // ranges whose first page was prefetched
	read    []string // ranges in the order their items were first read
}

func (s *prefetchKV) Scan(_ context.Context, req kv.ScanRequest) kv.Iterator {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.open++
	s.maxOpen = max(s.maxOpen, s.open)
	return &prefetchIt{s: s, req: req, pos: -1}
}

type prefetchIt struct {
	s       *prefetchKV
	req     kv.ScanRequest
	items   [][]byte
	pos     int
	started bool
	err     error
	closed  bool
}

func (it *prefetchIt) load() {
	if it.started {
		return
	}
	it.started = true
	if it.s.failAt != nil && bytes.Equal(it.req.Start, it.s.failAt) {
		it.err = errors.New("injected failure")
		return
	}
	for _, k := range it.s.keys {
		if bytes.Compare(k, it.req.Start) >= 0 && bytes.Compare(k, it.req.End) < 0 {
			it.items = append(it.items, k)
		}
	}
}

func (it *prefetchIt) Prefetch() bool {
	if it.started {
		return true
	}
	it.s.mu.Lock()
	it.s.fetched = append(it.s.fetched, string(it.req.Start))
	it.s.mu.Unlock()
	it.load()
	return true
}

func (it *prefetchIt) Next() bool {
	if it.pos < 0 {
		it.s.mu.Lock()
		it.s.read = append(it.s.read, string(it.req.Start))
		it.s.mu.Unlock()
	}
	it.load()
	if it.err != nil {
		return false
	}
	it.pos++
	return it.pos < len(it.items)
}

func (it *prefetchIt) Item() kv.Item {
	return kv.Item{Key: kv.Key{Partition: it.req.Partition, Sort: it.items[it.pos]}, Attrs: []kv.Attr{}}
}
func (it *prefetchIt) Seek([]byte) {}
func (it *prefetchIt) Err() error  { return it.err }
func (it *prefetchIt) Close() error {
	if !it.closed {
		it.closed = true
		it.s.mu.Lock()
		it.s.open--
		it.s.mu.Unlock()
	}
	return nil
}

// prefetchScan is a scan of ten ranges "r0".."r9" of three keys each, on a
// store whose iterators prefetch, ScanFanout 4.
func prefetchScan(store *prefetchKV, limit int, est *optimizer.Estimate) *scanRows {
	tb := &catalog.Table{ID: 7, Name: "t", Columns: []catalog.Column{{Name: "k", Type: sqltypes.TypeInt8}}}
	n := &optimizer.Scan{Table: tb, Method: optimizer.RangeScan, Shards: []int{0}, Limit: limit, Estimated: est}
	for i := range 10 {
		n.Ranges = append(n.Ranges, optimizer.KeyRange{Start: []byte(fmt.Sprintf("r%d", i)), End: []byte(fmt.Sprintf("r%d~", i))})
		for j := range 3 {
			store.keys = append(store.keys, []byte(fmt.Sprintf("r%d-%d", i, j)))
		}
	}
	ec := &execCtx{ex: &Executor{Caps: kv.Capabilities{RequestLatency: 5 * time.Millisecond, ScanFanout: 4}}, kv: store}
	return &scanRows{ec: ec, node: n, statKey: n}
}

// drainStream reads a scan's one shard stream to its end.
func drainStream(ctx context.Context, s *scanRows) (int, error) {
	st := s.newShardStream(0, nil, false)
	defer st.close()
	rows := 0
	for {
		items, err := st.fill(ctx)
		if err != nil || items == nil {
			return rows, err
		}
		rows += len(items)
	}
}

// A shard's ranges are read in key order while up to ScanFanout of them
// are open (the current one and three prefetching), each range after the
// first prefetched once, and every iterator is closed at the end.
func TestScanPrefetchesRangesInOrder(t *testing.T) {
	store := &prefetchKV{}
	s := prefetchScan(store, 0, nil)
	rows, err := drainStream(context.Background(), s)
	if err != nil || rows != 30 {
		t.Fatalf("read %d rows (err %v), want 30", rows, err)
	}
	var want []string
	for i := range 10 {
		want = append(want, fmt.Sprintf("r%d", i))
	}
	if !slices.Equal(store.read, want) {
		t.Errorf("ranges read in order %v, want %v", store.read, want)
	}
	if !slices.Equal(store.fetched, want[1:]) {
		t.Errorf("ranges prefetched %v, want %v", store.fetched, want[1:])
	}
	if store.maxOpen != 4 || store.open != 0 {
		t.Errorf("at most %d iterators open (want 4, the fan-out), %d left open", store.maxOpen, store.open)
	}
}

// A range that fails stops the stream with its error, and the ranges
// prefetched past it are closed.
func TestScanPrefetchErrorClosesAhead(t *testing.T) {
	store := &prefetchKV{failAt: []byte("r3")}
	s := prefetchScan(store, 0, nil)
	rows, err := drainStream(context.Background(), s)
	if err == nil || rows != 0 {
		t.Fatalf("stream with a failing range: %d rows handed over, err %v; want the error", rows, err)
	}
	if store.open != 0 || len(s.slots) != 0 {
		t.Errorf("%d iterators and %d slots still held after the error", store.open, len(s.slots))
	}
}

// Under a LIMIT the stream prefetches only the share of the ranges the
// estimate says it reads; without an estimate, none.
func TestScanPrefetchWindowUnderLimit(t *testing.T) {
	cases := []struct {
		limit         int
		est           *optimizer.Estimate
		window, reach int
	}{
		{0, nil, 3, 10},
		{5, &optimizer.Estimate{Rows: 100}, 3, 1},  // 5% of 10 ranges: the first
		{30, &optimizer.Estimate{Rows: 100}, 3, 3}, // 30%: three ranges
		{500, &optimizer.Estimate{Rows: 100}, 3, 10},
		{5, nil, 0, 0},
	}
	for _, c := range cases {
		s := prefetchScan(&prefetchKV{}, c.limit, c.est)
		// A residual filter: the LIMIT is no page size for the ranges.
		s.node.Residual = &ir.Const{V: sqltypes.NewBool(true), Typ: sqltypes.TypeBool}
		if w, r := s.prefetchWindow(10); w != c.window || r != c.reach {
			t.Errorf("limit %d, estimate %v: window %d reach %d, want %d and %d", c.limit, c.est, w, r, c.window, c.reach)
		}
	}
	// A store with cheap seeks reads one range at a time, and so does a
	// LIMIT that sizes each range's pages.
	s := prefetchScan(&prefetchKV{}, 0, nil)
	s.ec.ex.Caps.CheapSeek = true
	if w, _ := s.prefetchWindow(10); w != 0 {
		t.Errorf("cheap seeks: window %d, want 0", w)
	}
	if w, _ := prefetchScan(&prefetchKV{}, 5, &optimizer.Estimate{Rows: 100}).prefetchWindow(10); w != 0 {
		t.Errorf("a LIMIT as page size: window %d, want 0", w)
	}
}

// A stream not yet read (the next shard of a scan whose shards are read
// one after another) prefetches from its first range; reading it then
// takes those iterators in order.
func TestScanPrefetchesNextShardFromItsFirstRange(t *testing.T) {
	store := &prefetchKV{}
	s := prefetchScan(store, 0, nil)
	st := s.newShardStream(0, nil, false)
	st.prefetch(context.Background())
	if want := []string{"r0", "r1", "r2"}; !slices.Equal(store.fetched, want) {
		t.Fatalf("an unread stream prefetched %v, want %v", store.fetched, want)
	}
	st.close()
	rows, err := drainStream(context.Background(), s)
	if err != nil || rows != 30 || store.open != 0 || len(s.slots) != 0 {
		t.Errorf("read %d rows (err %v) with %d iterators and %d slots left, want 30 and none", rows, err, store.open, len(s.slots))
	}
}

// A statement's reads on a store that charges capacity wrap each iterator
// to count it; the wrapper still prefetches.
func TestCappedReadsPrefetch(t *testing.T) {
	store := &prefetchKV{keys: [][]byte{[]byte("a")}}
	reads := statementReads{ReadWriter: store, capacity: true, used: new(atomic.Int64)}
	it := reads.Scan(context.Background(), kv.ScanRequest{Start: []byte("a"), End: []byte("b"), Stats: new(kv.Stats)})
	defer it.Close()
	if !kv.Prefetch(it) || !slices.Equal(store.fetched, []string{"a"}) {
		t.Fatalf("a capped iterator did not prefetch (fetched %v)", store.fetched)
	}
	if !it.Next() || string(it.Item().Key.Sort) != "a" {
		t.Fatalf("after the prefetch: %v", it.Err())
	}
}
