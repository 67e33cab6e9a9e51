package main

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// insertResult is one configuration of the INSERT throughput benchmark.
type insertResult struct {
	system     string
	mutability string
	indexes    int
	rows       int
	elapsed    time.Duration
	cpu        time.Duration // the server's, compactions included (writecpu.go)
}

func (r insertResult) rowsPerSecond() float64 { return float64(r.rows) / r.elapsed.Seconds() }

// insertThroughput times multi-row INSERTs over -load-conns connections
// into fresh tables with 0, 1 and 2 indexes, each system's indexes in place
// and maintained by the INSERTs: zproxy mutable and immutable_rows, and
// PostgreSQL with its counterpart indexes for reference.
func insertThroughput(ctx context.Context, cfg config, zp *zproxyServer, pg *postgres) ([]insertResult, error) {
	ds := newDataset(cfg.seed+1, cfg.insertRows, cfg.perSensor)
	rows := ds.rows()
	var out []insertResult
	meter := writeMeter(zp, pg)
	type setup struct {
		system, mutability string
		dsn                string
	}
	setups := []setup{
		{"zproxy", "mutable", zp.dsn()},
		{"zproxy", "immutable_rows", zp.dsn()},
		{"PostgreSQL", "", pg.dsn()},
	}
	for _, s := range setups {
		conn, err := pgx.Connect(ctx, s.dsn)
		if err != nil {
			return nil, err
		}
		for n := 0; n <= 2; n++ {
			table := fmt.Sprintf("ins_%s_%d", map[string]string{"mutable": "m", "immutable_rows": "i", "": "pg"}[s.mutability], n)
			var stmts []string
			if s.system == "zproxy" {
				with := fmt.Sprintf("shards = %d", cfg.shards)
				if s.mutability == "immutable_rows" {
					with += ", mutability = 'immutable_rows'"
				}
				stmts = append([]string{fmt.Sprintf("CREATE TABLE %s (%s) WITH (%s)", table, readingsColumns, with)}, zproxyIndexes(table, n)...)
			} else {
				stmts = append([]string{fmt.Sprintf("CREATE TABLE %s (%s)", table, readingsColumns)}, pgIndexes(table, n, cfg.pgBox)...)
			}
			if err := execAll(ctx, conn, stmts...); err != nil {
				conn.Close(ctx)
				return nil, fmt.Errorf("%s: %w", s.system, err)
			}
			cpu := startCPU(meter, s.system)
			elapsed, err := load(ctx, s.dsn, table, ds, rows, cfg.batch, cfg.loadConns, nil)
			if err != nil {
				conn.Close(ctx)
				return nil, err
			}
			r := insertResult{system: s.system, mutability: s.mutability, indexes: n, rows: rows, elapsed: elapsed, cpu: cpu.stop(ctx)}
			logf("insert: %s %s %d indexes: %d rows in %s, %.0f rows/s, CPU %s/row", s.system, s.mutability, n, rows, elapsed.Round(time.Millisecond), r.rowsPerSecond(), perRow(r.cpu, int64(rows)))
			out = append(out, r)
		}
		conn.Close(ctx)
	}
	return out, nil
}
