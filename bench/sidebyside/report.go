package main

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"
)

// report prints the results as Markdown, ready to paste into a README.
func report(w io.Writer, cfg config, ds dataset, pgVersion string, pgSettings []string, loads []loadResult, results []classResult, inserts []insertResult, loadAvg []string) {
	fmt.Fprintf(w, "\n## Side-by-side: zproxy (embedded Pebble) vs PostgreSQL %s\n\n", pgVersion)
	fmt.Fprintf(w, "%d rows (%d sensors × %d readings, seed %d), %d timed queries per class after %d warm-up, one connection each, %d CPUs (%s/%s).\n",
		ds.rows(), ds.sensors, ds.perSensor, cfg.seed, cfg.iterations, cfg.warmup, runtime.NumCPU(), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(w, "Machine load average (1/5/15 min) before loading: %s; after the queries: %s.\n", loadAvg[0], loadAvg[len(loadAvg)-1])
	aligned := cfg.zorderLayout()
	if aligned != "" {
		aligned += ", built after the load"
	}
	after := "ANALYZE"
	if cfg.zproxyVacuum {
		after = "VACUUM ANALYZE"
	}
	fmt.Fprintf(w, "zproxy: shards = %d%s, %s; indexes (note, ts) INCLUDE (celsius) and USING zorder (lat, lon, ts) INCLUDE (celsius, note)%s; %s after the load.\n", cfg.shards, shardColumnsNote(cfg), cfg.mutability, aligned, after)
	box := "GiST on point(lon, lat) INCLUDE (lat, lon, ts, sensor_id, celsius), boxes written as point(lon, lat) <@ box(...)"
	if cfg.pgBox == pgBoxBtree {
		box = "btree on (lat, lon) INCLUDE (ts, sensor_id, celsius), boxes written with BETWEEN"
	}
	fmt.Fprintf(w, "PostgreSQL: default settings (%s); btree (note, ts) INCLUDE (celsius); %s; VACUUM ANALYZE.\n\n", strings.Join(pgSettings, ", "), box)

	reportLoads(w, cfg, ds, loads)
	fmt.Fprintln(w, "| class | rows/query | zproxy p50 | zproxy p99 | PG p50 | PG p99 | p50 ratio zproxy/PG | zproxy CPU / query | PG CPU / query | CPU ratio | items read / matching row | items read / row returned | store requests / query | same rows as PG |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
	for _, r := range results {
		lat := latencyCells(r)
		same := sameCell(r)
		items := "—"
		if r.itemsPerRow > 0 {
			items = fmt.Sprintf("%.2f", r.itemsPerRow)
		}
		amp := "—"
		if r.sample.scanRows > 0 {
			amp = fmt.Sprintf("%.2f", float64(r.sample.itemsRead)/float64(r.sample.scanRows))
		}
		fmt.Fprintf(w, "| %s | %.1f | %s | %s | %s | %s | %.1f | %s |\n",
			r.class.name, r.pgRowsPerQuery, lat, cpuCells(r), amp, items, r.storeReqPerQuery, same)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Items read / matching row: items read ÷ rows the scan produced after its residual filter, summed over EXPLAIN ANALYZE of the first %d timed queries of the class (the read amplification; for the aggregate and top-100 classes it counts the rows under the box, not the rows sent). Items read / row returned: zproxy_rows_read_total ÷ zproxy_rows_returned_total over all timed queries (rows sent to the client). Store requests / query: zproxy_store_requests_total delta ÷ queries. Latency is wall time at the client from sending the query to the last row decoded; CPU / query is the CPU time each server process spent over the timed queries ÷ queries (/proc schedstat), which a busy machine's neighbours move far less than latency.\n\n", cfg.explainSamples)
	fmt.Fprintln(w, "Access paths (zproxy: EXPLAIN ANALYZE; PostgreSQL: EXPLAIN (ANALYZE, BUFFERS) of the first timed query):")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| class | zproxy path | items read / scan row (samples) | PostgreSQL plan |")
	fmt.Fprintln(w, "|---|---|---:|---|")
	for _, r := range results {
		amp := "—"
		if r.sample.scanRows > 0 {
			amp = fmt.Sprintf("%.2f (%d / %d)", float64(r.sample.itemsRead)/float64(r.sample.scanRows), r.sample.itemsRead, r.sample.scanRows)
		}
		path := r.sample.path
		if r.explainErr != nil {
			path = "EXPLAIN ANALYZE failed: " + r.explainErr.Error()
		}
		plan := r.pgPlan
		if r.pgPlanErr != nil {
			plan = "EXPLAIN failed: " + r.pgPlanErr.Error()
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", r.class.name, path, amp, strings.ReplaceAll(plan, "|", "\\|"))
	}
	reportProblems(w, results)
	if len(inserts) > 0 {
		fmt.Fprintf(w, "\n### INSERT throughput (%d connections, %d rows per statement, %d rows per configuration, indexes maintained while inserting, shards = %d)\n\n", cfg.loadConns, cfg.batch, inserts[0].rows, cfg.shards)
		fmt.Fprintln(w, "| system | mutability | 0 indexes | 1 index (btree) | 2 indexes (+ Z-order / GiST) |")
		fmt.Fprintln(w, "|---|---|---:|---:|---:|")
		for i := 0; i+2 < len(inserts); i += 3 {
			mut := inserts[i].mutability
			if mut == "" {
				mut = "—"
			}
			fmt.Fprintf(w, "| %s | %s |", inserts[i].system, mut)
			for _, r := range inserts[i : i+3] {
				fmt.Fprintf(w, " %.0f rows/s", r.rowsPerSecond())
				if c := perRow(r.cpu, int64(r.rows)); c != "" {
					fmt.Fprintf(w, ", CPU %s/row", c)
				}
				fmt.Fprint(w, " |")
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w, "\nCPU/row: the server's CPU time over the rows (/proc schedstat; PostgreSQL's whole cluster), zproxy's until it is idle again, its flushes and compactions included.")
	}
}

// reportLoads prints how loading went on each system.
func reportLoads(w io.Writer, cfg config, ds dataset, loads []loadResult) {
	fmt.Fprintln(w, "| load (multi-row INSERT) | rows/s | time | CPU/row | after |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---|")
	for _, l := range loads {
		extra := l.bytes
		if l.indexTime > 0 {
			extra = fmt.Sprintf("CREATE INDEX + VACUUM ANALYZE %s (CPU %s/row); %s", l.indexTime.Round(time.Millisecond), perRow(l.indexCPU, int64(ds.rows())), l.bytes)
		}
		fmt.Fprintf(w, "| %s, %d rows/statement, %d conns | %.0f | %s | %s | %s; count(*) = %d |\n",
			l.system, cfg.batch, cfg.loadConns, float64(ds.rows())/l.elapsed.Seconds(), l.elapsed.Round(time.Millisecond), perRow(l.cpu, int64(ds.rows())), extra, l.rowsStored)
	}
	fmt.Fprintln(w)
}

// reportStar prints the star workload's results as Markdown.
func reportStar(w io.Writer, cfg config, ds dataset, pgVersion string, pgSettings []string, loads []loadResult, results []classResult, loadAvg []string) {
	fmt.Fprintf(w, "\n## Star join: zproxy (embedded Pebble) vs PostgreSQL %s\n\n", pgVersion)
	fmt.Fprintf(w, "readings: %d rows (%d sensors × %d readings, seed %d); sensors: %d rows; regions: %d rows. %d rounds of %d timed queries per class after %d warm-up, one connection each, %d CPUs (%s/%s).\n",
		ds.rows(), ds.sensors, ds.perSensor, cfg.seed, ds.sensors, starRegions, cfg.rounds, cfg.iterations, cfg.warmup, runtime.NumCPU(), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(w, "Machine load average (1/5/15 min) before loading: %s; after the queries: %s.\n", loadAvg[0], loadAvg[len(loadAvg)-1])
	fmt.Fprintf(w, "zproxy: shards = %d, %s; readings indexes (note, ts) INCLUDE (celsius) and USING zorder (lat, lon, ts) INCLUDE (celsius, note).\n", cfg.shards, cfg.mutability)
	fmt.Fprintf(w, "PostgreSQL: default settings (%s); the same readings indexes as the readings workload (%s); VACUUM ANALYZE on every table.\n\n", strings.Join(pgSettings, ", "), cfg.pgBox)
	reportLoads(w, cfg, ds, loads)
	reportFactClasses(w, cfg, results)
}

// reportFactClasses prints the tables of classes whose rows are counted by
// their factSQL (the star joins' fact rows, the documents a docs query
// returns): latency, CPU, items read per fact row, the operators and plans.
func reportFactClasses(w io.Writer, cfg config, results []classResult) {
	fmt.Fprintln(w, "| class | rows/query | fact rows/query | zproxy p50 | zproxy p99 | PG p50 | PG p99 | p50 ratio zproxy/PG | zproxy CPU / query | PG CPU / query | CPU ratio | items read / fact row | store requests / query | same rows as PG |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
	for _, r := range results {
		lat := latencyCells(r)
		same := sameCell(r)
		facts, perFact, reqs := "—", "—", "—"
		if r.samples > 0 {
			facts = fmt.Sprintf("%.1f", float64(r.factRows)/float64(r.samples))
			reqs = fmt.Sprintf("%.1f", float64(r.sample.storeRequests)/float64(r.samples))
		}
		if r.factRows > 0 {
			perFact = fmt.Sprintf("%.2f", float64(r.sample.itemsRead)/float64(r.factRows))
		}
		fmt.Fprintf(w, "| %s | %.1f | %s | %s | %s | %s | %s | %s |\n",
			r.class.name, r.pgRowsPerQuery, facts, lat, cpuCells(r), perFact, reqs, same)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Latencies: client wall time from sending the query to the last row decoded; each figure is the median over the %d rounds of that round's percentile. CPU / query: CPU time the server's processes ran during the class's timed queries (zproxy's threads; PostgreSQL's postmaster, backends and parallel workers), from /proc, divided by the queries: unlike wall time, it hardly depends on what else the machine runs. Fact rows: readings rows the query joins (every condition applied), counted by PostgreSQL. Items read / fact row and store requests / query: zproxy's EXPLAIN ANALYZE totals over the first %d timed queries of the class.\n\n", cfg.rounds, cfg.explainSamples)

	fmt.Fprintln(w, "Where zproxy reads (EXPLAIN ANALYZE per operator, mean per query over the samples):")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| class | operator | rows | items read | store requests | ms (incl. inputs) |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|")
	for _, r := range results {
		if r.samples == 0 {
			continue
		}
		n := float64(r.samples)
		for _, op := range r.sample.nodes {
			items, reqs := "", ""
			if op.items > 0 || op.requests > 0 {
				items, reqs = fmt.Sprintf("%.1f", float64(op.items)/n), fmt.Sprintf("%.1f", float64(op.requests)/n)
			}
			fmt.Fprintf(w, "| %s | %s | %.1f | %s | %s | %.2f |\n", r.class.name, strings.ReplaceAll(op.head, "|", "\\|"), float64(op.rows)/n, items, reqs, op.timeMS/n)
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| class | zproxy plan (bottom up) | PostgreSQL plan (top down) |")
	fmt.Fprintln(w, "|---|---|---|")
	for _, r := range results {
		var chain []string
		for i := len(r.sample.nodes) - 1; i >= 0; i-- {
			if h := r.sample.nodes[i].head; h != "Project" {
				chain = append(chain, h)
			}
		}
		var pg []string
		for _, l := range strings.Split(r.pgTree, "\n") {
			l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "->"))
			if i := strings.Index(l, "  (actual"); i >= 0 {
				l = l[:i]
			}
			pg = append(pg, l)
		}
		fmt.Fprintf(w, "| %s | %s | %s |\n", r.class.name, strings.Join(chain, " → "), strings.Join(pg, "; "))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Plans of the first timed query of each class:")
	for _, r := range results {
		fmt.Fprintf(w, "\n%s: `%s`\n\n", r.class.name, literalSQL(r.class.zproxy, nil))
		plan := r.zproxyPlan
		if r.explainErr != nil {
			plan = "EXPLAIN ANALYZE failed: " + r.explainErr.Error()
		}
		pg := r.pgTree
		if r.pgPlanErr != nil {
			pg = "EXPLAIN failed: " + r.pgPlanErr.Error()
		}
		fmt.Fprintf(w, "```\nzproxy:\n%s\n\nPostgreSQL:\n%s\n```\n", plan, pg)
	}
	reportProblems(w, results)
}

// latencyCells are the table cells zproxy p50, zproxy p99, PG p50, PG p99
// and their p50 ratio.
func latencyCells(r classResult) string {
	zp50, pp50 := latency(r.zproxyLat, 0.5), latency(r.pgLat, 0.5)
	ratio := "—"
	if pp50 > 0 && zp50 > 0 {
		ratio = fmt.Sprintf("%.2f", float64(zp50)/float64(pp50))
	}
	return strings.Join([]string{fmtDur(zp50), fmtDur(latency(r.zproxyLat, 0.99)), fmtDur(pp50), fmtDur(latency(r.pgLat, 0.99)), ratio}, " | ")
}

// sameCell says whether zproxy answered every query as PostgreSQL did.
func sameCell(r classResult) string {
	same := "yes"
	if r.mismatches > 0 {
		same = fmt.Sprintf("**NO: %d of %d differ**", r.mismatches, r.queries)
	}
	if r.zproxyErrs > 0 {
		same += fmt.Sprintf(" (**%d zproxy errors**)", r.zproxyErrs)
	}
	return same
}

// reportProblems lists the classes whose answers differed or failed.
func reportProblems(w io.Writer, results []classResult) {
	var problems []string
	for _, r := range results {
		if r.firstMismatch != "" {
			problems = append(problems, fmt.Sprintf("- %s: %d of %d results differ; first: `%s`", r.class.name, r.mismatches, r.queries, r.firstMismatch))
		}
		if r.zproxyErr != nil {
			problems = append(problems, fmt.Sprintf("- %s: %d zproxy errors; first: %v", r.class.name, r.zproxyErrs, r.zproxyErr))
		}
	}
	if len(problems) > 0 {
		fmt.Fprintln(w, "\nProblems:")
		fmt.Fprintln(w, strings.Join(problems, "\n"))
	}
}

// cpuCells are the table cells zproxy CPU / query, PG CPU / query and
// their ratio.
func cpuCells(r classResult) string {
	if !r.cpuMeasured || r.queries == 0 {
		return "— | — | —"
	}
	z, p := r.zproxyCPU/time.Duration(r.queries), r.pgCPU/time.Duration(r.queries)
	ratio := "—"
	if p > 0 {
		ratio = fmt.Sprintf("%.2f", float64(z)/float64(p))
	}
	return strings.Join([]string{fmtDur(z), fmtDur(p), ratio}, " | ")
}

// shardColumnsNote is ", shard_columns = (...)" when the readings table had them.
func shardColumnsNote(cfg config) string {
	if cfg.shardColumns == "" {
		return ""
	}
	return fmt.Sprintf(", shard_columns = (%s)", cfg.shardColumns)
}
