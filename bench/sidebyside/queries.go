package main

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// queryClass is one kind of query, written for each system. The two texts
// take the same arguments and must return the same rows.
type queryClass struct {
	name      string
	zproxy    string
	pg        string
	ordered   bool // the result order is part of the answer
	aggregate bool // one row of numbers, compared with a tolerance
	// approx compares every row by its non-float columns exactly and its
	// floats with a tolerance: sums (avg) of the same values in another
	// order differ in the last bits.
	approx bool
	// factSQL, when set, counts the fact rows the query joins (the same
	// FROM and WHERE); PostgreSQL runs it outside the timing.
	factSQL string
	// stream numbers the class's parameter stream (with the seed): classes
	// that vary another one share its stream and so its parameters.
	stream uint64
	gen    func(r *rand.Rand) []any
}

// boxSide is the side, as a fraction of the domain, of a square lat/lon box
// expected to hold target rows when a fraction timeFrac of the time span is
// selected too.
func boxSide(target, rows int, timeFrac float64) float64 {
	side := math.Sqrt(float64(target) / (float64(rows) * timeFrac))
	return min(side, 1)
}

// randomBox returns lat/lon bounds of a square box of the given side
// (a fraction of the domain), placed uniformly inside the domain:
// latMin, latMax, lonMin, lonMax.
func randomBox(r *rand.Rand, side float64) (float64, float64, float64, float64) {
	w := side * degreeBox
	lat := latLo + r.Float64()*(degreeBox-w)
	lon := lonLo + r.Float64()*(degreeBox-w)
	return lat, lat + w, lon, lon + w
}

// pgBoxIndex selects how PostgreSQL answers box queries.
type pgBoxIndex string

const (
	pgBoxGiST  pgBoxIndex = "gist"  // GiST on point(lon, lat), queries use <@ box
	pgBoxBtree pgBoxIndex = "btree" // btree on (lat, lon), queries use BETWEEN
)

// boxPredicate is the 2-D box condition over $1..$4 (latMin, latMax,
// lonMin, lonMax) in each system's best spelling. Both are closed intervals.
func boxPredicate(forPG bool, mode pgBoxIndex) string {
	if forPG && mode == pgBoxGiST {
		return "point(lon, lat) <@ box(point($3, $1), point($4, $2))"
	}
	return "lat BETWEEN $1 AND $2 AND lon BETWEEN $3 AND $4"
}

func queryClasses(ds dataset, mode pgBoxIndex, boxRows, aggRows, inList int) []queryClass {
	rows := ds.rows()
	box2 := boxSide(boxRows, rows, 1)
	const box3TimeFrac = 0.125
	box3 := boxSide(boxRows, rows, box3TimeFrac)
	agg := boxSide(aggRows, rows, 1)
	both := func(format string) (string, string) {
		return fmt.Sprintf(format, boxPredicate(false, mode)), fmt.Sprintf(format, boxPredicate(true, mode))
	}
	var cs []queryClass
	cs = append(cs, queryClass{
		name:   "point",
		zproxy: "SELECT * FROM readings WHERE sensor_id = $1 AND ts = $2",
		gen: func(r *rand.Rand) []any {
			row := ds.row(r.Int64N(int64(ds.sensors)), r.IntN(ds.perSensor))
			return []any{row.sensorID, row.ts}
		},
	}, queryClass{
		name:   "key prefix",
		zproxy: "SELECT * FROM readings WHERE sensor_id = $1",
		gen:    func(r *rand.Rand) []any { return []any{r.Int64N(int64(ds.sensors))} },
	}, queryClass{
		name:   "secondary eq",
		zproxy: "SELECT note, ts, celsius FROM readings WHERE note = $1",
		gen: func(r *rand.Rand) []any {
			return []any{fmt.Sprintf("code-%05d", r.IntN(ds.notes))}
		},
	})
	z, p := both("SELECT sensor_id, ts, celsius FROM readings WHERE %s")
	cs = append(cs, queryClass{
		name: "2-D box", zproxy: z, pg: p,
		gen: func(r *rand.Rand) []any {
			a, b, c, d := randomBox(r, box2)
			return []any{a, b, c, d}
		},
	})
	z, p = both("SELECT sensor_id, ts, celsius FROM readings WHERE %s AND ts >= $5 AND ts < $6")
	cs = append(cs, queryClass{
		name: "3-D box", zproxy: z, pg: p,
		gen: func(r *rand.Rand) []any {
			a, b, c, d := randomBox(r, box3)
			window := time.Duration(float64(timeSpan) * box3TimeFrac)
			from := baseTime.Add(time.Duration(r.Int64N(int64(timeSpan-window))) / time.Second * time.Second)
			return []any{a, b, c, d, from, from.Add(window)}
		},
	})
	z, p = both("SELECT sensor_id, ts, celsius FROM readings WHERE %s ORDER BY ts DESC LIMIT 100")
	cs = append(cs, queryClass{
		name: "box top-100", zproxy: z, pg: p, ordered: true,
		gen: func(r *rand.Rand) []any {
			a, b, c, d := randomBox(r, box2)
			return []any{a, b, c, d}
		},
	})
	z, p = both("SELECT count(*), avg(celsius) FROM readings WHERE %s")
	cs = append(cs, queryClass{
		name: "box aggregate", zproxy: z, pg: p, aggregate: true,
		gen: func(r *rand.Rand) []any {
			a, b, c, d := randomBox(r, agg)
			return []any{a, b, c, d}
		},
	})
	placeholders := make([]string, inList)
	for i := range placeholders {
		placeholders[i] = "$" + strconv.Itoa(i+1)
	}
	cs = append(cs, queryClass{
		name:   "IN list",
		zproxy: "SELECT * FROM readings WHERE sensor_id IN (" + strings.Join(placeholders, ", ") + ")",
		gen: func(r *rand.Rand) []any {
			args := make([]any, inList)
			for i, s := range r.Perm(ds.sensors)[:inList] {
				args[i] = int64(s)
			}
			return args
		},
	})
	for i := range cs {
		if cs[i].pg == "" {
			cs[i].pg = cs[i].zproxy
		}
		cs[i].stream = uint64(i + 1)
	}
	return cs
}

// result is what a query returned, reduced to a comparable fingerprint.
type result struct {
	rows   int
	hash   uint64    // of the rows (order-insensitive unless the class is ordered)
	floats []float64 // the single row of an aggregate, compared with a tolerance
	lines  []approxRow
}

// approxRow is one row of an approx class: its non-float columns rendered,
// and its floats.
type approxRow struct {
	exact  string
	floats []float64
}

// runQuery runs sql and returns its rows decoded, as a client would use
// them; fingerprinting them is left to the caller, outside the timing.
func runQuery(ctx context.Context, conn *pgx.Conn, sql string, args []any) ([][]any, error) {
	rows, err := conn.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out [][]any
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			return nil, err
		}
		out = append(out, vals)
	}
	return out, rows.Err()
}

// fingerprint reduces rows to a result that compares across servers.
func fingerprint(rows [][]any, ordered, approx bool) result {
	res := result{rows: len(rows)}
	if approx {
		for _, vals := range rows {
			var a approxRow
			for _, v := range vals {
				switch x := v.(type) {
				case float64:
					a.floats = append(a.floats, x)
				case float32:
					a.floats = append(a.floats, float64(x))
				default:
					a.exact += canonical(v) + "|"
				}
			}
			res.lines = append(res.lines, a)
		}
		if !ordered {
			slices.SortFunc(res.lines, func(a, b approxRow) int { return strings.Compare(a.exact, b.exact) })
		}
		return res
	}
	h := fnv.New64a()
	var line strings.Builder
	for _, vals := range rows {
		line.Reset()
		res.floats = res.floats[:0]
		for _, v := range vals {
			line.WriteString(canonical(v))
			line.WriteByte('|')
			if f, ok := asFloat(v); ok {
				res.floats = append(res.floats, f)
			}
		}
		if ordered {
			h.Write([]byte(line.String()))
			h.Write([]byte{'\n'})
		} else {
			rh := fnv.New64a()
			rh.Write([]byte(line.String()))
			res.hash += rh.Sum64()
		}
	}
	if ordered {
		res.hash = h.Sum64()
	}
	if res.rows != 1 {
		res.floats = nil
	}
	return res
}

// sameResult reports whether two systems' answers agree: the same rows, or
// for a single numeric row the same numbers up to floating-point summation
// order.
func sameResult(a, b result, aggregate bool) bool {
	if a.rows != b.rows {
		return false
	}
	if a.lines != nil || b.lines != nil {
		if len(a.lines) != len(b.lines) {
			return false
		}
		for i := range a.lines {
			if a.lines[i].exact != b.lines[i].exact || !closeFloats(a.lines[i].floats, b.lines[i].floats) {
				return false
			}
		}
		return true
	}
	if aggregate && len(a.floats) == len(b.floats) && len(a.floats) > 0 {
		return closeFloats(a.floats, b.floats)
	}
	return a.hash == b.hash
}

// closeFloats reports whether two lists of floats agree up to the rounding
// of floating-point summation order.
func closeFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if math.IsNaN(x) && math.IsNaN(y) {
			continue
		}
		if math.Abs(x-y) > 1e-9*math.Max(1, math.Max(math.Abs(x), math.Abs(y))) {
			return false
		}
	}
	return true
}

// canonical renders a decoded value the same way whichever server sent it.
func canonical(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case time.Time:
		return x.UTC().Format("2006-01-02 15:04:05.999999")
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 32)
	case int64, int32, int16, string, bool:
		return fmt.Sprint(x)
	}
	if f, ok := asFloat(v); ok {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return fmt.Sprintf("%T:%v", v, v)
}

func asFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case int64:
		return float64(x), true
	case int32:
		return float64(x), true
	case int16:
		return float64(x), true
	case pgtype.Numeric:
		f, err := x.Float64Value()
		return f.Float64, err == nil && f.Valid
	case string:
		f, err := strconv.ParseFloat(x, 64)
		return f, err == nil
	}
	return 0, false
}

// literalSQL substitutes args for $n so the statement can run under EXPLAIN
// with the simple protocol.
func literalSQL(sql string, args []any) string {
	for i := len(args); i >= 1; i-- {
		sql = strings.ReplaceAll(sql, "$"+strconv.Itoa(i), literal(args[i-1]))
	}
	return sql
}

func literal(v any) string {
	switch x := v.(type) {
	case time.Time:
		return "'" + x.UTC().Format("2006-01-02 15:04:05.999999") + "'"
	case string:
		return "'" + strings.ReplaceAll(x, "'", "''") + "'"
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}

// analyzed is what zproxy's EXPLAIN ANALYZE says about one query (or, summed,
// about several).
type analyzed struct {
	path          string // access path of the (first) scan
	scanRows      int    // rows the scans returned after their residual filters
	itemsRead     int
	storeRequests int
	nodes         []nodeStat // every operator, in plan order
}

// nodeStat is one operator's line of EXPLAIN ANALYZE.
type nodeStat struct {
	head                  string // the operator, without its statistics
	rows, items, requests int
	timeMS                float64
}

// add sums b into a; the operators are summed one by one while both plans
// have the same shape (a prepared class usually keeps its plan).
func (a *analyzed) add(b analyzed) {
	if a.path == "" {
		a.path = b.path
	}
	a.scanRows += b.scanRows
	a.itemsRead += b.itemsRead
	a.storeRequests += b.storeRequests
	if a.nodes == nil {
		a.nodes = slices.Clone(b.nodes)
		return
	}
	if len(a.nodes) != len(b.nodes) {
		return
	}
	for i := range a.nodes {
		if a.nodes[i].head != b.nodes[i].head {
			return
		}
	}
	for i := range a.nodes {
		a.nodes[i].rows += b.nodes[i].rows
		a.nodes[i].items += b.nodes[i].items
		a.nodes[i].requests += b.nodes[i].requests
		a.nodes[i].timeMS += b.nodes[i].timeMS
	}
}

var (
	scanLine      = regexp.MustCompile(`Scan \S+ via (.*?)\s+\(actual rows=(\d+)`)
	executionLine = regexp.MustCompile(`Execution: [\d.]+ ms, (\d+) items read, (\d+) store requests`)
	actualLine    = regexp.MustCompile(`^\s*(?:->\s*)?(.*?)\s+\(actual rows=(\d+) time=([\d.]+)ms(?: loops=\d+)?(?: items read=(\d+) store requests=(\d+))?`)
)

func explainAnalyze(ctx context.Context, conn *pgx.Conn, sql string) (analyzed, string, error) {
	rows, err := conn.Query(ctx, "EXPLAIN ANALYZE "+sql, pgx.QueryExecModeSimpleProtocol)
	if err != nil {
		return analyzed{}, "", err
	}
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return analyzed{}, "", err
	}
	var a analyzed
	for _, l := range lines {
		if m := scanLine.FindStringSubmatch(l); m != nil {
			if a.path == "" {
				a.path = m[1]
			}
			n, _ := strconv.Atoi(m[2])
			a.scanRows += n
		}
		if m := executionLine.FindStringSubmatch(l); m != nil {
			a.itemsRead, _ = strconv.Atoi(m[1])
			a.storeRequests, _ = strconv.Atoi(m[2])
		}
		if m := actualLine.FindStringSubmatch(l); m != nil {
			n := nodeStat{head: m[1]}
			n.rows, _ = strconv.Atoi(m[2])
			n.timeMS, _ = strconv.ParseFloat(m[3], 64)
			n.items, _ = strconv.Atoi(m[4])
			n.requests, _ = strconv.Atoi(m[5])
			a.nodes = append(a.nodes, n)
		}
	}
	return a, strings.Join(lines, "\n"), nil
}

// pgPlan returns PostgreSQL's plan for sql: one line of its nodes and
// buffer counts without the indented detail lines, and the tree of its nodes
// with their actual rows.
func pgPlan(ctx context.Context, conn *pgx.Conn, sql string) (string, string, error) {
	rows, err := conn.Query(ctx, "EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, SUMMARY OFF) "+sql, pgx.QueryExecModeSimpleProtocol)
	if err != nil {
		return "", "", err
	}
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return "", "", err
	}
	var nodes, tree []string
	for _, l := range lines {
		t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "->"))
		if strings.Contains(l, "(cost=") || strings.HasPrefix(t, "Buffers:") || strings.HasPrefix(t, "Heap Fetches") {
			if i := strings.Index(t, "  (cost="); i >= 0 {
				t = t[:i]
			}
			nodes = append(nodes, t)
		}
		if i := strings.Index(l, "  (cost="); i >= 0 {
			actual := ""
			if j := strings.Index(l, "(actual"); j >= 0 {
				actual = "  " + l[j:]
			}
			tree = append(tree, l[:i]+actual)
		}
	}
	return strings.Join(nodes, "; "), strings.Join(tree, "\n"), nil
}
