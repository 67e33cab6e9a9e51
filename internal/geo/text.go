package geo

import (
	"encoding/hex"
	"math"
	"strconv"
	"strings"
	"unicode"

	"github.com/peterstace/simplefeatures/geom"
)

// DefaultPrecision is the number of decimals ST_AsText and ST_AsEWKT print
// at most (PostGIS's OUT_DEFAULT_DECIMAL_DIGITS).
const DefaultPrecision = 15

// Parse reads a geometry's text input as PostGIS's geometry_in does: hex
// EWKB when it starts with '0', otherwise EWKT or WKT ("SRID=4326;POINT(1
// 2)", "POINT(1 2 3)", "POINTM(1 2 3)", "POINT Z (1 2 3)").
func Parse(s string) (Geom, error) {
	if strings.HasPrefix(s, "0") {
		b, err := hex.DecodeString(s)
		if err != nil {
			return Geom{}, errInvalid("Invalid hex string, length (%d) has to be a multiple of two!", len(s))
		}
		return DecodeEWKB(b)
	}
	return ParseEWKT(s)
}

// ParseEWKT reads EWKT: WKT after an optional "SRID=n;".
func ParseEWKT(s string) (Geom, error) {
	var srid int32
	t := strings.TrimLeftFunc(s, unicode.IsSpace)
	if len(t) >= 5 && strings.EqualFold(t[:5], "srid=") {
		num, rest, ok := strings.Cut(t[5:], ";")
		n, err := strconv.ParseInt(strings.TrimSpace(num), 10, 32)
		if !ok || err != nil {
			return Geom{}, errParse()
		}
		srid, t = clampSRID(int32(n)), rest
	}
	sh, err := ParseWKT(t)
	if err != nil {
		return Geom{}, err
	}
	return Geom{SRID: srid, Shape: sh}, nil
}

func errParse() error { return errInvalid("parse error - invalid geometry") }

// ParseWKT reads WKT with PostGIS's extensions: a tag's dimensions may be
// left for the coordinates to say (three numbers are XYZ, four XYZM) or
// spelled as a suffix (POINTM). simplefeatures reads the ISO spelling
// only, so the tags are respelled first.
func ParseWKT(s string) (*Shape, error) {
	s, restore := nonFinite(s)
	g, err := geom.UnmarshalWKT(isoWKT(s), geom.NoValidate{})
	if err != nil {
		return nil, errParse()
	}
	sh, err := fromLibrary(g)
	if err == nil && restore != nil {
		restore(sh)
	}
	return sh, err
}

// nonFinite respells the coordinates PostGIS reads and simplefeatures
// refuses: NaN (in any case, a token of its own) and a number beyond
// float8's range (1e400 is Infinity). Each becomes a sentinel number that
// no other coordinate of s equals; restore puts NaN and the infinities
// back in the parsed shape (nil when s has none).
func nonFinite(s string) (string, func(*Shape)) {
	type token struct {
		start, end int
		v          float64 // NaN, +Inf or -Inf
	}
	var odd []token
	// Every WKT a row is written with comes through here: the first walk
	// parses only the numbers that can overflow (an exponent, or hundreds
	// of digits), and allocates nothing for a WKT without odd tokens.
	walkNumbers(s, func(start, end int, nan bool) {
		if nan {
			odd = append(odd, token{start, end, math.NaN()})
			return
		}
		if end-start < 300 && strings.IndexAny(s[start:end], "eE") < 0 {
			return
		}
		if f, err := strconv.ParseFloat(s[start:end], 64); err != nil && math.IsInf(f, 0) {
			odd = append(odd, token{start, end, f})
		}
	})
	if len(odd) == 0 {
		return s, nil
	}
	seen := map[float64]bool{}
	walkNumbers(s, func(start, end int, nan bool) {
		if f, err := strconv.ParseFloat(s[start:end], 64); !nan && err == nil {
			seen[f] = true
		}
	})
	// Sentinels: finite, and equal to no coordinate written.
	sentinel := map[float64]float64{} // sentinel → the value it stands for
	of := map[int]float64{}           // 0 NaN, 1 +Inf, -1 -Inf → its sentinel
	next := 1.2345678901234567e300
	kind := func(v float64) int {
		switch {
		case math.IsNaN(v):
			return 0
		case v > 0:
			return 1
		}
		return -1
	}
	var b strings.Builder
	last := 0
	for _, t := range odd {
		k := kind(t.v)
		sv, ok := of[k]
		if !ok {
			for seen[next] {
				next = math.Nextafter(next, math.Inf(1))
			}
			sv, seen[next] = next, true
			of[k], sentinel[sv] = sv, t.v
		}
		b.WriteString(s[last:t.start])
		b.WriteString(strconv.FormatFloat(sv, 'g', -1, 64))
		last = t.end
	}
	b.WriteString(s[last:])
	return b.String(), func(sh *Shape) {
		sh.mapCoords(func(f float64) float64 {
			if v, ok := sentinel[f]; ok {
				return v
			}
			return f
		})
	}
}

// walkNumbers calls visit with the byte span of each number token of WKT
// s, and of each NaN token (nan: in any case, a word of its own; -nan is
// no number).
func walkNumbers(s string, visit func(start, end int, nan bool)) {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case isLetter(c):
			j := i
			for j < len(s) && (isLetter(s[j]) || s[j] >= '0' && s[j] <= '9') {
				j++
			}
			if strings.EqualFold(s[i:j], "nan") && (i == 0 || s[i-1] != '-' && s[i-1] != '+') {
				visit(i, j, true)
			}
			i = j
		case c >= '0' && c <= '9' || c == '.' || (c == '-' || c == '+') && i+1 < len(s) && (s[i+1] >= '0' && s[i+1] <= '9' || s[i+1] == '.'):
			j := i + 1
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.' || s[j] == 'e' || s[j] == 'E' ||
				(s[j] == '-' || s[j] == '+') && (s[j-1] == 'e' || s[j-1] == 'E')) {
				j++
			}
			visit(i, j, false)
			i = j
		default:
			i++
		}
	}
}

var wktTags = map[string]bool{"point": true, "linestring": true, "polygon": true, "multipoint": true,
	"multilinestring": true, "multipolygon": true, "geometrycollection": true}

// isoWKT respells PostGIS's WKT dimension forms as ISO's: POINTM(...) is
// POINT M (...), and an untagged tag whose first vertex has three or four
// numbers is tagged Z or ZM. Anything else is left for the library to
// judge.
func isoWKT(s string) string {
	var b strings.Builder
	i := 0
	for i < len(s) {
		c := s[i]
		if !isLetter(c) {
			b.WriteByte(c)
			i++
			continue
		}
		j := i
		for j < len(s) && isLetter(s[j]) {
			j++
		}
		word := strings.ToLower(s[i:j])
		b.WriteString(s[i:j])
		i = j
		// PostGIS reads a dimension suffix written onto the tag too:
		// POINTM, POINTZ, POINTZM.
		tag, suffix := word, ""
		for _, sfx := range []string{"zm", "z", "m"} {
			if !wktTags[tag] && strings.HasSuffix(word, sfx) && wktTags[word[:len(word)-len(sfx)]] {
				tag, suffix = word[:len(word)-len(sfx)], sfx
			}
		}
		if !wktTags[tag] {
			continue // EMPTY, Z, M, ZM, or a number's exponent
		}
		if suffix != "" {
			str := b.String()
			b.Reset()
			b.WriteString(str[:len(str)-len(suffix)])
			b.WriteString(" " + strings.ToUpper(suffix) + " ")
			continue
		}
		// Already tagged, or empty: as written.
		k := i
		for k < len(s) && s[k] == ' ' {
			k++
		}
		if k < len(s) && isLetter(s[k]) {
			continue
		}
		switch firstVertexSize(s[i:]) {
		case 3:
			b.WriteString(" Z ")
		case 4:
			b.WriteString(" ZM ")
		}
	}
	return b.String()
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// firstVertexSize counts the numbers of the first vertex in s: those
// after the first run of '(' up to the next ',' or ')'.
func firstVertexSize(s string) int {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '(') {
		i++
	}
	if i < len(s) && isLetter(s[i]) {
		// A collection's first member: its own tag decides.
		j := i
		for j < len(s) && isLetter(s[j]) {
			j++
		}
		w := strings.ToLower(s[i:j])
		if w == "empty" {
			return 0
		}
		return firstVertexSize(s[j:])
	}
	end := strings.IndexAny(s[i:], ",)")
	if end < 0 {
		return 0
	}
	return len(strings.Fields(s[i : i+end]))
}

// fromLibrary converts a simplefeatures geometry through its ISO WKB.
func fromLibrary(g geom.Geometry) (*Shape, error) {
	gm, err := DecodeEWKB(g.AppendWKB(nil))
	if err != nil {
		return nil, err
	}
	return gm.Shape, nil
}

// toLibrary converts a shape to a simplefeatures geometry, unvalidated as
// PostGIS keeps invalid geometries.
func toLibrary(s *Shape) (geom.Geometry, error) {
	g, err := geom.UnmarshalWKB(AppendISOWKB(nil, s), geom.NoValidate{})
	if err != nil {
		return geom.Geometry{}, errInvalid("%s", err.Error())
	}
	return g, nil
}

// FormatHex is the geometry's text output: its EWKB in upper-case hex.
func FormatHex(g Geom) string {
	return strings.ToUpper(hex.EncodeToString(AppendEWKB(nil, g)))
}

// AppendNumber appends f as PostGIS's lwprint_double prints it: the
// shortest form that reads back as f, its digits rounded to at most
// precision decimals, halves to even (ryu's shortest digits, then
// PostGIS's rounding of them: 1.3989602337443565 is 1.398960233744356 at
// 15 decimals, where rounding the binary value itself gives ...357);
// exponent form outside [1e-8, 1e15), its mantissa rounded alike;
// Infinity, -Infinity and NaN as C's printf spells them there.
func AppendNumber(dst []byte, f float64, precision int) []byte {
	switch {
	case f == 0:
		return append(dst, '0') // no "-0"
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	}
	precision = max(precision, 0)
	a := math.Abs(f)
	if a >= 1e15 || a < 1e-8 {
		s := strconv.FormatFloat(f, 'e', -1, 64)
		mant, exp, _ := strings.Cut(s, "e")
		// The digits rounded as in fixed form, 9.99e-10 to 10e-10 (PostGIS
		// does not move the point back); the exponent with its sign and
		// without leading zeros, e-9 and e+15.
		mant, _ = roundDecimals(mant, precision)
		e, _ := strconv.Atoi(exp)
		dst = append(append(dst, mant...), 'e')
		if e >= 0 {
			dst = append(dst, '+')
		}
		return strconv.AppendInt(dst, int64(e), 10)
	}
	s, _ := roundDecimals(strconv.FormatFloat(f, 'f', -1, 64), precision)
	if s == "-0" {
		s = "0"
	}
	return append(dst, s...)
}

// roundDecimals rounds the decimal number s (an optional sign, digits, an
// optional point and digits) to at most prec decimals, a half to even,
// and drops the trailing zeros and point that leaves; carried reports
// that the rounding added a digit before the point (9.96 → 10).
func roundDecimals(s string, prec int) (out string, carried bool) {
	dot := strings.IndexByte(s, '.')
	if dot < 0 || len(s)-dot-1 <= prec {
		return s, false
	}
	sign := ""
	if s[0] == '-' {
		sign, s, dot = "-", s[1:], dot-1
	}
	digits := []byte(s[:dot] + s[dot+1:dot+1+prec])
	rest := s[dot+1+prec:]
	last := byte('0')
	if len(digits) > 0 {
		last = digits[len(digits)-1]
	}
	up := rest[0] > '5' || rest[0] == '5' && (strings.TrimRight(rest[1:], "0") != "" || (last-'0')%2 == 1)
	intLen := dot
	if up {
		i := len(digits) - 1
		for ; i >= 0 && digits[i] == '9'; i-- {
			digits[i] = '0'
		}
		if i >= 0 {
			digits[i]++
		} else {
			digits = append([]byte{'1'}, digits...)
			intLen++
			carried = true
		}
	}
	out = string(digits[:intLen])
	if frac := strings.TrimRight(string(digits[intLen:]), "0"); frac != "" {
		out += "." + frac
	}
	if out == "" {
		out = "0"
	}
	return sign + out, carried
}

// FormatWKT is ST_AsText: ISO WKT (POINT Z (1 2 3)) without the SRID.
func FormatWKT(s *Shape, precision int) string {
	return string(appendWKT(nil, s, precision, false, true))
}

// FormatEWKT is ST_AsEWKT: "SRID=n;" when it has one, then PostGIS's own
// WKT spelling (POINT(1 2 3), POINTM(1 2 3)).
func FormatEWKT(g Geom, precision int) string {
	var dst []byte
	if g.SRID != 0 {
		dst = append(strconv.AppendInt(append(dst, "SRID="...), int64(g.SRID), 10), ';')
	}
	return string(appendWKT(dst, g.Shape, precision, true, true))
}

var wktNames = [...]string{"", "POINT", "LINESTRING", "POLYGON", "MULTIPOINT", "MULTILINESTRING", "MULTIPOLYGON", "GEOMETRYCOLLECTION"}

func appendWKT(dst []byte, s *Shape, prec int, extended, tagged bool) []byte {
	if tagged {
		dst = append(dst, wktNames[s.Kind]...)
		switch {
		case extended && s.M && !s.Z:
			dst = append(dst, 'M')
		case !extended && s.Z && s.M:
			dst = append(dst, " ZM "...)
		case !extended && s.Z:
			dst = append(dst, " Z "...)
		case !extended && s.M:
			dst = append(dst, " M "...)
		}
	}
	if s.IsEmpty() && (s.Kind <= Polygon || len(s.Parts) == 0) {
		if tagged && (extended || !s.Z && !s.M) {
			dst = append(dst, ' ')
		}
		return append(dst, "EMPTY"...)
	}
	st := s.Stride()
	seq := func(c []float64) {
		dst = append(dst, '(')
		for i := 0; i < len(c); i += st {
			if i > 0 {
				dst = append(dst, ',')
			}
			for k := range st {
				if k > 0 {
					dst = append(dst, ' ')
				}
				dst = AppendNumber(dst, c[i+k], prec)
			}
		}
		dst = append(dst, ')')
	}
	switch s.Kind {
	case Point, LineString:
		seq(s.Coords)
	case Polygon:
		dst = append(dst, '(')
		for i, r := range s.Rings {
			if i > 0 {
				dst = append(dst, ',')
			}
			seq(r)
		}
		dst = append(dst, ')')
	default:
		dst = append(dst, '(')
		for i, p := range s.Parts {
			if i > 0 {
				dst = append(dst, ',')
			}
			// A multi-geometry's members go untagged, a collection's
			// tagged; EWKT writes a multi-point's points without their
			// parentheses (MULTIPOINT(1 2,3 4)), as PostGIS does.
			if extended && s.Kind == MultiPoint && !p.IsEmpty() {
				n := len(dst)
				dst = appendWKT(dst, p, prec, extended, false)
				dst = append(dst[:n], dst[n+1:len(dst)-1]...)
				continue
			}
			dst = appendWKT(dst, p, prec, extended, s.Kind == GeometryCollection)
		}
		dst = append(dst, ')')
	}
	return dst
}
