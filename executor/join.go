package executor

import (
	"context"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/optimizer"
)

// joinEmitter turns one left row and its matches into output rows by join
// kind; the join operators share it.
type joinEmitter struct {
	kind   ir.JoinKind
	lw, rw int
	out    []sqltypes.Value
}

func (j *joinEmitter) pair(left, right []sqltypes.Value) []sqltypes.Value {
	j.out = append(append(j.out[:0], left...), right...)
	return j.out
}

func (j *joinEmitter) nullRight(left []sqltypes.Value) []sqltypes.Value {
	j.out = append(j.out[:0], left...)
	for i := 0; i < j.rw; i++ {
		j.out = append(j.out, sqltypes.Null)
	}
	return j.out
}

func (j *joinEmitter) nullLeft(right []sqltypes.Value) []sqltypes.Value {
	j.out = j.out[:0]
	for i := 0; i < j.lw; i++ {
		j.out = append(j.out, sqltypes.Null)
	}
	j.out = append(j.out, right...)
	return j.out
}

// pendingJoin walks the candidate matches of the current left row.
type pendingJoin struct {
	left    []sqltypes.Value
	cands   [][]sqltypes.Value
	idx     []int // index of each candidate in the build side (full joins)
	pos     int
	matched bool
	active  bool
}

// nextPair runs the emitter over the pending candidates: it returns the next
// output row of the current left row, or ok false when the left row is
// done. pred checks a joined row; onMatch marks a build row matched.
func (e *joinEmitter) nextPair(p *pendingJoin, pred func([]sqltypes.Value) (bool, error), onMatch func(int)) ([]sqltypes.Value, bool, error) {
	for p.pos < len(p.cands) {
		cand := p.cands[p.pos]
		i := p.pos
		p.pos++
		row := e.pair(p.left, cand)
		ok, err := pred(row)
		if err != nil {
			return nil, false, err
		}
		if !ok {
			continue
		}
		p.matched = true
		if onMatch != nil && i < len(p.idx) {
			onMatch(p.idx[i])
		}
		switch e.kind {
		case ir.SemiJoin:
			p.pos = len(p.cands)
			return p.left, true, nil
		case ir.AntiJoin:
			p.pos = len(p.cands)
			return nil, false, nil
		}
		return row, true, nil
	}
	p.active = false
	switch {
	case e.kind == ir.AntiJoin && !p.matched:
		return p.left, true, nil
	case (e.kind == ir.LeftJoin || e.kind == ir.FullJoin) && !p.matched:
		return e.nullRight(p.left), true, nil
	}
	return nil, false, nil
}

func truthy(e ir.Expr, ev *ir.EvalContext, row []sqltypes.Value) (bool, error) {
	if e == nil {
		return true, nil
	}
	v, err := e.Eval(ev, row)
	if err != nil {
		return false, err
	}
	return ir.Truthy(v), nil
}

// evalKeys evaluates join keys; ok is false when one is NULL (a NULL key
// never matches).
func evalKeys(keys []ir.Expr, ev *ir.EvalContext, row []sqltypes.Value, out []sqltypes.Value) ([]sqltypes.Value, bool, error) {
	out = out[:0]
	for _, k := range keys {
		v, err := k.Eval(ev, row)
		if err != nil {
			return nil, false, err
		}
		if v.IsNull() {
			return out, false, nil
		}
		out = append(out, v)
	}
	return out, true, nil
}

// hashJoinRows is a hash join: the right input is read into a hash table
// keyed by RightKeys, then each left row probes it.
type hashJoinRows struct {
	ec          *execCtx
	mem         *memBudget // the build side's (opMem)
	node        *optimizer.HashJoin
	left, right Rows
	em          joinEmitter
	table       map[uint64][]int
	build       [][]sqltypes.Value // right rows with their keys: [row..., keys...]
	matchedR    []bool
	built       bool
	cur         pendingJoin
	key         []sqltypes.Value
	tail        int // full join: next build row to check for no match
	leftDone    bool
	// Spilling (joinspill.go): partitioned, the join runs partition by
	// partition.
	spill joinSpill
}

func (ec *execCtx) newHashJoin(ctx context.Context, n *optimizer.HashJoin) (Rows, error) {
	l, err := ec.build(ctx, n.Left)
	if err != nil {
		return nil, err
	}
	r, err := ec.build(ctx, n.Right)
	if err != nil {
		l.Close()
		return nil, err
	}
	lw, rw := len(n.Left.Columns()), len(n.Right.Columns())
	return &hashJoinRows{ec: ec, mem: ec.opMem(), node: n, left: l, right: r, em: joinEmitter{kind: n.Kind, lw: lw, rw: rw}}, nil
}

func (h *hashJoinRows) buildTable(ctx context.Context) error {
	h.table = map[uint64][]int{}
	rw := h.em.rw
	var key []sqltypes.Value
	return drain(ctx, h.right, func(row []sqltypes.Value) error {
		k, ok, err := evalKeys(h.node.RightKeys, h.ec.eval, row, key)
		if err != nil {
			return err
		}
		key = k
		if !ok && h.node.Kind != ir.FullJoin {
			return nil // a NULL key matches nothing
		}
		if h.spill.build != nil {
			return h.spill.addBuild(h.ec, k, ok, row)
		}
		kept := make([]sqltypes.Value, rw, rw+len(k))
		copy(kept, row)
		if ok {
			kept = append(kept, k...)
		}
		if err := h.mem.grow(rowSize(kept) + 16); err != nil {
			if spilled, serr := h.spillBuild(err, k, ok, row); spilled || serr != nil {
				return serr
			}
			return err
		}
		h.spill.held += rowSize(kept) + 16
		i := len(h.build)
		h.build = append(h.build, kept)
		if ok {
			hk := hashRow(k)
			h.table[hk] = append(h.table[hk], i)
		}
		return nil
	})
}

func (h *hashJoinRows) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	if !h.built {
		h.built = true
		var err error
		if h.left, h.leftDone, err = peekLeft(ctx, h.node.Kind, h.left); err != nil || h.leftDone {
			return nil, false, err
		}
		if err := h.buildTable(ctx); err != nil {
			return nil, false, err
		}
		if len(h.build) == 0 && h.spill.build == nil && (h.node.Kind == ir.InnerJoin || h.node.Kind == ir.SemiJoin) {
			// Nothing to match: the rest of the left input is never read.
			h.leftDone = true
			return nil, false, nil
		}
		if h.spill.build != nil {
			if err := h.partitionProbe(ctx); err != nil {
				return nil, false, err
			}
		}
		if h.node.Kind == ir.FullJoin {
			h.matchedR = make([]bool, len(h.build))
		}
	}
	if h.spill.subs != nil {
		return h.nextFromPartitions(ctx)
	}
	pred := func(row []sqltypes.Value) (bool, error) { return truthy(h.node.Residual, h.ec.eval, row) }
	var mark func(int)
	if h.matchedR != nil {
		mark = func(i int) { h.matchedR[i] = true }
	}
	for !h.leftDone {
		if h.cur.active {
			row, ok, err := h.em.nextPair(&h.cur, pred, mark)
			if err != nil || ok {
				return row, ok, err
			}
			continue
		}
		left, ok, err := h.left.Next(ctx)
		if err != nil {
			return nil, false, err
		}
		if !ok {
			h.leftDone = true
			break
		}
		h.cur = pendingJoin{left: append(h.cur.left[:0], left...), active: true, cands: h.cur.cands[:0], idx: h.cur.idx[:0]}
		k, ok, err := evalKeys(h.node.LeftKeys, h.ec.eval, left, h.key)
		if err != nil {
			return nil, false, err
		}
		h.key = k
		if ok {
			for _, i := range h.table[hashRow(k)] {
				if keysEqual(h.build[i][h.em.rw:], k) {
					h.cur.cands = append(h.cur.cands, h.build[i][:h.em.rw])
					h.cur.idx = append(h.cur.idx, i)
				}
			}
		}
	}
	// A full join ends with the right rows nothing matched.
	for h.matchedR != nil && h.tail < len(h.build) {
		i := h.tail
		h.tail++
		if !h.matchedR[i] {
			return h.em.nullLeft(h.build[i][:h.em.rw]), true, nil
		}
	}
	return nil, false, nil
}

// peekLeft reads the first left row of a join whose output is empty when
// its left input is (every kind but RIGHT and FULL) before the right input
// is read at all, as PostgreSQL's nested loop and hash join do: over an
// empty left input the right one is never read, so a right-side filter
// never meets (and never fails on) its rows. done is true when the left
// input is empty; left is then closed to nothing more.
func peekLeft(ctx context.Context, kind ir.JoinKind, left Rows) (rows Rows, done bool, err error) {
	if kind == ir.RightJoin || kind == ir.FullJoin {
		return left, false, nil
	}
	first, ok, err := left.Next(ctx)
	if err != nil || !ok {
		return left, !ok, err
	}
	return &pushedBack{row: copyRow(first), Rows: left}, false, nil
}

// pushedBack is a Rows whose first row was read ahead (peekLeft).
type pushedBack struct {
	row []sqltypes.Value
	Rows
}

func (p *pushedBack) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	if p.row != nil {
		row := p.row
		p.row = nil
		return row, true, nil
	}
	return p.Rows.Next(ctx)
}

// keysEqual compares join keys (never NULL here) by SQL equality.
func keysEqual(a, b []sqltypes.Value) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if sqltypes.Compare(a[i], b[i]) != 0 {
			return false
		}
	}
	return true
}

func (h *hashJoinRows) Close() {
	h.mem.release(h.spill.held) // the build rows
	h.spill.held = 0
	h.spill.close()
	h.left.Close()
	h.right.Close()
}

// nestedLoopRows reads the right input once, then pairs every left row
// with every right row.
type nestedLoopRows struct {
	ec          *execCtx
	node        *optimizer.NestedLoop
	left, right Rows
	em          joinEmitter
	rows        [][]sqltypes.Value
	idx         []int
	matchedR    []bool
	built       bool
	cur         pendingJoin
	leftDone    bool
	tail        int
	// held is what rows holds, charged to the statement's memory budget
	// until Close: a correlated subquery builds its join again for every
	// outer row.
	held int64
}

func (ec *execCtx) newNestedLoop(ctx context.Context, n *optimizer.NestedLoop) (Rows, error) {
	l, err := ec.build(ctx, n.Left)
	if err != nil {
		return nil, err
	}
	r, err := ec.build(ctx, n.Right)
	if err != nil {
		l.Close()
		return nil, err
	}
	return &nestedLoopRows{ec: ec, node: n, left: l, right: r,
		em: joinEmitter{kind: n.Kind, lw: len(n.Left.Columns()), rw: len(n.Right.Columns())}}, nil
}

func (nl *nestedLoopRows) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	if !nl.built {
		nl.built = true
		var err error
		if nl.left, nl.leftDone, err = peekLeft(ctx, nl.node.Kind, nl.left); err != nil || nl.leftDone {
			return nil, false, err
		}
		if err := drain(ctx, nl.right, func(row []sqltypes.Value) error {
			kept := copyRow(row)
			size := rowSize(kept)
			if err := nl.ec.mem.grow(size); err != nil {
				return err
			}
			nl.held += size
			nl.idx = append(nl.idx, len(nl.rows))
			nl.rows = append(nl.rows, kept)
			return nil
		}); err != nil {
			return nil, false, err
		}
		if nl.node.Kind == ir.FullJoin {
			nl.matchedR = make([]bool, len(nl.rows))
		}
	}
	pred := func(row []sqltypes.Value) (bool, error) { return truthy(nl.node.Pred, nl.ec.eval, row) }
	var mark func(int)
	if nl.matchedR != nil {
		mark = func(i int) { nl.matchedR[i] = true }
	}
	for n := 0; !nl.leftDone; n++ {
		if n%cancelCheckEvery == cancelCheckEvery-1 && ctx.Err() != nil {
			return nil, false, ctx.Err()
		}
		if nl.cur.active {
			row, ok, err := nl.em.nextPair(&nl.cur, pred, mark)
			if err != nil || ok {
				return row, ok, err
			}
			continue
		}
		left, ok, err := nl.left.Next(ctx)
		if err != nil {
			return nil, false, err
		}
		if !ok {
			nl.leftDone = true
			break
		}
		nl.cur = pendingJoin{left: append(nl.cur.left[:0], left...), active: true, cands: nl.rows, idx: nl.idx}
	}
	for nl.matchedR != nil && nl.tail < len(nl.rows) {
		i := nl.tail
		nl.tail++
		if !nl.matchedR[i] {
			return nl.em.nullLeft(nl.rows[i]), true, nil
		}
	}
	return nil, false, nil
}

func (nl *nestedLoopRows) Close() {
	nl.ec.mem.release(nl.held)
	nl.held, nl.rows = 0, nil
	nl.left.Close()
	nl.right.Close()
}

// applyRows runs the right input once per left row, with the left row as
// its outer row.
type applyRows struct {
	ec    *execCtx
	node  *optimizer.Apply
	left  Rows
	em    joinEmitter
	init  bool
	cur   []sqltypes.Value
	right Rows
	rctx  *execCtx
	match bool
}

func (a *applyRows) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	if !a.init {
		a.init = true
		a.em = joinEmitter{kind: a.node.Kind, lw: len(a.node.Left.Columns()), rw: len(a.node.Right.Columns())}
	}
	for {
		if a.right == nil {
			left, ok, err := a.left.Next(ctx)
			if err != nil || !ok {
				return nil, false, err
			}
			a.cur = copyRow(left)
			if a.cur == nil {
				a.cur = []sqltypes.Value{} // a row without columns is still an outer row
			}
			a.rctx = a.ec.child(a.cur)
			if a.right, err = a.rctx.build(ctx, a.node.Right); err != nil {
				return nil, false, err
			}
			a.match = false
		}
		row, ok, err := a.right.Next(ctx)
		if err != nil {
			return nil, false, err
		}
		if !ok {
			a.right.Close()
			a.right = nil
			switch {
			case a.node.Kind == ir.LeftJoin && !a.match:
				return a.em.nullRight(a.cur), true, nil
			case a.node.Kind == ir.AntiJoin && !a.match:
				return a.cur, true, nil
			}
			continue
		}
		joined := a.em.pair(a.cur, row)
		// The join's own condition is of the join's level: the left row
		// pushed for the right side is not its outer row.
		keep, err := truthy(a.node.Pred, a.ec.eval, joined)
		if err != nil {
			return nil, false, err
		}
		if !keep {
			continue
		}
		a.match = true
		switch a.node.Kind {
		case ir.SemiJoin:
			a.right.Close()
			a.right = nil
			return a.cur, true, nil
		case ir.AntiJoin:
			a.right.Close()
			a.right = nil
			continue
		}
		return joined, true, nil
	}
}

func (a *applyRows) Close() {
	if a.right != nil {
		a.right.Close()
	}
	a.left.Close()
}

// lookupJoinRows serves a lookup join: it takes up to Batch left rows,
// turns their join keys into primary-key points or key prefixes of the
// inner access path, reads them (one batched get for points, one range
// per prefix and shard otherwise, then a batched get of the table rows
// when the index does not cover), and pairs them.
type lookupJoinRows struct {
	ec    *execCtx
	node  *optimizer.LookupJoin
	left  Rows
	em    joinEmitter
	stats kv.Stats

	batch   [][]sqltypes.Value
	matches map[string][][]sqltypes.Value // encoded key prefix → inner rows
	keyOf   []string                      // per batch row; "" for a NULL key
	pos     int
	cur     pendingJoin
	done    bool
	init    bool
}

func (l *lookupJoinRows) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	if !l.init {
		l.init = true
		l.em = joinEmitter{kind: l.node.Kind, lw: len(l.node.Left.Columns()), rw: len(l.node.Table.Columns)}
	}
	pred := func(row []sqltypes.Value) (bool, error) { return truthy(l.node.Residual, l.ec.eval, row) }
	for {
		if l.cur.active {
			row, ok, err := l.em.nextPair(&l.cur, pred, nil)
			if err != nil || ok {
				return row, ok, err
			}
			continue
		}
		if l.pos < len(l.batch) {
			i := l.pos
			l.pos++
			l.cur = pendingJoin{left: l.batch[i], active: true}
			if k := l.keyOf[i]; k != "" {
				l.cur.cands = l.matches[k]
			}
			continue
		}
		if l.done {
			return nil, false, nil
		}
		if err := l.fill(ctx); err != nil {
			return nil, false, err
		}
		if len(l.batch) == 0 {
			return nil, false, nil
		}
	}
}

// fill reads the next batch of left rows and their matches.
func (l *lookupJoinRows) fill(ctx context.Context) error {
	n := l.node
	t := n.Table
	l.batch, l.keyOf, l.pos = l.batch[:0], l.keyOf[:0], 0
	l.matches = map[string][][]sqltypes.Value{}
	var vals []sqltypes.Value
	prefixes := map[string]bool{}
	var order []string
	for len(l.batch) < n.Batch {
		row, ok, err := l.left.Next(ctx)
		if err != nil {
			return err
		}
		if !ok {
			l.done = true
			break
		}
		kept := copyRow(row)
		l.batch = append(l.batch, kept)
		vals, ok, err = evalKeys(n.KeyExprs, l.ec.eval, kept, vals)
		if err != nil {
			return err
		}
		key := ""
		if ok {
			var enc []byte
			for i, v := range vals {
				kc := n.KeyCols[i]
				kv, exact := keyValueFor(v, t.Columns[kc.Column].Type.Kind())
				if !exact {
					enc = nil
					break
				}
				enc = catalog.AppendKeyValue(enc, kv, kc.Desc)
			}
			if enc != nil {
				key = string(enc)
				if !prefixes[key] {
					prefixes[key] = true
					order = append(order, key)
				}
			}
		}
		l.keyOf = append(l.keyOf, key)
	}
	if len(order) == 0 {
		return nil
	}
	inner, err := l.read(ctx, order)
	if err != nil {
		return err
	}
	for _, r := range inner {
		ok, err := truthy(n.InnerFilter, l.ec.eval, r.row)
		if err != nil {
			return err
		}
		if ok {
			l.matches[r.key] = append(l.matches[r.key], r.row)
		}
	}
	return nil
}

// keyValueFor converts a join key to the kind the key column is encoded
// as; exact is false when the value cannot equal any key of that kind.
func keyValueFor(v sqltypes.Value, k sqltypes.Kind) (sqltypes.Value, bool) {
	if v.K == k {
		return v, true
	}
	switch {
	case k == sqltypes.KindFloat && v.K == sqltypes.KindInt:
		return sqltypes.NewFloat(float64(v.I)), true
	case k == sqltypes.KindInt && v.K == sqltypes.KindFloat:
		if v.F == float64(int64(v.F)) {
			return sqltypes.NewInt(int64(v.F)), true
		}
		return v, false
	case (k == sqltypes.KindTimestamp || k == sqltypes.KindTimestampTZ) && (v.K == sqltypes.KindTimestamp || v.K == sqltypes.KindTimestampTZ):
		return sqltypes.Value{K: k, I: v.I}, true
	}
	return v, false
}

type keyedRow struct {
	key string
	row []sqltypes.Value
}

// read fetches the inner rows for the encoded key prefixes.
func (l *lookupJoinRows) read(ctx context.Context, prefixes []string) ([]keyedRow, error) {
	n := l.node
	t := n.Table
	store := l.ec.kv
	if n.PointGet {
		keys := make([]kv.Key, len(prefixes))
		for i, p := range prefixes {
			keys[i] = kv.Key{Partition: t.Partition(t.RowShard([]byte(p))), Sort: []byte(p)}
		}
		items, err := store.Get(ctx, kv.GetRequest{Keys: keys, Stats: &l.stats})
		if err != nil {
			return nil, err
		}
		var out []keyedRow
		for i, it := range items {
			if !kv.Found(it) {
				continue
			}
			row := make([]sqltypes.Value, len(t.Columns))
			if err := t.DecodeRow(it.Attrs, row); err != nil {
				return nil, err
			}
			out = append(out, keyedRow{key: prefixes[i], row: row})
		}
		return out, nil
	}
	// Prefix ranges: one range per prefix on every shard of the path that
	// can hold it (one, when the prefix binds the shard columns).
	var out []keyedRow
	var pending []keyedRow
	for _, p := range prefixes {
		for _, sh := range t.ShardsFor(n.Index, []byte(p), len(n.KeyExprs)) {
			part := t.Partition(sh)
			if n.Index != nil {
				part = catalog.IndexPartition(n.Index.ID, sh)
			}
			it := store.Scan(ctx, kv.ScanRequest{Partition: part, Start: []byte(p), End: kv.PrefixEnd([]byte(p)), Stats: &l.stats})
			for it.Next() {
				row := make([]sqltypes.Value, len(t.Columns))
				if err := t.DecodeRow(it.Item().Attrs, row); err != nil {
					it.Close()
					return nil, err
				}
				if n.Lookup {
					pending = append(pending, keyedRow{key: p, row: row})
				} else {
					out = append(out, keyedRow{key: p, row: row})
				}
			}
			err := it.Err()
			it.Close()
			if err != nil {
				return nil, err
			}
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
		}
	}
	if len(pending) > 0 {
		keys := make([]kv.Key, len(pending))
		for i, p := range pending {
			keys[i] = t.RowKey(p.row)
		}
		items, err := store.Get(ctx, kv.GetRequest{Keys: keys, Stats: &l.stats})
		if err != nil {
			return nil, err
		}
		for i, it := range items {
			if !kv.Found(it) {
				continue // deleted since the entry was read
			}
			if err := t.DecodeRow(it.Attrs, pending[i].row); err != nil {
				return nil, err
			}
			out = append(out, pending[i])
		}
	}
	return out, nil
}

func (l *lookupJoinRows) Close() {
	l.left.Close()
	if l.ec.kvStats != nil {
		l.ec.kvStats.Requests.Add(l.stats.Requests.Load())
		l.ec.kvStats.ItemsRead.Add(l.stats.ItemsRead.Load())
		l.ec.kvStats.BytesRead.Add(l.stats.BytesRead.Load())
		l.ec.kvStats.AddCapacity(l.stats.Capacity())
	}
	if units := l.stats.Capacity(); units > 0 && l.ec.capacity != nil {
		l.ec.capacity(l.node.Table.Name, units)
	}
	if st := l.ec.stats[l.node]; st != nil {
		st.ItemsRead += l.stats.ItemsRead.Load()
		st.Requests += l.stats.Requests.Load()
		st.Capacity += l.stats.Capacity()
	}
}

// mergeJoinRows joins two inputs ordered by their join keys: for each left
// row it moves the right input up to the left key and pairs the left row
// with the group of right rows of that key (kept while left keys repeat).
type mergeJoinRows struct {
	ec          *execCtx
	node        *optimizer.MergeJoin
	left, right Rows
	em          joinEmitter

	group    [][]sqltypes.Value // right rows of groupKey
	groupKey []sqltypes.Value
	// groupHeld is what group holds, charged to the statement's memory
	// budget until the next group replaces it.
	groupHeld int64
	peek      []sqltypes.Value // the next right row, read ahead
	peekKey   []sqltypes.Value
	rightEnd  bool
	started   bool
	cur       pendingJoin
	lkey      []sqltypes.Value
}

func (ec *execCtx) newMergeJoin(ctx context.Context, n *optimizer.MergeJoin) (Rows, error) {
	l, err := ec.build(ctx, n.Left)
	if err != nil {
		return nil, err
	}
	r, err := ec.build(ctx, n.Right)
	if err != nil {
		l.Close()
		return nil, err
	}
	return &mergeJoinRows{ec: ec, node: n, left: l, right: r,
		em: joinEmitter{kind: n.Kind, lw: len(n.Left.Columns()), rw: len(n.Right.Columns())}}, nil
}

// compareKeys orders join keys as the inputs are ordered.
func compareKeys(a, b []sqltypes.Value) int {
	for i := range a {
		if c := sqltypes.Compare(a[i], b[i]); c != 0 {
			return c
		}
	}
	return 0
}

// readRight reads the next right row with its key into peek.
func (m *mergeJoinRows) readRight(ctx context.Context) error {
	row, ok, err := m.right.Next(ctx)
	if err != nil {
		return err
	}
	if !ok {
		m.rightEnd, m.peek = true, nil
		return nil
	}
	m.peek = copyRow(row)
	k, _, err := evalKeys(m.node.RightKeys, m.ec.eval, m.peek, nil)
	m.peekKey = k
	return err
}

// groupFor makes m.group the right rows whose key equals key.
func (m *mergeJoinRows) groupFor(ctx context.Context, key []sqltypes.Value) error {
	if m.groupKey != nil && compareKeys(m.groupKey, key) == 0 {
		return nil
	}
	m.ec.mem.release(m.groupHeld)
	m.group, m.groupKey, m.groupHeld = m.group[:0], copyRow(key), 0
	for !m.rightEnd && compareKeys(m.peekKey, key) < 0 {
		if err := m.readRight(ctx); err != nil {
			return err
		}
	}
	for !m.rightEnd && compareKeys(m.peekKey, key) == 0 {
		size := rowSize(m.peek)
		if err := m.ec.mem.grow(size); err != nil {
			return err
		}
		m.groupHeld += size
		m.group = append(m.group, m.peek)
		if err := m.readRight(ctx); err != nil {
			return err
		}
	}
	return nil
}

func (m *mergeJoinRows) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	if !m.started {
		m.started = true
		if err := m.readRight(ctx); err != nil {
			return nil, false, err
		}
	}
	pred := func(row []sqltypes.Value) (bool, error) { return truthy(m.node.Residual, m.ec.eval, row) }
	for {
		if m.cur.active {
			row, ok, err := m.em.nextPair(&m.cur, pred, nil)
			if err != nil || ok {
				return row, ok, err
			}
			continue
		}
		left, ok, err := m.left.Next(ctx)
		if err != nil || !ok {
			return nil, false, err
		}
		m.cur = pendingJoin{left: append(m.cur.left[:0], left...), active: true}
		k, ok, err := evalKeys(m.node.LeftKeys, m.ec.eval, left, m.lkey)
		if err != nil {
			return nil, false, err
		}
		m.lkey = k
		if !ok {
			continue // a NULL key matches nothing
		}
		if err := m.groupFor(ctx, k); err != nil {
			return nil, false, err
		}
		m.cur.cands = m.group
	}
}

func (m *mergeJoinRows) Close() {
	m.ec.mem.release(m.groupHeld)
	m.groupHeld, m.group = 0, nil
	m.left.Close()
	m.right.Close()
}
