package e2e

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// mrow is one row of the surface table; nil pointers are NULL.
type mrow struct {
	g, id int64
	x     *float64
	name  *string
	flag  *bool
}

const surfaceDDL = `CREATE TABLE surface (g INTEGER NOT NULL, id BIGINT NOT NULL, x DOUBLE PRECISION,
  name TEXT, flag BOOLEAN, PRIMARY KEY (g, id)) WITH (shards = 3)`

// surfaceRows generates the data: 4 groups × 15 ids, x a multiple of 0.5
// (so sums are exact), names from a small set, some NULLs in every nullable
// column.
func surfaceRows() []mrow {
	rng := rand.New(rand.NewPCG(2024, 1))
	names := []string{"alpha", "bravo", "charlie", "delta", "echo"}
	var rows []mrow
	for g := int64(1); g <= 4; g++ {
		for id := int64(1); id <= 15; id++ {
			r := mrow{g: g, id: id}
			if rng.IntN(7) != 0 {
				x := float64(rng.IntN(200))/2 - 30
				r.x = &x
			}
			if rng.IntN(8) != 0 {
				r.name = &names[rng.IntN(len(names))]
			}
			if rng.IntN(9) != 0 {
				f := rng.IntN(2) == 0
				r.flag = &f
			}
			rows = append(rows, r)
		}
	}
	return rows
}

func nullable[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

func (r mrow) all() []any { return []any{r.g, r.id, nullable(r.x), nullable(r.name), nullable(r.flag)} }

// surfaceCase is a query and the rows PostgreSQL returns for it, computed
// from the generated data.
type surfaceCase struct {
	name string
	sql  string
	args []any
	want func(rows []mrow) [][]any
	// unordered compares as multisets (the query has no total ORDER BY).
	unordered bool
}

func where(rows []mrow, pred func(mrow) bool) []mrow {
	var out []mrow
	for _, r := range rows {
		if pred(r) {
			out = append(out, r)
		}
	}
	return out
}

func project(rows []mrow, f func(mrow) []any) [][]any {
	out := [][]any{}
	for _, r := range rows {
		out = append(out, f(r))
	}
	return out
}

func byKey(a, b mrow) int { return cmp.Or(cmp.Compare(a.g, b.g), cmp.Compare(a.id, b.id)) }

// cmpNullsLast orders NULL after every value, as PostgreSQL's ASC does;
// DESC reverses it, NULLs first.
func cmpNullsLast[T cmp.Ordered](a, b *T) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return 1
	case b == nil:
		return -1
	}
	return cmp.Compare(*a, *b)
}

func limitOffset(rows []mrow, limit, offset int) []mrow {
	if offset >= len(rows) {
		return nil
	}
	rows = rows[offset:]
	if limit < len(rows) {
		rows = rows[:limit]
	}
	return rows
}

// aggregates computes count(*), count(x), sum(x), min(x), max(x), avg(x).
func aggregates(rows []mrow) []any {
	var n, nx int64
	var sum float64
	var mn, mx *float64
	for _, r := range rows {
		n++
		if r.x == nil {
			continue
		}
		nx++
		sum += *r.x
		if mn == nil || *r.x < *mn {
			mn = r.x
		}
		if mx == nil || *r.x > *mx {
			mx = r.x
		}
	}
	if nx == 0 {
		return []any{n, nx, nil, nil, nil, nil}
	}
	return []any{n, nx, sum, *mn, *mx, sum / float64(nx)}
}

type group struct {
	key  any
	rows []mrow
}

// groupBy groups rows by key (NULL is one group), in key order with NULL
// last.
func groupBy[K cmp.Ordered](rows []mrow, key func(mrow) *K) []group {
	var keys []*K
	byKey := map[any][]mrow{}
	for _, r := range rows {
		k := key(r)
		gk := nullable(k)
		if _, ok := byKey[gk]; !ok {
			keys = append(keys, k)
		}
		byKey[gk] = append(byKey[gk], r)
	}
	slices.SortFunc(keys, cmpNullsLast[K])
	var out []group
	for _, k := range keys {
		out = append(out, group{key: nullable(k), rows: byKey[nullable(k)]})
	}
	return out
}

func minName(rows []mrow) any {
	var m *string
	for _, r := range rows {
		if r.name != nil && (m == nil || *r.name < *m) {
			m = r.name
		}
	}
	return nullable(m)
}

func countName(rows []mrow) int64 {
	var n int64
	for _, r := range rows {
		if r.name != nil {
			n++
		}
	}
	return n
}

func surfaceCases() []surfaceCase {
	sorted := func(rows []mrow, c func(a, b mrow) int) []mrow {
		rows = slices.Clone(rows)
		slices.SortStableFunc(rows, c)
		return rows
	}
	gid := func(r mrow) []any { return []any{r.g, r.id} }
	return []surfaceCase{
		{
			name: "point get with parameters",
			sql:  "SELECT name, x FROM surface WHERE g = $1 AND id = $2",
			args: []any{3, 7},
			want: func(rows []mrow) [][]any {
				return project(where(rows, func(r mrow) bool { return r.g == 3 && r.id == 7 }),
					func(r mrow) []any { return []any{nullable(r.name), nullable(r.x)} })
			},
		},
		{
			name: "key prefix, ORDER BY key",
			sql:  "SELECT g, id, x FROM surface WHERE g = $1 ORDER BY id",
			args: []any{2},
			want: func(rows []mrow) [][]any {
				return project(sorted(where(rows, func(r mrow) bool { return r.g == 2 }), byKey),
					func(r mrow) []any { return []any{r.g, r.id, nullable(r.x)} })
			},
		},
		{
			name: "key prefix range, descending",
			sql:  "SELECT id FROM surface WHERE g = $1 AND id >= $2 AND id < $3 ORDER BY id DESC",
			args: []any{4, 5, 11},
			want: func(rows []mrow) [][]any {
				return project(sorted(where(rows, func(r mrow) bool { return r.g == 4 && r.id >= 5 && r.id < 11 }),
					func(a, b mrow) int { return -byKey(a, b) }), func(r mrow) []any { return []any{r.id} })
			},
		},
		{
			name: "select star, LIKE and AND",
			sql:  "SELECT * FROM surface WHERE name LIKE '%a%' AND g <= 2 ORDER BY g, id",
			want: func(rows []mrow) [][]any {
				return project(sorted(where(rows, func(r mrow) bool {
					return r.name != nil && strings.Contains(*r.name, "a") && r.g <= 2
				}), byKey), mrow.all)
			},
		},
		{
			name: "BETWEEN",
			sql:  "SELECT g, id FROM surface WHERE x BETWEEN 10 AND 50 ORDER BY g, id",
			want: func(rows []mrow) [][]any {
				return project(sorted(where(rows, func(r mrow) bool { return r.x != nil && *r.x >= 10 && *r.x <= 50 }), byKey), gid)
			},
		},
		{
			name: "IN list",
			sql:  "SELECT g, id, name FROM surface WHERE name IN ('alpha', 'charlie') ORDER BY g, id",
			want: func(rows []mrow) [][]any {
				return project(sorted(where(rows, func(r mrow) bool {
					return r.name != nil && (*r.name == "alpha" || *r.name == "charlie")
				}), byKey), func(r mrow) []any { return []any{r.g, r.id, *r.name} })
			},
		},
		{
			name: "IS NULL",
			sql:  "SELECT g, id FROM surface WHERE x IS NULL",
			want: func(rows []mrow) [][]any {
				return project(where(rows, func(r mrow) bool { return r.x == nil }), gid)
			},
			unordered: true,
		},
		{
			name: "IS NOT NULL AND NOT",
			sql:  "SELECT g, id FROM surface WHERE x IS NOT NULL AND NOT flag",
			want: func(rows []mrow) [][]any {
				return project(where(rows, func(r mrow) bool { return r.x != nil && r.flag != nil && !*r.flag }), gid)
			},
			unordered: true,
		},
		{
			name: "LIKE with _ OR key",
			sql:  "SELECT g, id FROM surface WHERE name LIKE '_r%' OR id = 3",
			want: func(rows []mrow) [][]any {
				return project(where(rows, func(r mrow) bool {
					return (r.name != nil && len(*r.name) >= 2 && (*r.name)[1] == 'r') || r.id == 3
				}), gid)
			},
			unordered: true,
		},
		{
			name: "not equal",
			sql:  "SELECT g, id FROM surface WHERE x <> $1",
			args: []any{20.0},
			want: func(rows []mrow) [][]any {
				return project(where(rows, func(r mrow) bool { return r.x != nil && *r.x != 20 }), gid)
			},
			unordered: true,
		},
		{
			name: "NOT over OR with NULLs",
			sql:  "SELECT g, id FROM surface WHERE NOT (g = 1 OR x > 0)",
			want: func(rows []mrow) [][]any {
				return project(where(rows, func(r mrow) bool { return r.g != 1 && r.x != nil && *r.x <= 0 }), gid)
			},
			unordered: true,
		},
		{
			name: "IN on key, LIMIT OFFSET",
			sql:  "SELECT g, id FROM surface WHERE g IN (1, 3) ORDER BY g, id LIMIT 7 OFFSET 12",
			want: func(rows []mrow) [][]any {
				return project(limitOffset(sorted(where(rows, func(r mrow) bool { return r.g == 1 || r.g == 3 }), byKey), 7, 12), gid)
			},
		},
		{
			name: "ORDER BY DESC puts NULLs first",
			sql:  "SELECT g, id, x FROM surface ORDER BY x DESC, g, id LIMIT 12 OFFSET 3",
			want: func(rows []mrow) [][]any {
				return project(limitOffset(sorted(rows, func(a, b mrow) int {
					return cmp.Or(-cmpNullsLast(a.x, b.x), byKey(a, b))
				}), 12, 3), func(r mrow) []any { return []any{r.g, r.id, nullable(r.x)} })
			},
		},
		{
			name: "ORDER BY ASC puts NULLs last, mixed directions",
			sql:  "SELECT g, id, name FROM surface ORDER BY name, g DESC, id",
			want: func(rows []mrow) [][]any {
				return project(sorted(rows, func(a, b mrow) int {
					return cmp.Or(cmpNullsLast(a.name, b.name), -cmp.Compare(a.g, b.g), cmp.Compare(a.id, b.id))
				}), func(r mrow) []any { return []any{r.g, r.id, nullable(r.name)} })
			},
		},
		{
			name: "LIMIT parameter",
			sql:  "SELECT g, id FROM surface ORDER BY g DESC, id DESC LIMIT $1",
			args: []any{5},
			want: func(rows []mrow) [][]any {
				return project(limitOffset(sorted(rows, func(a, b mrow) int { return -byKey(a, b) }), 5, 0), gid)
			},
		},
		{
			name: "expressions in the projection",
			sql:  "SELECT id, x * 2 + 1, -id, g + id FROM surface WHERE g = 2 ORDER BY id",
			want: func(rows []mrow) [][]any {
				return project(sorted(where(rows, func(r mrow) bool { return r.g == 2 }), byKey), func(r mrow) []any {
					var x any
					if r.x != nil {
						x = *r.x*2 + 1
					}
					return []any{r.id, x, -r.id, r.g + r.id}
				})
			},
		},
		{
			name: "aggregates over the table",
			sql:  "SELECT count(*), count(x), sum(x), min(x), max(x), avg(x) FROM surface",
			want: func(rows []mrow) [][]any { return [][]any{aggregates(rows)} },
		},
		{
			name: "aggregates with a parameter filter",
			sql:  "SELECT count(*), count(x), sum(x), min(x), max(x), avg(x) FROM surface WHERE x > $1",
			args: []any{12.5},
			want: func(rows []mrow) [][]any {
				return [][]any{aggregates(where(rows, func(r mrow) bool { return r.x != nil && *r.x > 12.5 }))}
			},
		},
		{
			name: "aggregates over no rows",
			sql:  "SELECT count(*), count(x), sum(x), min(x), max(x), avg(x) FROM surface WHERE g = 99",
			want: func(rows []mrow) [][]any { return [][]any{aggregates(nil)} },
		},
		{
			name: "GROUP BY key column",
			sql:  "SELECT g, count(*), sum(id), min(name), max(x) FROM surface GROUP BY g ORDER BY g",
			want: func(rows []mrow) [][]any {
				var out [][]any
				for _, grp := range groupBy(rows, func(r mrow) *int64 { return &r.g }) {
					var sumID int64
					for _, r := range grp.rows {
						sumID += r.id
					}
					a := aggregates(grp.rows)
					out = append(out, []any{grp.key, a[0], sumID, minName(grp.rows), a[4]})
				}
				return out
			},
		},
		{
			name: "GROUP BY with WHERE, descending",
			sql:  "SELECT g, avg(x), count(name) FROM surface WHERE id > 5 GROUP BY g ORDER BY g DESC",
			want: func(rows []mrow) [][]any {
				var out [][]any
				for _, grp := range groupBy(where(rows, func(r mrow) bool { return r.id > 5 }), func(r mrow) *int64 { return &r.g }) {
					out = append(out, []any{grp.key, aggregates(grp.rows)[5], countName(grp.rows)})
				}
				slices.Reverse(out)
				return out
			},
		},
		{
			name: "GROUP BY a nullable column",
			sql:  "SELECT name, count(*), min(x) FROM surface GROUP BY name ORDER BY name",
			want: func(rows []mrow) [][]any {
				var out [][]any
				for _, grp := range groupBy(rows, func(r mrow) *string { return r.name }) {
					a := aggregates(grp.rows)
					out = append(out, []any{grp.key, a[0], a[3]})
				}
				return out
			},
		},
		{
			name: "no rows",
			sql:  "SELECT id FROM surface WHERE g = 99",
			want: func(rows []mrow) [][]any { return [][]any{} },
		},
	}
}

// TestQuerySurface runs the WHERE / ORDER BY / LIMIT / aggregate surface
// through pgx, in the default mode and the simple protocol, and compares
// with the results computed from the data.
func TestQuerySurface(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	conn := tg.Connect(t, pgx.QueryExecModeCacheStatement)
	tg.CreateTable(t, conn, surfaceDDL)
	data := surfaceRows()
	// Multi-row inserts with parameters, in chunks.
	for start := 0; start < len(data); start += 20 {
		chunk := data[start:min(start+20, len(data))]
		var tuples []string
		var args []any
		for _, r := range chunk {
			n := len(args)
			tuples = append(tuples, fmt.Sprintf("($%d, $%d, $%d, $%d, $%d)", n+1, n+2, n+3, n+4, n+5))
			args = append(args, r.g, r.id, r.x, r.name, r.flag)
		}
		tag, err := conn.Exec(testCtx(t), "INSERT INTO surface VALUES "+strings.Join(tuples, ", "), args...)
		if err != nil {
			t.Fatalf("insert: %v", err)
		}
		if tag.RowsAffected() != int64(len(chunk)) {
			t.Fatalf("insert tag %q, want %d rows", tag, len(chunk))
		}
	}

	simple := tg.Connect(t, pgx.QueryExecModeSimpleProtocol)
	for _, tc := range surfaceCases() {
		for _, c := range []struct {
			mode string
			conn *pgx.Conn
		}{{"default", conn}, {"simple", simple}} {
			t.Run(tc.name+"/"+c.mode, func(t *testing.T) {
				got := queryAll(t, c.conn, tc.sql, tc.args...)
				want := tc.want(data)
				if tc.unordered {
					sortRows(got)
					sortRows(want)
				}
				if !rowsEqual(got, want) {
					t.Errorf("%s\n got  %v\n want %v", tc.sql, got, want)
				}
			})
		}
	}
}

// queryAll runs a query and returns its rows with numbers normalized to
// int64 or float64.
func queryAll(t *testing.T, conn *pgx.Conn, sql string, args ...any) [][]any {
	t.Helper()
	rows, err := conn.Query(testCtx(t), sql, args...)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	defer rows.Close()
	out := [][]any{}
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		for i, v := range vals {
			vals[i] = normalizeValue(v)
		}
		out = append(out, vals)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return out
}

func normalizeValue(v any) any {
	switch v := v.(type) {
	case int16:
		return int64(v)
	case int32:
		return int64(v)
	case float32:
		return float64(v)
	case pgtype.Numeric: // sum(bigint) and avg(integer) are numeric in PostgreSQL
		f, err := v.Float64Value()
		if err != nil || !f.Valid {
			return fmt.Sprintf("bad numeric %v", v)
		}
		return f.Float64
	}
	return v
}

func rowsEqual(a, b [][]any) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return false
		}
		for j := range a[i] {
			if !valueEqual(a[i][j], b[i][j]) {
				return false
			}
		}
	}
	return true
}

// valueEqual compares numbers by value (an integer sum may come back as a
// numeric) with a tolerance for float rounding (avg).
func valueEqual(a, b any) bool {
	fa, aNum := asFloat(a)
	fb, bNum := asFloat(b)
	if aNum && bNum {
		return fa == fb || math.Abs(fa-fb) <= 1e-9*math.Max(math.Abs(fa), math.Abs(fb))
	}
	return a == b
}

func asFloat(v any) (float64, bool) {
	switch v := v.(type) {
	case int64:
		return float64(v), true
	case float64:
		return v, true
	}
	return 0, false
}

func sortRows(rows [][]any) {
	slices.SortFunc(rows, func(a, b []any) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
}
