package session_test

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/wire"
)

// benchTable loads n readings-shaped rows with a btree and a Z-order index
// into an in-memory store and returns a session over it.
func benchTable(b *testing.B, n int) wire.Session {
	b.Helper()
	t := &testing.T{}
	_, sess := newSession(t, memStore(t))
	run := func(sql string) {
		if _, err := runSQL(context.Background(), sess, sql); err != nil {
			b.Fatalf("%s: %v", sql[:min(len(sql), 80)], err)
		}
	}
	run(`CREATE TABLE readings (sensor_id BIGINT NOT NULL, ts TIMESTAMP NOT NULL, celsius DOUBLE PRECISION,
		lat DOUBLE PRECISION, lon DOUBLE PRECISION, note TEXT, PRIMARY KEY (sensor_id, ts))`)
	run(`CREATE INDEX by_note ON readings (note, ts) INCLUDE (celsius)`)
	run(`CREATE INDEX by_place ON readings USING zorder (lat, lon, ts) INCLUDE (celsius, note)`)
	rng := rand.New(rand.NewSource(1))
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	insertRows(b, sess, "readings", n, func(i int) string {
		return fmt.Sprintf("(%d, '%s', %.2f, %.6f, %.6f, 'n%d')",
			i/100, base.Add(time.Duration(i%100)*time.Minute).Format("2006-01-02 15:04:05"), 15+rng.Float64()*10, 40+rng.Float64(), -74+rng.Float64(), rng.Intn(100))
	})
	return sess
}

// insertRows inserts n rows into table, 500 to a statement, each row's
// VALUES tuple from row.
func insertRows(tb testing.TB, sess wire.Session, table string, n int, row func(i int) string) {
	tb.Helper()
	var sb strings.Builder
	for i := 0; i < n; i++ {
		if sb.Len() == 0 {
			sb.WriteString("INSERT INTO " + table + " VALUES ")
		} else {
			sb.WriteString(", ")
		}
		sb.WriteString(row(i))
		if i%500 == 499 || i == n-1 {
			if _, err := runSQL(context.Background(), sess, sb.String()); err != nil {
				tb.Fatalf("INSERT INTO %s: %v", table, err)
			}
			sb.Reset()
		}
	}
}

func benchQuery(b *testing.B, sess wire.Session, sql string) {
	benchQueryParams(b, sess, sql, nil)
}

// benchQueryParams runs sql with the parameters, reporting allocations and
// the rows it returns.
func benchQueryParams(b *testing.B, sess wire.Session, sql string, params []sqltypes.Value) {
	benchQueryGen(b, sess, sql, func() []sqltypes.Value { return params })
}

// benchQueryGen is benchQueryParams with each run's parameters from gen.
func benchQueryGen(b *testing.B, sess wire.Session, sql string, gen func() []sqltypes.Value) {
	ctx := context.Background()
	stmts, err := sess.Parse(ctx, sql, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPU()
	rows := 0
	for i := 0; i < b.N; i++ {
		res, err := stmts[0].Execute(ctx, gen())
		if err != nil {
			b.Fatal(err)
		}
		for {
			_, ok, err := res.Next(ctx)
			if err != nil {
				b.Fatal(err)
			}
			if !ok {
				break
			}
			rows++
		}
		res.Close()
	}
	b.ReportMetric(float64(rows)/float64(b.N), "rows/op")
	// The process's CPU time (collector included) says more than the
	// elapsed time on a loaded machine.
	b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
}

func BenchmarkSelect(b *testing.B) {
	sess := benchTable(b, 20000)
	cases := []struct{ name, sql string }{
		{"point", `SELECT * FROM readings WHERE sensor_id = 42 AND ts = '2024-01-01 00:00:00'`},
		{"prefix", `SELECT * FROM readings WHERE sensor_id = 42`},
		{"latest", `SELECT * FROM readings WHERE sensor_id = 42 ORDER BY ts DESC LIMIT 1`},
		{"secondary", `SELECT sensor_id, celsius FROM readings WHERE note = 'n7'`},
		{"box2d", `SELECT sensor_id, celsius FROM readings WHERE lat BETWEEN 40.2 AND 40.5 AND lon BETWEEN -73.8 AND -73.5`},
		{"box3d", `SELECT sensor_id, celsius FROM readings WHERE lat BETWEEN 40.2 AND 40.5 AND lon BETWEEN -73.8 AND -73.5 AND ts >= '2024-01-01 00:20:00' AND ts < '2024-01-01 00:50:00'`},
		{"box_top100", `SELECT sensor_id, ts, celsius FROM readings WHERE lat BETWEEN 40.2 AND 40.5 AND lon BETWEEN -73.8 AND -73.5 ORDER BY ts DESC LIMIT 100`},
		{"secondary_limit", `SELECT * FROM readings WHERE note = 'n7' ORDER BY ts LIMIT 5`},
		{"box_aggregate", `SELECT count(*), avg(celsius) FROM readings WHERE lat BETWEEN 40.1 AND 40.9 AND lon BETWEEN -73.9 AND -73.1`},
		{"full_scan_aggregate", `SELECT count(*), avg(celsius) FROM readings WHERE celsius > 20`},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) { benchQuery(b, sess, c.sql) })
	}
}

// BenchmarkInsert500 inserts 500 rows per statement with parameters, as a
// bulk-loading client would, into a table with two indexes.
func BenchmarkInsert500(b *testing.B) {
	t := &testing.T{}
	_, sess := newSession(t, memStore(t))
	ctx := context.Background()
	for _, sql := range []string{
		`CREATE TABLE readings (sensor_id BIGINT NOT NULL, ts TIMESTAMP NOT NULL, celsius DOUBLE PRECISION,
			lat DOUBLE PRECISION, lon DOUBLE PRECISION, note TEXT, PRIMARY KEY (sensor_id, ts))`,
		`CREATE INDEX by_note ON readings (note, ts) INCLUDE (celsius)`,
		`CREATE INDEX by_place ON readings USING zorder (lat, lon, ts) INCLUDE (celsius, note)`,
	} {
		if _, err := runSQL(ctx, sess, sql); err != nil {
			b.Fatal(err)
		}
	}
	stmts, err := sess.Parse(ctx, insertPlaceholders(500), nil)
	if err != nil {
		b.Fatal(err)
	}
	if _, _, err := stmts[0].Describe(ctx); err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewSource(1))
	params := make([]sqltypes.Value, 3000)
	b.ReportAllocs()
	b.ResetTimer()
	for it := 0; it < b.N; it++ {
		for i := 0; i < 500; i++ {
			p := params[i*6:]
			p[0] = sqltypes.NewInt(int64(it))
			p[1] = sqltypes.NewTimestamp(int64(i) * 60_000_000)
			p[2] = sqltypes.NewFloat(20 + rng.Float64())
			p[3] = sqltypes.NewFloat(40 + rng.Float64())
			p[4] = sqltypes.NewFloat(-74 + rng.Float64())
			p[5] = sqltypes.NewText(fmt.Sprintf("n%d", rng.Intn(100)))
		}
		res, err := stmts[0].Execute(ctx, params)
		if err != nil {
			b.Fatal(err)
		}
		res.Close()
	}
	b.ReportMetric(float64(b.N*500)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkSpatial runs issue 30's spatial query classes (bench/sidebyside
// spatial.go) over 20,000 PostGIS points with a gist index, with their
// arguments as parameters as the side-by-side harness sends them: a box,
// an ST_DWithin radius, kNN with k = 10 and 100, and a point-in-polygon
// count of a hexagon.
func BenchmarkSpatial(b *testing.B) {
	t := &testing.T{}
	_, sess := newSession(t, memStore(t))
	ctx := context.Background()
	run := func(sql string) {
		if _, err := runSQL(ctx, sess, sql); err != nil {
			b.Fatalf("%s: %v", sql[:min(len(sql), 80)], err)
		}
	}
	run(`CREATE TABLE pois (id BIGINT PRIMARY KEY, geom geometry(Point, 4326), kind INT)`)
	rng := rand.New(rand.NewSource(1))
	const n = 20000
	var sb strings.Builder
	for i := 0; i < n; i++ {
		if sb.Len() == 0 {
			sb.WriteString("INSERT INTO pois VALUES ")
		} else {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, "(%d, ST_SetSRID(ST_MakePoint(%.9f, %.9f), 4326), %d)", i, 10+rng.Float64(), 50+rng.Float64(), rng.Intn(10))
		if i%500 == 499 || i == n-1 {
			run(sb.String())
			sb.Reset()
		}
	}
	run(`CREATE INDEX pois_geom ON pois USING gist (geom)`)
	run(`ANALYZE pois`)
	// About 100 points a box or radius, 1,000 in the hexagon.
	side := math.Sqrt(100.0 / n)
	radius := math.Sqrt(100.0 / n / math.Pi)
	hexR := math.Sqrt(1000.0 / n / (3 * math.Sqrt(3) / 2))
	var hex []string
	for i := 0; i <= 6; i++ {
		a := float64(i%6) * math.Pi / 3
		hex = append(hex, fmt.Sprintf("%.9f %.9f", 10.5+hexR*math.Cos(a), 50.5+hexR*math.Sin(a)))
	}
	f := sqltypes.NewFloat
	pt := "ST_SetSRID(ST_MakePoint($1, $2), 4326)"
	cases := []struct {
		name, sql string
		params    []sqltypes.Value
	}{
		{"box", `SELECT id, kind FROM pois WHERE geom && ST_MakeEnvelope($1, $2, $3, $4, 4326)`,
			[]sqltypes.Value{f(10.4), f(50.4), f(10.4 + side), f(50.4 + side)}},
		{"dwithin", `SELECT id, kind FROM pois WHERE ST_DWithin(geom, ` + pt + `, $3)`,
			[]sqltypes.Value{f(10.6), f(50.3), f(radius)}},
		{"knn10", `SELECT id, kind FROM pois ORDER BY geom <-> ` + pt + ` LIMIT 10`, []sqltypes.Value{f(10.3), f(50.7)}},
		{"knn100", `SELECT id, kind FROM pois ORDER BY geom <-> ` + pt + ` LIMIT 100`, []sqltypes.Value{f(10.3), f(50.7)}},
		{"polygon_count", `SELECT count(*) FROM pois WHERE ST_Within(geom, ST_GeomFromText($1, 4326))`,
			[]sqltypes.Value{sqltypes.NewText("POLYGON((" + strings.Join(hex, ",") + "))")}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) { benchQueryParams(b, sess, c.sql, c.params) })
		if testing.Verbose() {
			stmts, err := sess.Parse(ctx, "EXPLAIN ANALYZE "+c.sql, nil)
			if err != nil {
				b.Fatal(err)
			}
			res, err := stmts[0].Execute(ctx, c.params)
			if err != nil {
				b.Fatal(err)
			}
			for {
				row, ok, err := res.Next(ctx)
				if err != nil || !ok {
					break
				}
				b.Logf("%s: %s", c.name, row[0].S)
			}
			res.Close()
		}
	}
}

// BenchmarkDocs runs issue 28's document classes (bench/sidebyside
// docs.go) over 10,000 documents with gin indexes on a jsonb, a text array
// and a text body's tsvector, their arguments as parameters as the
// side-by-side harness sends them: each class returns about a hundred rows.
func BenchmarkDocs(b *testing.B) {
	t := &testing.T{}
	_, sess := newSession(t, memStore(t))
	ctx := context.Background()
	run := func(sql string) {
		if _, err := runSQL(ctx, sess, sql); err != nil {
			b.Fatalf("%s: %v", sql[:min(len(sql), 80)], err)
		}
	}
	const n = 10000
	word := func(i int) string { return fmt.Sprintf("qw%dx", i) }
	run(`CREATE TABLE docs (id BIGINT PRIMARY KEY, attrs JSONB, tags TEXT[], body TEXT)`)
	rng := rand.New(rand.NewSource(1))
	var sb strings.Builder
	for i := 0; i < n; i++ {
		if sb.Len() == 0 {
			sb.WriteString("INSERT INTO docs VALUES ")
		} else {
			sb.WriteString(", ")
		}
		body := "The"
		for j := 0; j < 6; j++ {
			body += " " + word(rng.Intn(n*6/100))
		}
		fmt.Fprintf(&sb, `(%d, '{"brand": "b%d", "color": "c%d", "size": %d, "dims": {"w": %d, "h": %d}, "x%d": true}', '{t%d,t%d,t%d}', '%s.')`,
			i, rng.Intn(n/100), rng.Intn(10), rng.Intn(5), rng.Intn(50), rng.Intn(50), rng.Intn(n/100),
			rng.Intn(n*3/100), rng.Intn(n*3/100), rng.Intn(n*3/100), body)
		if i%500 == 499 || i == n-1 {
			run(sb.String())
			sb.Reset()
		}
	}
	for _, sql := range []string{
		`CREATE INDEX docs_attrs ON docs USING gin (attrs)`,
		`CREATE INDEX docs_attrs_path ON docs USING gin (attrs jsonb_path_ops)`,
		`CREATE INDEX docs_tags ON docs USING gin (tags)`,
		`CREATE INDEX docs_body ON docs USING gin (to_tsvector('english', body))`,
		`VACUUM ANALYZE docs`, // compacted, as the side-by-side harness leaves it (-zproxy-vacuum)
	} {
		run(sql)
	}
	cases := []struct{ name, where, arg string }{
		{"jsonb_contains", `attrs @> $1::jsonb`, `{"brand": "b7"}`},
		{"jsonb_nested", `attrs @> $1::jsonb`, `{"dims": {"w": 27}, "color": "c4"}`},
		{"jsonb_key", `attrs ? $1`, `x12`},
		{"array_contains", `tags @> $1::text[]`, `{t31}`},
		{"array_overlap", `tags && $1::text[]`, `{t31,t77}`},
		{"fulltext_word", `to_tsvector('english', body) @@ to_tsquery('english', $1)`, word(42)},
		{"fulltext_or", `to_tsvector('english', body) @@ to_tsquery('english', $1)`, word(42) + " | " + word(43)},
		{"fulltext_plain", `to_tsvector('english', body) @@ plainto_tsquery('english', $1)`, word(44)},
	}
	for _, c := range cases {
		sql := `SELECT id, attrs ->> 'color' FROM docs WHERE ` + c.where
		stmts, err := sess.Parse(ctx, sql, nil)
		if err != nil {
			b.Fatal(err)
		}
		types, _, err := stmts[0].Describe(ctx)
		if err != nil {
			b.Fatal(err)
		}
		v, err := sqltypes.ParseText(types[0], c.arg)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) { benchQueryParams(b, sess, sql, []sqltypes.Value{v}) })
	}
}
