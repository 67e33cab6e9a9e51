package builtins

import (
	"math"

	gis "github.com/zproxy/zproxy/internal/geo"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// ST_Length and ST_Area of a geography (PostGIS 3.3), registered in
// ext_postgis.go with the geometry forms; the measures are internal/geo's
// GeographyLength, GeographySpheroidArea and GeographySphereArea.

// geogLength is ST_Length(geography [, use_spheroid]).
func geogLength(a []sqltypes.Value) (sqltypes.Value, error) {
	g, err := geomOf(a[0])
	if err != nil {
		return sqltypes.Null, err
	}
	return sqltypes.NewFloat(gis.GeographyLength(g.Shape, len(a) < 2 || a[1].Bool())), nil
}

// geogArea is ST_Area(geography [, use_spheroid]): on WGS84's spheroid
// (Karney's exact ellipsoidal area, as GeographicLib's in PostGIS) or
// on the sphere of PostGIS's radius.
func geogArea(a []sqltypes.Value) (sqltypes.Value, error) {
	g, err := geomOf(a[0])
	if err != nil {
		return sqltypes.Null, err
	}
	if len(a) > 1 && !a[1].Bool() {
		return sqltypes.NewFloat(gis.GeographySphereArea(g.Shape)), nil
	}
	area, ok := gis.GeographySpheroidArea(g.Shape)
	if !ok {
		return sqltypes.Null, unsupportedGeo("ST_Area(geography) of a polygon with nearly antipodal vertices is not supported")
	}
	return sqltypes.NewFloat(area), nil
}

func init() {
	// PostGIS's parameter names, for use_spheroid => false.
	for _, name := range []string{"st_area", "st_length"} {
		paramNames[name] = paramInfo{names: []string{"geog", "use_spheroid"}, optional: 1,
			defaults: []sqltypes.Value{sqltypes.NewBool(true)}, defaultTypes: []sqltypes.Type{sqltypes.TypeBool}}
	}
}

// geographyPointToShape is the geography distance between points (or
// multi-points) and lines or polygons, from the nearest of the points
// (gis.GeographyPointDistance); ok is false when either is empty, done
// false unless one is of points and the other not.
func geographyPointToShape(x, y *gis.Shape, spheroid bool) (d float64, ok, done bool) {
	p, ok1 := gis.Points(x)
	_, ok2 := gis.Points(y)
	if !ok1 && ok2 {
		p, _ = gis.Points(y)
		x, y = y, x
	} else if !ok1 || ok2 {
		return 0, false, false
	}
	best := math.Inf(1)
	for _, u := range p {
		if d, found := gis.GeographyPointDistance(u[0], u[1], y, spheroid); found {
			best, ok = math.Min(best, d), true
		}
	}
	return best, ok, true
}
