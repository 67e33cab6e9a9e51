package builtins

import (
	"testing"

	gis "github.com/zproxy/zproxy/internal/geo"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// TestSitedMatchesUnsited: a call site that keeps its last geometry
// prepared answers as a fresh evaluation does, when its geometries change
// from call to call (a join's polygons), repeat, swap sides, are empty,
// are not points or areas, or mix SRIDs (the same error).
func TestSitedMatchesUnsited(t *testing.T) {
	g := func(s string) sqltypes.Value {
		v, err := sqltypes.ParseGeometryText(sqltypes.TypeGeometry, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	geoms := []sqltypes.Value{
		g("SRID=4326;POLYGON((0 0,4 0,4 4,0 4,0 0),(1 1,2 1,2 2,1 2,1 1))"),
		g("SRID=4326;POINT(1.5 1.5)"),
		g("SRID=4326;POINT(3 3)"),
		g("SRID=4326;POINT(4 2)"),
		g("SRID=4326;MULTIPOLYGON(((10 10,12 10,12 12,10 10)),((0 0,1 0,1 1,0 0)))"),
		g("SRID=4326;POINT(0.5 0.25)"),
		g("SRID=4326;LINESTRING(0 0,5 5)"),
		g("SRID=4326;POINT EMPTY"),
		g("SRID=4326;POLYGON EMPTY"),
		g("SRID=3857;POINT(1 1)"),
		g("POLYGON((0 0,4 0,4 4,0 0))"),
		g("SRID=4326;POINT Z (2 1 7)"),
		g("SRID=4326;POLYGON((0 0,4 0,4 4,0 0))"),
	}
	geom := sqltypes.TypeGeometry
	calls := []struct {
		name string
		args func(a, b sqltypes.Value) []sqltypes.Value
	}{
		{"st_within", nil}, {"st_contains", nil}, {"st_intersects", nil}, {"st_covers", nil}, {"st_distance", nil},
		{"st_dwithin", func(a, b sqltypes.Value) []sqltypes.Value { return []sqltypes.Value{a, b, sqltypes.NewFloat(1.2)} }},
		{"&&", nil}, {"<->", nil},
	}
	for _, c := range calls {
		types := []sqltypes.Type{geom, geom}
		if c.args != nil {
			types = append(types, sqltypes.TypeFloat8)
		}
		var res Resolved
		var err error
		if c.name == "&&" || c.name == "<->" {
			res, err = ResolveOperator(c.name, types)
		} else {
			res, err = Resolve(c.name, types)
		}
		if err != nil {
			t.Fatal(c.name, err)
		}
		ov := res.Overload
		if ov.Typed == nil {
			t.Fatalf("%s has no per-site implementation", c.name)
		}
		site := ov.Typed(res.ArgTypes)
		// The reference: both geometries decoded whole, as the functions
		// computed before call sites kept them (gis.Relate, gis.Distance,
		// boxOp).
		fresh := func(a []sqltypes.Value) (sqltypes.Value, error) {
			label := map[string]string{"st_within": "ST_Within", "st_contains": "ST_Contains", "st_intersects": "ST_Intersects",
				"st_covers": "ST_Covers", "st_dwithin": "ST_DWithin"}[c.name]
			if label == "" {
				label = "ST_Distance"
			}
			if c.name == "&&" {
				return boxOp(a[0], a[1], func(x, y gis.Box) bool {
					x, y = x.Float4(), y.Float4()
					return x.MinX <= y.MaxX && y.MinX <= x.MaxX && x.MinY <= y.MaxY && y.MinY <= x.MaxY
				})
			}
			x, y, err := twoGeoms(label, a[0], a[1])
			if err != nil {
				return sqltypes.Null, err
			}
			pred, isPred := map[string]gis.Predicate{"st_within": gis.Within, "st_contains": gis.Contains,
				"st_intersects": gis.Intersects, "st_covers": gis.Covers}[c.name]
			if isPred {
				r, err := gis.Relate(pred, x.Shape, y.Shape)
				return sqltypes.NewBool(r), err
			}
			d, ok, err := gis.Distance(x.Shape, y.Shape)
			switch {
			case err != nil:
				return sqltypes.Null, err
			case c.name == "st_dwithin":
				return sqltypes.NewBool(ok && d <= a[2].F), nil
			case !ok:
				return sqltypes.Null, nil
			}
			return sqltypes.NewFloat(d), nil
		}
		// Every ordered pair, in an order that changes, repeats and swaps
		// the geometry each side holds.
		for round := 0; round < 2; round++ {
			for i := range geoms {
				for j := range geoms {
					a, b := geoms[i], geoms[(i*round+j)%len(geoms)]
					args := []sqltypes.Value{a, b}
					if c.args != nil {
						args = c.args(a, b)
					}
					got, gotErr := site(nil, args)
					want, wantErr := fresh(args)
					if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() ||
						gotErr == nil && sqltypes.FormatText(got) != sqltypes.FormatText(want) {
						t.Fatalf("%s(%s, %s): %v %v, want %v %v", c.name, sqltypes.FormatText(a), sqltypes.FormatText(b), sqltypes.FormatText(got), gotErr, sqltypes.FormatText(want), wantErr)
					}
				}
			}
		}
	}
}
