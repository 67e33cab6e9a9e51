package session

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/wire"
)

// runAnalyze runs ANALYZE (or VACUUM ANALYZE): the tables the user owns
// are analyzed, the others skipped with PostgreSQL's warning.
func (st *statement) runAnalyze(ctx context.Context, x *ir.Analyze, _ *runEnv) (wire.Result, error) {
	s := st.sess
	e := s.engine
	tag := "ANALYZE"
	if x.Vacuum {
		tag = "VACUUM"
		if s.txStatus != 'I' {
			return nil, s.notInBlock("VACUUM")
		}
	}
	for _, w := range x.Warnings {
		s.notice(w)
	}
	snap, err := s.snapshot(ctx)
	if err != nil {
		return nil, storeErr(err)
	}
	super := s.isSuperuser(snap)
	var tables []*catalog.Table
	for _, t := range x.Tables {
		if !super && t.Owner != s.currentUser() {
			s.notice(&pgerr.Error{Code: pgerr.Warning, Severity: "WARNING",
				Message: fmt.Sprintf("skipping %q --- only table or database owner can %s it", t.Name, map[bool]string{true: "vacuum", false: "analyze"}[x.Vacuum])})
			continue
		}
		tables = append(tables, t)
	}
	if x.Vacuum {
		if err := st.vacuum(ctx, tables, x.Verbose); err != nil {
			return nil, err
		}
	}
	if !x.Analyze {
		return tagResult(tag), nil
	}
	for _, t := range tables {
		if x.Verbose {
			s.notice(&pgerr.Error{Code: pgerr.SuccessfulCompletion, Severity: "INFO", Message: fmt.Sprintf("analyzing \"public.%s\"", t.Name)})
		}
		cat := e.catalog
		if t.Temp {
			cat = s.temp.cat
		}
		stats, err := e.exec.Analyze(ctx, cat, []*catalog.Table{t}, false)
		if err != nil {
			return nil, storeErr(err)
		}
		e.analyzed(t.ID)
		if x.Verbose && len(stats) == 1 {
			s.notice(&pgerr.Error{Code: pgerr.SuccessfulCompletion, Severity: "INFO",
				Message: fmt.Sprintf("%q: scanned %.0f rows; %d rows in sample, %.0f estimated total rows", t.Name, stats[0].Rows, stats[0].Sampled, stats[0].Rows)})
		}
	}
	return tagResult(tag), nil
}

// vacuum packs the posting lists of the tables' gin indexes (the
// postings and removals writes added since they were last packed, folded
// into blocks: PostgreSQL's VACUUM of a GIN index's pending list,
// executor/ginpack.go) and gives back the space of their deleted rows and
// index entries: every shard of the table and of each of its indexes is
// compacted, on a store that keeps deleted items until it compacts them
// (kv.Compacter: Pebble's tombstones). On DynamoDB a transactional delete
// leaves a tombstone item that expires by itself (kv/dynamodb's
// TombstoneTTL), and the packing purges its own (kv.TxnOptions.PurgeDeletes):
// there is nothing to compact.
func (st *statement) vacuum(ctx context.Context, tables []*catalog.Table, verbose bool) error {
	c, ok := st.sess.engine.store.(kv.Compacter)
	for _, t := range tables {
		if verbose {
			st.sess.notice(&pgerr.Error{Code: pgerr.SuccessfulCompletion, Severity: "INFO", Message: fmt.Sprintf("vacuuming \"public.%s\"", t.Name)})
		}
		err := st.sess.engine.packInverted(ctx, t, func(ix *catalog.Index, folded int64) {
			if verbose {
				st.sess.notice(&pgerr.Error{Code: pgerr.SuccessfulCompletion, Severity: "INFO",
					Message: fmt.Sprintf("index %q: %d pending entries folded into posting blocks", ix.Name, folded)})
			}
		})
		if err != nil {
			return storeErr(err)
		}
		if !ok {
			continue
		}
		var parts [][]byte
		for shard := 0; shard < max(t.Shards, 1); shard++ {
			parts = append(parts, t.Partition(shard))
		}
		for _, ix := range t.Indexes {
			for shard := 0; shard < max(ix.Shards, 1); shard++ {
				parts = append(parts, catalog.IndexPartition(ix.ID, shard))
			}
		}
		if err := c.CompactPartitions(ctx, parts); err != nil {
			return storeErr(err)
		}
	}
	return nil
}

// Automatic analysis, PostgreSQL's autovacuum_analyze_* idea counted per
// proxy: a table is analyzed again in the background once this proxy has
// changed more than AutoAnalyzeThreshold + AutoAnalyzeScaleFactor × its
// analyzed row count rows since it was last analyzed (by any proxy's
// statistics as loaded here), at most once per nap (Config.AutoAnalyzeNap)
// unless the changes outnumber the analyzed rows while those are fewer than
// a sample (a small table being loaded is analyzed as it doubles, so its
// first statistics are not off by more than twice; past that, each
// analysis reads the whole table, which the nap keeps rare), and after
// every index build. An analysis not forced by a build also packs the
// table's gin indexes' lists, as autovacuum cleans a GIN index's pending
// list. Changes are counted when the statement runs, so
// a rolled-back transaction's writes count too: an analysis comes a little
// early, never late.
const (
	AutoAnalyzeThreshold   = 50
	AutoAnalyzeScaleFactor = 0.1
	DefaultAutoAnalyzeNap  = time.Minute
)

// autoAnalyze is an engine's bookkeeping of changes since the last
// analysis, per table ID.
type autoAnalyze struct {
	mu       sync.Mutex
	changed  map[uint64]int64
	running  map[uint64]bool
	last     map[uint64]time.Time
	disabled bool
	closed   bool // the engine is closing: start nothing more
	nap      time.Duration
	wg       sync.WaitGroup
}

func newAutoAnalyze(nap time.Duration) *autoAnalyze {
	a := &autoAnalyze{changed: map[uint64]int64{}, running: map[uint64]bool{}, last: map[uint64]time.Time{}, nap: nap}
	switch {
	case nap < 0:
		a.disabled = true
	case nap == 0:
		a.nap = DefaultAutoAnalyzeNap
	}
	return a
}

// analyzed resets the count of a table just analyzed.
func (e *Engine) analyzed(tableID uint64) {
	a := e.auto
	a.mu.Lock()
	defer a.mu.Unlock()
	a.changed[tableID] = 0
	a.last[tableID] = time.Now()
}

// noteWrites counts n rows changed in t and starts a background analysis
// when they pass the threshold; force (an index was just built) starts one
// whatever the count.
func (e *Engine) noteWrites(t *catalog.Table, n int64, force bool) {
	a := e.auto
	if a.disabled || t == nil || t.Virtual != nil || t.Temp || t.InsteadOf != nil {
		// As PostgreSQL's autovacuum, never a session's temporary table
		// (nor a view written through its INSTEAD OF triggers):
		// only that session can read it.
		return
	}
	rows := 0.0
	if snap, err := e.catalog.Snapshot(e.buildCtx); err == nil {
		if ts := snap.Stats(t.ID); ts != nil {
			rows = ts.Rows
		}
	}
	a.mu.Lock()
	a.changed[t.ID] += n
	due := force
	if !due && !a.running[t.ID] {
		last, analyzedHere := a.last[t.ID]
		due = float64(a.changed[t.ID]) > AutoAnalyzeThreshold+AutoAnalyzeScaleFactor*rows &&
			(!analyzedHere || time.Since(last) >= a.nap || float64(a.changed[t.ID]) > rows && rows < catalog.SampleRows)
	}
	if !due || a.running[t.ID] || a.closed {
		a.mu.Unlock()
		return
	}
	a.running[t.ID] = true
	a.changed[t.ID] = 0
	a.wg.Add(1)
	a.mu.Unlock()
	go func() {
		defer a.wg.Done()
		err := e.autoAnalyzeTable(t.Name, !force)
		a.mu.Lock()
		a.running[t.ID] = false
		a.last[t.ID] = time.Now()
		a.mu.Unlock()
		if err != nil && e.buildCtx.Err() == nil {
			e.cfg.Logger.Warn("automatic analysis failed", "table", t.Name, "err", err)
		}
	}()
}

// autoAnalyzeTable analyzes the table of that name as the schema has it
// now (it may have changed or gone since the writes were counted), and
// with pack packs its gin indexes' lists, as PostgreSQL's autovacuum
// cleans a GIN index's pending list (an index just built is packed
// already). Only on a store that keeps old versions (Pebble): on one that
// does not (DynamoDB), a transaction that read a list the packing then
// rewrites fails with 40001 (kv.Capabilities.KeepsVersions), and a
// background task must not fail a client's transaction. There, VACUUM,
// gin_clean_pending_list and index builds pack, as a client asks.
func (e *Engine) autoAnalyzeTable(name string, pack bool) error {
	pack = pack && e.exec.Caps.KeepsVersions
	ctx := e.buildCtx
	snap, err := e.catalog.Snapshot(ctx)
	if err != nil {
		return err
	}
	t, err := snap.Table(name)
	if err != nil {
		return nil // dropped meanwhile
	}
	if _, err = e.exec.Analyze(ctx, e.catalog, []*catalog.Table{t}, true); err != nil || !pack {
		return err
	}
	return e.packInverted(ctx, t, nil)
}

// packInverted packs the posting lists of t's gin indexes (executor/
// ginpack.go), calling done, when not nil, with each index and how many
// entries it folded.
func (e *Engine) packInverted(ctx context.Context, t *catalog.Table, done func(ix *catalog.Index, folded int64)) error {
	for _, ix := range t.Indexes {
		if !ix.Inverted() || ix.State != catalog.StatePublic {
			continue
		}
		folded, err := e.exec.PackInverted(ctx, t, ix)
		if err != nil {
			return err
		}
		if done != nil {
			done(ix, folded)
		}
	}
	return nil
}

// WaitForAutoAnalyze waits until the automatic analyses started so far
// are done.
func (e *Engine) WaitForAutoAnalyze() { e.auto.wg.Wait() }

// stop starts no more analyses and waits for the running ones (which the
// engine's context has cancelled).
func (a *autoAnalyze) stop() {
	a.mu.Lock()
	a.closed = true
	a.mu.Unlock()
	a.wg.Wait()
}

// writeTarget is the table a write statement changes.
func writeTarget(b ir.Statement) *catalog.Table {
	switch x := b.(type) {
	case *ir.Insert:
		return x.Table
	case *ir.Update:
		return x.Table
	case *ir.Delete:
		return x.Table
	case *ir.Merge:
		return x.Table
	}
	return nil
}

// indexBuilt analyzes a table in the background after an index on it was
// built, as the new index may change which plans its statistics favour.
func (e *Engine) indexBuilt(ctx context.Context, table string) {
	snap, err := e.catalog.Snapshot(ctx)
	if err != nil {
		return
	}
	if t, err := snap.Table(table); err == nil {
		e.noteWrites(t, 0, true)
	}
}

// zboundsCache is the optimizer's reader of Z-order data bounds for one
// statement (optimizer.Options.ZBounds; made with the statement's
// other pieces, stmtRun): each index's bounds are read from the store
// once, when the statement first plans a box on it, so rows committed
// before the statement began are inside them. A failed read clips
// nothing. Its map is made when the statement first plans a box (most
// statements never do).
type zboundsCache struct {
	e    *Engine
	ctx  context.Context
	mu   sync.Mutex
	seen map[uint64]*catalog.ZBounds
}

// ZBounds implements optimizer.ZBoundsReader.
func (r *zboundsCache) ZBounds(ix *catalog.Index) *catalog.ZBounds {
	if !ix.Bounds {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if b, ok := r.seen[ix.ID]; ok {
		return b
	}
	b, err := catalog.ReadZBounds(r.ctx, r.e.store, ix)
	if err != nil {
		b = nil
	}
	if r.seen == nil {
		r.seen = map[uint64]*catalog.ZBounds{}
	}
	r.seen[ix.ID] = b
	return b
}
