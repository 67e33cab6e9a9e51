package geo

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/peterstace/simplefeatures/geom"
)

// ParseGeoJSON is ST_GeomFromGeoJSON: a GeoJSON geometry, SRID 4326
// unless its "crs" names another EPSG code (as PostGIS 3 reads it).
func ParseGeoJSON(s string) (Geom, error) {
	g, err := geom.UnmarshalGeoJSON([]byte(s), geom.NoValidate{})
	if err != nil {
		return Geom{}, errInvalid("invalid GeoJson representation")
	}
	sh, err := fromLibrary(g)
	if err != nil {
		return Geom{}, err
	}
	srid := int32(4326)
	var crs struct {
		CRS *struct {
			Properties struct {
				Name string `json:"name"`
			} `json:"properties"`
		} `json:"crs"`
	}
	if json.Unmarshal([]byte(s), &crs) == nil && crs.CRS != nil {
		name := crs.CRS.Properties.Name
		if i := strings.LastIndexByte(name, ':'); i >= 0 {
			if n, err := strconv.ParseInt(name[i+1:], 10, 32); err == nil {
				srid = clampSRID(int32(n))
			}
		}
	}
	return Geom{SRID: srid, Shape: sh}, nil
}

// GeoJSON options (ST_AsGeoJSON's bit mask).
const (
	GeoJSONBBox       = 1
	GeoJSONLongCRS    = 4
	GeoJSONShortCRS   = 2
	GeoJSONCRSNot4326 = 8
)

// FormatGeoJSON is ST_AsGeoJSON: coordinates rounded to maxDecimals, a
// "crs" member as options ask (GeoJSONBBox is not supported; the caller
// refuses it). M is dropped, Z kept, as PostGIS does.
func FormatGeoJSON(g Geom, maxDecimals, options int) string {
	var dst []byte
	crs := ""
	if g.SRID != 0 {
		switch {
		case options&GeoJSONLongCRS != 0:
			crs = "urn:ogc:def:crs:EPSG::" + strconv.Itoa(int(g.SRID))
		case options&GeoJSONShortCRS != 0 || options&GeoJSONCRSNot4326 != 0 && g.SRID != 4326:
			crs = "EPSG:" + strconv.Itoa(int(g.SRID))
		}
	}
	return string(appendGeoJSON(dst, g.Shape, maxDecimals, crs))
}

var geojsonNames = [...]string{"", "Point", "LineString", "Polygon", "MultiPoint", "MultiLineString", "MultiPolygon", "GeometryCollection"}

func appendGeoJSON(dst []byte, s *Shape, prec int, crs string) []byte {
	dst = append(dst, `{"type":"`...)
	dst = append(dst, geojsonNames[s.Kind]...)
	dst = append(dst, '"')
	if crs != "" {
		dst = append(dst, `,"crs":{"type":"name","properties":{"name":"`...)
		dst = append(dst, crs...)
		dst = append(dst, `"}}`...)
	}
	st := s.Stride()
	vertex := func(c []float64) {
		dst = append(dst, '[')
		dst = AppendNumber(dst, c[0], prec)
		dst = append(dst, ',')
		dst = AppendNumber(dst, c[1], prec)
		if s.Z {
			dst = append(dst, ',')
			dst = AppendNumber(dst, c[2], prec)
		}
		dst = append(dst, ']')
	}
	seq := func(c []float64) {
		dst = append(dst, '[')
		for i := 0; i < len(c); i += st {
			if i > 0 {
				dst = append(dst, ',')
			}
			vertex(c[i:])
		}
		dst = append(dst, ']')
	}
	rings := func(rs [][]float64) {
		dst = append(dst, '[')
		for i, r := range rs {
			if i > 0 {
				dst = append(dst, ',')
			}
			seq(r)
		}
		dst = append(dst, ']')
	}
	if s.Kind == GeometryCollection {
		dst = append(dst, `,"geometries":[`...)
		for i, p := range s.Parts {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendGeoJSON(dst, p, prec, "")
		}
		return append(dst, "]}"...)
	}
	dst = append(dst, `,"coordinates":`...)
	switch s.Kind {
	case Point:
		if len(s.Coords) == 0 {
			dst = append(dst, "[]"...)
		} else {
			vertex(s.Coords)
		}
	case LineString:
		seq(s.Coords)
	case Polygon:
		rings(s.Rings)
	default:
		dst = append(dst, '[')
		for i, p := range s.Parts {
			if i > 0 {
				dst = append(dst, ',')
			}
			switch p.Kind {
			case Point:
				if len(p.Coords) == 0 {
					dst = append(dst, "[]"...)
				} else {
					vertex(p.Coords)
				}
			case LineString:
				seq(p.Coords)
			case Polygon:
				rings(p.Rings)
			}
		}
		dst = append(dst, ']')
	}
	return append(dst, '}')
}
