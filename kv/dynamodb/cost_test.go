package dynamodb

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zproxy/zproxy/kv"
)

// capacityByOp sums consumed capacity per request kind.
type capacityByOp struct {
	mu    sync.Mutex
	units map[string]float64
	reqs  map[string]int
}

func (c *capacityByOp) ObserveRequest(_, op string, _ time.Duration, _ error) {
	c.mu.Lock()
	c.reqs[op]++
	c.mu.Unlock()
}

func (c *capacityByOp) ObserveCapacity(op string, units float64) {
	c.mu.Lock()
	c.units[op] += units
	c.mu.Unlock()
}

func (c *capacityByOp) reset() {
	c.mu.Lock()
	c.units, c.reqs = map[string]float64{}, map[string]int{}
	c.mu.Unlock()
}

// readOps are the request kinds that consume read capacity.
var readOps = map[string]bool{"batch_get": true, "query": true, "get_record": true}

func (c *capacityByOp) split() (read, write float64, detail string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var parts []string
	for op, u := range c.units {
		if readOps[op] {
			read += u
		} else {
			write += u
		}
	}
	for op, n := range c.reqs {
		parts = append(parts, fmt.Sprintf("%s×%d=%.0f", op, n, c.units[op]))
	}
	sort.Strings(parts)
	return read, write, strings.Join(parts, " ")
}

// TestTransactionCosts measures the capacity units per row written by
// transactions of 1, 100 and 10,000 rows against plain BatchWriteItem
// (TRANSACTIONS.md, "Costs"). Rows are ~150-byte items, as a table row
// with a few columns; the transactions write rows they have not read
// (blind inserts), the costliest case for the large path, which then
// reads every key. It runs only with ZPROXY_DYNAMODB_COSTS=1: the
// 10,000-row transaction takes a while on DynamoDB Local.
func TestTransactionCosts(t *testing.T) {
	requireDynamo(t)
	if os.Getenv("ZPROXY_DYNAMODB_COSTS") == "" {
		t.Skip("set ZPROXY_DYNAMODB_COSTS=1 to measure")
	}
	obs := &capacityByOp{}
	obs.reset()
	opts := testOptions(uniqueTable(t), endpoint)
	opts.Observer = obs
	s := openTest(t, opts)
	deleteTableOnCleanup(t, s)
	row := func(tag string, i int) kv.Op {
		return kv.Op{Kind: kv.OpPut, Key: kv.Key{Partition: []byte("T\x00\x00\x00\x00\x00\x00\x00\x07\x00\x00"), Sort: fmt.Appendf(nil, "%s%08d", tag, i)},
			Attrs: []kv.Attr{
				{Name: "id", Kind: kv.AttrInt, I: int64(i)},
				{Name: "name", Kind: kv.AttrString, S: "a customer name"},
				{Name: "email", Kind: kv.AttrString, S: "someone@example.com"},
				{Name: "balance", Kind: kv.AttrFloat, F: 1234.5},
				{Name: "note", Kind: kv.AttrString, S: "a short note about this row"},
				{Name: "zproxy:version", Kind: kv.AttrInt, I: 1},
			}}
	}
	t.Logf("| rows | how | requests | RCU/row | WCU/row | capacity/row | time |")
	t.Logf("|---|---|---|---|---|---|---|")
	for _, n := range []int{1, 100, 10_000} {
		for _, how := range []string{"BatchWriteItem", "transaction"} {
			tag := fmt.Sprintf("%s%d-", how[:1], n)
			var ops []kv.Op
			for i := range n {
				ops = append(ops, row(tag, i))
			}
			obs.reset()
			start := time.Now()
			var err error
			if how == "BatchWriteItem" {
				err = s.Write(bg, kv.Batch{Ops: ops})
			} else {
				txn, _ := s.Begin(bg, kv.TxnOptions{})
				if err = txn.Write(bg, kv.Batch{Ops: ops}); err == nil {
					err = txn.Commit(bg)
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			elapsed := time.Since(start)
			r, w, detail := obs.split()
			reqs := 0
			for _, c := range obs.reqs {
				reqs += c
			}
			t.Logf("| %d | %s | %d | %.2f | %.2f | %.2f | %v |", n, how, reqs, r/float64(n), w/float64(n), (r+w)/float64(n), elapsed.Round(time.Millisecond))
			t.Logf("  (%s)", detail)
		}
	}
}
