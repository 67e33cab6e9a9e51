package builtins

import (
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// (start1, end1) OVERLAPS (start2, end2), over timestamps, times and
// times with zone, where an end may be given as a length (an interval
// added to the start). parser/pgsyntax.go turns the SQL form into a call
// of overlaps(start1, end1, start2, end2).

// Overlaps is PostgreSQL's overlaps_timestamp (and _time, _timetz): each
// period ordered, a period with one NULL end taken as the instant at its
// other end, and NULL where the NULLs leave the answer unknown.
func Overlaps(s1, e1, s2, e2 sqltypes.Value) sqltypes.Value {
	order := func(s, e sqltypes.Value) (sqltypes.Value, sqltypes.Value, bool) {
		switch {
		case s.IsNull() && e.IsNull():
			return s, e, false
		case s.IsNull():
			return e, s, true
		case !e.IsNull() && sqltypes.Compare(s, e) > 0:
			return e, s, true
		}
		return s, e, true
	}
	s1, e1, ok1 := order(s1, e1)
	s2, e2, ok2 := order(s2, e2)
	if !ok1 || !ok2 {
		return sqltypes.Null
	}
	switch c := sqltypes.Compare(s1, s2); {
	case c > 0:
		// s1 < e2 OR e1 < e2
		if e2.IsNull() {
			return sqltypes.Null
		}
		if sqltypes.Compare(s1, e2) < 0 {
			return sqltypes.NewBool(true)
		}
		if e1.IsNull() {
			return sqltypes.Null
		}
		return sqltypes.NewBool(false)
	case c < 0:
		// s2 < e1 OR e2 < e1
		if e1.IsNull() {
			return sqltypes.Null
		}
		if sqltypes.Compare(s2, e1) < 0 {
			return sqltypes.NewBool(true)
		}
		if e2.IsNull() {
			return sqltypes.Null
		}
		return sqltypes.NewBool(false)
	}
	// Equal starts: true when both ends are known.
	if e1.IsNull() || e2.IsNull() {
		return sqltypes.Null
	}
	return sqltypes.NewBool(true)
}

// plusInterval is start + length for overlaps' (start, length) periods;
// NULL when either is.
func plusInterval(ctx *Context, s, iv sqltypes.Value) (sqltypes.Value, error) {
	if s.IsNull() || iv.IsNull() {
		return sqltypes.Null, nil
	}
	span := iv.Interval()
	switch s.K {
	case sqltypes.KindTimestamp:
		us, err := sqltypes.TimestampAddInterval(s.I, span)
		return sqltypes.NewTimestamp(us), err
	case sqltypes.KindTimestampTZ:
		return TimestampTZAddInterval(ctx, s.I, span)
	}
	// time (and time with zone): the interval's time part, around the clock.
	t := s.I
	if s.K == sqltypes.KindTimeTZ {
		t = s.TimeTZ().Micros
	}
	t = (t + span.Micros%usPerDay + usPerDay) % usPerDay
	if s.K == sqltypes.KindTimeTZ {
		return sqltypes.NewTimeTZ(sqltypes.TimeTZValue{Micros: t, Offset: s.TimeTZ().Offset}), nil
	}
	return sqltypes.NewTime(t), nil
}

func init() {
	iv := sqltypes.TypeInterval
	doc := "intervals overlap?"
	for _, t := range []sqltypes.Type{sqltypes.TypeTimestamp, sqltypes.TypeTimestampTZ, {ID: sqltypes.Time}, {ID: sqltypes.TimeTZ}} {
		Register("overlaps", Overload{Params: []Param{T(t), T(t), T(t), T(t)}, Result: Returns(sqltypes.TypeBool), CalledOnNull: true, Doc: doc,
			Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				return Overlaps(a[0], a[1], a[2], a[3]), nil
			}})
		if t.ID == sqltypes.TimeTZ {
			continue
		}
		// The forms with lengths: PostgreSQL's are SQL functions adding
		// them; timestamptz + interval reads the session's zone.
		vol := Immutable
		if t.ID == sqltypes.TimestampTZ {
			vol = Stable
		}
		for _, shape := range [][2]bool{{true, true}, {false, true}, {true, false}} {
			shape := shape
			p2, p4 := T(t), T(t)
			if shape[0] {
				p2 = T(iv)
			}
			if shape[1] {
				p4 = T(iv)
			}
			Register("overlaps", Overload{Params: []Param{T(t), p2, T(t), p4}, Result: Returns(sqltypes.TypeBool), CalledOnNull: true, Volatility: vol, Doc: doc,
				Eval: func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
					e1, e2 := a[1], a[3]
					var err error
					if shape[0] {
						if e1, err = plusInterval(ctx, a[0], a[1]); err != nil {
							return sqltypes.Null, err
						}
					}
					if shape[1] {
						if e2, err = plusInterval(ctx, a[2], a[3]); err != nil {
							return sqltypes.Null, err
						}
					}
					return Overlaps(a[0], e1, a[2], e2), nil
				}})
		}
	}
}
