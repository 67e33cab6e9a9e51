package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/zproxy/zproxy/cluster"
	"github.com/zproxy/zproxy/console"
	"github.com/zproxy/zproxy/internal/metrics"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/kv/dynamodb"
	zpebble "github.com/zproxy/zproxy/kv/pebble"
	"github.com/zproxy/zproxy/session"
	"github.com/zproxy/zproxy/wire"
)

// serve runs zproxy until ctx is cancelled, then shuts down in reverse order
// of start-up: the listeners, the engine, the store.
func serve(ctx context.Context, cfg Config, logger *slog.Logger) (err error) {
	logger.Info("starting zproxy", cfg.LogAttrs()...)
	goLimit := tuneGC(cfg)
	logger.Info("Go collector", "gc_percent", cfg.GCPercent, "memory_limit", goLimit)
	if cfg.AllSessionsMemoryLimit == 0 && goLimit > 0 && goLimit < math.MaxInt64 {
		// What sessions hold cannot be collected: keep it to half of
		// what the collector aims to stay under.
		cfg.AllSessionsMemoryLimit = byteSize(goLimit / 2)
	}

	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m := metrics.New(reg)
	m.LimitStatements(cfg.MetricsStatements)

	store, err := openStore(ctx, cfg, m)
	if err != nil {
		return err
	}
	if ps, ok := store.(*zpebble.Store); ok {
		metrics.WatchRowCache(reg, ps.RowCacheStats)
	}
	defer func() {
		// Closing the store syncs it: it runs last, after every statement.
		if cerr := store.Close(); cerr != nil {
			err = errors.Join(err, fmt.Errorf("closing the store: %w", cerr))
		}
	}()

	// The SQL listener opens first: the proxies sharing a DynamoDB table
	// learn its address when this one joins their registry. Clients wait
	// in its backlog until Serve.
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return fmt.Errorf("--listen: %w", err)
	}
	defer ln.Close()
	var node *cluster.Node
	var engineCluster session.Cluster
	if cfg.Backend == backendDynamoDB {
		if node, err = joinCluster(ctx, cfg, store, ln, logger); err != nil {
			return err
		}
		defer func() {
			leaveCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if lerr := node.Registry().Leave(leaveCtx); lerr != nil {
				logger.Warn("leaving the proxy registry", "err", lerr)
			}
		}()
		engineCluster = sessionCluster{Node: node, locks: cluster.NewLocks(node.Registry())}
		shareCtx, stopSharing := context.WithCancel(ctx)
		defer stopSharing()
		shareCapacity(shareCtx, cfg, store, node, m, logger)
	}

	engine, err := newEngine(ctx, cfg, store, m, logger, engineCluster)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := engine.Close(); cerr != nil {
			err = errors.Join(err, fmt.Errorf("closing the SQL engine: %w", cerr))
		}
	}()
	if err := bootstrapUsers(ctx, cfg, engine, logger); err != nil {
		return err
	}

	tlsConfig, err := loadTLS(cfg)
	if err != nil {
		return err
	}
	srv, err := newWireServer(cfg, engine, m, logger, tlsConfig, node)
	if err != nil {
		return err
	}
	if node != nil {
		enc, ok := engine.(peerEngine)
		if !ok {
			return fmt.Errorf("the SQL engine %T cannot answer other proxies", engine)
		}
		node.SetHandler(peerHandler{srv: srv, eng: enc})
	}
	var mln net.Listener
	if cfg.MetricsListen != "" {
		if mln, err = net.Listen("tcp", cfg.MetricsListen); err != nil {
			return fmt.Errorf("--metrics-listen: %w", err)
		}
	}

	serveErr := make(chan error, 2)
	go func() { serveErr <- srv.Serve(ln) }()
	logger.Info("listening for PostgreSQL clients", "addr", ln.Addr().String())
	var metricsSrv *http.Server
	var cons *console.Console
	if mln != nil {
		mux := http.NewServeMux()
		mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}))
		if cfg.Pprof {
			registerPprof(mux)
			logger.Info("serving Go profiles", "addr", mln.Addr().String(), "path", "/debug/pprof/")
		}
		if cfg.Console {
			// The console is a SQL client of this proxy: it logs in to
			// the listener just opened.
			cons = console.New(console.Config{SQLAddr: ln.Addr().String(), Database: cfg.Database, RequireTLS: tlsConfig != nil, Logger: logger})
			mux.Handle("/console/", cons)
			mux.Handle("/console", cons)
			if tlsConfig != nil {
				mln = newTLSSniffer(mln, tlsConfig)
			}
			logger.Info("serving the console", "addr", mln.Addr().String(), "path", "/console/", "tls", tlsConfig != nil)
		}
		metricsSrv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		go func() {
			if err := metricsSrv.Serve(mln); !errors.Is(err, http.ErrServerClosed) {
				serveErr <- fmt.Errorf("metrics server: %w", err)
			}
		}()
		logger.Info("serving metrics", "addr", mln.Addr().String(), "path", "/metrics")
	}

	select {
	case <-ctx.Done():
		logger.Info("shutting down", "timeout", cfg.ShutdownTimeout)
	case err = <-serveErr:
		if err == nil {
			err = errors.New("server stopped unexpectedly")
		}
		logger.Error("server failed; shutting down", "err", err)
	}

	shutdownCtx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	if cons != nil {
		cons.Close() // its SQL connections would hold up the wire server's shutdown
	}
	if serr := srv.Shutdown(shutdownCtx); serr != nil {
		logger.Warn("connections still busy at the shutdown timeout were closed", "err", serr)
	}
	if metricsSrv != nil {
		_ = metricsSrv.Shutdown(shutdownCtx)
	}
	logger.Info("stopped accepting connections; closing the store")
	return err
}

// openStore opens the configured backend.
// Metrics observes the store's requests.
var _ kv.Observer = (*metrics.Metrics)(nil)

func openStore(ctx context.Context, cfg Config, obs kv.Observer) (kv.Store, error) {
	switch cfg.Backend {
	case backendPebble:
		rowCache := int64(cfg.RowCacheSize)
		if rowCache == 0 {
			rowCache = -1 // none
		}
		s, err := zpebble.Open(cfg.DataDir, zpebble.Options{Observer: obs, CacheSize: int64(cfg.CacheSize), RowCacheSize: rowCache})
		if err != nil {
			return nil, fmt.Errorf("opening the embedded store in %s: %w", cfg.DataDir, err)
		}
		return s, nil
	case backendDynamoDB:
		s, err := dynamodb.Open(ctx, dynamodb.Options{
			Table:    cfg.DynamoDBTable,
			Region:   cfg.DynamoDBRegion,
			Endpoint: cfg.DynamoDBEndpoint,
			Observer: obs,
		})
		if err != nil {
			return nil, fmt.Errorf("opening DynamoDB table %s: %w", cfg.DynamoDBTable, err)
		}
		return s, nil
	}
	return nil, fmt.Errorf("unknown backend %q", cfg.Backend)
}

// bootstrapUsers creates the roles of --users that the store lacks.
func bootstrapUsers(ctx context.Context, cfg Config, engine sqlEngine, logger *slog.Logger) error {
	users, err := cfg.Credentials()
	if err != nil || len(users) == 0 {
		return err
	}
	created, err := engine.BootstrapUsers(ctx, users)
	if err != nil {
		return fmt.Errorf("--users: storing the roles: %w", err)
	}
	logger.Info("roles of --users", "created", strings.Join(created, ","), "already_stored", len(users)-len(created))
	return nil
}

// sqlEngine is what serve needs of the SQL layer.
type sqlEngine interface {
	wire.Engine
	BootstrapUsers(ctx context.Context, users map[string]string) ([]string, error)
	Close() error
}

// newEngine builds the SQL session engine over the store.
func newEngine(ctx context.Context, cfg Config, store kv.Store, m *metrics.Metrics, logger *slog.Logger, peers session.Cluster) (sqlEngine, error) {
	eng, err := session.New(ctx, session.Config{
		Store:         store,
		Cluster:       peers,
		Metrics:       m,
		Logger:        logger,
		AllowFullScan: cfg.AllowFullScan,
		Database:      cfg.Database,
		AnyDatabase:   cfg.AnyDatabase,
		StatementsMax: cfg.StatementsMax,

		SessionMemoryLimit:     int64(cfg.SessionMemoryLimit),
		AllSessionsMemoryLimit: int64(cfg.AllSessionsMemoryLimit),
		ChargeLargeValues:      true,
		MemoryPressure:         gcUnderPressure(cfg.GCPercent),
		MemoryPressureAt:       pressureAt,
		Settings:               cfg.ServerSettings(),
	})
	if err != nil {
		return nil, fmt.Errorf("starting the SQL engine: %w", err)
	}
	return eng, nil
}

// loadTLS reads --tls-cert and --tls-key (nil without them): the SQL
// listener's TLS, and the console's.
func loadTLS(cfg Config) (*tls.Config, error) {
	if cfg.TLSCert == "" {
		return nil, nil
	}
	cert, err := tls.LoadX509KeyPair(cfg.TLSCert, cfg.TLSKey)
	if err != nil {
		return nil, fmt.Errorf("--tls-cert/--tls-key: %w", err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
}

// newWireServer builds the protocol server.
func newWireServer(cfg Config, eng wire.Engine, m *metrics.Metrics, logger *slog.Logger, tlsConfig *tls.Config, node *cluster.Node) (*wire.Server, error) {
	auth, err := cfg.AuthMethod()
	if err != nil {
		return nil, err
	}
	mode := wire.AuthTrust
	if auth == authPassword {
		mode = wire.AuthSCRAM
	}
	var hba *wire.HBA
	if auth == authHBA {
		if hba, err = loadHBA(cfg.HBAFile); err != nil {
			return nil, err
		}
	}
	var peers wire.Peers
	var pidPrefix uint32
	var pidBits int
	if node != nil {
		peers = node
		pidPrefix, pidBits = clusterPIDs(node)
	}
	return wire.NewServer(wire.Config{
		Peers:          peers,
		PIDPrefix:      pidPrefix,
		PIDBits:        pidBits,
		Auth:           mode,
		HBA:            hba,
		TLS:            tlsConfig,
		TLSRequired:    cfg.TLSRequired,
		MaxMessageSize: int(cfg.MaxMessageSize),
		MaxConnections: cfg.MaxConnections,
		Metrics:        m,

		SuperuserReservedConnections: cfg.SuperuserReservedConnections,
		AuthTimeout:                  time.Duration(cfg.AuthenticationTimeout),
		NotifyQueueSize:              int64(cfg.NotifyQueueSize),
		Logger:                       logger,
	}, eng), nil
}

// loadHBA reads --hba-file.
func loadHBA(path string) (*wire.HBA, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--hba-file: %w", err)
	}
	defer f.Close()
	hba, err := wire.ParseHBA(f)
	if err != nil {
		return nil, fmt.Errorf("--hba-file %s: %w", path, err)
	}
	return hba, nil
}
