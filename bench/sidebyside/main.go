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
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/zproxy/zproxy/e2e/harness"
)

type config struct {
	rows, perSensor, batch, loadConns  int
	seed                               uint64
	iterations, warmup, explainSamples int
	boxRows, aggRows, inList           int
	shards                             int
	shardColumns                       string // zproxy's shard_columns of readings ("" for none)
	zorderAlign                        bool   // by_place WITH (align = 'data'), built after the load
	zproxyVacuum                       bool   // VACUUM ANALYZE zproxy's table after the load, as PostgreSQL's
	zorderLeads                        string // by_place WITH (leads = ...), built after the load ("" for none)
	mutability                         string
	pgBox                              pgBoxIndex
	zproxyPort, metricsPort, pgPort    int
	pgBin, zproxyBin, root             string
	insertRows                         int
	keep, verbose                      bool
	zproxyArgs                         []string // extra zproxy flags
	throughputClients                  []int
	throughputTime                     time.Duration
	cpuprofileDir                      string
	profileSeconds                     int
	copyRows                           int
	copyOnly                           bool
	workload                           string
	docs                               int
	points                             int
	spatialInclude                     bool
	triggerRows, triggerSingleRows     int
	rounds                             int
	only                               string
	whatIf                             bool
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
	flag.StringVar(&cfg.shardColumns, "shard-columns", "", "zproxy shard_columns of the readings table (e.g. sensor_id; needs -shards > 1)")
	flag.StringVar(&cfg.zorderLeads, "zorder-leads", "", "build zproxy's Z-order index after the load WITH (leads = 'LIST'), e.g. 17,18,20 (lat, lon, ts; see -zorder-align)")
	flag.BoolVar(&cfg.zproxyVacuum, "zproxy-vacuum", true, "after the load, run VACUUM ANALYZE on zproxy as on PostgreSQL (zproxy's VACUUM compacts the table's key ranges into the store's last level); false runs ANALYZE only and reads the LSM as the load left it")
	flag.BoolVar(&cfg.zorderAlign, "zorder-align", false, "build zproxy's Z-order index after the load WITH (align = 'data'), its attributes aligned to the data (the query classes only; the write benchmarks keep the default layout)")
	flag.StringVar(&cfg.mutability, "mutability", "mutable", "zproxy table mutability for the query benchmark: mutable or immutable_rows")
	flag.StringVar(&pgBox, "pg-box-index", "gist", "PostgreSQL index for boxes: gist (on point(lon, lat)) or btree (on (lat, lon))")
	flag.IntVar(&cfg.zproxyPort, "zproxy-port", 26432, "zproxy's PostgreSQL port (keep below 32768)")
	flag.IntVar(&cfg.metricsPort, "metrics-port", 26490, "zproxy's metrics port")
	flag.IntVar(&cfg.pgPort, "pg-port", 26433, "PostgreSQL's port")
	flag.StringVar(&cfg.pgBin, "pg-bin", "", "directory of PostgreSQL's initdb and pg_ctl (default: /usr/lib/postgresql/15/bin or PATH)")
	flag.StringVar(&cfg.zproxyBin, "zproxy-bin", "", "zproxy binary (default: build ./cmd/zproxy)")
	flag.StringVar(&cfg.root, "root", "", "zproxy module root (default: found from the working directory)")
	flag.IntVar(&cfg.insertRows, "insert-rows", 100_000, "rows per configuration in the INSERT throughput benchmark (0 skips it)")
	flag.IntVar(&cfg.copyRows, "copy-rows", 1_000_000, "rows of the COPY benchmark (0 skips it; see copy.go)")
	flag.BoolVar(&cfg.copyOnly, "copy-only", false, "run only the COPY benchmark")
	flag.BoolVar(&cfg.keep, "keep", false, "keep the data directories")
	var zargs, clients string
	flag.StringVar(&clients, "throughput-clients", "1,8,64", "client counts of the point and latest-by-key throughput runs (empty skips them)")
	flag.DurationVar(&cfg.throughputTime, "throughput-time", 3*time.Second, "length of each throughput run")
	flag.StringVar(&zargs, "zproxy-args", "", "extra zproxy flags, space-separated (e.g. \"--cache-size 256MiB\")")
	flag.StringVar(&cfg.cpuprofileDir, "cpuprofile-dir", "", "after each class's timed queries, run the class on zproxy for -profile-seconds while taking a CPU profile of zproxy into `dir`/<class>.pprof")
	flag.IntVar(&cfg.profileSeconds, "profile-seconds", 5, "length of each class's CPU profile (with -cpuprofile-dir)")
	flag.BoolVar(&cfg.verbose, "v", false, "print one EXPLAIN ANALYZE per class from each system")
	flag.StringVar(&cfg.workload, "workload", "readings", "readings (single-table query classes and INSERT throughput), star (readings joined to sensors and regions), docs (JSON documents and tag arrays under gin indexes), spatial (PostGIS points under gist indexes: boxes, radii, nearest neighbours, point in polygon) or triggers (the insert rate of a table with an updated_at and an audit trigger)")
	flag.IntVar(&cfg.docs, "docs", 100000, "documents of the docs workload")
	flag.IntVar(&cfg.points, "points", 1000000, "points of the spatial workload")
	flag.BoolVar(&cfg.spatialInclude, "spatial-include", false, "spatial workload: gist (geom) INCLUDE (kind) on both systems, so the queries' kind is read from the index")
	flag.IntVar(&cfg.triggerRows, "trigger-rows", 50000, "rows of the triggers workload's 1000-row INSERTs, per configuration")
	flag.IntVar(&cfg.triggerSingleRows, "trigger-single-rows", 5000, "rows of the triggers workload's single-row INSERTs, per configuration")
	flag.IntVar(&cfg.rounds, "rounds", 1, "times to run the whole set of classes; latencies are the medians of the rounds' percentiles")
	flag.BoolVar(&cfg.whatIf, "what-if", false, "star: also run variants of the classes that show what other plans cost on zproxy (hash joins, dimension first, the fact scan alone)")
	flag.StringVar(&cfg.only, "classes", "", "comma-separated names of the classes to run (default all)")
	flag.Parse()
	cfg.zproxyArgs = strings.Fields(zargs)
	for _, f := range strings.Split(clients, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			fatal(fmt.Errorf("-throughput-clients: %q is not a client count", f))
		}
		cfg.throughputClients = append(cfg.throughputClients, n)
	}
	if cfg.workload != "readings" && cfg.workload != "star" && cfg.workload != "docs" && cfg.workload != "spatial" && cfg.workload != "triggers" {
		fatal(fmt.Errorf("-workload must be readings, star, docs, spatial or triggers, not %q", cfg.workload))
	}
	if cfg.workload == "star" {
		// A star query reads tens of thousands of rows on zproxy (up to a
		// second each): fewer queries per round keep a run near 15 minutes.
		set := map[string]bool{}
		flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
		if !set["iterations"] {
			cfg.iterations = 100
		}
		if !set["warmup"] {
			cfg.warmup = 10
		}
	}
	if cfg.rounds < 1 || cfg.iterations < 1 {
		fatal(errors.New("-rounds and -iterations must be at least 1"))
	}
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

	pgBin, err := harness.FindPostgresBin(cfg.pgBin)
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
		logf("keeping data: zproxy %s, PostgreSQL %s", zp.dir, pg.Dir)
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
	if cfg.workload == "triggers" {
		res, err := triggerThroughput(ctx, cfg, zp, pg)
		if err != nil {
			return err
		}
		reportTriggers(os.Stdout, cfg, pgVersion, res, append(loadAvg, readLoadAvg()))
		return nil
	}
	if cfg.copyOnly {
		copies, err := copyThroughput(ctx, cfg, zp, pg)
		if err != nil {
			return err
		}
		reportCopy(os.Stdout, cfg, copies, readLoadAvg())
		return nil
	}
	loads, err := loadBoth(ctx, cfg, ds, zp, pg, zconn, pconn)
	if err != nil {
		return err
	}
	classes := queryClasses(ds, cfg.pgBox, cfg.boxRows, cfg.aggRows, cfg.inList)
	if cfg.workload == "star" {
		logf("loading the dimensions: %d sensors, %d regions", ds.sensors, starRegions)
		if err := loadDimensions(ctx, cfg, ds, zconn, pconn); err != nil {
			return err
		}
		classes = starClasses(ds, cfg.pgBox, cfg.aggRows, cfg.whatIf)
	}
	if cfg.workload == "docs" {
		logf("loading %d documents", cfg.docs)
		if err := loadDocs(ctx, cfg, ds, zconn, pconn); err != nil {
			return err
		}
		classes = docsClasses(cfg)
	}
	if cfg.workload == "spatial" {
		logf("loading %d points", cfg.points)
		if err := loadSpatial(ctx, cfg, ds, zconn, pconn); err != nil {
			return err
		}
		classes = spatialClasses(cfg)
	}
	if classes, err = selectClasses(classes, cfg.only); err != nil {
		return err
	}
	meter, err := newCPUMeter(zp, pg)
	if err != nil {
		logf("no CPU times: %v", err)
	} else {
		start := time.Now()
		meter.settle(ctx, 3*time.Minute)
		logf("zproxy idle after %s (compactions after the load)", time.Since(start).Round(time.Second))
	}
	results, err := runClasses(ctx, cfg, classes, zp, meter, zconn, pconn)
	if err != nil {
		return err
	}
	loadAvg = append(loadAvg, readLoadAvg())
	if cfg.workload == "star" {
		reportStar(os.Stdout, cfg, ds, pgVersion, pgSettings, loads, results, loadAvg)
		return nil
	}
	if cfg.workload == "docs" {
		reportDocs(os.Stdout, cfg, ds, pgVersion, loads, results, loadAvg)
		return nil
	}
	if cfg.workload == "spatial" {
		reportSpatial(os.Stdout, cfg, ds, pgVersion, loads, results, loadAvg)
		return nil
	}
	thr := throughput(ctx, cfg, classes, zp, pg)
	var inserts []insertResult
	if cfg.insertRows > 0 {
		if inserts, err = insertThroughput(ctx, cfg, zp, pg); err != nil {
			return err
		}
	}
	var copies []copyResult
	if cfg.copyRows > 0 {
		if copies, err = copyThroughput(ctx, cfg, zp, pg); err != nil {
			return err
		}
	}
	report(os.Stdout, cfg, ds, pgVersion, pgSettings, loads, results, inserts, loadAvg)
	reportThroughput(os.Stdout, cfg, thr)
	reportCopy(os.Stdout, cfg, copies, readLoadAvg())
	return nil
}

// selectClasses keeps the classes named in the comma-separated list only
// (all of them when it is empty).
func selectClasses(all []queryClass, only string) ([]queryClass, error) {
	if only == "" {
		return all, nil
	}
	var out []queryClass
	for _, name := range strings.Split(only, ",") {
		i := slices.IndexFunc(all, func(c queryClass) bool { return c.name == strings.TrimSpace(name) })
		if i < 0 {
			var names []string
			for _, c := range all {
				names = append(names, c.name)
			}
			return nil, fmt.Errorf("no class %q (classes: %s)", name, strings.Join(names, ", "))
		}
		out = append(out, all[i])
	}
	return out, nil
}

const readingsColumns = `sensor_id BIGINT NOT NULL, ts TIMESTAMP NOT NULL, celsius DOUBLE PRECISION,
  lat DOUBLE PRECISION, lon DOUBLE PRECISION, note TEXT, PRIMARY KEY (sensor_id, ts)`

// zorderLayout is the WITH clause of zproxy's Z-order index that -zorder-align
// or -zorder-leads ask for ("" for the default layout).
func (cfg config) zorderLayout() string {
	switch {
	case cfg.zorderAlign:
		return " WITH (align = 'data')"
	case cfg.zorderLeads != "":
		return fmt.Sprintf(" WITH (leads = '%s')", cfg.zorderLeads)
	}
	return ""
}

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
	cpu        time.Duration // the server's during the load (zproxy's until idle: writecpu.go)
	indexCPU   time.Duration // PostgreSQL's for indexTime
	rowsStored int64
	bytes      string
}

func loadBoth(ctx context.Context, cfg config, ds dataset, zp *zproxyServer, pg *postgres, zconn, pconn *pgx.Conn) ([]loadResult, error) {
	rows := ds.rows()
	with := fmt.Sprintf("shards = %d", cfg.shards)
	if cfg.shardColumns != "" {
		with += fmt.Sprintf(", shard_columns = (%s)", cfg.shardColumns)
	}
	if cfg.mutability == "immutable_rows" {
		with += ", mutability = 'immutable_rows'"
	}
	// zproxy maintains its indexes on write, so they exist before the load;
	// an aligned Z-order index needs the data to align to, so it is built
	// after it.
	before := zproxyIndexes("readings", 2)
	layout := cfg.zorderLayout()
	if layout != "" {
		before = before[:1]
	}
	stmts := append([]string{fmt.Sprintf("CREATE TABLE readings (%s) WITH (%s)", readingsColumns, with)}, before...)
	if err := execAll(ctx, zconn, stmts...); err != nil {
		return nil, fmt.Errorf("zproxy schema: %w", err)
	}
	if err := execAll(ctx, pconn, fmt.Sprintf("CREATE TABLE readings (%s)", readingsColumns)); err != nil {
		return nil, fmt.Errorf("PostgreSQL schema: %w", err)
	}
	var out []loadResult
	meter := writeMeter(zp, pg)
	for _, sys := range []struct {
		name string
		dsn  string
	}{{"zproxy", zp.dsn()}, {"PostgreSQL", pg.dsn()}} {
		logf("loading %d rows into %s: multi-row INSERT, %d rows per statement, %d connections", rows, sys.name, cfg.batch, cfg.loadConns)
		var profiled <-chan error
		if cfg.cpuprofileDir != "" && sys.name == "zproxy" {
			// The load's first seconds: a profile of zproxy's write path.
			if err := os.MkdirAll(cfg.cpuprofileDir, 0o755); err != nil {
				return nil, err
			}
			profiled = fetchProfile(ctx, zp, cfg.profileSeconds, filepath.Join(cfg.cpuprofileDir, "load.pprof"))
		}
		last := time.Now()
		cpu := startCPU(meter, sys.name)
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
		if profiled != nil {
			if err := <-profiled; err != nil {
				return nil, fmt.Errorf("profiling the load: %w", err)
			}
			logf("  CPU profile of zproxy's load: %s", filepath.Join(cfg.cpuprofileDir, "load.pprof"))
		}
		out = append(out, loadResult{system: sys.name, elapsed: elapsed, cpu: cpu.stop(ctx)})
		logf("  %s: CPU %s/row", sys.name, perRow(out[len(out)-1].cpu, int64(rows)))
	}
	if layout != "" {
		start := time.Now()
		if err := execAll(ctx, zconn, zproxyIndexes("readings", 2)[1]+layout); err != nil {
			return nil, fmt.Errorf("zproxy Z-order index%s: %w", layout, err)
		}
		var def string
		if err := zconn.QueryRow(ctx, "SELECT pg_get_indexdef('readings_by_place'::regclass)").Scan(&def); err != nil {
			return nil, err
		}
		logf("  zproxy: %s in %s", def, time.Since(start).Round(time.Millisecond))
	}
	// As PostgreSQL is analyzed after its load: zproxy's automatic
	// analysis runs as the table grows, so its last statistics may be from
	// early in the load (a box of ~1,000 rows estimated at ~50 turns a
	// top-N search off). And vacuumed, as PostgreSQL is: the same
	// statement a user runs after a bulk load, which on zproxy compacts
	// the table's ranges (a box otherwise reads through the memtable, L0
	// files and two levels; -zproxy-vacuum=false measures that shape).
	start := time.Now()
	analyze := "ANALYZE readings"
	if cfg.zproxyVacuum {
		analyze = "VACUUM ANALYZE readings"
	}
	if err := execAll(ctx, zconn, analyze); err != nil {
		return nil, fmt.Errorf("zproxy %s: %w", analyze, err)
	}
	logf("  zproxy: %s in %s", analyze, time.Since(start).Round(time.Millisecond))
	start = time.Now()
	indexCPU := startCPU(meter, "PostgreSQL")
	// A user bulk-loading PostgreSQL builds the indexes afterwards, then
	// ANALYZEs and VACUUMs (the visibility map makes index-only scans work).
	if err := execAll(ctx, pconn, append(pgIndexes("readings", 2, cfg.pgBox), "VACUUM ANALYZE readings")...); err != nil {
		return nil, fmt.Errorf("PostgreSQL indexes: %w", err)
	}
	out[1].indexTime = time.Since(start)
	out[1].indexCPU = indexCPU.stop(ctx)
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
	zproxyLat, pgLat     [][]time.Duration // per round
	rowsPerQuery         float64           // client rows, zproxy
	pgRowsPerQuery       float64
	itemsPerRow          float64 // zproxy metrics: rows read / rows returned
	storeReqPerQuery     float64
	sample               analyzed // zproxy EXPLAIN ANALYZE, summed over the samples
	samples              int
	factRows             int           // fact rows the samples join (factSQL on PostgreSQL)
	queries              int           // timed queries per system, over every round
	zproxyCPU, pgCPU     time.Duration // CPU time each server spent on the timed queries
	cpuMeasured          bool
	mismatches           int
	firstMismatch        string
	pgPlan, zproxyPlan   string
	pgTree               string // PostgreSQL's plan as a tree of nodes
	zproxyErr, pgErr     error
	explainErr           error
	pgPlanErr            error
	zproxyErrs, pgErrors int
}

// latency is the median over the rounds of each round's p-quantile: with
// several rounds spread over the run, one noisy stretch of the shared
// machine moves one round, not the figure.
func latency(rounds [][]time.Duration, p float64) time.Duration {
	var per []time.Duration
	for _, r := range rounds {
		if len(r) > 0 {
			per = append(per, percentile(r, p))
		}
	}
	return percentile(per, 0.5)
}

// classRun is one class's parameters and what its rounds accumulated.
type classRun struct {
	warm, timed  [][]any
	zrows, prows int
	metrics      counters
}

// runClasses runs every class cfg.rounds times, round after round (so the
// repeats of a class lie minutes apart), then EXPLAINs samples of each.
func runClasses(ctx context.Context, cfg config, classes []queryClass, zp *zproxyServer, meter *cpuMeter, zconn, pconn *pgx.Conn) ([]classResult, error) {
	out := make([]classResult, len(classes))
	runs := make([]classRun, len(classes))
	for ci, c := range classes {
		r := rand.New(rand.NewPCG(cfg.seed, c.stream))
		params := make([][]any, cfg.warmup+cfg.iterations)
		for i := range params {
			params[i] = c.gen(r)
		}
		runs[ci].warm, runs[ci].timed = params[:cfg.warmup], params[cfg.warmup:]
		out[ci].class = c
	}
	for round := 0; round < cfg.rounds; round++ {
		for ci, c := range classes {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			// Marks where each class starts, to line a profile of the
			// server up with the classes.
			logf("class %s, round %d/%d: %d queries per system", c.name, round+1, cfg.rounds, len(runs[ci].timed))
			if err := measureClass(ctx, c, &runs[ci], &out[ci], round == 0, zp, meter, zconn, pconn); err != nil {
				return nil, err
			}
			res := &out[ci]
			logf("class %s, round %d/%d: zproxy p50 %s, PostgreSQL p50 %s, %d mismatches so far",
				c.name, round+1, cfg.rounds, fmtDur(percentile(res.zproxyLat[round], 0.5)), fmtDur(percentile(res.pgLat[round], 0.5)), res.mismatches)
		}
	}
	for ci, c := range classes {
		res, run := &out[ci], &runs[ci]
		delta := run.metrics
		if delta.rowsReturned > 0 {
			res.itemsPerRow = delta.rowsRead / delta.rowsReturned
		}
		res.storeReqPerQuery = delta.storeRequests / float64(res.queries)
		res.rowsPerQuery = float64(run.zrows) / float64(res.queries)
		res.pgRowsPerQuery = float64(run.prows) / float64(res.queries)
		for i := 0; i < cfg.explainSamples && i < len(run.timed); i++ {
			a, text, err := explainAnalyze(ctx, zconn, literalSQL(c.zproxy, run.timed[i]))
			if err != nil {
				res.explainErr = err
				break
			}
			if c.factSQL != "" {
				var n int
				if err := pconn.QueryRow(ctx, c.factSQL, run.timed[i]...).Scan(&n); err != nil {
					return nil, fmt.Errorf("PostgreSQL %s: %w", c.factSQL, err)
				}
				res.factRows += n
			}
			if i == 0 {
				res.zproxyPlan = text
			}
			res.samples++
			res.sample.add(a)
		}
		res.pgPlan, res.pgTree, res.pgPlanErr = pgPlan(ctx, pconn, literalSQL(c.pg, run.timed[0]))
		if cfg.cpuprofileDir != "" {
			path, err := profileClass(ctx, zp, zconn, c, run.timed, cfg.cpuprofileDir, cfg.profileSeconds)
			if err != nil {
				return nil, fmt.Errorf("profiling %s: %w", c.name, err)
			}
			logf("  CPU profile of zproxy: %s", path)
		}
		if cfg.verbose {
			fmt.Fprintf(os.Stderr, "--- %s\nzproxy: %s\n%s\nPostgreSQL: %s\n%s\n", c.name, literalSQL(c.zproxy, run.timed[0]), res.zproxyPlan, literalSQL(c.pg, run.timed[0]), res.pgPlan)
		}
		logf("class %s: zproxy p50 %s, PostgreSQL p50 %s (medians of %d rounds), %.1f rows/query, %d mismatches",
			c.name, fmtDur(latency(res.zproxyLat, 0.5)), fmtDur(latency(res.pgLat, 0.5)), len(res.zproxyLat), res.rowsPerQuery, res.mismatches)
		if res.zproxyErr != nil {
			logf("  zproxy error (%d queries): %v", res.zproxyErrs, res.zproxyErr)
		}
		if res.firstMismatch != "" {
			logf("  first mismatch: %s", res.firstMismatch)
		}
	}
	return out, nil
}

// timeQuery runs sql with args on conn and returns its latency and its
// answer fingerprinted.
func timeQuery(ctx context.Context, conn *pgx.Conn, c queryClass, sql string, args []any) (time.Duration, result, int, error) {
	start := time.Now()
	got, err := runQuery(ctx, conn, sql, args)
	d := time.Since(start)
	if err != nil {
		return 0, result{rows: -1}, 0, fmt.Errorf("%s with %v: %w", sql, args, err)
	}
	return d, fingerprint(got, c.ordered, c.approx), len(got), nil
}

func addCounters(a, b counters) counters {
	return counters{a.rowsRead + b.rowsRead, a.rowsReturned + b.rowsReturned, a.storeRequests + b.storeRequests}
}

// measureClass runs one round of a class: each timed query on zproxy then
// on PostgreSQL, so that both meet the same moments of a shared machine's
// load, after the warm-up in the first round; and compares every answer.
func measureClass(ctx context.Context, c queryClass, run *classRun, res *classResult, first bool, zp *zproxyServer, meter *cpuMeter, zconn, pconn *pgx.Conn) error {
	if first {
		for _, args := range run.warm {
			if _, err := runQuery(ctx, zconn, c.zproxy, args); err != nil {
				res.zproxyErr = err
				break
			}
			if _, err := runQuery(ctx, pconn, c.pg, args); err != nil {
				return fmt.Errorf("PostgreSQL %s: %w", c.pg, err)
			}
		}
	}
	before, err := zp.scrape(ctx)
	if err != nil {
		return fmt.Errorf("metrics: %w", err)
	}
	var zcpu, pcpu time.Duration
	if meter != nil {
		if zcpu, pcpu, err = meter.read(); err != nil {
			return fmt.Errorf("CPU time: %w", err)
		}
	}
	var zlat, plat []time.Duration
	for _, args := range run.timed {
		zd, zres, zrows, err := timeQuery(ctx, zconn, c, c.zproxy, args)
		if err != nil {
			res.zproxyErrs++
			if res.zproxyErr == nil {
				res.zproxyErr = err
			}
		} else {
			zlat = append(zlat, zd)
			run.zrows += zrows
		}
		pd, pres, prows, err := timeQuery(ctx, pconn, c, c.pg, args)
		if err != nil {
			return fmt.Errorf("PostgreSQL: %w", err)
		}
		plat = append(plat, pd)
		run.prows += prows
		if !sameResult(zres, pres, c.aggregate) {
			res.mismatches++
			if res.firstMismatch == "" {
				res.firstMismatch = fmt.Sprintf("%s  -- zproxy %d rows %v, PostgreSQL %d rows %v",
					literalSQL(c.zproxy, args), zres.rows, zres.floats, pres.rows, pres.floats)
			}
		}
	}
	if meter != nil {
		z, p, err := meter.read()
		if err != nil {
			return fmt.Errorf("CPU time: %w", err)
		}
		res.zproxyCPU += z - zcpu
		res.pgCPU += p - pcpu
		res.cpuMeasured = true
	}
	// PostgreSQL's queries between zproxy's change none of its counters.
	after, err := zp.scrape(ctx)
	if err != nil {
		return fmt.Errorf("metrics: %w", err)
	}
	run.metrics = addCounters(run.metrics, after.minus(before))
	res.zproxyLat = append(res.zproxyLat, zlat)
	res.pgLat = append(res.pgLat, plat)
	res.queries += len(run.timed)
	return nil
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
