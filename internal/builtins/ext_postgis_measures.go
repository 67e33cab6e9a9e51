package builtins

import (
	"errors"
	"math"

	gis "github.com/zproxy/zproxy/internal/geo"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// PostGIS 3.3's measurements and text forms: ST_Perimeter, ST_Azimuth,
// ST_Project, ST_LineInterpolatePoint, ST_LineLocatePoint, ST_GeoHash,
// ST_TileEnvelope, ST_AsKML, ST_AsSVG and ST_AsLatLonText (the
// algorithms are in package geo: measures.go, measures_output.go).

// tileEnvelopeBounds is ST_TileEnvelope's default bounds: Web
// Mercator's square world.
var tileEnvelopeBounds = gis.Geom{SRID: 3857, Shape: &gis.Shape{Kind: gis.LineString,
	Coords: []float64{-20037508.342789244, -20037508.342789244, 20037508.342789244, 20037508.342789244}}}

func init() {
	tGeom, tGeog := sqltypes.TypeGeometry, sqltypes.TypeGeography
	pGeom, pGeog := T(tGeom), T(tGeog)
	f8, i4, text, boolean := T(sqltypes.TypeFloat8), T(sqltypes.TypeInt4), T(sqltypes.TypeText), T(sqltypes.TypeBool)
	fn := func(params []Param, result sqltypes.Type, doc string, f func(a []sqltypes.Value) (sqltypes.Value, error)) Overload {
		return Overload{Params: params, Result: Returns(result), Volatility: Immutable, Doc: doc,
			Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) { return f(a) }}
	}
	// fromText reads a text first argument as a geometry (PostGIS's
	// ST_AsKML(text) and ST_AsSVG(text) overloads).
	fromText := func(f func(a []sqltypes.Value) (sqltypes.Value, error)) func(a []sqltypes.Value) (sqltypes.Value, error) {
		return func(a []sqltypes.Value) (sqltypes.Value, error) {
			g, err := sqltypes.ParseGeometryText(tGeom, a[0].S)
			if err != nil {
				return sqltypes.Null, err
			}
			return f(append([]sqltypes.Value{g}, a[1:]...))
		}
	}

	// ST_Perimeter.
	geogPerimeter := func(a []sqltypes.Value) (sqltypes.Value, error) {
		g, err := geomOf(a[0])
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewFloat(gis.GeographyPerimeter(g.Shape, len(a) < 2 || a[1].Bool())), nil
	}
	Register("st_perimeter",
		fn([]Param{pGeom}, sqltypes.TypeFloat8, "the planar length of the polygons' rings", func(a []sqltypes.Value) (sqltypes.Value, error) {
			g, err := geomOf(a[0])
			if err != nil {
				return sqltypes.Null, err
			}
			return sqltypes.NewFloat(gis.Perimeter(g.Shape)), nil
		}),
		fn([]Param{pGeog}, sqltypes.TypeFloat8, "the length in metres of the polygons' rings on the spheroid", geogPerimeter),
		fn([]Param{pGeog, boolean}, sqltypes.TypeFloat8, "the length in metres of the polygons' rings on the spheroid or the sphere", geogPerimeter))
	paramNames["st_perimeter"] = paramInfo{names: []string{"geog", "use_spheroid"}, optional: 1,
		defaults: []sqltypes.Value{sqltypes.NewBool(true)}, defaultTypes: []sqltypes.Type{sqltypes.TypeBool}}

	// ST_Azimuth: NULL for the same point twice.
	Register("st_azimuth",
		fn([]Param{pGeom, pGeom}, sqltypes.TypeFloat8, "the planar azimuth in radians from the first point to the second", func(a []sqltypes.Value) (sqltypes.Value, error) {
			var xy [2][2]float64
			var srid [2]int32
			for i := range 2 {
				g, err := geomOf(a[i])
				if err != nil {
					return sqltypes.Null, err
				}
				if g.Shape.Kind != gis.Point {
					return sqltypes.Null, pgerr.Raised("Argument must be POINT geometries")
				}
				if g.Shape.IsEmpty() {
					return sqltypes.Null, pgerr.Raised("Error extracting point")
				}
				xy[i] = [2]float64{g.Shape.Coords[0], g.Shape.Coords[1]}
				srid[i] = g.SRID
			}
			if srid[0] != srid[1] {
				return sqltypes.Null, pgerr.Raised("Operation on mixed SRID geometries")
			}
			az, ok := gis.Azimuth(xy[0][0], xy[0][1], xy[1][0], xy[1][1])
			if !ok {
				return sqltypes.Null, nil
			}
			return sqltypes.NewFloat(az), nil
		}),
		fn([]Param{pGeog, pGeog}, sqltypes.TypeFloat8, "the azimuth in radians of the geodesic from the first point to the second on the spheroid", func(a []sqltypes.Value) (sqltypes.Value, error) {
			var xy [2][2]float64
			for i := range 2 {
				g, err := geomOf(a[i])
				if err != nil {
					return sqltypes.Null, err
				}
				if g.Shape.Kind != gis.Point {
					return sqltypes.Null, pgerr.Raised("ST_Azimuth(geography, geography) is only valid for point inputs")
				}
				if g.Shape.IsEmpty() {
					return sqltypes.Null, pgerr.Raised("ST_Azimuth(geography, geography) cannot work with empty points")
				}
				xy[i] = [2]float64{g.Shape.Coords[0], g.Shape.Coords[1]}
			}
			az, ok := gis.SpheroidAzimuth(xy[0][0], xy[0][1], xy[1][0], xy[1][1])
			if !ok {
				return sqltypes.Null, nil
			}
			return sqltypes.NewFloat(az), nil
		}))

	// ST_Project: a 2D point (PostGIS drops Z and M).
	Register("st_project",
		fn([]Param{pGeog, f8, f8}, tGeog, "the point so many metres from the point along the geodesic at the azimuth (radians) on the spheroid", func(a []sqltypes.Value) (sqltypes.Value, error) {
			g, err := geomOf(a[0])
			if err != nil {
				return sqltypes.Null, err
			}
			if g.Shape.Kind != gis.Point {
				return sqltypes.Null, pgerr.Raised("ST_Project(geography) is only valid for point inputs")
			}
			if g.Shape.IsEmpty() {
				return sqltypes.Null, pgerr.Raised("ST_Project(geography) cannot project from an empty start point")
			}
			lon, lat, err := gis.SpheroidProject(g.Shape.Coords[0], g.Shape.Coords[1], a[1].F, a[2].F)
			if errors.Is(err, gis.ErrProjectTooFar) {
				return sqltypes.Null, pgerr.Raised("Distance must not be greater than %s", gis.CFormatG(gis.MaxProjectDistance))
			}
			if err != nil {
				return sqltypes.Null, err
			}
			return sqltypes.GeomValue(tGeog, gis.NewPoint(lon, lat, g.SRID))
		}))
	paramNames["st_project"] = paramInfo{names: []string{"geog", "distance", "azimuth"}}

	// ST_LineInterpolatePoint and ST_LineLocatePoint: line strings only.
	Register("st_lineinterpolatepoint",
		fn([]Param{pGeom, f8}, tGeom, "the point at the fraction of the line's length", func(a []sqltypes.Value) (sqltypes.Value, error) {
			g, err := geomOf(a[0])
			if err != nil {
				return sqltypes.Null, err
			}
			if a[1].F < 0 || a[1].F > 1 {
				return sqltypes.Null, pgerr.Raised("line_interpolate_point: 2nd arg isn't within [0,1]")
			}
			if g.Shape.Kind != gis.LineString {
				return sqltypes.Null, pgerr.Raised("line_interpolate_point: 1st arg isn't a line")
			}
			p, err := gis.LineInterpolatePoint(g.Shape, a[1].F)
			if err != nil {
				return sqltypes.Null, err
			}
			return geomV(gis.Geom{SRID: g.SRID, Shape: p}), nil
		}))
	Register("st_linelocatepoint",
		fn([]Param{pGeom, pGeom}, sqltypes.TypeFloat8, "the fraction of the line's length at its point nearest the point", func(a []sqltypes.Value) (sqltypes.Value, error) {
			l, err := geomOf(a[0])
			if err != nil {
				return sqltypes.Null, err
			}
			p, err := geomOf(a[1])
			if err != nil {
				return sqltypes.Null, err
			}
			if l.Shape.Kind != gis.LineString {
				return sqltypes.Null, pgerr.Raised("line_locate_point: 1st arg isn't a line")
			}
			if p.Shape.Kind != gis.Point {
				return sqltypes.Null, pgerr.Raised("line_locate_point: 2nd arg isn't a point")
			}
			if err := gis.CheckSameSRID("LWGEOM_line_locate_point", l, p); err != nil {
				return sqltypes.Null, err
			}
			if p.Shape.IsEmpty() {
				return sqltypes.NewFloat(0), nil
			}
			return sqltypes.NewFloat(gis.LineLocatePoint(l.Shape, p.Shape.Coords[0], p.Shape.Coords[1])), nil
		}))
	paramNames["st_linelocatepoint"] = paramInfo{names: []string{"geom1", "geom2"}}

	// ST_GeoHash: NULL for an empty geometry.
	geohash := func(a []sqltypes.Value) (sqltypes.Value, error) {
		g, err := geomOf(a[0])
		if err != nil {
			return sqltypes.Null, err
		}
		if g.Shape.IsEmpty() {
			return sqltypes.Null, nil
		}
		n := 0
		if len(a) > 1 {
			n = int(max(min(a[1].I, math.MaxInt32), math.MinInt32))
		}
		h, err := gis.GeoHash(g.Shape, n)
		var ge *gis.GeoHashError
		if errors.As(err, &ge) {
			return sqltypes.Null, pgerr.Raised("%s", ge.Error())
		}
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewText(h), nil
	}
	Register("st_geohash",
		fn([]Param{pGeom}, sqltypes.TypeText, "the geohash of the geometry's box", geohash),
		fn([]Param{pGeom, i4}, sqltypes.TypeText, "the geohash of the geometry's box, of at most so many characters", geohash),
		fn([]Param{pGeog}, sqltypes.TypeText, "the geohash of the geography's box", geohash),
		fn([]Param{pGeog, i4}, sqltypes.TypeText, "the geohash of the geography's box, of at most so many characters", geohash))
	paramNames["st_geohash"] = paramInfo{names: []string{"geom", "maxchars"}, optional: 1}

	// ST_TileEnvelope: the bounds' SRID, Web Mercator's world by default.
	tile := func(a []sqltypes.Value) (sqltypes.Value, error) {
		bounds := tileEnvelopeBounds
		if len(a) > 3 {
			g, err := geomOf(a[3])
			if err != nil {
				return sqltypes.Null, err
			}
			bounds = g
		}
		margin := 0.0
		if len(a) > 4 {
			margin = a[4].F
		}
		b, ok := bounds.Shape.Bounds()
		if !ok {
			return sqltypes.Null, pgerr.Raised("ST_TileEnvelope: Unable to compute bbox")
		}
		if b.MaxX-b.MinX <= 0 || b.MaxY-b.MinY <= 0 {
			return sqltypes.Null, pgerr.Raised("ST_TileEnvelope: Geometric bounds are too small")
		}
		if margin < -0.5 {
			return sqltypes.Null, pgerr.Raised("ST_TileEnvelope: Margin must not be less than -50%%, margin=%f", margin)
		}
		zoom, x, y := a[0].I, a[1].I, a[2].I
		if zoom < 0 || zoom >= 32 {
			return sqltypes.Null, pgerr.Raised("ST_TileEnvelope: Invalid tile zoom value, %d", zoom)
		}
		n := int64(1) << zoom
		if x < 0 || x >= n {
			return sqltypes.Null, pgerr.Raised("ST_TileEnvelope: Invalid tile x value, %d", x)
		}
		if y < 0 || y >= n {
			return sqltypes.Null, pgerr.Raised("ST_TileEnvelope: Invalid tile y value, %d", y)
		}
		env := gis.TileEnvelope(int(zoom), int(x), int(y), b, margin)
		return geomV(gis.Geom{SRID: bounds.SRID, Shape: gis.BoxPolygon(env)}), nil
	}
	Register("st_tileenvelope",
		fn([]Param{i4, i4, i4}, tGeom, "the box of a tile of Web Mercator's world", tile),
		fn([]Param{i4, i4, i4, pGeom}, tGeom, "the box of a tile of the bounds", tile),
		fn([]Param{i4, i4, i4, pGeom, f8}, tGeom, "the box of a tile of the bounds, widened by a fraction of a tile", tile))
	paramNames["st_tileenvelope"] = paramInfo{names: []string{"zoom", "x", "y", "bounds", "margin"}, optional: 2,
		defaults:     []sqltypes.Value{geomV(tileEnvelopeBounds), sqltypes.NewFloat(0)},
		defaultTypes: []sqltypes.Type{tGeom, sqltypes.TypeFloat8}}

	// ST_AsKML: lon/lat degrees (zproxy projects from 3857 only), NULL
	// for an empty geometry.
	kml := func(a []sqltypes.Value) (sqltypes.Value, error) {
		g, err := geomOf(a[0])
		if err != nil {
			return sqltypes.Null, err
		}
		prec := 15
		if len(a) > 1 {
			prec = int(max(min(a[1].I, 20), 0))
		}
		prefix := ""
		if len(a) > 2 {
			prefix = a[2].S
		}
		switch g.SRID {
		case 0:
			return sqltypes.Null, pgerr.Raised("ST_AsKML: Input geometry has unknown (0) SRID")
		case 4326:
		case 3857:
			// PROJ's inverse of the spherical Mercator, atan(sinh(y/a)), which
			// can differ from ST_Transform's form in the last digit.
			g.Shape = g.Shape.MapXY(func(x, y float64) (float64, float64) {
				const a, deg = 6378137.0, 180 / math.Pi
				return x / a * deg, math.Atan(math.Sinh(y/a)) * deg
			})
		default:
			return sqltypes.Null, unsupportedGeo("ST_AsKML of SRID %d is not supported (only 4326 and 3857)", g.SRID)
		}
		if g.Shape.IsEmpty() {
			return sqltypes.Null, nil
		}
		s, err := gis.FormatKML(g.Shape, prec, prefix)
		if err != nil {
			return sqltypes.Null, pgerr.Raised("%s", err.Error())
		}
		return sqltypes.NewText(s), nil
	}
	Register("st_askml",
		fn([]Param{pGeom}, sqltypes.TypeText, "the KML", kml),
		fn([]Param{pGeom, i4}, sqltypes.TypeText, "the KML, to so many decimals", kml),
		fn([]Param{pGeom, i4, text}, sqltypes.TypeText, "the KML, to so many decimals, its elements in the namespace prefix", kml),
		fn([]Param{pGeog}, sqltypes.TypeText, "the KML", kml),
		fn([]Param{pGeog, i4}, sqltypes.TypeText, "the KML, to so many decimals", kml),
		fn([]Param{pGeog, i4, text}, sqltypes.TypeText, "the KML, to so many decimals, its elements in the namespace prefix", kml),
		fn([]Param{text}, sqltypes.TypeText, "the KML of the geometry's text", fromText(kml)))
	paramNames["st_askml"] = paramInfo{names: []string{"geom", "maxdecimaldigits", "nprefix"}, optional: 2,
		defaults:     []sqltypes.Value{sqltypes.NewInt(15), sqltypes.NewText("")},
		defaultTypes: []sqltypes.Type{sqltypes.TypeInt4, sqltypes.TypeText}}

	// ST_AsSVG: an empty geometry is an empty string.
	svg := func(a []sqltypes.Value) (sqltypes.Value, error) {
		g, err := geomOf(a[0])
		if err != nil {
			return sqltypes.Null, err
		}
		rel := len(a) > 1 && a[1].I != 0
		prec := 15
		if len(a) > 2 {
			prec = int(max(min(a[2].I, 20), -1))
		}
		if hasEmptyPoint(g.Shape) && g.Shape.Kind != gis.Point {
			return sqltypes.Null, unsupportedGeo("ST_AsSVG of an empty point in a collection is not supported")
		}
		s, err := gis.FormatSVG(g.Shape, rel, prec)
		if err != nil {
			return sqltypes.Null, pgerr.Raised("%s", err.Error())
		}
		return sqltypes.NewText(s), nil
	}
	Register("st_assvg",
		fn([]Param{pGeom}, sqltypes.TypeText, "the SVG path data", svg),
		fn([]Param{pGeom, i4}, sqltypes.TypeText, "the SVG path data, relative moves when rel is not 0", svg),
		fn([]Param{pGeom, i4, i4}, sqltypes.TypeText, "the SVG path data, relative moves when rel is not 0, to so many decimals", svg),
		fn([]Param{pGeog}, sqltypes.TypeText, "the SVG path data", svg),
		fn([]Param{pGeog, i4}, sqltypes.TypeText, "the SVG path data, relative moves when rel is not 0", svg),
		fn([]Param{pGeog, i4, i4}, sqltypes.TypeText, "the SVG path data, relative moves when rel is not 0, to so many decimals", svg),
		fn([]Param{text}, sqltypes.TypeText, "the SVG path data of the geometry's text", fromText(svg)))
	paramNames["st_assvg"] = paramInfo{names: []string{"geom", "rel", "maxdecimaldigits"}, optional: 2,
		defaults:     []sqltypes.Value{sqltypes.NewInt(0), sqltypes.NewInt(15)},
		defaultTypes: []sqltypes.Type{sqltypes.TypeInt4, sqltypes.TypeInt4}}

	// ST_AsLatLonText: points only.
	latlon := func(a []sqltypes.Value) (sqltypes.Value, error) {
		g, err := geomOf(a[0])
		if err != nil {
			return sqltypes.Null, err
		}
		if g.Shape.Kind != gis.Point {
			return sqltypes.Null, pgerr.Raised("Only points are supported, you tried type %s.", g.Shape.Kind)
		}
		if g.Shape.IsEmpty() {
			return sqltypes.Null, pgerr.Raised("Cannot convert an empty point into formatted text.")
		}
		format := ""
		if len(a) > 1 {
			format = a[1].S
		}
		s, err := gis.LatLonText(g.Shape.Coords[0], g.Shape.Coords[1], format)
		if err != nil {
			return sqltypes.Null, pgerr.Raised("%s", err.Error())
		}
		return sqltypes.NewText(s), nil
	}
	Register("st_aslatlontext",
		fn([]Param{pGeom}, sqltypes.TypeText, "the point's latitude and longitude in degrees, minutes and seconds", latlon),
		fn([]Param{pGeom, text}, sqltypes.TypeText, "the point's latitude and longitude in the format", latlon))
	paramNames["st_aslatlontext"] = paramInfo{names: []string{"geom", "tmpl"}, optional: 1}
}

// hasEmptyPoint reports whether a point in s is empty (PostGIS's SVG
// writer reads garbage for one inside a collection).
func hasEmptyPoint(s *gis.Shape) bool {
	if s.Kind == gis.Point {
		return s.IsEmpty()
	}
	for _, p := range s.Parts {
		if hasEmptyPoint(p) {
			return true
		}
	}
	return false
}
