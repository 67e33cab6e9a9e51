package zorder

import (
	"math"
	"strconv"
	"time"
)

// ValueText spells the smallest value whose code is code, as SQL would
// print it: what an attribute's code stands for when a tool shows a box or
// the data's bounds to a person (EXPLAIN's Z-order keys, the console's
// picture). A code covers a run of values when the width is narrower than
// the type's (a float's top bits, a text's first bytes); the run's first
// value is shown. NULL is the NULL code of a nullable attribute.
func (a Attr) ValueText(code uint64) string {
	w := a.w()
	if a.Nullable {
		if code == 0 {
			return "NULL"
		}
		code--
	}
	switch a.Type {
	case TypeUint:
		return strconv.FormatUint(code, 10)
	case TypeInt, TypeTimestamp, TypeDate:
		v := intOfCode(code, w)
		switch a.Type {
		case TypeTimestamp:
			return time.UnixMicro(v).UTC().Format("2006-01-02 15:04:05.999999")
		case TypeDate:
			if v > math.MaxInt64/86400 || v < math.MinInt64/86400 {
				return strconv.FormatInt(v, 10)
			}
			return time.Unix(v*86400, 0).UTC().Format("2006-01-02")
		}
		return strconv.FormatInt(v, 10)
	case TypeFloat:
		return strconv.FormatFloat(floatFromOrderBits(code<<uint(64-w)), 'g', -1, 64)
	case TypeBool:
		return strconv.FormatBool(code != 0)
	case TypeBytes:
		return strconv.Quote(string(minBytesOfCode(code, w)))
	}
	return strconv.FormatUint(code, 10)
}

// intOfCode inverts IntCode for a width-bit code.
func intOfCode(c uint64, width int) int64 {
	width = normWidth(width)
	if width >= 64 {
		return int64(c ^ 1<<63)
	}
	return int64(c) - int64(1)<<uint(width-1)
}
