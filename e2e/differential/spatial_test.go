package differential

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

var spatialQueries = flag.Int("spatial-queries", 240, "statements of TestSpatialAgainstPostGIS per store (DynamoDB Local runs a quarter)")

// TestSpatialAgainstPostGIS is the differential test of issue 30's PostGIS
// subset against PostgreSQL 15 with PostGIS 3, on Pebble and on DynamoDB
// Local: the same random points (clusters, duplicates, grid points that
// boxes end on, NULL and empty geometries), polygons and geography points
// on both, with gist indexes and statistics, then random boxes (at the
// data's edges, empty, inverted), point-in-polygon and radius filters,
// kNN from random centres with k = 1, 10, 100 and 1000 (ties broken by
// id), boxes and kNN over the polygons' (XZ) gist index and kNN over the
// geography points', a spatial join, the accessors and output formats,
// geography distances on the spheroid and the sphere, and SRID
// mismatches. Every
// answer must be PostGIS's: the same rows in the same order, floats to
// within 1e-9, errors by SQLSTATE.
func TestSpatialAgainstPostGIS(t *testing.T) {
	ctx := context.Background()
	pg, zproxyBin := postGIS(t, ctx)
	type store struct {
		name      string
		args, env []string
		size      int // the share of the points and statements: 1 on Pebble
	}
	stores := []store{{name: "pebble", size: 1}}
	if ep := os.Getenv("DYNAMODB_ENDPOINT"); ep != "" {
		stores = append(stores, store{name: "dynamodb", size: 4,
			args: []string{"--backend", "dynamodb", "--dynamodb-endpoint", ep, "--dynamodb-table", fmt.Sprintf("spatialdiff_%d", os.Getpid())},
			env:  []string{"AWS_ACCESS_KEY_ID=zproxytest", "AWS_SECRET_ACCESS_KEY=zproxytest", "AWS_REGION=us-east-1"}})
	}
	for _, st := range stores {
		t.Run(st.name, func(t *testing.T) {
			zp := startZproxyWith(t, zproxyBin, st.env, st.args...)
			zc, err := pgx.Connect(ctx, dsnOf(zp))
			if err != nil {
				t.Fatal(err)
			}
			defer zc.Close(ctx)
			d := &spatialDiff{t: t, ctx: ctx, pg: pg, zp: zc, rng: rand.New(rand.NewSource(int64(*seed)))}
			d.load(2400 / st.size)
			for i := 0; i < *spatialQueries/st.size; i++ {
				sql, keys := d.query()
				d.compare(sql, keys)
			}
			t.Logf("%d statements compared, %d errors on both sides alike", d.compared, d.bothFailed)
			if d.compared < *spatialQueries/st.size/2 {
				t.Fatalf("only %d statements compared", d.compared)
			}
		})
	}
}

// postGIS starts the servers of a test against PostGIS: a PostgreSQL 15
// cluster with the postgis extension created (the test is skipped where
// PostGIS is not installed, and fails under CI, whose test command
// installs it) and zproxy's binary.
func postGIS(t *testing.T, ctx context.Context) (pg *pgx.Conn, zproxyBin string) {
	t.Helper()
	pgDSN, zproxyBin := servers(t)
	pg, err := pgx.Connect(ctx, pgDSN)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pg.Close(context.Background()) })
	if _, err := pg.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS postgis"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("PostGIS (Debian's postgresql-15-postgis-3, which the test command installs): %v", err)
		}
		t.Skipf("PostGIS is not installed for PostgreSQL 15: %v", err)
	}
	return pg, zproxyBin
}

// sameAnswer runs sql on PostgreSQL and on zproxy and fails the test on
// any difference but an informational one (rows in the order of the
// ORDER BY positions order.keys, floats to within 1e-9, errors by
// SQLSTATE); it returns PostgreSQL's result.
func sameAnswer(t *testing.T, ctx context.Context, pg, zc *pgx.Conn, sql string, order orderSpec) result {
	t.Helper()
	pgRes := run(ctx, pg, sql, time.Minute)
	zpRes := run(ctx, zc, sql, time.Minute)
	for _, m := range compareResults(pgRes, zpRes, order) {
		if informational(m.kind) {
			continue
		}
		t.Fatalf("%s\n%s: %s\nPostgreSQL: %s\nzproxy:     %s", sql, m.kind, m.detail, formatResult(pgRes, 12), formatResult(zpRes, 12))
	}
	return pgRes
}

// postGISPair is postGIS with zproxy started on Pebble: a connection to
// each, the postgis extension created on both.
func postGISPair(t *testing.T, ctx context.Context) (pg, zc *pgx.Conn) {
	t.Helper()
	pg, zproxyBin := postGIS(t, ctx)
	zc, err := pgx.Connect(ctx, dsnOf(startZproxy(t, zproxyBin)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { zc.Close(context.Background()) })
	for _, c := range []*pgx.Conn{pg, zc} {
		if _, err := c.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS postgis"); err != nil {
			t.Fatal(err)
		}
	}
	return pg, zc
}

// spatialDiff runs one store's leg of TestSpatialAgainstPostGIS.
type spatialDiff struct {
	t                    *testing.T
	ctx                  context.Context
	pg, zp               *pgx.Conn
	rng                  *rand.Rand
	points               [][2]float64 // the finite points loaded, for boxes that end on them
	compared, bothFailed int
}

// exec runs a setup statement on both servers, which must both succeed.
func (d *spatialDiff) exec(sql string) {
	d.t.Helper()
	for _, c := range []*pgx.Conn{d.pg, d.zp} {
		if _, err := c.Exec(d.ctx, sql); err != nil {
			d.t.Fatalf("%s: %v", sql[:min(len(sql), 200)], err)
		}
	}
}

// coord is a coordinate in [0, 10] with four decimals, which both servers
// read to the same float.
func (d *spatialDiff) coord() float64 {
	return math.Round(d.rng.Float64()*10*1e4) / 1e4
}

// point is a random point's WKT: uniform, clustered (many within a few
// rows' distance of each other), on a grid of quarter units, or a copy of
// one loaded before (ties).
func (d *spatialDiff) point() (string, [2]float64, bool) {
	var p [2]float64
	switch r := d.rng.Intn(100); {
	case r < 3:
		return "NULL", p, false
	case r < 5:
		return "'SRID=4326;POINT EMPTY'", p, false
	case r < 15 && len(d.points) > 0:
		p = d.points[d.rng.Intn(len(d.points))]
	case r < 35:
		p = [2]float64{3 + math.Round(d.rng.NormFloat64()*0.05*1e4)/1e4, 7 + math.Round(d.rng.NormFloat64()*0.05*1e4)/1e4}
	case r < 45:
		p = [2]float64{float64(d.rng.Intn(41)) / 4, float64(d.rng.Intn(41)) / 4}
	default:
		p = [2]float64{d.coord(), d.coord()}
	}
	return fmt.Sprintf("'SRID=4326;POINT(%g %g)'", p[0], p[1]), p, true
}

// polygon is a random simple polygon's WKT: a star around a centre, its
// vertices at increasing angles.
func (d *spatialDiff) polygon(cx, cy, r float64) string {
	n := 3 + d.rng.Intn(7)
	var pts []string
	for i := 0; i < n; i++ {
		a := (float64(i) + 0.8*d.rng.Float64()) * 2 * math.Pi / float64(n)
		rr := r * (0.3 + 0.7*d.rng.Float64())
		pts = append(pts, fmt.Sprintf("%.4f %.4f", cx+rr*math.Cos(a), cy+rr*math.Sin(a)))
	}
	pts = append(pts, pts[0])
	return fmt.Sprintf("'SRID=4326;POLYGON((%s))'", strings.Join(pts, ", "))
}

// load makes the tables on both servers: n points, polygons, geography
// points; gist indexes; statistics.
func (d *spatialDiff) load(n int) {
	for _, sql := range []string{
		"DROP TABLE IF EXISTS sd_pois, sd_zones, sd_places",
		"CREATE TABLE sd_pois (id int PRIMARY KEY, geom geometry(Point, 4326), kind int)",
		"CREATE TABLE sd_zones (id int PRIMARY KEY, poly geometry(Polygon, 4326))",
		"CREATE TABLE sd_places (id int PRIMARY KEY, g geography(Point, 4326))",
	} {
		d.exec(sql)
	}
	var rows []string
	flush := func(table string) {
		if len(rows) > 0 {
			d.exec(fmt.Sprintf("INSERT INTO %s VALUES %s", table, strings.Join(rows, ", ")))
			rows = rows[:0]
		}
	}
	for id := 1; id <= n; id++ {
		wkt, p, ok := d.point()
		if ok {
			d.points = append(d.points, p)
		}
		rows = append(rows, fmt.Sprintf("(%d, %s, %d)", id, wkt, d.rng.Intn(5)))
		if len(rows) == 400 {
			flush("sd_pois")
		}
	}
	flush("sd_pois")
	// The index after most rows, as the benchmark builds it, then more
	// rows under it.
	d.exec("CREATE INDEX sd_pois_geom ON sd_pois USING gist (geom)")
	for id := n + 1; id <= n+n/10; id++ {
		wkt, p, ok := d.point()
		if ok {
			d.points = append(d.points, p)
		}
		rows = append(rows, fmt.Sprintf("(%d, %s, %d)", id, wkt, d.rng.Intn(5)))
	}
	flush("sd_pois")
	for id := 1; id <= 40; id++ {
		rows = append(rows, fmt.Sprintf("(%d, %s)", id, d.polygon(d.coord(), d.coord(), 0.2+d.rng.Float64())))
	}
	flush("sd_zones")
	d.exec("CREATE INDEX sd_zones_poly ON sd_zones USING gist (poly)")
	for id := 1; id <= 300; id++ {
		rows = append(rows, fmt.Sprintf("(%d, 'SRID=4326;POINT(%.4f %.4f)')", id, -180+360*d.rng.Float64(), -85+170*d.rng.Float64()))
	}
	flush("sd_places")
	d.exec("CREATE INDEX sd_places_g ON sd_places USING gist (g)")
	d.exec("ANALYZE sd_pois")
	d.exec("ANALYZE sd_zones")
	d.exec("ANALYZE sd_places")
}

// edge is a coordinate for a box's side: often one a loaded point has, so
// that boxes end exactly on points.
func (d *spatialDiff) edge(axis int) float64 {
	if len(d.points) > 0 && d.rng.Intn(3) == 0 {
		return d.points[d.rng.Intn(len(d.points))][axis]
	}
	return d.coord()
}

// centre is a query point's SQL: inside the data mostly, at times on a
// loaded point, on the data's edge or far outside it.
func (d *spatialDiff) centre() string {
	x, y := d.coord(), d.coord()
	switch d.rng.Intn(10) {
	case 0:
		if len(d.points) > 0 {
			p := d.points[d.rng.Intn(len(d.points))]
			x, y = p[0], p[1]
		}
	case 1:
		x, y = -3-d.coord(), 20+d.coord()
	case 2:
		x = 0
	}
	return fmt.Sprintf("ST_SetSRID(ST_MakePoint(%g, %g), 4326)", x, y)
}

// byID and byDistance are the output positions of the queries' ORDER BY:
// id, or a kNN search's distance and then id.
var byID, byDistance = []int{0}, []int{1, 0}

// query returns a random statement and the output positions its ORDER BY
// sorts on (none: its rows are compared as a multiset).
func (d *spatialDiff) query() (string, []int) {
	rng := d.rng
	box := func() string {
		x0, x1, y0, y1 := d.edge(0), d.edge(0), d.edge(1), d.edge(1)
		if rng.Intn(4) > 0 {
			x0, x1 = min(x0, x1), max(x0, x1)
			y0, y1 = min(y0, y1), max(y0, y1)
		}
		return fmt.Sprintf("ST_MakeEnvelope(%g, %g, %g, %g, 4326)", x0, y0, x1, y1)
	}
	switch rng.Intn(19) {
	case 16:
		// The polygons' gist index (an XZ one): a box, and the nearest.
		if rng.Intn(2) == 0 {
			op := []string{"poly && %s", "ST_Intersects(poly, %s)", "ST_Within(poly, %s)", "ST_Covers(%s, poly)"}[rng.Intn(4)]
			return "SELECT id FROM sd_zones WHERE " + fmt.Sprintf(op, box()) + " ORDER BY id", byID
		}
		c := d.centre()
		return fmt.Sprintf("SELECT id, poly <-> %s AS d FROM sd_zones ORDER BY poly <-> %s, id LIMIT %d", c, c, []int{1, 5, 40}[rng.Intn(3)]), byDistance
	case 17:
		// Geography's nearest: <-> on the sphere.
		c := fmt.Sprintf("ST_SetSRID(ST_MakePoint(%.4f, %.4f), 4326)::geography", -180+360*rng.Float64(), -85+170*rng.Float64())
		return fmt.Sprintf("SELECT id, g <-> %s AS d FROM sd_places ORDER BY g <-> %s, id LIMIT %d", c, c, []int{1, 10, 50}[rng.Intn(3)]), byDistance
	case 18:
		poly := d.polygon(d.coord(), d.coord(), 0.3+2*rng.Float64())
		return fmt.Sprintf("SELECT id FROM sd_zones WHERE ST_Intersects(poly, %[1]s) OR ST_DWithin(poly, ST_Centroid(%[1]s), 0.1) ORDER BY id", poly), byID
	case 14:
		// Parsing and printing: WKT, GeoJSON, EWKB, and back.
		g := strings.Trim(d.polygon(d.coord(), d.coord(), 0.1+rng.Float64()), "'")
		if rng.Intn(2) == 0 {
			g = fmt.Sprintf("SRID=4326;POINT(%g %g)", d.coord(), d.coord())
		}
		return fmt.Sprintf(`SELECT ST_AsText(ST_GeomFromText('%[1]s')), ST_AsGeoJSON(ST_GeomFromText('%[1]s')), ST_SRID(ST_GeomFromText('%[1]s')),
			ST_AsText(ST_GeomFromGeoJSON(ST_AsGeoJSON(ST_GeomFromText('%[1]s')))), encode(ST_AsBinary(ST_GeomFromText('%[1]s')), 'hex'),
			ST_GeomFromText('%[1]s')::text, ST_AsText(ST_Envelope(ST_GeomFromText('%[1]s')))`, g), nil
	case 15:
		x, y, r := d.coord(), d.coord(), []float64{0.001, 0.5, 3}[rng.Intn(3)]
		return fmt.Sprintf(`SELECT ST_AsText(ST_Buffer(ST_Point(%[1]g, %[2]g), %[3]g)), ST_AsText(ST_Point(%[1]g, %[2]g, 4326)),
			ST_AsEWKT(ST_MakePoint(%[1]g, %[2]g)), ST_X(ST_Point(%[1]g, %[2]g)), ST_DistanceSphere(ST_Point(%[1]g, %[2]g), ST_Point(%[2]g, %[1]g))`, x, y, r), nil
	case 0, 1:
		// (PostGIS's gist scan of ~ returns the empty points inserted
		// after the index was built, though ~ itself is false for them,
		// where a sequential scan does not: the test leaves them out.)
		op := []string{"geom && %s", "ST_Intersects(geom, %s)", "ST_Within(geom, %s)", "ST_Contains(%s, geom)",
			"%s ~ geom AND NOT ST_IsEmpty(geom)", "geom @ %s AND NOT ST_IsEmpty(geom)"}[rng.Intn(6)]
		return "SELECT id FROM sd_pois WHERE " + fmt.Sprintf(op, box()) + " ORDER BY id", byID
	case 2:
		poly := d.polygon(d.coord(), d.coord(), 0.3+2*rng.Float64())
		return fmt.Sprintf("SELECT id, kind FROM sd_pois WHERE ST_Within(geom, %s) ORDER BY id", poly), byID
	case 3:
		r := []float64{0, 0.01, 0.1, 0.5, 2}[rng.Intn(5)]
		return fmt.Sprintf("SELECT id FROM sd_pois WHERE ST_DWithin(geom, %s, %g) ORDER BY id", d.centre(), r), byID
	case 4, 5, 6:
		k := []int{1, 10, 100, 1000}[rng.Intn(4)]
		c := d.centre()
		where := ""
		if rng.Intn(4) == 0 {
			where = fmt.Sprintf(" WHERE kind = %d", rng.Intn(5))
		}
		return fmt.Sprintf("SELECT id, geom <-> %s AS d FROM sd_pois%s ORDER BY geom <-> %s, id LIMIT %d", c, where, c, k), byDistance
	case 7:
		return "SELECT z.id, count(p.id) FROM sd_zones z JOIN sd_pois p ON ST_Within(p.geom, z.poly) GROUP BY z.id ORDER BY z.id", byID
	case 8:
		id := 1 + rng.Intn(len(d.points)+10)
		return fmt.Sprintf(`SELECT id, ST_AsText(geom), ST_AsEWKT(geom), ST_X(geom), ST_Y(geom), ST_SRID(geom), ST_AsGeoJSON(geom),
			encode(ST_AsBinary(geom), 'hex'), geom::text, ST_IsEmpty(geom), ST_AsText(ST_Envelope(geom)),
			ST_Distance(geom, %s), ST_DistanceSphere(geom, %s)
			FROM sd_pois WHERE id BETWEEN %d AND %d ORDER BY id`, d.centre(), d.centre(), id, id+20), byID
	case 9:
		return fmt.Sprintf(`SELECT id, ST_AsText(ST_Envelope(poly)), ST_Intersects(poly, %s), ST_Contains(poly, %s),
			ST_Distance(poly, %s), poly && %s FROM sd_zones ORDER BY id`, d.centre(), d.centre(), d.centre(), box()), byID
	case 10:
		x, y := -180+360*rng.Float64(), -85+170*rng.Float64()
		c := fmt.Sprintf("ST_SetSRID(ST_MakePoint(%.4f, %.4f), 4326)::geography", x, y)
		m := []float64{1e3, 1e5, 1e6, 5e6}[rng.Intn(4)]
		return fmt.Sprintf(`SELECT id, ST_Distance(g, %s), ST_Distance(g, %s, false) FROM sd_places
			WHERE ST_DWithin(g, %s, %g) ORDER BY id`, c, c, c, m), byID
	case 11:
		// An SRID mismatch is PostGIS's error (XX000), before any row.
		return fmt.Sprintf("SELECT id FROM sd_pois WHERE ST_DWithin(geom, ST_SetSRID(ST_MakePoint(1, 1), %d), 1) ORDER BY id",
			[]int{3857, 0}[rng.Intn(2)]), byID
	case 12:
		return "SELECT id, geom IS NULL, ST_IsEmpty(geom), ST_AsText(geom) FROM sd_pois WHERE geom IS NULL OR ST_IsEmpty(geom) ORDER BY id", byID
	default:
		x, y := d.coord(), d.coord()
		r := 0.1 + rng.Float64()
		return fmt.Sprintf(`SELECT count(*), min(id), max(id) FROM sd_pois
			WHERE ST_Intersects(geom, ST_Buffer(ST_SetSRID(ST_MakePoint(%g, %g), 4326), %g))`, x, y, r), nil
	}
}

// compare runs sql on both servers and fails on any difference: rows in
// the order of the ORDER BY positions keys (rows with equal keys in any
// order), or as a multiset without keys.
func (d *spatialDiff) compare(sql string, keys []int) {
	d.t.Helper()
	if sameAnswer(d.t, d.ctx, d.pg, d.zp, sql, orderSpec{keys: keys}).failed() {
		d.bothFailed++ // zproxy failed alike, or the test would have stopped
	}
	d.compared++
}
