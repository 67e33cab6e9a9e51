package executor

import (
	"bytes"
	"container/heap"
	"context"
	"sync"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/optimizer"
	"github.com/zproxy/zproxy/planner"
)

const (
	batchRows = 128 // rows a shard stream hands over at a time
	lookupMax = 64  // index entries resolved per batched table Get
	// sparseSeek is how many out-of-box Z-order entries in a row make a
	// scan on a store with expensive seeks restart its range at BIGMIN.
	sparseSeek = 8
	// cancelCheckEvery is how many items a loop handles between looks at
	// its statement's context: often enough that a cancel or timeout stops
	// any statement within milliseconds, rarely enough to cost nothing.
	cancelCheckEvery = 1024
)

// scanItem is one row with the sort key that orders it within its shard.
type scanItem struct {
	key []byte
	row []sqltypes.Value
}

type shardBatch struct {
	items []scanItem
	err   error
}

// scanRows yields the rows of an optimizer.Scan.
type scanRows struct {
	ec *execCtx
	// node is the access path being read (for a dynamic scan, the one
	// chosen for this opening); statKey the plan's node, which EXPLAIN
	// ANALYZE reports against.
	node    *optimizer.Scan
	statKey *optimizer.Scan
	stats   kv.Stats
	cancel  context.CancelFunc
	wg      sync.WaitGroup

	// point get
	points [][]sqltypes.Value
	// shard streams
	chans  []chan shardBatch
	merged chan shardBatch // unordered fan-in
	mh     *mergeHeap
	cur    shardBatch
	pos    int
	open   int
	closed bool
	n      int
}

func (ec *execCtx) newScan(ctx context.Context, planned *optimizer.Scan) (Rows, error) {
	n, err := planned.Resolve(ec.eval)
	if err != nil {
		return nil, err
	}
	s := &scanRows{ec: ec, node: n, statKey: planned}
	if len(n.SortKeys) > 0 {
		// A dynamic scan whose path for these outer values does not yield
		// the order its plan promised.
		if err := s.start(ctx); err != nil {
			return nil, err
		}
		return &sortRows{in: s, keys: n.SortKeys, limit: planned.Limit, ec: ec}, nil
	}
	return s, s.start(ctx)
}

// start begins reading: one batched get for a point get, else a stream per
// shard.
func (s *scanRows) start(ctx context.Context) error {
	ec, n := s.ec, s.node
	if n.Method == optimizer.PointGet {
		return s.pointGet(ctx)
	}
	sctx, cancel := context.WithCancel(ctx)
	s.cancel = cancel
	var sem chan struct{}
	if !ec.ex.Caps.CheapSeek && ec.ex.Concurrency > 0 {
		sem = make(chan struct{}, ec.ex.Concurrency)
	}
	ordered := n.Ordered && len(n.Shards) > 1
	if !ordered {
		s.merged = make(chan shardBatch, len(n.Shards)+1)
	}
	for _, shard := range n.Shards {
		out := s.merged
		if ordered {
			out = make(chan shardBatch, 2)
			s.chans = append(s.chans, out)
		}
		s.wg.Add(1)
		st := &shardStream{s: s, shard: shard, out: out, sem: sem, keepKeys: ordered}
		go st.run(sctx)
	}
	s.open = len(n.Shards)
	if ordered {
		s.mh = &mergeHeap{reverse: n.Reverse}
	}
	return nil
}

// pointGet reads every key of a point get in one batched request: table
// rows by primary key, or the entries of a unique index (then, unless the
// index covers the query, their rows in a second one).
func (s *scanRows) pointGet(ctx context.Context) error {
	t := s.node.Table
	keys := make([]kv.Key, len(s.node.Points))
	for i, p := range s.node.Points {
		keys[i] = kv.Key{Partition: t.Partition(t.RowShard(p)), Sort: p}
		if ix := s.node.Index; ix != nil {
			keys[i] = catalog.UniqueEntryKey(ix, p)
		}
	}
	items, err := s.ec.kv.Get(ctx, kv.GetRequest{Keys: keys, Stats: &s.stats})
	if err != nil {
		return err
	}
	if s.node.Lookup {
		if items, err = s.lookupRows(ctx, items); err != nil {
			return err
		}
	}
	for _, it := range items {
		if !kv.Found(it) {
			continue
		}
		row := make([]sqltypes.Value, len(t.Columns))
		if err := t.DecodeRow(it.Attrs, row); err != nil {
			return err
		}
		keep, err := s.admit(row)
		if err != nil {
			return err
		}
		if keep {
			s.points = append(s.points, row)
		}
	}
	return nil
}

// lookupRows reads the table rows of the index entries a point get found.
func (s *scanRows) lookupRows(ctx context.Context, entries []kv.Item) ([]kv.Item, error) {
	t := s.node.Table
	var keys []kv.Key
	for _, it := range entries {
		if !kv.Found(it) {
			continue
		}
		row := make([]sqltypes.Value, len(t.Columns))
		if err := t.DecodeRow(it.Attrs, row); err != nil {
			return nil, err
		}
		keys = append(keys, t.RowKey(row))
	}
	if len(keys) == 0 {
		return nil, nil
	}
	return s.ec.kv.Get(ctx, kv.GetRequest{Keys: keys, Stats: &s.stats})
}

// admit applies the residual filter.
func (s *scanRows) admit(row []sqltypes.Value) (bool, error) {
	if s.node.Residual == nil {
		return true, nil
	}
	v, err := s.node.Residual.Eval(s.ec.eval, row)
	if err != nil {
		return false, err
	}
	return planner.Truthy(v), nil
}

func (s *scanRows) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	if s.node.Limit > 0 && s.n >= s.node.Limit {
		return nil, false, nil
	}
	if s.node.Method == optimizer.PointGet {
		if s.pos >= len(s.points) {
			return nil, false, nil
		}
		s.pos++
		s.n++
		return s.points[s.pos-1], true, nil
	}
	if s.mh != nil {
		return s.nextMerged(ctx)
	}
	for s.pos >= len(s.cur.items) {
		if s.open == 0 {
			return nil, false, nil
		}
		select {
		case b := <-s.merged:
			if b.err != nil {
				return nil, false, b.err
			}
			if b.items == nil {
				s.open--
				continue
			}
			s.cur, s.pos = b, 0
		case <-ctx.Done():
			return nil, false, ctx.Err()
		}
	}
	s.pos++
	s.n++
	return s.cur.items[s.pos-1].row, true, nil
}

// nextMerged is the k-way merge: a heap of each shard's current item.
func (s *scanRows) nextMerged(ctx context.Context) ([]sqltypes.Value, bool, error) {
	if s.mh.cursors == nil {
		for i := range s.chans {
			c := &cursor{ch: s.chans[i]}
			ok, err := c.advance(ctx)
			if err != nil {
				return nil, false, err
			}
			if ok {
				s.mh.cursors = append(s.mh.cursors, c)
			}
		}
		heap.Init(s.mh)
		if s.mh.cursors == nil {
			s.mh.cursors = []*cursor{}
		}
	}
	if s.mh.Len() == 0 {
		return nil, false, nil
	}
	c := s.mh.cursors[0]
	row := c.item().row
	ok, err := c.advance(ctx)
	if err != nil {
		return nil, false, err
	}
	if ok {
		heap.Fix(s.mh, 0)
	} else {
		heap.Pop(s.mh)
	}
	s.n++
	return row, true, nil
}

func (s *scanRows) Close() {
	if s.closed {
		return
	}
	s.closed = true
	if s.cancel != nil {
		s.cancel()
		s.wg.Wait()
	}
	if s.ec.kvStats != nil {
		s.ec.kvStats.Requests.Add(s.stats.Requests.Load())
		s.ec.kvStats.ItemsRead.Add(s.stats.ItemsRead.Load())
		s.ec.kvStats.BytesRead.Add(s.stats.BytesRead.Load())
		s.ec.kvStats.AddCapacity(s.stats.Capacity())
	}
	if st := s.ec.stats[s.statKey]; st != nil {
		st.ItemsRead += s.stats.ItemsRead.Load()
		st.Requests += s.stats.Requests.Load()
		st.Capacity += s.stats.Capacity()
	}
}

// cursor is one shard's position in the merge.
type cursor struct {
	ch    chan shardBatch
	batch []scanItem
	pos   int
}

func (c *cursor) item() scanItem { return c.batch[c.pos] }

func (c *cursor) advance(ctx context.Context) (bool, error) {
	c.pos++
	for c.pos >= len(c.batch) {
		select {
		case b := <-c.ch:
			if b.err != nil {
				return false, b.err
			}
			if b.items == nil {
				return false, nil
			}
			c.batch, c.pos = b.items, 0
		case <-ctx.Done():
			return false, ctx.Err()
		}
	}
	return true, nil
}

type mergeHeap struct {
	cursors []*cursor
	reverse bool
}

func (h *mergeHeap) Len() int { return len(h.cursors) }
func (h *mergeHeap) Less(i, j int) bool {
	c := bytes.Compare(h.cursors[i].item().key, h.cursors[j].item().key)
	if h.reverse {
		return c > 0
	}
	return c < 0
}
func (h *mergeHeap) Swap(i, j int) { h.cursors[i], h.cursors[j] = h.cursors[j], h.cursors[i] }
func (h *mergeHeap) Push(x any)    { h.cursors = append(h.cursors, x.(*cursor)) }
func (h *mergeHeap) Pop() any {
	c := h.cursors[len(h.cursors)-1]
	h.cursors = h.cursors[:len(h.cursors)-1]
	return c
}

// shardStream reads one shard's ranges and sends batches of admitted rows.
type shardStream struct {
	s        *scanRows
	shard    int
	out      chan shardBatch
	sem      chan struct{}
	keepKeys bool // the consumer merges shards by key
	batch    []scanItem
	sent     int
	// slab is memory for the rows of the batch being filled: one
	// allocation per batch instead of one per row.
	slab []sqltypes.Value
	// pending index entries awaiting their table rows
	pending []scanItem
	// lookupRounds counts the batched Gets of pending entries (lookupWant).
	lookupRounds int
}

// lookupWant is how many index entries to collect before fetching their
// rows: under a LIMIT, the rows this shard still needs, doubled for every
// fetch so far (the residual filter may have dropped some), so a LIMIT 5
// costs about 5 lookups rather than a full batch; otherwise lookupMax.
func (st *shardStream) lookupWant() int {
	lim := st.s.node.Limit
	if lim <= 0 {
		return lookupMax
	}
	need := max(lim-st.sent-len(st.batch), 1)
	return min(need<<min(st.lookupRounds, 6), lookupMax)
}

func (st *shardStream) run(ctx context.Context) {
	defer st.s.wg.Done()
	err := st.read(ctx)
	if err == nil {
		err = st.flushLookups(ctx)
	}
	if err == nil && len(st.batch) > 0 {
		err = st.send(ctx, shardBatch{items: st.batch})
	}
	if err != nil {
		if ctx.Err() != nil {
			return // the consumer went away
		}
		select {
		case st.out <- shardBatch{err: err}:
		case <-ctx.Done():
		}
		return
	}
	select {
	case st.out <- shardBatch{}: // end of this shard
	case <-ctx.Done():
	}
}

func (st *shardStream) send(ctx context.Context, b shardBatch) error {
	select {
	case st.out <- b:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// done reports whether this shard has produced all the rows it may need.
func (st *shardStream) done() bool {
	lim := st.s.node.Limit
	return lim > 0 && st.sent+len(st.batch) >= lim
}

func (st *shardStream) read(ctx context.Context) error {
	n := st.s.node
	t := n.Table
	partition := t.Partition(st.shard)
	if n.Index != nil {
		partition = catalog.IndexPartition(n.Index.ID, st.shard)
	}
	ranges := n.ShardRanges(st.shard)
	if n.Reverse {
		reversed := make([]optimizer.KeyRange, len(ranges))
		for i, r := range ranges {
			reversed[len(ranges)-1-i] = r
		}
		ranges = reversed
	}
	addrLen := 0
	if n.ZSchema != nil {
		addrLen = n.ZSchema.AddrLen()
	}
	for _, r := range ranges {
		req := kv.ScanRequest{Partition: partition, Start: r.Start, End: r.End, Reverse: n.Reverse, Stats: &st.s.stats}
		if n.Limit > 0 && n.Residual == nil && n.ZSchema == nil {
			req.Limit = n.Limit
		}
		it := st.s.ec.kv.Scan(ctx, req)
		misses := 0
		for seen := 1; ; seen++ {
			if seen%cancelCheckEvery == 0 && ctx.Err() != nil {
				// A filter that rejects every row sends nothing, so the
				// stream must notice a cancel or timeout on its own.
				it.Close()
				return ctx.Err()
			}
			if st.sem != nil {
				st.sem <- struct{}{}
			}
			ok := it.Next()
			if st.sem != nil {
				<-st.sem
			}
			if !ok {
				break
			}
			item := it.Item()
			if addrLen > 0 {
				if len(item.Key.Sort) < addrLen {
					continue
				}
				inside, next, more := n.ZSchema.NextInBox(n.ZBox, item.Key.Sort[:addrLen])
				if !inside {
					if !more {
						break // nothing in the box lies past this address
					}
					misses++
					if st.s.ec.ex.Caps.CheapSeek || misses >= sparseSeek {
						if r.End != nil && bytes.Compare(next, r.End) >= 0 {
							break
						}
						it.Seek(next)
						misses = 0
					}
					continue
				}
				misses = 0
			}
			row := st.newRow(len(t.Columns))
			if err := t.DecodeRow(item.Attrs, row); err != nil {
				it.Close()
				return err
			}
			si := scanItem{row: row}
			if st.keepKeys {
				// Only a k-way merge compares keys after the iterator moves on.
				si.key = append([]byte(nil), item.Key.Sort...)
			}
			if n.Lookup {
				st.pending = append(st.pending, si)
				if len(st.pending) >= st.lookupWant() {
					if err := st.flushLookups(ctx); err != nil {
						it.Close()
						return err
					}
				}
			} else if err := st.emit(ctx, si); err != nil {
				it.Close()
				return err
			}
			if st.done() {
				break
			}
		}
		err := it.Err()
		it.Close()
		if err != nil {
			return err
		}
		if st.done() {
			break
		}
	}
	return nil
}

// flushLookups fetches the table rows of pending index entries in one
// batched Get, keeping index order.
func (st *shardStream) flushLookups(ctx context.Context) error {
	if len(st.pending) == 0 {
		return nil
	}
	t := st.s.node.Table
	keys := make([]kv.Key, len(st.pending))
	for i, p := range st.pending {
		keys[i] = t.RowKey(p.row)
	}
	items, err := st.s.ec.kv.Get(ctx, kv.GetRequest{Keys: keys, Stats: &st.s.stats})
	if err != nil {
		return err
	}
	pending := st.pending
	st.pending = nil
	st.lookupRounds++
	for i, it := range items {
		if !kv.Found(it) {
			continue // deleted since the entry was read
		}
		if err := t.DecodeRow(it.Attrs, pending[i].row); err != nil {
			return err
		}
		if err := st.emit(ctx, pending[i]); err != nil {
			return err
		}
	}
	return nil
}

// newRow returns a zeroed row of n values carved from the stream's slab.
// Rows are handed to the consumer in batches and never reused, so carving
// is safe; the slab is replaced when it runs out.
func (st *shardStream) newRow(n int) []sqltypes.Value {
	if len(st.slab) < n {
		st.slab = make([]sqltypes.Value, n*batchRows)
	}
	row := st.slab[:n:n]
	st.slab = st.slab[n:]
	return row
}

func (st *shardStream) emit(ctx context.Context, si scanItem) error {
	keep, err := st.s.admit(si.row)
	if err != nil || !keep {
		return err
	}
	if st.batch == nil {
		st.batch = make([]scanItem, 0, batchRows)
	}
	st.batch = append(st.batch, si)
	if len(st.batch) >= batchRows {
		b := st.batch
		st.sent += len(b)
		st.batch = nil
		return st.send(ctx, shardBatch{items: b})
	}
	return nil
}
