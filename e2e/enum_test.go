package e2e

import (
	"slices"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestEnumRoundTrip writes an enum type's values through each of pgx's
// exec modes and through COPY in binary (pgx.CopyFrom, with the type
// loaded from pg_type and pg_enum as pgx's LoadType reads them), then
// reads them back as text and in binary, in the type's declaration order.
func TestEnumRoundTrip(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	ctx := testCtx(t)
	setup := tg.Connect(t, pgx.QueryExecModeCacheStatement)
	mustExec(t, setup, "DROP TABLE IF EXISTS enum_rt")
	mustExec(t, setup, "DROP TYPE IF EXISTS e2e_color")
	mustExec(t, setup, "CREATE TYPE e2e_color AS ENUM ('red', 'green', 'blue')")
	tg.CreateTable(t, setup, `CREATE TABLE enum_rt (id INTEGER NOT NULL, c e2e_color, cs e2e_color[], PRIMARY KEY (id))`)

	labels := []string{"blue", "red", "green"}
	id := 0
	for _, mode := range execModes {
		conn := tg.Connect(t, mode)
		for _, l := range labels {
			id++
			if _, err := conn.Exec(ctx, "INSERT INTO enum_rt VALUES ($1, $2, $3)", id, l, []string{l, "red"}); err != nil {
				t.Fatalf("%v: insert %s: %v", mode, l, err)
			}
		}
		if _, err := conn.Exec(ctx, "INSERT INTO enum_rt VALUES ($1, $2, NULL)", 1000+id, "purple"); err == nil {
			t.Fatalf("%v: purple accepted", mode)
		}
	}

	// pgx's COPY is binary: it needs the types' codecs, which LoadType
	// builds from the catalogs.
	conn := tg.Connect(t, pgx.QueryExecModeCacheStatement)
	for _, name := range []string{"e2e_color", "_e2e_color"} {
		typ, err := conn.LoadType(ctx, name)
		if err != nil {
			t.Fatalf("LoadType(%s): %v", name, err)
		}
		conn.TypeMap().RegisterType(typ)
	}
	n, err := conn.CopyFrom(ctx, pgx.Identifier{"enum_rt"}, []string{"id", "c", "cs"},
		pgx.CopyFromRows([][]any{{500, "green", []string{"blue"}}, {501, nil, nil}}))
	if err != nil || n != 2 {
		t.Fatalf("CopyFrom: %d, %v", n, err)
	}

	for _, format := range []int16{pgx.TextFormatCode, pgx.BinaryFormatCode} {
		rows, err := conn.Query(ctx, "SELECT id, c, cs FROM enum_rt WHERE c IS NOT NULL ORDER BY c, id", pgx.QueryResultFormats{format, format, format})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for rows.Next() {
			var rid int
			var c string
			var cs []string
			if err := rows.Scan(&rid, &c, &cs); err != nil {
				t.Fatalf("format %d: %v", format, err)
			}
			wantCS := []string{c, "red"}
			if rid == 500 {
				wantCS = []string{"blue"}
			}
			if !slices.Equal(cs, wantCS) {
				t.Fatalf("format %d: row %d (%s) has array %v, want %v", format, rid, c, cs, wantCS)
			}
			got = append(got, c)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		want := slices.Concat(slices.Repeat([]string{"red"}, len(execModes)), slices.Repeat([]string{"green"}, len(execModes)+1), slices.Repeat([]string{"blue"}, len(execModes)))
		if !slices.Equal(got, want) {
			t.Fatalf("format %d: %v, want %v", format, got, want)
		}
	}
	var first, last string
	if err := conn.QueryRow(ctx, "SELECT enum_first(NULL::e2e_color)::text, enum_last(c)::text FROM enum_rt WHERE id = 1").Scan(&first, &last); err != nil || first != "red" || last != "blue" {
		t.Fatalf("enum_first/enum_last: %q %q %v", first, last, err)
	}

	// A statement pgx prepared and cached keeps working when the schema
	// changes under it (another table, a new label): its result type is
	// the same enum.
	cached := tg.Connect(t, pgx.QueryExecModeCacheStatement)
	label := func() string {
		var c string
		if err := cached.QueryRow(ctx, "SELECT c FROM enum_rt WHERE id = $1", 1).Scan(&c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	if c := label(); c != "blue" {
		t.Fatalf("row 1: %q", c)
	}
	mustExec(t, setup, "DROP TABLE IF EXISTS enum_rt_other")
	mustExec(t, setup, "CREATE TABLE enum_rt_other (id INTEGER PRIMARY KEY)")
	if c := label(); c != "blue" {
		t.Fatalf("row 1 after CREATE TABLE: %q", c)
	}
	mustExec(t, setup, "ALTER TYPE e2e_color ADD VALUE 'cyan' AFTER 'green'")
	mustExec(t, setup, "UPDATE enum_rt SET c = 'cyan' WHERE id = 1")
	if c := label(); c != "cyan" {
		t.Fatalf("row 1 after ADD VALUE and UPDATE: %q", c)
	}
	mustExec(t, setup, "DROP TABLE enum_rt_other")
	mustExec(t, setup, "DROP TABLE enum_rt")
	mustExec(t, setup, "DROP TYPE e2e_color")
}
