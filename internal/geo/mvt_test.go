package geo

import (
	"reflect"
	"testing"
)

// TestMVTGeom checks MVTGeom on cases whose answers PostGIS 3.3 gave:
// rounding onto the grid, tiny lines, collinear removal, clipping at the
// buffered tile's edges (a line on the edge vanishes, a point on it
// stays), multipoint sorting and single-member multis.
func TestMVTGeom(t *testing.T) {
	tile := Box{MinX: 0, MinY: 0, MaxX: 10, MaxY: 10}
	for _, c := range []struct {
		wkt    string
		buffer uint32
		clip   bool
		want   string // "" for NULL
	}{
		{"POINT(10.001 10)", 0, true, "POINT(4096 0)"},
		{"POINT(10.0013 10)", 0, true, ""},
		{"POINT(10.6255 5)", 256, true, "POINT(4352 2048)"},
		{"LINESTRING(0 0,0.001 0.001)", 256, true, ""},
		{"LINESTRING(0 0,0.002 0.0001,0.004 0)", 256, true, "LINESTRING(0 4096,2 4096)"},
		{"LINESTRING(10.62 -5,10.62 15)", 256, true, "LINESTRING(4350 4352,4350 -256)"},
		{"LINESTRING(10.6245 -5,10.6245 15)", 256, true, ""},
		{"LINESTRING(-5 5,5 5,5 15,15 15,15 5)", 256, true, "LINESTRING(-256 2048,2048 2048,2048 -256)"},
		{"LINESTRING(-20 5,20 5.0001,20 6,-20 6)", 256, true, "MULTILINESTRING((-256 2048,4352 2048),(4352 1638,-256 1638))"},
		{"LINESTRING(5 5,5 6,5 5)", 256, false, ""},
		{"MULTIPOINT(1 1,1.0001 1,20 20,5 5,1 1)", 256, true, "MULTIPOINT(410 3686,2048 2048)"},
		{"MULTILINESTRING((0 0,1 1),(0 0,0.0001 0.0001))", 256, true, "LINESTRING(0 4096,410 3686)"},
		{"GEOMETRYCOLLECTION(POINT(1 1),LINESTRING(0 0,1 1))", 256, true, "LINESTRING(0 4096,410 3686)"},
	} {
		s, err := ParseWKT(c.wkt)
		if err != nil {
			t.Fatal(err)
		}
		out, ok, err := MVTGeom(Geom{Shape: s}, tile, 4096, c.buffer, c.clip)
		if err != nil {
			t.Fatalf("%s: %v", c.wkt, err)
		}
		got := ""
		if ok {
			got = FormatEWKT(out, DefaultPrecision)
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.wkt, got, c.want)
		}
	}
}

// TestMVTEncode checks the command integers of PostGIS's tiles.
func TestMVTEncode(t *testing.T) {
	for _, c := range []struct {
		wkt  string
		typ  uint32
		cmds []uint32
	}{
		{"POINT(1.5 2.7)", MVTPoint, []uint32{9, 2, 4}},
		{"MULTIPOINT(1 1,3 3,2 2)", MVTPoint, []uint32{25, 2, 2, 4, 4, 1, 1}},
		{"LINESTRING(0 0,5 5,5 5,10 0)", MVTLineString, []uint32{9, 0, 0, 26, 10, 10, 0, 0, 10, 9}},
		{"POLYGON((0 0,10 0,10 10,0 10,0 0),(1 1,1 2,2 2,1 1))", MVTPolygon, []uint32{9, 0, 0, 26, 20, 0, 0, 20, 19, 0, 15, 9, 2, 17, 18, 0, 2, 2, 0, 15}},
		{"POINT(3000000000 -3000000000)", MVTPoint, []uint32{9, 0xffffffff, 0xffffffff}},
		{"LINESTRING EMPTY", MVTLineString, nil},
	} {
		s, err := ParseWKT(c.wkt)
		if err != nil {
			t.Fatal(err)
		}
		typ, cmds, err := MVTEncode(s)
		if err != nil || typ != c.typ || !reflect.DeepEqual(cmds, c.cmds) {
			t.Errorf("%s: got %d %v %v, want %d %v", c.wkt, typ, cmds, err, c.typ, c.cmds)
		}
	}
}
