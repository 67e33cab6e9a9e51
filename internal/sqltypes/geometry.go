package sqltypes

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/zproxy/zproxy/internal/geo"
	"github.com/zproxy/zproxy/internal/pgerr"
)

// The PostGIS extension's geometry and geography types. A value is
// KindGeometry with its EWKB in S, as PostGIS's send function writes it
// (geo.AppendEWKB: one canonical encoding, so equal geometries have equal
// bytes), and 1 in I for a geography. A type's Width is PostGIS's typmod
// (geo's kind, SRID and dimensions packed as gserialized_typmod.h packs
// them), 0 when it has none.

// GeographySRID is the SRID a geography has when none is given.
const GeographySRID = 4326

// NewGeometry returns a geometry value.
func NewGeometry(g geo.Geom) Value {
	return Value{K: KindGeometry, S: string(geo.AppendEWKB(nil, g))}
}

// NewGeography returns a geography value.
func NewGeography(g geo.Geom) Value {
	return Value{K: KindGeometry, S: string(geo.AppendEWKB(nil, g)), I: 1}
}

// IsGeography reports whether v is a geography (not a geometry).
func (v Value) IsGeography() bool { return v.K == KindGeometry && v.I == 1 }

// box2dMark is I of a box2d value.
const box2dMark = 2

// StoredGeometry is the value of type t (geometry, geography or box2d)
// whose EWKB a row stores: the EWKB alone does not say which of the
// three it is.
func StoredGeometry(t Type, ewkb []byte) Value {
	v := Value{K: KindGeometry, S: string(ewkb)}
	switch t.ID {
	case Geography:
		v.I = 1
	case Box2D:
		v.I = box2dMark
	}
	return v
}

// NewBox2D returns PostGIS's box2d of b: a geometry value holding the
// geometry the box casts to (a point, a line or a polygon, as
// BOX2D_to_LWGEOM makes it, SRID 0), so that the implicit cast to
// geometry is a relabelling and its text is the box again.
func NewBox2D(b geo.Box) Value {
	return Value{K: KindGeometry, S: string(geo.AppendEWKB(nil, geo.Geom{Shape: geo.BoxShape(b)})), I: box2dMark}
}

// IsBox2D reports whether v is a box2d.
func (v Value) IsBox2D() bool { return v.K == KindGeometry && v.I == box2dMark }

// Box2D returns the box of a box2d (or of any geometry value).
func (v Value) Box2D() (geo.Box, error) {
	g, err := v.Geom()
	if err != nil {
		return geo.Box{}, err
	}
	b, _ := g.Shape.Bounds()
	return b, nil
}

// AppendBox2D appends box2d's text, BOX(xmin ymin,xmax ymax), its numbers
// as BOX2D_out prints them (geo.AppendNumber, to 15 decimals).
func AppendBox2D(buf []byte, b geo.Box) []byte {
	buf = append(buf, "BOX("...)
	buf = geo.AppendNumber(buf, b.MinX, geo.DefaultPrecision)
	buf = append(buf, ' ')
	buf = geo.AppendNumber(buf, b.MinY, geo.DefaultPrecision)
	buf = append(buf, ',')
	buf = geo.AppendNumber(buf, b.MaxX, geo.DefaultPrecision)
	buf = append(buf, ' ')
	buf = geo.AppendNumber(buf, b.MaxY, geo.DefaultPrecision)
	return append(buf, ')')
}

// ParseBox2D reads box2d's text as box2d_in does: BOX(x1 y1,x2 y2), the
// corners in either order.
func ParseBox2D(s string) (Value, error) {
	t := strings.TrimSpace(s)
	inner, ok := strings.CutPrefix(strings.ToUpper(t), "BOX(")
	if !ok || !strings.HasSuffix(inner, ")") {
		return Null, pgerr.Raised("box2d parser - doesn't start with BOX(")
	}
	var x1, y1, x2, y2 float64
	if n, err := fmt.Sscanf(strings.TrimSuffix(inner, ")"), "%g %g,%g %g", &x1, &y1, &x2, &y2); err != nil || n != 4 {
		return Null, pgerr.Raised("box2d parser - couldn't parse.  It should look like: BOX(xmin ymin,xmax ymax)")
	}
	return NewBox2D(geo.Box{MinX: math.Min(x1, x2), MinY: math.Min(y1, y2), MaxX: math.Max(x1, x2), MaxY: math.Max(y1, y2)}), nil
}

// Geom decodes a geometry or geography value. Stored values were written
// by NewGeometry, so an error means a corrupted value.
func (v Value) Geom() (geo.Geom, error) { return geo.DecodeStoredEWKB([]byte(v.S)) }

// Typmod parts (PostGIS's TYPMOD_GET_* macros).
func geomTypmodSRID(m int) int32    { return int32(((m & 0x0FFFFF00) - (m & 0x10000000)) >> 8) }
func geomTypmodKind(m int) geo.Kind { return geo.Kind((m & 0xFC) >> 2) }
func geomTypmodZ(m int) bool        { return m&2 != 0 }
func geomTypmodM(m int) bool        { return m&1 != 0 }

// GeomTypmod packs a geometry typmod; kind 0 is any kind.
func GeomTypmod(kind geo.Kind, srid int32, z, m bool) int {
	t := int(srid)<<8&0x0FFFFF00 | int(kind)<<2
	if z {
		t |= 2
	}
	if m {
		t |= 1
	}
	return t
}

// GeomTypmodTypeName is postgis_typmod_type of typmod m: the kind's name
// (Geometry when any, or when m is negative) followed by Z and M as it
// has them.
func GeomTypmodTypeName(m int) string {
	if m < 0 {
		return "Geometry"
	}
	name := geomTypmodKind(m).String()
	if geomTypmodZ(m) {
		name += "Z"
	}
	if geomTypmodM(m) {
		name += "M"
	}
	return name
}

// GeomTypmodParts returns a geometry type's kind (0: any), SRID (0: any)
// and dimensions.
func (t Type) GeomTypmodParts() (kind geo.Kind, srid int32, z, m bool) {
	return geomTypmodKind(t.Width), geomTypmodSRID(t.Width), geomTypmodZ(t.Width), geomTypmodM(t.Width)
}

// geomKindByName reads a typmod's geometry type name (postgis_typmod_in:
// "Point", "POINTZ", "PointZM", "Geometry" ...).
func geomKindByName(s string) (geo.Kind, bool, bool, bool) {
	u := strings.ToUpper(strings.TrimSpace(s))
	z, m := false, false
	names := []string{"GEOMETRY", "POINT", "LINESTRING", "POLYGON", "MULTIPOINT", "MULTILINESTRING", "MULTIPOLYGON", "GEOMETRYCOLLECTION"}
	for _, suffix := range []string{"ZM", "Z", "M", ""} {
		base, ok := strings.CutSuffix(u, suffix)
		if !ok {
			continue
		}
		for k, n := range names {
			if base == n {
				z, m = strings.Contains(suffix, "Z"), strings.Contains(suffix, "M")
				return geo.Kind(k), z, m, true
			}
		}
	}
	return 0, false, false, false
}

// GeomType returns geometry(kind, srid) or geography(kind, srid) from a
// typmod's words ("Point", "4326"), as postgis_typmod_in reads them, with
// PostGIS's errors.
func GeomType(id TypeID, args []string) (Type, error) {
	t := Type{ID: id}
	if len(args) == 0 || len(args) > 2 {
		return t, pgerr.New(pgerr.InvalidParameterValue, "Invalid number of type modifiers")
	}
	kind, z, m, ok := geomKindByName(args[0])
	if !ok {
		return t, pgerr.New(pgerr.InvalidParameterValue, "Invalid geometry type modifier: %s", args[0])
	}
	var srid int32
	if id == Geography {
		srid = GeographySRID
	}
	if len(args) == 2 {
		n, err := strconv.ParseInt(strings.TrimSpace(args[1]), 10, 32)
		if err != nil {
			return t, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type integer: \"%s\"", args[1])
		}
		srid = int32(n)
		if id == Geography && srid != GeographySRID && srid > 0 {
			return t, errGeographySRID()
		}
		if srid < 0 {
			srid = 0
		}
	}
	t.Width = GeomTypmod(kind, srid, z, m)
	if t.Width == 0 {
		t.Width = -1 // geometry(Geometry): a typmod of 0, which Width 0 cannot say
	}
	return t, nil
}

func errGeographySRID() error {
	return pgerr.New(pgerr.InvalidParameterValue, "Only lon/lat coordinate systems are supported in geography.")
}

// geomTypeName is format_type's spelling (postgis_typmod_out).
func geomTypeName(t Type) string {
	name := infos[t.ID].name
	if t.Width == 0 {
		return name
	}
	w := max(t.Width, 0)
	kind, srid := geomTypmodKind(w), geomTypmodSRID(w)
	s := name + "(" + kind.String()
	if geomTypmodZ(w) {
		s += "Z"
	}
	if geomTypmodM(w) {
		s += "M"
	}
	if srid != 0 {
		s += "," + strconv.Itoa(int(srid))
	}
	return s + ")"
}

// ParseGeometryText is geometry_in and geography_in: hex EWKB, EWKT or
// WKT, checked against t's typmod.
func ParseGeometryText(t Type, s string) (Value, error) {
	g, err := geo.Parse(s)
	if err != nil {
		return Null, err
	}
	return GeomValue(t, g)
}

// GeomValue makes a value of type t of g: a geography gets SRID 4326 when
// it has none and refuses another; then t's typmod is applied.
func GeomValue(t Type, g geo.Geom) (Value, error) {
	if t.ID == Geography {
		if g.SRID == 0 {
			g.SRID = GeographySRID
		}
		if g.SRID != GeographySRID {
			return Null, errGeographySRID()
		}
	}
	g, err := applyGeomTypmod(t, g)
	if err != nil {
		return Null, err
	}
	if t.ID == Geography {
		return NewGeography(g), nil
	}
	return NewGeometry(g), nil
}

// applyGeomTypmod is PostGIS's postgis_valid_typmod: a geometry without
// an SRID takes the column's, and its SRID, kind and dimensions must
// match (22023 otherwise).
func applyGeomTypmod(t Type, g geo.Geom) (geo.Geom, error) {
	if t.Width == 0 {
		return g, nil
	}
	w := max(t.Width, 0)
	kind, srid := geomTypmodKind(w), geomTypmodSRID(w)
	if srid > 0 && g.SRID == 0 {
		g.SRID = srid
	}
	if srid > 0 && srid != g.SRID {
		return g, pgerr.New(pgerr.InvalidParameterValue, "Geometry SRID (%d) does not match column SRID (%d)", g.SRID, srid)
	}
	gk := g.Shape.Kind
	if kind > 0 && (kind == geo.GeometryCollection && !(gk == geo.GeometryCollection || gk == geo.MultiPolygon ||
		gk == geo.MultiPoint || gk == geo.MultiLineString) || kind != gk) {
		return g, pgerr.New(pgerr.InvalidParameterValue, "Geometry type (%s) does not match column type (%s)", gk, kind)
	}
	tz, tm := geomTypmodZ(w), geomTypmodM(w)
	switch {
	case tz && !g.Shape.Z:
		return g, pgerr.New(pgerr.InvalidParameterValue, "Column has Z dimension but geometry does not")
	case g.Shape.Z && !tz:
		return g, pgerr.New(pgerr.InvalidParameterValue, "Geometry has Z dimension but column does not")
	case tm && !g.Shape.M:
		return g, pgerr.New(pgerr.InvalidParameterValue, "Column has M dimension but geometry does not")
	case g.Shape.M && !tm:
		return g, pgerr.New(pgerr.InvalidParameterValue, "Geometry has M dimension but column does not")
	}
	return g, nil
}

// castGeometry converts to and from geometry and geography: from strings
// by the input function, from bytea as EWKB, between the two types (a
// geography keeps its lon/lat; a geometry becomes a geography only in
// SRID 4326 or none), to text as the hex output and to bytea as EWKB.
// ok is false for pairs it does not handle.
func castGeometry(v Value, t Type) (Value, bool, error) {
	tk := t.Kind()
	switch {
	case t.ID == Box2D:
		switch v.K {
		case KindText, KindBPChar, KindCitext:
			r, err := ParseBox2D(v.S)
			return r, true, err
		case KindGeometry:
			// box2d(geometry): its bounding box, NULL when it is empty.
			g, err := v.Geom()
			if err != nil {
				return Null, true, err
			}
			b, ok := g.Shape.Bounds()
			if !ok {
				return Null, true, nil
			}
			return NewBox2D(b), true, nil
		}
	case v.IsBox2D() && t.ID == Geography:
		return Null, true, pgerr.New(pgerr.CannotCoerce, "cannot cast type box2d to geography")
	case tk == KindGeometry:
		switch v.K {
		case KindText, KindBPChar, KindCitext:
			r, err := ParseGeometryText(t, strings.TrimRight(v.S, " "))
			return r, true, err
		case KindBytes:
			g, err := geo.DecodeEWKB([]byte(v.S))
			if err != nil {
				return Null, true, err
			}
			r, err := GeomValue(t, g)
			return r, true, err
		case KindGeometry:
			if t.ID == Geometry && t.Width == 0 {
				// To a geometry without a typmod: the same bytes (values
				// are canonical EWKB), as PostgreSQL relabels it; a
				// filter casts its column's value so for every row.
				return Value{K: KindGeometry, S: v.S}, true, nil
			}
			g, err := v.Geom()
			if err != nil {
				return Null, true, err
			}
			r, err := GeomValue(t, g)
			return r, true, err
		}
	case v.K == KindGeometry:
		switch tk {
		case KindText, KindBPChar, KindCitext:
			if v.IsBox2D() {
				r, err := castValue(NewText(string(AppendGeometry(nil, v))), t, true)
				return r, true, err
			}
			g, err := v.Geom()
			if err != nil {
				return Null, true, err
			}
			r, err := castValue(NewText(geo.FormatHex(g)), t, true)
			return r, true, err
		case KindBytes:
			return NewBytes([]byte(v.S)), true, nil
		}
	}
	return Null, false, nil
}

// AppendGeometry appends the text output: hex EWKB, upper case.
func AppendGeometry(buf []byte, v Value) []byte {
	g, err := v.Geom()
	if err != nil {
		return append(buf, "<invalid geometry>"...)
	}
	if v.I == box2dMark {
		b, _ := g.Shape.Bounds()
		return AppendBox2D(buf, b)
	}
	return append(buf, geo.FormatHex(g)...)
}
