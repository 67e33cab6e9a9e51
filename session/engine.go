package session

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/executor"
	"github.com/zproxy/zproxy/internal/memacct"
	"github.com/zproxy/zproxy/internal/metrics"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/internal/stmtstats"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/kv/kvsplit"
	"github.com/zproxy/zproxy/optimizer"
	"github.com/zproxy/zproxy/wire"
)

// Config configures an Engine.
type Config struct {
	Store   kv.Store
	Metrics *metrics.Metrics
	Logger  *slog.Logger
	// AllowFullScan is the default of zproxy.allow_full_scan.
	AllowFullScan bool
	// Clock, when set, gives each statement's timestamp (now(),
	// current_date ...) in place of the wall clock; tests pin it.
	Clock func() time.Time
	// TTLSweep is how often expired rows of tables with a TTL are deleted
	// from the store (they are invisible to queries either way). Zero
	// means DefaultTTLSweep on an exclusive store (Pebble) and never on a
	// shared one (DynamoDB removes them itself); negative disables it.
	TTLSweep time.Duration
	// AutoAnalyzeNap is the least time between two automatic analyses of
	// a table by this proxy (analyze.go); zero means
	// DefaultAutoAnalyzeNap, negative disables automatic analysis.
	AutoAnalyzeNap time.Duration
	// StatementsMax bounds the statements pg_stat_statements tracks
	// (pg_stat_statements.max; 0: stmtstats.DefaultMax).
	StatementsMax int
	// SessionMemoryLimit bounds what one session holds outside its
	// statements' operators (COPY's and transactions' pending writes,
	// prepared statements, cursors: internal/memacct), and
	// AllSessionsMemoryLimit what all of them hold together; <= 0: none.
	SessionMemoryLimit     int64
	AllSessionsMemoryLimit int64
	// ChargeLargeValues charges the element arrays of large values built
	// in memory (array_fill, array_agg, ARRAY(subquery), ...) to the
	// all-sessions pool while they live (sqltypes.SetValueMemory), so one
	// session's array cannot take the process's memory. The gate is the
	// process's, so only the process's one engine sets it (cmd/zproxy);
	// Close takes it off again.
	ChargeLargeValues bool
	// MemoryPressure, when set, is called with true when what all
	// sessions hold rises past MemoryPressureAt, and with false when it
	// falls below half of that (memacct.Pool.SetPressureHook).
	MemoryPressure   func(high bool)
	MemoryPressureAt int64
	// Settings are the server's values of the statement log's settings
	// (log_statement, log_min_duration_statement, auto_explain.*: see
	// stmtlog.go), by name, as postgresql.conf sets them: every session
	// starts with them and RESET returns to them. New checks each as SET
	// would.
	Settings map[string]string
	// Cluster, when set, is the other proxies sharing the store (package
	// cluster, wired by the binary): pg_stat_activity lists their
	// sessions too, and pg_cancel_backend and pg_terminate_backend reach
	// them.
	Cluster Cluster
	// Database names the store's first database (the one whose data keeps
	// the unprefixed layout) until ALTER DATABASE renames it; empty means
	// DefaultDatabase. A session with no database name opens it.
	Database string
	// AnyDatabase makes a database name the store does not have open the
	// first database under that name, as zproxy did when a store held one
	// database; PostgreSQL refuses such a connection (3D000), and so does
	// the engine without it.
	AnyDatabase bool
}

// DefaultDatabase is the first database's name when Config.Database is
// empty: PostgreSQL's maintenance database, which tools connect to.
const DefaultDatabase = "postgres"

// DefaultTTLSweep is the TTL sweeper's period on an exclusive store.
const DefaultTTLSweep = time.Minute

// Engine creates sessions over one store.
type Engine struct {
	// closeOnce makes Close idempotent; closeErr is its result.
	closeOnce sync.Once
	closeErr  error
	cfg       Config
	catalog   *catalog.Catalog
	// store is what the executor reads and writes: base, with the
	// partitions of temporary objects sent to temp (temp.go).
	store kv.Store
	temp  *tempStore
	// base is the database's view of cfg.Store: cfg.Store itself for the
	// first database, its kvprefix view for another (databases.go).
	base kv.Store
	// root is the engine of the first database, which wire talks to; dbID
	// is this engine's database; dbs are the other databases' engines,
	// opened at their first session, and clock the newest catalog version
	// any of them saw (catalog.Clock). root, dbs and clock are shared by
	// all of them, as are cat, stmts and mem.
	root   *Engine
	dbID   uint64
	dbs    *openDatabases
	clock  *catalog.Clock
	exec   *executor.Executor
	opts   optimizer.Options
	cat    *catalogState // sessions and advisory locks (catalog.go)
	notify notifyHub     // LISTEN/NOTIFY between this engine's sessions
	// stmts are the statement statistics and statsCache the advisor's
	// sampled table statistics (tuning.go).
	stmts      *stmtstats.Store
	statsCache statsCache

	stopBuilds context.CancelFunc
	buildCtx   context.Context // cancelled by Close: background work
	builds     sync.WaitGroup
	auto       *autoAnalyze
	// sweeper is the TTL sweeper, stopped with the builds.
	sweeper sync.WaitGroup
	// mem is the process-wide bound of the sessions' memory accounts.
	mem *memacct.Pool
}

// sweep deletes expired rows every period until ctx ends.
func (e *Engine) sweep(ctx context.Context, period time.Duration) {
	defer e.sweeper.Done()
	tick := time.NewTicker(period)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-tick.C:
			n, err := e.exec.SweepExpired(ctx, e.catalog, now)
			if err != nil && ctx.Err() == nil {
				e.cfg.Logger.Error("sweeping expired rows", "err", err)
			} else if n > 0 {
				e.cfg.Logger.Debug("swept expired rows", "rows", n)
			}
		}
	}
}

var _ wire.Engine = (*Engine)(nil)

// New opens the catalog in cfg.Store and returns an Engine.
func New(ctx context.Context, cfg Config) (*Engine, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	settings, err := serverSettings(cfg.Settings)
	if err != nil {
		return nil, err
	}
	cfg.Settings = settings
	if cfg.Database == "" {
		cfg.Database = DefaultDatabase
	}
	clock := &catalog.Clock{}
	cat, err := catalog.OpenIn(ctx, cfg.Store, catalog.CatalogPartition, clock)
	if err != nil {
		return nil, err
	}
	temp := &tempStore{}
	store := kvsplit.New(cfg.Store, temp, catalog.IsTempPartition)
	ex := executor.New(store)
	e := &Engine{cfg: cfg, catalog: cat, exec: ex, store: store, temp: temp, base: cfg.Store, opts: optimizer.DefaultOptions(cfg.Store.Capabilities()),
		cat: newCatalogState(cfg.Store.Capabilities().Exclusive, clusterLocks(cfg.Cluster)), auto: newAutoAnalyze(cfg.AutoAnalyzeNap),
		stmts: stmtstats.New(cfg.StatementsMax), mem: memacct.NewPool(cfg.AllSessionsMemoryLimit),
		dbID: catalog.FirstDatabaseID, dbs: &openDatabases{open: map[uint64]*Engine{}}, clock: clock}
	e.root = e
	if cfg.MemoryPressure != nil {
		e.mem.SetPressureHook(cfg.MemoryPressureAt, cfg.MemoryPressure)
	}
	if cfg.ChargeLargeValues {
		sqltypes.SetValueMemory(e.mem.Account(0))
	}
	cfg.Metrics.WatchStatements(e.stmts)
	if err := e.startBackground(ctx); err != nil {
		return nil, err
	}
	return e, nil
}

// startBackground starts the engine's background work: the index builds
// a restart interrupted, and the TTL sweeper.
func (e *Engine) startBackground(ctx context.Context) error {
	cfg, cat, ex := e.cfg, e.catalog, e.exec
	// Index builds a restart interrupted are finished in the background;
	// the indexes stay unused by queries until they are.
	// The builds to resume are those the schema holds now, at start: one
	// that a later statement begins is that statement's to finish.
	startSnap, err := cat.Snapshot(ctx)
	if err != nil {
		return err
	}
	bctx, cancel := context.WithCancel(context.Background())
	e.stopBuilds, e.buildCtx = cancel, bctx
	e.builds.Add(1)
	go func() {
		defer e.builds.Done()
		built, err := ex.ResumeBuilds(bctx, cat, startSnap)
		if err != nil && bctx.Err() == nil {
			cfg.Logger.Error("resuming index builds", "err", err)
		}
		for _, name := range built {
			cfg.Logger.Info("finished an index build interrupted by a restart", "index", name)
		}
	}()
	period := cfg.TTLSweep
	if period == 0 && cfg.Store.Capabilities().Exclusive {
		period = DefaultTTLSweep
	}
	if period > 0 {
		e.sweeper.Add(1)
		go e.sweep(bctx, period)
	}
	return nil
}

// WaitForBuilds waits until the builds resumed at start-up are done.
func (e *Engine) WaitForBuilds() { e.builds.Wait() }

// Catalog returns the engine's catalog.
func (e *Engine) Catalog() *catalog.Catalog { return e.catalog }

// SessionMemory is what the sessions' memory accounts hold now.
func (e *Engine) SessionMemory() int64 { return e.mem.Used() }

// Executor returns the engine's executor.
func (e *Engine) Executor() *executor.Executor { return e.exec }

// NewSession implements wire.Engine: the session opens the database the
// startup packet names (databases.go).
func (e *Engine) NewSession(ctx context.Context, p wire.SessionParams) (wire.Session, error) {
	db, d, err := e.root.connect(ctx, &p)
	if err != nil {
		return nil, err
	}
	return db.newSession(ctx, p, d)
}

// newSession starts a session in e's database, described by d (nil for
// the first database without a registry item).
func (e *Engine) newSession(ctx context.Context, p wire.SessionParams, d *catalog.Database) (*Session, error) {
	s := &Session{engine: e, params: p, vars: e.defaultVars(), txStatus: 'I',
		mem: e.mem.Account(e.cfg.SessionMemoryLimit)}
	if s.params.Notice == nil {
		s.params.Notice = func(*pgerr.Error) {}
	}
	s.initServerVars()
	s.applySessionDefaults(ctx, d)
	if err := s.applyStartup(ctx); err != nil {
		return nil, err
	}
	e.cat.register(s)
	s.initExt(ctx)
	return s, nil
}

// Close stops resumed index builds (they resume again at the next start)
// and releases the engine; the store is closed by its owner.
func (e *Engine) Close() error {
	e.closeOnce.Do(func() {
		e.stopBuilds()
		e.builds.Wait()
		e.auto.stop()
		e.sweeper.Wait()
		if e.root != e {
			e.closeErr = e.exec.Close() // the temporary tables are the root's
			return
		}
		e.closeErr = errors.Join(e.dbs.closeAll(), e.exec.Close(), e.temp.close()) // the spill store, the temporary tables
		if e.cfg.ChargeLargeValues {
			sqltypes.SetValueMemory(nil)
		}
	})
	return e.closeErr
}
