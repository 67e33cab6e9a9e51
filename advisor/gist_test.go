package advisor

import (
	"strings"
	"testing"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/optimizer"
)

// TestAdviceGist: a workload of spatial predicates on a polygon column and
// nearest-neighbour queries on a point column gets a gist index on each;
// a table that already has one, or reads that only bound other columns,
// get none.
func TestAdviceGist(t *testing.T) {
	geomType := func(typmod string) sqltypes.Type {
		typ, ok := sqltypes.ParseTypeName("geometry(" + typmod + ")")
		if !ok {
			t.Fatalf("geometry(%s) does not parse", typmod)
		}
		return typ
	}
	zones := &catalog.Table{ID: 1, Name: "zones", Shards: 1, PrimaryKey: []catalog.KeyColumn{{Column: 0}},
		Columns: []catalog.Column{{Name: "id", Type: sqltypes.TypeInt8, NotNull: true}, {Name: "geom", Type: geomType("Polygon, 4326")}, {Name: "name", Type: sqltypes.TypeText}}}
	pois := &catalog.Table{ID: 2, Name: "pois", Shards: 1, PrimaryKey: []catalog.KeyColumn{{Column: 0}},
		Columns: []catalog.Column{{Name: "id", Type: sqltypes.TypeInt8, NotNull: true}, {Name: "geom", Type: geomType("Point, 4326")}}}
	var inBox, near, byName []*optimizer.TableUse
	for i := 0; i < 4; i++ {
		inBox = append(inBox, &optimizer.TableUse{Table: zones, Needed: []int{0}, Spatial: []int{1}, Nearest: -1, Method: optimizer.FullScan})
		// The scan yields no order by distance: the LIMIT stays above
		// the Sort, and the read's own Limit is 0.
		near = append(near, &optimizer.TableUse{Table: pois, Needed: []int{0, 1}, Nearest: 1, NearestK: 10, Method: optimizer.FullScan})
		byName = append(byName, scan(zones, map[int]optimizer.ValueSet{2: point(sqltypes.NewText("z"))}, 0))
	}
	stmts := []Statement{
		stmt(1, "SELECT id FROM zones WHERE ST_Intersects(geom, $1)", 800, inBox...),
		stmt(2, "SELECT id FROM pois ORDER BY geom <-> $1 LIMIT 10", 600, near...),
	}
	stats := map[string]Statistics{"zones": NewSampleStats(50_000, nil), "pois": NewSampleStats(200_000, nil)}
	advise := func(tables []*catalog.Table, stmts []Statement) []Recommendation {
		recs, err := Advise(Input{Tables: tables, Statements: stmts, Caps: kv.Capabilities{CheapSeek: true},
			Stats: func(t *catalog.Table) (Statistics, error) { return stats[t.Name], nil }})
		if err != nil {
			t.Fatal(err)
		}
		return recs
	}
	recs := advise([]*catalog.Table{zones, pois}, stmts)
	want := map[string]bool{"CREATE INDEX pois_geom_idx ON pois USING gist (geom)": false, "CREATE INDEX zones_geom_idx ON zones USING gist (geom)": false}
	for _, r := range recs {
		if _, ok := want[r.SQL]; ok && r.Kind == KindGist && r.ItemsAfter*10 < r.ItemsBefore {
			want[r.SQL] = true
		}
	}
	for sql, found := range want {
		if !found {
			t.Errorf("no gist recommendation %q:\n%s", sql, Render(recs, nil))
		}
	}
	// With the gist indexes in place, or for reads by name alone, none.
	zones.Indexes = []*catalog.Index{{Name: "zones_geom", Kind: catalog.KindBTree, State: catalog.StatePublic, Shards: 1,
		Columns: []catalog.KeyColumn{{Column: -1, Expr: "zp_xz2(geom)"}}, Gist: &catalog.GistKey{Column: 1}}}
	recs = advise([]*catalog.Table{zones}, append(stmts[:1], stmt(3, "SELECT id FROM zones WHERE name = $1", 100, byName...)))
	for _, r := range recs {
		if strings.Contains(r.SQL, "gist") {
			t.Errorf("a gist index recommended again: %s", r.SQL)
		}
	}
}

// TestAdviceGistNearestShapes: a workload of ORDER BY col <-> point LIMIT k
// over PostgreSQL's box, polygon and circle columns and a geometry of
// polygons gets a gist index (an XZ one) on the column, which answers the
// search from the index.
func TestAdviceGistNearestShapes(t *testing.T) {
	geomPolygon, ok := sqltypes.ParseTypeName("geometry(Polygon, 4326)")
	if !ok {
		t.Fatal("geometry(Polygon, 4326) does not parse")
	}
	for _, c := range []struct {
		name string
		typ  sqltypes.Type
	}{
		{"box", sqltypes.Type{ID: sqltypes.GeoBox}},
		{"polygon", sqltypes.Type{ID: sqltypes.GeoPolygon}},
		{"circle", sqltypes.Type{ID: sqltypes.GeoCircle}},
		{"geometry", geomPolygon},
	} {
		t.Run(c.name, func(t *testing.T) {
			shapes := &catalog.Table{ID: 1, Name: "shapes", Shards: 1, PrimaryKey: []catalog.KeyColumn{{Column: 0}},
				Columns: []catalog.Column{{Name: "id", Type: sqltypes.TypeInt8, NotNull: true}, {Name: "s", Type: c.typ}}}
			var near []*optimizer.TableUse
			for i := 0; i < 4; i++ {
				near = append(near, &optimizer.TableUse{Table: shapes, Needed: []int{0, 1}, Nearest: 1, NearestK: 10, Method: optimizer.FullScan})
			}
			recs, err := Advise(Input{Tables: []*catalog.Table{shapes},
				Statements: []Statement{stmt(1, "SELECT id FROM shapes ORDER BY s <-> $1 LIMIT 10", 500, near...)},
				Caps:       kv.Capabilities{CheapSeek: true},
				Stats:      func(*catalog.Table) (Statistics, error) { return NewSampleStats(100_000, nil), nil }})
			if err != nil {
				t.Fatal(err)
			}
			const want = "CREATE INDEX shapes_s_idx ON shapes USING gist (s)"
			for _, r := range recs {
				if r.SQL == want && r.Kind == KindGist && r.ItemsAfter*10 < r.ItemsBefore {
					return
				}
			}
			t.Errorf("no gist recommendation %q:\n%s", want, Render(recs, nil))
		})
	}
}
