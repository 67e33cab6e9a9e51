package executor

import (
	"container/heap"
	"context"
	"sort"

	"github.com/zproxy/zproxy/executor/spill"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/optimizer"
)

// Spilling. An operator that holds rows charges them to the statement's
// work_mem (memBudget); when a charge fails, an operator that can spill
// moves what it holds to the executor's spill store (package spill) and
// goes on: a sort writes a sorted run and merges its runs at the end
// (externalSort), a hash aggregation sends the rows of the groups it has no
// room for to hash partitions it aggregates one by one afterwards, a hash
// join partitions both inputs by the join keys and joins partition by
// partition (a grace hash join), a window sorts externally and holds one
// partition at a time, a shared WITH query keeps its rows in a run. What
// was written counts against the statement's temp_file_limit (53400);
// EXPLAIN ANALYZE shows each operator's spilled rows and bytes.

// NoSpill, as RunOptions.TempFileLimit, keeps a statement from spilling
// (PostgreSQL's temp_file_limit = 0): past work_mem it fails with 53200.
const NoSpill = -1

// spillState is one statement's access to the spill store.
type spillState struct {
	store *spill.Store
	quota *spill.Quota
}

// newSpillState is the spill access of a statement with temp_file_limit
// limit (RunOptions.TempFileLimit), made in a.
func (e *Executor) newSpillState(limit int64, a *spillAlloc) *spillState {
	if e.Spill == nil || limit < 0 {
		return nil
	}
	a.quota = spill.Quota{Limit: -1}
	if limit > 0 {
		a.quota.Limit = limit
	}
	a.state = spillState{store: e.Spill, quota: &a.quota}
	return &a.state
}

// spillAlloc is the memory of a statement's spill access.
type spillAlloc struct {
	state spillState
	quota spill.Quota
}

// opMem is the memory budget of an operator that can spill. As
// PostgreSQL's work_mem, it is the operator's own: a sort, a hash
// aggregation, a hash join's build side or a window each hold up to
// work_mem before they spill, so one of them never spills for what another
// holds (an aggregation under a sort would otherwise find the sort's rows
// in its way and split its partitions in vain). Without spilling, every
// operator shares the statement's budget, as before.
func (ec *execCtx) opMem() *memBudget {
	if ec.spill == nil {
		return ec.mem
	}
	return &memBudget{limit: ec.mem.limit, spill: ec.spill}
}

// canSpill reports whether err is a work_mem overflow the statement may
// answer by spilling.
func (ec *execCtx) canSpill(err error) bool {
	return ec.spill != nil && pgerr.CodeOf(err) == pgerr.OutOfMemory
}

// newRun starts a spill run of the statement.
func (ec *execCtx) newRun() (*spill.Run, error) {
	return ec.spill.store.NewRun(ec.spill.quota)
}

// spilled records what an operator wrote to the spill store.
func (ec *execCtx) spilled(n optimizer.Node, rows, bytes int64) {
	if ec.stats == nil || n == nil {
		return
	}
	st := ec.stats[n]
	if st == nil {
		st = &optimizer.NodeStats{}
		ec.stats[n] = st
	}
	st.SpilledRows += rows
	st.SpilledBytes += bytes
}

// writeRun writes rows to a new run (more may be added).
func (ec *execCtx) writeRun(rows [][]sqltypes.Value) (*spill.Run, error) {
	r, err := ec.newRun()
	if err != nil {
		return nil, err
	}
	for _, row := range rows {
		if err := r.Add(row); err != nil {
			r.Release()
			return nil, err
		}
	}
	return r, nil
}

// runRows reads a run as Rows, releasing it when closed if owned.
type runRows struct {
	run   *spill.Run
	rd    *spill.Reader
	owned bool
}

func newRunRows(r *spill.Run, owned bool) (*runRows, error) {
	rd, err := r.Reader()
	if err != nil {
		return nil, err
	}
	return &runRows{run: r, rd: rd, owned: owned}, nil
}

func (r *runRows) Next(context.Context) ([]sqltypes.Value, bool, error) { return r.rd.Next() }

func (r *runRows) Close() {
	r.rd.Close()
	if r.owned {
		r.run.Release()
	}
}

// partitions spreads rows over spill runs by a hash, for operators that
// handle a part of their input at a time.
type partitions struct {
	ec    *execCtx
	depth int
	runs  []*spill.Run
}

// numPartitions is how many parts a spilling hash operator splits its
// input into at each level.
const numPartitions = 16

func newPartitions(ec *execCtx, depth int) *partitions {
	return &partitions{ec: ec, depth: depth, runs: make([]*spill.Run, numPartitions)}
}

// of picks a partition for hash h; each level uses other bits of it, so a
// partition split again spreads.
func (p *partitions) of(h uint64) int {
	h ^= h >> 29
	h *= 0xbf58476d1ce4e5b9 + uint64(p.depth)*0x94d049bb133111eb
	h ^= h >> 32
	return int(h % numPartitions)
}

func (p *partitions) add(h uint64, row []sqltypes.Value) error {
	i := p.of(h)
	if p.runs[i] == nil {
		r, err := p.ec.newRun()
		if err != nil {
			return err
		}
		p.runs[i] = r
	}
	return p.runs[i].Add(row)
}

// totals are the rows and bytes written.
func (p *partitions) totals() (rows, bytes int64) {
	for _, r := range p.runs {
		if r != nil {
			rows, bytes = rows+r.Len(), bytes+r.Bytes()
		}
	}
	return rows, bytes
}

// release deletes the runs (none of a nil p).
func (p *partitions) release() {
	if p == nil {
		return
	}
	for _, r := range p.runs {
		if r != nil {
			r.Release()
		}
	}
}

// maxSpillDepth bounds how often a partition is split again: past it the
// rows are too alike to split (one huge group or key) and the operator
// fails with 53200.
const maxSpillDepth = 4

// minRun is the fewest rows a spilled sort run holds: below it a sort
// keeps rows past its budget.
const minRun = 256

// externalSort sorts rows that may not fit in memory: rows are kept until
// work_mem is reached, then sorted and written as a run; the result merges
// the runs and what is left in memory.
type externalSort struct {
	ec   *execCtx
	mem  *memBudget
	node optimizer.Node
	keys []ir.SortKey
	// limit > 0 is a top-n: only the first limit rows matter.
	limit int
	rows  [][]sqltypes.Value
	held  int64
	runs  []*spill.Run
	// heap is set while a top-n of at most topNHeapMax rows keeps them as
	// a bounded heap (PostgreSQL's top-N heapsort): rows is then a max-heap
	// by (keys, arrival) holding the best limit rows so far, seq their
	// arrival numbers, so a row that cannot make the cut is dropped with
	// one comparison (wants) and the result is what a stable sort of every
	// row would give.
	heap bool
	seq  []int64
	next int64
}

// topNHeapMax is the largest limit a top-n keeps as a bounded heap; past
// it, rows are sorted and trimmed in batches.
const topNHeapMax = 1 << 14

// newExternalSort starts a sort of rows by keys; limit > 0 keeps only the
// first limit rows.
func newExternalSort(ec *execCtx, node optimizer.Node, keys []ir.SortKey, limit int) *externalSort {
	return &externalSort{ec: ec, mem: ec.opMem(), node: node, keys: keys, limit: limit, heap: limit > 0 && limit <= topNHeapMax}
}

// wants reports whether a row can be among the result: false only for a
// full top-n heap whose worst row sorts at or before it (a later row loses
// ties), so the caller need not copy it.
func (s *externalSort) wants(row []sqltypes.Value) bool {
	return !s.heap || len(s.rows) < s.limit || compareBy(s.keys, row, s.rows[0]) < 0
}

// heapLess orders the heap: the root is the row that sorts last.
func (s *externalSort) heapLess(i, j int) bool {
	if c := compareBy(s.keys, s.rows[i], s.rows[j]); c != 0 {
		return c > 0
	}
	return s.seq[i] > s.seq[j]
}

func (s *externalSort) heapSwap(i, j int) {
	s.rows[i], s.rows[j] = s.rows[j], s.rows[i]
	s.seq[i], s.seq[j] = s.seq[j], s.seq[i]
}

// heapAdd keeps a row in the bounded heap, in place of the worst one when
// full (wants said it sorts before it). It reports false, having kept
// nothing, when the heap cannot grow within the memory budget.
func (s *externalSort) heapAdd(row []sqltypes.Value) bool {
	size := rowSize(row)
	if len(s.rows) < s.limit {
		if s.mem.grow(size) != nil {
			return false
		}
		s.held += size
		// Appended and fixed rather than heap.Push, which would box the
		// row in an interface value.
		s.rows, s.seq = append(s.rows, row), append(s.seq, s.next)
		heap.Fix(topN{s}, len(s.rows)-1)
	} else {
		freed := rowSize(s.rows[0])
		if size > freed && s.mem.grow(size-freed) != nil {
			return false
		}
		if size < freed {
			s.mem.release(freed - size)
		}
		s.held += size - freed
		s.rows[0], s.seq[0] = row, s.next
		heap.Fix(topN{s}, 0)
	}
	s.next++
	return true
}

// leaveHeap turns the heap back into rows in arrival-stable order, for the
// batch path once the heap outgrows the memory budget.
func (s *externalSort) leaveHeap() {
	s.sortHeap()
	s.heap, s.seq = false, nil
}

// sortHeap orders the heap's rows as a stable sort of every row would.
func (s *externalSort) sortHeap() {
	sort.Sort(heapOrder{s})
}

// topN is a top-n's bounded heap (heap.Interface over its rows and
// arrival numbers): the root is the row that sorts last.
type topN struct{ s *externalSort }

type heapEntry struct {
	row []sqltypes.Value
	seq int64
}

func (h topN) Len() int           { return len(h.s.rows) }
func (h topN) Less(i, j int) bool { return h.s.heapLess(i, j) }
func (h topN) Swap(i, j int)      { h.s.heapSwap(i, j) }
func (h topN) Push(x any) {
	e := x.(heapEntry)
	h.s.rows, h.s.seq = append(h.s.rows, e.row), append(h.s.seq, e.seq)
}
func (h topN) Pop() any {
	n := len(h.s.rows) - 1
	e := heapEntry{h.s.rows[n], h.s.seq[n]}
	h.s.rows, h.s.seq = h.s.rows[:n], h.s.seq[:n]
	return e
}

// heapOrder sorts a heap's rows ascending by (keys, arrival).
type heapOrder struct{ s *externalSort }

func (h heapOrder) Len() int           { return len(h.s.rows) }
func (h heapOrder) Less(i, j int) bool { return h.s.heapLess(j, i) }
func (h heapOrder) Swap(i, j int)      { h.s.heapSwap(i, j) }

// add keeps a row (the caller's copy).
func (s *externalSort) add(ctx context.Context, row []sqltypes.Value) error {
	if s.heap {
		if s.heapAdd(row) {
			return nil
		}
		s.leaveHeap()
	}
	size := rowSize(row)
	if s.limit > 0 && len(s.rows) >= 2*s.limit && (len(s.rows) >= 2*s.limit+1024 || s.held+size > s.mem.limit/8) {
		// A top-n keeps its memory bounded by trimming to the first n
		// (also well below work_mem, which the operators under it,
		// running at the same time, need more).
		if err := s.trim(ctx); err != nil {
			return err
		}
	}
	if err := s.mem.grow(size); err != nil {
		if !s.ec.canSpill(err) {
			return err
		}
		if s.limit > 0 && len(s.rows) > s.limit {
			if err := s.trim(ctx); err != nil {
				return err
			}
			err = s.mem.grow(size)
		}
		if err != nil && len(s.rows) >= minRun {
			if err := s.spillRun(ctx); err != nil {
				return err
			}
			err = s.mem.grow(size)
		}
		if err != nil {
			// Others hold the budget (the states of an aggregation's
			// other calls): a few rows past it make a run worth merging.
			s.rows = append(s.rows, row)
			return nil
		}
	}
	s.held += size
	s.rows = append(s.rows, row)
	return nil
}

// trim sorts a top-n's rows and keeps the first limit.
func (s *externalSort) trim(ctx context.Context) error {
	if err := sortChecked(ctx, s.rows, func(i, j int) bool { return lessBy(s.keys, s.rows[i], s.rows[j]) }); err != nil {
		return err
	}
	var freed int64
	for i, r := range s.rows[s.limit:] {
		freed += rowSize(r)
		s.rows[s.limit+i] = nil
	}
	s.rows = s.rows[:s.limit]
	freed = min(freed, s.held) // (rows kept past the budget were not charged)
	s.held -= freed
	s.mem.release(freed)
	return nil
}

// spillRun writes what is held as a sorted run.
func (s *externalSort) spillRun(ctx context.Context) error {
	if err := sortChecked(ctx, s.rows, func(i, j int) bool { return lessBy(s.keys, s.rows[i], s.rows[j]) }); err != nil {
		return err
	}
	r, err := s.ec.writeRun(s.rows)
	if err != nil {
		return err
	}
	s.ec.spilled(s.node, r.Len(), r.Bytes())
	s.runs = append(s.runs, r)
	s.rows = nil
	s.mem.release(s.held)
	s.held = 0
	return nil
}

// result returns the rows in order: from memory when nothing spilled,
// else merged from the runs.
func (s *externalSort) result(ctx context.Context) (Rows, error) {
	if s.heap {
		s.sortHeap()
		return &rowsetRows{rows: s.rows}, nil
	}
	if len(s.runs) > 0 && len(s.rows) > 0 {
		// The rest goes to a run too: the merge then holds no memory,
		// which the operator above may need.
		if err := s.spillRun(ctx); err != nil {
			return nil, err
		}
	}
	if err := sortChecked(ctx, s.rows, func(i, j int) bool { return lessBy(s.keys, s.rows[i], s.rows[j]) }); err != nil {
		return nil, err
	}
	if len(s.runs) == 0 {
		return &rowsetRows{rows: s.rows}, nil
	}
	if err := s.mergePasses(ctx); err != nil {
		return nil, err
	}
	m := &mergeRows{keys: s.keys}
	for _, r := range s.runs {
		rr, err := newRunRows(r, true)
		if err != nil {
			m.Close()
			return nil, err
		}
		m.inputs = append(m.inputs, rr)
	}
	m.inputs = append(m.inputs, &rowsetRows{rows: s.rows})
	return m, nil
}

// mergeFanIn is how many runs one merge reads at once. Each costs a read
// buffer (spill.ReaderBytes) and a row, so, as PostgreSQL's tuplesort
// sizes its merge order from work_mem, the buffers take at most half the
// sort's budget; at least 8, so a small work_mem still merges in few
// passes, and at most 256, so a merge holds few file descriptors.
func mergeFanIn(budget int64) int {
	return int(min(max(budget/2/spill.ReaderBytes, 8), 256))
}

// mergePasses merges runs, mergeFanIn consecutive ones into one, until
// one merge can read them all: without it, a sort of N rows would hold
// N / work_mem readers at once (5M rows at 4MB: about 170 buffers and
// rows past the budget). A merged run takes the place of its inputs, so
// equal rows keep their order.
func (s *externalSort) mergePasses(ctx context.Context) error {
	fanIn := mergeFanIn(s.mem.limit)
	for len(s.runs) > fanIn {
		var next []*spill.Run
		for i := 0; i < len(s.runs); i += fanIn {
			group := s.runs[i:min(i+fanIn, len(s.runs))]
			if len(group) == 1 {
				next = append(next, group[0])
				continue
			}
			r, err := s.mergeRuns(ctx, group)
			if err != nil {
				for _, r := range next {
					r.Release()
				}
				return err
			}
			next = append(next, r)
		}
		s.runs = next
	}
	return nil
}

// mergeRuns merges runs (released) into a new one.
func (s *externalSort) mergeRuns(ctx context.Context, runs []*spill.Run) (*spill.Run, error) {
	m := &mergeRows{keys: s.keys}
	defer m.Close()
	for _, r := range runs {
		rr, err := newRunRows(r, true)
		if err != nil {
			return nil, err
		}
		m.inputs = append(m.inputs, rr)
	}
	out, err := s.ec.newRun()
	if err != nil {
		return nil, err
	}
	for n := 0; ; n++ {
		if n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				out.Release()
				return nil, err
			}
		}
		row, ok, err := m.Next(ctx)
		if err == nil && ok {
			err = out.Add(row)
		}
		if err != nil {
			out.Release()
			return nil, err
		}
		if !ok {
			break
		}
	}
	if err := out.Finish(); err != nil {
		out.Release()
		return nil, err
	}
	return out, nil
}

// mergeRows merges sorted inputs (an earlier input wins ties, so the merge
// keeps the order of equal rows).
type mergeRows struct {
	keys    []ir.SortKey
	inputs  []Rows
	h       mergeHeapRows
	started bool
}

type mergeItem struct {
	row []sqltypes.Value
	src int
}

type mergeHeapRows struct {
	keys  []ir.SortKey
	items []mergeItem
}

func (h *mergeHeapRows) Len() int { return len(h.items) }
func (h *mergeHeapRows) Less(i, j int) bool {
	if c := compareBy(h.keys, h.items[i].row, h.items[j].row); c != 0 {
		return c < 0
	}
	return h.items[i].src < h.items[j].src
}
func (h *mergeHeapRows) Swap(i, j int) { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *mergeHeapRows) Push(x any)    { h.items = append(h.items, x.(mergeItem)) }
func (h *mergeHeapRows) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}
func (m *mergeRows) pull(ctx context.Context, src int) (bool, error) {
	row, ok, err := m.inputs[src].Next(ctx)
	if err != nil || !ok {
		return false, err
	}
	heap.Push(&m.h, mergeItem{row: copyRow(row), src: src})
	return true, nil
}

func (m *mergeRows) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	if !m.started {
		m.started = true
		m.h.keys = m.keys
		for i := range m.inputs {
			if _, err := m.pull(ctx, i); err != nil {
				return nil, false, err
			}
		}
	}
	if m.h.Len() == 0 {
		return nil, false, nil
	}
	it := heap.Pop(&m.h).(mergeItem)
	if _, err := m.pull(ctx, it.src); err != nil {
		return nil, false, err
	}
	return it.row, true, nil
}

func (m *mergeRows) Close() {
	for _, in := range m.inputs {
		in.Close()
	}
}
