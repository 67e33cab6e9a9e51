package dynamodb

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"

	"github.com/zproxy/zproxy/kv"
)

// prefetchRanges are ten ranges of partition "p", [ra, rb), [rb, rc), ...
// over the keys "r<letter>-<j>", j < 20, that prefetchData writes.
func prefetchRanges() [][2][]byte {
	var out [][2][]byte
	for i := range 10 {
		out = append(out, [2][]byte{[]byte(fmt.Sprintf("r%c", 'a'+i)), []byte(fmt.Sprintf("r%c", 'a'+i+1))})
	}
	return out
}

// prefetchStore opens a store on a table of its own holding prefetchData,
// and returns its options for opening others on the table.
func prefetchStore(t *testing.T) (*Store, Options) {
	t.Helper()
	requireDynamo(t)
	t.Parallel()
	opts := testOptions(uniqueTable(t), endpoint)
	s := openTest(t, opts)
	deleteTableOnCleanup(t, s)
	prefetchData(t, s)
	return s, opts
}

func prefetchData(t *testing.T, s *Store) {
	t.Helper()
	var ops []kv.Op
	for i := range 10 {
		for j := range 20 {
			ops = append(ops, putOp(key("p", fmt.Sprintf("r%c-%02d", 'a'+i, j)), intAttr("v", int64(i*100+j))))
		}
	}
	mustWrite(t, s, kv.Batch{Ops: ops})
}

// openPrefetched opens one iterator per range and prefetches them all.
func openPrefetched(ctx context.Context, r kv.ReadWriter, ranges [][2][]byte, stats *kv.Stats, limit int) []kv.Iterator {
	its := make([]kv.Iterator, len(ranges))
	for i, rg := range ranges {
		its[i] = r.Scan(ctx, kv.ScanRequest{Partition: []byte("p"), Start: rg[0], End: rg[1], Stats: stats, Limit: limit})
		if !kv.Prefetch(its[i]) {
			panic("not a Prefetcher")
		}
	}
	return its
}

// Prefetched iterators yield exactly what iterators read one after another
// do, in each range's key order, with the same requests and items; a Seek
// within the prefetched page is free and one past it restarts the Query.
func TestPrefetchKeepsOrderAndCounts(t *testing.T) {
	s, _ := prefetchStore(t)
	ranges := prefetchRanges()

	var seq kv.Stats
	var want []string
	for _, rg := range ranges {
		want = append(want, scanKeys(t, s.Scan(bg, kv.ScanRequest{Partition: []byte("p"), Start: rg[0], End: rg[1], Stats: &seq}))...)
	}
	var pre kv.Stats
	var got []string
	for _, it := range openPrefetched(bg, s, ranges, &pre, 0) {
		got = append(got, scanKeys(t, it)...)
	}
	if strings.Join(got, ",") != strings.Join(want, ",") || len(got) != 200 {
		t.Fatalf("prefetched ranges read %d keys %v..., want the %d read one by one", len(got), got[:min(len(got), 5)], len(want))
	}
	if pre.Requests.Load() != seq.Requests.Load() || pre.ItemsRead.Load() != seq.ItemsRead.Load() {
		t.Errorf("prefetched: %d requests %d items; one by one: %d requests %d items", pre.Requests.Load(), pre.ItemsRead.Load(), seq.Requests.Load(), seq.ItemsRead.Load())
	}

	// Seek on a prefetched iterator before its first Next: within the
	// page, then beyond it (a page of Limit 3 ends at rd-02).
	var st kv.Stats
	it := openPrefetched(bg, s, ranges[3:4], &st, 3)[0]
	defer it.Close()
	it.Seek([]byte("rd-01"))
	if !it.Next() || string(it.Item().Key.Sort) != "rd-01" || st.Requests.Load() != 1 {
		t.Fatalf("seek within the prefetched page: %q after %d requests (err %v), want rd-01 after 1", it.Item().Key.Sort, st.Requests.Load(), it.Err())
	}
	it.Seek([]byte("rd-15"))
	if !it.Next() || string(it.Item().Key.Sort) != "rd-15" || st.Requests.Load() != 2 || st.ItemsRead.Load() > 3+12 {
		t.Fatalf("seek past the page: %q after %d requests, %d items (err %v), want rd-15 after 2 and no skipped items", it.Item().Key.Sort, st.Requests.Load(), st.ItemsRead.Load(), it.Err())
	}
}

// A prefetch keeps the Limit hint: its page holds Limit items, and the
// pages after it grow as they do unprefetched.
func TestPrefetchHonoursLimit(t *testing.T) {
	s, _ := prefetchStore(t)
	var st kv.Stats
	its := openPrefetched(bg, s, prefetchRanges()[:2], &st, 2)
	defer its[1].Close()
	waitRequests(t, &st, 2)
	if st.ItemsRead.Load() != 4 {
		t.Errorf("two prefetched ranges of Limit 2 read %d items, want 4", st.ItemsRead.Load())
	}
	keys := scanKeys(t, its[0])
	if len(keys) != 20 || keys[0] != "ra-00" || keys[19] != "ra-19" {
		t.Errorf("range 0 after a limited prefetch: %v", keys)
	}
	if st.Requests.Load() != 4 { // 2 + 8 + the other range's 2, then the last 8
		t.Errorf("%d requests after reading range 0 (pages of 2 and 8 ... and range 1's prefetch), want 4", st.Requests.Load())
	}
}

// waitRequests waits until st counts n answered requests.
func waitRequests(t *testing.T, st *kv.Stats, n int64) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for st.Requests.Load() < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d requests answered after 10s, want %d", st.Requests.Load(), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// failQueryAt fails every Query whose range starts at lo with err (not
// retried).
func failQueryAt(lo []byte, err error) func(*dynamodb.Options) {
	return func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(stack *middleware.Stack) error {
			return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("zproxyTestFailRange",
				func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
					if q, ok := in.Parameters.(*dynamodb.QueryInput); ok {
						if v, ok := q.ExpressionAttributeValues[":lo"].(*types.AttributeValueMemberB); ok && bytes.Equal(v.Value, frameKey(lo)) {
							return middleware.InitializeOutput{}, middleware.Metadata{}, err
						}
					}
					return next.HandleInitialize(ctx, in)
				}), middleware.Before)
		})
	}
}

// blockQueries holds every Query until its context ends.
func blockQueries(o *dynamodb.Options) {
	o.APIOptions = append(o.APIOptions, func(stack *middleware.Stack) error {
		return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("zproxyTestBlock",
			func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
				if _, ok := in.Parameters.(*dynamodb.QueryInput); ok {
					<-ctx.Done()
					return middleware.InitializeOutput{}, middleware.Metadata{}, ctx.Err()
				}
				return next.HandleInitialize(ctx, in)
			}), middleware.Before)
	})
}

// A prefetched range whose Query fails reports the error when it is read,
// not before: the ranges ahead of it read in full, in order.
func TestPrefetchErrorMidway(t *testing.T) {
	_, opts := prefetchStore(t)
	boom := errors.New("injected failure")
	opts.ClientOptions = []func(*dynamodb.Options){failQueryAt([]byte("re"), boom)}
	failing := openTest(t, opts)

	its := openPrefetched(bg, failing, prefetchRanges(), nil, 0)
	for i, it := range its {
		keys := drain(it)
		err := it.Err()
		it.Close()
		switch {
		case i == 4 && (!errors.Is(err, boom) || len(keys) != 0):
			t.Fatalf("range 4: %d keys, err %v; want none and the injected failure", len(keys), err)
		case i != 4 && (err != nil || len(keys) != 20 || keys[0] != fmt.Sprintf("r%c-00", 'a'+i)):
			t.Fatalf("range %d: %d keys from %v, err %v; want its 20", i, len(keys), keys, err)
		}
	}
}

// Close cancels a prefetch in flight and returns once it stopped; a
// prefetched iterator whose context is cancelled reports the cancel.
func TestPrefetchCancellation(t *testing.T) {
	_, opts := prefetchStore(t)
	opts.ClientOptions = []func(*dynamodb.Options){blockQueries}
	blocked := openTest(t, opts)

	var st kv.Stats
	its := openPrefetched(bg, blocked, prefetchRanges()[:3], &st, 0)
	done := make(chan struct{})
	go func() {
		for _, it := range its {
			it.Close()
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not cancel the prefetches in flight")
	}
	if st.Requests.Load() != 3 {
		t.Errorf("%d requests counted after Close, want the 3 sent", st.Requests.Load())
	}

	ctx, cancel := context.WithCancel(bg)
	it := openPrefetched(ctx, blocked, prefetchRanges()[:1], nil, 0)[0]
	defer it.Close()
	cancel()
	if it.Next() || !errors.Is(it.Err(), context.Canceled) {
		t.Fatalf("Next after cancel: err %v, want context.Canceled", it.Err())
	}
}

// A transaction's page prefetched before its snapshot moved is read again:
// it may lack a commit the moved snapshot covers. Range 1 is prefetched;
// then X (in range 1) commits, then Y (in range 0). Reading range 0 sees Y,
// newer than the snapshot, which moves past both; range 1 must then show X.
func TestPrefetchInTransactionRereadsStalePage(t *testing.T) {
	s, _ := prefetchStore(t)
	txn, err := s.Begin(bg, kv.TxnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer txn.Rollback()
	// A write of the transaction's own in range 1: its scan merges it in
	// (kvtxn's merging iterator, which prefetches through to this store's).
	if err := txn.Write(bg, kv.Batch{Ops: []kv.Op{putOp(key("p", "rb-99"), intAttr("v", 199))}}); err != nil {
		t.Fatal(err)
	}
	ranges := prefetchRanges()
	var st kv.Stats
	r1 := openPrefetched(bg, txn, ranges[1:2], &st, 0)[0]
	defer r1.Close()
	waitRequests(t, &st, 1)
	mustWrite(t, s, kv.Batch{Ops: []kv.Op{putOp(key("p", "rb-50"), intAttr("v", 150))}})
	mustWrite(t, s, kv.Batch{Ops: []kv.Op{putOp(key("p", "ra-50"), intAttr("v", 50))}})

	r0 := txn.Scan(bg, kv.ScanRequest{Partition: []byte("p"), Start: ranges[0][0], End: ranges[0][1]})
	keys0 := drain(r0)
	if err := r0.Err(); err != nil {
		t.Fatal(err)
	}
	r0.Close()
	if !slices.Contains(keys0, "ra-50") {
		t.Fatalf("range 0 lacks Y, committed before it was read: %v", keys0)
	}
	keys1 := drain(r1)
	if err := r1.Err(); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(keys1, "rb-99") {
		t.Fatalf("range 1 lacks the transaction's own write rb-99: %v", keys1)
	}
	if !slices.Contains(keys1, "rb-50") {
		t.Fatalf("the transaction saw Y (ra-50) but not X (rb-50), committed before it: range 1 = %v", keys1)
	}
}
