package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// The spatial workload (-workload spatial): points of interest in a
// one-degree square, geometry(Point, 4326) under a gist index on both
// systems (PostGIS's R-tree; zproxy's Z-order index over ST_X and ST_Y),
// and the queries issue 30 measures: a bounding box and an ST_DWithin
// returning about spatialTarget rows, nearest neighbours (k = 10 and 100)
// and a point-in-polygon count of about ten times as many.

// spatialTarget is the rows a box or radius query returns.
const spatialTarget = 1000

const spatialColumns = `id BIGINT PRIMARY KEY, geom geometry(Point, 4326), kind INT`

// poi is point id: a pure function of (seed, id), uniform over the square
// [lonLo, lonLo+1] x [latLo, latLo+1].
func (d dataset) poi(id int64) []any {
	h := splitmix{state: d.seed ^ uint64(id)*0x9E3779B97F4A7C15 ^ 0x5A5A5A5A}
	x := lonLo + float64(h.next()>>11)/(1<<53)
	y := latLo + float64(h.next()>>11)/(1<<53)
	return []any{id, fmt.Sprintf("SRID=4326;POINT(%.9f %.9f)", x, y), int(h.next() % 10)}
}

// loadSpatial creates and fills pois on both systems with the same
// multi-row INSERTs, then builds the gist indexes and lets PostgreSQL
// gather statistics.
func loadSpatial(ctx context.Context, cfg config, ds dataset, zconn, pconn *pgx.Conn) error {
	rows := make([][]any, cfg.points)
	for i := range rows {
		rows[i] = ds.poi(int64(i))
	}
	for _, sys := range []struct {
		name string
		conn *pgx.Conn
		with string
	}{{"zproxy", zconn, fmt.Sprintf(" WITH (shards = %d)", cfg.shards)}, {"PostgreSQL", pconn, ""}} {
		if err := execAll(ctx, sys.conn, "CREATE EXTENSION IF NOT EXISTS postgis", "CREATE TABLE pois ("+spatialColumns+")"+sys.with); err != nil {
			return fmt.Errorf("%s: %w", sys.name, err)
		}
		start := time.Now()
		if err := insertRows(ctx, sys.conn, "pois", []string{"id", "geom", "kind"}, rows, cfg.batch); err != nil {
			return fmt.Errorf("%s: %w", sys.name, err)
		}
		loaded := time.Since(start)
		start = time.Now()
		if err := execAll(ctx, sys.conn, "CREATE INDEX pois_geom ON pois USING gist (geom)"+spatialInclude(cfg)); err != nil {
			return fmt.Errorf("%s: %w", sys.name, err)
		}
		logf("  %s: %d points in %s, gist index in %s", sys.name, len(rows), loaded.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	}
	analyze := "ANALYZE pois"
	if cfg.zproxyVacuum {
		analyze = "VACUUM ANALYZE pois" // as PostgreSQL's, below
	}
	if err := execAll(ctx, zconn, analyze); err != nil {
		return err
	}
	return execAll(ctx, pconn, "VACUUM ANALYZE pois")
}

// spatialClasses are the spatial queries; a box's and a radius's factSQL
// counts the points they return.
func spatialClasses(cfg config) []queryClass {
	n := float64(cfg.points)
	side := math.Sqrt(spatialTarget / n)             // a square of spatialTarget points
	radius := math.Sqrt(spatialTarget / n / math.Pi) // a circle of as many
	// A hexagon of ten times as many points: area (3√3/2)R².
	hexR := math.Sqrt(10 * spatialTarget / n / (3 * math.Sqrt(3) / 2))
	centre := func(r *rand.Rand, margin float64) (float64, float64) {
		return lonLo + margin + r.Float64()*(1-2*margin), latLo + margin + r.Float64()*(1-2*margin)
	}
	pt := "ST_SetSRID(ST_MakePoint($1, $2), 4326)"
	same := func(name, sql string, c queryClass) queryClass {
		c.name, c.zproxy, c.pg = name, sql, sql
		return c
	}
	cs := []queryClass{
		same("box ~1000", "SELECT id, kind FROM pois WHERE geom && ST_MakeEnvelope($1, $2, $3, $4, 4326)", queryClass{
			factSQL: "SELECT count(*) FROM pois WHERE geom && ST_MakeEnvelope($1, $2, $3, $4, 4326)",
			gen: func(r *rand.Rand) []any {
				x, y := centre(r, side/2)
				return []any{x - side/2, y - side/2, x + side/2, y + side/2}
			}}),
		same("ST_DWithin ~1000", "SELECT id, kind FROM pois WHERE ST_DWithin(geom, "+pt+", $3)", queryClass{
			factSQL: "SELECT count(*) FROM pois WHERE ST_DWithin(geom, " + pt + ", $3)",
			gen: func(r *rand.Rand) []any {
				x, y := centre(r, radius)
				return []any{x, y, radius}
			}}),
		same("kNN k=10", "SELECT id, kind FROM pois ORDER BY geom <-> "+pt+" LIMIT 10", queryClass{ordered: true,
			gen: func(r *rand.Rand) []any { x, y := centre(r, 0); return []any{x, y} }}),
		same("kNN k=100", "SELECT id, kind FROM pois ORDER BY geom <-> "+pt+" LIMIT 100", queryClass{ordered: true,
			gen: func(r *rand.Rand) []any { x, y := centre(r, 0); return []any{x, y} }}),
		same("point in polygon ~10000", "SELECT count(*) FROM pois WHERE ST_Within(geom, ST_GeomFromText($1, 4326))", queryClass{aggregate: true,
			gen: func(r *rand.Rand) []any {
				x, y := centre(r, hexR)
				var pts []string
				for i := 0; i <= 6; i++ {
					a := float64(i%6) * math.Pi / 3
					pts = append(pts, fmt.Sprintf("%.9f %.9f", x+hexR*math.Cos(a), y+hexR*math.Sin(a)))
				}
				return []any{"POLYGON((" + strings.Join(pts, ",") + "))"}
			}}),
	}
	for i := range cs {
		cs[i].stream = uint64(i + 1)
	}
	return cs
}

// reportSpatial prints the spatial workload's results.
func reportSpatial(w io.Writer, cfg config, ds dataset, pgVersion string, loads []loadResult, results []classResult, loadAvg []string) {
	fmt.Fprintf(w, "\n## Spatial: gist indexes, zproxy (embedded Pebble) vs PostgreSQL %s with PostGIS\n\n", pgVersion)
	fmt.Fprintf(w, "pois: %d rows (id, geom geometry(Point, 4326) uniform over a one-degree square, kind of 10; seed %d).\n", cfg.points, cfg.seed)
	fmt.Fprintf(w, "Both systems: gist (geom)%s (zproxy: a Z-order index over ST_X and ST_Y; shards = %d); PostgreSQL with default settings; VACUUM ANALYZE on both (zproxy: -zproxy-vacuum). Fact rows are the points a box or radius returns. %d rounds of %d timed queries per class after %d warm-up, %d CPUs.\n", spatialInclude(cfg), cfg.shards, cfg.rounds, cfg.iterations, cfg.warmup, runtime.NumCPU())
	fmt.Fprintf(w, "Machine load average (1/5/15 min) before loading: %s; after the queries: %s.\n\n", loadAvg[0], loadAvg[len(loadAvg)-1])
	reportLoads(w, cfg, ds, loads)
	reportFactClasses(w, cfg, results)
}

// spatialInclude is the INCLUDE clause of the gist indexes: the column the
// queries read besides the point, with -spatial-include (both systems then
// answer boxes and radii from the index alone).
func spatialInclude(cfg config) string {
	if cfg.spatialInclude {
		return " INCLUDE (kind)"
	}
	return ""
}
