package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestCopyToBytes checks that COPY TO STDOUT sends PostgreSQL 15's bytes,
// exactly, in text, CSV and binary format, for a table of the common types
// at their edges: integers at their limits, float4 and float8 -0, NaN,
// ±Infinity and the exponent forms (1e-07, 1e+21), numerics of every
// scale, text with tabs, newlines, carriage returns, backslashes, quotes
// and delimiters, bytea, timestamps (infinite, microseconds) and
// timestamptz in a +05:30 zone, dates, booleans, jsonb, arrays, uuid,
// interval and NULLs. testdata/copy_to holds the table (table.sql), the
// statements (cases.txt: a name, a tab, the COPY) and each one's output as
// psql wrote it from PostgreSQL 15 (NAME.want: after psql -f table.sql,
// psql -X -q -c "SET TimeZone = 'Asia/Kolkata'" -c "$COPY" > NAME.want);
// with E2E_POSTGRES set the test checks those files against PostgreSQL
// itself.
func TestCopyToBytes(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	ctx := testCtx(t)
	conn := tg.Connect(t, pgx.QueryExecModeSimpleProtocol)
	dir := filepath.Join("testdata", "copy_to")
	table, err := os.ReadFile(filepath.Join(dir, "table.sql"))
	if err != nil {
		t.Fatal(err)
	}
	ddl, insert, ok := strings.Cut(string(table), ";\n")
	if !ok {
		t.Fatal("table.sql: CREATE TABLE; then INSERT")
	}
	tg.CreateTable(t, conn, ddl)
	mustExec(t, conn, insert)
	mustExec(t, conn, "SET TimeZone = 'Asia/Kolkata'")
	cases, err := os.ReadFile(filepath.Join(dir, "cases.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(cases)), "\n") {
		name, sql, _ := strings.Cut(line, "\t")
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(dir, name+".want"))
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if _, err := conn.PgConn().CopyTo(ctx, &got, sql); err != nil {
				t.Fatalf("%s: %v", sql, err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				at := 0
				for at < min(got.Len(), len(want)) && got.Bytes()[at] == want[at] {
					at++
				}
				from := max(0, at-40)
				t.Errorf("%s: %d bytes, want %d; first difference at byte %d:\n got  %q\n want %q", sql, got.Len(), len(want), at,
					got.Bytes()[from:min(got.Len(), at+40)], want[from:min(len(want), at+40)])
			}
		})
	}
}
