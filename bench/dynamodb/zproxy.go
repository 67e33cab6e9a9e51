package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/zproxy/zproxy/bench/internal/zpserver"
)

// zproxyServer is a zproxy process serving SQL on the DynamoDB backend.
type zproxyServer struct{ *zpserver.Server }

// startZproxy runs bin on the DynamoDB table at endpoint. Credentials and
// region come from the environment (the SDK's default chain).
func startZproxy(bin, endpoint, table string, port, metricsPort int) (*zproxyServer, error) {
	logf, err := os.CreateTemp("", "zproxy-bench-dynamodb-*.log")
	if err != nil {
		return nil, err
	}
	logf.Close()
	s, err := zpserver.Start(bin, logf.Name(), port, metricsPort,
		"--backend", "dynamodb", "--dynamodb-endpoint", endpoint, "--dynamodb-table", table, "--allow-full-scan")
	if err != nil {
		return nil, err
	}
	return &zproxyServer{s}, nil
}

func (z *zproxyServer) dsn() string { return z.DSN() }

func (z *zproxyServer) stop() {
	z.Stop()
	os.Remove(z.LogPath)
}

// counters are the zproxy metrics the harness reads around a query.
type counters struct {
	queries  float64 // zproxy_store_requests_total{backend="dynamodb",op="query"}
	capacity float64 // zproxy_dynamodb_consumed_capacity_total, every op
	rowsRead float64 // zproxy_rows_read_total
}

func (c counters) minus(o counters) counters {
	return counters{c.queries - o.queries, c.capacity - o.capacity, c.rowsRead - o.rowsRead}
}

// scrape reads the counters from zproxy's /metrics.
func (z *zproxyServer) scrape(ctx context.Context) (counters, error) {
	m, err := z.Scrape(ctx)
	if err != nil {
		return counters{}, err
	}
	return counters{
		queries:  m.Sum("zproxy_store_requests_total", map[string]string{"backend": "dynamodb", "op": "query"}),
		capacity: m.Sum("zproxy_dynamodb_consumed_capacity_total", nil),
		rowsRead: m.Sum("zproxy_rows_read_total", nil),
	}, nil
}

// insertSQL is a multi-row INSERT of n rows of placeholders.
func insertSQL(n int) string {
	var b strings.Builder
	b.WriteString("INSERT INTO readings (sensor_id, ts, celsius, lat, lon, note) VALUES ")
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		p := i*6 + 1
		fmt.Fprintf(&b, "($%d, $%d, $%d, $%d, $%d, $%d)", p, p+1, p+2, p+3, p+4, p+5)
	}
	return b.String()
}

// load inserts every row of ds, batch rows per statement, over conns
// connections, reporting progress every ~10%. It returns the load's time and
// how many statements were retried after a serialization failure.
func load(ctx context.Context, dsn string, ds dataset, batch, conns int, progress func(done int, elapsed time.Duration)) (time.Duration, int, error) {
	start := time.Now()
	rows := ds.rows()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	next := make(chan int)
	var mu sync.Mutex
	done, reported, retries := 0, 0, 0
	var wg sync.WaitGroup
	for range conns {
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			return 0, 0, err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer conn.Close(context.Background())
			for from := range next {
				to := min(from+batch, rows)
				args := make([]any, 0, (to-from)*6)
				for i := from; i < to; i++ {
					r := ds.rowAt(i)
					args = append(args, r.sensorID, r.ts.Format("2006-01-02 15:04:05.999999"), r.celsius, r.lat, r.lon, r.note)
				}
				err := execRetrying(ctx, conn, insertSQL(to-from), args, to-from, func() {
					mu.Lock()
					retries++
					mu.Unlock()
				})
				if err != nil {
					cancel(fmt.Errorf("insert rows [%d, %d): %w", from, to, err))
					return
				}
				mu.Lock()
				done += to - from
				if progress != nil && done-reported >= rows/10 {
					reported = done
					progress(done, time.Since(start))
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for from := 0; from < rows; from += batch {
		select {
		case next <- from:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		return 0, retries, err
	}
	return time.Since(start), retries, nil
}

// maxRetries bounds the attempts of one loading statement.
const maxRetries = 20

// execRetrying runs one multi-row INSERT of want rows, again after a
// serialization failure (40001) or deadlock (40P01): a statement whose
// writes exceed one atomic batch runs as a transaction, and concurrent
// loaders' transactions touching the same Z-order bounds item or index
// partition can conflict. PostgreSQL's advice for these SQLSTATEs is to
// retry the transaction; onRetry counts each retry.
func execRetrying(ctx context.Context, conn *pgx.Conn, sql string, args []any, want int, onRetry func()) error {
	backoff := 5 * time.Millisecond
	for attempt := 1; ; attempt++ {
		tag, err := conn.Exec(ctx, sql, args...)
		if err == nil {
			if tag.RowsAffected() != int64(want) {
				return fmt.Errorf("%d rows affected, want %d", tag.RowsAffected(), want)
			}
			return nil
		}
		if !isRetryable(err) || attempt == maxRetries {
			return err
		}
		onRetry()
		// Jittered exponential backoff, so the conflicting loaders do not
		// meet again at once.
		sleep := backoff/2 + rand.N(backoff)
		select {
		case <-time.After(sleep):
		case <-ctx.Done():
			return ctx.Err()
		}
		backoff = min(2*backoff, time.Second)
	}
}

// isRetryable reports a serialization failure or deadlock, by SQLSTATE.
func isRetryable(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "40001" || pgErr.Code == "40P01")
}

// boxSQL is the box query with its bounds inlined as literals, so the plain
// run and EXPLAIN ANALYZE see the very same text. Float bounds are written
// in the shortest form that parses back to the same float64.
func boxSQL(b box) string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	sql := fmt.Sprintf("SELECT sensor_id, ts FROM readings WHERE lat BETWEEN %s AND %s AND lon BETWEEN %s AND %s",
		f(b.latLo), f(b.latHi), f(b.lonLo), f(b.lonHi))
	if b.threeD {
		sql += fmt.Sprintf(" AND ts BETWEEN '%s' AND '%s'", tsText(b.tsLo), tsText(b.tsHi))
	}
	return sql
}

// pk identifies a row: (sensor_id, ts in µs).
type pk struct {
	sensor int64
	ts     int64
}

// measurement is what one method cost for one query.
type measurement struct {
	requests int     // DynamoDB Query (or Scan) requests
	items    int     // items read (before any filter)
	rcu      float64 // read capacity consumed
	rows     int     // rows returned
	elapsed  time.Duration
	keys     map[pk]bool
	ranges   int // key ranges per shard (zproxy's plan, the budget sweep)
	// empty counts requests that read no item. DynamoDB Local charges
	// them nothing; for zproxy's plan it is only known to be at least
	// requests - items.
	empty      int
	emptyLower bool
	// estItems is what zproxy's cost model expected its plan to read.
	estItems float64
}

// planStats are the figures EXPLAIN ANALYZE prints for the statement.
type planStats struct {
	items, requests, ranges int
	capacity                float64
	// estItems is the entries the cost model expected the chosen ranges to
	// read (EXPLAIN's z-order budget line); 0 when it printed none.
	estItems   float64
	firstRange string // "[0x…, 0x…)" as printed
}

var (
	executionLine = regexp.MustCompile(`Execution: [\d.]+ ms, (\d+) items read, (\d+) store requests`)
	capacityLine  = regexp.MustCompile(`Capacity consumed: ([\d.]+) units`)
	// EXPLAIN prints an address in full or, when long, as a hex prefix
	// followed by "…"; empty bounds print as min and max.
	rangesLine = regexp.MustCompile(`key ranges: (\d+) (\[(?:0x[0-9a-f]+…?|min), (?:0x[0-9a-f]+…?|max)\))`)
	methodLine = regexp.MustCompile(`via zorder index by_place: z-order ranges`)
	budgetLine = regexp.MustCompile(`z-order budget: \d+ ranges chosen by cost: ([\d.e+]+) entries`)
)

// startPrinted reports whether EXPLAIN's text of a range, "[lo, hi)" as
// matched by rangesLine, starts at addr.
func startPrinted(printed string, addr []byte) bool {
	lo, _, ok := strings.Cut(strings.TrimPrefix(printed, "["), ", ")
	if !ok {
		return false
	}
	if len(addr) == 0 {
		return lo == "min"
	}
	full := fmt.Sprintf("0x%x", addr)
	if short, cut := strings.CutSuffix(lo, "…"); cut {
		return strings.HasPrefix(full, short)
	}
	return lo == full
}

// parseExplain extracts the statement's store requests, items read,
// capacity and Z-order ranges from EXPLAIN ANALYZE text. It fails unless
// the plan is a Z-order range scan of by_place.
func parseExplain(text string) (planStats, error) {
	var ps planStats
	if !methodLine.MatchString(text) {
		return ps, fmt.Errorf("plan is not a z-order range scan of by_place:\n%s", text)
	}
	var err error
	if ps.items, ps.requests, ps.capacity, err = explainTotals(text); err != nil {
		return ps, err
	}
	if m := rangesLine.FindStringSubmatch(text); m != nil {
		ps.ranges, _ = strconv.Atoi(m[1])
		ps.firstRange = m[2]
	}
	if m := budgetLine.FindStringSubmatch(text); m != nil {
		ps.estItems, _ = strconv.ParseFloat(m[1], 64)
	}
	return ps, nil
}

// explainTotals extracts the statement's items read, store requests and
// capacity from EXPLAIN ANALYZE text.
func explainTotals(text string) (items, requests int, capacity float64, err error) {
	m := executionLine.FindStringSubmatch(text)
	if m == nil {
		return 0, 0, 0, fmt.Errorf("no Execution line in EXPLAIN ANALYZE:\n%s", text)
	}
	items, _ = strconv.Atoi(m[1])
	requests, _ = strconv.Atoi(m[2])
	c := capacityLine.FindStringSubmatch(text)
	if c == nil {
		return 0, 0, 0, fmt.Errorf("no Capacity line in EXPLAIN ANALYZE:\n%s", text)
	}
	capacity, _ = strconv.ParseFloat(c[1], 64)
	return items, requests, capacity, nil
}

// runZproxy runs the box query through zproxy: once plainly, collecting the
// primary keys and the /metrics deltas, then under EXPLAIN ANALYZE for the
// statement's own costs.
func runZproxy(ctx context.Context, z *zproxyServer, conn *pgx.Conn, b box) (measurement, planStats, counters, error) {
	sql := boxSQL(b)
	m := measurement{keys: map[pk]bool{}}
	before, err := z.scrape(ctx)
	if err != nil {
		return m, planStats{}, counters{}, err
	}
	start := time.Now()
	rows, err := conn.Query(ctx, sql)
	if err != nil {
		return m, planStats{}, counters{}, err
	}
	for rows.Next() {
		var id int64
		var ts time.Time
		if err := rows.Scan(&id, &ts); err != nil {
			rows.Close()
			return m, planStats{}, counters{}, err
		}
		m.keys[pk{id, ts.UnixMicro()}] = true
		m.rows++
	}
	if err := rows.Err(); err != nil {
		return m, planStats{}, counters{}, fmt.Errorf("%s: %w", sql, err)
	}
	m.elapsed = time.Since(start)
	after, err := z.scrape(ctx)
	if err != nil {
		return m, planStats{}, counters{}, err
	}
	text, err := explainText(ctx, conn, "EXPLAIN ANALYZE "+sql)
	if err != nil {
		return m, planStats{}, counters{}, err
	}
	ps, err := parseExplain(text)
	if err != nil {
		return m, ps, counters{}, err
	}
	m.requests, m.items, m.rcu, m.ranges, m.estItems = ps.requests, ps.items, ps.capacity, ps.ranges, ps.estItems
	m.empty, m.emptyLower = max(0, ps.requests-ps.items), true
	return m, ps, after.minus(before), nil
}
