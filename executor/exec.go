package executor

import (
	"context"
	"sort"
	"sync"
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/optimizer"
	"github.com/zproxy/zproxy/planner"
)

// MaxSortRows bounds the rows Sort, Distinct and Aggregate groups hold in
// memory; past it a statement fails with 53000 instead of exhausting the
// proxy's memory.
const MaxSortRows = 2_000_000

// Executor runs plans against one store.
type Executor struct {
	Store kv.Store
	Caps  kv.Capabilities
	// Concurrency bounds the store requests one statement has in flight.
	Concurrency int
	// Gate orders writes against online index builds in this process:
	// statements that write hold it shared from the moment they read the
	// schema until their batch is committed; an index build holds it
	// exclusively while it reads and indexes one chunk of rows.
	Gate sync.RWMutex
}

// New returns an Executor for store.
func New(store kv.Store) *Executor {
	return &Executor{Store: store, Caps: store.Capabilities(), Concurrency: 16}
}

// Rows is a stream of result rows.
type Rows interface {
	// Next returns the next row; ok is false at the end. The row is only
	// valid until the next call.
	Next(ctx context.Context) (row []sqltypes.Value, ok bool, err error)
	Close()
}

// Run starts executing a read plan. stats, if non-nil, collects per-operator
// statistics (EXPLAIN ANALYZE); the store statistics of the whole plan go to
// kvStats.
func (e *Executor) Run(ctx context.Context, plan *optimizer.Plan, params []sqltypes.Value, stats map[optimizer.Node]*optimizer.NodeStats, kvStats *kv.Stats) (Rows, error) {
	ec := &execCtx{ex: e, eval: &planner.EvalContext{Params: params, Now: time.Now()}, stats: stats, kvStats: kvStats}
	return ec.build(ctx, plan.Root)
}

type execCtx struct {
	ex      *Executor
	eval    *planner.EvalContext
	stats   map[optimizer.Node]*optimizer.NodeStats
	kvStats *kv.Stats
}

func (ec *execCtx) build(ctx context.Context, n optimizer.Node) (Rows, error) {
	var r Rows
	var err error
	switch x := n.(type) {
	case *optimizer.Scan:
		r, err = ec.newScan(ctx, x)
	case *optimizer.Values:
		r = &valuesRows{}
	case *optimizer.Rowset:
		r = &rowsetRows{rows: x.Rows}
	case *optimizer.Filter:
		in, err := ec.build(ctx, x.Input)
		if err != nil {
			return nil, err
		}
		r = &filterRows{in: in, pred: x.Pred, ec: ec}
	case *optimizer.Project:
		in, err := ec.build(ctx, x.Input)
		if err != nil {
			return nil, err
		}
		r = &projectRows{in: in, exprs: x.Exprs, ec: ec, out: make([]sqltypes.Value, len(x.Exprs))}
	case *optimizer.Aggregate:
		in, err := ec.build(ctx, x.Input)
		if err != nil {
			return nil, err
		}
		r = &aggRows{in: in, node: x, ec: ec}
	case *optimizer.Sort:
		in, err := ec.build(ctx, x.Input)
		if err != nil {
			return nil, err
		}
		r = &sortRows{in: in, node: x}
	case *optimizer.Distinct:
		in, err := ec.build(ctx, x.Input)
		if err != nil {
			return nil, err
		}
		r = &distinctRows{in: in, width: x.Width, seen: map[uint64][][]sqltypes.Value{}}
	case *optimizer.Limit:
		in, err := ec.build(ctx, x.Input)
		if err != nil {
			return nil, err
		}
		r = &limitRows{in: in, count: x.Count, offset: x.Offset}
	default:
		return nil, pgerr.New(pgerr.InternalError, "executor: unknown plan node %T", n)
	}
	if err != nil {
		return nil, err
	}
	if ec.stats != nil {
		st := &optimizer.NodeStats{}
		ec.stats[n] = st
		r = &statRows{in: r, st: st}
	}
	return r, nil
}

var (
	_ Rows = (*scanRows)(nil)
	_ Rows = (*valuesRows)(nil)
	_ Rows = (*rowsetRows)(nil)
	_ Rows = (*filterRows)(nil)
	_ Rows = (*projectRows)(nil)
	_ Rows = (*aggRows)(nil)
	_ Rows = (*sortRows)(nil)
	_ Rows = (*distinctRows)(nil)
	_ Rows = (*limitRows)(nil)
	_ Rows = (*statRows)(nil)
)

// statRows counts rows and time for EXPLAIN ANALYZE.
type statRows struct {
	in Rows
	st *optimizer.NodeStats
}

func (s *statRows) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	start := time.Now()
	row, ok, err := s.in.Next(ctx)
	s.st.Time += time.Since(start)
	if ok {
		s.st.Rows++
	}
	return row, ok, err
}

func (s *statRows) Close() { s.in.Close() }

type valuesRows struct{ done bool }

func (v *valuesRows) Next(context.Context) ([]sqltypes.Value, bool, error) {
	if v.done {
		return nil, false, nil
	}
	v.done = true
	return []sqltypes.Value{}, true, nil
}

func (v *valuesRows) Close() {}

// rowsetRows yields rows computed ahead of time (catalog views).
type rowsetRows struct {
	rows [][]sqltypes.Value
	pos  int
}

func (r *rowsetRows) Next(context.Context) ([]sqltypes.Value, bool, error) {
	if r.pos >= len(r.rows) {
		return nil, false, nil
	}
	r.pos++
	return r.rows[r.pos-1], true, nil
}

func (r *rowsetRows) Close() {}

type filterRows struct {
	in   Rows
	pred planner.Expr
	ec   *execCtx
}

func (f *filterRows) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	for {
		row, ok, err := f.in.Next(ctx)
		if !ok || err != nil {
			return nil, false, err
		}
		v, err := f.pred.Eval(f.ec.eval, row)
		if err != nil {
			return nil, false, err
		}
		if planner.Truthy(v) {
			return row, true, nil
		}
	}
}

func (f *filterRows) Close() { f.in.Close() }

type projectRows struct {
	in    Rows
	exprs []planner.Expr
	ec    *execCtx
	out   []sqltypes.Value
}

func (p *projectRows) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	row, ok, err := p.in.Next(ctx)
	if !ok || err != nil {
		return nil, false, err
	}
	for i, e := range p.exprs {
		v, err := e.Eval(p.ec.eval, row)
		if err != nil {
			return nil, false, err
		}
		p.out[i] = v
	}
	return p.out, true, nil
}

func (p *projectRows) Close() { p.in.Close() }

type limitRows struct {
	in            Rows
	count, offset int64
	n             int64
}

func (l *limitRows) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	for l.offset > 0 {
		_, ok, err := l.in.Next(ctx)
		if !ok || err != nil {
			return nil, false, err
		}
		l.offset--
	}
	if l.count >= 0 && l.n >= l.count {
		return nil, false, nil
	}
	row, ok, err := l.in.Next(ctx)
	if ok {
		l.n++
	}
	return row, ok, err
}

func (l *limitRows) Close() { l.in.Close() }

func copyRow(r []sqltypes.Value) []sqltypes.Value { return append([]sqltypes.Value(nil), r...) }

func tooMany() error {
	return pgerr.New(pgerr.InsufficientResources, "statement needs more than %d rows in memory (sort, DISTINCT or GROUP BY)", MaxSortRows).
		WithHint("Add a LIMIT, narrow the WHERE clause, or order by an indexed column so the sort is not needed.")
}

// sortRows sorts its input; with a limit it keeps a bounded top-n.
type sortRows struct {
	in   Rows
	node *optimizer.Sort
	rows [][]sqltypes.Value
	pos  int
	done bool
}

func (s *sortRows) less(a, b []sqltypes.Value) bool {
	for _, k := range s.node.Keys {
		x, y := a[k.Col], b[k.Col]
		if x.IsNull() || y.IsNull() {
			if x.IsNull() == y.IsNull() {
				continue
			}
			return x.IsNull() == k.NullsFirst
		}
		c := sqltypes.Compare(x, y)
		if c == 0 {
			continue
		}
		if k.Desc {
			return c > 0
		}
		return c < 0
	}
	return false
}

func (s *sortRows) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	if !s.done {
		s.done = true
		limit := s.node.Limit
		for {
			row, ok, err := s.in.Next(ctx)
			if err != nil {
				return nil, false, err
			}
			if !ok {
				break
			}
			s.rows = append(s.rows, copyRow(row))
			if limit > 0 && len(s.rows) >= 2*limit+1024 {
				// Keep memory bounded for ORDER BY ... LIMIT: trim to top-n.
				sort.SliceStable(s.rows, func(i, j int) bool { return s.less(s.rows[i], s.rows[j]) })
				s.rows = s.rows[:limit]
			}
			if len(s.rows) > MaxSortRows {
				return nil, false, tooMany()
			}
		}
		sort.SliceStable(s.rows, func(i, j int) bool { return s.less(s.rows[i], s.rows[j]) })
		if limit > 0 && len(s.rows) > limit {
			s.rows = s.rows[:limit]
		}
	}
	if s.pos >= len(s.rows) {
		return nil, false, nil
	}
	s.pos++
	return s.rows[s.pos-1], true, nil
}

func (s *sortRows) Close() { s.in.Close() }

type distinctRows struct {
	in    Rows
	width int
	seen  map[uint64][][]sqltypes.Value
	n     int
}

func (d *distinctRows) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	for {
		row, ok, err := d.in.Next(ctx)
		if !ok || err != nil {
			return nil, false, err
		}
		key := row[:d.width]
		h := hashRow(key)
		dup := false
		for _, prev := range d.seen[h] {
			if rowsEqual(prev, key) {
				dup = true
				break
			}
		}
		if dup {
			continue
		}
		d.n++
		if d.n > MaxSortRows {
			return nil, false, tooMany()
		}
		d.seen[h] = append(d.seen[h], copyRow(key))
		return row, true, nil
	}
}

func (d *distinctRows) Close() { d.in.Close() }

func hashRow(r []sqltypes.Value) uint64 {
	h := uint64(14695981039346656037)
	for _, v := range r {
		h = v.Hash(h)
	}
	return h
}

func rowsEqual(a, b []sqltypes.Value) bool {
	for i := range a {
		if !sqltypes.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}
