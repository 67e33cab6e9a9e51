package session_test

import (
	"fmt"
	"math"
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

// TestPointGistOverlapIsTheBox is the property test of geom && envelope
// over a gist index on geometry(Point): the scan's box is the test itself
// (optimizer/gistbounds.go, overlapBox), so the plan checks no residual
// filter, and the answers through the index, by a literal envelope and by
// a prepared statement's generic plan, must equal the operator's own row
// by row (index scans off). The points crowd the envelopes' float4
// roundings, a float8 or two either side, where the box and the operator
// would part if the bounds were a step off.
func TestPointGistOverlapIsTheBox(t *testing.T) {
	_, sess := newSession(t, backends(t)[0].open(t))
	mustExec(t, sess, "CREATE EXTENSION IF NOT EXISTS postgis")
	mustExec(t, sess, "CREATE TABLE pts (id int PRIMARY KEY, geom geometry(Point, 4326))")
	mustExec(t, sess, "CREATE INDEX pts_geom ON pts USING gist (geom)")
	rng := rand.New(rand.NewSource(11))
	num := func(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
	side := func() float64 { return math.Round((rng.Float64()*200-100)*1e4) / 1e4 }
	// near is a coordinate a few float8 steps from the float4 next to m.
	near := func(m float64) float64 {
		f := float32(m)
		switch rng.Intn(3) {
		case 0:
			f = math.Nextafter32(f, float32(math.Inf(1)))
		case 1:
			f = math.Nextafter32(f, float32(math.Inf(-1)))
		}
		x := float64(f)
		for k := rng.Intn(5) - 2; k != 0; {
			if k > 0 {
				x, k = math.Nextafter(x, math.Inf(1)), k-1
			} else {
				x, k = math.Nextafter(x, math.Inf(-1)), k+1
			}
		}
		return x
	}
	type env struct{ x0, y0, x1, y1 float64 }
	var envs []env
	for range 40 {
		x0, y0 := side(), side()
		envs = append(envs, env{x0, y0, x0 + rng.Float64()*5, y0 + rng.Float64()*5})
	}
	var rows []string
	for id := 0; id < 2000; id++ {
		e := envs[rng.Intn(len(envs))]
		x, y := e.x0+rng.Float64()*(e.x1-e.x0), e.y0+rng.Float64()*(e.y1-e.y0)
		switch rng.Intn(5) {
		case 0:
			x = near([]float64{e.x0, e.x1}[rng.Intn(2)])
		case 1:
			y = near([]float64{e.y0, e.y1}[rng.Intn(2)])
		case 2:
			x, y = near(e.x0), near(e.y1)
		}
		g := fmt.Sprintf("'SRID=4326;POINT(%s %s)'", num(x), num(y))
		if id%97 == 0 {
			g = "NULL"
		} else if id%89 == 0 {
			g = "'SRID=4326;POINT EMPTY'"
		}
		rows = append(rows, fmt.Sprintf("(%d, %s)", id, g))
	}
	mustExec(t, sess, "INSERT INTO pts VALUES "+strings.Join(rows, ", "))
	mustExec(t, sess, "PREPARE box(float8, float8, float8, float8) AS SELECT id FROM pts WHERE geom && ST_MakeEnvelope($1, $2, $3, $4, 4326) ORDER BY id")
	mustExec(t, sess, "SET plan_cache_mode = force_generic_plan")
	for i, e := range envs {
		args := fmt.Sprintf("%s, %s, %s, %s", num(e.x0), num(e.y0), num(e.x1), num(e.y1))
		q := "SELECT id FROM pts WHERE geom && ST_MakeEnvelope(" + args + ", 4326) ORDER BY id"
		plan := strings.Join(mustExec(t, sess, "EXPLAIN "+q), "\n")
		if !strings.Contains(plan, "pts_geom") || strings.Contains(plan, "residual") {
			t.Fatalf("envelope %d: %s should read the gist index with no residual filter:\n%s", i, q, plan)
		}
		want := withoutIndexReads(t, sess, func() []string { return mustExec(t, sess, q) })
		if len(want) == 0 {
			t.Fatalf("envelope %d holds no point", i)
		}
		for _, stmt := range []string{q, "EXECUTE box(" + args + ")"} {
			if got := mustExec(t, sess, stmt); strings.Join(got, ",") != strings.Join(want, ",") {
				t.Fatalf("envelope %d: %s\nthrough the index: %v\nthe operator:      %v\nplan:\n%s", i, stmt, got, want, plan)
			}
		}
	}
}
