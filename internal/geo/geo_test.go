package geo

import (
	"encoding/hex"
	"math"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// The text forms, checked against PostGIS 3.3's answers (geometry_in's
// hex EWKB, ST_AsText, ST_AsEWKT).
func TestParseAndFormat(t *testing.T) {
	for _, c := range []struct {
		in, hex, wkt, ewkt string
	}{
		{"POINT(1 2)", "0101000000000000000000F03F0000000000000040", "POINT(1 2)", "POINT(1 2)"},
		{"SRID=4326;POINT(1 2)", "0101000020E6100000000000000000F03F0000000000000040", "POINT(1 2)", "SRID=4326;POINT(1 2)"},
		{"POINT EMPTY", "0101000000000000000000F87F000000000000F87F", "POINT EMPTY", "POINT EMPTY"},
		{"GEOMETRYCOLLECTION EMPTY", "010700000000000000", "GEOMETRYCOLLECTION EMPTY", "GEOMETRYCOLLECTION EMPTY"},
		{"POINT(1 2 3)", "0101000080000000000000F03F00000000000000400000000000000840", "POINT Z (1 2 3)", "POINT(1 2 3)"},
		{"POINTM(1 2 3)", "0101000040000000000000F03F00000000000000400000000000000840", "POINT M (1 2 3)", "POINTM(1 2 3)"},
		{"POINT(1 2 3 4)", "01010000C0000000000000F03F000000000000004000000000000008400000000000001040", "POINT ZM (1 2 3 4)", "POINT(1 2 3 4)"},
		{"MULTIPOINT(1 2,3 4)", "", "MULTIPOINT((1 2),(3 4))", "MULTIPOINT(1 2,3 4)"},
		{"GEOMETRYCOLLECTION(POINT(1 2 3),LINESTRING(1 2 3,4 5 6))", "", "GEOMETRYCOLLECTION Z (POINT Z (1 2 3),LINESTRING Z (1 2 3,4 5 6))",
			"GEOMETRYCOLLECTION(POINT(1 2 3),LINESTRING(1 2 3,4 5 6))"},
		{"MULTIPOINT(EMPTY, 1 2)", "", "MULTIPOINT(EMPTY,(1 2))", "MULTIPOINT(EMPTY,1 2)"},
		{"POINT(1e15 123456789012345.678)", "", "POINT(1e+15 123456789012345.67)", ""},
		{"POINT(1.23456789012345678 -0.000001)", "", "POINT(1.234567890123457 -0.000001)", ""},
		{"POINT(-0 1e-20)", "", "POINT(0 1e-20)", ""},
		// Big-endian ISO WKB in, little-endian EWKB out.
		{"000000000140000000000000004010000000000000", "010100000000000000000000400000000000001040", "POINT(2 4)", "POINT(2 4)"},
	} {
		g, err := Parse(c.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		if c.hex != "" && FormatHex(g) != c.hex {
			t.Errorf("Parse(%q) = %s, want %s", c.in, FormatHex(g), c.hex)
		}
		if got := FormatWKT(g.Shape, DefaultPrecision); got != c.wkt {
			t.Errorf("FormatWKT(%q) = %s, want %s", c.in, got, c.wkt)
		}
		if got := FormatEWKT(g, DefaultPrecision); c.ewkt != "" && got != c.ewkt {
			t.Errorf("FormatEWKT(%q) = %s, want %s", c.in, got, c.ewkt)
		}
	}
}

// PostGIS's errors for input it cannot read.
func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ in, msg string }{
		{"POINT(1", "parse error - invalid geometry"},
		{"xyz", "parse error - invalid geometry"},
		{"0101", "WKB structure does not match expected size!"},
		{"010", "Invalid hex string"},
		{"POLYGON((0 0,1 0,1 1,0 1))", "geometry contains non-closed rings"},
		{"LINESTRING(1 1)", "geometry requires more points"},
		{"SRID=x;POINT(1 2)", "parse error - invalid geometry"},
	} {
		_, err := Parse(c.in)
		if err == nil || pgerr.CodeOf(err) != pgerr.InternalError || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("Parse(%q) = %v, want XX000 %q", c.in, err, c.msg)
		}
	}
}

func TestGeoJSON(t *testing.T) {
	for _, c := range []struct {
		in, out string
		opts    int
	}{
		{`{"type":"Point","coordinates":[1,2]}`, `{"type":"Point","coordinates":[1,2]}`, GeoJSONCRSNot4326},
		{`{"type":"Point","coordinates":[1,2],"crs":{"type":"name","properties":{"name":"EPSG:3857"}}}`,
			`{"type":"Point","crs":{"type":"name","properties":{"name":"EPSG:3857"}},"coordinates":[1,2]}`, GeoJSONCRSNot4326},
		{`{"type":"Point","coordinates":[1,2]}`, `{"type":"Point","crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:EPSG::4326"}},"coordinates":[1,2]}`, GeoJSONLongCRS},
		{`{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}`, `{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}`, 0},
		{`{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1,2,3]}]}`,
			`{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1,2,3]}]}`, 0},
	} {
		g, err := ParseGeoJSON(c.in)
		if err != nil {
			t.Errorf("ParseGeoJSON(%s): %v", c.in, err)
			continue
		}
		if got := FormatGeoJSON(g, 9, c.opts); got != c.out {
			t.Errorf("GeoJSON of %s = %s, want %s", c.in, got, c.out)
		}
	}
}

// Distances against PostGIS 3.3's answers (ST_Distance of geographies,
// ST_DistanceSphere), within a millimetre for the spheroid (GeographicLib
// there, Vincenty here).
func TestDistances(t *testing.T) {
	for _, c := range []struct {
		lon1, lat1, lon2, lat2 float64
		spheroid, sphere       float64
	}{
		{0, 0, 3, 4, 554058.92375269, 555812.70692109},
		{-73.99, 40.73, 2.35, 48.86, 5850424.99998, 5834740.30422},
		{10, -80, -170, 85, 19445561.18990, 0},
	} {
		if d := SpheroidDistance(c.lon1, c.lat1, c.lon2, c.lat2); math.Abs(d-c.spheroid) > 1e-3 {
			t.Errorf("SpheroidDistance(%v %v, %v %v) = %.6f, want %.6f", c.lon1, c.lat1, c.lon2, c.lat2, d, c.spheroid)
		}
		if c.sphere == 0 {
			continue
		}
		if d := SphereDistance(c.lon1, c.lat1, c.lon2, c.lat2, SphereRadius); math.Abs(d-c.sphere) > 1e-5 {
			t.Errorf("SphereDistance(%v %v, %v %v) = %.6f, want %.6f", c.lon1, c.lat1, c.lon2, c.lat2, d, c.sphere)
		}
	}
	x, y := ToMercator(10, 50)
	if math.Abs(x-1113194.9079327357) > 1e-6 || math.Abs(y-6446275.841017161) > 1e-6 {
		t.Errorf("ToMercator(10, 50) = %v %v", x, y)
	}
	if lon, lat := FromMercator(x, y); math.Abs(lon-10) > 1e-12 || math.Abs(lat-50) > 1e-12 {
		t.Errorf("FromMercator: %v %v", lon, lat)
	}
}

// checkDecoded holds for whatever a decoder accepted: its EWKB reads back
// to the same bytes, and the outputs and measures do not panic.
func checkDecoded(t *testing.T, g Geom) {
	b := AppendEWKB(nil, g)
	g2, err := DecodeEWKB(b)
	if err != nil {
		t.Fatalf("re-decoding %x: %v", b, err)
	}
	if b2 := AppendEWKB(nil, g2); string(b2) != string(b) {
		t.Fatalf("EWKB round trip: %x became %x", b, b2)
	}
	iso, err := DecodeEWKB(AppendISOWKB(nil, g.Shape))
	if err != nil || string(AppendEWKB(nil, Geom{Shape: iso.Shape})) != string(AppendEWKB(nil, Geom{Shape: g.Shape})) {
		t.Fatalf("ISO WKB round trip of %x: %v", b, err)
	}
	_ = FormatWKT(g.Shape, DefaultPrecision)
	_ = FormatEWKT(g, DefaultPrecision)
	_ = FormatGeoJSON(g, 9, GeoJSONCRSNot4326)
	g.Shape.Bounds()
	g.Shape.NPoints()
	g.Shape.IsEmpty()
	Envelope(g.Shape)
}

// checkErr: a decoder's error is PostGIS's XX000, never anything else.
func checkErr(t *testing.T, err error) {
	if code := pgerr.CodeOf(err); code != pgerr.InternalError {
		t.Fatalf("error %v has SQLSTATE %v, want XX000", err, code)
	}
}

func FuzzDecodeEWKB(f *testing.F) {
	for _, s := range []string{"0101000020E6100000000000000000F03F0000000000000040", "010700000000000000",
		"01010000C0000000000000F03F000000000000004000000000000008400000000000001040", "000000000140000000000000004010000000000000",
		"0103000000010000000400000000000000000000000000000000000000000000000000F03F0000000000000000000000000000F03F000000000000F03F00000000000000000000000000000000",
		"0104000000020000000101000000000000000000F03F0000000000000040010100000000000000000008400000000000001040"} {
		b, _ := hex.DecodeString(s)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := DecodeEWKB(b)
		if err != nil {
			checkErr(t, err)
			return
		}
		checkDecoded(t, g)
	})
}

func FuzzParseEWKT(f *testing.F) {
	for _, s := range []string{"POINT(1 2)", "SRID=4326;POINT(1 2)", "POINTM(1 2 3)", "POINT(1 2 3 4)", "MULTIPOINT(EMPTY, 1 2)",
		"GEOMETRYCOLLECTION(POINT(1 2 3),LINESTRING(1 2 3,4 5 6))", "POLYGON((0 0,1 0,1 1,0 0),(0.1 0.1,0.2 0.1,0.2 0.2,0.1 0.1))",
		"MULTIPOLYGON(((0 0,1 0,1 1,0 0)),EMPTY)", "POINT Z EMPTY", "LINESTRING(1e300 -1e-300,2 2)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, err := ParseEWKT(s)
		if err != nil {
			checkErr(t, err)
			return
		}
		checkDecoded(t, g)
		// What it prints, it reads back (finite coordinates: PostGIS
		// prints no NaN or infinity it could read).
		finite := true
		g.Shape.eachVertex(func(x, y float64) {
			finite = finite && !math.IsNaN(x) && !math.IsInf(x, 0) && !math.IsNaN(y) && !math.IsInf(y, 0)
		})
		if finite {
			out := FormatEWKT(g, DefaultPrecision)
			if _, err := ParseEWKT(out); err != nil {
				t.Fatalf("%q printed as %q, which does not read back: %v", s, out, err)
			}
		}
	})
}

func FuzzParseGeoJSON(f *testing.F) {
	for _, s := range []string{`{"type":"Point","coordinates":[1,2]}`, `{"type":"Point","coordinates":[]}`,
		`{"type":"LineString","coordinates":[[1,2],[3,4]]}`, `{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}`,
		`{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1,2,3]}]}`,
		`{"type":"Point","coordinates":[1,2],"crs":{"type":"name","properties":{"name":"EPSG:3857"}}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, err := ParseGeoJSON(s)
		if err != nil {
			checkErr(t, err)
			return
		}
		checkDecoded(t, g)
		if _, err := ParseGeoJSON(FormatGeoJSON(g, 17, 0)); err != nil {
			t.Fatalf("%q printed as GeoJSON does not read back: %v", s, err)
		}
	})
}

// PostGIS's errors for the user's input are XX000, as lwgeom's are, but
// raised (pgerr.Raised), so the server does not log them as its own
// internal errors.
func TestInputErrorsAreRaisedNotInternal(t *testing.T) {
	_, parseErr := Parse("POINT(1")
	_, jsonErr := ParseGeoJSON(`{"type": "Blob"}`)
	for name, err := range map[string]error{
		"mixed SRIDs": CheckSRIDs("ST_Distance", Point, 4326, Point, 0),
		"bad text":    parseErr,
		"bad GeoJSON": jsonErr,
	} {
		pe := pgerr.As(err)
		if pe == nil || pe.Code != pgerr.InternalError || pe.Internal() {
			t.Errorf("%s: %v, want an XX000 raised for the input", name, err)
		}
	}
}
