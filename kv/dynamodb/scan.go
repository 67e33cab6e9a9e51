package dynamodb

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/zproxy/zproxy/kv"
)

// pageGrowth multiplies the Query Limit from one page to the next, so a
// Limit hint sizes the first page small and a caller that reads on (its
// filter rejected rows) quickly reaches DynamoDB's 1 MB pages.
const pageGrowth = 4

// Scan opens an iterator over [req.Start, req.End) of one partition, read
// with Query one page at a time as Next needs it (nothing is collected
// ahead). The sort-key condition is
//
//	no bounds       none
//	Start only      ~sk >= Start
//	End only        ~sk <  End
//	both            ~sk BETWEEN Start AND before(End)
//
// because a key condition allows one comparison on the sort key and
// BETWEEN is inclusive: before(End) is the greatest key a sort key can be
// that is less than End, so a Query with a Limit reads no item past the
// range. Start >= End is an empty range and sends no request.
func (s *Store) Scan(ctx context.Context, req kv.ScanRequest) kv.Iterator {
	return s.scan(ctx, req, readMode{stats: req.Stats, pending: map[string]record{}}, nil)
}

// maxSortKey is the longest binary sort key DynamoDB stores.
const maxSortKey = 1024

// before returns the greatest byte string of at most maxSortKey bytes that
// sorts before k (not empty): k without its last byte when that is 0, else
// k with its last byte one less and 0xFF up to maxSortKey bytes. Every sort
// key below k is at most before(k), so BETWEEN lo AND before(hi) is
// [lo, hi).
func before(k []byte) []byte {
	n := len(k) - 1
	if k[n] == 0 {
		return append([]byte(nil), k[:n]...)
	}
	out := make([]byte, max(maxSortKey, len(k)))
	copy(out, k)
	out[n]--
	for i := n + 1; i < len(out); i++ {
		out[i] = 0xFF
	}
	return out
}

// pageInfo describes one page of a scan to a transaction's onPage hook.
type pageInfo struct {
	restart bool   // the first page of a Query (the scan's first, or after a Seek)
	lo, hi  []byte // the Query's bounds [lo, hi), nil unbounded
	views   []view // the page's items within the bounds, tombstones included
	done    bool   // no page follows
}

// scan opens an iterator that resolves items in mode and hands each page
// to onPage (when set) before returning its items.
func (s *Store) scan(ctx context.Context, req kv.ScanRequest, mode readMode, onPage func(pageInfo) error) *iterator {
	it := &iterator{s: s, ctx: ctx, req: req, lo: req.Start, hi: req.End, mode: mode, onPage: onPage}
	if s.closed.Load() {
		it.err = kv.ErrClosed
	}
	if req.Limit > 0 {
		it.pageLimit = int32(min(req.Limit, math.MaxInt32-1))
	}
	return it
}

type iterator struct {
	s   *Store
	ctx context.Context
	req kv.ScanRequest
	// lo (inclusive) and hi (exclusive) are the bounds of the current Query;
	// Seek narrows them. nil is unbounded.
	lo, hi []byte

	mode   readMode
	onPage func(pageInfo) error

	page      []view                          // the current page, resolved
	pos       int                             // next index into page
	lastKey   map[string]types.AttributeValue // LastEvaluatedKey of the page
	queried   bool                            // a Query ran since the last (re)start
	pageLimit int32                           // Query Limit; 0: DynamoDB's 1 MB pages
	item      kv.Item
	err       error
	closed    bool

	// A Query sent ahead by Prefetch: ahead is closed when aheadResp or
	// aheadErr is set; aheadCancel stops it. epoch, set for a
	// transaction's read, reads its snapshot's generation, aheadEpoch its
	// value when the Query was sent; remode is the transaction's read mode
	// now (its snapshot may have moved since the iterator was opened).
	ahead       chan struct{}
	aheadCancel context.CancelFunc
	aheadResp   *dynamodb.QueryOutput
	aheadErr    error
	epoch       func() uint64
	aheadEpoch  uint64
	remode      func() readMode
}

var _ kv.Prefetcher = (*iterator)(nil)

func (it *iterator) Next() bool {
	for it.err == nil && !it.closed {
		for it.pos < len(it.page) {
			v := it.page[it.pos]
			it.pos++
			if !v.exists {
				continue // a tombstone
			}
			it.item = kv.Item{Key: kv.Key{Partition: it.req.Partition, Sort: v.sort}, Attrs: v.attrs}
			return true
		}
		if it.queried && it.lastKey == nil {
			return false
		}
		it.fetch()
	}
	return false
}

func (it *iterator) Item() kv.Item { return it.item }

func (it *iterator) Err() error { return it.err }

func (it *iterator) Close() error {
	if it.ahead != nil {
		// Stop the Query in flight and wait for its goroutine, which
		// counts into the caller's Stats.
		it.aheadCancel()
		it.awaitAhead()
	}
	it.closed = true
	it.page, it.lastKey = nil, nil
	return nil
}

// Seek moves to the first item >= sort (forward) or < sort (reverse). When
// the target lies within the page already read it costs nothing; otherwise
// the Query restarts at the new bound, skipping whatever lies between.
func (it *iterator) Seek(sort []byte) {
	if it.err != nil || it.closed {
		return
	}
	if it.ahead != nil {
		// The first page is on its way: take it, then seek within it.
		it.fetch()
		if it.err != nil {
			return
		}
	}
	if it.req.Reverse && it.req.End != nil && bytes.Compare(sort, it.req.End) > 0 {
		sort = it.req.End
	} else if !it.req.Reverse && it.req.Start != nil && bytes.Compare(sort, it.req.Start) < 0 {
		sort = it.req.Start
	}
	// Look from the item Next returned last: seeking to the current key
	// returns it again.
	for i := max(it.pos-1, 0); i < len(it.page); i++ {
		c := bytes.Compare(it.page[i].sort, sort)
		if (!it.req.Reverse && c >= 0) || (it.req.Reverse && c < 0) {
			it.pos = i
			return
		}
	}
	it.pos = len(it.page)
	if it.queried && it.lastKey == nil {
		return // the range is exhausted; nothing lies beyond sort either
	}
	if it.req.Reverse {
		it.hi = slices.Clone(sort)
	} else {
		it.lo = slices.Clone(sort)
	}
	it.page, it.pos, it.lastKey, it.queried = nil, 0, nil, false
}

// fetch reads the next page into it.page: the prefetched one, if any,
// else a Query sent now.
func (it *iterator) fetch() {
	it.page, it.pos = nil, 0
	if it.lo != nil && it.hi != nil && bytes.Compare(it.lo, it.hi) >= 0 {
		it.queried, it.lastKey = true, nil
		return
	}
	var resp *dynamodb.QueryOutput
	var err error
	if it.ahead != nil {
		resp, err = it.awaitAhead()
		if err == nil && it.epoch != nil && it.epoch() != it.aheadEpoch {
			// A transaction's snapshot moved while the page was in
			// flight: the page may miss a commit the snapshot now
			// covers, so it is read again (its capacity is spent).
			resp = nil
		}
		if it.remode != nil {
			// Resolved as a read opened now would resolve it.
			it.mode = it.remode()
		}
	}
	if resp == nil && err == nil {
		resp, err = it.query(it.ctx, it.queryInput())
	}
	if err != nil {
		it.err = err
		return
	}
	it.apply(resp)
}

// Prefetch sends the iterator's first Query now, on a goroutine of its own,
// for fetch to take when Next or Seek first needs a page (kv.Prefetcher).
// Only the request runs early: the page is decoded, resolved and handed to
// onPage by fetch, on the caller's goroutine, as if read then.
func (it *iterator) Prefetch() bool {
	if it.err != nil || it.closed || it.queried || it.ahead != nil || it.page != nil {
		return true
	}
	if it.lo != nil && it.hi != nil && bytes.Compare(it.lo, it.hi) >= 0 {
		return true // an empty range sends nothing
	}
	in := it.queryInput()
	ctx, cancel := context.WithCancel(it.ctx)
	done := make(chan struct{})
	it.ahead, it.aheadCancel = done, cancel
	if it.epoch != nil {
		it.aheadEpoch = it.epoch()
	}
	go func() {
		defer close(done)
		it.aheadResp, it.aheadErr = it.query(ctx, in)
	}()
	return true
}

// awaitAhead waits for the prefetched Query and hands over its answer.
func (it *iterator) awaitAhead() (*dynamodb.QueryOutput, error) {
	<-it.ahead
	it.aheadCancel()
	resp, err := it.aheadResp, it.aheadErr
	it.ahead, it.aheadCancel, it.aheadResp, it.aheadErr = nil, nil, nil, nil
	return resp, err
}

// queryInput is the Query for the next page of [it.lo, it.hi).
func (it *iterator) queryInput() *dynamodb.QueryInput {
	names := map[string]string{"#p": PartitionKeyAttr}
	values := map[string]types.AttributeValue{":p": &types.AttributeValueMemberB{Value: frameKey(it.req.Partition)}}
	cond := "#p = :p"
	limit := it.pageLimit
	switch {
	case it.lo != nil && it.hi != nil:
		cond += " AND #s BETWEEN :lo AND :hi"
		values[":lo"] = &types.AttributeValueMemberB{Value: frameKey(it.lo)}
		values[":hi"] = &types.AttributeValueMemberB{Value: before(frameKey(it.hi))}
	case it.lo != nil:
		cond += " AND #s >= :lo"
		values[":lo"] = &types.AttributeValueMemberB{Value: frameKey(it.lo)}
	case it.hi != nil:
		cond += " AND #s < :hi"
		values[":hi"] = &types.AttributeValueMemberB{Value: frameKey(it.hi)}
	}
	if len(values) > 1 {
		names["#s"] = SortKeyAttr
	}
	in := &dynamodb.QueryInput{
		TableName:                 &it.s.table,
		KeyConditionExpression:    &cond,
		ExpressionAttributeNames:  names,
		ExpressionAttributeValues: values,
		ScanIndexForward:          aws.Bool(!it.req.Reverse),
		ConsistentRead:            aws.Bool(it.req.Consistent),
		ExclusiveStartKey:         it.lastKey,
		ReturnConsumedCapacity:    types.ReturnConsumedCapacityTotal,
	}
	if limit > 0 {
		in.Limit = aws.Int32(limit)
	}
	return in
}

// query sends one Query and counts it; safe on any goroutine (it touches
// only the store and the request's Stats, whose counters are atomic).
func (it *iterator) query(ctx context.Context, in *dynamodb.QueryInput) (*dynamodb.QueryOutput, error) {
	start := time.Now()
	resp, err := it.s.client.Query(ctx, in, readRetry)
	if err != nil {
		it.s.observe("query", start, err, nil, it.req.Stats)
		return nil, it.s.classify(ctx, "query", fmt.Errorf("dynamodb: Query: %w", err))
	}
	it.s.observe("query", start, nil, capacityOf(resp.ConsumedCapacity), it.req.Stats)
	size := 0
	for _, item := range resp.Items {
		size += itemSize(item)
	}
	it.req.Stats.AddRead(len(resp.Items), size)
	return resp, nil
}

// apply makes a Query's answer the current page: decoded, resolved for the
// read's mode and handed to onPage.
func (it *iterator) apply(resp *dynamodb.QueryOutput) {
	restart := !it.queried
	it.lastKey, it.queried = resp.LastEvaluatedKey, true
	if len(it.lastKey) == 0 {
		it.lastKey = nil
	}
	it.page = make([]view, 0, len(resp.Items))
	for _, raw := range resp.Items {
		st, err := decodeStored(raw)
		if err != nil {
			it.err = err
			return
		}
		if it.hi != nil && bytes.Compare(st.sort, it.hi) >= 0 {
			continue // past the range: not sent, but kept exact
		}
		v, err := it.s.resolve(it.ctx, kv.Key{Partition: it.req.Partition, Sort: st.sort}, st, it.mode)
		if err != nil {
			it.err = err
			return
		}
		it.page = append(it.page, v)
	}
	if it.onPage != nil {
		if err := it.onPage(pageInfo{restart: restart, lo: it.lo, hi: it.hi, views: it.page, done: it.lastKey == nil}); err != nil {
			it.err = err
			it.page = nil
			return
		}
	}
	if it.pageLimit > 0 {
		if it.pageLimit >= 1<<20/pageGrowth {
			it.pageLimit = 0
		} else {
			it.pageLimit *= pageGrowth
		}
	}
}
