package geo

import "testing"

// The cases' answers are PostGIS 3.3's (ST_ShortestLine, ST_LongestLine
// of the hulls, ST_ConvexHull), chosen where the search order decides
// between tied pairs.
func TestClosestPairTies(t *testing.T) {
	for _, c := range []struct {
		a, b   string
		p1, p2 [2]float64
		ok     bool
	}{
		// Overlapping collinear segments: the last touch found wins.
		{"LINESTRING(0 0,10 0)", "LINESTRING(5 0,15 0)", [2]float64{5, 0}, [2]float64{5, 0}, true},
		{"LINESTRING(5 0,15 0)", "LINESTRING(0 0,10 0)", [2]float64{10, 0}, [2]float64{10, 0}, true},
		{"LINESTRING(0 0,10 0)", "LINESTRING(2 0,3 0)", [2]float64{3, 0}, [2]float64{3, 0}, true},
		// A shared end is no touch of that kind: the first pair stays.
		{"LINESTRING(1 1,0 0)", "LINESTRING(0 0,1 1)", [2]float64{1, 1}, [2]float64{1, 1}, true},
		// Boxes apart: the pruned search's order.
		{"LINESTRING(0 0,0 1,0 2,0 3)", "LINESTRING(1 3,1 2,1 1,1 0)", [2]float64{0, 3}, [2]float64{1, 3}, true},
		{"POLYGON((0 0,1 0,1 1,0 1,0 0))", "POLYGON((3 0,4 0,4 1,3 1,3 0))", [2]float64{1, 0}, [2]float64{3, 0}, true},
		// A point inside a polygon, in its hole.
		{"POINT(5 5)", "POLYGON((0 0,10 0,10 10,0 10,0 0))", [2]float64{5, 5}, [2]float64{5, 5}, true},
		{"POINT(4.5 5)", "POLYGON((0 0,10 0,10 10,0 10,0 0),(4 4,6 4,6 6,4 6,4 4))", [2]float64{4.5, 5}, [2]float64{4, 5}, true},
		// An empty member ends the walk of its collection.
		{"MULTIPOINT(3 3,EMPTY,2.5 2.5)", "MULTIPOINT(1 1)", [2]float64{3, 3}, [2]float64{1, 1}, true},
		{"GEOMETRYCOLLECTION(POINT EMPTY,POINT(1 1))", "POINT(2 2)", [2]float64{}, [2]float64{}, false},
		// Beyond FLT_MAX: no distance.
		{"POINT(0 0)", "POINT(1e39 0)", [2]float64{}, [2]float64{}, false},
	} {
		a, err := ParseWKT(c.a)
		if err != nil {
			t.Fatal(err)
		}
		b, err := ParseWKT(c.b)
		if err != nil {
			t.Fatal(err)
		}
		p1, p2, _, ok := ClosestPair(a, b)
		if ok != c.ok || (ok && (p1 != c.p1 || p2 != c.p2)) {
			t.Errorf("ClosestPair(%s, %s) = %v %v %v, want %v %v %v", c.a, c.b, p1, p2, ok, c.p1, c.p2, c.ok)
		}
	}
}

func TestConvexHullVertices(t *testing.T) {
	for _, c := range []struct {
		in   string
		kind Kind
		want [][2]float64
	}{
		{"MULTIPOINT(3 3,0 0)", LineString, [][2]float64{{3, 3}, {0, 0}}},
		{"LINESTRING(3 3,0 0,1 1)", LineString, [][2]float64{{0, 0}, {3, 3}}},
		{"MULTIPOINT(2 0,0 0,1 1,0 2,5 -1)", Polygon, [][2]float64{{5, -1}, {0, 0}, {0, 2}, {5, -1}}},
		{"MULTIPOINT(0 0,1 0,2 0,0 1)", Polygon, [][2]float64{{0, 0}, {0, 1}, {2, 0}, {0, 0}}},
		{"POINT(1 2)", Point, [][2]float64{{1, 2}}},
		{"GEOMETRYCOLLECTION EMPTY", Point, nil},
	} {
		s, err := ParseWKT(c.in)
		if err != nil {
			t.Fatal(err)
		}
		kind, got := ConvexHullVertices(s)
		if kind != c.kind || len(got) != len(c.want) {
			t.Errorf("ConvexHullVertices(%s) = %v %v, want %v %v", c.in, kind, got, c.kind, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("ConvexHullVertices(%s) = %v, want %v", c.in, got, c.want)
				break
			}
		}
	}
}
