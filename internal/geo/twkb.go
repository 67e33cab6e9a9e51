package geo

import (
	"encoding/binary"
	"math"
)

// This file writes Tiny WKB (https://github.com/TWKB/Specification) as
// PostGIS's ST_AsTWKB does (liblwgeom's lwout_twkb.c): a type and
// precision byte, a metadata byte (bbox, size, empty and extended-
// precision flags), the optional Z/M precision byte, the optional size
// and bbox, then zig-zag varint deltas of the coordinates scaled by
// 10^precision and rounded half away from zero. Vertices that round to
// the one before are skipped while the line (2) or ring (4) has vertices
// to spare; the parts of a multi-geometry share one delta chain, the
// members of a collection are complete TWKBs of their own.

// TWKB options (liblwgeom's variant bits).
const (
	TWKBBBox = 0x01
	TWKBSize = 0x02
)

// TWKBPrecisionError is a precision ST_AsTWKB refuses; its text is
// PostGIS's message.
type TWKBPrecisionError struct{ Msg string }

func (e *TWKBPrecisionError) Error() string { return e.Msg }

type twkbGlobals struct {
	variant              uint8
	precXY, precZ, precM int8
	factor               [4]float64
}

type twkbState struct {
	header, geom []byte
	inCollection bool
	bboxMin      [4]int64
	bboxMax      [4]int64
	accum        [4]int64
}

func zigzag8(v int8) uint8 {
	if v >= 0 {
		return uint8(v) << 1
	}
	return uint8(-1-v)<<1 | 1
}

// AppendTWKB appends s's TWKB to dst. precXY, precZ, precM are the
// precisions as PostGIS takes them: as C's int8_t, larger values wrap.
func AppendTWKB(dst []byte, s *Shape, variant uint8, precXY, precZ, precM int64) ([]byte, error) {
	g := &twkbGlobals{variant: variant, precXY: int8(precXY), precZ: int8(precZ), precM: int8(precM)}
	top := &twkbState{geom: dst}
	if err := twkbWrite(s, g, top); err != nil {
		return nil, err
	}
	return top.geom, nil
}

func twkbType(k Kind) uint8 { return uint8(k) }

func twkbWrite(s *Shape, g *twkbGlobals, parent *twkbState) error {
	child := &twkbState{header: make([]byte, 0, 16), inCollection: true}
	ndims := s.Stride()
	empty := s.IsEmpty()
	hasZ, hasM := false, false
	if ndims > 2 {
		hasZ, hasM = s.Z, s.M
	}
	ext := hasZ || hasM
	g.factor[0] = float64(float32(math.Pow(10, float64(g.precXY))))
	g.factor[1] = g.factor[0]
	zi := 2
	if hasZ {
		g.factor[2] = float64(float32(math.Pow(10, float64(g.precZ))))
		zi = 3
	}
	if hasM {
		g.factor[zi] = float64(float32(math.Pow(10, float64(g.precM))))
	}
	for i := range 4 {
		child.bboxMax[i] = math.MinInt64
		child.bboxMin[i] = math.MaxInt64
	}
	if g.precXY > 7 || g.precXY < -7 {
		return &TWKBPrecisionError{"lwgeom_write_to_buffer: X/Z precision cannot be greater than 7 or less than -7"}
	}
	child.header = append(child.header, twkbType(s.Kind)&0x0F|(zigzag8(g.precXY)&0x0F)<<4)
	var flag uint8
	if g.variant&TWKBBBox != 0 && !empty {
		flag |= 0x01
	}
	if g.variant&TWKBSize != 0 {
		flag |= 0x02
	}
	if ext {
		flag |= 0x08
	}
	if empty {
		flag |= 0x10
	}
	child.header = append(child.header, flag)
	if ext {
		if hasZ && (g.precZ > 7 || g.precZ < 0) {
			return &TWKBPrecisionError{"lwgeom_write_to_buffer: Z precision cannot be negative or greater than 7"}
		}
		if hasM && (g.precM > 7 || g.precM < 0) {
			return &TWKBPrecisionError{"lwgeom_write_to_buffer: M precision cannot be negative or greater than 7"}
		}
		var e uint8
		if hasZ {
			e |= 0x01
		}
		if hasM {
			e |= 0x02
		}
		e = e&0xE3 | (uint8(g.precZ)&0x07)<<2
		e = e&0x1F | (uint8(g.precM)&0x07)<<5
		child.header = append(child.header, e)
	}
	if empty {
		if g.variant&TWKBSize != 0 {
			child.header = append(child.header, 0)
		}
		parent.geom = append(parent.geom, child.header...)
		return nil
	}
	if err := twkbBody(s, g, child); err != nil {
		return err
	}
	if g.variant&TWKBBBox != 0 && parent.inCollection {
		for i := 0; i < ndims; i++ {
			parent.bboxMin[i] = min(parent.bboxMin[i], child.bboxMin[i])
			parent.bboxMax[i] = max(parent.bboxMax[i], child.bboxMax[i])
		}
	}
	var bbox []byte
	if g.variant&TWKBBBox != 0 {
		for i := 0; i < ndims; i++ {
			bbox = binary.AppendVarint(bbox, child.bboxMin[i])
			bbox = binary.AppendVarint(bbox, child.bboxMax[i]-child.bboxMin[i])
		}
	}
	if g.variant&TWKBSize != 0 {
		child.header = binary.AppendUvarint(child.header, uint64(len(child.geom)+len(bbox)))
	}
	child.header = append(child.header, bbox...)
	parent.geom = append(parent.geom, child.header...)
	parent.geom = append(parent.geom, child.geom...)
	return nil
}

func twkbBody(s *Shape, g *twkbGlobals, ts *twkbState) error {
	st := s.Stride()
	switch s.Kind {
	case Point:
		twkbSeq(s.Coords, st, g, ts, false, 1)
	case LineString:
		twkbSeq(s.Coords, st, g, ts, true, 2)
	case Polygon:
		ts.geom = binary.AppendUvarint(ts.geom, uint64(len(s.Rings)))
		for _, r := range s.Rings {
			twkbSeq(r, st, g, ts, true, 4)
		}
	case MultiPoint, MultiLineString, MultiPolygon:
		n := 0
		for _, p := range s.Parts {
			if s.Kind == MultiPoint && p.IsEmpty() {
				continue
			}
			n++
		}
		ts.geom = binary.AppendUvarint(ts.geom, uint64(n))
		for _, p := range s.Parts {
			if s.Kind == MultiPoint && p.IsEmpty() {
				continue
			}
			if err := twkbBody(p, g, ts); err != nil {
				return err
			}
		}
	default:
		ts.geom = binary.AppendUvarint(ts.geom, uint64(len(s.Parts)))
		for _, p := range s.Parts {
			if err := twkbWrite(p, g, ts); err != nil {
				return err
			}
		}
	}
	return nil
}

// twkbSeq is ptarray_to_twkb_buf.
func twkbSeq(c []float64, st int, g *twkbGlobals, ts *twkbState, withCount bool, minPts int) {
	n := len(c) / st
	if n == 0 && withCount {
		ts.geom = binary.AppendUvarint(ts.geom, 0)
		return
	}
	var body []byte
	left := n
	count := 0
	var delta [4]int64
	for i := 0; i < n; i++ {
		var diff int64
		for j := 0; j < st; j++ {
			delta[j] = int64(math.Round(g.factor[j]*c[i*st+j])) - ts.accum[j]
			d := delta[j]
			if d < 0 {
				d = -d
			}
			diff += d
		}
		if i > 0 && diff == 0 && left > minPts {
			left--
			continue
		}
		count++
		for j := 0; j < st; j++ {
			ts.accum[j] += delta[j]
			body = binary.AppendVarint(body, delta[j])
		}
		if g.variant&TWKBBBox != 0 {
			for j := 0; j < st; j++ {
				ts.bboxMax[j] = max(ts.bboxMax[j], ts.accum[j])
				ts.bboxMin[j] = min(ts.bboxMin[j], ts.accum[j])
			}
		}
	}
	if withCount {
		ts.geom = binary.AppendUvarint(ts.geom, uint64(count))
	}
	ts.geom = append(ts.geom, body...)
}
