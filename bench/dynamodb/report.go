package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// queryResult is every method's measurement of one box.
type queryResult struct {
	zproxy       measurement
	metrics      counters // /metrics deltas of zproxy's plain run
	naive        measurement
	scan         *measurement  // nil when the box was not scanned
	sweep        []measurement // one per budget, nil when not swept
	planMismatch string
	problems     []string
}

// check compares the primary keys every method returned and records any
// difference in r.problems (a plan that differs from the harness's
// expectation is reported apart, in planMismatch: it is not a wrong row). The Scan's filter is the box test on the typed
// attributes over every index entry, so it is the reference when present.
func (r *queryResult) check(b box) {
	ref, refName := r.naive.keys, "naive Query"
	if r.scan != nil {
		ref, refName = r.scan.keys, "Scan"
	}
	compare := func(name string, m measurement) {
		if m.rows != len(m.keys) {
			r.problems = append(r.problems, fmt.Sprintf("%s returned %d rows but %d distinct keys", name, m.rows, len(m.keys)))
		}
		missing, extra := 0, 0
		for k := range ref {
			if !m.keys[k] {
				missing++
			}
		}
		for k := range m.keys {
			if !ref[k] {
				extra++
			}
		}
		if missing+extra > 0 {
			r.problems = append(r.problems, fmt.Sprintf("%s: %d rows, %d missing and %d extra against the %s's %d", name, m.rows, missing, extra, refName, len(ref)))
		}
	}
	compare("zproxy", r.zproxy)
	if r.scan != nil {
		compare("naive Query", r.naive)
	}
	for i, m := range r.sweep {
		compare(fmt.Sprintf("sweep #%d", i), m)
	}
}

// classReport gathers the results of one box class.
type classReport struct {
	class   boxClass
	budgets []int
	results []queryResult
}

// setupInfo describes the data and the load for the report header.
type setupInfo struct {
	rows, shards, batch, conns int
	retries                    int // loading statements retried after 40001/40P01
	mutability                 string
	loadTime                   time.Duration
	reused                     bool
	addrBits                   int
	leads                      string // by_place's WITH (leads = ...), "" for the default layout
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// row summarises measurements of one method: medians per query, and the
// ratio of total items read to total rows returned.
func row(w io.Writer, name string, ms []measurement, same string) {
	if len(ms) == 0 {
		return
	}
	var req, items, rcu, rows, ms_, ranges, empty []float64
	totalItems, totalRows := 0, 0
	for _, m := range ms {
		req = append(req, float64(m.requests))
		items = append(items, float64(m.items))
		rcu = append(rcu, m.rcu)
		rows = append(rows, float64(m.rows))
		ms_ = append(ms_, float64(m.elapsed.Microseconds())/1000)
		ranges = append(ranges, float64(m.ranges))
		empty = append(empty, float64(m.empty))
		totalItems += m.items
		totalRows += m.rows
	}
	ratio := "—"
	if totalRows > 0 {
		ratio = fmt.Sprintf("%.2f", float64(totalItems)/float64(totalRows))
	}
	rangeText := "—"
	if median(ranges) > 0 {
		rangeText = fmt.Sprintf("%g", median(ranges))
	}
	emptyText := fmt.Sprintf("%g", median(empty))
	if ms[0].emptyLower {
		emptyText = "≥ " + emptyText
	}
	fmt.Fprintf(w, "| %s | %d | %s | %g | %s | %g | %.1f | %g | %s | %.0f | %s |\n",
		name, len(ms), rangeText, median(req), emptyText, median(items), median(rcu), median(rows), ratio, median(ms_), same)
}

// medianRatio is the median of a[i] / b[i].
func medianRatio(a, b []float64) float64 {
	r := make([]float64, len(a))
	for i := range a {
		r[i] = a[i] / b[i]
	}
	return median(r)
}

func printReport(w io.Writer, s setupInfo, reports []classReport) {
	fmt.Fprintf(w, "## DynamoDB Local, %d rows, table and by_place with %d shard(s), %s\n\n", s.rows, s.shards, s.mutability)
	if s.reused {
		fmt.Fprintf(w, "Data reused from an earlier load.\n\n")
	} else {
		fmt.Fprintf(w, "Loaded through zproxy in %s (%.0f rows/s; %d rows per INSERT, %d connections; %d statements retried after a serialization failure).\n\n",
			s.loadTime.Round(time.Second), float64(s.rows)/s.loadTime.Seconds(), s.batch, s.conns, s.retries)
	}
	layout := "the default layout"
	if s.leads != "" {
		layout = "aligned to the data, leads " + s.leads
	}
	fmt.Fprintf(w, "Z-order index by_place (lat, lon, ts): %d-bit addresses, %s. Medians per query; items read / row is total items read over total rows returned; ms is wall time on DynamoDB Local (indicative only).\n\n", s.addrBits, layout)
	for _, rep := range reports {
		fmt.Fprintf(w, "### %s\n\n", rep.class)
		fmt.Fprintln(w, "| method | queries | ranges/shard | Query requests | of them empty | items read | RCU | rows returned | items read / row | ms | same rows |")
		fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
		var zp, naive, scan []measurement
		sweep := make([][]measurement, len(rep.budgets))
		bad := 0
		var extraReq, extraRCU []float64
		for _, r := range rep.results {
			zp = append(zp, r.zproxy)
			naive = append(naive, r.naive)
			if r.scan != nil {
				scan = append(scan, *r.scan)
			}
			for i, m := range r.sweep {
				sweep[i] = append(sweep[i], m)
			}
			if len(r.problems) > 0 {
				bad++
			}
			extraReq = append(extraReq, r.metrics.queries-float64(r.zproxy.requests))
			extraRCU = append(extraRCU, r.metrics.capacity-r.zproxy.rcu)
		}
		same := "yes"
		if bad > 0 {
			same = fmt.Sprintf("**no: %d of %d boxes differ**", bad, len(rep.results))
		}
		row(w, "(a) zproxy plan", zp, same)
		row(w, "(b) naive [zmin, zmax] + filter", naive, same)
		row(w, "(c) Scan + filter", scan, same)
		for i, b := range rep.budgets {
			row(w, fmt.Sprintf("(d) budget %d, clipped box, direct", b), sweep[i], same)
		}
		var est, got []float64
		for _, m := range zp {
			if m.estItems > 0 && m.items > 0 {
				est = append(est, m.estItems)
				got = append(got, float64(m.items))
			}
		}
		if len(est) > 0 {
			fmt.Fprintf(w, "\nzproxy's estimate of the entries its ranges read (EXPLAIN's budget line): median %.0f against %.0f read; estimate / read %.2f (median of the boxes' ratios).\n",
				median(est), median(got), medianRatio(est, got))
		}
		fmt.Fprintf(w, "\n/metrics deltas of zproxy's plain run beyond its EXPLAIN ANALYZE figures (median): %+g Query requests, %+.1f RCU.\n\n",
			median(extraReq), median(extraRCU))
	}
	var notes []string
	for _, rep := range reports {
		for _, r := range rep.results {
			notes = append(notes, r.problems...)
			if r.planMismatch != "" {
				notes = append(notes, "plan: "+r.planMismatch)
			}
		}
	}
	if len(notes) > 0 {
		fmt.Fprintf(w, "Problems (%d):\n\n", len(notes))
		for _, n := range notes[:min(len(notes), 20)] {
			fmt.Fprintf(w, "- %s\n", strings.ReplaceAll(n, "\n", " "))
		}
	}
}
