package session_test

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/wire"
)

// TestXZGistMatchesFullScans is the property test of gist indexes over
// geometries of any shape (XZ-ordering): random polygons, lines, points,
// empty and NULL geometries, some outside the index's world, under random
// INSERT, UPDATE, DELETE and COPY FROM, and random spatial predicates
// answered through the index and again with index scans off. The answers must be the same,
// the index must stay exact (CHECK TABLE), and the predicates must read it.
func TestXZGistMatchesFullScans(t *testing.T) {
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel() // the stores are the legs' own: DynamoDB Local's round trips overlap Pebble's work
			_, sess := newSession(t, be.open(t))
			mustExec(t, sess, "CREATE EXTENSION IF NOT EXISTS postgis")
			mustExec(t, sess, "CREATE TABLE sh (id int PRIMARY KEY, g geometry, tag int)")
			mustExec(t, sess, "CREATE INDEX sh_g ON sh USING gist (g)")
			rng := rand.New(rand.NewSource(7))
			coord := func() float64 {
				if rng.Intn(4) == 0 {
					return float64(rng.Intn(9) * 25) // on cell edges
				}
				return float64(rng.Intn(20000))/100 - 10
			}
			shape := func() string {
				x, y := coord(), coord()
				w, h := rng.Float64()*30, rng.Float64()*30
				switch rng.Intn(12) {
				case 0:
					return "NULL"
				case 1:
					return "'POLYGON EMPTY'"
				case 2:
					return fmt.Sprintf("'POINT(%g %g)'", x*1e5, y) // outside the world
				case 3, 4:
					return fmt.Sprintf("'POINT(%g %g)'", x, y)
				case 5, 6:
					return fmt.Sprintf("'LINESTRING(%g %g,%g %g)'", x, y, x+w, y-h)
				default:
					return fmt.Sprintf("'POLYGON((%g %g,%g %g,%g %g,%g %g))'", x, y, x+w, y, x+w/2, y+h, x, y)
				}
			}
			var rows []string
			for id := 0; id < 300; id++ {
				rows = append(rows, fmt.Sprintf("(%d, %s, %d)", id, shape(), rng.Intn(5)))
			}
			mustExec(t, sess, "INSERT INTO sh VALUES "+strings.Join(rows, ", "))
			ctx := context.Background()
			steps := 120
			if be.name == "dynamodb" {
				steps = 30
			}
			for step := 0; step < steps; step++ {
				id := rng.Intn(340)
				var write string
				switch rng.Intn(4) {
				case 3:
					// COPY FROM of new rows, as wire hands them over.
					var rows [][]sqltypes.Value
					for k := 0; k < 3; k++ {
						g := sqltypes.Null
						if text := shape(); text != "NULL" {
							v, err := sqltypes.ParseGeometryText(sqltypes.TypeGeometry, strings.Trim(text, "'"))
							if err != nil {
								t.Fatal(err)
							}
							g = v
						}
						rows = append(rows, []sqltypes.Value{sqltypes.NewInt(int64(1000 + 3*step + k)), g, sqltypes.NewInt(int64(k))})
					}
					if _, err := copyIn(ctx, sess, "COPY sh (id, g, tag) FROM STDIN", rows, 2); err != nil {
						t.Fatalf("step %d: COPY: %v", step, err)
					}
					write = "SELECT 1"
				case 0:
					write = fmt.Sprintf("INSERT INTO sh VALUES (%d, %s, %d) ON CONFLICT (id) DO UPDATE SET g = excluded.g", id, shape(), rng.Intn(5))
				case 1:
					write = fmt.Sprintf("UPDATE sh SET g = %s WHERE id %% 17 = %d", shape(), id%17)
				default:
					write = fmt.Sprintf("DELETE FROM sh WHERE id = %d", id)
				}
				if _, err := runSQL(ctx, sess, write); err != nil {
					t.Fatalf("step %d: %s: %v", step, write, err)
				}
				x, y := coord(), coord()
				w := rng.Float64() * 20
				env := fmt.Sprintf("ST_MakeEnvelope(%g, %g, %g, %g)", x, y, x+w, y+w)
				var pred string
				switch rng.Intn(6) {
				case 0:
					pred = "g && " + env
				case 1:
					pred = fmt.Sprintf("ST_Intersects(%s, g)", env)
				case 2:
					pred = fmt.Sprintf("ST_Within(g, %s)", env)
				case 3:
					pred = fmt.Sprintf("ST_Contains(g, 'POINT(%g %g)')", x, y)
				case 4:
					pred = fmt.Sprintf("ST_DWithin(g, 'POINT(%g %g)', %g)", x, y, w)
				default:
					pred = fmt.Sprintf("ST_Intersects(g, 'LINESTRING(%g %g,%g %g)')", x, y, x+w, y-w)
				}
				q := "SELECT id FROM sh WHERE " + pred + " ORDER BY id"
				plan := strings.Join(mustExec(t, sess, "EXPLAIN "+q), "\n")
				if !strings.Contains(plan, "sh_g") {
					t.Fatalf("step %d: %s does not read the gist index:\n%s", step, q, plan)
				}
				got := mustExec(t, sess, q)
				want := withoutIndexReads(t, sess, func() []string { return mustExec(t, sess, q) })
				if strings.Join(got, ",") != strings.Join(want, ",") {
					t.Fatalf("step %d: %s\nthrough the index: %v\nfull scan:         %v\nplan:\n%s", step, q, got, want, plan)
				}
				if step%30 == 0 {
					checkConsistent(t, sess, "sh")
				}
			}
			checkConsistent(t, sess, "sh")
		})
	}
}

// TestXZGistPlan: EXPLAIN names the index and shows its code ranges, and
// a small box reads a few entries of a thousand polygons where a full scan
// reads them all (EXPLAIN ANALYZE's items read).
func TestXZGistPlan(t *testing.T) {
	_, sess := newSession(t, backends(t)[0].open(t))
	mustExec(t, sess, "CREATE EXTENSION IF NOT EXISTS postgis")
	mustExec(t, sess, "CREATE TABLE zones (id int PRIMARY KEY, geom geometry(Polygon, 4326))")
	mustExec(t, sess, `INSERT INTO zones SELECT i * 40 + j, ST_MakeEnvelope(-74 + i * 0.01, 40 + j * 0.01, -74 + i * 0.01 + 0.01, 40 + j * 0.01 + 0.01, 4326)
		FROM generate_series(0, 24) i, generate_series(0, 39) j`)
	mustExec(t, sess, "CREATE INDEX zones_geom ON zones USING gist (geom)")
	q := "SELECT id FROM zones WHERE ST_Intersects(geom, 'SRID=4326;POINT(-73.955 40.205)')"
	plan := strings.Join(mustExec(t, sess, "EXPLAIN "+q), "\n")
	for _, want := range []string{"zones_geom", "zp_xz2(geom", "residual filter: st_intersects"} {
		if !strings.Contains(plan, want) {
			t.Errorf("the plan lacks %q:\n%s", want, plan)
		}
	}
	if got := mustExec(t, sess, q); strings.Join(got, ",") != "180" {
		t.Errorf("%s = %v, want 180", q, got)
	}
	through, _ := itemsRead(t, sess, "EXPLAIN ANALYZE "+q)
	full := 0
	withoutIndexReads(t, sess, func() []string { full, _ = itemsRead(t, sess, "EXPLAIN ANALYZE "+q); return nil })
	t.Logf("a point among 1000 polygons: %d items read through the index, %d by a full scan", through, full)
	if full < 1000 || through > 40 {
		t.Errorf("items read: %d through the index, %d by a full scan", through, full)
	}
}

// withoutIndexReads runs f with index reads off (enable_indexscan and
// enable_bitmapscan, which zproxy turns off together) and returns its
// answer.
func withoutIndexReads(t *testing.T, sess wire.Session, f func() []string) []string {
	t.Helper()
	mustExec(t, sess, "SET enable_indexscan = off")
	mustExec(t, sess, "SET enable_bitmapscan = off")
	defer mustExec(t, sess, "RESET enable_bitmapscan")
	defer mustExec(t, sess, "RESET enable_indexscan")
	return f()
}

// TestSpatialLookupJoin: a point-in-polygon join reads, per zone, the
// points of its box through the gist index (EXPLAIN names it), and reads
// far fewer items than the nested loop that reads every point per zone.
func TestSpatialLookupJoin(t *testing.T) {
	_, sess := newSession(t, backends(t)[0].open(t))
	mustExec(t, sess, "CREATE EXTENSION IF NOT EXISTS postgis")
	mustExec(t, sess, "CREATE TABLE zones (id int PRIMARY KEY, geom geometry(Polygon, 4326))")
	mustExec(t, sess, `INSERT INTO zones SELECT i * 10 + j, ST_MakeEnvelope(-74 + i * 0.1, 40 + j * 0.1, -74 + i * 0.1 + 0.1, 40 + j * 0.1 + 0.1, 4326)
		FROM generate_series(0, 4) i, generate_series(0, 3) j`)
	mustExec(t, sess, "CREATE TABLE pois (id int PRIMARY KEY, geom geometry(Point, 4326))")
	mustExec(t, sess, `INSERT INTO pois SELECT i, ST_SetSRID(ST_MakePoint(-74.005 + (i % 60) * 0.01, 39.995 + (i / 60) * 0.01), 4326) FROM generate_series(0, 2999) i`)
	mustExec(t, sess, "CREATE INDEX pois_geom ON pois USING gist (geom)")
	q := "SELECT z.id, count(*) FROM zones z JOIN pois p ON ST_Within(p.geom, z.geom) GROUP BY z.id ORDER BY z.id"
	plan := strings.Join(mustExec(t, sess, "EXPLAIN "+q), "\n")
	if !strings.Contains(plan, "spatial lookup join") || !strings.Contains(plan, "pois_geom") {
		t.Fatalf("not a spatial lookup join:\n%s", plan)
	}
	got := mustExec(t, sess, q)
	through, _ := itemsRead(t, sess, "EXPLAIN ANALYZE "+q)
	var want []string
	full := 0
	withoutIndexReads(t, sess, func() []string {
		want = mustExec(t, sess, q)
		full, _ = itemsRead(t, sess, "EXPLAIN ANALYZE "+q)
		return nil
	})
	if strings.Join(got, ",") != strings.Join(want, ",") || len(got) != 20 {
		t.Fatalf("%s through the index: %v, without: %v", q, got, want)
	}
	t.Logf("20 zones joined with 3000 points: %d items read through the gist index, %d without index reads", through, full)
	if through > 3000 || full < 20*3000 {
		t.Errorf("items read: %d through the index, %d without", through, full)
	}
}

// TestAdvisorRecommendsGist: a workload of spatial predicates on polygons
// and nearest-neighbour queries on points gets a gist index on each
// column; once made, the same queries read far fewer items.
func TestAdvisorRecommendsGist(t *testing.T) {
	eng := newEngine(t, memStore(t))
	defer eng.Close()
	sess := openSession(t, eng)
	mustExec(t, sess, "CREATE EXTENSION IF NOT EXISTS postgis")
	mustExec(t, sess, "CREATE TABLE zones (id int PRIMARY KEY, geom geometry(Polygon, 4326))")
	mustExec(t, sess, `INSERT INTO zones SELECT i * 100 + j, ST_MakeEnvelope(-74 + i * 0.01, 40 + j * 0.01, -74 + i * 0.01 + 0.01, 40 + j * 0.01 + 0.01, 4326)
		FROM generate_series(0, 49) i, generate_series(0, 49) j`)
	mustExec(t, sess, "CREATE TABLE pois (id int PRIMARY KEY, geom geometry(Point, 4326))")
	mustExec(t, sess, `INSERT INTO pois SELECT i, ST_SetSRID(ST_MakePoint(-74 + (i % 50) * 0.01, 40 + (i / 50) * 0.01), 4326) FROM generate_series(0, 2499) i`)
	mustExec(t, sess, "ANALYZE")
	workload := func() {
		for i := 0; i < 10; i++ {
			x, y := -74+float64(i)*0.04, 40+float64(i)*0.03
			mustExec(t, sess, fmt.Sprintf("SELECT id FROM zones WHERE ST_Intersects(geom, 'SRID=4326;POINT(%g %g)')", x+0.005, y+0.005))
			mustExec(t, sess, fmt.Sprintf("SELECT id FROM pois ORDER BY geom <-> 'SRID=4326;POINT(%g %g)'::geometry LIMIT 5", x, y))
		}
	}
	mustExec(t, sess, `SELECT pg_stat_statements_reset()`)
	workload()
	items := func() int64 { return statementItems(t, sess, "SELECT id FROM %geom%", "20") }
	before := items()
	advice := mustExec(t, sess, `SELECT recommendation FROM zproxy_index_advice WHERE kind = 'gist' ORDER BY recommendation`)
	want := []string{"CREATE INDEX pois_geom_idx ON pois USING gist (geom)", "CREATE INDEX zones_geom_idx ON zones USING gist (geom)"}
	if strings.Join(advice, "\n") != strings.Join(want, "\n") {
		t.Fatalf("gist advice: %v, want %v", advice, want)
	}
	for _, sql := range advice {
		mustExec(t, sess, sql)
	}
	mustExec(t, sess, `SELECT pg_stat_statements_reset()`)
	workload()
	after := items()
	t.Logf("the workload read %d items without gist indexes, %d with the advised ones", before, after)
	if after*10 > before {
		t.Errorf("the advised gist indexes read %d items, %d before", after, before)
	}
}

// TestGeographyGistMatchesFullScans: ST_DWithin on a geography(Point)
// gist index (longitude and latitude bounded by a spherical cap's box)
// answers as a full scan does, for random points and centres everywhere,
// poles and the antimeridian included, on the spheroid and the sphere.
func TestGeographyGistMatchesFullScans(t *testing.T) {
	_, sess := newSession(t, backends(t)[0].open(t))
	mustExec(t, sess, "CREATE EXTENSION IF NOT EXISTS postgis")
	mustExec(t, sess, "CREATE TABLE pl (id int PRIMARY KEY, g geography(Point, 4326))")
	mustExec(t, sess, "CREATE INDEX pl_g ON pl USING gist (g)")
	rng := rand.New(rand.NewSource(11))
	lonLat := func() (float64, float64) {
		lon, lat := rng.Float64()*360-180, math.Asin(rng.Float64()*2-1)*180/math.Pi
		switch rng.Intn(6) {
		case 0:
			lon = 180 - rng.Float64()*2*float64(rng.Intn(2)*2-1) // near the antimeridian
			lon = math.Max(-180, math.Min(180, lon))
		case 1:
			lat = (90 - rng.Float64()*3) * float64(rng.Intn(2)*2-1) // near a pole
		}
		return lon, lat
	}
	var rows []string
	for id := 0; id < 600; id++ {
		lon, lat := lonLat()
		rows = append(rows, fmt.Sprintf("(%d, 'SRID=4326;POINT(%.6f %.6f)')", id, lon, lat))
	}
	mustExec(t, sess, "INSERT INTO pl VALUES "+strings.Join(rows, ", "))
	found := 0
	for i := 0; i < 80; i++ {
		lon, lat := lonLat()
		d := math.Pow(10, 3+rng.Float64()*3.5) // 1 km to 3000 km
		q := fmt.Sprintf("SELECT id FROM pl WHERE ST_DWithin(g, 'SRID=4326;POINT(%.6f %.6f)', %.1f%s) ORDER BY id", lon, lat, d,
			[]string{"", ", true", ", false"}[rng.Intn(3)])
		if plan := strings.Join(mustExec(t, sess, "EXPLAIN "+q), "\n"); !strings.Contains(plan, "pl_g") {
			t.Fatalf("%s does not read the gist index:\n%s", q, plan)
		}
		got := mustExec(t, sess, q)
		want := withoutIndexReads(t, sess, func() []string { return mustExec(t, sess, q) })
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("%s\nthrough the index: %v\nfull scan:         %v", q, got, want)
		}
		found += len(got)
	}
	if found < 100 {
		t.Fatalf("the queries found %d points in all: too few to test anything", found)
	}
}

// TestShapeGistPlans: over box, polygon and circle columns the gist index
// (XZ-ordering) serves &&, @>, <@ and ~= against a constant, either side.
func TestShapeGistPlans(t *testing.T) {
	_, sess := newSession(t, backends(t)[0].open(t))
	mustExec(t, sess, "CREATE TABLE bx (id int PRIMARY KEY, b box, p polygon, c circle)")
	mustExec(t, sess, "INSERT INTO bx SELECT i, box(point(i, i), point(i + 1, i + 2)), polygon(box(point(i, 0), point(i + 1, 1))), circle(point(i, i), 1) FROM generate_series(0, 99) i")
	for _, col := range []string{"b", "p", "c"} {
		mustExec(t, sess, fmt.Sprintf("CREATE INDEX bx_%s ON bx USING gist (%s)", col, col))
	}
	for q, ix := range map[string]string{
		"SELECT id FROM bx WHERE b && box '((10,10),(12,11))'":       "bx_b",
		"SELECT id FROM bx WHERE box '((0,0),(10,7))' @> b":          "bx_b",
		"SELECT id FROM bx WHERE p @> point '(9,0.5)'":               "bx_p",
		"SELECT id FROM bx WHERE p <@ polygon '((0,0),(5,0),(0,5))'": "bx_p",
		"SELECT id FROM bx WHERE c && circle '<(30,30),2>'":          "bx_c",
		"SELECT id FROM bx WHERE c ~= circle '<(9,9),1>'":            "bx_c",
		"SELECT id FROM bx WHERE b ~= box '((9,9),(10,11))'":         "bx_b",
	} {
		plan := strings.Join(mustExec(t, sess, "EXPLAIN "+q), "\n")
		if !strings.Contains(plan, "via btree index "+ix) {
			t.Errorf("%s does not read %s:\n%s", q, ix, plan)
		}
		got := mustExec(t, sess, q+" ORDER BY id")
		want := withoutIndexReads(t, sess, func() []string { return mustExec(t, sess, q+" ORDER BY id") })
		if strings.Join(got, ",") != strings.Join(want, ",") || len(got) == 0 {
			t.Errorf("%s: %v through the index, %v without", q, got, want)
		}
	}
}
