package e2e

import (
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// TestMultiColumnUpdateTableSampleOverTheWire runs multiple-column UPDATE
// assignments, TABLESAMPLE and anycompatible typing through pgx's extended
// protocol with parameters (prepared statements, binary results), as an
// application would: the values bound to $n inside a respelled
// assignment list and a TABLESAMPLE clause, and the result types the
// client decodes (numeric[] for int[] || numeric[]).
func TestMultiColumnUpdateTableSampleOverTheWire(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	conn := tg.Connect(t, pgx.QueryExecModeCacheStatement)
	ctx := testCtx(t)
	tg.CreateTable(t, conn, "CREATE TABLE wire_multi (id INT PRIMARY KEY, a INT, b TEXT)")
	tg.CreateTable(t, conn, "CREATE TABLE wire_multi_src (k INT PRIMARY KEY, x INT, y TEXT)")
	mustExec(t, conn, "INSERT INTO wire_multi SELECT g, g, 'b' || g FROM generate_series(1, 2000) g")
	mustExec(t, conn, "INSERT INTO wire_multi_src VALUES (1, 100, 'one'), (2, 200, 'two')")

	var a int
	var b string
	if err := conn.QueryRow(ctx, "UPDATE wire_multi SET (a, b) = ($1, $2) WHERE id = $3 RETURNING a, b", 7, "seven", 1).Scan(&a, &b); err != nil {
		t.Fatal(err)
	}
	if a != 7 || b != "seven" {
		t.Fatalf("SET (a, b) = ($1, $2): %d %q", a, b)
	}
	if err := conn.QueryRow(ctx, "UPDATE wire_multi m SET (b, a) = (SELECT y || $1::text, x + m.id FROM wire_multi_src WHERE k = m.id) WHERE m.id = $2 RETURNING a, b", "!", 2).Scan(&a, &b); err != nil {
		t.Fatal(err)
	}
	if a != 202 || b != "two!" {
		t.Fatalf("SET (b, a) = (SELECT ...): %d %q", a, b)
	}

	var all, none, some int
	q := "SELECT count(*) FROM wire_multi TABLESAMPLE BERNOULLI ($1)"
	for _, c := range []struct {
		pct  float32
		into *int
	}{{100, &all}, {0, &none}, {25, &some}} {
		if err := conn.QueryRow(ctx, q, c.pct).Scan(c.into); err != nil {
			t.Fatal(err)
		}
	}
	// 25% of 2,000: 500 expected, a standard deviation of 19.4.
	if all != 2000 || none != 0 || some < 350 || some > 650 {
		t.Fatalf("TABLESAMPLE BERNOULLI ($1) at 100, 0, 25: %d, %d, %d rows", all, none, some)
	}
	var first, again int
	seeded := "SELECT sum(id) FROM wire_multi TABLESAMPLE SYSTEM ($1) REPEATABLE ($2)"
	if err := conn.QueryRow(ctx, seeded, float32(30), 7.0).Scan(&first); err != nil {
		t.Fatal(err)
	}
	if err := conn.QueryRow(ctx, seeded, float32(30), 7.0).Scan(&again); err != nil {
		t.Fatal(err)
	}
	if first != again {
		t.Fatalf("one seed, two samples: sums %d and %d", first, again)
	}

	var arr []pgtype.Numeric
	var typ string
	if err := conn.QueryRow(ctx, "SELECT ARRAY[$1::int] || ARRAY[1.5], pg_typeof(ARRAY[$1::int] || ARRAY[1.5])::text", 1).Scan(&arr, &typ); err != nil {
		t.Fatal(err)
	}
	if typ != "numeric[]" || len(arr) != 2 {
		t.Fatalf("int[] || numeric[]: %v of %s", arr, typ)
	}
	if f, err := arr[1].Float64Value(); err != nil || f.Float64 != 1.5 {
		t.Fatalf("int[] || numeric[]: second element %v (%v)", f, err)
	}
}

// TestSubscriptAssignOverTheWire runs subscripted assignments and jsonb
// subscripts through pgx's extended protocol with parameters: an array
// element and a jsonb path bound to $n (the subscripts' types inferred as
// PostgreSQL infers them: integer for an array's, text for jsonb's),
// several assignments to one column composing, and the results decoded
// from binary.
func TestSubscriptAssignOverTheWire(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	conn := tg.Connect(t, pgx.QueryExecModeCacheStatement)
	ctx := testCtx(t)
	tg.CreateTable(t, conn, "CREATE TABLE wire_subs (id INT PRIMARY KEY, tags TEXT[], doc JSONB)")
	mustExec(t, conn, `INSERT INTO wire_subs VALUES (1, '{a,b}', '{"n": {"x": 1}}')`)

	var tags []pgtype.Text
	var doc map[string]any
	if err := conn.QueryRow(ctx, "UPDATE wire_subs SET tags[$1] = $2, tags[1] = upper(tags[1]), doc[$3][$4] = $5 WHERE id = $6 RETURNING tags, doc",
		4, "d", "n", "y", `[true]`, 1).Scan(&tags, &doc); err != nil {
		t.Fatal(err)
	}
	if len(tags) != 4 || tags[0].String != "A" || tags[1].String != "b" || tags[2].Valid || tags[3].String != "d" {
		t.Fatalf("tags[$1] = $2, tags[1] = upper(tags[1]): %v", tags)
	}
	n, _ := doc["n"].(map[string]any)
	if y, _ := n["y"].([]any); len(n) != 2 || len(y) != 1 || y[0] != true {
		t.Fatalf(`doc[$3][$4] = $5: %v`, doc)
	}
	var x float64
	if err := conn.QueryRow(ctx, "SELECT doc[$1]['x'] FROM wire_subs WHERE id = $2", "n", 1).Scan(&x); err != nil {
		t.Fatal(err)
	}
	if x != 1 {
		t.Fatalf("doc[$1]['x']: %v", x)
	}
	var lower int
	var fourth, k string
	if err := conn.QueryRow(ctx, "INSERT INTO wire_subs (id, tags[3], tags[4], doc['k']) VALUES ($1, $2, $3, $4) RETURNING array_lower(tags, 1), tags[4], doc->>'k'",
		2, "c", "d", `"v"`).Scan(&lower, &fourth, &k); err != nil {
		t.Fatal(err)
	}
	if lower != 3 || fourth != "d" || k != "v" {
		t.Fatalf("INSERT (tags[3], tags[4], doc['k']): lower bound %d, tags[4] %q, doc->>'k' %q", lower, fourth, k)
	}
}
