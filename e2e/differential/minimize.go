package differential

import (
	"context"
	"slices"
	"strings"
	"time"
)

// minimizer shrinks one mismatching case while it keeps mismatching the
// same way: first the statement, then each table's rows, then the
// zproxy-only options and indexes, within a time budget. A case is the
// tables and views as they were before the statement; when that does not
// reproduce the mismatch (zproxy's state went wrong earlier, say an index
// that a write left stale), it is the round's initial tables and the
// writes and DDL the round ran before the statement (the prefix), which
// are shrunk first.
type minimizer struct {
	c        *campaign
	sch      *schema // the tables, rows and views loaded before the prefix
	prefix   []*stmt
	st       *stmt
	sig      string
	deadline time.Time
	checks   int

	init    *schema // the round's initial state and history, for the second try
	history []*stmt
}

// run returns the shrunk case, its outcome, and whether the mismatch
// reproduced at all (if not, the case is left as it was).
func (m *minimizer) run(ctx context.Context) (*minimizer, outcome, bool) {
	if _, err := m.loadAll(ctx); err != nil {
		m.c.opts.Logf("minimise: loading the case: %v", err)
		return m, outcome{}, false
	}
	sig, o := m.check(ctx)
	if sig != m.sig && m.init != nil && len(m.history) > 0 {
		m.c.opts.Logf("minimise: not reproduced from the state before the statement (got %q, want %q); replaying the round's %d writes", sig, m.sig, len(m.history))
		m.sch, m.prefix = m.init.clone(), slices.Clone(m.history)
		sig, o = m.check(ctx)
		if sig == m.sig {
			m.shrinkPrefix(ctx)
		}
	}
	if sig != m.sig {
		m.c.opts.Logf("minimise: not reproduced (got %q, want %q)", sig, m.sig)
		return m, o, false
	}
	m.shrinkStatement(ctx)
	m.shrinkRows(ctx)
	m.shrinkSchema(ctx)
	// A mismatch that comes and goes (a race, an order that depends on
	// timing) may hide in the last run: give it a few.
	for try := 0; try < 5; try++ {
		if sig, o = m.check(ctx); sig == m.sig {
			if try > 0 {
				m.c.opts.Logf("minimise: the mismatch is intermittent (reproduced on run %d)", try+1)
			}
			break
		}
	}
	return m, o, true
}

func (m *minimizer) expired(ctx context.Context) bool {
	return ctx.Err() != nil || time.Now().After(m.deadline)
}

// loadAll loads the case afresh and replays the prefix; it returns the
// state the statement then sees.
func (m *minimizer) loadAll(ctx context.Context) (*schema, error) {
	if err := m.c.reset(ctx); err != nil {
		return nil, err
	}
	if err := m.c.load(ctx, m.sch); err != nil {
		return nil, err
	}
	state := m.sch.clone()
	for _, p := range m.prefix {
		m.c.execute(ctx, state, p)
	}
	return state, nil
}

// check runs the statement on the case and returns its signature. A case
// with a prefix is reloaded every time; otherwise a query runs on what is
// loaded, and a write first restores its table.
func (m *minimizer) check(ctx context.Context) (string, outcome) {
	m.checks++
	state := m.sch
	switch {
	case len(m.prefix) > 0 || m.st.kind == kDDL || m.st.kind == kTxn:
		s, err := m.loadAll(ctx)
		if err != nil {
			return "load failed", outcome{}
		}
		state = s
	case m.st.kind == kWrite:
		if err := m.c.loadTable(ctx, m.sch.table(m.st.target), false); err != nil {
			if _, err := m.loadAll(ctx); err != nil {
				return "load failed", outcome{}
			}
		}
	}
	o := m.c.execute(ctx, state.clone(), m.st)
	if o.zp.lost() {
		_ = m.c.recover(ctx, o.zp.err)
		_, _ = m.loadAll(ctx)
	}
	return o.signature(), o
}

// shrinkPrefix drops statements of the prefix.
func (m *minimizer) shrinkPrefix(ctx context.Context) {
	ddmin(m, ctx, &m.prefix, func() bool {
		sig, _ := m.check(ctx)
		return sig == m.sig
	})
}

// ddmin drops elements of *xs in halving chunks (delta debugging) while
// keeps, run after each drop, says the mismatch is still there.
func ddmin[T any](m *minimizer, ctx context.Context, xs *[]T, keeps func() bool) {
	for chunk := (len(*xs) + 1) / 2; chunk >= 1 && !m.expired(ctx); chunk /= 2 {
		for start := 0; start < len(*xs) && !m.expired(ctx); {
			old := *xs
			*xs = slices.Delete(slices.Clone(old), start, min(start+chunk, len(old)))
			if keeps() {
				continue
			}
			*xs = old
			start += chunk
		}
		if chunk == 1 {
			break
		}
	}
}

// shrinkStatement applies every mutation that keeps the signature, in
// passes until a pass keeps none.
func (m *minimizer) shrinkStatement(ctx context.Context) {
	for changed := true; changed && !m.expired(ctx); {
		changed = false
		for i := 0; !m.expired(ctx); {
			undo := mutate(m.st, i)
			if undo == nil {
				break
			}
			if sig, _ := m.check(ctx); sig == m.sig {
				changed = true // point i is now the next one
				continue
			}
			undo()
			i++
		}
	}
}

// shrinkRows removes rows, table by table.
func (m *minimizer) shrinkRows(ctx context.Context) {
	used := m.used()
	for _, t := range m.sch.tables {
		if !used[t.name] {
			continue
		}
		ddmin(m, ctx, &t.rows, func() bool {
			if m.c.loadTable(ctx, t, false) != nil {
				return false
			}
			sig, _ := m.check(ctx)
			return sig == m.sig
		})
		_ = m.c.loadTable(ctx, t, false)
	}
}

// shrinkSchema drops indexes, shards and DESC key columns (one at a time,
// reloading the case for each).
func (m *minimizer) shrinkSchema(ctx context.Context) {
	used := m.used()
	try := func(apply func() func()) {
		if m.expired(ctx) {
			return
		}
		undo := apply()
		if _, err := m.loadAll(ctx); err == nil {
			if sig, _ := m.check(ctx); sig == m.sig {
				return
			}
		}
		undo()
	}
	for _, t := range m.sch.tables {
		if !used[t.name] {
			continue
		}
		for i := len(t.indexes) - 1; i >= 0; i-- {
			try(func() func() {
				old := t.indexes
				t.indexes = slices.Delete(slices.Clone(old), i, i+1)
				return func() { t.indexes = old }
			})
		}
		if t.shardCols > 0 {
			try(func() func() {
				old := t.shardCols
				t.shardCols = 0
				return func() { t.shardCols = old }
			})
		}
		if t.shards > 0 {
			try(func() func() {
				old, oldCols := t.shards, t.shardCols
				t.shards, t.shardCols = 0, 0
				return func() { t.shards, t.shardCols = old, oldCols }
			})
		}
		if slices.Contains(t.pkDesc, true) {
			try(func() func() {
				old := t.pkDesc
				t.pkDesc = make([]bool, len(old))
				return func() { t.pkDesc = old }
			})
		}
	}
}

// used is the tables and views the prefix and the statement use.
func (m *minimizer) used() map[string]bool {
	var b strings.Builder
	for _, p := range m.prefix {
		b.WriteString(p.sql() + "\n")
		if p.kind == kWrite {
			b.WriteString(p.target + "\n")
		}
	}
	b.WriteString(m.st.sql())
	return referenced(m.sch, b.String())
}
