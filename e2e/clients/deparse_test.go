package clients

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestDeparseGolden replays the definitions of testdata/deparse/ddl.sql
// (tables with defaults, CHECKs, foreign keys and uniques of many
// expression shapes, expression and partial indexes, views) and prints
// every pg_get_* function's output for every object they make, non-pretty
// and pretty. The golden file is PostgreSQL 15's own output: it is
// written only from PostgreSQL (go test ./e2e/clients -run
// TestDeparseGolden -update with E2E_POSTGRES set), checked against
// PostgreSQL with E2E_POSTGRES alone, and zproxy must print it byte for
// byte, but for the entries of testdata/deparse/excluded.txt, each with
// its reason. An excluded entry that zproxy comes to print as PostgreSQL
// does fails the test until it leaves the list, so the list only shrinks.
func TestDeparseGolden(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("testdata", "deparse")
	if *updateGolden && os.Getenv("E2E_POSTGRES") == "" {
		t.Fatal("the deparse golden file is PostgreSQL's: run -update with E2E_POSTGRES set")
	}
	ddl, err := os.ReadFile(filepath.Join(dir, "ddl.sql"))
	if err != nil {
		t.Fatal(err)
	}
	c := newCatalogTarget(t)
	c.exec(t, splitStatements(string(ddl))...)
	conn := connect(t, c.connString())
	got := deparseOutputs(t, conn)

	goldenPath := filepath.Join(dir, "golden.txt")
	if *updateGolden {
		writeDeparseGolden(t, goldenPath, got)
		return
	}
	want := readDeparseGolden(t, goldenPath)
	excluded := map[string]bool{}
	if !c.postgres {
		excluded = readExclusions(t, filepath.Join(dir, "excluded.txt"))
	}
	keys := make([]string, 0, len(want))
	for k := range want {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		g, ok := got[k]
		switch {
		case excluded[k] && ok && g == want[k]:
			t.Errorf("%s now prints as PostgreSQL does: remove it from excluded.txt", k)
		case excluded[k]:
		case !ok:
			t.Errorf("%s: missing; PostgreSQL prints\n%s", k, want[k])
		case g != want[k]:
			t.Errorf("%s:\n got: %s\nwant: %s", k, g, want[k])
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: printed, but PostgreSQL has no such entry: %s", k, got[k])
		}
	}
	for k := range excluded {
		if _, ok := want[k]; !ok {
			t.Errorf("excluded.txt names %s, which the golden file does not have", k)
		}
	}
}

// deparseQueries print each object's definitions as key|value rows; the
// key names the object and the function (and "pretty" for the pretty
// form).
var deparseQueries = []string{
	`SELECT 'default ' || c.relname || '.' || a.attname || ' ' || v.mode,
	        CASE v.mode WHEN 'pretty' THEN pg_get_expr(d.adbin, d.adrelid, true) ELSE pg_get_expr(d.adbin, d.adrelid) END
	   FROM pg_attrdef d JOIN pg_class c ON c.oid = d.adrelid
	   JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum
	   JOIN pg_namespace n ON n.oid = c.relnamespace,
	        (VALUES ('plain'), ('pretty')) v(mode)
	  WHERE n.nspname = 'public'`,
	`SELECT 'constraint ' || c.relname || '.' || co.conname || ' ' || v.mode,
	        CASE v.mode WHEN 'pretty' THEN pg_get_constraintdef(co.oid, true) ELSE pg_get_constraintdef(co.oid) END
	   FROM pg_constraint co JOIN pg_class c ON c.oid = co.conrelid
	   JOIN pg_namespace n ON n.oid = c.relnamespace,
	        (VALUES ('plain'), ('pretty')) v(mode)
	  WHERE n.nspname = 'public'`,
	`SELECT 'indexdef ' || c.relname, pg_get_indexdef(i.indexrelid)
	   FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
	   JOIN pg_namespace n ON n.oid = c.relnamespace
	  WHERE n.nspname = 'public'`,
	`SELECT 'indexdef ' || c.relname || ' pretty', pg_get_indexdef(i.indexrelid, 0, true)
	   FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
	   JOIN pg_namespace n ON n.oid = c.relnamespace
	  WHERE n.nspname = 'public'`,
	`SELECT 'indexdef ' || c.relname || ' column ' || k.i || ' ' || v.mode,
	        pg_get_indexdef(i.indexrelid, k.i, v.mode = 'pretty')
	   FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
	   JOIN pg_namespace n ON n.oid = c.relnamespace,
	        generate_series(1, 2) k(i), (VALUES ('plain'), ('pretty')) v(mode)
	  WHERE n.nspname = 'public' AND k.i <= i.indnatts`,
	`SELECT 'indexpred ' || c.relname || ' ' || v.mode,
	        CASE v.mode WHEN 'pretty' THEN pg_get_expr(i.indpred, i.indrelid, true) ELSE pg_get_expr(i.indpred, i.indrelid) END
	   FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
	   JOIN pg_namespace n ON n.oid = c.relnamespace,
	        (VALUES ('plain'), ('pretty')) v(mode)
	  WHERE n.nspname = 'public' AND i.indpred IS NOT NULL`,
	`SELECT 'column_default ' || table_name || '.' || column_name, column_default::text
	   FROM information_schema.columns WHERE table_schema = 'public' AND column_default IS NOT NULL`,
	`SELECT 'view_definition ' || table_name, view_definition::text
	   FROM information_schema.views WHERE table_schema = 'public'`,
	`SELECT 'viewdef ' || c.relname || ' ' || v.mode,
	        CASE v.mode WHEN 'pretty' THEN pg_get_viewdef(c.oid, true) ELSE pg_get_viewdef(c.oid) END
	   FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace,
	        (VALUES ('plain'), ('pretty')) v(mode)
	  WHERE n.nspname = 'public' AND c.relkind IN ('v', 'm')`,
}

func deparseOutputs(t *testing.T, conn *pgx.Conn) map[string]string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out := map[string]string{}
	for _, q := range deparseQueries {
		rows, err := conn.Query(ctx, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		for rows.Next() {
			var k string
			var v *string
			if err := rows.Scan(&k, &v); err != nil {
				t.Fatal(err)
			}
			if _, dup := out[k]; dup {
				t.Fatalf("two entries named %s", k)
			}
			if v == nil {
				out[k] = "NULL"
			} else {
				out[k] = *v
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return out
}

// The golden file holds one entry per key: a line "== key" and the value
// on the lines that follow, up to the next entry.
func writeDeparseGolden(t *testing.T, path string, m map[string]string) {
	t.Helper()
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "== %s\n%s\n", k, m[k])
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readDeparseGolden(t *testing.T, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (generate it from PostgreSQL with -update and E2E_POSTGRES)", err)
	}
	out := map[string]string{}
	var key string
	var val []string
	flush := func() {
		if key != "" {
			out[key] = strings.Join(val, "\n")
		}
	}
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if k, ok := strings.CutPrefix(line, "== "); ok {
			flush()
			key, val = k, nil
			continue
		}
		val = append(val, line)
	}
	flush()
	return out
}

// readExclusions reads the keys zproxy prints differently on purpose or
// for now: "key  # reason" per line.
func readExclusions(t *testing.T, path string) map[string]bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, reason, ok := strings.Cut(line, "#")
		if !ok || strings.TrimSpace(reason) == "" {
			t.Fatalf("excluded.txt: %q has no reason", line)
		}
		out[strings.TrimSpace(key)] = true
	}
	return out
}

// splitStatements splits a script at the semicolons that end its lines.
func splitStatements(script string) []string {
	var out []string
	for _, s := range strings.SplitAfter(script, ";\n") {
		if s = strings.TrimSpace(s); s != "" && !strings.HasPrefix(s, "--") {
			out = append(out, strings.TrimSuffix(s, ";"))
		}
	}
	return out
}
