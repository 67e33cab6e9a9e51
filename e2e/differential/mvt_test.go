package differential

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// TestMVTAgainstPostGIS compares ST_AsMVTGeom and ST_AsMVT with PostGIS's.
// ST_AsMVTGeom gets random points, multipoints, lines, multilines and
// collections whose vertices lie near the edges of random tile bounds and
// of their buffers (within fractions of a tile pixel, where rounding and
// clipping decide), tiny ones, huge ones, under random extents, buffers
// and clip flags; the answers (EWKT) and errors must be PostGIS's. Then
// random tables of several column types (with NULLs, repeated values and
// feature ids) are encoded by ST_AsMVT, as tile servers call it, and the
// tiles must be PostGIS's byte for byte.
func TestMVTAgainstPostGIS(t *testing.T) {
	ctx := context.Background()
	pg, zc := postGISPair(t, ctx)
	g := &mvtGen{rng: rand.New(rand.NewSource(int64(*seed)))}
	compare := func(sql string) result { return sameAnswer(t, ctx, pg, zc, sql, orderSpec{}) }
	nonNull := 0
	for i := 0; i < 400; i++ {
		g.tile()
		wkt := g.geometry()
		sql := fmt.Sprintf("SELECT ST_AsEWKT(ST_AsMVTGeom('%s'::geometry, %s))", wkt, g.args())
		res := compare(sql)
		if !res.failed() && len(res.rows) == 1 && res.rows[0][0] != nil {
			nonNull++
		}
	}
	// Most answers must be geometries, not NULLs, for the comparison to
	// mean something.
	if nonNull < 200 {
		t.Fatalf("only %d of 400 ST_AsMVTGeom answers were geometries", nonNull)
	}
	for i := 0; i < 12; i++ {
		table := fmt.Sprintf("mvt_t%d", i)
		setup := []string{
			"DROP TABLE IF EXISTS " + table,
			"CREATE TABLE " + table + " (rn int, id int8, geom geometry, name text, kind int4, small int2, score float8, ratio float4, open bool, props jsonb, note varchar(10))",
		}
		var rows []string
		for r := 0; r < 3+g.rng.Intn(12); r++ {
			rows = append(rows, g.row(r))
		}
		setup = append(setup, "INSERT INTO "+table+" VALUES "+strings.Join(rows, ", "))
		for _, s := range setup {
			for _, c := range []string{"pg", "zp"} {
				conn := pg
				if c == "zp" {
					conn = zc
				}
				if _, err := conn.Exec(ctx, s); err != nil {
					t.Fatalf("%s: %s: %v", c, s, err)
				}
			}
		}
		g.tile()
		cols := []string{"id", "name", "kind", "small", "score", "ratio", "open", "props", "note"}
		g.rng.Shuffle(len(cols), func(a, b int) { cols[a], cols[b] = cols[b], cols[a] })
		cols = cols[:1+g.rng.Intn(len(cols))]
		args := []string{"q", "'layer'", "4096", "'geom'"}
		if g.rng.Intn(2) == 0 && strings.Contains(strings.Join(cols, ","), "id") {
			args = append(args, "'id'")
		}
		sql := fmt.Sprintf(`SELECT encode(ST_AsMVT(%s), 'hex') FROM (
			SELECT ST_AsMVTGeom(geom, %s, 4096, %d, true) AS geom, %s FROM %s ORDER BY rn) q`,
			strings.Join(args, ", "), g.bounds, g.buffer, strings.Join(cols, ", "), table)
		compare(sql)
		sql = fmt.Sprintf(`SELECT encode(ST_AsMVT(q, 'raw', %d), 'hex') FROM (SELECT %s, geom FROM %s WHERE geom IS NULL OR ST_GeometryType(geom) <> 'ST_GeometryCollection' ORDER BY rn) q`,
			g.extent, strings.Join(cols, ", "), table)
		compare(sql)
	}
	t.Logf("400 ST_AsMVTGeom calls compared (%d geometries), 24 ST_AsMVT tiles", nonNull)
}

// mvtGen makes TestMVTAgainstPostGIS's random tiles and geometries.
type mvtGen struct {
	rng                         *rand.Rand
	minX, minY, maxX, maxY      float64
	extent, buffer              int
	bounds                      string
	dims                        int
	collections, clip, explicit bool
}

// tile picks random bounds (square or not, tiny to web-mercator sized),
// extent and buffer.
func (g *mvtGen) tile() {
	size := []float64{1e-4, 0.37, 10, 1000, 611.4962262814, 40075016.68557849}[g.rng.Intn(6)]
	w, h := size, size
	if g.rng.Intn(4) == 0 {
		h = size * (0.5 + g.rng.Float64())
	}
	g.minX = float64(g.rng.Intn(2000)-1000) * size / 7
	g.minY = float64(g.rng.Intn(2000)-1000) * size / 7
	g.maxX, g.maxY = g.minX+w, g.minY+h
	g.extent = []int{4096, 4096, 256, 512, 1000, 10, 1}[g.rng.Intn(7)]
	g.buffer = []int{0, 64, 256, 17, 0, -5}[g.rng.Intn(6)]
	g.clip = g.rng.Intn(5) != 0
	g.explicit = g.rng.Intn(3) != 0
	g.bounds = fmt.Sprintf("ST_MakeEnvelope(%.17g, %.17g, %.17g, %.17g)::box2d", g.minX, g.minY, g.maxX, g.maxY)
	g.dims = []int{2, 2, 2, 2, 3, 4}[g.rng.Intn(6)]
}

// args is ST_AsMVTGeom's arguments after the geometry.
func (g *mvtGen) args() string {
	if !g.explicit {
		return g.bounds
	}
	return fmt.Sprintf("%s, %d, %d, %t", g.bounds, g.extent, g.buffer, g.clip)
}

// ord is an ordinate near a tile edge, the buffer's edge, or anywhere in
// or around the tile, in pixel fractions where rounding decides.
func (g *mvtGen) ord(lo, hi float64) float64 {
	px := (hi - lo) / float64(g.extent)
	buf := float64(g.buffer)
	if buf < 0 {
		buf = 0
	}
	edges := []float64{lo, hi, lo - buf*px, hi + buf*px, (lo + hi) / 2}
	switch g.rng.Intn(4) {
	case 0:
		return lo + (hi-lo)*(g.rng.Float64()*1.6-0.3)
	case 1:
		e := edges[g.rng.Intn(len(edges))]
		return e + px*float64(g.rng.Intn(9)-4)/4
	default:
		e := edges[g.rng.Intn(len(edges))]
		return e + px*(g.rng.Float64()*6-3)
	}
}

func (g *mvtGen) vertex(x, y float64) string {
	s := fmt.Sprintf("%.17g %.17g", x, y)
	switch g.dims {
	case 3:
		s += fmt.Sprintf(" %d", g.rng.Intn(9))
	case 4:
		s += fmt.Sprintf(" %d %d", g.rng.Intn(9), g.rng.Intn(9))
	}
	return s
}

func (g *mvtGen) point() string {
	return "(" + g.vertex(g.ord(g.minX, g.maxX), g.ord(g.minY, g.maxY)) + ")"
}

// line is a random line: near the edges, or tiny (under a pixel), or a
// short walk of pixel steps that doubles back and runs along edges.
func (g *mvtGen) line() string {
	n := 2 + g.rng.Intn(6)
	px := (g.maxX - g.minX) / float64(g.extent)
	var pts []string
	x, y := g.ord(g.minX, g.maxX), g.ord(g.minY, g.maxY)
	mode := g.rng.Intn(4)
	for i := 0; i < n; i++ {
		switch mode {
		case 0:
			x, y = g.ord(g.minX, g.maxX), g.ord(g.minY, g.maxY)
		case 1:
			x += px * (g.rng.Float64() - 0.5) * 0.8
			y += px * (g.rng.Float64() - 0.5) * 0.8
		case 2:
			if g.rng.Intn(2) == 0 {
				x += px * float64(g.rng.Intn(5)-2) * 0.5
			} else {
				y += px * float64(g.rng.Intn(5)-2) * 0.5
			}
		default:
			if g.rng.Intn(2) == 0 {
				x = g.ord(g.minX, g.maxX)
			} else {
				y = g.ord(g.minY, g.maxY)
			}
		}
		pts = append(pts, g.vertex(x, y))
	}
	return "(" + strings.Join(pts, ",") + ")"
}

func (g *mvtGen) geometry() string {
	z := map[int]string{2: "", 3: " Z", 4: " ZM"}[g.dims]
	srid := ""
	if g.rng.Intn(4) == 0 {
		srid = "SRID=3857;"
	}
	var parts []string
	switch g.rng.Intn(7) {
	case 0:
		return srid + "POINT" + z + g.point()
	case 1:
		for i := 0; i < 1+g.rng.Intn(6); i++ {
			parts = append(parts, g.point())
		}
		if g.rng.Intn(3) == 0 {
			parts = append(parts, parts[0])
		}
		return srid + "MULTIPOINT" + z + "(" + strings.Join(parts, ",") + ")"
	case 2:
		for i := 0; i < 1+g.rng.Intn(3); i++ {
			parts = append(parts, g.line())
		}
		return srid + "MULTILINESTRING" + z + "(" + strings.Join(parts, ",") + ")"
	case 3:
		for i := 0; i < 1+g.rng.Intn(3); i++ {
			if g.rng.Intn(2) == 0 {
				parts = append(parts, "POINT"+z+g.point())
			} else {
				parts = append(parts, "LINESTRING"+z+g.line())
			}
		}
		return srid + "GEOMETRYCOLLECTION" + z + "(" + strings.Join(parts, ",") + ")"
	}
	return srid + "LINESTRING" + z + g.line()
}

// row is one random row of an ST_AsMVT table: repeated values, NULLs,
// negative ids and numbers, jsonb objects.
func (g *mvtGen) row(r int) string {
	pick := func(vs ...string) string { return vs[g.rng.Intn(len(vs))] }
	id := pick(fmt.Sprint(r+1), fmt.Sprint(r+1), "NULL", "-3", "7")
	g.dims = 2
	geom := "'" + g.geometry() + "'"
	if g.rng.Intn(8) == 0 {
		geom = "NULL"
	}
	return fmt.Sprintf("(%d, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)", r, id, geom,
		pick("'a'", "'b'", "'main street'", "''", "NULL", "'1'"),
		pick("0", "1", "-1", "2147483647", "-2147483648", "NULL", "42"),
		pick("0", "1", "-7", "32767", "NULL"),
		pick("0", "1", "1.5", "-2.25", "1e300", "'NaN'", "-0", "NULL"),
		pick("0", "1", "0.1", "3.4e38", "-0", "NULL"),
		pick("true", "false", "NULL"),
		pick(`'{"a":1,"b":"x"}'`, `'{"b":2.5,"c":true,"d":null,"e":[1]}'`, `'{"name":"y","kind":-4}'`, `'{}'`, `'[1,2]'`, "NULL", `'{"a":1.0,"z":18446744073709551615}'`),
		pick("'n'", "'note 1'", "NULL", "'1'"))
}
