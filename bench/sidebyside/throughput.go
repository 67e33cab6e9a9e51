package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
)

// throughputResult is the queries per second of one class at one client
// count on each system.
type throughputResult struct {
	class            string
	clients          int
	zproxy, pg       float64 // queries per second
	zproxyErr, pgErr error
}

// throughputClasses are the classes whose throughput issue 16 asks for
// at several client counts: point selects and the latest reading by key.
var throughputClasses = []string{"point", "latest by key"}

// throughput runs each throughput class on each system with each client
// count for the given duration: every client a connection of its own,
// issuing queries back to back with the class's parameters.
func throughput(ctx context.Context, cfg config, classes []queryClass, zp *zproxyServer, pg *postgres) []throughputResult {
	var out []throughputResult
	for _, name := range throughputClasses {
		i := slices.IndexFunc(classes, func(c queryClass) bool { return c.name == name })
		if i < 0 {
			continue
		}
		c := classes[i]
		for _, n := range cfg.throughputClients {
			r := throughputResult{class: c.name, clients: n}
			r.zproxy, r.zproxyErr = runClients(ctx, zp.dsn(), c, c.zproxy, n, cfg.throughputTime, cfg.seed)
			r.pg, r.pgErr = runClients(ctx, pg.dsn(), c, c.pg, n, cfg.throughputTime, cfg.seed)
			logf("throughput %s, %d clients: zproxy %.0f q/s, PostgreSQL %.0f q/s", c.name, n, r.zproxy, r.pg)
			out = append(out, r)
		}
	}
	return out
}

// runClients returns the queries per second n connections sustain running
// sql back to back for d.
func runClients(ctx context.Context, dsn string, c queryClass, sql string, n int, d time.Duration, seed uint64) (float64, error) {
	conns := make([]*pgx.Conn, n)
	defer func() {
		for _, conn := range conns {
			if conn != nil {
				conn.Close(context.Background())
			}
		}
	}()
	for i := range conns {
		var err error
		if conns[i], err = pgx.Connect(ctx, dsn); err != nil {
			return 0, err
		}
	}
	var done atomic.Int64
	var firstErr error
	var errOnce sync.Once
	var wg sync.WaitGroup
	deadline := time.Now().Add(d)
	start := time.Now()
	for i, conn := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(seed, uint64(1000+i)))
			for time.Now().Before(deadline) {
				if _, err := runQuery(ctx, conn, sql, c.gen(r)); err != nil {
					errOnce.Do(func() { firstErr = err })
					return
				}
				done.Add(1)
			}
		}()
	}
	wg.Wait()
	return float64(done.Load()) / time.Since(start).Seconds(), firstErr
}

func reportThroughput(w io.Writer, cfg config, results []throughputResult) {
	if len(results) == 0 {
		return
	}
	fmt.Fprintf(w, "\n### Throughput (each client its own connection, queries back to back for %s)\n\n", cfg.throughputTime)
	fmt.Fprintln(w, "| class | clients | zproxy q/s | PostgreSQL q/s | zproxy/PG |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|")
	for _, r := range results {
		ratio := "—"
		if r.pg > 0 {
			ratio = fmt.Sprintf("%.2f", r.zproxy/r.pg)
		}
		fmt.Fprintf(w, "| %s | %d | %.0f | %.0f | %s |\n", r.class, r.clients, r.zproxy, r.pg, ratio)
		if r.zproxyErr != nil || r.pgErr != nil {
			fmt.Fprintf(w, "\nerrors at %d clients: zproxy %v, PostgreSQL %v\n", r.clients, r.zproxyErr, r.pgErr)
		}
	}
}
