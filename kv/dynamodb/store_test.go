package dynamodb

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"

	"github.com/zproxy/zproxy/kv"
)

var bg = context.Background()

// recorder is a kv.Observer that keeps what it is told.
type recorder struct {
	mu       sync.Mutex
	requests map[string]int
	failures map[string]int
	capacity map[string]float64
}

func newRecorder() *recorder {
	return &recorder{requests: map[string]int{}, failures: map[string]int{}, capacity: map[string]float64{}}
}

func (r *recorder) ObserveRequest(backend, op string, d time.Duration, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if backend != BackendName {
		panic("backend label " + backend)
	}
	r.requests[op]++
	if err != nil {
		r.failures[op]++
	}
}

func (r *recorder) ObserveCapacity(op string, units float64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.capacity[op] += units
}

func (r *recorder) snapshot() (requests, failures map[string]int, capacity map[string]float64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := func(m map[string]int) map[string]int {
		out := map[string]int{}
		for k, v := range m {
			out[k] = v
		}
		return out
	}
	capacity = map[string]float64{}
	for k, v := range r.capacity {
		capacity[k] = v
	}
	return c(r.requests), c(r.failures), capacity
}

func key(p, s string) kv.Key { return kv.Key{Partition: []byte(p), Sort: []byte(s)} }

func putOp(k kv.Key, attrs ...kv.Attr) kv.Op { return kv.Op{Kind: kv.OpPut, Key: k, Attrs: attrs} }

func intAttr(name string, v int64) kv.Attr { return kv.Attr{Name: name, Kind: kv.AttrInt, I: v} }

func mustWrite(t testing.TB, s *Store, b kv.Batch) {
	t.Helper()
	if err := s.Write(bg, b); err != nil {
		t.Fatalf("Write: %v", err)
	}
}

// drain returns the keys an iterator yields, leaving its error to Err.
func drain(it kv.Iterator) []string {
	var keys []string
	for it.Next() {
		keys = append(keys, string(it.Item().Key.Sort))
	}
	return keys
}

func scanKeys(t testing.TB, it kv.Iterator) []string {
	t.Helper()
	defer it.Close()
	keys := drain(it)
	if err := it.Err(); err != nil {
		t.Fatalf("scan: %v", err)
	}
	return keys
}

func TestOpenCreatesTableAndChecksSchema(t *testing.T) {
	requireDynamo(t)
	t.Parallel()
	s := openTest(t, testOptions(uniqueTable(t), endpoint))
	deleteTableOnCleanup(t, s)
	desc, err := s.client.DescribeTable(bg, &dynamodb.DescribeTableInput{TableName: &s.table})
	if err != nil {
		t.Fatal(err)
	}
	if desc.Table.BillingModeSummary == nil || desc.Table.BillingModeSummary.BillingMode != types.BillingModePayPerRequest {
		t.Errorf("billing mode %+v, want PAY_PER_REQUEST", desc.Table.BillingModeSummary)
	}
	// A second proxy opening the same table finds it as it is.
	openTest(t, testOptions(s.table, endpoint))

	other := uniqueTable(t)
	_, err = s.client.CreateTable(bg, &dynamodb.CreateTableInput{
		TableName:            &other,
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.client.DeleteTable(bg, &dynamodb.DeleteTableInput{TableName: &other}) })
	_, err = Open(bg, testOptions(other, endpoint))
	if err == nil || !strings.Contains(err.Error(), "key schema") {
		t.Errorf("Open of a table with another key schema: err = %v, want a key schema error", err)
	}
}

// TestPagesAreStreamed: a scan over several 1 MB pages issues one Query per
// page, only when Next needs it, and a Limit hint keeps the first page small.
func TestPagesAreStreamed(t *testing.T) {
	requireDynamo(t)
	t.Parallel()
	s := openTest(t, testOptions(uniqueTable(t), endpoint))
	deleteTableOnCleanup(t, s)
	const n, size = 160, 20 << 10 // 3.2 MB: four pages
	var ops []kv.Op
	for i := range n {
		ops = append(ops, putOp(key("p", fmt.Sprintf("%04d", i)), kv.Attr{Name: "v", Kind: kv.AttrBytes, B: make([]byte, size)}))
	}
	mustWrite(t, s, kv.Batch{Ops: ops})

	for _, reverse := range []bool{false, true} {
		var st kv.Stats
		it := s.Scan(bg, kv.ScanRequest{Partition: []byte("p"), Reverse: reverse, Stats: &st})
		if !it.Next() {
			t.Fatalf("reverse=%v: no first item: %v", reverse, it.Err())
		}
		if got := st.Requests.Load(); got != 1 {
			t.Errorf("reverse=%v: %d requests before reading past the first item, want 1", reverse, got)
		}
		if got := st.ItemsRead.Load(); got >= n {
			t.Errorf("reverse=%v: first page held all %d items; want 1 MB pages", reverse, got)
		}
		keys := append([]string{string(it.Item().Key.Sort)}, scanKeys(t, it)...)
		if len(keys) != n {
			t.Fatalf("reverse=%v: %d items, want %d", reverse, len(keys), n)
		}
		for i, k := range keys {
			want := i
			if reverse {
				want = n - 1 - i
			}
			if k != fmt.Sprintf("%04d", want) {
				t.Fatalf("reverse=%v: item %d is %q", reverse, i, k)
			}
		}
		if got := st.Requests.Load(); got < 4 || got > 5 {
			t.Errorf("reverse=%v: %d Query requests for 3.2 MB, want 4 or 5", reverse, got)
		}
		if st.ItemsRead.Load() != n || st.BytesRead.Load() < n*size {
			t.Errorf("reverse=%v: stats read %d items %d bytes, want %d items >= %d bytes", reverse, st.ItemsRead.Load(), st.BytesRead.Load(), n, n*size)
		}
	}

	// The hint sizes the first page, and the item at End (0100 exists) is
	// not read: BETWEEN ends just before it.
	var st kv.Stats
	it := s.Scan(bg, kv.ScanRequest{Partition: []byte("p"), Start: []byte("0010"), End: []byte("0100"), Reverse: true, Limit: 5, Stats: &st})
	var got []string
	for len(got) < 5 && it.Next() {
		got = append(got, string(it.Item().Key.Sort))
	}
	it.Close()
	if strings.Join(got, ",") != "0099,0098,0097,0096,0095" {
		t.Errorf("reverse [0010, 0100) limit 5 = %v", got)
	}
	if st.Requests.Load() != 1 || st.ItemsRead.Load() != 5 {
		t.Errorf("limit 5 read %d items in %d requests, want 5 in 1", st.ItemsRead.Load(), st.Requests.Load())
	}
}

// TestSeekRestartsQuery: a Seek beyond the current page starts a new Query
// at the bound instead of reading the skipped items.
func TestSeekRestartsQuery(t *testing.T) {
	requireDynamo(t)
	t.Parallel()
	s := openTest(t, testOptions(uniqueTable(t), endpoint))
	deleteTableOnCleanup(t, s)
	var ops []kv.Op
	for i := range 1000 {
		ops = append(ops, putOp(key("p", fmt.Sprintf("%04d", i)), intAttr("i", int64(i))))
	}
	mustWrite(t, s, kv.Batch{Ops: ops})
	var st kv.Stats
	it := s.Scan(bg, kv.ScanRequest{Partition: []byte("p"), Limit: 3, Stats: &st})
	defer it.Close()
	next := func(want string) {
		t.Helper()
		if !it.Next() || string(it.Item().Key.Sort) != want {
			t.Fatalf("Next = %q (err %v), want %q", it.Item().Key.Sort, it.Err(), want)
		}
	}
	next("0000")
	it.Seek([]byte("0002")) // inside the first page: no request
	next("0002")
	if st.Requests.Load() != 1 {
		t.Errorf("%d requests after a seek within the page, want 1", st.Requests.Load())
	}
	it.Seek([]byte("0900"))
	next("0900")
	next("0901")
	if st.Requests.Load() != 2 || st.ItemsRead.Load() > 3+12 {
		t.Errorf("after seeking to 0900: %d requests, %d items read; want 2 requests and no skipped items read", st.Requests.Load(), st.ItemsRead.Load())
	}
}

// TestTwoProxiesRaceOnInsert: conditional inserts of the same keys through
// two Store instances on one table; exactly one insert per key wins.
func TestTwoProxiesRaceOnInsert(t *testing.T) {
	requireDynamo(t)
	t.Parallel()
	table := uniqueTable(t)
	a := openTest(t, testOptions(table, endpoint))
	deleteTableOnCleanup(t, a)
	b := openTest(t, testOptions(table, endpoint))
	const keys, writersPerStore = 20, 3
	var wins [keys]atomic.Int32
	var wg sync.WaitGroup
	errs := make(chan error, 2*writersPerStore*keys)
	for _, s := range []*Store{a, b} {
		for w := range writersPerStore {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for k := range keys {
					err := s.Write(bg, kv.Batch{Atomic: true, Ops: []kv.Op{
						{Kind: kv.OpPut, Key: key("p", fmt.Sprintf("k%02d", k)), Attrs: []kv.Attr{intAttr("w", int64(w))}, Cond: kv.CondNotExists},
					}})
					var cf *kv.ConditionFailedError
					switch {
					case err == nil:
						wins[k].Add(1)
					case !errors.As(err, &cf) || cf.Index != 0:
						errs <- err
					}
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("losing insert: %v, want *kv.ConditionFailedError at 0", err)
	}
	for k := range keys {
		if n := wins[k].Load(); n != 1 {
			t.Errorf("key %d: %d inserts won, want exactly 1", k, n)
		}
	}
}

// failAttempts returns client options adding a middleware, after the SDK's
// retry middleware so that it sees every attempt, that fails the first n
// attempts of operation op with err.
func failAttempts(op string, n int32, err error, attempts *atomic.Int32) func(*dynamodb.Options) {
	return func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(stack *middleware.Stack) error {
			return stack.Finalize.Insert(middleware.FinalizeMiddlewareFunc("zproxyTestFault",
				func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
					if awsmiddleware.GetOperationName(ctx) == op && attempts.Add(1) <= n {
						return middleware.FinalizeOutput{}, middleware.Metadata{}, err
					}
					return next.HandleFinalize(ctx, in)
				}), "Retry", middleware.After)
		})
	}
}

func TestThrottlingIsRetried(t *testing.T) {
	requireDynamo(t)
	t.Parallel()
	table := uniqueTable(t)
	seed := openTest(t, testOptions(table, endpoint))
	deleteTableOnCleanup(t, seed)
	mustWrite(t, seed, kv.Batch{Ops: []kv.Op{putOp(key("p", "a"), intAttr("v", 1))}})
	throttled := func() error {
		return &types.ProvisionedThroughputExceededException{Message: aws.String("injected by the test")}
	}
	tests := []struct {
		op  string
		run func(s *Store) error
	}{
		{"Query", func(s *Store) error {
			it := s.Scan(bg, kv.ScanRequest{Partition: []byte("p")})
			defer it.Close()
			if !it.Next() {
				return fmt.Errorf("no item: %w", it.Err())
			}
			return nil
		}},
		{"BatchGetItem", func(s *Store) error {
			items, err := s.Get(bg, kv.GetRequest{Keys: []kv.Key{key("p", "a")}})
			if err == nil && !kv.Found(items[0]) {
				err = errors.New("item not found")
			}
			return err
		}},
		{"TransactWriteItems", func(s *Store) error {
			return s.Write(bg, kv.Batch{Atomic: true, Ops: []kv.Op{putOp(key("p", "t"), intAttr("v", 2))}})
		}},
		{"BatchWriteItem", func(s *Store) error {
			return s.Write(bg, kv.Batch{Ops: []kv.Op{putOp(key("p", "b"), intAttr("v", 3))}})
		}},
	}
	for _, tc := range tests {
		t.Run(tc.op, func(t *testing.T) {
			// Two throttled attempts, then success within MaxAttempts 3.
			var attempts atomic.Int32
			opts := testOptions(table, endpoint)
			opts.MaxAttempts = 3
			opts.MaxBackoff = 20 * time.Millisecond
			rec := newRecorder()
			opts.Observer = rec
			opts.ClientOptions = append(opts.ClientOptions, failAttempts(tc.op, 2, throttled(), &attempts))
			s := openTest(t, opts)
			if err := tc.run(s); err != nil {
				t.Fatalf("after 2 throttled attempts: %v", err)
			}
			if got := attempts.Load(); got != 3 {
				t.Errorf("%d attempts, want 3", got)
			}
			requests, failures, _ := rec.snapshot()
			if total(requests) != 1 || total(failures) != 0 {
				t.Errorf("observer: requests %v failures %v, want one successful request", requests, failures)
			}

			// Throttled on every attempt: UnavailableError wrapping the cause,
			// and the store still works afterwards.
			attempts.Store(-100)
			err := tc.run(s)
			var unavailable *kv.UnavailableError
			var cause *types.ProvisionedThroughputExceededException
			if !errors.As(err, &unavailable) || !errors.As(err, &cause) {
				t.Fatalf("throttled throughout: err = %v, want *kv.UnavailableError wrapping the throttling error", err)
			}
			if got := attempts.Load(); got != -100+3 {
				t.Errorf("%d attempts, want 3", got+100)
			}
			if _, failures, _ := rec.snapshot(); total(failures) != 1 {
				t.Errorf("observer saw %v failures, want 1", failures)
			}
			attempts.Store(100)
			if err := tc.run(s); err != nil {
				t.Errorf("after the throttling ended: %v", err)
			}
		})
	}
}

func total(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// holdBack returns client options adding a middleware that sends only the
// first half (none, with all) of the first rounds BatchWriteItem or
// BatchGetItem requests and hands the rest back as unprocessed, as DynamoDB
// does under load. held counts the items and keys held back.
func holdBack(rounds int32, all bool, held *atomic.Int32) func(*dynamodb.Options) {
	var seen atomic.Int32
	return func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(stack *middleware.Stack) error {
			return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("zproxyTestUnprocessed",
				func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
					switch in.Parameters.(type) {
					case *dynamodb.BatchWriteItemInput, *dynamodb.BatchGetItemInput:
						if seen.Add(1) > rounds {
							return next.HandleInitialize(ctx, in)
						}
					}
					switch p := in.Parameters.(type) {
					case *dynamodb.BatchWriteItemInput:
						for table, reqs := range p.RequestItems {
							keep := len(reqs) / 2
							if all {
								keep = 0
							}
							heldBack := reqs[keep:]
							held.Add(int32(len(heldBack)))
							if keep == 0 {
								return middleware.InitializeOutput{Result: &dynamodb.BatchWriteItemOutput{UnprocessedItems: map[string][]types.WriteRequest{table: heldBack}}}, middleware.Metadata{}, nil
							}
							sent := *p
							sent.RequestItems = map[string][]types.WriteRequest{table: reqs[:keep]}
							in.Parameters = &sent
							out, md, err := next.HandleInitialize(ctx, in)
							if err == nil {
								res := out.Result.(*dynamodb.BatchWriteItemOutput)
								res.UnprocessedItems = map[string][]types.WriteRequest{table: append(res.UnprocessedItems[table], heldBack...)}
							}
							return out, md, err
						}
					case *dynamodb.BatchGetItemInput:
						for table, ka := range p.RequestItems {
							keep := len(ka.Keys) / 2
							if all {
								keep = 0
							}
							heldBack := ka
							heldBack.Keys = ka.Keys[keep:]
							held.Add(int32(len(heldBack.Keys)))
							if keep == 0 {
								return middleware.InitializeOutput{Result: &dynamodb.BatchGetItemOutput{UnprocessedKeys: map[string]types.KeysAndAttributes{table: heldBack}}}, middleware.Metadata{}, nil
							}
							sent := *p
							sentKA := ka
							sentKA.Keys = ka.Keys[:keep]
							sent.RequestItems = map[string]types.KeysAndAttributes{table: sentKA}
							in.Parameters = &sent
							out, md, err := next.HandleInitialize(ctx, in)
							if err == nil {
								res := out.Result.(*dynamodb.BatchGetItemOutput)
								res.UnprocessedKeys = map[string]types.KeysAndAttributes{table: heldBack}
							}
							return out, md, err
						}
					}
					return next.HandleInitialize(ctx, in)
				}), middleware.Before)
		})
	}
}

// TestUnprocessedAreRetried: items DynamoDB hands back unprocessed are sent
// again until written or read; when it never takes them, the caller gets
// an UnavailableError.
func TestUnprocessedAreRetried(t *testing.T) {
	requireDynamo(t)
	t.Parallel()
	table := uniqueTable(t)
	plain := openTest(t, testOptions(table, endpoint))
	deleteTableOnCleanup(t, plain)
	var ops []kv.Op
	var keys []kv.Key
	for i := range 60 {
		ops = append(ops, putOp(key("p", fmt.Sprintf("%03d", i)), intAttr("i", int64(i))))
		keys = append(keys, key("p", fmt.Sprintf("%03d", i)))
	}
	for _, all := range []bool{false, true} {
		opts := testOptions(table, endpoint)
		opts.MaxConcurrency = 1
		opts.MaxBackoff = 10 * time.Millisecond
		var heldWrites, heldKeys atomic.Int32
		opts.ClientOptions = []func(*dynamodb.Options){holdBack(3, all, &heldWrites)}
		s := openTest(t, opts)
		var ws kv.Stats
		if err := s.Write(bg, kv.Batch{Ops: ops, Stats: &ws}); err != nil {
			t.Fatalf("all=%v: Write: %v", all, err)
		}
		if ws.ItemsWritten.Load() != int64(len(ops)) {
			t.Errorf("all=%v: Stats.ItemsWritten %d, want %d", all, ws.ItemsWritten.Load(), len(ops))
		}
		opts.ClientOptions = []func(*dynamodb.Options){holdBack(3, all, &heldKeys)}
		s = openTest(t, opts)
		items, err := s.Get(bg, kv.GetRequest{Keys: keys})
		if err != nil {
			t.Fatalf("all=%v: Get: %v", all, err)
		}
		for i, it := range items {
			if !kv.Found(it) || len(it.Attrs) != 1 || it.Attrs[0].I != int64(i) {
				t.Fatalf("all=%v: item %d = %+v", all, i, it)
			}
		}
		if heldWrites.Load() == 0 || heldKeys.Load() == 0 {
			t.Errorf("all=%v: the fault injection held back %d writes and %d keys; want some of each", all, heldWrites.Load(), heldKeys.Load())
		}
	}
	opts := testOptions(table, endpoint)
	opts.MaxAttempts = 3
	opts.MaxBackoff = 10 * time.Millisecond
	var held atomic.Int32
	opts.ClientOptions = []func(*dynamodb.Options){holdBack(1000, true, &held)}
	s := openTest(t, opts)
	var unavailable *kv.UnavailableError
	if err := s.Write(bg, kv.Batch{Ops: ops[:5]}); !errors.As(err, &unavailable) {
		t.Errorf("Write never processed: err = %v, want *kv.UnavailableError", err)
	}
	if _, err := s.Get(bg, kv.GetRequest{Keys: keys[:5]}); !errors.As(err, &unavailable) {
		t.Errorf("Get never processed: err = %v, want *kv.UnavailableError", err)
	}
}

// TestSameKeyTwiceInABatch: DynamoDB refuses a request naming one key
// twice; the store merges such ops (index maintenance writes a delete and a
// put of an unchanged entry).
func TestSameKeyTwiceInABatch(t *testing.T) {
	requireDynamo(t)
	t.Parallel()
	s := openTest(t, testOptions(uniqueTable(t), endpoint))
	deleteTableOnCleanup(t, s)
	k := key("p", "k")
	mustWrite(t, s, kv.Batch{Ops: []kv.Op{putOp(k, intAttr("v", 1))}})
	for _, atomic := range []bool{true, false} {
		mustWrite(t, s, kv.Batch{Atomic: atomic, Ops: []kv.Op{{Kind: kv.OpDelete, Key: k}, putOp(k, intAttr("v", 2)), putOp(key("p", "other"))}})
		items, err := s.Get(bg, kv.GetRequest{Keys: []kv.Key{k}})
		if err != nil {
			t.Fatal(err)
		}
		if !kv.Found(items[0]) || items[0].Attrs[0].I != 2 {
			t.Errorf("atomic=%v: after delete+put the item is %+v, want v=2", atomic, items[0])
		}
		mustWrite(t, s, kv.Batch{Atomic: atomic, Ops: []kv.Op{putOp(k, intAttr("v", 3)), {Kind: kv.OpDelete, Key: k}}})
		if items, _ := s.Get(bg, kv.GetRequest{Keys: []kv.Key{k}}); kv.Found(items[0]) {
			t.Errorf("atomic=%v: after put+delete the item exists: %+v", atomic, items[0])
		}
		mustWrite(t, s, kv.Batch{Ops: []kv.Op{putOp(k, intAttr("v", 1))}})
	}
}

// TestCapacityIsReported: every request kind reports consumed capacity to
// the Observer and to the statement's Stats.
func TestCapacityIsReported(t *testing.T) {
	requireDynamo(t)
	t.Parallel()
	opts := testOptions(uniqueTable(t), endpoint)
	rec := newRecorder()
	opts.Observer = rec
	s := openTest(t, opts)
	deleteTableOnCleanup(t, s)
	var st kv.Stats
	mustWrite(t, s, kv.Batch{Ops: []kv.Op{putOp(key("p", "a"), intAttr("v", 1))}, Stats: &st})
	mustWrite(t, s, kv.Batch{Atomic: true, Ops: []kv.Op{putOp(key("p", "b"), intAttr("v", 1))}, Stats: &st})
	if _, err := s.Get(bg, kv.GetRequest{Keys: []kv.Key{key("p", "a")}, Stats: &st, Consistent: true}); err != nil {
		t.Fatal(err)
	}
	if keys := scanKeys(t, s.Scan(bg, kv.ScanRequest{Partition: []byte("p"), Stats: &st, Consistent: true})); len(keys) != 2 {
		t.Fatalf("scan: %v", keys)
	}
	requests, failures, capacity := rec.snapshot()
	for _, op := range []string{"batch_write", "transact_write", "batch_get", "query"} {
		if requests[op] != 1 || failures[op] != 0 {
			t.Errorf("op %s: %d requests, %d failures; want 1, 0", op, requests[op], failures[op])
		}
		if capacity[op] <= 0 {
			t.Errorf("op %s: capacity %v, want > 0", op, capacity[op])
		}
	}
	var sum float64
	for _, c := range capacity {
		sum += c
	}
	if st.Requests.Load() != 4 || st.Capacity() < sum-0.01 || st.Capacity() > sum+0.01 {
		t.Errorf("Stats: %d requests, capacity %v; want 4 and %v (the observer's total)", st.Requests.Load(), st.Capacity(), sum)
	}
	t.Logf("capacity by op: %v", capacity)
}
