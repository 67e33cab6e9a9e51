package e2e

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// TestGeometricRoundTrip writes point, lseg, box, line, path, polygon and
// circle values as pgx sends them (pgtype values in each exec mode, binary
// COPY), and in COPY's text format, reads them back in binary and as text,
// queries them with the geometric operators, and copies them out as text.
func TestGeometricRoundTrip(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	ctx := testCtx(t)
	setup := tg.Connect(t, pgx.QueryExecModeCacheStatement)
	tg.CreateTable(t, setup, `CREATE TABLE geo_rt (id int PRIMARY KEY, p point, s lseg, b box, l line, pa path, po polygon, c circle)`)

	v := func(x, y float64) pgtype.Vec2 { return pgtype.Vec2{X: x, Y: y} }
	row := func(i int) []any {
		f := float64(i)
		return []any{i,
			pgtype.Point{P: v(f, -f/2), Valid: true},
			pgtype.Lseg{P: [2]pgtype.Vec2{v(0, 0), v(f, f)}, Valid: true},
			pgtype.Box{P: [2]pgtype.Vec2{v(f+1, f+1), v(f, f)}, Valid: true},
			pgtype.Line{A: 1, B: -1, C: f, Valid: true},
			pgtype.Path{P: []pgtype.Vec2{v(0, 0), v(f, 1), v(2*f, 0)}, Closed: i%2 == 0, Valid: true},
			pgtype.Polygon{P: []pgtype.Vec2{v(0, 0), v(f, 0), v(f, f)}, Valid: true},
			pgtype.Circle{P: v(f, f), R: 0.5 + f, Valid: true},
		}
	}
	for i, mode := range execModes {
		conn := tg.Connect(t, mode)
		if _, err := conn.Exec(ctx, "INSERT INTO geo_rt VALUES ($1, $2, $3, $4, $5, $6, $7, $8)", row(i+1)...); err != nil {
			t.Fatalf("%v: insert: %v", mode, err)
		}
	}
	if _, err := setup.CopyFrom(ctx, pgx.Identifier{"geo_rt"}, []string{"id", "p", "s", "b", "l", "pa", "po", "c"},
		pgx.CopyFromRows([][]any{row(10), {11, nil, nil, nil, nil, nil, nil, nil}})); err != nil {
		t.Fatalf("binary copy: %v", err)
	}
	text := "20\t(1.5,2.5)\t[(0,0),(1,1)]\t(0,0),(2,2)\t{1,2,3}\t[(0,0),(1,1)]\t((0,0),(1,0),(1,1))\t<(0,0),0.25>\n"
	if _, err := setup.PgConn().CopyFrom(ctx, strings.NewReader(text), "COPY geo_rt FROM STDIN"); err != nil {
		t.Fatalf("text copy: %v", err)
	}

	// Binary results, as pgtype's values, equal what was written.
	rows, err := setup.Query(ctx, "SELECT id, p, s, b, l, pa, po, c FROM geo_rt WHERE id < 20 ORDER BY id", pgx.QueryResultFormats{pgx.BinaryFormatCode})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for rows.Next() {
		var id int
		var p pgtype.Point
		var s pgtype.Lseg
		var b pgtype.Box
		var l pgtype.Line
		var pa pgtype.Path
		var po pgtype.Polygon
		var c pgtype.Circle
		if err := rows.Scan(&id, &p, &s, &b, &l, &pa, &po, &c); err != nil {
			t.Fatal(err)
		}
		got := fmt.Sprint(id, p, s, b, l, pa, po, c)
		want := fmt.Sprint(id, pgtype.Point{}, pgtype.Lseg{}, pgtype.Box{}, pgtype.Line{}, pgtype.Path{}, pgtype.Polygon{}, pgtype.Circle{})
		if id != 11 {
			w := row(id)
			want = fmt.Sprint(append([]any{id}, w[1:]...)...)
		}
		if got != want {
			t.Errorf("row %d: %s, want %s", id, got, want)
		}
		n++
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if n != len(execModes)+2 {
		t.Errorf("%d rows", n)
	}

	// Text results and the operators over the columns.
	var got []string
	rows, err = setup.Query(ctx, `SELECT id, p::text, b::text, pa::text, c::text, round((p <-> point '(0,0)')::numeric, 3)::text
		FROM geo_rt WHERE b && box '(2.5,2.5),(0,0)' OR c @> point '(0.1,0.1)' ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int
		var p, b, pa, c, d string
		if err := rows.Scan(&id, &p, &b, &pa, &c, &d); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprint(id, " ", p, " ", b, " ", pa, " ", c, " ", d))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"1 (1,-0.5) (2,2),(1,1) [(0,0),(1,1),(2,0)] <(1,1),1.5> 1.118",
		"2 (2,-1) (3,3),(2,2) ((0,0),(2,1),(4,0)) <(2,2),2.5> 2.236",
		"20 (1.5,2.5) (2,2),(0,0) [(0,0),(1,1)] <(0,0),0.25> 2.915",
	}
	if !slices.Equal(got, want) {
		t.Errorf("rows: %q, want %q", got, want)
	}

	// COPY TO in text: PostgreSQL's output forms, NULLs as \N.
	var out bytes.Buffer
	if _, err := setup.PgConn().CopyTo(ctx, &out, "COPY (SELECT * FROM geo_rt WHERE id IN (11, 20) ORDER BY id) TO STDOUT"); err != nil {
		t.Fatal(err)
	}
	wantCopy := "11\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\n" + strings.Replace(text, "(0,0),(2,2)", "(2,2),(0,0)", 1) // the box's corners reordered
	if out.String() != wantCopy {
		t.Errorf("copy out %q, want %q", out.String(), wantCopy)
	}
}
