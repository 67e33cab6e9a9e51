package session

import (
	"context"
	"log/slog"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/executor"
	"github.com/zproxy/zproxy/internal/metrics"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/kv"
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
}

// Engine creates sessions over one store.
type Engine struct {
	cfg     Config
	catalog *catalog.Catalog
	exec    *executor.Executor
	opts    optimizer.Options
}

var _ wire.Engine = (*Engine)(nil)

// New opens the catalog in cfg.Store and returns an Engine.
func New(ctx context.Context, cfg Config) (*Engine, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	cat, err := catalog.Open(ctx, cfg.Store)
	if err != nil {
		return nil, err
	}
	ex := executor.New(cfg.Store)
	return &Engine{cfg: cfg, catalog: cat, exec: ex, opts: optimizer.DefaultOptions(cfg.Store.Capabilities())}, nil
}

// Catalog returns the engine's catalog.
func (e *Engine) Catalog() *catalog.Catalog { return e.catalog }

// Executor returns the engine's executor.
func (e *Engine) Executor() *executor.Executor { return e.exec }

// NewSession implements wire.Engine.
func (e *Engine) NewSession(_ context.Context, p wire.SessionParams) (wire.Session, error) {
	s := &Session{engine: e, params: p, vars: defaultVars(e.cfg.AllowFullScan), txStatus: 'I'}
	for k, v := range p.Startup {
		if name, ok := canonicalVar(k); ok {
			s.vars[name] = v
		}
	}
	if s.params.Notice == nil {
		s.params.Notice = func(*pgerr.Error) {}
	}
	return s, nil
}

// Close releases the engine; the store is closed by its owner.
func (e *Engine) Close() error { return nil }
