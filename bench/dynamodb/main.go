package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

type settings struct {
	zproxyBin    string
	endpoint     string
	table        string
	port         int
	metricsPort  int
	rows         int
	batch        int
	loadConns    int
	shards       int
	mutability   string
	seed         uint64
	fractions    []float64
	queries      int
	scanQueries  int
	budgets      []int
	sweepQueries int
	reuse        bool
	align        bool
	offline      bool
	knn          []int
	boxes        bool
}

func main() {
	cfg, err := parseFlags(os.Args[1:])
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "bench-dynamodb:", err)
		os.Exit(2)
	}
	if cfg.offline {
		runOffline(os.Stdout, cfg)
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, cfg); err != nil {
		fmt.Fprintln(os.Stderr, "bench-dynamodb:", err)
		os.Exit(1)
	}
}

func parseFlags(args []string) (settings, error) {
	var cfg settings
	fs := flag.NewFlagSet("bench-dynamodb", flag.ContinueOnError)
	fs.StringVar(&cfg.zproxyBin, "zproxy-bin", "", "zproxy binary to run (required; the script builds it)")
	fs.StringVar(&cfg.endpoint, "endpoint", "http://127.0.0.1:18300", "DynamoDB endpoint `URL` (DynamoDB Local); required, so the Scans never run against AWS by accident")
	fs.StringVar(&cfg.table, "table", "zproxybench", "DynamoDB `table` zproxy stores everything in")
	fs.IntVar(&cfg.port, "port", 18310, "zproxy's PostgreSQL port (below 32768)")
	fs.IntVar(&cfg.metricsPort, "metrics-port", 18311, "zproxy's /metrics port (below 32768)")
	fs.IntVar(&cfg.rows, "rows", 100000, "rows to load (a multiple of 100: sensors × 100 readings)")
	fs.IntVar(&cfg.batch, "batch", 100, "rows per multi-row INSERT")
	fs.IntVar(&cfg.loadConns, "load-conns", 4, "parallel loading connections")
	fs.IntVar(&cfg.shards, "shards", 1, "write shards of the table and of by_place")
	fs.StringVar(&cfg.mutability, "mutability", "immutable_rows", "table mutability: mutable or immutable_rows")
	fs.Uint64Var(&cfg.seed, "seed", 1, "seed of the data and the query boxes")
	fractions := fs.String("fractions", "0.001,0.01,0.05", "box sizes as fractions of the lat/lon area (2-D) and of the lat/lon/ts volume (3-D)")
	fs.IntVar(&cfg.queries, "queries", 11, "boxes per class measured with zproxy and the naive Query")
	fs.IntVar(&cfg.scanQueries, "scan-queries", 3, "of those, boxes also measured with a full-table Scan")
	budgets := fs.String("budgets", "1,8,16,64,256", "budgets (ranges per shard) for the direct sweep of zproxy's decomposition (empty: no sweep)")
	fs.IntVar(&cfg.sweepQueries, "sweep-queries", 5, "of the boxes, how many the budget sweep runs")
	fs.BoolVar(&cfg.reuse, "reuse", false, "reuse a loaded readings table in -table instead of creating and loading it")
	fs.BoolVar(&cfg.align, "align", false, "build by_place after the load WITH (align = 'data'): its attributes aligned to the data (zorder.Attr.Lead)")
	fs.BoolVar(&cfg.offline, "offline", false, "no DynamoDB, no zproxy: count in memory the entries the ranges of each -budgets hold for the boxes, with zproxy's encoding and a data-aligned one (offline.go)")
	knn := fs.String("knn", "10,100", "k of the nearest-neighbour queries over knn_pts, -queries centres each (empty: none; knn.go)")
	fs.BoolVar(&cfg.boxes, "boxes", true, "run the box classes (-boxes=false: only the kNN queries)")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if cfg.zproxyBin == "" && !cfg.offline {
		return cfg, errors.New("-zproxy-bin is required (scripts/bench-dynamodb.sh builds it)")
	}
	if cfg.endpoint == "" {
		return cfg, errors.New("-endpoint is required")
	}
	if cfg.rows < perSensor || cfg.batch < 1 || cfg.loadConns < 1 || cfg.shards < 1 || cfg.queries < 1 {
		return cfg, errors.New("-rows >= 100, -batch, -load-conns, -shards and -queries >= 1")
	}
	for _, s := range strings.Split(*fractions, ",") {
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || f <= 0 || f > 1 {
			return cfg, fmt.Errorf("-fractions: %q is not in (0, 1]", s)
		}
		cfg.fractions = append(cfg.fractions, f)
	}
	var err error
	if cfg.budgets, err = positiveInts("-budgets", *budgets); err != nil {
		return cfg, err
	}
	cfg.knn, err = positiveInts("-knn", *knn)
	return cfg, err
}

// positiveInts parses a flag's comma-separated positive integers (empty
// items skipped).
func positiveInts(flag, list string) ([]int, error) {
	var out []int
	for _, s := range strings.Split(list, ",") {
		if strings.TrimSpace(s) == "" {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%s: %q is not a positive integer", flag, s)
		}
		out = append(out, n)
	}
	return out, nil
}

func run(ctx context.Context, cfg settings) error {
	logf := func(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }
	z, err := startZproxy(cfg.zproxyBin, cfg.endpoint, cfg.table, cfg.port, cfg.metricsPort)
	if err != nil {
		return err
	}
	defer z.stop()
	conn, err := pgx.Connect(ctx, z.dsn())
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())

	ds := newDataset(cfg.seed, cfg.rows)
	setup := setupInfo{rows: ds.rows(), shards: cfg.shards, mutability: cfg.mutability, batch: cfg.batch, conns: cfg.loadConns}
	var count int64
	err = conn.QueryRow(ctx, "SELECT count(*) FROM readings").Scan(&count)
	switch {
	case err == nil && !cfg.reuse:
		return fmt.Errorf("table readings already exists in DynamoDB table %q: pass -reuse, or another -table", cfg.table)
	case err == nil:
		if count != int64(ds.rows()) {
			return fmt.Errorf("-reuse: readings holds %d rows, want %d", count, ds.rows())
		}
		logf("reusing readings (%d rows) in %s", count, cfg.table)
		setup.reused = true
	case isUndefinedTable(err):
		ddl := []string{
			fmt.Sprintf(`CREATE TABLE readings (sensor_id BIGINT NOT NULL, ts TIMESTAMP NOT NULL, celsius DOUBLE PRECISION,
  lat DOUBLE PRECISION, lon DOUBLE PRECISION, note TEXT, PRIMARY KEY (sensor_id, ts))
  WITH (shards = %d, mutability = '%s')`, cfg.shards, cfg.mutability),
		}
		byPlace := fmt.Sprintf(`CREATE INDEX by_place ON readings USING zorder (lat, lon, ts) INCLUDE (celsius, note) WITH (shards = %d)`, cfg.shards)
		if cfg.align {
			// Aligned to the data, so built once the data is there.
			byPlace = strings.Replace(byPlace, "WITH (", "WITH (align = 'data', ", 1)
		} else {
			ddl = append(ddl, byPlace)
		}
		for _, s := range ddl {
			if _, err := conn.Exec(ctx, s); err != nil {
				return fmt.Errorf("%s: %w", s, err)
			}
		}
		logf("loading %d rows (%d per INSERT, %d connections)...", ds.rows(), cfg.batch, cfg.loadConns)
		took, retries, err := load(ctx, z.dsn(), ds, cfg.batch, cfg.loadConns, func(done int, elapsed time.Duration) {
			logf("  %d rows in %s (%.0f rows/s)", done, elapsed.Round(time.Second), float64(done)/elapsed.Seconds())
		})
		if err != nil {
			return err
		}
		setup.loadTime, setup.retries = took, retries
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM readings").Scan(&count); err != nil {
			return err
		}
		if count != int64(ds.rows()) {
			return fmt.Errorf("after loading, readings holds %d rows, want %d", count, ds.rows())
		}
		if cfg.align {
			start := time.Now()
			if _, err := conn.Exec(ctx, byPlace); err != nil {
				return fmt.Errorf("%s: %w", byPlace, err)
			}
			var def string
			if err := conn.QueryRow(ctx, `SELECT pg_get_indexdef('by_place'::regclass)`).Scan(&def); err != nil {
				return err
			}
			logf("%s: built in %s", def, time.Since(start).Round(time.Millisecond))
		}
	default:
		return err
	}

	d, err := openDirect(ctx, cfg.endpoint, cfg.table)
	if err != nil {
		return err
	}
	setup.addrBits = d.zs.Bits()
	setup.leads = d.ix.LeadsOption()
	var reports []classReport
	var classes []boxClass
	for _, dims := range []int{2, 3} {
		for _, f := range cfg.fractions {
			if !cfg.boxes {
				break
			}
			classes = append(classes, boxClass{dims: dims, fraction: f})
		}
	}
	for ci, c := range classes {
		rep := classReport{class: c, budgets: cfg.budgets}
		for qi, b := range c.boxes(cfg.seed, ci, cfg.queries) {
			if err := ctx.Err(); err != nil {
				return err
			}
			r := queryResult{}
			var ps planStats
			r.zproxy, ps, r.metrics, err = runZproxy(ctx, z, conn, b)
			if err != nil {
				return fmt.Errorf("%s, box %d: zproxy: %w", c, qi, err)
			}
			// zproxy chooses its budget by cost, so the harness cannot
			// predict the range count; but the plan must start where the
			// box clipped to the data bounds starts, or zproxy planned a
			// different box than the direct methods read.
			if want := d.zs.Ranges(d.clippedBox(b), 1); len(want) > 0 && !startPrinted(ps.firstRange, want[0].Lo) {
				r.planMismatch = fmt.Sprintf("EXPLAIN's first range %s does not start at the clipped box's first address %x", ps.firstRange, want[0].Lo)
			}
			if r.naive, err = d.naive(ctx, b); err != nil {
				return fmt.Errorf("%s, box %d: naive: %w", c, qi, err)
			}
			if qi < cfg.scanQueries {
				m, err := d.scan(ctx, b)
				if err != nil {
					return fmt.Errorf("%s, box %d: scan: %w", c, qi, err)
				}
				r.scan = &m
			}
			if qi < cfg.sweepQueries {
				for _, budget := range cfg.budgets {
					m, err := d.budgeted(ctx, b, budget)
					if err != nil {
						return fmt.Errorf("%s, box %d: budget %d: %w", c, qi, budget, err)
					}
					r.sweep = append(r.sweep, m)
				}
			}
			r.check(b)
			logf("%s, box %d: zproxy %d items in %s, naive %d items", c, qi, r.zproxy.items, r.zproxy.elapsed.Round(time.Millisecond), r.naive.items)
			for _, p := range r.problems {
				logf("%s, box %d (%s): %s", c, qi, boxSQL(b), p)
			}
			rep.results = append(rep.results, r)
		}
		logf("%s: %d boxes done", c, len(rep.results))
		reports = append(reports, rep)
	}
	knn, err := runKNNClasses(ctx, conn, cfg, ds, logf)
	if err != nil {
		return err
	}
	printReport(os.Stdout, setup, reports)
	printKNN(os.Stdout, knn)
	return nil
}

// isUndefinedTable reports a server error with SQLSTATE 42P01.
func isUndefinedTable(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "42P01"
}
