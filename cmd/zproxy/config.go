package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/zproxy/zproxy/internal/metrics"
	"github.com/zproxy/zproxy/internal/stmtstats"
	"github.com/zproxy/zproxy/wire"
)

// envPrefix starts the environment variable of every flag: --data-dir is
// ZPROXY_DATA_DIR.
const envPrefix = "ZPROXY_"

// Defaults. The Postgres port is 15432 rather than 5432 so that zproxy and a
// local PostgreSQL can run side by side.
const (
	defaultListen          = "127.0.0.1:15432"
	defaultMetricsListen   = "127.0.0.1:19090"
	defaultDataDir         = "./zproxy-data"
	defaultDynamoDBTable   = "zproxy"
	defaultMaxMessageSize  = wire.DefaultMaxMessageSize
	defaultMaxConnections  = wire.DefaultMaxConnections
	defaultReserved        = wire.DefaultSuperuserReservedConnections
	defaultAuthTimeout     = wire.DefaultAuthTimeout
	defaultNotifyQueueSize = wire.DefaultNotifyQueueSize
	defaultShutdownTimeout = 30 * time.Second
	// defaultCacheSize holds the decompressed blocks of a few million rows
	// with their indexes: below the working set, every scan pays a pread
	// and a decompression per block (the box classes of bench/sidebyside
	// spent a third of their time there at Pebble's 64 MiB).
	defaultCacheSize = 512 << 20
	// defaultRowCacheSize holds the values of about a million small rows
	// (or a few hundred thousand documents) read by key: a cached row
	// costs a hash lookup instead of a seek through the store's levels,
	// half of a gin query's CPU (bench/README.md).
	defaultRowCacheSize = 128 << 20
	// defaultGCPercent lets the heap grow to five times what the last
	// collection left before the next: zproxy's live heap is small (the
	// block cache is off the Go heap), and at Go's default of 100 the
	// collector took 10-15% of a query's CPU (bench/README.md).
	defaultGCPercent = 400
	// defaultSessionMemoryLimit lets one session COPY some hundreds of
	// megabytes in one transaction (about its input's size) or hold
	// thousands of prepared statements and cursors.
	defaultSessionMemoryLimit = 1 << 30
)

// Backends.
const (
	backendPebble   = "pebble"
	backendDynamoDB = "dynamodb"
)

// Authentication methods. password is SCRAM-SHA-256, PostgreSQL's
// password method since 14; the two names are the same method.
const (
	authTrust    = "trust"
	authPassword = "password"
	authSCRAM    = "scram-sha-256"
	authHBA      = "hba" // --hba-file's rules
)

// Config is zproxy's resolved configuration.
type Config struct {
	Listen           string
	MetricsListen    string
	DataDir          string
	Backend          string
	DynamoDBTable    string
	DynamoDBRegion   string
	DynamoDBEndpoint string
	// AdvertiseAddr is where the other proxies of a shared store reach
	// this one's SQL listener (empty: the listen address, with the host
	// name for an unspecified host).
	AdvertiseAddr string
	// DynamoDBReadCapacity and DynamoDBWriteCapacity are the table's
	// capacity budget, units a second for all proxies together, divided
	// among the live ones (0: the table's provisioned capacity, none on an
	// on-demand table).
	DynamoDBReadCapacity  float64
	DynamoDBWriteCapacity float64
	// RegistryTTL is how long a proxy's registry entry lives without a
	// heartbeat (cluster.DefaultTTL if 0).
	RegistryTTL time.Duration
	// Users is the raw user list, "name:password,name:password"; Credentials
	// parses it.
	Users string
	Auth  string
	// HBAFile is a pg_hba.conf-style file choosing the method per
	// connection (wire.ParseHBA); it replaces --auth.
	HBAFile       string
	TLSCert       string
	TLSKey        string
	TLSRequired   bool
	ConfigFile    string
	LogLevel      string
	AllowFullScan bool
	// Database names the store's first database (session.Config.Database);
	// AnyDatabase opens it for any database name the store lacks.
	Database    string
	AnyDatabase bool
	// Pprof serves net/http/pprof's /debug/pprof/ on the metrics listener.
	Pprof bool
	// Console serves the browser console at /console/ on the metrics
	// listener (package console).
	Console bool
	// CacheSize is the embedded store's block cache.
	CacheSize byteSize
	// RowCacheSize is the embedded store's cache of values read by key
	// (0: none).
	RowCacheSize byteSize
	// GCPercent is the Go collector's target (runtime/debug.SetGCPercent);
	// -1 turns collection off. MemoryLimit is its soft memory limit (0:
	// GOMEMLIMIT, else half the machine's memory; see tuneGC).
	GCPercent   int
	MemoryLimit byteSize
	// SessionMemoryLimit and AllSessionsMemoryLimit are hard limits of
	// what sessions hold outside their statements' operators (53200 past
	// them; internal/memacct). A zero AllSessionsMemoryLimit is half the
	// Go memory limit in force (tuneGC).
	SessionMemoryLimit     byteSize
	AllSessionsMemoryLimit byteSize
	MaxMessageSize         byteSize
	MaxConnections         int
	// SuperuserReservedConnections, AuthenticationTimeout and
	// NotifyQueueSize are PostgreSQL's superuser_reserved_connections,
	// authentication_timeout and NOTIFY queue (wire.Config).
	SuperuserReservedConnections int
	AuthenticationTimeout        seconds
	NotifyQueueSize              byteSize
	ShutdownTimeout              time.Duration
	// StatementsMax bounds pg_stat_statements' entries.
	StatementsMax int
	// MetricsStatements is how many statements have zproxy_statement_*
	// series of their own; the rest share one "other" series.
	MetricsStatements int
	// The statement log's server settings (statementLogFlags), "" when
	// not given: PostgreSQL's log_statement, log_duration,
	// log_min_duration_statement, auto_explain.log_min_duration and
	// auto_explain.log_analyze as postgresql.conf sets them.
	LogStatement, LogDuration, LogMinDurationStatement string
	AutoExplainLogMinDuration, AutoExplainLogAnalyze   string
}

// statementLogFlags are the statement log's settings: each flag sets the
// PostgreSQL setting it is named after for every session (a superuser
// may still SET it in a session), and the engine checks its value.
func (c *Config) statementLogFlags() []struct {
	flag, setting, usage string
	value                *string
} {
	return []struct {
		flag, setting, usage string
		value                *string
	}{
		{"log-statement", "log_statement", "which `statements` to log as they arrive: none, ddl, mod or all (PostgreSQL's log_statement)", &c.LogStatement},
		{"log-duration", "log_duration", "log every completed statement's duration: `on|off` (PostgreSQL's log_duration)", &c.LogDuration},
		{"log-min-duration-statement", "log_min_duration_statement", "log statements that ran at least this long, with their text, in `ms` (or with a unit: 250ms, 2s; -1: none, 0: all; PostgreSQL's log_min_duration_statement)", &c.LogMinDurationStatement},
		{"auto-explain-log-min-duration", "auto_explain.log_min_duration", "log the plans of queries and writes that ran at least this long, in `ms` (-1: none, 0: all; auto_explain.log_min_duration)", &c.AutoExplainLogMinDuration},
		{"auto-explain-log-analyze", "auto_explain.log_analyze", "log the plans --auto-explain-log-min-duration logs with EXPLAIN ANALYZE's row counts and times: `on|off` (auto_explain.log_analyze)", &c.AutoExplainLogAnalyze},
	}
}

// ServerSettings are the statement log's settings the configuration
// gives, by PostgreSQL name (session.Config.Settings).
func (c *Config) ServerSettings() map[string]string {
	out := map[string]string{}
	for _, f := range c.statementLogFlags() {
		if *f.value != "" {
			out[f.setting] = *f.value
		}
	}
	return out
}

func defaultConfig() Config {
	return Config{
		Listen:          defaultListen,
		MetricsListen:   defaultMetricsListen,
		DataDir:         defaultDataDir,
		Backend:         backendPebble,
		DynamoDBTable:   defaultDynamoDBTable,
		LogLevel:        "info",
		AllowFullScan:   true,
		Database:        "postgres",
		MaxMessageSize:  defaultMaxMessageSize,
		CacheSize:       defaultCacheSize,
		RowCacheSize:    defaultRowCacheSize,
		GCPercent:       defaultGCPercent,
		MaxConnections:  defaultMaxConnections,
		ShutdownTimeout: defaultShutdownTimeout,

		SuperuserReservedConnections: defaultReserved,
		AuthenticationTimeout:        seconds(defaultAuthTimeout),
		NotifyQueueSize:              defaultNotifyQueueSize,
		StatementsMax:                stmtstats.DefaultMax,
		MetricsStatements:            metrics.TopStatements,
		SessionMemoryLimit:           defaultSessionMemoryLimit,
	}
}

// newFlagSet binds every setting of cfg to a flag. It is the single list of
// settings: the environment and the config file are looked up by these names.
func newFlagSet(cfg *Config) *flag.FlagSet {
	fs := flag.NewFlagSet("zproxy", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported by the caller, usage by printUsage
	fs.StringVar(&cfg.Listen, "listen", cfg.Listen,
		"`address` to accept PostgreSQL clients on (15432 so as not to clash with a local PostgreSQL on 5432)")
	fs.StringVar(&cfg.MetricsListen, "metrics-listen", cfg.MetricsListen,
		"`address` serving Prometheus metrics at /metrics (empty: no metrics endpoint)")
	fs.StringVar(&cfg.DataDir, "data-dir", cfg.DataDir,
		"`directory` of the embedded store (backend pebble); created if missing")
	fs.StringVar(&cfg.Backend, "backend", cfg.Backend,
		"backing `store`: pebble (embedded, in --data-dir) or dynamodb")
	fs.StringVar(&cfg.DynamoDBTable, "dynamodb-table", cfg.DynamoDBTable,
		"DynamoDB `table` holding all of zproxy's data; created if missing")
	fs.StringVar(&cfg.DynamoDBRegion, "dynamodb-region", cfg.DynamoDBRegion,
		"AWS `region` (empty: the SDK's default chain, e.g. AWS_REGION)")
	fs.StringVar(&cfg.DynamoDBEndpoint, "dynamodb-endpoint", cfg.DynamoDBEndpoint,
		"DynamoDB endpoint `URL`, e.g. http://127.0.0.1:8000 for DynamoDB Local (empty: AWS)")
	fs.StringVar(&cfg.AdvertiseAddr, "advertise-addr", cfg.AdvertiseAddr,
		"`host:port` at which the other proxies of the DynamoDB table reach this proxy's SQL listener, for forwarded cancels and cluster-wide views (empty: --listen's address, the host name for an unspecified host)")
	fs.Float64Var(&cfg.DynamoDBReadCapacity, "dynamodb-read-capacity", cfg.DynamoDBReadCapacity,
		"read capacity `units` a second that all proxies of the DynamoDB table may consume together, divided among the live ones; requests beyond a proxy's share queue (0: the table's provisioned read capacity, none on an on-demand table)")
	fs.Float64Var(&cfg.DynamoDBWriteCapacity, "dynamodb-write-capacity", cfg.DynamoDBWriteCapacity,
		"write capacity `units` a second, as --dynamodb-read-capacity")
	fs.DurationVar(&cfg.RegistryTTL, "registry-ttl", cfg.RegistryTTL,
		"how long a proxy of a shared DynamoDB table stays in the proxy registry without a heartbeat (it renews every third of it; 0: 15s)")
	fs.StringVar(&cfg.Users, "users", cfg.Users,
		"comma-separated `user:password` list: superuser roles created at start-up, if missing, with a SCRAM verifier of the password")
	fs.StringVar(&cfg.Auth, "auth", cfg.Auth,
		"authentication `method`: password (SCRAM-SHA-256; also spelled scram-sha-256) or trust (empty: password when --users is set, trust when --listen is a loopback address, else refuse to start)")
	fs.StringVar(&cfg.HBAFile, "hba-file", cfg.HBAFile,
		"`file` of host-based authentication rules in pg_hba.conf's syntax (local, host, hostssl, hostnossl; database and user lists, +group; CIDR addresses; trust, reject, scram-sha-256, md5 (as scram-sha-256), password): the first rule matching a connection chooses its method, none refuses it; replaces --auth")
	fs.StringVar(&cfg.TLSCert, "tls-cert", cfg.TLSCert,
		"PEM `file` of the server certificate (chain) offered to clients that ask for TLS (with --tls-key)")
	fs.StringVar(&cfg.TLSKey, "tls-key", cfg.TLSKey,
		"PEM `file` of the certificate's private key")
	fs.BoolVar(&cfg.TLSRequired, "tls-required", cfg.TLSRequired,
		"refuse unencrypted connections (28000) except from loopback addresses; needs --tls-cert")
	fs.StringVar(&cfg.ConfigFile, "config", cfg.ConfigFile,
		"configuration `file`: a JSON object or \"key = value\" lines, keys being flag names")
	fs.StringVar(&cfg.LogLevel, "log-level", cfg.LogLevel,
		"log `level`: debug, info, warn or error (logs go to stderr)")
	fs.BoolVar(&cfg.AllowFullScan, "allow-full-scan", cfg.AllowFullScan,
		"allow queries no key or index can serve to read the whole table (false: reject them; only a superuser may SET zproxy.allow_full_scan = on then)")
	fs.StringVar(&cfg.Database, "database", cfg.Database,
		"`name` of the store's first database (the one a store written before zproxy had several databases holds) until ALTER DATABASE renames it; a connection that names no database opens it")
	fs.BoolVar(&cfg.AnyDatabase, "any-database", cfg.AnyDatabase,
		"open the first database for a connection naming a database the store does not have, under the name asked for (zproxy's behaviour when a store held one database); without it such a connection fails with 3D000, as in PostgreSQL")
	fs.BoolVar(&cfg.Pprof, "pprof", cfg.Pprof,
		"serve Go profiles at /debug/pprof/ on --metrics-listen (CPU, heap, goroutines, mutex and block profiles); off by default because a profile exposes internals")
	fs.BoolVar(&cfg.Console, "console", cfg.Console,
		"serve the browser console at /console/ on --metrics-listen (statements with their plans, sessions, index advice, tables and indexes, a picture of a Z-order query); it logs in with a SQL role and password and runs SQL as that role; over TLS (same port) with --tls-cert, and a --metrics-listen other than loopback needs --tls-cert")
	fs.Var(&cfg.CacheSize, "cache-size",
		"block cache of the embedded store (backend pebble), in `bytes` (suffixes KiB, MiB, GiB); memory is taken as blocks are read")
	fs.Var(&cfg.RowCacheSize, "row-cache-size",
		"cache of the rows the embedded store (backend pebble) reads by key, in `bytes` (suffixes KiB, MiB, GiB; 0: none): a cached row is a hash lookup rather than a seek, and every commit drops the keys it writes first, so readers see exactly their snapshots")
	fs.IntVar(&cfg.GCPercent, "gc-percent", cfg.GCPercent,
		"Go garbage collector target, a `percent`: a collection runs once the heap has grown this much since the last (Go's GOGC, which it replaces); higher spends less CPU collecting for a larger heap, -1 never collects (cap the heap with GOMEMLIMIT)")
	fs.Var(&cfg.SessionMemoryLimit, "session-memory-limit",
		"most memory one session may hold outside its statements' operators, in `bytes` (suffixes KiB, MiB, GiB): COPY's and a transaction's pending writes, a COPY's incomplete input line, prepared statements, portals, cursors and their kept rows; past it the request fails with 53200 and the session goes on (0: no limit)")
	fs.Var(&cfg.AllSessionsMemoryLimit, "all-sessions-memory-limit",
		"most memory all sessions together may hold as --session-memory-limit counts it, in `bytes` (suffixes KiB, MiB, GiB); past it the session asking gets 53200 (0: half the Go memory limit in force, see --memory-limit)")
	fs.Var(&cfg.MemoryLimit, "memory-limit",
		"soft limit of the Go heap and runtime, in `bytes` (suffixes KiB, MiB, GiB): past it the collector runs as often as it must, whatever --gc-percent (0: GOMEMLIMIT if set, else half the machine's or cgroup's memory)")
	fs.Var(&cfg.MaxMessageSize, "max-message-size",
		"largest protocol message accepted from an authenticated client, in `bytes` (suffixes KiB, MiB, GiB)")
	fs.IntVar(&cfg.MaxConnections, "max-connections", cfg.MaxConnections,
		"most client sessions at once, a `number`; one more is refused with 53300, as PostgreSQL's max_connections")
	fs.IntVar(&cfg.SuperuserReservedConnections, "superuser-reserved-connections", cfg.SuperuserReservedConnections,
		"how many of --max-connections' slots only superusers may take, a `number`; an ordinary role that would take one is refused with 53300 (PostgreSQL's superuser_reserved_connections; kept below --max-connections)")
	fs.Var(&cfg.AuthenticationTimeout, "authentication-timeout",
		"longest a client may take to connect and authenticate, in `seconds` (or with a unit: 10s, 1min), 1s to 600s; past it the connection is closed (PostgreSQL's authentication_timeout)")
	fs.Var(&cfg.NotifyQueueSize, "notify-queue-size",
		"memory the notifications waiting for LISTENing clients may take, all together, in `bytes` (suffixes KiB, MiB, GiB); a NOTIFY past it fails with 54000 (PostgreSQL's NOTIFY queue holds 8GB)")
	fs.IntVar(&cfg.StatementsMax, "statements-max", cfg.StatementsMax,
		"most statements pg_stat_statements tracks, a `number` (PostgreSQL's pg_stat_statements.max); the least used give way")
	fs.IntVar(&cfg.MetricsStatements, "metrics-statements", cfg.MetricsStatements,
		"how many statements (most execution time first) get zproxy_statement_* series of their own, a `number`; the rest are summed in one series labelled other")
	fs.DurationVar(&cfg.ShutdownTimeout, "shutdown-timeout", cfg.ShutdownTimeout,
		"on SIGTERM/SIGINT, how long in-flight statements may run before connections are closed")
	for _, f := range cfg.statementLogFlags() {
		fs.StringVar(f.value, f.flag, *f.value, f.usage)
	}
	return fs
}

// envName returns the environment variable that sets a flag.
func envName(flagName string) string {
	return envPrefix + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// loadConfig resolves the configuration from the command-line arguments, the
// environment and the config file. Precedence, highest first: flag, ZPROXY_*
// environment variable, config file, default. The config file itself is named
// by --config or ZPROXY_CONFIG. It returns flag.ErrHelp for -h/--help.
func loadConfig(args []string, getenv func(string) (string, bool), readFile func(string) ([]byte, error)) (Config, []string, error) {
	// A first pass over the flags only finds the config file (and catches
	// flag errors early).
	probe := defaultConfig()
	probeFlags := newFlagSet(&probe)
	if err := probeFlags.Parse(args); err != nil {
		return Config{}, nil, err
	}
	path := ""
	if v, ok := getenv(envName("config")); ok {
		path = v
	}
	probeFlags.Visit(func(f *flag.Flag) {
		if f.Name == "config" {
			path = probe.ConfigFile
		}
	})

	cfg := defaultConfig()
	fs := newFlagSet(&cfg)
	if path != "" {
		data, err := readFile(path)
		if err != nil {
			return Config{}, nil, fmt.Errorf("config file: %w", err)
		}
		entries, err := parseConfigFile(data)
		if err != nil {
			return Config{}, nil, fmt.Errorf("config file %s: %w", path, err)
		}
		for _, e := range entries {
			if e.key == "config" || fs.Lookup(e.key) == nil {
				return Config{}, nil, fmt.Errorf("config file %s:%d: unknown setting %q", path, e.line, e.key)
			}
			if err := fs.Set(e.key, e.value); err != nil {
				return Config{}, nil, fmt.Errorf("config file %s:%d: %s: %w", path, e.line, e.key, err)
			}
		}
	}
	var envErr error
	fs.VisitAll(func(f *flag.Flag) {
		if v, ok := getenv(envName(f.Name)); ok && envErr == nil {
			if err := fs.Set(f.Name, v); err != nil {
				envErr = fmt.Errorf("%s: %w", envName(f.Name), err)
			}
		}
	})
	if envErr != nil {
		return Config{}, nil, envErr
	}
	if err := fs.Parse(args); err != nil {
		return Config{}, nil, err
	}
	cfg.ConfigFile = path
	if err := cfg.validate(); err != nil {
		return Config{}, nil, err
	}
	return cfg, fs.Args(), nil
}

func (c *Config) validate() error {
	switch c.Backend {
	case backendPebble:
		if c.DataDir == "" {
			return errors.New("--data-dir must not be empty")
		}
	case backendDynamoDB:
		if c.DynamoDBTable == "" {
			return errors.New("--dynamodb-table must not be empty")
		}
	default:
		return fmt.Errorf("--backend %q: must be %s or %s", c.Backend, backendPebble, backendDynamoDB)
	}
	if c.Listen == "" {
		return errors.New("--listen must not be empty")
	}
	if _, err := c.Credentials(); err != nil {
		return err
	}
	if _, err := c.AuthMethod(); err != nil {
		return err
	}
	if _, err := c.SlogLevel(); err != nil {
		return err
	}
	if (c.TLSCert == "") != (c.TLSKey == "") {
		return errors.New("--tls-cert and --tls-key go together")
	}
	if c.TLSRequired && c.TLSCert == "" {
		return errors.New("--tls-required needs --tls-cert and --tls-key")
	}
	if c.StatementsMax < 100 {
		return fmt.Errorf("--statements-max %d: must be at least 100", c.StatementsMax)
	}
	if c.MetricsStatements < 0 {
		return fmt.Errorf("--metrics-statements %d: must not be negative", c.MetricsStatements)
	}
	if c.MaxConnections < 1 {
		return fmt.Errorf("--max-connections %d: must be at least 1", c.MaxConnections)
	}
	if c.SuperuserReservedConnections < 0 {
		return fmt.Errorf("--superuser-reserved-connections %d: must not be negative", c.SuperuserReservedConnections)
	}
	if d := time.Duration(c.AuthenticationTimeout); d < time.Second || d > 600*time.Second || d%time.Second != 0 {
		return fmt.Errorf("--authentication-timeout %s: must be a whole number of seconds from 1 to 600", d)
	}
	if c.NotifyQueueSize < 64<<10 {
		return fmt.Errorf("--notify-queue-size %d: must be at least 64KiB", c.NotifyQueueSize)
	}
	if c.GCPercent < 10 && c.GCPercent != -1 {
		return fmt.Errorf("--gc-percent %d: must be at least 10, or -1 (no collection)", c.GCPercent)
	}
	if c.CacheSize < 1<<20 {
		return fmt.Errorf("--cache-size %d: must be at least 1MiB", c.CacheSize)
	}
	if c.MaxMessageSize < 4096 {
		return fmt.Errorf("--max-message-size %d: must be at least 4096 bytes", c.MaxMessageSize)
	}
	if c.Pprof && c.MetricsListen == "" {
		return errors.New("--pprof needs --metrics-listen (profiles are served on the metrics listener)")
	}
	if c.Console {
		if c.MetricsListen == "" {
			return errors.New("--console needs --metrics-listen (the console is served on the metrics listener)")
		}
		if c.TLSCert == "" && !loopbackListen(c.MetricsListen) {
			// Passwords would cross the network in clear.
			return fmt.Errorf("--console with --metrics-listen %s, not a loopback address, needs --tls-cert and --tls-key: the console's logins carry passwords", c.MetricsListen)
		}
	}
	if c.DynamoDBReadCapacity < 0 || c.DynamoDBWriteCapacity < 0 {
		return fmt.Errorf("--dynamodb-read-capacity and --dynamodb-write-capacity must not be negative")
	}
	if c.RegistryTTL < 0 {
		return fmt.Errorf("--registry-ttl %s: must not be negative", c.RegistryTTL)
	}
	if c.ShutdownTimeout < 0 {
		return fmt.Errorf("--shutdown-timeout %s: must not be negative", c.ShutdownTimeout)
	}
	return nil
}

// Credentials parses --users into user → password. A password may contain
// ':' (the first ':' separates it from the name) but not ','.
func (c *Config) Credentials() (map[string]string, error) {
	users := map[string]string{}
	for i, entry := range strings.Split(c.Users, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		name, password, ok := strings.Cut(entry, ":")
		if !ok || name == "" {
			// The entry itself stays out of the message: it may hold a password.
			return nil, fmt.Errorf("--users: entry %d is not user:password", i+1)
		}
		if password == "" {
			// PostgreSQL takes an empty password for none at all.
			return nil, fmt.Errorf("--users: user %q has an empty password", name)
		}
		if _, dup := users[name]; dup {
			return nil, fmt.Errorf("--users: user %q listed twice", name)
		}
		users[name] = password
	}
	return users, nil
}

// AuthMethod resolves --auth: password when users are listed, trust when
// zproxy listens on loopback only. Anywhere else trust must be asked for:
// a server open to the network does not let everyone in by default.
func (c *Config) AuthMethod() (string, error) {
	users, err := c.Credentials()
	if err != nil {
		return "", err
	}
	if c.HBAFile != "" {
		if c.Auth != "" {
			return "", errors.New("--auth with --hba-file: the file chooses the method; drop --auth")
		}
		return authHBA, nil
	}
	switch c.Auth {
	case "":
		if len(users) > 0 {
			return authPassword, nil
		}
		if !loopbackListen(c.Listen) {
			return "", fmt.Errorf("--listen %s is not a loopback address: give --users (password authentication), or --auth password with roles already in the store, or say --auth trust", c.Listen)
		}
		return authTrust, nil
	case authTrust:
		if len(users) > 0 {
			return "", errors.New("--auth trust with --users: the users would be ignored; drop one of them")
		}
		return authTrust, nil
	case authPassword, authSCRAM:
		return authPassword, nil
	}
	return "", fmt.Errorf("--auth %q: must be %s (or %s) or %s", c.Auth, authPassword, authSCRAM, authTrust)
}

// loopbackListen reports whether a listen address accepts connections
// from this machine only.
func loopbackListen(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// SlogLevel parses --log-level.
func (c *Config) SlogLevel() (slog.Level, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(c.LogLevel)); err != nil {
		return 0, fmt.Errorf("--log-level %q: must be debug, info, warn or error", c.LogLevel)
	}
	return l, nil
}

// LogAttrs describes the configuration for the start-up log line, without
// passwords.
func (c *Config) LogAttrs() []any {
	users, _ := c.Credentials()
	names := make([]string, 0, len(users))
	for n := range users {
		names = append(names, n)
	}
	sort.Strings(names)
	auth, _ := c.AuthMethod()
	attrs := []any{"backend", c.Backend, "auth", auth, "users", strings.Join(names, ","),
		"tls", c.TLSCert != "", "tls_required", c.TLSRequired, "max_connections", c.MaxConnections,
		"superuser_reserved_connections", c.SuperuserReservedConnections, "authentication_timeout", time.Duration(c.AuthenticationTimeout),
		"notify_queue_size", int64(c.NotifyQueueSize),
		"allow_full_scan", c.AllowFullScan, "max_message_size", int64(c.MaxMessageSize), "pprof", c.Pprof, "console", c.Console,
		"database", c.Database, "any_database", c.AnyDatabase}
	for _, f := range c.statementLogFlags() {
		if *f.value != "" {
			attrs = append(attrs, f.setting, *f.value)
		}
	}
	switch c.Backend {
	case backendPebble:
		attrs = append(attrs, "data_dir", c.DataDir, "cache_size", int64(c.CacheSize), "row_cache_size", int64(c.RowCacheSize))
	case backendDynamoDB:
		attrs = append(attrs, "dynamodb_table", c.DynamoDBTable, "dynamodb_region", c.DynamoDBRegion,
			"dynamodb_endpoint", c.DynamoDBEndpoint, "advertise_addr", c.AdvertiseAddr)
	}
	if c.ConfigFile != "" {
		attrs = append(attrs, "config_file", c.ConfigFile)
	}
	return attrs
}

// configEntry is one setting read from a config file.
type configEntry struct {
	key, value string
	line       int
}

// parseConfigFile reads a JSON object ({"listen": "127.0.0.1:15432",
// "allow-full-scan": false}) or "key = value" lines (blank lines and lines
// starting with # are skipped; a value may be double-quoted). Keys are flag
// names; '_' may stand for '-'.
func parseConfigFile(data []byte) ([]configEntry, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		return parseJSONConfig(trimmed)
	}
	var entries []configEntry
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		if !ok {
			return nil, fmt.Errorf("line %d: expected key = value", n)
		}
		value = strings.TrimSpace(value)
		if strings.HasPrefix(value, `"`) {
			uq, err := strconv.Unquote(value)
			if err != nil {
				return nil, fmt.Errorf("line %d: bad quoted value: %w", n, err)
			}
			value = uq
		}
		entries = append(entries, configEntry{key: normalizeKey(key), value: value, line: n})
	}
	return entries, sc.Err()
}

func parseJSONConfig(data []byte) ([]configEntry, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil {
		return nil, fmt.Errorf("JSON: %w", err)
	}
	if dec.More() {
		return nil, errors.New("JSON: trailing data after the object")
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys) // deterministic error reporting
	entries := make([]configEntry, 0, len(obj))
	for _, k := range keys {
		var value string
		switch v := obj[k].(type) {
		case string:
			value = v
		case json.Number:
			value = v.String()
		case bool:
			value = strconv.FormatBool(v)
		default:
			return nil, fmt.Errorf("JSON: %q: value must be a string, number or boolean", k)
		}
		entries = append(entries, configEntry{key: normalizeKey(k), value: value})
	}
	return entries, nil
}

func normalizeKey(k string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(k)), "_", "-")
}

// byteSize is a size flag: plain bytes or a KiB/MiB/GiB suffix.
type byteSize int64

func (b *byteSize) String() string { return strconv.FormatInt(int64(*b), 10) }

func (b *byteSize) Set(s string) error {
	s = strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}} {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > (1<<40)/mult {
		return errors.New("not a size (bytes, or a number with KiB, MiB or GiB)")
	}
	*b = byteSize(n * mult)
	return nil
}

// printUsage writes --help: every flag with its environment variable and
// default, and the precedence rule.
func printUsage(w io.Writer) {
	cfg := defaultConfig()
	fs := newFlagSet(&cfg)
	fmt.Fprintf(w, `zproxy: a PostgreSQL-wire SQL proxy for sorted key-value stores.

Usage:
  zproxy [flags]          serve PostgreSQL clients (the default)
  zproxy check [table...] verify that tables and their indexes agree (exit 1 if not)
  zproxy advise           print a running proxy's index advice (--url, --file; see zproxy advise --help)
  zproxy help             show this text

Every flag can also be set by an environment variable (shown below) or in a
config file (--config). Precedence, highest first:
  command-line flag > ZPROXY_* environment variable > config file > default.
Config files are a JSON object or "key = value" lines; keys are flag names
(e.g. data-dir = /var/lib/zproxy, or {"allow-full-scan": false}).

Flags:
`)
	fs.VisitAll(func(f *flag.Flag) {
		name, usage := flag.UnquoteUsage(f)
		fmt.Fprintf(w, "  --%s", f.Name)
		if name != "" {
			fmt.Fprintf(w, " %s", name)
		}
		fmt.Fprintf(w, "\n      %s\n      env %s", usage, envName(f.Name))
		if f.DefValue != "" {
			fmt.Fprintf(w, ", default %s", f.DefValue)
		}
		fmt.Fprintln(w)
	})
	fmt.Fprint(w, `
Signals: SIGTERM or SIGINT shut down gracefully (stop accepting, let running
statements finish, close the store); a second signal exits at once.
`)
}

// seconds is a duration flag read as PostgreSQL reads authentication_timeout:
// a plain number is seconds; a number may also carry a unit (ms, s, min, h,
// d, or Go's spellings such as 1m30s).
type seconds time.Duration

func (d *seconds) String() string {
	return strconv.FormatInt(int64(time.Duration(*d)/time.Second), 10)
}

func (d *seconds) Set(s string) error {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n < 0 || n > 1<<31 {
			return errors.New("out of range")
		}
		*d = seconds(time.Duration(n) * time.Second)
		return nil
	}
	bad := errors.New("not a time (seconds, or a number with a unit: ms, s, min, h, d)")
	s = strings.ReplaceAll(s, " ", "")
	// PostgreSQL's min and d, which Go's durations do not know.
	if num, ok := strings.CutSuffix(s, "min"); ok {
		s = num + "m"
	} else if num, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.ParseInt(num, 10, 64)
		if err != nil || n < 0 || n > 1<<20 {
			return bad
		}
		s = strconv.FormatInt(24*n, 10) + "h"
	}
	v, err := time.ParseDuration(s)
	if err != nil || v < 0 {
		return bad
	}
	*d = seconds(v)
	return nil
}
