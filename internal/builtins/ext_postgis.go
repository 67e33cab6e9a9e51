package builtins

import (
	"math"
	"strconv"
	"strings"

	gis "github.com/zproxy/zproxy/internal/geo"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The postgis extension's functions and operators (PostGIS 3.3's
// signatures), a subset: constructors, I/O, accessors, the DE-9IM
// predicates, distances (planar for geometry; WGS84's spheroid or the
// sphere for geography), ST_Buffer of points, ST_Envelope, ST_Area,
// ST_Length, ST_Centroid, ST_Transform between 4326 and 3857, and the
// operators &&, ~= and <->. The values and algorithms are in package geo;
// the type is sqltypes' (geometry.go); the extension's catalog rows are in
// catalog/pgcatalog/extensions.go.

// PostGISVersion is postgis_version()'s answer: PostGIS's, so that tools
// that read it to choose their SQL take the PostGIS 3.3 path.
const PostGISVersion = "3.3 USE_GEOS=1 USE_PROJ=1 USE_STATS=1"

// geomOf decodes a geometry or geography argument.
func geomOf(v sqltypes.Value) (gis.Geom, error) { return v.Geom() }

func geomV(g gis.Geom) sqltypes.Value { return sqltypes.NewGeometry(g) }

func unsupportedGeo(format string, args ...any) error {
	return pgerr.New(pgerr.FeatureNotSupported, format, args...)
}

// twoGeoms decodes two arguments and checks their SRIDs agree (fn names
// the function in PostGIS's message).
func twoGeoms(fn string, a, b sqltypes.Value) (gis.Geom, gis.Geom, error) {
	x, err := geomOf(a)
	if err != nil {
		return x, x, err
	}
	y, err := geomOf(b)
	if err != nil {
		return x, y, err
	}
	return x, y, gis.CheckSameSRID(fn, x, y)
}

// geographyDistance is the distance in metres between two geographies of
// points (or multi-points), or for ST_Distance and ST_DWithin between
// points and lines or polygons (geographyPointToShape): on WGS84's
// spheroid, or on the sphere of its mean radius. ok is false when one
// is empty.
func geographyDistance(fn string, a, b sqltypes.Value, spheroid bool) (float64, bool, error) {
	x, y, err := twoGeoms(fn, a, b)
	if err != nil {
		return 0, false, err
	}
	if fn == "ST_Distance" || fn == "ST_DWithin" {
		if d, ok, done := geographyPointToShape(x.Shape, y.Shape, spheroid); done {
			return d, ok, nil
		}
	}
	return pointsDistance(x.Shape, y.Shape, spheroid, gis.SphereRadius)
}

func pointsDistance(x, y *gis.Shape, spheroid bool, radius float64) (float64, bool, error) {
	p, ok1 := gis.Points(x)
	q, ok2 := gis.Points(y)
	if !ok1 || !ok2 {
		return 0, false, unsupportedGeo("geography distances are supported between points only, not %s and %s", x.Kind, y.Kind)
	}
	best, found := math.Inf(1), false
	for _, u := range p {
		for _, v := range q {
			var d float64
			if spheroid {
				d = gis.SpheroidDistance(u[0], u[1], v[0], v[1])
			} else {
				d = gis.SphereDistance(u[0], u[1], v[0], v[1], radius)
			}
			best, found = math.Min(best, d), true
		}
	}
	return best, found, nil
}

// boxOf is a geometry's 2D box (ok false when empty).
func boxOf(v sqltypes.Value) (gis.Box, bool, error) {
	g, err := geomOf(v)
	if err != nil {
		return gis.Box{}, false, err
	}
	b, ok := g.Shape.Bounds()
	return b, ok, nil
}

func init() {
	tGeom, tGeog := sqltypes.TypeGeometry, sqltypes.TypeGeography
	pGeom, pGeog := T(tGeom), T(tGeog)
	f8, i4, text := T(sqltypes.TypeFloat8), T(sqltypes.TypeInt4), T(sqltypes.TypeText)
	boolean := T(sqltypes.TypeBool)
	fn := func(params []Param, result sqltypes.Type, doc string, f func(a []sqltypes.Value) (sqltypes.Value, error)) Overload {
		return Overload{Params: params, Result: Returns(result), Volatility: Immutable, Doc: doc,
			Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) { return f(a) }}
	}
	// textual makes a text overload of a geometry function (PostGIS has
	// them so that an untyped literal is read as a geometry, not a
	// geography).
	textual := func(o Overload) Overload {
		params := append([]Param(nil), o.Params...)
		for i, p := range params {
			if p.Type.ID == sqltypes.Geometry {
				params[i] = text
			}
		}
		o.Params = params
		wrap := func(inner func(*Context, []sqltypes.Value) (sqltypes.Value, error)) func(*Context, []sqltypes.Value) (sqltypes.Value, error) {
			return func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				args := append([]sqltypes.Value(nil), a...)
				for i, p := range params {
					if p.Type.ID == sqltypes.Text && i < len(o.Params) {
						g, err := sqltypes.ParseGeometryText(tGeom, args[i].S)
						if err != nil {
							return sqltypes.Null, err
						}
						args[i] = g
					}
				}
				return inner(ctx, args)
			}
		}
		o.Eval = wrap(o.Eval)
		if typed := o.Typed; typed != nil {
			o.Typed = func(types []sqltypes.Type) func(*Context, []sqltypes.Value) (sqltypes.Value, error) {
				return wrap(typed(types))
			}
		}
		return o
	}

	// Constructors.
	Register("st_makepoint",
		fn([]Param{f8, f8}, tGeom, "a 2D point", func(a []sqltypes.Value) (sqltypes.Value, error) {
			return geomV(gis.NewPoint(a[0].F, a[1].F, 0)), nil
		}),
		fn([]Param{f8, f8, f8}, tGeom, "a 3D point (XYZ)", func(a []sqltypes.Value) (sqltypes.Value, error) {
			return geomV(gis.Geom{Shape: &gis.Shape{Kind: gis.Point, Z: true, Coords: []float64{a[0].F, a[1].F, a[2].F}}}), nil
		}),
		fn([]Param{f8, f8, f8, f8}, tGeom, "a 4D point (XYZM)", func(a []sqltypes.Value) (sqltypes.Value, error) {
			return geomV(gis.Geom{Shape: &gis.Shape{Kind: gis.Point, Z: true, M: true, Coords: []float64{a[0].F, a[1].F, a[2].F, a[3].F}}}), nil
		}))
	Register("st_point",
		fn([]Param{f8, f8}, tGeom, "a point", func(a []sqltypes.Value) (sqltypes.Value, error) {
			return geomV(gis.NewPoint(a[0].F, a[1].F, 0)), nil
		}),
		fn([]Param{f8, f8, i4}, tGeom, "a point in an SRID", func(a []sqltypes.Value) (sqltypes.Value, error) {
			return geomV(gis.NewPoint(a[0].F, a[1].F, int32(a[2].I))), nil
		}))
	envelope := func(a []sqltypes.Value) (sqltypes.Value, error) {
		srid := int32(0)
		if len(a) > 4 {
			srid = int32(a[4].I)
		}
		return geomV(gis.Geom{SRID: srid, Shape: gis.BoxPolygon(gis.Box{MinX: a[0].F, MinY: a[1].F, MaxX: a[2].F, MaxY: a[3].F})}), nil
	}
	Register("st_makeenvelope",
		fn([]Param{f8, f8, f8, f8}, tGeom, "the rectangle of the corners", envelope),
		fn([]Param{f8, f8, f8, f8, i4}, tGeom, "the rectangle of the corners, in an SRID", envelope))
	Register("st_setsrid",
		fn([]Param{pGeom, i4}, tGeom, "the geometry in another SRID, coordinates unchanged", func(a []sqltypes.Value) (sqltypes.Value, error) {
			g, err := geomOf(a[0])
			if err != nil {
				return sqltypes.Null, err
			}
			g.SRID = int32(max(a[1].I, 0))
			return geomV(g), nil
		}),
		fn([]Param{pGeog, i4}, tGeog, "the geography in another SRID", func(a []sqltypes.Value) (sqltypes.Value, error) {
			g, err := geomOf(a[0])
			if err != nil {
				return sqltypes.Null, err
			}
			g.SRID = int32(max(a[1].I, 0))
			return sqltypes.GeomValue(tGeog, g)
		}))
	srid := func(a []sqltypes.Value) (sqltypes.Value, error) {
		g, err := geomOf(a[0])
		return sqltypes.NewInt(int64(g.SRID)), err
	}
	Register("st_srid", fn([]Param{pGeom}, sqltypes.TypeInt4, "the SRID", srid), fn([]Param{pGeog}, sqltypes.TypeInt4, "the SRID", srid))

	// Input.
	fromText := func(a []sqltypes.Value) (sqltypes.Value, error) {
		g, err := gis.ParseEWKT(a[0].S)
		if err != nil {
			return sqltypes.Null, err
		}
		if len(a) > 1 {
			g.SRID = int32(max(a[1].I, 0))
		}
		return geomV(g), nil
	}
	Register("st_geomfromtext",
		fn([]Param{text}, tGeom, "the geometry of WKT", fromText),
		fn([]Param{text, i4}, tGeom, "the geometry of WKT, in an SRID", fromText))
	Register("st_geometryfromtext",
		fn([]Param{text}, tGeom, "the geometry of WKT", fromText),
		fn([]Param{text, i4}, tGeom, "the geometry of WKT, in an SRID", fromText))
	Register("st_geomfromewkt", fn([]Param{text}, tGeom, "the geometry of EWKT", fromText))
	fromGeoJSON := func(a []sqltypes.Value) (sqltypes.Value, error) {
		s := a[0].S
		if a[0].K != sqltypes.KindText {
			s = sqltypes.FormatText(a[0])
		}
		g, err := gis.ParseGeoJSON(s)
		if err != nil {
			return sqltypes.Null, err
		}
		return geomV(g), nil
	}
	Register("st_geomfromgeojson",
		fn([]Param{text}, tGeom, "the geometry of GeoJSON", fromGeoJSON),
		fn([]Param{T(sqltypes.TypeJSON)}, tGeom, "the geometry of GeoJSON", fromGeoJSON),
		fn([]Param{T(sqltypes.TypeJSONB)}, tGeom, "the geometry of GeoJSON", fromGeoJSON))
	fromWKB := func(a []sqltypes.Value) (sqltypes.Value, error) {
		g, err := gis.DecodeEWKB([]byte(a[0].S))
		if err != nil {
			return sqltypes.Null, err
		}
		if len(a) > 1 {
			g.SRID = int32(max(a[1].I, 0))
		}
		return geomV(g), nil
	}
	bytea := T(sqltypes.TypeBytea)
	Register("st_geomfromwkb",
		fn([]Param{bytea}, tGeom, "the geometry of WKB", fromWKB),
		fn([]Param{bytea, i4}, tGeom, "the geometry of WKB, in an SRID", fromWKB))
	Register("st_geomfromewkb", fn([]Param{bytea}, tGeom, "the geometry of EWKB", fromWKB))
	// The geography constructors: SRID 4326 when none is given, as the
	// geography type's input has it (sqltypes.GeomValue).
	geog := func(parse func(a []sqltypes.Value) (gis.Geom, error)) func(a []sqltypes.Value) (sqltypes.Value, error) {
		return func(a []sqltypes.Value) (sqltypes.Value, error) {
			g, err := parse(a)
			if err != nil {
				return sqltypes.Null, err
			}
			return sqltypes.GeomValue(tGeog, g)
		}
	}
	geogText := geog(func(a []sqltypes.Value) (gis.Geom, error) { return gis.ParseEWKT(a[0].S) })
	Register("st_geogfromtext", fn([]Param{text}, tGeog, "the geography of EWKT", geogText))
	Register("st_geographyfromtext", fn([]Param{text}, tGeog, "the geography of EWKT", geogText))
	Register("st_geogfromwkb", fn([]Param{bytea}, tGeog, "the geography of (E)WKB", geog(func(a []sqltypes.Value) (gis.Geom, error) {
		return gis.DecodeEWKB([]byte(a[0].S))
	})))

	// Output.
	precision := func(a []sqltypes.Value) int {
		if len(a) > 1 {
			return int(max(min(a[1].I, 20), 0))
		}
		return gis.DefaultPrecision
	}
	asText := func(a []sqltypes.Value) (sqltypes.Value, error) {
		g, err := geomOf(a[0])
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewText(gis.FormatWKT(g.Shape, precision(a))), nil
	}
	asEWKT := func(a []sqltypes.Value) (sqltypes.Value, error) {
		g, err := geomOf(a[0])
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewText(gis.FormatEWKT(g, precision(a))), nil
	}
	for _, o := range []struct {
		name string
		f    func([]sqltypes.Value) (sqltypes.Value, error)
		doc  string
	}{{"st_astext", asText, "the WKT"}, {"st_asewkt", asEWKT, "the EWKT"}} {
		g1 := fn([]Param{pGeom}, sqltypes.TypeText, o.doc, o.f)
		g2 := fn([]Param{pGeom, i4}, sqltypes.TypeText, o.doc+", to so many decimals", o.f)
		Register(o.name, g1, g2, textual(g1),
			fn([]Param{pGeog}, sqltypes.TypeText, o.doc, o.f),
			fn([]Param{pGeog, i4}, sqltypes.TypeText, o.doc+", to so many decimals", o.f))
	}
	asGeoJSON := func(defOptions int) func(a []sqltypes.Value) (sqltypes.Value, error) {
		return func(a []sqltypes.Value) (sqltypes.Value, error) {
			g, err := geomOf(a[0])
			if err != nil {
				return sqltypes.Null, err
			}
			digits, options := 9, defOptions
			if len(a) > 1 {
				digits = int(max(min(a[1].I, 20), 0))
			}
			if len(a) > 2 {
				options = int(a[2].I)
			}
			if options&gis.GeoJSONBBox != 0 {
				return sqltypes.Null, unsupportedGeo("ST_AsGeoJSON's bbox option is not supported")
			}
			return sqltypes.NewText(gis.FormatGeoJSON(g, digits, options)), nil
		}
	}
	gj := fn([]Param{pGeom}, sqltypes.TypeText, "the GeoJSON", asGeoJSON(gis.GeoJSONCRSNot4326))
	Register("st_asgeojson", gj, textual(gj),
		fn([]Param{pGeom, i4}, sqltypes.TypeText, "the GeoJSON, to so many decimals", asGeoJSON(gis.GeoJSONCRSNot4326)),
		fn([]Param{pGeom, i4, i4}, sqltypes.TypeText, "the GeoJSON, to so many decimals, with options", asGeoJSON(gis.GeoJSONCRSNot4326)),
		fn([]Param{pGeog}, sqltypes.TypeText, "the GeoJSON", asGeoJSON(0)),
		fn([]Param{pGeog, i4}, sqltypes.TypeText, "the GeoJSON, to so many decimals", asGeoJSON(0)),
		fn([]Param{pGeog, i4, i4}, sqltypes.TypeText, "the GeoJSON, to so many decimals, with options", asGeoJSON(0)))
	asBinary := func(a []sqltypes.Value) (sqltypes.Value, error) {
		g, err := geomOf(a[0])
		return sqltypes.NewBytes(gis.AppendISOWKB(nil, g.Shape)), err
	}
	// The byte order a second argument names: XDR (big-endian) when it
	// begins with xdr or XDR, else NDR, as PostGIS reads it.
	inOrder := func(ewkb bool) func(a []sqltypes.Value) (sqltypes.Value, error) {
		return func(a []sqltypes.Value) (sqltypes.Value, error) {
			g, err := geomOf(a[0])
			if err != nil {
				return sqltypes.Null, err
			}
			xdr := strings.HasPrefix(a[1].S, "xdr") || strings.HasPrefix(a[1].S, "XDR")
			return sqltypes.NewBytes(gis.AppendWKBOrder(nil, g, ewkb, xdr)), nil
		}
	}
	Register("st_asbinary",
		fn([]Param{pGeom}, sqltypes.TypeBytea, "the ISO WKB", asBinary),
		fn([]Param{pGeog}, sqltypes.TypeBytea, "the ISO WKB", asBinary),
		fn([]Param{pGeom, text}, sqltypes.TypeBytea, "the ISO WKB in the byte order named (NDR, XDR)", inOrder(false)),
		fn([]Param{pGeog, text}, sqltypes.TypeBytea, "the ISO WKB in the byte order named (NDR, XDR)", inOrder(false)))
	Register("st_asewkb", fn([]Param{pGeom}, sqltypes.TypeBytea, "the EWKB", func(a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewBytes([]byte(a[0].S)), nil
	}), fn([]Param{pGeom, text}, sqltypes.TypeBytea, "the EWKB in the byte order named (NDR, XDR)", inOrder(true)))

	// Dimensions: zproxy's geometries have no curves, so ST_CurveToLine
	// is the geometry itself and ST_HasArc false.
	dims := func(f func(s *gis.Shape) sqltypes.Value) func(a []sqltypes.Value) (sqltypes.Value, error) {
		return func(a []sqltypes.Value) (sqltypes.Value, error) {
			g, err := geomOf(a[0])
			if err != nil {
				return sqltypes.Null, err
			}
			return f(g.Shape), nil
		}
	}
	ndims := dims(func(s *gis.Shape) sqltypes.Value { return sqltypes.NewInt(int64(s.Stride())) })
	Register("st_ndims", fn([]Param{pGeom}, sqltypes.TypeInt2, "the number of ordinates a vertex has (2, 3 or 4)", ndims))
	Register("st_coorddim", fn([]Param{pGeom}, sqltypes.TypeInt2, "the number of ordinates a vertex has (2, 3 or 4)", ndims))
	Register("st_zmflag", fn([]Param{pGeom}, sqltypes.TypeInt2, "0 for 2D, 1 with M, 2 with Z, 3 with both", dims(func(s *gis.Shape) sqltypes.Value {
		flag := int64(0)
		if s.Z {
			flag += 2
		}
		if s.M {
			flag++
		}
		return sqltypes.NewInt(flag)
	})))
	Register("st_force2d", fn([]Param{pGeom}, tGeom, "the geometry without Z and M", func(a []sqltypes.Value) (sqltypes.Value, error) {
		g, err := geomOf(a[0])
		if err != nil {
			return sqltypes.Null, err
		}
		return geomV(gis.Geom{SRID: g.SRID, Shape: g.Shape.Force2D()}), nil
	}))
	identity := func(a []sqltypes.Value) (sqltypes.Value, error) { return a[0], nil }
	Register("st_curvetoline", fn([]Param{pGeom}, tGeom, "the geometry, its curves as lines (zproxy's have none)", identity),
		fn([]Param{pGeom, f8, i4, i4}, tGeom, "the geometry, its curves as lines (zproxy's have none)", identity))
	Register("st_hasarc", fn([]Param{pGeom}, sqltypes.TypeBool, "whether it has a circular string (zproxy's have none)", func(a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewBool(false), nil
	}))
	// A geometry typmod's parts, as QGIS reads a query's column.
	Register("postgis_typmod_type", fn([]Param{i4}, sqltypes.TypeText, "the geometry type a typmod names (Point, PointZ, ...)", func(a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewText(sqltypes.GeomTypmodTypeName(int(a[0].I))), nil
	}))
	Register("postgis_typmod_srid", fn([]Param{i4}, sqltypes.TypeInt4, "the SRID a typmod names (0: any)", func(a []sqltypes.Value) (sqltypes.Value, error) {
		if a[0].I < 0 {
			return sqltypes.NewInt(0), nil
		}
		_, srid, _, _ := sqltypes.Type{ID: sqltypes.Geometry, Width: int(a[0].I)}.GeomTypmodParts()
		return sqltypes.NewInt(int64(srid)), nil
	}))
	Register("postgis_typmod_dims", fn([]Param{i4}, sqltypes.TypeInt4, "the dimensions a typmod names (NULL: any)", func(a []sqltypes.Value) (sqltypes.Value, error) {
		if a[0].I < 0 {
			return sqltypes.Null, nil
		}
		_, _, z, m := sqltypes.Type{ID: sqltypes.Geometry, Width: int(a[0].I)}.GeomTypmodParts()
		n := int64(2)
		if z {
			n++
		}
		if m {
			n++
		}
		return sqltypes.NewInt(n), nil
	}))

	// Accessors.
	coord := func(name string, i int) func(a []sqltypes.Value) (sqltypes.Value, error) {
		return func(a []sqltypes.Value) (sqltypes.Value, error) {
			g, err := geomOf(a[0])
			if err != nil {
				return sqltypes.Null, err
			}
			if g.Shape.Kind != gis.Point {
				return sqltypes.Null, pgerr.Raised("Argument to %s() must have type POINT", name)
			}
			if len(g.Shape.Coords) == 0 {
				return sqltypes.Null, nil
			}
			return sqltypes.NewFloat(g.Shape.Coords[i]), nil
		}
	}
	Register("st_x", fn([]Param{pGeom}, sqltypes.TypeFloat8, "a point's x", coord("ST_X", 0)))
	Register("st_y", fn([]Param{pGeom}, sqltypes.TypeFloat8, "a point's y", coord("ST_Y", 1)))
	Register("st_geometrytype", fn([]Param{pGeom}, sqltypes.TypeText, "the type, as ST_Point", func(a []sqltypes.Value) (sqltypes.Value, error) {
		g, err := geomOf(a[0])
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewText("ST_" + g.Shape.Kind.String()), nil
	}))
	geometryType := func(a []sqltypes.Value) (sqltypes.Value, error) {
		g, err := geomOf(a[0])
		if err != nil {
			return sqltypes.Null, err
		}
		s := strings.ToUpper(g.Shape.Kind.String())
		if g.Shape.M && !g.Shape.Z {
			s += "M"
		}
		return sqltypes.NewText(s), nil
	}
	Register("geometrytype", fn([]Param{pGeom}, sqltypes.TypeText, "the type, as POINT", geometryType),
		fn([]Param{pGeog}, sqltypes.TypeText, "the type, as POINT", geometryType))
	Register("st_isempty", fn([]Param{pGeom}, sqltypes.TypeBool, "whether it has no points", func(a []sqltypes.Value) (sqltypes.Value, error) {
		g, err := geomOf(a[0])
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewBool(g.Shape.IsEmpty()), nil
	}))
	Register("st_npoints", fn([]Param{pGeom}, sqltypes.TypeInt4, "the number of vertices", func(a []sqltypes.Value) (sqltypes.Value, error) {
		g, err := geomOf(a[0])
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewInt(int64(g.Shape.NPoints())), nil
	}))

	// Predicates.
	for _, p := range []struct {
		name, label string
		pred        gis.Predicate
		doc         string
	}{
		{"st_intersects", "ST_Intersects", gis.Intersects, "whether they share a point"},
		{"st_contains", "ST_Contains", gis.Contains, "whether the second lies inside the first"},
		{"st_within", "ST_Within", gis.Within, "whether the first lies inside the second"},
		{"st_covers", "ST_Covers", gis.Covers, "whether no point of the second is outside the first"},
		{"st_coveredby", "ST_CoveredBy", gis.CoveredBy, "whether no point of the first is outside the second"},
		{"st_equals", "ST_Equals", gis.Equals, "whether they are the same set of points"},
		{"st_touches", "ST_Touches", gis.Touches, "whether they meet on their boundaries alone"},
		{"st_crosses", "ST_Crosses", gis.Crosses, "whether they share some interior points of a lower dimension"},
		{"st_overlaps", "ST_Overlaps", gis.Overlaps, "whether they share some interior points of the same dimension, neither holding the other"},
		{"st_disjoint", "ST_Disjoint", gis.Disjoint, "whether they share no point"},
	} {
		p := p
		g := sited(Overload{Params: []Param{pGeom, pGeom}, Result: Returns(sqltypes.TypeBool), Volatility: Immutable, Doc: p.doc},
			func(s *geoSite, a []sqltypes.Value) (sqltypes.Value, error) {
				return relateSited(s, p.label, p.pred, a[0], a[1])
			})
		ovs := []Overload{g}
		if p.pred == gis.Intersects || p.pred == gis.Covers {
			ovs = append(ovs, textual(g), fn([]Param{pGeog, pGeog}, sqltypes.TypeBool, p.doc+" (points)", func(a []sqltypes.Value) (sqltypes.Value, error) {
				d, ok, err := geographyDistance(p.label, a[0], a[1], false)
				return sqltypes.NewBool(ok && d == 0), err
			}))
		}
		Register(p.name, ovs...)
	}

	// Distances.
	distanceValue := func(s *geoSite, a, b sqltypes.Value) (sqltypes.Value, error) {
		d, ok, err := distanceSited(s, "ST_Distance", a, b)
		if err != nil || !ok {
			return sqltypes.Null, err
		}
		return sqltypes.NewFloat(d), nil
	}
	dist := sited(Overload{Params: []Param{pGeom, pGeom}, Result: Returns(sqltypes.TypeFloat8), Volatility: Immutable, Doc: "the planar distance"},
		func(s *geoSite, a []sqltypes.Value) (sqltypes.Value, error) { return distanceValue(s, a[0], a[1]) })
	geogDist := func(a []sqltypes.Value) (sqltypes.Value, error) {
		spheroid := len(a) < 3 || a[2].I != 0
		d, ok, err := geographyDistance("ST_Distance", a[0], a[1], spheroid)
		if err != nil || !ok {
			return sqltypes.Null, err
		}
		return sqltypes.NewFloat(d), nil
	}
	Register("st_distance", dist, textual(dist),
		fn([]Param{pGeog, pGeog}, sqltypes.TypeFloat8, "the distance in metres on WGS84's spheroid (between points, or points and lines or polygons)", geogDist),
		fn([]Param{pGeog, pGeog, boolean}, sqltypes.TypeFloat8, "the distance in metres on the spheroid or the sphere (between points, or points and lines or polygons)", geogDist))
	dwithin := sited(Overload{Params: []Param{pGeom, pGeom, f8}, Result: Returns(sqltypes.TypeBool), Volatility: Immutable, Doc: "whether they are within the planar distance"},
		func(s *geoSite, a []sqltypes.Value) (sqltypes.Value, error) {
			if a[2].F < 0 {
				return sqltypes.Null, pgerr.Raised("Tolerance cannot be less than zero")
			}
			d, ok, err := distanceSited(s, "ST_DWithin", a[0], a[1])
			if err != nil {
				return sqltypes.Null, err
			}
			return sqltypes.NewBool(ok && d <= a[2].F), nil
		})
	geogWithin := func(a []sqltypes.Value) (sqltypes.Value, error) {
		if a[2].F < 0 {
			return sqltypes.Null, pgerr.Raised("Tolerance cannot be less than zero")
		}
		spheroid := len(a) < 4 || a[3].I != 0
		d, ok, err := geographyDistance("ST_DWithin", a[0], a[1], spheroid)
		return sqltypes.NewBool(ok && d <= a[2].F), err
	}
	Register("st_dwithin", dwithin, textual(dwithin),
		fn([]Param{pGeog, pGeog, f8}, sqltypes.TypeBool, "whether they are within so many metres on the spheroid (between points, or points and lines or polygons)", geogWithin),
		fn([]Param{pGeog, pGeog, f8, boolean}, sqltypes.TypeBool, "whether they are within so many metres on the spheroid or the sphere (between points, or points and lines or polygons)", geogWithin))
	sphere := func(a []sqltypes.Value) (sqltypes.Value, error) {
		x, y, err := twoGeoms("ST_DistanceSphere", a[0], a[1])
		if err != nil {
			return sqltypes.Null, err
		}
		radius := gis.SphereRadius
		if len(a) > 2 {
			radius = a[2].F
		}
		d, ok, err := pointsDistance(x.Shape, y.Shape, false, radius)
		if err != nil || !ok {
			return sqltypes.Null, err
		}
		return sqltypes.NewFloat(d), nil
	}
	Register("st_distancesphere",
		fn([]Param{pGeom, pGeom}, sqltypes.TypeFloat8, "the distance in metres of lon/lat points on the sphere", sphere),
		fn([]Param{pGeom, pGeom, f8}, sqltypes.TypeFloat8, "the distance of lon/lat points on a sphere of the radius", sphere))

	// Processing.
	// maxQuadSegs bounds ST_Buffer's quad_segs: a circle of 4M vertices,
	// 64 MB.
	const maxQuadSegs = 1 << 20
	buffer := func(a []sqltypes.Value) (sqltypes.Value, error) {
		g, err := geomOf(a[0])
		if err != nil {
			return sqltypes.Null, err
		}
		quadSegs := 8
		if len(a) > 2 {
			switch a[2].K {
			case sqltypes.KindInt:
				quadSegs = int(a[2].I)
			default:
				for _, opt := range strings.Fields(a[2].S) {
					k, v, _ := strings.Cut(opt, "=")
					n, err := strconv.Atoi(v)
					if !strings.EqualFold(k, "quad_segs") || err != nil {
						return sqltypes.Null, unsupportedGeo("ST_Buffer option %q is not supported (only quad_segs)", opt)
					}
					quadSegs = n
				}
			}
		}
		if g.Shape.Kind != gis.Point {
			return sqltypes.Null, unsupportedGeo("ST_Buffer of a %s is not supported (points only)", g.Shape.Kind)
		}
		if quadSegs > maxQuadSegs {
			// 4·quad_segs vertices of 16 bytes: quad_segs = 1e9 asked
			// for 64 GB, which no session's memory limit stopped.
			return sqltypes.Null, pgerr.New(pgerr.ProgramLimitExceeded, "ST_Buffer: quad_segs %d is more than %d", quadSegs, maxQuadSegs)
		}
		if len(g.Shape.Coords) == 0 {
			return geomV(gis.Geom{SRID: g.SRID, Shape: &gis.Shape{Kind: gis.Polygon}}), nil
		}
		return geomV(gis.Geom{SRID: g.SRID, Shape: gis.BufferPoint(g.Shape.Coords[0], g.Shape.Coords[1], a[1].F, quadSegs)}), nil
	}
	Register("st_buffer",
		fn([]Param{pGeom, f8}, tGeom, "the points within the distance (points: a 32-gon)", buffer),
		fn([]Param{pGeom, f8, i4}, tGeom, "the points within the distance, quad_segs segments a quarter circle", buffer),
		fn([]Param{pGeom, f8, text}, tGeom, "the points within the distance, with options (quad_segs)", buffer))
	Register("st_envelope", fn([]Param{pGeom}, tGeom, "the bounding box", func(a []sqltypes.Value) (sqltypes.Value, error) {
		g, err := geomOf(a[0])
		if err != nil {
			return sqltypes.Null, err
		}
		return geomV(gis.Geom{SRID: g.SRID, Shape: gis.Envelope(g.Shape)}), nil
	}))
	measure := func(f func(*gis.Shape) (float64, error)) func(a []sqltypes.Value) (sqltypes.Value, error) {
		return func(a []sqltypes.Value) (sqltypes.Value, error) {
			g, err := geomOf(a[0])
			if err != nil {
				return sqltypes.Null, err
			}
			r, err := f(g.Shape)
			return sqltypes.NewFloat(r), err
		}
	}
	area := fn([]Param{pGeom}, sqltypes.TypeFloat8, "the planar area", measure(gis.Area))
	Register("st_area", area, textual(area),
		fn([]Param{pGeog}, sqltypes.TypeFloat8, "the area in square metres on the spheroid", geogArea),
		fn([]Param{pGeog, boolean}, sqltypes.TypeFloat8, "the area in square metres on the spheroid or the sphere", geogArea))
	length := fn([]Param{pGeom}, sqltypes.TypeFloat8, "the planar length", measure(gis.Length))
	Register("st_length", length, textual(length),
		fn([]Param{pGeog}, sqltypes.TypeFloat8, "the length in metres of the lines on the spheroid", geogLength),
		fn([]Param{pGeog, boolean}, sqltypes.TypeFloat8, "the length in metres of the lines on the spheroid or the sphere", geogLength))
	Register("st_centroid", fn([]Param{pGeom}, tGeom, "the centroid", func(a []sqltypes.Value) (sqltypes.Value, error) {
		g, err := geomOf(a[0])
		if err != nil {
			return sqltypes.Null, err
		}
		c, err := gis.Centroid(g.Shape)
		return geomV(gis.Geom{SRID: g.SRID, Shape: c}), err
	}))
	Register("st_transform", fn([]Param{pGeom, i4}, tGeom, "the geometry projected to another SRID (4326 and 3857)", func(a []sqltypes.Value) (sqltypes.Value, error) {
		g, err := geomOf(a[0])
		if err != nil {
			return sqltypes.Null, err
		}
		to := int32(a[1].I)
		switch {
		case g.SRID == 0:
			return sqltypes.Null, pgerr.Raised("ST_Transform: Input geometry has unknown (0) SRID")
		case g.SRID == to:
			return a[0], nil
		case g.SRID == 4326 && to == 3857:
			return geomV(gis.Geom{SRID: to, Shape: g.Shape.MapXY(gis.ToMercator)}), nil
		case g.SRID == 3857 && to == 4326:
			return geomV(gis.Geom{SRID: to, Shape: g.Shape.MapXY(gis.FromMercator)}), nil
		}
		return sqltypes.Null, unsupportedGeo("ST_Transform from SRID %d to %d is not supported (only between 4326 and 3857)", g.SRID, to)
	}))
	Register("postgis_version", Overload{Result: Returns(sqltypes.TypeText), Volatility: Immutable, Doc: "the PostGIS version and build options",
		Eval: func(*Context, []sqltypes.Value) (sqltypes.Value, error) { return sqltypes.NewText(PostGISVersion), nil }})
	Register("postgis_full_version", Overload{Result: Returns(sqltypes.TypeText), Volatility: Immutable, Doc: "the PostGIS version and its libraries",
		Eval: func(*Context, []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewText(`POSTGIS="3.3.2 zproxy" [EXTENSION] PGSQL="150" GEOS="simplefeatures" PROJ="4326 and 3857 only" LIBJSON="encoding/json"`), nil
		}})
	Register("postgis_lib_version", Overload{Result: Returns(sqltypes.TypeText), Volatility: Immutable, Doc: "the PostGIS library version",
		Eval: func(*Context, []sqltypes.Value) (sqltypes.Value, error) { return sqltypes.NewText("3.3.2"), nil }})
	// The libraries' versions, as postgis_full_version names them: the
	// geometry algorithms are simplefeatures', not GEOS's, and the
	// projections zproxy's own.
	Register("postgis_geos_version", Overload{Result: Returns(sqltypes.TypeText), Volatility: Immutable, Doc: "the geometry library (simplefeatures, in GEOS's place)",
		Eval: func(*Context, []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewText("simplefeatures"), nil
		}})
	Register("postgis_proj_version", Overload{Result: Returns(sqltypes.TypeText), Volatility: Immutable, Doc: "the projections (4326 and 3857 only, in PROJ's place)",
		Eval: func(*Context, []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewText("4326 and 3857 only"), nil
		}})

	// Operators.
	RegisterOperator("&&",
		sitedBinary(binop(tGeom, tGeom, sqltypes.TypeBool, Immutable, nil), func(s *geoSite, a, b sqltypes.Value) (sqltypes.Value, error) {
			return boxSited(s, a, b, func(x, y gis.Box) bool {
				// PostGIS compares the float4 boxes it keeps (BOX2DF),
				// each rounded outward: a point a float4's step past
				// the other box still overlaps it.
				x, y = x.Float4(), y.Float4()
				return x.MinX <= y.MaxX && y.MinX <= x.MaxX && x.MinY <= y.MaxY && y.MinY <= x.MaxY
			})
		}),
		binop(tGeog, tGeog, sqltypes.TypeBool, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return boxOp(a, b, func(x, y gis.Box) bool {
				return x.MinX <= y.MaxX && y.MinX <= x.MaxX && x.MinY <= y.MaxY && y.MinY <= x.MaxY
			})
		}))
	RegisterOperator("~=", binop(tGeom, tGeom, sqltypes.TypeBool, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
		return boxOp(a, b, func(x, y gis.Box) bool { return x.Float4() == y.Float4() })
	}))
	// The other bounding-box operators, as PostGIS's box2df_* compare the
	// float4 boxes (gserialized_gist_2d.c): containment and the eight
	// relative positions.
	for _, o := range []struct {
		op string
		f  func(x, y gis.Box) bool
	}{
		{"~", func(x, y gis.Box) bool {
			return x.MinX <= y.MinX && x.MaxX >= y.MaxX && x.MinY <= y.MinY && x.MaxY >= y.MaxY
		}},
		{"@", func(x, y gis.Box) bool {
			return y.MinX <= x.MinX && y.MaxX >= x.MaxX && y.MinY <= x.MinY && y.MaxY >= x.MaxY
		}},
		{"<<", func(x, y gis.Box) bool { return x.MaxX < y.MinX }},
		{"&<", func(x, y gis.Box) bool { return x.MaxX <= y.MaxX }},
		{">>", func(x, y gis.Box) bool { return x.MinX > y.MaxX }},
		{"&>", func(x, y gis.Box) bool { return x.MinX >= y.MinX }},
		{"<<|", func(x, y gis.Box) bool { return x.MaxY < y.MinY }},
		{"&<|", func(x, y gis.Box) bool { return x.MaxY <= y.MaxY }},
		{"|>>", func(x, y gis.Box) bool { return x.MinY > y.MaxY }},
		{"|&>", func(x, y gis.Box) bool { return x.MinY >= y.MinY }},
	} {
		f := o.f
		RegisterOperator(o.op, binop(tGeom, tGeom, sqltypes.TypeBool, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return boxOp(a, b, func(x, y gis.Box) bool { return f(x.Float4(), y.Float4()) })
		}))
	}
	RegisterOperator("<->",
		sitedBinary(binop(tGeom, tGeom, sqltypes.TypeFloat8, Immutable, nil), distanceValue),
		binop(tGeog, tGeog, sqltypes.TypeFloat8, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			// PostGIS 3's geography <-> is the sphere's distance.
			d, ok, err := geographyDistance("ST_Distance", a, b, false)
			if err != nil || !ok {
				return sqltypes.Null, err
			}
			return sqltypes.NewFloat(d), nil
		}))
}

// boxOp compares two geometries' boxes; an empty geometry's box matches
// nothing.
func boxOp(a, b sqltypes.Value, f func(x, y gis.Box) bool) (sqltypes.Value, error) {
	x, ok1, err := boxOf(a)
	if err != nil {
		return sqltypes.Null, err
	}
	y, ok2, err := boxOf(b)
	if err != nil {
		return sqltypes.Null, err
	}
	return sqltypes.NewBool(ok1 && ok2 && f(x, y)), nil
}

func init() {
	// PostGIS's parameter names, for use_spheroid => false.
	paramNames["st_distance"] = paramInfo{names: []string{"geog1", "geog2", "use_spheroid"}, optional: 1}
	paramNames["st_dwithin"] = paramInfo{names: []string{"geog1", "geog2", "tolerance", "use_spheroid"}, optional: 1}
}

func init() {
	tGeom, tBox := sqltypes.TypeGeometry, sqltypes.TypeBox2D
	// ST_Extent: the box of the non-empty geometries (box2d has no
	// SRID, so mixed SRIDs are no error), NULL when there is none; the
	// executor's extentAgg computes it.
	RegisterAggregate(&Func{Name: "st_extent", Overloads: []Overload{Sig("the bounding box of the geometries", tBox, tGeom)},
		Type: func(c *Call) (sqltypes.Type, error) {
			if len(c.Args) != 1 || c.Args[0].ID != sqltypes.Geometry && c.Args[0].ID != sqltypes.Box2D && c.Args[0].ID != sqltypes.Unknown {
				return errNoOverload()
			}
			return tBox, nil
		}})
	box2d := func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.Cast(a[0], tBox)
	}
	Register("box2d", Overload{Params: []Param{T(tGeom)}, Result: Returns(tBox), Volatility: Immutable, Doc: "the bounding box (NULL when empty)", Eval: box2d},
		Overload{Params: []Param{T(tBox)}, Result: Returns(tBox), Volatility: Immutable, Doc: "the box itself", Eval: box2d})
	Register("st_makebox2d", Overload{Params: []Param{T(tGeom), T(tGeom)}, Result: Returns(tBox), Volatility: Immutable,
		Doc: "the box of two points' corners", Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			var b gis.Box
			for i, v := range a {
				g, err := geomOf(v)
				if err != nil {
					return sqltypes.Null, err
				}
				if g.Shape.Kind != gis.Point || g.Shape.IsEmpty() {
					return sqltypes.Null, pgerr.Raised("ST_MakeBox2D: argument is not a point")
				}
				x, y := g.Shape.Coords[0], g.Shape.Coords[1]
				corner := gis.Box{MinX: x, MinY: y, MaxX: x, MaxY: y}
				if i == 0 {
					b = corner
					continue
				}
				b = b.Union(corner)
			}
			return sqltypes.NewBox2D(b), nil
		}})
}
