package builtins

import (
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// pg_size_pretty(numeric) and pg_size_bytes(text), PostgreSQL 15's: sizes
// in bytes, kB, MB, GB, TB and PB (powers of 1024).

var sizeUnits = []struct {
	name string
	bits uint
}{{"bytes", 0}, {"kB", 10}, {"MB", 20}, {"GB", 30}, {"TB", 40}, {"PB", 50}}

// SizePrettyNumeric is pg_size_pretty(numeric): under 10240 bytes as is,
// else in the largest unit that keeps the number under 20480, rounded
// half away from zero.
func SizePrettyNumeric(v sqltypes.Value) (sqltypes.Value, error) {
	num := func(n int64) sqltypes.Value { return sqltypes.NumericFromInt(n) }
	abs := func(x sqltypes.Value) sqltypes.Value { return sqltypes.AbsNumeric(x) }
	divTrunc := func(x sqltypes.Value, d int64) (sqltypes.Value, error) {
		q, err := sqltypes.DivNumeric(x, num(d))
		if err != nil {
			return q, err
		}
		return sqltypes.TruncNumeric(q, 0)
	}
	if sqltypes.CompareNumeric(abs(v), num(10*1024)) < 0 {
		return sqltypes.NewText(string(sqltypes.AppendText(nil, v)) + " bytes"), nil
	}
	size, err := divTrunc(v, 1<<9) // one bit more, for rounding
	if err != nil {
		return sqltypes.Null, err
	}
	for i, u := range sizeUnits[1:] {
		if i == len(sizeUnits)-2 || sqltypes.CompareNumeric(abs(size), num(20*1024-1)) < 0 {
			one := num(1)
			if sqltypes.CompareNumeric(size, num(0)) < 0 {
				one = num(-1)
			}
			if size, err = sqltypes.AddNumeric(size, one); err != nil {
				return sqltypes.Null, err
			}
			if size, err = divTrunc(size, 2); err != nil {
				return sqltypes.Null, err
			}
			return sqltypes.NewText(string(sqltypes.AppendText(nil, size)) + " " + u.name), nil
		}
		if size, err = divTrunc(size, 1<<10); err != nil {
			return sqltypes.Null, err
		}
	}
	return sqltypes.Null, nil // not reached: PB takes any size
}

func isCSpace(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }

// SizeBytes is pg_size_bytes(text): a number (sign, digits, fraction,
// exponent) and an optional unit, in any case, as a bigint.
func SizeBytes(s string) (sqltypes.Value, error) {
	invalid := func() *pgerr.Error { return pgerr.New(pgerr.InvalidParameterValue, "invalid size: \"%s\"", s) }
	i := 0
	for i < len(s) && isCSpace(s[i]) {
		i++
	}
	start, end := i, i
	if end < len(s) && (s[end] == '-' || s[end] == '+') {
		end++
	}
	digits := false
	for end < len(s) && isDigit(s[end]) {
		end, digits = end+1, true
	}
	if end < len(s) && s[end] == '.' {
		end++
		for end < len(s) && isDigit(s[end]) {
			end, digits = end+1, true
		}
	}
	if !digits {
		return sqltypes.Null, invalid()
	}
	if end < len(s) && (s[end] == 'e' || s[end] == 'E') {
		// An exponent only when digits follow; else it starts the unit.
		k := end + 1
		if k < len(s) && (s[k] == '-' || s[k] == '+') {
			k++
		}
		if k < len(s) && isDigit(s[k]) {
			for k < len(s) && isDigit(s[k]) {
				k++
			}
			end = k
		}
	}
	n, err := sqltypes.ParseNumeric(s[start:end])
	if err != nil {
		return sqltypes.Null, err
	}
	unit := strings.TrimRightFunc(strings.TrimLeftFunc(s[end:], func(r rune) bool { return r < 128 && isCSpace(byte(r)) }),
		func(r rune) bool { return r < 128 && isCSpace(byte(r)) })
	if unit != "" {
		found := false
		for _, u := range sizeUnits {
			if strings.EqualFold(unit, u.name) {
				if n, err = sqltypes.MulNumeric(n, sqltypes.NumericFromInt(1<<u.bits)); err != nil {
					return sqltypes.Null, err
				}
				found = true
				break
			}
		}
		if !found {
			return sqltypes.Null, invalid().WithDetail("Invalid size unit: \"%s\".", unit).
				WithHint("Valid units are \"bytes\", \"kB\", \"MB\", \"GB\", \"TB\", and \"PB\".")
		}
	}
	return sqltypes.NumericToInt(n, sqltypes.TypeInt8)
}

func init() {
	Register("pg_size_pretty", Overload{Params: []Param{T(sqltypes.TypeNumeric)}, Result: Returns(sqltypes.TypeText),
		Doc:  "convert a numeric to a human readable text using size units",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) { return SizePrettyNumeric(a[0]) }})
	Register("pg_size_bytes", Overload{Params: []Param{T(sqltypes.TypeText)}, Result: Returns(sqltypes.TypeInt8),
		Doc:  "convert a size in human-readable format with size units into bytes",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) { return SizeBytes(a[0].S) }})
}
