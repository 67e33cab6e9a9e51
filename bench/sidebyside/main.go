package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

type config struct {
	rows, perSensor, batch, loadConns  int
	seed                               uint64
	iterations, warmup, explainSamples int
	boxRows, aggRows, inList           int
	shards                             int
	mutability                         string
	pgBox                              pgBoxIndex
	zproxyPort, metricsPort, pgPort    int
	pgBin, zproxyBin, root             string
	insertRows                         int
	keep, verbose                      bool
	zproxyArgs                         []string // extra zproxy flags
	cpuprofileDir                      string
	profileSeconds                     int
}

func main() {
	var cfg config
	var pgBox string
	flag.IntVar(&cfg.rows, "rows", 1_000_000, "rows of readings to load into each system")
	flag.IntVar(&cfg.perSensor, "per-sensor", 100, "readings per sensor (sensors = rows / per-sensor)")
	flag.Uint64Var(&cfg.seed, "seed", 1, "seed of the data and of the query parameters")
	flag.IntVar(&cfg.batch, "batch", 500, "rows per multi-row INSERT")
	flag.IntVar(&cfg.loadConns, "load-conns", 2, "parallel connections while loading")
	flag.IntVar(&cfg.iterations, "iterations", 200, "timed queries per class and system")
	flag.IntVar(&cfg.warmup, "warmup", 30, "untimed warm-up queries per class and system")
	flag.IntVar(&cfg.explainSamples, "explain-samples", 20, "queries per class run under zproxy's EXPLAIN ANALYZE")
	flag.IntVar(&cfg.boxRows, "box-rows", 1000, "expected rows in a 2-D or 3-D box")
	flag.IntVar(&cfg.aggRows, "agg-rows", 10000, "expected rows under a box aggregate")
	flag.IntVar(&cfg.inList, "in-list", 10, "sensor ids in the IN list")
	flag.IntVar(&cfg.shards, "shards", 1, "zproxy write shards of the table and its indexes")
	flag.StringVar(&cfg.mutability, "mutability", "mutable", "zproxy table mutability for the query benchmark: mutable or immutable_rows")
	flag.StringVar(&pgBox, "pg-box-index", "gist", "PostgreSQL index for boxes: gist (on point(lon, lat)) or btree (on (lat, lon))")
	flag.IntVar(&cfg.zproxyPort, "zproxy-port", 26432, "zproxy's PostgreSQL port (keep below 32768)")
	flag.IntVar(&cfg.metricsPort, "metrics-port", 26490, "zproxy's metrics port")
	flag.IntVar(&cfg.pgPort, "pg-port", 26433, "PostgreSQL's port")
	flag.StringVar(&cfg.pgBin, "pg-bin", "", "directory of PostgreSQL's initdb and pg_ctl (default: /usr/lib/postgresql/15/bin or PATH)")
	flag.StringVar(&cfg.zproxyBin, "zproxy-bin", "", "zproxy binary (default: build ./cmd/zproxy)")
	flag.StringVar(&cfg.root, "root", "", "zproxy module root (default: found from the working directory)")
	flag.IntVar(&cfg.insertRows, "insert-rows", 100_000, "rows per configuration in the INSERT throughput benchmark (0 skips it)")
	flag.BoolVar(&cfg.keep, "keep", false, "keep the data directories")
	var zargs string
	flag.StringVar(&zargs, "zproxy-args", "", "extra zproxy flags, space-separated (e.g. \"--cache-size 256MiB\")")
	flag.StringVar(&cfg.cpuprofileDir, "cpuprofile-dir", "", "after each class's timed queries, run the class on zproxy for -profile-seconds while taking a CPU profile of zproxy into `dir`/<class>.pprof")
	flag.IntVar(&cfg.profileSeconds, "profile-seconds", 5, "length of each class's CPU profile (with -cpuprofile-dir)")
	flag.BoolVar(&cfg.verbose, "v", false, "print one EXPLAIN ANALYZE per class from each system")
	flag.Parse()
	cfg.zproxyArgs = strings.Fields(zargs)
	cfg.pgBox = pgBoxIndex(pgBox)
	if cfg.pgBox != pgBoxGiST && cfg.pgBox != pgBoxBtree {
		fatal(fmt.Errorf("-pg-box-index must be gist or btree, not %q", pgBox))
	}
	if cfg.mutability != "mutable" && cfg.mutability != "immutable_rows" {
		fatal(fmt.Errorf("-mutability must be mutable or immutable_rows, not %q", cfg.mutability))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, cfg); err != nil {
		fatal(err)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "sidebyside:", err)
	os.Exit(1)
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "[%s] %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...))
}

func moduleRoot(explicit string) (string, error) {
	if explicit != "" {
		return explicit, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("go.mod not found above the working directory; pass -root")
		}
		dir = parent
	}
}

func run(ctx context.Context, cfg config) error {
	ds := newDataset(cfg.seed, cfg.rows, cfg.perSensor)
	rows := ds.rows()
	logf("data: %d rows = %d sensors × %d readings, %d note values, seed %d", rows, ds.sensors, ds.perSensor, ds.notes, cfg.seed)

	pgBin, err := findPostgresBin(cfg.pgBin)
	if err != nil {
		return err
	}
	zbin := cfg.zproxyBin
	if zbin == "" {
		root, err := moduleRoot(cfg.root)
		if err != nil {
			return err
		}
		dir, err := os.MkdirTemp("", "zproxy-bench-bin-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		logf("building zproxy from %s", root)
		if zbin, err = buildZproxy(root, dir); err != nil {
			return fmt.Errorf("building zproxy: %w", err)
		}
	}

	logf("starting PostgreSQL (%s) on 127.0.0.1:%d, default settings (fsync on, synchronous_commit on, shared_buffers 128MB)", pgBin, cfg.pgPort)
	pg, err := startPostgres(pgBin, cfg.pgPort)
	if err != nil {
		return err
	}
	defer pg.stop(cfg.keep)
	logf("starting zproxy on 127.0.0.1:%d (metrics %d)", cfg.zproxyPort, cfg.metricsPort)
	zp, err := startZproxy(zbin, cfg.zproxyPort, cfg.metricsPort, cfg.zproxyArgs, cfg.cpuprofileDir != "")
	if err != nil {
		return err
	}
	defer zp.stop(cfg.keep)
	if cfg.keep {
		logf("keeping data: zproxy %s, PostgreSQL %s", zp.dir, pg.dir)
	}

	zconn, err := pgx.Connect(ctx, zp.dsn())
	if err != nil {
		return fmt.Errorf("connect to zproxy: %w", err)
	}
	defer zconn.Close(context.Background())
	pconn, err := pgx.Connect(ctx, pg.dsn())
	if err != nil {
		return fmt.Errorf("connect to PostgreSQL: %w", err)
	}
	defer pconn.Close(context.Background())
	var pgVersion string
	if err := pconn.QueryRow(ctx, "SHOW server_version").Scan(&pgVersion); err != nil {
		return err
	}
	var pgSettings []string
	for _, s := range []string{"fsync", "synchronous_commit", "shared_buffers", "work_mem"} {
		var v string
		if err := pconn.QueryRow(ctx, "SHOW "+s).Scan(&v); err != nil {
			return err
		}
		pgSettings = append(pgSettings, s+"="+v)
	}
	logf("PostgreSQL %s, %s", pgVersion, strings.Join(pgSettings, " "))

	loadAvg := []string{readLoadAvg()}
	defer func() { logf("load average at the end: %s", readLoadAvg()) }()
	loads, err := loadBoth(ctx, cfg, ds, zp, pg, zconn, pconn)
	if err != nil {
		return err
	}
	results, err := runClasses(ctx, cfg, ds, zp, zconn, pconn)
	if err != nil {
		return err
	}
	loadAvg = append(loadAvg, readLoadAvg())
	var inserts []insertResult
	if cfg.insertRows > 0 {
		if inserts, err = insertThroughput(ctx, cfg, zp, pg); err != nil {
			return err
		}
	}
	report(os.Stdout, cfg, ds, pgVersion, pgSettings, loads, results, inserts, loadAvg)
	return nil
}

const readingsColumns = `sensor_id BIGINT NOT NULL, ts TIMESTAMP NOT NULL, celsius DOUBLE PRECISION,
  lat DOUBLE PRECISION, lon DOUBLE PRECISION, note TEXT, PRIMARY KEY (sensor_id, ts)`

// zproxyIndexes are zproxy's indexes on table, the first n of them.
func zproxyIndexes(table string, n int) []string {
	all := []string{
		fmt.Sprintf("CREATE INDEX %s_by_note ON %s (note, ts) INCLUDE (celsius)", table, table),
		fmt.Sprintf("CREATE INDEX %s_by_place ON %s USING zorder (lat, lon, ts) INCLUDE (celsius, note)", table, table),
	}
	return all[:n]
}

// pgIndexes are PostgreSQL's stock counterparts, the first n of them. The box
// index covers every column the box queries read, so PostgreSQL can answer
// them with index-only scans just as zproxy's covering Z-order index does.
func pgIndexes(table string, n int, mode pgBoxIndex) []string {
	box := fmt.Sprintf("CREATE INDEX %s_by_place ON %s USING gist (point(lon, lat)) INCLUDE (lat, lon, ts, sensor_id, celsius)", table, table)
	if mode == pgBoxBtree {
		box = fmt.Sprintf("CREATE INDEX %s_by_place ON %s (lat, lon) INCLUDE (ts, sensor_id, celsius)", table, table)
	}
	all := []string{
		fmt.Sprintf("CREATE INDEX %s_by_note ON %s (note, ts) INCLUDE (celsius)", table, table),
		box,
	}
	return all[:n]
}

// loadResult records how loading went on one system.
type loadResult struct {
	system     string
	elapsed    time.Duration // the INSERTs
	indexTime  time.Duration // PostgreSQL: CREATE INDEX + VACUUM ANALYZE after the load
	rowsStored int64
	bytes      string
}

func loadBoth(ctx context.Context, cfg config, ds dataset, zp *zproxyServer, pg *postgres, zconn, pconn *pgx.Conn) ([]loadResult, error) {
	rows := ds.rows()
	with := fmt.Sprintf("shards = %d", cfg.shards)
	if cfg.mutability == "immutable_rows" {
		with += ", mutability = 'immutable_rows'"
	}
	// zproxy maintains its indexes on write, so they exist before the load.
	stmts := append([]string{fmt.Sprintf("CREATE TABLE readings (%s) WITH (%s)", readingsColumns, with)}, zproxyIndexes("readings", 2)...)
	if err := execAll(ctx, zconn, stmts...); err != nil {
		return nil, fmt.Errorf("zproxy schema: %w", err)
	}
	if err := execAll(ctx, pconn, fmt.Sprintf("CREATE TABLE readings (%s)", readingsColumns)); err != nil {
		return nil, fmt.Errorf("PostgreSQL schema: %w", err)
	}
	var out []loadResult
	for _, sys := range []struct {
		name string
		dsn  string
	}{{"zproxy", zp.dsn()}, {"PostgreSQL", pg.dsn()}} {
		logf("loading %d rows into %s: multi-row INSERT, %d rows per statement, %d connections", rows, sys.name, cfg.batch, cfg.loadConns)
		last := time.Now()
		elapsed, err := load(ctx, sys.dsn, "readings", ds, rows, cfg.batch, cfg.loadConns, func(done int) {
			if time.Since(last) > 15*time.Second {
				last = time.Now()
				logf("  %s: %d/%d rows", sys.name, done, rows)
			}
		})
		if err != nil {
			return nil, fmt.Errorf("loading %s: %w", sys.name, err)
		}
		logf("  %s: %d rows in %s (%.0f rows/s)", sys.name, rows, elapsed.Round(time.Millisecond), float64(rows)/elapsed.Seconds())
		out = append(out, loadResult{system: sys.name, elapsed: elapsed})
	}
	start := time.Now()
	// A user bulk-loading PostgreSQL builds the indexes afterwards, then
	// ANALYZEs and VACUUMs (the visibility map makes index-only scans work).
	if err := execAll(ctx, pconn, append(pgIndexes("readings", 2, cfg.pgBox), "VACUUM ANALYZE readings")...); err != nil {
		return nil, fmt.Errorf("PostgreSQL indexes: %w", err)
	}
	out[1].indexTime = time.Since(start)
	logf("  PostgreSQL: indexes + VACUUM ANALYZE in %s", out[1].indexTime.Round(time.Millisecond))

	for i, conn := range []*pgx.Conn{zconn, pconn} {
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM readings").Scan(&out[i].rowsStored); err != nil {
			return nil, fmt.Errorf("%s: count(*): %w", out[i].system, err)
		}
		if out[i].rowsStored != int64(rows) {
			logf("WRONG: %s holds %d rows after loading %d", out[i].system, out[i].rowsStored, rows)
		}
	}
	out[0].bytes = fmt.Sprintf("%.0f MiB store directory", float64(zp.dataSize())/(1<<20))
	var size string
	if err := pconn.QueryRow(ctx, "SELECT pg_size_pretty(pg_total_relation_size('readings'))").Scan(&size); err == nil {
		out[1].bytes = size + " table + indexes"
	}
	return out, nil
}

// classResult is the measurement of one query class.
type classResult struct {
	class                queryClass
	zproxyLat, pgLat     []time.Duration
	rowsPerQuery         float64 // client rows, zproxy
	pgRowsPerQuery       float64
	itemsPerRow          float64 // zproxy metrics: rows read / rows returned
	storeReqPerQuery     float64
	sample               analyzed // zproxy EXPLAIN ANALYZE, summed over the samples
	samples              int
	mismatches           int
	firstMismatch        string
	pgPlan, zproxyPlan   string
	zproxyErr, pgErr     error
	explainErr           error
	pgPlanErr            error
	zproxyErrs, pgErrors int
}

func runClasses(ctx context.Context, cfg config, ds dataset, zp *zproxyServer, zconn, pconn *pgx.Conn) ([]classResult, error) {
	classes := queryClasses(ds, cfg.pgBox, cfg.boxRows, cfg.aggRows, cfg.inList)
	var out []classResult
	for ci, c := range classes {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r := rand.New(rand.NewPCG(cfg.seed, uint64(ci+1)))
		params := make([][]any, cfg.warmup+cfg.iterations)
		for i := range params {
			params[i] = c.gen(r)
		}
		warm, timed := params[:cfg.warmup], params[cfg.warmup:]
		res := classResult{class: c}
		logf("class %s: %d warm-up + %d timed queries per system", c.name, len(warm), len(timed))

		zres := make([]result, len(timed))
		pres := make([]result, len(timed))
		for _, args := range warm {
			if _, err := runQuery(ctx, zconn, c.zproxy, args); err != nil {
				res.zproxyErr = err
				break
			}
		}
		before, err := zp.scrape(ctx)
		if err != nil {
			return nil, fmt.Errorf("metrics: %w", err)
		}
		var zrows int
		for i, args := range timed {
			start := time.Now()
			got, err := runQuery(ctx, zconn, c.zproxy, args)
			d := time.Since(start)
			if err != nil {
				res.zproxyErrs++
				if res.zproxyErr == nil {
					res.zproxyErr = fmt.Errorf("%s with %v: %w", c.zproxy, args, err)
				}
				zres[i].rows = -1
				continue
			}
			res.zproxyLat = append(res.zproxyLat, d)
			zres[i] = fingerprint(got, c.ordered)
			zrows += len(got)
		}
		after, err := zp.scrape(ctx)
		if err != nil {
			return nil, fmt.Errorf("metrics: %w", err)
		}
		delta := after.minus(before)
		if delta.rowsReturned > 0 {
			res.itemsPerRow = delta.rowsRead / delta.rowsReturned
		}
		res.storeReqPerQuery = delta.storeRequests / float64(len(timed))
		res.rowsPerQuery = float64(zrows) / float64(len(timed))

		for _, args := range warm {
			if _, err := runQuery(ctx, pconn, c.pg, args); err != nil {
				return nil, fmt.Errorf("PostgreSQL %s: %w", c.pg, err)
			}
		}
		var prows int
		for i, args := range timed {
			start := time.Now()
			got, err := runQuery(ctx, pconn, c.pg, args)
			d := time.Since(start)
			if err != nil {
				return nil, fmt.Errorf("PostgreSQL %s: %w", c.pg, err)
			}
			res.pgLat = append(res.pgLat, d)
			pres[i] = fingerprint(got, c.ordered)
			prows += len(got)
		}
		res.pgRowsPerQuery = float64(prows) / float64(len(timed))

		for i := range timed {
			if !sameResult(zres[i], pres[i], c.aggregate) {
				res.mismatches++
				if res.firstMismatch == "" {
					res.firstMismatch = fmt.Sprintf("%s  -- zproxy %d rows %v, PostgreSQL %d rows %v",
						literalSQL(c.zproxy, timed[i]), zres[i].rows, zres[i].floats, pres[i].rows, pres[i].floats)
				}
			}
		}
		for i := 0; i < cfg.explainSamples && i < len(timed); i++ {
			a, text, err := explainAnalyze(ctx, zconn, literalSQL(c.zproxy, timed[i]))
			if err != nil {
				res.explainErr = err
				break
			}
			if i == 0 {
				res.zproxyPlan = text
			}
			res.samples++
			res.sample.path = a.path
			res.sample.scanRows += a.scanRows
			res.sample.itemsRead += a.itemsRead
			res.sample.storeRequests += a.storeRequests
		}
		res.pgPlan, res.pgPlanErr = pgPlan(ctx, pconn, literalSQL(c.pg, timed[0]))
		if cfg.cpuprofileDir != "" {
			path, err := profileClass(ctx, zp, zconn, c, timed, cfg.cpuprofileDir, cfg.profileSeconds)
			if err != nil {
				return nil, fmt.Errorf("profiling %s: %w", c.name, err)
			}
			logf("  CPU profile of zproxy: %s", path)
		}
		if cfg.verbose {
			fmt.Fprintf(os.Stderr, "--- %s\nzproxy: %s\n%s\nPostgreSQL: %s\n%s\n", c.name, literalSQL(c.zproxy, timed[0]), res.zproxyPlan, literalSQL(c.pg, timed[0]), res.pgPlan)
		}
		logf("  zproxy p50 %s, PostgreSQL p50 %s, %.1f rows/query, %d mismatches",
			fmtDur(percentile(res.zproxyLat, 0.5)), fmtDur(percentile(res.pgLat, 0.5)), res.rowsPerQuery, res.mismatches)
		if res.zproxyErr != nil {
			logf("  zproxy error (%d queries): %v", res.zproxyErrs, res.zproxyErr)
		}
		if res.firstMismatch != "" {
			logf("  first mismatch: %s", res.firstMismatch)
		}
		out = append(out, res)
	}
	return out, nil
}

// percentile returns the nearest-rank p-quantile of ds.
func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	rank := int(p*float64(len(s))+0.999999999) - 1
	return s[max(0, min(rank, len(s)-1))]
}

func fmtDur(d time.Duration) string {
	ms := float64(d) / float64(time.Millisecond)
	switch {
	case d == 0:
		return "—"
	case ms < 1:
		return fmt.Sprintf("%.3f ms", ms)
	case ms < 100:
		return fmt.Sprintf("%.2f ms", ms)
	}
	return fmt.Sprintf("%.0f ms", ms)
}

// readLoadAvg returns the 1-, 5- and 15-minute load averages, to show how
// busy the machine was while measuring.
func readLoadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
