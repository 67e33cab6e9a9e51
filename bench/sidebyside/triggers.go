package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// The triggers workload (-workload triggers): the insert rate of a
// trigger-maintained table, as schemas carry them: a BEFORE ROW trigger
// that sets updated_at and an AFTER ROW audit trigger that writes each
// row's history into a second table, against the same table without
// triggers, on both systems. Each configuration inserts -trigger-rows
// rows over one connection, as single-row INSERTs (one statement, its
// own transaction, per row: the OLTP shape) and as 1000-row INSERTs (a
// batch load), into freshly created tables.

const triggerBatch = 1000

// triggerSchema creates the tables (suffix names them) with or without
// the triggers; the SQL is the same on both systems.
func triggerSchema(suffix string, triggers bool) []string {
	items, hist := "tr_items_"+suffix, "tr_history_"+suffix
	stmts := []string{
		fmt.Sprintf("CREATE TABLE %s (id bigint PRIMARY KEY, name text NOT NULL, qty int NOT NULL, updated_at timestamptz)", items),
		fmt.Sprintf("CREATE TABLE %s (id bigserial PRIMARY KEY, item_id bigint NOT NULL, op text NOT NULL, at timestamptz NOT NULL, qty int)", hist),
	}
	if !triggers {
		return stmts
	}
	return append(stmts,
		fmt.Sprintf(`CREATE FUNCTION %s_touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.updated_at := now();
  RETURN NEW;
END
$$`, items),
		fmt.Sprintf(`CREATE FUNCTION %s_audit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO %s (item_id, op, at, qty) VALUES (NEW.id, TG_OP, now(), NEW.qty);
  RETURN NULL;
END
$$`, items, hist),
		fmt.Sprintf("CREATE TRIGGER %s_touch BEFORE INSERT OR UPDATE ON %s FOR EACH ROW EXECUTE FUNCTION %s_touch()", items, items, items),
		fmt.Sprintf("CREATE TRIGGER %s_audit AFTER INSERT OR UPDATE ON %s FOR EACH ROW EXECUTE FUNCTION %s_audit()", items, items, items),
	)
}

// triggerResult is one configuration's run.
type triggerResult struct {
	system   string
	triggers bool
	batch    int // rows per INSERT
	rows     int
	elapsed  time.Duration
	cpu      time.Duration
}

func (r triggerResult) rowsPerSecond() float64 { return float64(r.rows) / r.elapsed.Seconds() }

// triggerThroughput runs every configuration on both systems.
func triggerThroughput(ctx context.Context, cfg config, zp *zproxyServer, pg *postgres) ([]triggerResult, error) {
	meter := writeMeter(zp, pg)
	var out []triggerResult
	n := 0
	for _, sys := range []struct{ name, dsn string }{{"PostgreSQL", pg.dsn()}, {"zproxy", zp.dsn()}} {
		conn, err := pgx.Connect(ctx, sys.dsn)
		if err != nil {
			return nil, err
		}
		for _, triggers := range []bool{false, true} {
			for _, batch := range []int{1, triggerBatch} {
				n++
				suffix := fmt.Sprint(n)
				if err := execAll(ctx, conn, triggerSchema(suffix, triggers)...); err != nil {
					conn.Close(ctx)
					return nil, fmt.Errorf("%s: %w", sys.name, err)
				}
				rows := cfg.triggerRows
				if batch == 1 {
					rows = cfg.triggerSingleRows
				}
				cpu := startCPU(meter, sys.name)
				elapsed, err := insertItems(ctx, conn, "tr_items_"+suffix, rows, batch)
				if err != nil {
					conn.Close(ctx)
					return nil, fmt.Errorf("%s: %w", sys.name, err)
				}
				r := triggerResult{system: sys.name, triggers: triggers, batch: batch, rows: rows, elapsed: elapsed, cpu: cpu.stop(ctx)}
				if err := checkHistory(ctx, conn, suffix, triggers, rows); err != nil {
					conn.Close(ctx)
					return nil, fmt.Errorf("%s: %w", sys.name, err)
				}
				logf("triggers: %s triggers=%v %d-row INSERTs: %d rows in %s, %.0f rows/s, CPU %s/row", sys.name, triggers, batch, rows,
					elapsed.Round(time.Millisecond), r.rowsPerSecond(), perRow(r.cpu, int64(rows)))
				out = append(out, r)
			}
		}
		conn.Close(ctx)
	}
	return out, nil
}

// insertItems inserts rows rows into table in INSERTs of batch rows.
func insertItems(ctx context.Context, conn *pgx.Conn, table string, rows, batch int) (time.Duration, error) {
	start := time.Now()
	for from := 0; from < rows; from += batch {
		to := min(from+batch, rows)
		var sb strings.Builder
		sb.WriteString("INSERT INTO " + table + " (id, name, qty) VALUES ")
		args := make([]any, 0, 3*(to-from))
		for i := from; i < to; i++ {
			if i > from {
				sb.WriteString(", ")
			}
			k := len(args)
			fmt.Fprintf(&sb, "($%d, $%d, $%d)", k+1, k+2, k+3)
			args = append(args, int64(i), fmt.Sprintf("item %d", i), int32(i%100))
		}
		if _, err := conn.Exec(ctx, sb.String(), args...); err != nil {
			return 0, err
		}
	}
	return time.Since(start), nil
}

// checkHistory checks that the triggers did their work: every row has
// updated_at and one history row (none without the triggers).
func checkHistory(ctx context.Context, conn *pgx.Conn, suffix string, triggers bool, rows int) error {
	var items, touched, hist int
	if err := conn.QueryRow(ctx, fmt.Sprintf("SELECT count(*), count(updated_at), (SELECT count(*) FROM tr_history_%s) FROM tr_items_%s", suffix, suffix)).
		Scan(&items, &touched, &hist); err != nil {
		return err
	}
	want := 0
	if triggers {
		want = rows
	}
	if items != rows || touched != want || hist != want {
		return fmt.Errorf("after the inserts: %d rows, %d with updated_at, %d history rows; want %d, %d, %d", items, touched, hist, rows, want, want)
	}
	return nil
}

// reportTriggers prints the triggers workload's table.
func reportTriggers(w io.Writer, cfg config, pgVersion string, results []triggerResult, loadAvg []string) {
	fmt.Fprintf(w, "\n#### Trigger-maintained table: insert rate (PostgreSQL %s; one connection; updated_at BEFORE ROW + audit AFTER ROW trigger writing a history table)\n\n", pgVersion)
	fmt.Fprintln(w, "| INSERT | triggers | PostgreSQL rows/s | zproxy rows/s | zproxy / PostgreSQL | PostgreSQL CPU/row | zproxy CPU/row |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|")
	find := func(system string, triggers bool, batch int) *triggerResult {
		for i := range results {
			r := &results[i]
			if r.system == system && r.triggers == triggers && r.batch == batch {
				return r
			}
		}
		return nil
	}
	for _, batch := range []int{1, triggerBatch} {
		for _, triggers := range []bool{false, true} {
			p, z := find("PostgreSQL", triggers, batch), find("zproxy", triggers, batch)
			if p == nil || z == nil {
				continue
			}
			kind := "single-row"
			if batch > 1 {
				kind = fmt.Sprintf("%d-row", batch)
			}
			fmt.Fprintf(w, "| %s (%d rows) | %s | %.0f | %.0f | %.2f× | %s | %s |\n", kind, p.rows, map[bool]string{true: "yes", false: "no"}[triggers],
				p.rowsPerSecond(), z.rowsPerSecond(), z.rowsPerSecond()/p.rowsPerSecond(), perRow(p.cpu, int64(p.rows)), perRow(z.cpu, int64(z.rows)))
		}
	}
	fmt.Fprintf(w, "\nLoad average at the start and the end: %s.\n", strings.Join(loadAvg, ", "))
}
