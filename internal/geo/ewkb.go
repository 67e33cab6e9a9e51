package geo

import (
	"encoding/binary"
	"math"
)

// goNaN is math.NaN()'s bits, cNaN C's NAN's, the NaN PostgreSQL's float8in
// gives and PostGIS writes.
const (
	goNaN = 0x7ff8000000000001
	cNaN  = 0x7ff8000000000000
)

// The flag bits of PostGIS's EWKB type word.
const (
	ewkbZ    = 0x80000000
	ewkbM    = 0x40000000
	ewkbSRID = 0x20000000
)

// maxDepth bounds collections nested in collections, so a hostile input
// cannot exhaust the stack (PostGIS has no such bound; its inputs are
// limited by a datum's size).
const maxDepth = 64

// DecodeEWKB reads EWKB or ISO WKB, in either byte order, as PostGIS's
// input functions do: the SRID flag's SRID, Z and M by flag bits or by
// the ISO type codes (1001, 2001, 3001, ...). Its errors are PostGIS's.
func DecodeEWKB(b []byte) (Geom, error) { return decodeEWKB(b, true) }

// DecodeStoredEWKB reads a value zproxy encoded itself (a stored or
// computed geometry): as DecodeEWKB, but without the input functions'
// check that a line string has two points and a ring four, as PostGIS
// reads its own serialized form. A geometry function may make what input
// may not: ST_MakeLine of one point is a line string of one.
func DecodeStoredEWKB(b []byte) (Geom, error) { return decodeEWKB(b, false) }

func decodeEWKB(b []byte, checkPoints bool) (Geom, error) {
	r := wkbReader{b: b, checkPoints: checkPoints}
	s, srid, err := r.shape(0)
	if err != nil {
		return Geom{}, err
	}
	if r.off != len(b) {
		return Geom{}, errInvalid("WKB structure does not match expected size!")
	}
	return Geom{SRID: srid, Shape: s}, nil
}

type wkbReader struct {
	b     []byte
	off   int
	order binary.ByteOrder
	// checkPoints refuses line strings of one point and rings of fewer
	// than four, as PostGIS's input functions do (LW_PARSER_CHECK_MINPOINTS).
	checkPoints bool
}

func (r *wkbReader) need(n int) error {
	if n < 0 || len(r.b)-r.off < n {
		return errInvalid("WKB structure does not match expected size!")
	}
	return nil
}

func (r *wkbReader) u32() (uint32, error) {
	if err := r.need(4); err != nil {
		return 0, err
	}
	v := r.order.Uint32(r.b[r.off:])
	r.off += 4
	return v, nil
}

func (r *wkbReader) floats(n int) ([]float64, error) {
	if err := r.need(8 * n); err != nil {
		return nil, err
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = math.Float64frombits(r.order.Uint64(r.b[r.off:]))
		r.off += 8
	}
	return out, nil
}

func (r *wkbReader) shape(depth int) (*Shape, int32, error) {
	if depth > maxDepth {
		return nil, 0, errInvalid("WKB structure does not match expected size!")
	}
	if err := r.need(1); err != nil {
		return nil, 0, err
	}
	switch r.b[r.off] {
	case 0:
		r.order = binary.BigEndian
	case 1:
		r.order = binary.LittleEndian
	default:
		return nil, 0, errInvalid("Unknown WKB byte order: %d", r.b[r.off])
	}
	r.off++
	t, err := r.u32()
	if err != nil {
		return nil, 0, err
	}
	s := &Shape{Z: t&ewkbZ != 0, M: t&ewkbM != 0}
	var srid int32
	if t&ewkbSRID != 0 {
		v, err := r.u32()
		if err != nil {
			return nil, 0, err
		}
		srid = clampSRID(int32(v))
	}
	code := t &^ (ewkbZ | ewkbM | ewkbSRID)
	switch code / 1000 {
	case 1:
		s.Z = true
	case 2:
		s.M = true
	case 3:
		s.Z, s.M = true, true
	}
	s.Kind = Kind(code % 1000)
	if s.Kind < Point || s.Kind > GeometryCollection || code >= 4000 {
		return nil, 0, errInvalid("Unknown WKB type (%d)! Full WKB type number was (%d).", code%1000, t)
	}
	st := s.Stride()
	switch s.Kind {
	case Point:
		c, err := r.floats(st)
		if err != nil {
			return nil, 0, err
		}
		if !(math.IsNaN(c[0]) && math.IsNaN(c[1])) {
			s.Coords = c
		}
	case LineString:
		n, err := r.u32()
		if err != nil {
			return nil, 0, err
		}
		if err := r.need(int(min(n, 1<<28)) * 8 * st); err != nil {
			return nil, 0, err
		}
		if n == 1 && r.checkPoints {
			return nil, 0, errInvalid("geometry requires more points")
		}
		if s.Coords, err = r.floats(int(n) * st); err != nil {
			return nil, 0, err
		}
	case Polygon:
		n, err := r.u32()
		if err != nil {
			return nil, 0, err
		}
		if err := r.need(int(min(n, 1<<28)) * 4); err != nil {
			return nil, 0, err
		}
		for range n {
			m, err := r.u32()
			if err != nil {
				return nil, 0, err
			}
			if err := r.need(int(min(m, 1<<28)) * 8 * st); err != nil {
				return nil, 0, err
			}
			ring, err := r.floats(int(m) * st)
			if err != nil {
				return nil, 0, err
			}
			if m < 4 && r.checkPoints {
				return nil, 0, errInvalid("geometry requires more points")
			}
			if ring[0] != ring[len(ring)-st] || ring[1] != ring[len(ring)-st+1] {
				return nil, 0, errInvalid("geometry contains non-closed rings")
			}
			s.Rings = append(s.Rings, ring)
		}
	default:
		n, err := r.u32()
		if err != nil {
			return nil, 0, err
		}
		if err := r.need(int(min(n, 1<<28)) * 9); err != nil {
			return nil, 0, err
		}
		for range n {
			p, _, err := r.shape(depth + 1)
			if err != nil {
				return nil, 0, err
			}
			if s.Kind != GeometryCollection && p.Kind != s.Kind-3 {
				return nil, 0, errInvalid("Invalid subtype (%s) for collection type (%s)", p.Kind, s.Kind)
			}
			if p.Z != s.Z || p.M != s.M {
				return nil, 0, errInvalid("Mixed dimensionality WKB is not supported")
			}
			s.Parts = append(s.Parts, p)
		}
	}
	return s, srid, nil
}

// clampSRID is PostGIS's clamp_srid: a negative SRID is unknown (0), one
// above the maximum is folded into the reserved range.
func clampSRID(srid int32) int32 {
	const maxSRID, userMax = 999999, 998999
	switch {
	case srid <= 0:
		return 0
	case srid > maxSRID:
		return userMax + 1 + srid%(maxSRID-userMax-1)
	}
	return srid
}

// AppendEWKB appends g's EWKB as PostGIS writes it: little-endian, the
// SRID flag and SRID on the outermost geometry when it has one, the Z and
// M flags on every geometry.
func AppendEWKB(dst []byte, g Geom) []byte {
	return appendWKB(dst, g.Shape, g.SRID, true, binary.LittleEndian)
}

// AppendISOWKB appends g's ISO WKB (ST_AsBinary): little-endian, no SRID,
// Z and M by the type code.
func AppendISOWKB(dst []byte, s *Shape) []byte {
	return appendWKB(dst, s, 0, false, binary.LittleEndian)
}

// AppendWKBOrder is AppendEWKB (ewkb) or AppendISOWKB in the byte order
// ST_AsEWKB's and ST_AsBinary's second argument names: big-endian (XDR)
// when bigEndian, else little-endian (NDR).
func AppendWKBOrder(dst []byte, g Geom, ewkb, bigEndian bool) []byte {
	var order binary.AppendByteOrder = binary.LittleEndian
	if bigEndian {
		order = binary.BigEndian
	}
	srid := int32(0)
	if ewkb {
		srid = g.SRID
	}
	return appendWKB(dst, g.Shape, srid, ewkb, order)
}

func appendWKB(dst []byte, s *Shape, srid int32, ewkb bool, le binary.AppendByteOrder) []byte {
	if le == binary.BigEndian {
		dst = append(dst, 0) // XDR
	} else {
		dst = append(dst, 1) // NDR
	}
	t := uint32(s.Kind)
	if ewkb {
		if s.Z {
			t |= ewkbZ
		}
		if s.M {
			t |= ewkbM
		}
		if srid != 0 {
			t |= ewkbSRID
		}
	} else {
		switch {
		case s.Z && s.M:
			t += 3000
		case s.Z:
			t += 1000
		case s.M:
			t += 2000
		}
	}
	dst = le.AppendUint32(dst, t)
	if ewkb && srid != 0 {
		dst = le.AppendUint32(dst, uint32(srid))
	}
	floats := func(c []float64) {
		for _, f := range c {
			bits := math.Float64bits(f)
			if bits == goNaN {
				// zproxy's 'NaN' is Go's; PostgreSQL's float8in gives
				// C's, which PostGIS writes (wire/values.go maps the same).
				bits = cNaN
			}
			dst = le.AppendUint64(dst, bits)
		}
	}
	switch s.Kind {
	case Point:
		if len(s.Coords) == 0 {
			for range s.Stride() {
				dst = le.AppendUint64(dst, cNaN) // PostGIS's NaN
			}
		} else {
			floats(s.Coords)
		}
	case LineString:
		dst = le.AppendUint32(dst, uint32(len(s.Coords)/s.Stride()))
		floats(s.Coords)
	case Polygon:
		dst = le.AppendUint32(dst, uint32(len(s.Rings)))
		for _, r := range s.Rings {
			dst = le.AppendUint32(dst, uint32(len(r)/s.Stride()))
			floats(r)
		}
	default:
		dst = le.AppendUint32(dst, uint32(len(s.Parts)))
		for _, p := range s.Parts {
			dst = appendWKB(dst, p, 0, ewkb, le)
		}
	}
	return dst
}
