package sqltypes

import "github.com/zproxy/zproxy/internal/pgerr"

// The range operators and functions, as PostgreSQL's rangetypes.c
// defines them over range_cmp_bounds.

// RangeContainsElem is range @> element.
func RangeContainsElem(r *RangeValue, v Value) bool {
	if r.Empty {
		return false
	}
	if !r.LowerInf {
		c := Compare(r.Lower, v)
		if c > 0 || c == 0 && !r.LowerInc {
			return false
		}
	}
	if !r.UpperInf {
		c := Compare(r.Upper, v)
		if c < 0 || c == 0 && !r.UpperInc {
			return false
		}
	}
	return true
}

// RangeContains is range @> range: the empty range is in every range.
func RangeContains(a, b *RangeValue) bool {
	if b.Empty {
		return true
	}
	if a.Empty {
		return false
	}
	al, au := a.Bounds()
	bl, bu := b.Bounds()
	return CompareRangeBounds(al, bl) <= 0 && CompareRangeBounds(au, bu) >= 0
}

// RangeOverlaps is range && range.
func RangeOverlaps(a, b *RangeValue) bool {
	if a.Empty || b.Empty {
		return false
	}
	al, au := a.Bounds()
	bl, bu := b.Bounds()
	return CompareRangeBounds(al, bl) >= 0 && CompareRangeBounds(al, bu) <= 0 ||
		CompareRangeBounds(bl, al) >= 0 && CompareRangeBounds(bl, au) <= 0
}

// RangeBefore is range << range: a ends before b starts.
func RangeBefore(a, b *RangeValue) bool {
	if a.Empty || b.Empty {
		return false
	}
	_, au := a.Bounds()
	bl, _ := b.Bounds()
	return CompareRangeBounds(au, bl) < 0
}

// RangeOverLeft is range &< range: a does not extend to the right of b.
func RangeOverLeft(a, b *RangeValue) bool {
	if a.Empty || b.Empty {
		return false
	}
	_, au := a.Bounds()
	_, bu := b.Bounds()
	return CompareRangeBounds(au, bu) <= 0
}

// RangeOverRight is range &> range: a does not extend to the left of b.
func RangeOverRight(a, b *RangeValue) bool {
	if a.Empty || b.Empty {
		return false
	}
	al, _ := a.Bounds()
	bl, _ := b.Bounds()
	return CompareRangeBounds(al, bl) >= 0
}

// RangeAdjacent is range -|- range: one ends where the other starts, with
// no point between and none in common. A discrete range is canonical, so
// an upper bound below the other's lower leaves points between.
func RangeAdjacent(a, b *RangeValue) bool {
	if a.Empty || b.Empty {
		return false
	}
	al, au := a.Bounds()
	bl, bu := b.Bounds()
	adjacent := func(upper, lower RangeBound) bool {
		return compareBoundValues(upper, lower) == 0 && upper.Inc != lower.Inc
	}
	return adjacent(au, bl) || adjacent(bu, al)
}

// RangeUnion is range + range (strict: 22000 when the result would have
// a gap) and range_merge (not strict: the smallest range spanning both).
func RangeUnion(a, b *RangeValue, strict bool) (Value, error) {
	if b.Empty {
		return NewRange(a), nil
	}
	if a.Empty {
		return NewRange(b), nil
	}
	if strict && !RangeOverlaps(a, b) && !RangeAdjacent(a, b) {
		return Null, pgerr.New(pgerr.DataException, "result of range union would not be contiguous")
	}
	al, au := a.Bounds()
	bl, bu := b.Bounds()
	if CompareRangeBounds(bl, al) < 0 {
		al = bl
	}
	if CompareRangeBounds(bu, au) > 0 {
		au = bu
	}
	return MakeRange(a.Typ, al, au, false)
}

// RangeIntersect is range * range.
func RangeIntersect(a, b *RangeValue) (Value, error) {
	if !RangeOverlaps(a, b) {
		return EmptyRange(a.Typ), nil
	}
	al, au := a.Bounds()
	bl, bu := b.Bounds()
	if CompareRangeBounds(bl, al) > 0 {
		al = bl
	}
	if CompareRangeBounds(bu, au) < 0 {
		au = bu
	}
	return MakeRange(a.Typ, al, au, false)
}

// RangeMinus is range - range: 22000 when b splits a in two.
func RangeMinus(a, b *RangeValue) (Value, error) {
	if a.Empty || b.Empty {
		return NewRange(a), nil
	}
	al, au := a.Bounds()
	bl, bu := b.Bounds()
	l1l2, l1u2 := CompareRangeBounds(al, bl), CompareRangeBounds(al, bu)
	u1l2, u1u2 := CompareRangeBounds(au, bl), CompareRangeBounds(au, bu)
	switch {
	case l1l2 < 0 && u1u2 > 0:
		return Null, pgerr.New(pgerr.DataException, "result of range difference would not be contiguous")
	case l1u2 > 0 || u1l2 < 0:
		return NewRange(a), nil
	case l1l2 >= 0 && u1u2 <= 0:
		return EmptyRange(a.Typ), nil
	case l1l2 <= 0 && u1l2 >= 0 && u1u2 <= 0:
		// b's lower bound becomes the result's upper.
		bl.Inc, bl.Lower = !bl.Inc, false
		return MakeRange(a.Typ, al, bl, false)
	default: // l1l2 >= 0 && u1u2 >= 0 && l1u2 <= 0
		bu.Inc, bu.Lower = !bu.Inc, true
		return MakeRange(a.Typ, bu, au, false)
	}
}

// RangeLower is lower(range): NULL for the empty range and an infinite
// lower bound.
func RangeLower(r *RangeValue) Value {
	if r.Empty || r.LowerInf {
		return Null
	}
	return r.Lower
}

// RangeUpper is upper(range).
func RangeUpper(r *RangeValue) Value {
	if r.Empty || r.UpperInf {
		return Null
	}
	return r.Upper
}
