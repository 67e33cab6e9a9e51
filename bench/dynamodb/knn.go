package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// Nearest-neighbour queries: the readings' positions as points in a table
// of their own with a gist index (a Z-order index over x = lon, y = lat),
// and ORDER BY p <-> centre LIMIT k from centres placed uniformly in the
// domain. Each query's ids are compared with the k nearest computed here.

// knnTable is the table the kNN queries read; knnIndex its gist index.
const (
	knnTable = "knn_pts"
	knnIndex = "knn_p"
)

// knnCentre is one query point.
type knnCentre struct{ lat, lon float64 }

// knnCentres returns n centres placed uniformly in the domain.
func knnCentres(seed uint64, n int) []knnCentre {
	rng := rand.New(rand.NewPCG(seed, 0x6e6e))
	out := make([]knnCentre, n)
	for i := range out {
		out[i] = knnCentre{lat: latMin + rng.Float64()*degrees, lon: lonMin + rng.Float64()*degrees}
	}
	return out
}

func knnSQL(c knnCentre, k int) string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	return fmt.Sprintf("SELECT id FROM %s ORDER BY p <-> point '(%s,%s)', id LIMIT %d", knnTable, f(c.lon), f(c.lat), k)
}

// nearestIDs is the answer computed from the dataset: the ids (row
// numbers) of the k rows nearest to c, ties by id.
func (d dataset) nearestIDs(c knnCentre, k int) []int64 {
	type cand struct {
		id   int64
		dist float64
	}
	all := make([]cand, d.rows())
	for i := range all {
		r := d.rowAt(i)
		all[i] = cand{int64(i), math.Hypot(r.lon-c.lon, r.lat-c.lat)}
	}
	slices.SortFunc(all, func(a, b cand) int {
		if a.dist != b.dist {
			return cmpFloat(a.dist, b.dist)
		}
		return int(a.id - b.id)
	})
	out := make([]int64, 0, k)
	for _, c := range all[:min(k, len(all))] {
		out = append(out, c.id)
	}
	return out
}

func cmpFloat(a, b float64) int {
	if a < b {
		return -1
	}
	return 1
}

// ensureKNN creates and loads knn_pts (id = the row's number in the
// dataset, p = point(lon, lat)) unless it holds the dataset's rows already,
// then builds its gist index.
func ensureKNN(ctx context.Context, conn *pgx.Conn, ds dataset, shards int, logf func(string, ...any)) error {
	var count int64
	err := conn.QueryRow(ctx, "SELECT count(*) FROM "+knnTable).Scan(&count)
	switch {
	case err == nil && count == int64(ds.rows()):
		logf("reusing %s (%d rows)", knnTable, count)
		return nil
	case err == nil:
		return fmt.Errorf("%s holds %d rows, want %d", knnTable, count, ds.rows())
	case !isUndefinedTable(err):
		return err
	}
	if _, err := conn.Exec(ctx, fmt.Sprintf("CREATE TABLE %s (id BIGINT PRIMARY KEY, p point) WITH (shards = %d)", knnTable, shards)); err != nil {
		return err
	}
	start := time.Now()
	const batch = 100
	for lo := 0; lo < ds.rows(); lo += batch {
		var b strings.Builder
		fmt.Fprintf(&b, "INSERT INTO %s (id, p) VALUES ", knnTable)
		for i := lo; i < min(lo+batch, ds.rows()); i++ {
			if i > lo {
				b.WriteString(", ")
			}
			r := ds.rowAt(i)
			fmt.Fprintf(&b, "(%d, point(%s, %s))", i, strconv.FormatFloat(r.lon, 'g', -1, 64), strconv.FormatFloat(r.lat, 'g', -1, 64))
		}
		if err := execRetrying(ctx, conn, b.String(), nil, min(batch, ds.rows()-lo), func() {}); err != nil {
			return err
		}
	}
	idx := fmt.Sprintf("CREATE INDEX %s ON %s USING gist (p) WITH (shards = %d)", knnIndex, knnTable, shards)
	if _, err := conn.Exec(ctx, idx); err != nil {
		return fmt.Errorf("%s: %w", idx, err)
	}
	logf("loaded %s (%d rows) and built its gist index in %s", knnTable, ds.rows(), time.Since(start).Round(time.Second))
	return nil
}

// knnResult is one kNN query's figures.
type knnResult struct {
	requests, items, rows int
	rcu                   float64
	elapsed               time.Duration
	same                  bool
}

// runKNN runs one kNN query plainly (its ids compared with want) and under
// EXPLAIN ANALYZE for its items and requests.
func runKNN(ctx context.Context, conn *pgx.Conn, sql string, want []int64) (knnResult, error) {
	var r knnResult
	start := time.Now()
	rows, err := conn.Query(ctx, sql)
	if err != nil {
		return r, err
	}
	var got []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return r, err
		}
		got = append(got, id)
	}
	if err := rows.Err(); err != nil {
		return r, fmt.Errorf("%s: %w", sql, err)
	}
	r.elapsed = time.Since(start)
	r.rows, r.same = len(got), slices.Equal(got, want)
	text, err := explainText(ctx, conn, "EXPLAIN ANALYZE "+sql)
	if err != nil {
		return r, err
	}
	if !strings.Contains(text, "nearest: ") {
		return r, fmt.Errorf("plan is not a nearest-neighbour scan:\n%s", text)
	}
	r.items, r.requests, r.rcu, err = explainTotals(text)
	return r, err
}

// explainText returns EXPLAIN's lines as one text.
func explainText(ctx context.Context, conn *pgx.Conn, sql string) (string, error) {
	var text strings.Builder
	rows, err := conn.Query(ctx, sql, pgx.QueryExecModeSimpleProtocol)
	if err != nil {
		return "", err
	}
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			rows.Close()
			return "", err
		}
		text.WriteString(line)
		text.WriteByte('\n')
	}
	return text.String(), rows.Err()
}

// knnReport is one k's results.
type knnReport struct {
	k       int
	results []knnResult
}

// printKNN writes the kNN table: medians per query, items read per row
// over all the class's queries.
func printKNN(w io.Writer, reps []knnReport) {
	if len(reps) == 0 {
		return
	}
	fmt.Fprintf(w, "\n### Nearest neighbours: ORDER BY p <-> centre LIMIT k over %s's gist index\n\n", knnTable)
	fmt.Fprintln(w, "| k | queries | Query requests | items read | RCU | rows returned | items read / row | ms | same rows |")
	fmt.Fprintln(w, "|---:|---:|---:|---:|---:|---:|---:|---:|---|")
	for _, rep := range reps {
		var req, items, rcu, ms []float64
		totalItems, totalRows, same := 0, 0, "yes"
		for _, r := range rep.results {
			req = append(req, float64(r.requests))
			items = append(items, float64(r.items))
			rcu = append(rcu, r.rcu)
			ms = append(ms, float64(r.elapsed.Milliseconds()))
			totalItems += r.items
			totalRows += r.rows
			if !r.same {
				same = "no"
			}
		}
		perRow := 0.0
		if totalRows > 0 {
			perRow = float64(totalItems) / float64(totalRows)
		}
		fmt.Fprintf(w, "| %d | %d | %g | %g | %.1f | %d | %.2f | %g | %s |\n", rep.k, len(rep.results), median(req), median(items), median(rcu), rep.k, perRow, median(ms), same)
	}
}

// runKNNClasses loads knn_pts if needed and runs every k.
func runKNNClasses(ctx context.Context, conn *pgx.Conn, cfg settings, ds dataset, logf func(string, ...any)) ([]knnReport, error) {
	if len(cfg.knn) == 0 {
		return nil, nil
	}
	if err := ensureKNN(ctx, conn, ds, cfg.shards, logf); err != nil {
		return nil, err
	}
	centres := knnCentres(cfg.seed, cfg.queries)
	var reps []knnReport
	for _, k := range cfg.knn {
		rep := knnReport{k: k}
		for qi, c := range centres {
			r, err := runKNN(ctx, conn, knnSQL(c, k), ds.nearestIDs(c, k))
			if err != nil {
				return nil, fmt.Errorf("kNN k=%d, centre %d: %w", k, qi, err)
			}
			if !r.same {
				logf("kNN k=%d, centre %d (%s): rows differ from the computed nearest", k, qi, knnSQL(c, k))
			}
			rep.results = append(rep.results, r)
		}
		logf("kNN k=%d: %d queries done", k, len(rep.results))
		reps = append(reps, rep)
	}
	return reps, nil
}
