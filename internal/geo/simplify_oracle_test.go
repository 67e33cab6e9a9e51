package geo

import (
	"context"
	"encoding/hex"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// TestSimplifyTWKBAgainstPostGIS compares Simplify and AppendTWKB with
// PostGIS's ST_Simplify and ST_AsTWKB on random lines and polygons. It
// needs a database with PostGIS (postGISConn: GEO_POSTGIS_DSN, or a cluster of its own).
func TestSimplifyTWKBAgainstPostGIS(t *testing.T) {
	ctx := context.Background()
	conn := postGISConn(t)
	rng := rand.New(rand.NewSource(1))
	for iter := 0; iter < 300; iter++ {
		n := 2 + rng.Intn(30)
		var pts []string
		for i := 0; i < n; i++ {
			pts = append(pts, fmt.Sprintf("%.3f %.3f", rng.Float64()*10, rng.Float64()*10))
		}
		wkt := "LINESTRING(" + strings.Join(pts, ",") + ")"
		if iter%2 == 1 && n >= 3 {
			wkt = "POLYGON((" + strings.Join(pts, ",") + "," + pts[0] + "))"
		}
		tol := []float64{0, 0.1, 0.5, 1, 3, -1}[rng.Intn(6)]
		preserve := rng.Intn(2) == 0
		prec := rng.Intn(5) - 1
		sql := fmt.Sprintf("SELECT coalesce(ST_AsText(ST_Simplify('%s'::geometry, %g, %t), 17), 'NULL'), encode(ST_AsTWKB('%s'::geometry, %d, 0, 0, true, true), 'hex')", wkt, tol, preserve, wkt, prec)
		res, err := conn.Exec(ctx, sql).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		row := res[0].Rows[0]
		g, err := ParseEWKT(wkt)
		if err != nil {
			t.Fatal(err)
		}
		got := "NULL"
		out, modified := Simplify(g.Shape, tol, preserve)
		switch {
		case !modified:
			got = FormatWKT(g.Shape, 17)
		case !out.IsEmpty():
			got = FormatWKT(out, 17)
		}
		if got != string(row[0]) {
			t.Errorf("ST_Simplify(%s, %g, %t) = %s, PostGIS %s", wkt, tol, preserve, got, row[0])
		}
		tw, err := AppendTWKB(nil, g.Shape, TWKBSize|TWKBBBox, int64(prec), 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if hex.EncodeToString(tw) != string(row[1]) {
			t.Errorf("ST_AsTWKB(%s, %d) = %x, PostGIS %s", wkt, prec, tw, row[1])
		}
	}
}
