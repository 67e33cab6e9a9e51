package geo

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Text forms of PostGIS 3.3: ST_GeoHash, ST_AsKML, ST_AsSVG and
// ST_AsLatLonText, and ST_TileEnvelope's tile boxes.

const geohashDigits = "0123456789bcdefghjkmnpqrstuvwxyz"

// GeoHashError is GeoHash's error for a box outside lon/lat degrees.
type GeoHashError struct{ Box Box }

func (e *GeoHashError) Error() string {
	return fmt.Sprintf("Geohash requires inputs in decimal degrees, got (%s %s, %s %s).",
		CFormatG(e.Box.MinX), CFormatG(e.Box.MinY), CFormatG(e.Box.MaxX), CFormatG(e.Box.MaxY))
}

// CFormatG is C's %g (PostGIS's messages print numbers with it).
func CFormatG(f float64) string {
	s := strconv.FormatFloat(f, 'g', 6, 64)
	if mant, exp, ok := strings.Cut(s, "e"); ok && len(exp) == 2 {
		s = mant + "e" + exp[:1] + "0" + exp[1:]
	}
	return s
}

// GeoHash is ST_GeoHash of a non-empty shape: the geohash of its box's
// centre, of maxChars characters when that is positive, otherwise 20
// for a point and for anything else as many as the box stays within one
// geohash cell (none when it straddles the first split).
func GeoHash(s *Shape, maxChars int) (string, error) {
	b, ok := s.Bounds()
	if !ok {
		return "", nil
	}
	if b.MinX < -180 || b.MinY < -90 || b.MaxX > 180 || b.MaxY > 90 {
		return "", &GeoHashError{Box: b}
	}
	lon := b.MinX + (b.MaxX-b.MinX)/2
	lat := b.MinY + (b.MaxY-b.MinY)/2
	if maxChars <= 0 {
		maxChars = geohashPrecision(b)
	}
	return geohashPoint(lon, lat, maxChars), nil
}

// geohashPrecision counts the halvings of the world that keep the whole
// box on one side, longitude and latitude in turn, five to a character.
func geohashPrecision(b Box) int {
	if b.MinX == b.MaxX && b.MinY == b.MaxY {
		return 20
	}
	lonMin, lonMax, latMin, latMax := -180.0, 180.0, -90.0, 90.0
	bits := 0
	for {
		half := (lonMax - lonMin) / 2
		switch {
		case b.MinX > lonMin+half:
			lonMin += half
		case b.MaxX < lonMax-half:
			lonMax -= half
		default:
			return bits / 5
		}
		bits++
		half = (latMax - latMin) / 2
		switch {
		case b.MinY > latMin+half:
			latMin += half
		case b.MaxY < latMax-half:
			latMax -= half
		default:
			return bits / 5
		}
		bits++
	}
}

func geohashPoint(lon, lat float64, n int) string {
	lonR, latR := [2]float64{-180, 180}, [2]float64{-90, 90}
	out := make([]byte, 0, n)
	even, bit, ch := true, 0, 0
	for len(out) < n {
		r, v := &latR, lat
		if even {
			r, v = &lonR, lon
		}
		mid := (r[0] + r[1]) / 2
		ch <<= 1
		if v >= mid {
			ch |= 1
			r[0] = mid
		} else {
			r[1] = mid
		}
		even = !even
		if bit++; bit == 5 {
			out = append(out, geohashDigits[ch])
			bit, ch = 0, 0
		}
	}
	return string(out)
}

// TileEnvelope is ST_TileEnvelope's box of tile x, y at zoom in the
// bounds b, widened by margin tile widths on each side: freely in x (a
// map wraps), clipped to the bounds in y. Rows count from the top.
func TileEnvelope(zoom, x, y int, b Box, margin float64) Box {
	n := float64(uint32(1) << uint(zoom))
	sx := (b.MaxX - b.MinX) / n
	sy := (b.MaxY - b.MinY) / n
	fx, fy := float64(x), float64(y)
	return Box{
		MinX: b.MinX + sx*(fx-margin),
		MaxX: b.MinX + sx*(fx+1+margin),
		MinY: max(b.MaxY-sy*(fy+1+margin), b.MinY),
		MaxY: min(b.MaxY-sy*(fy-margin), b.MaxY),
	}
}

// ErrKMLCollection is FormatKML's error for a geometry collection.
var ErrKMLCollection = fmt.Errorf("lwgeom_to_kml2: 'GeometryCollection' geometry type not supported")

// FormatKML is ST_AsKML of a non-empty shape: KML 2 elements, the
// namespace prefix before every element's name, Z kept and M dropped,
// numbers to at most prec decimals.
func FormatKML(s *Shape, prec int, prefix string) (string, error) {
	if prefix != "" {
		prefix += ":"
	}
	var b strings.Builder
	if err := appendKML(&b, s, prec, prefix); err != nil {
		return "", err
	}
	return b.String(), nil
}

func appendKML(b *strings.Builder, s *Shape, prec int, p string) error {
	coords := func(c []float64) {
		st := s.Stride()
		b.WriteString("<" + p + "coordinates>")
		for i := 0; i+st <= len(c); i += st {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.Write(AppendNumber(nil, c[i], prec))
			b.WriteByte(',')
			b.Write(AppendNumber(nil, c[i+1], prec))
			if s.Z {
				b.WriteByte(',')
				b.Write(AppendNumber(nil, c[i+2], prec))
			}
		}
		b.WriteString("</" + p + "coordinates>")
	}
	switch s.Kind {
	case Point:
		b.WriteString("<" + p + "Point>")
		coords(s.Coords)
		b.WriteString("</" + p + "Point>")
	case LineString:
		b.WriteString("<" + p + "LineString>")
		coords(s.Coords)
		b.WriteString("</" + p + "LineString>")
	case Polygon:
		b.WriteString("<" + p + "Polygon>")
		for i, r := range s.Rings {
			tag := "outerBoundaryIs"
			if i > 0 {
				tag = "innerBoundaryIs"
			}
			b.WriteString("<" + p + tag + "><" + p + "LinearRing>")
			coords(r)
			b.WriteString("</" + p + "LinearRing></" + p + tag + ">")
		}
		b.WriteString("</" + p + "Polygon>")
	case MultiPoint, MultiLineString, MultiPolygon:
		b.WriteString("<" + p + "MultiGeometry>")
		for _, part := range s.Parts {
			if err := appendKML(b, part, prec, p); err != nil {
				return err
			}
		}
		b.WriteString("</" + p + "MultiGeometry>")
	default:
		return ErrKMLCollection
	}
	return nil
}

// ErrSVGCollection is FormatSVG's error for a collection within a
// collection.
var ErrSVGCollection = fmt.Errorf("assvg_geom_size: 'GeometryCollection' geometry type not supported.")

// FormatSVG is ST_AsSVG: SVG path data (or a point's attributes) with y
// negated, absolute or, when rel, relative to the previous vertex as
// rounded to prec decimals; an empty shape is an empty string.
func FormatSVG(s *Shape, rel bool, prec int) (string, error) {
	prec = max(0, prec)
	var b strings.Builder
	if s.Kind == GeometryCollection {
		for i, part := range s.Parts {
			if part.Kind == GeometryCollection {
				return "", ErrSVGCollection
			}
			if i > 0 {
				b.WriteByte(';')
			}
			appendSVG(&b, part, rel, prec)
		}
		return b.String(), nil
	}
	appendSVG(&b, s, rel, prec)
	return b.String(), nil
}

func appendSVG(b *strings.Builder, s *Shape, rel bool, prec int) {
	num := func(f float64) { b.Write(AppendNumber(nil, f, prec)) }
	scale := math.Pow(10, float64(prec))
	// Relative paths step between vertices rounded half away from zero
	// (C's round), the first one too.
	round := func(f float64) float64 { return math.Round(f*scale) / scale }
	st := s.Stride()
	// path writes a sequence: M and the first vertex, then L (or l and
	// the steps between rounded vertices), a ring without its closing
	// vertex and with Z (z).
	path := func(c []float64, ring bool) {
		n := len(c) / st
		if ring && n > 1 {
			n--
		}
		if n == 0 {
			return
		}
		b.WriteString("M ")
		if rel {
			num(round(c[0]))
			b.WriteByte(' ')
			num(-round(c[1]))
		} else {
			num(c[0])
			b.WriteByte(' ')
			num(-c[1])
		}
		if n > 1 {
			if rel {
				b.WriteString(" l")
			} else {
				b.WriteString(" L")
			}
		}
		for i := 1; i < n; i++ {
			x, y := c[i*st], c[i*st+1]
			if rel {
				x = round(x) - round(c[(i-1)*st])
				y = round(y) - round(c[(i-1)*st+1])
			}
			b.WriteByte(' ')
			num(x)
			b.WriteByte(' ')
			num(-y)
		}
		if ring {
			if rel {
				b.WriteString(" z")
			} else {
				b.WriteString(" Z")
			}
		}
	}
	switch s.Kind {
	case Point:
		if len(s.Coords) < 2 {
			return
		}
		if rel {
			b.WriteString(`x="`)
		} else {
			b.WriteString(`cx="`)
		}
		num(s.Coords[0])
		if rel {
			b.WriteString(`" y="`)
		} else {
			b.WriteString(`" cy="`)
		}
		num(-s.Coords[1])
		b.WriteByte('"')
	case LineString:
		path(s.Coords, false)
	case Polygon:
		for i, r := range s.Rings {
			if i > 0 {
				b.WriteByte(' ')
			}
			path(r, true)
		}
	case MultiPoint, MultiLineString, MultiPolygon:
		sep := byte(' ')
		if s.Kind == MultiPoint {
			sep = ','
		}
		for i, part := range s.Parts {
			if i > 0 {
				b.WriteByte(sep)
			}
			appendSVG(b, part, rel, prec)
		}
	}
}

// DefaultLatLonFormat is ST_AsLatLonText's format when none is given.
const DefaultLatLonFormat = `D°M'S.SSS"C`

// LatLonText is ST_AsLatLonText: the latitude and then the longitude in
// the format (D, M and S runs, each with optional decimals after a
// point, their count of letters the field's width; C the compass
// letter, without which a southern or western value is negative), the
// point first brought into lat ±90, lon ±180.
func LatLonText(lon, lat float64, format string) (string, error) {
	if format == "" {
		format = DefaultLatLonFormat
	}
	for lon > 180 {
		lon -= 360
	}
	for lon < -180 {
		lon += 360
	}
	for lat > 270 {
		lat -= 360
	}
	for lat < -270 {
		lat += 360
	}
	if lat > 90 {
		lat, lon = 180-lat, lon+180
	}
	if lat < -90 {
		lat, lon = -180-lat, lon+180
	}
	for lon > 180 {
		lon -= 360
	}
	for lon < -180 {
		lon += 360
	}
	la, err := latLonPart(lat, format, "N", "S")
	if err != nil {
		return "", err
	}
	lo, err := latLonPart(lon, format, "E", "W")
	if err != nil {
		return "", err
	}
	return la + " " + lo, nil
}

// LatLonFormatError is LatLonText's error for a bad format.
type LatLonFormatError struct{ Msg string }

func (e *LatLonFormatError) Error() string { return e.Msg }

func latLonPart(v float64, format, pos, neg string) (string, error) {
	type field struct {
		start, end, width, decimals int
		seen                        bool
	}
	var f [3]field // degrees, minutes, seconds
	compass := -1
	names := [3]string{"degrees (DD.DDD)", "minutes (MM.MMM)", "seconds (SS.SSS)"}
	for i := 0; i < len(format); {
		c := format[i]
		k := strings.IndexByte("DMS", c)
		if c == 'C' {
			if compass >= 0 {
				return "", &LatLonFormatError{"Bad format, cannot include compass dir (C) more than once."}
			}
			compass = i
			i++
			continue
		}
		if k < 0 {
			i++
			continue
		}
		if f[k].seen {
			return "", &LatLonFormatError{"Bad format, cannot include " + names[k] + " more than once."}
		}
		j := i
		for j < len(format) && format[j] == c {
			j++
		}
		fl := field{start: i, width: j - i, seen: true}
		if j+1 < len(format) && format[j] == '.' && format[j+1] == c {
			d := j + 1
			for d < len(format) && format[d] == c {
				d++
			}
			fl.decimals = d - j - 1
			j = d
		}
		fl.end = j
		f[k] = fl
		i = j
	}
	if !f[0].seen {
		return "", &LatLonFormatError{"Bad format, degrees (DD.DDD) must be included."}
	}
	if f[2].seen && !f[1].seen {
		return "", &LatLonFormatError{"Bad format, cannot include seconds (SS.SSS) without including minutes (MM.MMM)."}
	}
	dir := pos
	if v < 0 {
		dir = neg
	}
	a := v
	if compass >= 0 {
		a = math.Abs(v)
	}
	// Degrees are whole when minutes follow, minutes when seconds do; the
	// rest carries down in sixtieths of the magnitude.
	vals := [3]float64{a, 0, 0}
	if f[1].seen {
		deg := math.Trunc(a)
		rest := math.Abs(a - deg)
		vals[0], vals[1] = deg, rest*60
		if f[2].seen {
			m := math.Floor(vals[1])
			vals[1], vals[2] = m, (vals[1]-m)*60
		}
	}
	var b strings.Builder
	for i := 0; i < len(format); {
		if i == compass {
			b.WriteString(dir)
			i++
			continue
		}
		k := -1
		for n := range f {
			if f[n].seen && f[n].start == i {
				k = n
			}
		}
		if k < 0 {
			b.WriteByte(format[i])
			i++
			continue
		}
		fmt.Fprintf(&b, "%*.*f", f[k].width, f[k].decimals, vals[k])
		i = f[k].end
	}
	return b.String(), nil
}
