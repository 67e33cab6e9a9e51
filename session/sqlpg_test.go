package session_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/wire"
)

// Scripts whose first line says "# oracle: postgres" hold only PostgreSQL
// SQL, and their expectations are PostgreSQL 15's answers. With
// SLT_POSTGRES set to a connection string ('host=127.0.0.1 port=5432
// user=postgres dbname=postgres'), TestSQLScriptsOnPostgres runs them
// against that server, each file in a schema of its own, and checks every
// expectation there too: the rows, the column names and types, the
// SQLSTATEs. With -slt-fill it writes PostgreSQL's rows into the files
// instead (the way to write a new script's expectations).

var sltFill = flag.Bool("slt-fill", false, "rewrite the expected rows of the PostgreSQL-oracle scripts from PostgreSQL's answers (needs SLT_POSTGRES)")

const oracleMarker = "# oracle: postgres"

func TestSQLScriptsOnPostgres(t *testing.T) {
	conninfo := os.Getenv("SLT_POSTGRES")
	if conninfo == "" {
		t.Skip("SLT_POSTGRES is not set")
	}
	files, err := filepath.Glob("testdata/sql/*.slt")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(data), oracleMarker) {
			continue
		}
		name := strings.TrimSuffix(filepath.Base(f), ".slt")
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			schema := "slt_" + name
			// Each "connection NAME" of the script is a connection of its
			// own, in the file's schema.
			conns := map[string]*pgconn.PgConn{}
			open := func(name string) *pgconn.PgConn {
				if c, ok := conns[name]; ok {
					return c
				}
				c, err := pgconn.Connect(ctx, conninfo)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := c.Exec(ctx, fmt.Sprintf("SET search_path = %s; SET extra_float_digits = 1", schema)).ReadAll(); err != nil {
					t.Fatal(err)
				}
				conns[name] = c
				return c
			}
			admin := open("setup") // search_path names the schema before it exists: harmless
			defer func() {
				// The script's connections go first: one left in a
				// transaction would hold locks the DROP waits for.
				for name, c := range conns {
					if name != "setup" {
						c.Close(ctx)
					}
				}
				admin.Exec(ctx, "DROP SCHEMA IF EXISTS "+schema+" CASCADE").ReadAll()
				admin.Close(ctx)
			}()
			setup := fmt.Sprintf("DROP SCHEMA IF EXISTS %s CASCADE; CREATE SCHEMA %s", schema, schema)
			if _, err := admin.Exec(ctx, setup).ReadAll(); err != nil {
				t.Fatal(err)
			}
			conn := open("default")
			recs := parseScript(t, f)
			got := make([][]string, len(recs))
			for i, rec := range recs {
				if rec.zproxy {
					continue
				}
				if rec.kind == "connection" {
					conn = open(rec.sql)
					continue
				}
				if rec.kind == "disconnect" {
					if c, ok := conns[rec.sql]; ok {
						c.Close(ctx)
						delete(conns, rec.sql)
						if c == conn {
							conn = nil
						}
					}
					continue
				}
				if conn == nil {
					t.Fatalf("%s:%d: no connection (after disconnect)", f, rec.line)
				}
				where := fmt.Sprintf("%s:%d: %s", f, rec.line, firstLine(rec.sql))
				rows, code, err := pgRun(ctx, conn, rec.sql, rec.names)
				want, msg, _ := strings.Cut(strings.TrimSpace(strings.TrimPrefix(rec.expect, "error")), " ")
				switch {
				case strings.HasPrefix(rec.expect, "error"):
					if err == nil {
						t.Errorf("%s: succeeded on PostgreSQL, want error %s", where, want)
					} else if want != "" && code != want || !strings.Contains(err.Error(), msg) {
						t.Errorf("%s: PostgreSQL says %s (%v), want %s %s", where, code, err, want, msg)
					} else if pe := (*pgconn.PgError)(nil); errors.As(err, &pe) {
						if bad := rec.checkErrorFields(pe.Where, pe.InternalQuery); bad != "" {
							t.Errorf("%s: PostgreSQL's %s", where, bad)
						}
					}
					continue
				case err != nil:
					t.Errorf("%s: PostgreSQL: %v", where, err)
					continue
				}
				if rec.kind != "query" {
					continue
				}
				if rec.sorted {
					body := rows
					if rec.names {
						body = rows[1:]
					}
					sort.Strings(body)
				}
				got[i] = append([]string{}, rows...) // non-nil: an empty result is filled too
				if !*sltFill && strings.Join(rows, "\n") != strings.Join(rec.rows, "\n") {
					t.Errorf("%s: PostgreSQL:\n  %s\n want:\n  %s", where, strings.Join(rows, "\n  "), strings.Join(rec.rows, "\n  "))
				}
			}
			if *sltFill {
				if err := os.WriteFile(f, []byte(fillScript(string(data), recs, got)), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// pgRun runs sql on PostgreSQL with the simple protocol and returns the
// last statement's rows as the scripts write them.
func pgRun(ctx context.Context, conn *pgconn.PgConn, sql string, names bool) ([]string, string, error) {
	results, err := conn.Exec(ctx, sql).ReadAll()
	if err != nil {
		var pe *pgconn.PgError
		if errors.As(err, &pe) {
			return nil, pe.Code, err
		}
		return nil, "", err
	}
	var out []string
	if len(results) == 0 {
		return nil, "", nil
	}
	last := results[len(results)-1]
	if names {
		fds := last.FieldDescriptions
		if len(last.Rows) == 0 {
			// pgconn copies the columns of a result only with its first
			// row: an empty result's come from describing the statement.
			sd, err := conn.Prepare(ctx, "", sql, nil)
			if err != nil {
				return nil, "", err
			}
			fds = sd.Fields
		}
		cols := make([]string, len(fds))
		for i, fd := range fds {
			typ := fmt.Sprintf("oid %d", fd.DataTypeOID)
			if t, ok := sqltypes.TypeByOID(fd.DataTypeOID); ok {
				typ = t.String()
			}
			cols[i] = fd.Name + ":" + typ
		}
		out = append(out, strings.Join(cols, "|"))
	}
	for _, row := range last.Rows {
		cells := make([]string, len(row))
		for i, v := range row {
			if v == nil {
				cells[i] = "NULL"
			} else {
				cells[i] = string(v)
			}
		}
		out = append(out, strings.Join(cells, "|"))
	}
	return out, "", nil
}

// columnHeader describes sql's last statement in sess: "name:type" of each
// result column joined by "|" (types without their modifiers, as the
// PostgreSQL side reports them).
func columnHeader(ctx context.Context, sess wire.Session, sql string) string {
	stmts, err := sess.Parse(ctx, sql, nil)
	if err != nil || len(stmts) == 0 {
		return fmt.Sprintf("(describe: %v)", err)
	}
	_, cols, err := stmts[len(stmts)-1].Describe(ctx)
	if err != nil {
		return fmt.Sprintf("(describe: %v)", err)
	}
	parts := make([]string, len(cols))
	for i, c := range cols {
		parts[i] = c.Name + ":" + sqltypes.Type{ID: c.Type.ID, Elem: c.Type.Elem}.String()
	}
	return strings.Join(parts, "|")
}

// fillScript replaces the expected rows of each query record of a script
// with got (nil: left as it was).
func fillScript(text string, recs []record, got [][]string) string {
	byLine := map[int][]string{}
	for i, r := range recs {
		if got[i] != nil {
			byLine[r.line] = got[i]
		}
	}
	lines := strings.Split(text, "\n")
	var out []string
	for i := 0; i < len(lines); i++ {
		out = append(out, lines[i])
		rows, ok := byLine[i+1]
		if !ok {
			continue
		}
		// Copy the SQL up to "----" (adding one if missing), then skip the
		// old rows up to the blank line that ends the record.
		j := i + 1
		for ; j < len(lines) && strings.TrimSpace(lines[j]) != "" && strings.TrimSpace(lines[j]) != "----"; j++ {
			out = append(out, lines[j])
		}
		out = append(out, "----")
		if j < len(lines) && strings.TrimSpace(lines[j]) == "----" {
			j++
			for ; j < len(lines) && strings.TrimSpace(lines[j]) != ""; j++ {
			}
		}
		out = append(out, rows...)
		i = j - 1
	}
	return strings.Join(out, "\n")
}
