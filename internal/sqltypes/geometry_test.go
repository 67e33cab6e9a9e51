package sqltypes

import (
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// Typmods as PostGIS packs and prints them (atttypmod and format_type of
// PostGIS 3.3), and their names read back.
func TestGeomTypmods(t *testing.T) {
	for _, c := range []struct {
		id     TypeID
		args   []string
		name   string
		typmod int32
	}{
		{Geometry, []string{"Point", "4326"}, "geometry(Point,4326)", 1107460},
		{Geography, []string{"Point"}, "geography(Point,4326)", 1107460},
		{Geometry, []string{"POLYGONZ"}, "geometry(PolygonZ)", 14},
		{Geometry, []string{"point"}, "geometry(Point)", 4},
		{Geometry, []string{"GeometryCollection"}, "geometry(GeometryCollection)", 28},
		{Geometry, []string{"MultiLineStringZM", "3857"}, "geometry(MultiLineStringZM,3857)", 3857<<8 | 5<<2 | 3},
	} {
		typ, err := GeomType(c.id, c.args)
		if err != nil {
			t.Errorf("GeomType(%v): %v", c.args, err)
			continue
		}
		if typ.String() != c.name || typ.TypeMod() != c.typmod {
			t.Errorf("GeomType(%v) = %s %d, want %s %d", c.args, typ, typ.TypeMod(), c.name, c.typmod)
		}
		if back, ok := ParseTypeName(c.name); !ok || back != typ {
			t.Errorf("ParseTypeName(%q) = %v %v, want %v", c.name, back, ok, typ)
		}
	}
	for _, args := range [][]string{{"Blob"}, {"Point", "4326", "1"}, {}} {
		if _, err := GeomType(Geometry, args); pgerr.CodeOf(err) != pgerr.InvalidParameterValue {
			t.Errorf("GeomType(%v): %v, want 22023", args, err)
		}
	}
	if _, err := GeomType(Geography, []string{"Point", "3857"}); pgerr.CodeOf(err) != pgerr.InvalidParameterValue {
		t.Errorf("geography(Point, 3857): %v, want 22023", err)
	}
}

// Values of a typmod'ed type: an SRID taken from the column, PostGIS's
// errors otherwise.
func TestGeomTypmodChecks(t *testing.T) {
	pt4326, _ := GeomType(Geometry, []string{"Point", "4326"})
	for _, c := range []struct {
		typ  Type
		in   string
		out  string
		code pgerr.Code
	}{
		{pt4326, "POINT(1 2)", "0101000020E6100000000000000000F03F0000000000000040", pgerr.Code{}},
		{pt4326, "SRID=3857;POINT(1 2)", "", pgerr.InvalidParameterValue},
		{pt4326, "LINESTRING(0 0,1 1)", "", pgerr.InvalidParameterValue},
		{pt4326, "POINT(1 2 3)", "", pgerr.InvalidParameterValue},
		{TypeGeography, "POINT(1 2)", "0101000020E6100000000000000000F03F0000000000000040", pgerr.Code{}},
		{TypeGeography, "SRID=3857;POINT(1 2)", "", pgerr.InvalidParameterValue},
		{TypeGeometry, "POINT(1", "", pgerr.InternalError},
	} {
		v, err := ParseText(c.typ, c.in)
		if pgerr.CodeOf(err) != c.code && !(err == nil && c.code == pgerr.Code{}) {
			t.Errorf("%s %q: %v, want %v", c.typ, c.in, err, c.code)
			continue
		}
		if err == nil && FormatText(v) != c.out {
			t.Errorf("%s %q = %s, want %s", c.typ, c.in, FormatText(v), c.out)
		}
	}
}
