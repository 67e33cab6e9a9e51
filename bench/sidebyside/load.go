package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// insertSQL is a multi-row INSERT into table with n rows of placeholders.
func insertSQL(table string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "INSERT INTO %s (sensor_id, ts, celsius, lat, lon, note) VALUES ", table)
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		p := i*6 + 1
		fmt.Fprintf(&b, "($%d, $%d, $%d, $%d, $%d, $%d)", p, p+1, p+2, p+3, p+4, p+5)
	}
	return b.String()
}

// insertRange inserts rows [from, to) of ds into table as one multi-row
// INSERT.
func insertRange(ctx context.Context, conn *pgx.Conn, table string, ds dataset, from, to int) error {
	args := make([]any, 0, (to-from)*6)
	for i := from; i < to; i++ {
		r := ds.rowAt(i)
		var note any
		if r.note != nil {
			note = *r.note
		}
		args = append(args, r.sensorID, r.ts, r.celsius, r.lat, r.lon, note)
	}
	tag, err := conn.Exec(ctx, insertSQL(table, to-from), args...)
	if err != nil {
		return fmt.Errorf("insert rows [%d, %d) into %s: %w", from, to, table, err)
	}
	if tag.RowsAffected() != int64(to-from) {
		return fmt.Errorf("insert rows [%d, %d) into %s: %d rows affected", from, to, table, tag.RowsAffected())
	}
	return nil
}

// load inserts rows [0, rows) of ds into table over conns parallel
// connections, batch rows per statement, and returns the elapsed time.
func load(ctx context.Context, dsn, table string, ds dataset, rows, batch, conns int, progress func(done int)) (time.Duration, error) {
	start := time.Now()
	batches := make(chan int)
	errs := make(chan error, conns)
	var mu sync.Mutex
	done := 0
	var wg sync.WaitGroup
	for range conns {
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			return 0, err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer conn.Close(ctx)
			for from := range batches {
				to := min(from+batch, rows)
				if err := insertRange(ctx, conn, table, ds, from, to); err != nil {
					errs <- err
					// Drain so the producer never blocks.
					for range batches {
					}
					return
				}
				mu.Lock()
				done += to - from
				if progress != nil {
					progress(done)
				}
				mu.Unlock()
			}
		}()
	}
	for from := 0; from < rows; from += batch {
		batches <- from
	}
	close(batches)
	wg.Wait()
	select {
	case err := <-errs:
		return 0, err
	default:
	}
	return time.Since(start), nil
}

func execAll(ctx context.Context, conn *pgx.Conn, stmts ...string) error {
	for _, s := range stmts {
		if _, err := conn.Exec(ctx, s); err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
	}
	return nil
}
