package executor

import (
	"bytes"
	"container/heap"
	"context"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/optimizer"
	"github.com/zproxy/zproxy/zorder"
)

const (
	batchRows = 128 // rows a shard stream hands over at a time
	// reuseBatchRows is the batch of a stream whose rows are written
	// again batch after batch (shardStream.reuse): the consumer is done
	// with a batch's rows before the next, so a small batch is all the
	// row memory the whole scan needs, where a 128-row batch made a
	// 100-row secondary-index scan allocate and zero 40 kB of rows that
	// each served once.
	reuseBatchRows = 16
	// firstSlabRows and maxSlabBytes bound a stream's row slabs
	// (shardStream.newRow): the first holds a few rows, none is a large
	// object (over 32 kB the runtime allocates and zeroes it on its own
	// path).
	firstSlabRows = 8
	maxSlabBytes  = 32 << 10
	lookupMax     = 64 // index entries resolved per batched table Get
	// sparseSeek is how many out-of-box Z-order entries in a row make a
	// scan on a store with expensive seeks restart its range at BIGMIN.
	sparseSeek = 8
	// cancelCheckEvery is how many items a loop handles between looks at
	// its statement's context: often enough that a cancel or timeout stops
	// any statement within milliseconds, rarely enough to cost nothing.
	cancelCheckEvery = 1024
	// stepsBeforeSeek is how many entries a skip-scan on a store with
	// cheap seeks reads towards the next address in its box before it
	// seeks there: the next in-box entry is often one or two entries on,
	// and a Next costs a fraction of a seek.
	stepsBeforeSeek = 2
)

// scanItem is one row with the sort key that orders it within its shard.
type scanItem struct {
	key []byte
	row []sqltypes.Value
	// held: the entry lies in a cell its spatial conjuncts hold
	// (optimizer.Interior), which it then need not be tested against.
	held bool
	// admitted: the residual filter passed it already, on its index
	// entry (scanRows.entryFilter).
	admitted bool
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
	// rangeItems counts the items read in each of a Z-order scan's ranges
	// (node.Ranges' order, every shard), under EXPLAIN ANALYZE only.
	rangeItems []atomic.Int64
	// held counts the entries admitted in cells the spatial conjuncts
	// hold (interior), under EXPLAIN ANALYZE only.
	held   atomic.Int64
	cancel context.CancelFunc
	wg     sync.WaitGroup
	// slots bounds the ranges' first pages the scan's streams prefetch
	// at once (kv.Capabilities.ScanFanout), whatever the shards.
	slots chan struct{}

	// sink, when set, takes every admitted row in place of the batches
	// (scanagg.go): the row is the stream's scratch, valid until it
	// returns.
	sink func(row []sqltypes.Value) error
	// sinkAliases: the sink keeps nothing of a row past its return, and
	// no residual filter sees it, so a text value may alias the store's
	// memory (catalog.RowDecoder.DecodeAliasing).
	sinkAliases bool
	// scalarSink, when set beside sink, takes an entry's scalars
	// (kv.ScalarIterator) in place of its decoded row, where no residual
	// filter is to see the row; it reports false, taking nothing, for an
	// entry it cannot use, which then goes to sink as a row.
	scalarSink func(sc []kv.Scalar) bool
	// interior, when set, is what the residual's spatial conjuncts hold
	// (optimizer.Scan.Interior): entries in cells inside it are tested
	// against its Rest alone.
	interior *optimizer.Interior
	// entryFilter: the scan looks up its index entries' rows, and the
	// entries hold every column the residual filter reads, so the filter
	// runs on an entry before its row is fetched: a row it rejects is
	// never read.
	entryFilter bool
	// gate, when set, tests a Z-order scan's in-box entries by their keys
	// before they are decoded, and may narrow the scan's box: a
	// nearest-neighbour search's square (nearest_square.go).
	gate *nearestGate
	// reuseRows: the consumer is done with a batch's rows once it asks
	// for the next batch (a projection of plain columns, which copies
	// every value it keeps), so inline streams decode each batch into the
	// memory of the one before instead of new row slabs (reuseRowsUnder).
	reuseRows bool

	// point get; a get of one key (a key lookup) keeps its key and its
	// row's slot here, not in allocations of their own
	points   [][]sqltypes.Value
	oneKey   [1]kv.Key
	onePoint [1][]sqltypes.Value
	onePart  [catalog.PartitionLen]byte
	// inline shard streams, read on the consumer's goroutine
	inline []*shardStream
	// shard streams on goroutines of their own
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
	if err := scannable(planned.Table); err != nil {
		return nil, err
	}
	n, err := planned.Resolve(ec.eval)
	if err != nil {
		return nil, err
	}
	static := n == planned // the planned ranges are the ones read
	n = ec.bindResidual(n)
	if n.Method == optimizer.ZOrderNearest || n.Method == optimizer.XZNearest {
		return ec.newNearest(planned, n), nil
	}
	if n.TopN != nil && len(n.SortKeys) == 0 {
		return ec.newTopN(planned, n), nil
	}
	s := ec.scanRowsMem()
	*s = scanRows{ec: ec, node: n, statKey: planned}
	if static && n.ZSchema != nil && ec.stats != nil {
		s.rangeItems = make([]atomic.Int64, len(n.Ranges))
	}
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

// bindResidual is n with the parts of its residual filter that read only
// the statement's parameters computed for this execution (ir.BindParams):
// a copy when something is.
func (ec *execCtx) bindResidual(n *optimizer.Scan) *optimizer.Scan {
	r := ir.BindParams(n.Residual, ec.eval)
	if r == n.Residual {
		return n
	}
	cp := *n
	cp.Residual = r
	return &cp
}

// start begins reading: one batched get for a point get, else a stream per
// shard, read on the consumer's goroutine (readInline) or on its own.
func (s *scanRows) start(ctx context.Context) error {
	ec, n := s.ec, s.node
	if n.Method == optimizer.PointGet {
		return s.pointGet(ctx)
	}
	if n.Method == optimizer.InvertedScan {
		return s.invertedGet(ctx)
	}
	if in, ok := n.Interior(n.Residual, ec.eval); ok {
		s.interior = &in
	}
	s.entryFilter = n.Lookup && n.Residual != nil && n.Index != nil && readsOnlyColumns(n.Residual) &&
		n.Table.Covers(n.Index, ir.Columns(n.Residual))
	ordered := (n.Ordered || n.InsertionOrder) && len(n.Shards) > 1
	if ordered {
		s.mh = &mergeHeap{reverse: n.Reverse}
	}
	if s.readInline() {
		// No goroutine, channel or context of its own: the consumer's
		// Next reads the store directly.
		for _, shard := range n.Shards {
			s.inline = append(s.inline, s.newShardStream(shard, nil, ordered))
		}
		return nil
	}
	sctx, cancel := context.WithCancel(ctx)
	s.cancel = cancel
	var sem chan struct{}
	if !ec.ex.Caps.CheapSeek && ec.ex.Concurrency > 0 {
		sem = make(chan struct{}, ec.ex.Concurrency)
	}
	if !ordered {
		s.merged = make(chan shardBatch, len(n.Shards)+1)
	}
	for _, shard := range n.Shards {
		st := s.newShardStream(shard, sem, ordered)
		st.out = s.merged
		if ordered {
			st.out = make(chan shardBatch, 2)
			s.chans = append(s.chans, st.out)
		}
		s.wg.Add(1)
		go st.run(sctx)
	}
	s.open = len(n.Shards)
	return nil
}

// readInline reports whether the shards are read on the consumer's
// goroutine, one after another: always for one shard, where a goroutine
// would only add a hand-off per batch, for a sink (the optimizer asks for
// one only where shards may be read one after another), and for a small
// limit on a store
// whose reads are in-process calls, where every shard's first batch is
// likely all the scan reads, and for a filter that calls a user-defined
// function.
func (s *scanRows) readInline() bool {
	n := s.node
	return len(n.Shards) <= 1 || s.sink != nil || (s.ec.ex.Caps.CheapSeek && n.Limit > 0 && n.Limit <= batchRows) ||
		ir.HasRoutineCall(n.Residual) // evaluated on one goroutine only (ir.Func.Routine)
}

// decodedCols are the table columns the scan's rows must carry: those the
// plan reads and, for a dynamic scan sorted here, its sort keys.
func (s *scanRows) decodedCols() []int {
	cols := s.node.Needed
	for _, k := range s.node.SortKeys {
		if !slices.Contains(cols, k.Col) {
			cols = append(slices.Clip(cols), k.Col)
		}
	}
	return cols
}

// withPrimaryKey returns cols plus the primary-key columns not among them.
func withPrimaryKey(t *catalog.Table, cols []int) []int {
	out := slices.Clone(cols)
	for _, k := range t.PrimaryKey {
		if !slices.Contains(out, k.Column) {
			out = append(out, k.Column)
		}
	}
	return out
}

// pointGet reads every key of a point get in one batched request: table
// rows by primary key, or the entries of a unique index (then, unless the
// index covers the query, their rows in a second one).
func (s *scanRows) pointGet(ctx context.Context) error {
	t := s.node.Table
	var keys []kv.Key
	if len(s.node.Points) == 1 {
		keys, s.points = s.oneKey[:], s.onePoint[:0]
	} else {
		keys = make([]kv.Key, len(s.node.Points))
	}
	// Keys of one shard share its partition key (one allocation a get,
	// not one a key: a gin scan gets a hundred rows at once).
	var part []byte
	partShard := -1
	for i, p := range s.node.Points {
		if ix := s.node.Index; ix != nil {
			keys[i] = catalog.UniqueEntryKey(ix, p)
		} else if len(keys) == 1 {
			keys[i] = kv.Key{Partition: t.AppendPartition(s.onePart[:0], t.RowShard(p)), Sort: p}
		} else {
			if shard := t.RowShard(p); shard != partShard {
				part, partShard = t.Partition(shard), shard
			}
			keys[i] = kv.Key{Partition: part, Sort: p}
		}
	}
	// A decoder pays for itself over many rows or when it skips columns;
	// then a get of the rows themselves asks only for its attributes. A
	// get's attributes are ours (kv.Store.Get): the values keep their
	// strings.
	decode := t.DecodeRow
	req := kv.GetRequest{Keys: keys, Stats: &s.stats}
	if cols := s.decodedCols(); len(cols) < len(t.Columns) {
		dec := catalog.NewRowDecoder(t, cols)
		decode = dec.DecodeOwned
		if s.node.Index == nil {
			req.Attrs, req.AttrIDs = dec.AttrNames(s.ec.ex.Caps.AttrIDs)
		}
	}
	items, err := s.ec.kv.Get(ctx, req)
	if err != nil {
		return err
	}
	if s.node.Lookup {
		if items, err = s.lookupRows(ctx, items); err != nil {
			return err
		}
	}
	// The rows are cut from one slab, each capped at its length.
	var slab []sqltypes.Value
	if len(items) > 1 {
		slab = make([]sqltypes.Value, 0, len(items)*len(t.Columns))
	}
	for _, it := range items {
		if !kv.Found(it) {
			continue
		}
		var row []sqltypes.Value
		if n := len(t.Columns); cap(slab)-len(slab) >= n {
			slab = slab[:len(slab)+n]
			row = slab[len(slab)-n : len(slab) : len(slab)]
		} else {
			row = make([]sqltypes.Value, n)
		}
		if err := decode(it.Attrs, row); err != nil {
			return err
		}
		keep, err := s.admit(row, false)
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
	// An entry is read only for the primary key that names its row.
	dec := catalog.NewRowDecoder(t, withPrimaryKey(t, nil))
	row := make([]sqltypes.Value, len(t.Columns))
	for _, it := range entries {
		if !kv.Found(it) {
			continue
		}
		if err := dec.Decode(it.Attrs, row); err != nil {
			return nil, err
		}
		keys = append(keys, t.RowKey(row))
	}
	if len(keys) == 0 {
		return nil, nil
	}
	return s.ec.kv.Get(ctx, kv.GetRequest{Keys: keys, Stats: &s.stats})
}

// admit applies the residual filter; held says the row lies in a cell its
// spatial conjuncts hold, so that only the others are applied.
func (s *scanRows) admit(row []sqltypes.Value, held bool) (bool, error) {
	filter := s.node.Residual
	if held {
		filter = s.interior.Rest
	}
	if filter == nil {
		return true, nil
	}
	v, err := filter.Eval(s.ec.eval, row)
	if err != nil {
		return false, err
	}
	return ir.Truthy(v), nil
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
		if s.merged == nil {
			// Inline: the shards one after another.
			if len(s.inline) == 0 {
				return nil, false, nil
			}
			items, err := s.inline[0].fill(ctx)
			if err != nil {
				return nil, false, err
			}
			if len(s.inline) > 1 {
				// Shards read one after another (a sink's): the next
				// one's first ranges are fetched while this one is read.
				s.inline[1].prefetch(ctx)
			}
			if items == nil {
				s.inline = s.inline[1:]
				continue
			}
			s.cur, s.pos = shardBatch{items: items}, 0
			continue
		}
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
		all := make([]*cursor, 0, len(s.chans)+len(s.inline))
		for i := range s.chans {
			all = append(all, &cursor{ch: s.chans[i]})
		}
		for _, st := range s.inline {
			all = append(all, &cursor{st: st})
		}
		s.mh.cursors = []*cursor{}
		for _, c := range all {
			ok, err := c.advance(ctx)
			if err != nil {
				return nil, false, err
			}
			if ok {
				s.mh.cursors = append(s.mh.cursors, c)
			}
		}
		heap.Init(s.mh)
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
	for _, st := range s.inline {
		st.close()
	}
	if s.ec.kvStats != nil {
		s.ec.kvStats.Requests.Add(s.stats.Requests.Load())
		s.ec.kvStats.ItemsRead.Add(s.stats.ItemsRead.Load())
		s.ec.kvStats.BytesRead.Add(s.stats.BytesRead.Load())
		s.ec.kvStats.AddCapacity(s.stats.Capacity())
	}
	if units := s.stats.Capacity(); units > 0 && s.ec.capacity != nil {
		s.ec.capacity(s.node.Table.Name, units)
	}
	if st := s.ec.stats[s.statKey]; st != nil {
		// (build adds the node's entry once the scan has started.)
		st.ItemsRead += s.stats.ItemsRead.Load()
		st.Requests += s.stats.Requests.Load()
		st.HeldRows += s.held.Load()
		if s.rangeItems != nil {
			if st.RangeItems == nil {
				st.RangeItems = make([]int64, len(s.rangeItems))
			}
			for i := range s.rangeItems {
				st.RangeItems[i] += s.rangeItems[i].Load()
			}
		}
		st.Capacity += s.stats.Capacity()
	}
}

// cursor is one shard's position in the merge. Its batches come down ch
// from the shard's goroutine, or from st read inline.
type cursor struct {
	ch    chan shardBatch
	st    *shardStream
	batch []scanItem
	pos   int
}

func (c *cursor) item() scanItem { return c.batch[c.pos] }

func (c *cursor) advance(ctx context.Context) (bool, error) {
	c.pos++
	for c.pos >= len(c.batch) {
		if c.st != nil {
			items, err := c.st.fill(ctx)
			if err != nil || items == nil {
				return false, err
			}
			c.batch, c.pos = items, 0
			continue
		}
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

// shardStream reads one shard's ranges and hands over batches of admitted
// rows. It is resumable: fill reads until it has a batch (or the shard is
// exhausted) and keeps its place, so a stream can run on the consumer's own
// goroutine (readInline) or on one of its own that sends each batch down a
// channel (run).
type shardStream struct {
	s        *scanRows
	shard    int
	out      chan shardBatch
	sem      chan struct{}
	keepKeys bool // the consumer merges shards by key
	batch    []scanItem
	sent     int
	// slab is memory for the rows of the batch being filled: a few
	// allocations per batch instead of one per row.
	slab []sqltypes.Value
	// slabRows is how many rows the next slab holds (newRow).
	slabRows int
	// rowSlabs are the slabs a batch's rows are carved from again, in
	// order, when the scan reuses its rows (scanRows.reuseRows): those
	// the first batches allocated, sized to add up to a batch, so a scan
	// allocates one batch's rows in all. nextSlab is the next to carve.
	rowSlabs [][]sqltypes.Value
	nextSlab int
	// spare is a row of a reusing stream that the filter rejected, the
	// next row newRow returns.
	spare []sqltypes.Value
	// scratch is the one row a sink's items are decoded into.
	scratch []sqltypes.Value
	// pending index entries awaiting their table rows
	pending []scanItem
	// lookupRounds counts the batched Gets of pending entries (lookupWant).
	lookupRounds int

	// Where the stream is: the ranges to read (in reading order), the one
	// being read and its open iterator.
	ranges []optimizer.KeyRange
	ri     int
	it     kv.Iterator
	// ahead are the open iterators of the ranges after the current one
	// (from ri when none is open yet), in order, each prefetching its
	// first page (kv.Prefetcher) and holding one of the scan's slots; window is how many may be ahead, reach the first range
	// not prefetched (under a LIMIT, past the ranges the estimate says
	// the scan reads).
	ahead  []kv.Iterator
	window int
	reach  int
	// spent is the iterator of the range just read, kept to be moved
	// onto the next range (kv.Rescanner) rather than closed: one
	// iterator serves all the ranges a store lets it.
	spent kv.Rescanner
	// keyIt is it when the store can give a key without decoding its item
	// (kv.KeyIterator): entries a Z-order box skips are then never decoded.
	keyIt kv.KeyIterator
	// scalarIt is it when the store can read an item's attributes into
	// scalars (kv.ScalarIterator), which dec turns into the row's values:
	// one decode a row instead of attributes and then values. scalars
	// are its slots, one per attrs entry.
	scalarIt  kv.ScalarIterator
	scalars   []kv.Scalar
	partition []byte
	// partBuf and decBuf are the memory of partition and of the decoder
	// the stream reads its items with (dec, or rowDec for a lookup): in
	// the stream's one allocation, as a key lookup makes a stream every
	// execution.
	partBuf [catalog.PartitionLen]byte
	decBuf  catalog.RowDecoder
	// firstBatch is the memory of a first batch of one item (emit),
	// taken once (firstTaken).
	firstBatch [1]scanItem
	firstTaken bool
	// attrs are the attributes the stream's items must carry: those of
	// the columns dec decodes (kv.ScanRequest.Attrs), and their IDs.
	attrs   []string
	attrIDs []uint16
	addrLen int
	// box tests a Z-order scan's entries against its box, skipping the
	// test inside an aligned cell wholly in the box (zorder.BoxScan).
	box *zorder.BoxScan
	// interior tells the entries in cells the residual's spatial
	// conjuncts hold (scanRows.interior); nil when there are none.
	interior *zorder.InteriorScan
	misses   int // consecutive out-of-box Z-order entries
	// target is the in-box address a skip-scan steps towards with Next
	// before it seeks (nil: none); steps counts the Nexts so far.
	target   []byte
	steps    int
	seen     int
	finished bool
	// dec decodes the items the stream reads, rowDec the table rows looked
	// up for index entries: only the columns the plan needs. Each stream
	// has its own, as a decoder learns the attribute order of its items.
	dec, rowDec *catalog.RowDecoder
	// rowAttrs and rowAttrIDs are what a lookup asks of its rows (nil:
	// every attribute).
	rowAttrs   []string
	rowAttrIDs []uint16
}

func (s *scanRows) newShardStream(shard int, sem chan struct{}, keepKeys bool) *shardStream {
	n := s.node
	st := &shardStream{s: s, shard: shard, sem: sem, keepKeys: keepKeys, ranges: n.ShardRanges(shard)}
	st.partition = n.Table.AppendPartition(st.partBuf[:0], shard)
	if n.Index != nil {
		st.partition = catalog.AppendIndexPartition(st.partBuf[:0], n.Index.ID, shard)
	}
	if n.Reverse && len(st.ranges) > 1 {
		// A copy, as the ranges are the plan's; one range is its own
		// reverse (a key prefix's latest rows).
		reversed := make([]optimizer.KeyRange, len(st.ranges))
		for i, r := range st.ranges {
			reversed[len(st.ranges)-1-i] = r
		}
		st.ranges = reversed
	}
	if n.ZSchema != nil {
		st.addrLen = n.ZSchema.AddrLen()
		st.box = n.ZSchema.NewBoxScan(n.ZBox)
		if in := s.interior; in != nil {
			st.interior = n.ZSchema.NewInteriorScan(n.ZBox, in.X, in.Y, in.Holds, in.Misses)
		}
	}
	cols := s.decodedCols()
	st.decBuf.Init(n.Table, cols)
	st.dec = &st.decBuf
	if n.Lookup {
		// The index entry must yield the primary key that names its row.
		st.rowDec = st.dec
		st.dec = catalog.NewRowDecoder(n.Table, withPrimaryKey(n.Table, cols))
		if len(cols) < len(n.Table.Columns) {
			// The rows looked up are read for their decoded columns only.
			st.rowAttrs, st.rowAttrIDs = st.rowDec.AttrNames(s.ec.ex.Caps.AttrIDs)
		}
	}
	st.attrs, st.attrIDs = st.dec.AttrNames(s.ec.ex.Caps.AttrIDs)
	st.window, st.reach = s.prefetchWindow(len(st.ranges))
	return st
}

// prefetchWindow is how many ranges after the current one a stream of
// nRanges ranges prefetches, and the first range it does not: none on a
// store with cheap seeks or without prefetching iterators, nor where each
// range's Scan carries a LIMIT's page size (rangeRequest), which depends
// on what the earlier ranges returned. Under a LIMIT the stream prefetches
// only within the share of the ranges that the estimated rows say it
// reads before it stops (the rest are opened as they are reached), so a
// LIMIT does not read far ahead.
func (s *scanRows) prefetchWindow(nRanges int) (window, reach int) {
	caps, n := s.ec.ex.Caps, s.node
	if caps.CheapSeek || caps.ScanFanout <= 1 || nRanges == 0 || s.pageLimited() {
		return 0, 0
	}
	reach = nRanges
	if n.Limit > 0 {
		if n.Estimated == nil || n.Estimated.Rows <= 0 {
			return 0, 0
		}
		share := math.Min(1, float64(n.Limit)/n.Estimated.Rows)
		reach = int(math.Ceil(share * float64(nRanges)))
	}
	if s.slots == nil {
		s.slots = make(chan struct{}, caps.ScanFanout)
	}
	return caps.ScanFanout - 1, reach
}

// pageLimited reports whether the scan's range requests carry a LIMIT as
// a page-size hint (rangeRequest): wherever no residual filter drops rows.
// A Z-order scan's ranges also hold entries outside its box, which its
// pages, growing fourfold (kv/dynamodb's pageGrowth), soon make up for;
// without the hint its first page was DynamoDB's 1 MB, thousands of
// entries for a nearest-neighbour probe of ten.
func (s *scanRows) pageLimited() bool {
	n := s.node
	return n.Limit > 0 && n.Residual == nil
}

// rangeRequest is the Scan of range i of the stream.
func (st *shardStream) rangeRequest(i int) kv.ScanRequest {
	n := st.s.node
	r := st.ranges[i]
	req := kv.ScanRequest{Partition: st.partition, Start: r.Start, End: r.End, Reverse: n.Reverse, Stats: &st.s.stats, Attrs: st.attrs, AttrIDs: st.attrIDs}
	if st.s.pageLimited() {
		req.Limit = n.Limit
		if !n.Lookup {
			// Every item read is a row: the earlier ranges' count.
			req.Limit -= st.sent + len(st.batch)
		}
	}
	return req
}

// prefetch opens the ranges after the current one (from the first, for a
// stream not yet read), up to the window and the scan's free slots, and
// starts their first requests, so that up to ScanFanout ranges' round trips
// overlap while their rows are still handed over in range order.
func (st *shardStream) prefetch(ctx context.Context) {
	next := st.ri
	if st.it != nil {
		next++ // the current range is open
	}
	for len(st.ahead) < st.window {
		i := next + len(st.ahead)
		if i >= st.reach {
			return
		}
		select {
		case st.s.slots <- struct{}{}:
		default:
			return // other streams hold every slot
		}
		it := st.s.ec.kv.Scan(ctx, st.rangeRequest(i))
		if !kv.Prefetch(it) {
			// This read's iterators cannot prefetch: read one range at
			// a time.
			it.Close()
			<-st.s.slots
			st.window = 0
			return
		}
		st.ahead = append(st.ahead, it)
	}
}

// run is the stream on a goroutine of its own: every batch goes down out,
// then an empty batch (the end) or an error.
func (st *shardStream) run(ctx context.Context) {
	defer st.s.wg.Done()
	defer st.close()
	for {
		items, err := st.fill(ctx)
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
		// items == nil is the end of this shard.
		select {
		case st.out <- shardBatch{items: items}:
		case <-ctx.Done():
			return
		}
		if items == nil {
			return
		}
	}
}

// close releases the open iterator, if any, and the prefetching ones
// (cancelling their requests).
func (st *shardStream) close() {
	st.closeRange()
	st.closeSpent()
	for _, it := range st.ahead {
		it.Close()
		<-st.s.slots
	}
	st.ahead = nil
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

// done reports whether this shard has produced all the rows it may need.
func (st *shardStream) done() bool {
	lim := st.s.node.Limit
	return lim > 0 && st.sent+len(st.batch) >= lim
}

// batchCap is how many rows the next batch can hold: batchMax, or fewer
// when a limit leaves fewer to read, so a LIMIT 1 scan does not allocate
// room for 128 rows.
func (st *shardStream) batchCap() int {
	most := st.batchMax()
	if lim := st.s.node.Limit; lim > 0 && st.s.node.Residual == nil {
		return max(1, min(most, lim-st.sent-len(st.batch)))
	}
	return most
}

// batchMax is the most rows a batch holds: reuseBatchRows where the
// stream writes its rows again batch after batch, else batchRows.
func (st *shardStream) batchMax() int {
	if st.reuse() {
		return reuseBatchRows
	}
	return batchRows
}

// take hands over the batch being filled.
func (st *shardStream) take() []scanItem {
	b := st.batch
	st.sent += len(b)
	st.batch = nil
	if st.reuse() {
		st.batch = b[:0]
	}
	return b
}

// reuse reports whether the stream's rows and batches may be written
// again once the consumer asks for the next batch: the scan's consumer
// keeps nothing of them (scanRows.reuseRows), the stream is read on the
// consumer's goroutine one batch at a time (no channel or k-way merge
// holds an earlier batch), and no row waits for its table row.
func (st *shardStream) reuse() bool {
	s := st.s
	return st.out == nil && s.reuseRows && s.mh == nil && s.sink == nil && !s.node.Lookup
}

// reuseBatch starts a batch in the rows and slice of the one before, where
// the stream reuses them (reuse): the consumer is done with that batch.
func (st *shardStream) reuseBatch() {
	if st.reuse() && len(st.rowSlabs) > 0 {
		// (A batch ends on a kept row, so no spare row is left over;
		// were one, it would lie ahead in the slabs now.)
		st.slab, st.nextSlab, st.batch, st.spare = st.rowSlabs[0], 1, st.batch[:0], nil
	}
}

// fill reads until a batch is full or the shard is exhausted and returns
// the batch; nil means the shard has nothing more.
func (st *shardStream) fill(ctx context.Context) ([]scanItem, error) {
	st.reuseBatch()
	most := st.batchMax()
	for len(st.batch) < most && !st.finished {
		more, err := st.step(ctx)
		if err != nil {
			st.close()
			return nil, err
		}
		if !more || st.done() {
			st.close()
			if err := st.flushLookups(ctx); err != nil {
				return nil, err
			}
			st.finished = true
		}
	}
	if len(st.batch) == 0 {
		return nil, nil
	}
	return st.take(), nil
}

// step reads one item of the current range (opening it, or moving on to
// the next range when it ends) and reports false when no range is left.
func (st *shardStream) step(ctx context.Context) (bool, error) {
	n := st.s.node
	for st.it == nil {
		if st.ri >= len(st.ranges) {
			return false, nil
		}
		switch r := st.ranges[st.ri]; {
		case len(st.ahead) > 0:
			st.it, st.ahead = st.ahead[0], st.ahead[1:]
			<-st.s.slots
		case st.spent != nil && st.spent.Rescan(r.Start, r.End):
			st.it = st.spent
		default:
			st.closeSpent()
			st.it = st.s.ec.kv.Scan(ctx, st.rangeRequest(st.ri))
		}
		st.spent = nil
		st.keyIt, _ = st.it.(kv.KeyIterator)
		st.scalarIt = nil
		if st.attrIDs != nil {
			st.scalarIt, _ = st.it.(kv.ScalarIterator)
		}
		st.misses, st.target = 0, nil
		st.prefetch(ctx)
	}
	st.seen++
	if st.seen%cancelCheckEvery == 0 && ctx.Err() != nil {
		// A filter that rejects every row hands over nothing, so the
		// stream must notice a cancel or timeout on its own.
		return false, ctx.Err()
	}
	if st.sem != nil {
		st.sem <- struct{}{}
	}
	ok := st.it.Next()
	if st.sem != nil {
		<-st.sem
	}
	if !ok {
		return st.endRange()
	}
	if st.s.rangeItems != nil {
		i := st.ri
		if n.Reverse {
			i = len(st.ranges) - 1 - i
		}
		st.s.rangeItems[i].Add(1)
	}
	var item kv.Item
	held := false
	if st.addrLen > 0 {
		// The entry's key decides whether it is in the box; its value is
		// decoded only if it is.
		var sort []byte
		if st.keyIt != nil {
			sort = st.keyIt.Key().Sort
		} else {
			item = st.it.Item()
			sort = item.Key.Sort
		}
		if len(sort) < st.addrLen {
			return true, nil
		}
		if st.target != nil {
			if bytes.Compare(sort[:st.addrLen], st.target) < 0 {
				// Still before the next address in the box: outside it.
				if st.steps++; st.steps >= stepsBeforeSeek {
					st.it.Seek(st.target)
					st.target = nil
				}
				return true, nil
			}
			st.target = nil
		}
		inside, next, more := st.box.Next(sort[:st.addrLen])
		if !inside {
			if !more {
				return st.endRange() // nothing in the box lies past this address
			}
			return st.skipTo(next)
		}
		if st.interior != nil {
			held = st.interior.Inside(sort)
			if !held {
				// A cell the filter's region misses: no entry of it
				// passes, so the scan skips it as it skips the box's
				// gaps.
				if next, out := st.interior.Outside(sort); out {
					if next == nil {
						return st.endRange()
					}
					return st.skipTo(next)
				}
			}
		}
		st.misses = 0
		if g := st.s.gate; g != nil {
			if !g.admit(sort) {
				return true, nil
			}
			st.box = g.box // narrowed to the K-th candidate's square
		}
		if held && st.s.ec.stats != nil {
			st.s.held.Add(1)
		}
	}
	unfiltered := n.Residual == nil || held && st.s.interior.Rest == nil
	if st.s.scalarSink != nil && !n.Lookup && unfiltered && st.scalarIt != nil && item.Key.Sort == nil {
		if st.readScalars() && st.s.scalarSink(st.scalars) {
			return true, nil
		}
	}
	var row []sqltypes.Value
	if st.s.sink != nil && !n.Lookup {
		// The sink is done with the row when it returns: one buffer
		// serves every item.
		if st.scratch == nil {
			st.scratch = make([]sqltypes.Value, len(n.Table.Columns))
		}
		row = st.scratch
	} else {
		row = st.newRow(len(n.Table.Columns))
	}
	err := st.decode(&item, row)
	if err != nil {
		return false, err
	}
	si := scanItem{row: row, held: held}
	if st.s.entryFilter {
		keep, err := st.s.admit(row, held)
		if err != nil || !keep {
			return err == nil, err
		}
		si.admitted = true
	}
	if st.keepKeys {
		// Only a k-way merge compares keys after the iterator moves on.
		if item.Key.Sort == nil {
			item.Key = st.keyIt.Key()
		}
		si.key = append([]byte(nil), item.Key.Sort...)
	}
	if !n.Lookup {
		return true, st.emit(si)
	}
	st.pending = append(st.pending, si)
	if len(st.pending) >= st.lookupWant() {
		return true, st.flushLookups(ctx)
	}
	return true, nil
}

// decode decodes the current item into row: through its scalars when the
// iterator can read it so (kv.ScalarIterator), else from *item, which it
// reads unless the caller has (its key nil). (A pointer: an Item passed
// and returned by value was copied through the stack, a stall a row.)
func (st *shardStream) decode(item *kv.Item, row []sqltypes.Value) error {
	n := st.s.node
	aliasing := st.s.sinkAliases && !n.Lookup && n.Residual == nil
	if st.scalarIt != nil && item.Key.Sort == nil {
		if st.readScalars() {
			if aliasing {
				return st.dec.DecodeScalarsAliasing(st.scalars, row)
			}
			return st.dec.DecodeScalars(st.scalars, row)
		}
	}
	if item.Key.Sort == nil {
		*item = st.it.Item()
	}
	if aliasing {
		return st.dec.DecodeAliasing(item.Attrs, row)
	}
	return st.dec.Decode(item.Attrs, row)
}

// readScalars reads the current item into st.scalars (kv.ScalarIterator)
// and reports whether it could.
func (st *shardStream) readScalars() bool {
	if st.scalars == nil {
		st.scalars = make([]kv.Scalar, len(st.attrs))
	}
	return st.scalarIt.Scalars(st.scalars)
}

// closeRange releases the current range's iterator.
func (st *shardStream) closeRange() {
	if st.it != nil {
		st.it.Close()
		st.it = nil
	}
}

// closeSpent closes the kept iterator of a finished range, if any.
func (st *shardStream) closeSpent() {
	if st.spent != nil {
		st.spent.Close()
		st.spent = nil
	}
}

// skipTo passes over an entry outside what the scan reads, whose next
// address that may be read is next: a store with cheap seeks steps a few
// entries and then seeks (target); another seeks once sparseSeek entries
// in a row were passed.
func (st *shardStream) skipTo(next []byte) (bool, error) {
	st.misses++
	if st.s.ec.ex.Caps.CheapSeek || st.misses >= sparseSeek {
		if end := st.ranges[st.ri].End; end != nil && bytes.Compare(next, end) >= 0 {
			return st.endRange()
		}
		if st.s.ec.ex.Caps.CheapSeek {
			st.target, st.steps = next, 0
		} else {
			st.it.Seek(next)
		}
		st.misses = 0
	}
	return true, nil
}

// endRange is done with the current range's iterator and moves to the
// next range. The iterator is kept for the next range when the store can
// move it there (kv.Rescanner) and no prefetched iterator is waiting.
func (st *shardStream) endRange() (bool, error) {
	err := st.it.Err()
	st.ri++
	more := err == nil && st.ri < len(st.ranges)
	if r, ok := st.it.(kv.Rescanner); ok && more && len(st.ahead) == 0 {
		st.spent, st.it = r, nil
	} else {
		st.closeRange()
	}
	return more, err
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
	items, err := st.s.ec.kv.Get(ctx, kv.GetRequest{Keys: keys, Stats: &st.s.stats, Attrs: st.rowAttrs, AttrIDs: st.rowAttrIDs})
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
		if err := st.rowDec.Decode(it.Attrs, pending[i].row); err != nil {
			return err
		}
		if err := st.emit(pending[i]); err != nil {
			return err
		}
	}
	return nil
}

// newRow returns a row of n values carved from the stream's slab: zeroed,
// or, where the stream reuses its rows (reuse), a row of an earlier batch,
// which the decoder overwrites whole (catalog.RowDecoder starts every row
// from its initial values). Rows are otherwise handed to the consumer in
// batches and never reused, so carving is safe; the slab is replaced when
// it runs out.
//
// Slabs start small and double, below the runtime's large objects: a scan
// that finds a few rows (a key prefix, a secondary equality) then
// allocates a few rows' worth, not a zeroed 128-row block. A stream that
// reuses its rows keeps every slab and carves the next batch from them
// again, so its slabs are sized to end with the batch (reuseBatchRows:
// 8 and 8 rows, one batch in all, where slabs growing past the batch's
// end allocated nearly two); its row the filter rejected is the next
// row (spare).
func (st *shardStream) newRow(n int) []sqltypes.Value {
	if row := st.spare; row != nil {
		st.spare = nil
		return row
	}
	if len(st.slab) < n {
		reuse := st.reuse()
		if reuse && st.nextSlab < len(st.rowSlabs) && len(st.rowSlabs[st.nextSlab]) >= n {
			st.slab = st.rowSlabs[st.nextSlab]
			st.nextSlab++
		} else {
			limit := maxSlabBytes / (n * int(unsafe.Sizeof(sqltypes.Value{})))
			rows := min(max(st.slabRows, firstSlabRows), st.batchCap(), max(1, limit))
			if reuse {
				// The batch's rows so far are in the kept slabs:
				// this one holds no more than the rest of the batch.
				rows = min(rows, max(1, st.batchMax()-len(st.batch)))
			}
			st.slabRows = 2 * rows
			st.slab = make([]sqltypes.Value, n*rows)
			if reuse {
				st.rowSlabs = append(st.rowSlabs[:st.nextSlab], st.slab)
				st.nextSlab++
			}
		}
	}
	row := st.slab[:n:n]
	st.slab = st.slab[n:]
	return row
}

func (st *shardStream) emit(si scanItem) error {
	keep, err := true, error(nil)
	if !si.admitted {
		keep, err = st.s.admit(si.row, si.held)
	}
	if err != nil {
		return err
	}
	if !keep {
		if st.reuse() {
			// Nobody holds the row: the next item is decoded into it,
			// not into more of the slab, which a filter that rejects
			// most rows would otherwise exhaust batch after batch.
			st.spare = si.row
		}
		return nil
	}
	if st.s.sink != nil {
		return st.s.sink(si.row)
	}
	if st.batch == nil {
		if c := st.batchCap(); c == 1 && !st.firstTaken {
			// A LIMIT 1 scan's one batch (latest by key), in the stream's
			// allocation; only the first batch, as a batch handed over
			// is the consumer's.
			st.firstTaken = true
			st.batch = st.firstBatch[:0:1]
		} else {
			// Small at first and grown by append, as the row slabs are
			// (newRow): a scan that finds a few rows (a kNN batch, a
			// key prefix) allocates a few rows' worth, not batchRows.
			st.batch = make([]scanItem, 0, min(c, max(firstSlabRows, st.sent)))
		}
	}
	st.batch = append(st.batch, si)
	return nil
}

// readsOnlyColumns reports whether e reads nothing of its row but the
// columns ir.Columns finds: no subquery, whose left operand or outer
// references a walk does not see (ir.RowReader).
func readsOnlyColumns(e ir.Expr) bool {
	ok := true
	ir.Walk(e, func(x ir.Expr) {
		switch x := x.(type) {
		case *ir.Subquery:
			ok = false
		case ir.RowReader:
			if x.ReadsRow() {
				ok = false
			}
		}
	})
	return ok
}
