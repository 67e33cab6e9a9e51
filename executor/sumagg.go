package executor

import (
	"math/bits"

	"github.com/cockroachdb/apd/v3"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// exactSumAgg returns the accumulator of sum or avg when PostgreSQL
// computes it exactly: sum(bigint) and avg of any integer (numeric
// results), sum and avg of numeric and of interval. Others (sums of
// smallint and integer in a bigint, double precision) are nil.
func exactSumAgg(call ir.AggCall) aggregator {
	if len(call.Args) != 1 {
		return nil
	}
	avg := call.Func == ir.AggAvg
	switch arg := call.Args[0].Type(); {
	case arg.Kind() == sqltypes.KindInt && call.Typ.ID == sqltypes.Numeric:
		return &intSumAgg{avg: avg}
	case arg.ID == sqltypes.Numeric:
		return &numericSumAgg{avg: avg}
	case arg.ID == sqltypes.Interval:
		return &intervalSumAgg{avg: avg}
	}
	return nil
}

// intSumAgg sums integers in 128 bits (no row count can overflow it) and
// gives the sum, or the average with numeric division's scale, as numeric.
type intSumAgg struct {
	avg    bool
	n      int64
	hi, lo uint64 // two's complement 128-bit sum
}

func (a *intSumAgg) add(args []sqltypes.Value) error {
	v := args[0]
	if v.IsNull() {
		return nil
	}
	a.n++
	ext := uint64(v.I >> 63) // sign extension of the addend
	var carry uint64
	a.lo, carry = bits.Add64(a.lo, uint64(v.I), 0)
	a.hi, _ = bits.Add64(a.hi, ext, carry)
	return nil
}

func (a *intSumAgg) result() (sqltypes.Value, error) {
	if a.n == 0 {
		return sqltypes.Null, nil
	}
	neg := int64(a.hi) < 0
	hi, lo := a.hi, a.lo
	if neg { // magnitude of a negative sum
		lo = ^lo + 1
		hi = ^hi
		if lo == 0 {
			hi++
		}
	}
	var mag, h apd.BigInt
	h.SetUint64(hi)
	mag.Lsh(&h, 64)
	h.SetUint64(lo)
	mag.Add(&mag, &h)
	d := &apd.Decimal{Negative: neg}
	d.Coeff.Set(&mag)
	sum := sqltypes.NewNumeric(d)
	if a.avg {
		return sqltypes.AvgNumeric(sum, a.n)
	}
	return sum, nil
}

// numericSumAgg sums numerics exactly (the scale of the sum is the
// largest of the inputs').
type numericSumAgg struct {
	avg bool
	n   int64
	sum sqltypes.Value
}

func (a *numericSumAgg) add(args []sqltypes.Value) error {
	v := args[0]
	if v.IsNull() {
		return nil
	}
	a.n++
	if a.sum.IsNull() {
		a.sum = v
		return nil
	}
	s, err := sqltypes.AddNumeric(a.sum, v)
	a.sum = s
	return err
}

func (a *numericSumAgg) result() (sqltypes.Value, error) {
	if a.n == 0 || !a.avg {
		return a.sum, nil
	}
	return sqltypes.AvgNumeric(a.sum, a.n)
}

// intervalSumAgg adds intervals field by field; the average divides the
// sum as interval / double precision does.
type intervalSumAgg struct {
	avg bool
	n   int64
	sum sqltypes.IntervalValue
}

func (a *intervalSumAgg) add(args []sqltypes.Value) error {
	v := args[0]
	if v.IsNull() {
		return nil
	}
	a.n++
	s, err := sqltypes.AddInterval(a.sum, v.Interval())
	a.sum = s
	return err
}

func (a *intervalSumAgg) result() (sqltypes.Value, error) {
	switch {
	case a.n == 0:
		return sqltypes.Null, nil
	case a.avg:
		iv, err := sqltypes.DivInterval(a.sum, float64(a.n))
		return sqltypes.NewInterval(iv), err
	}
	return sqltypes.NewInterval(a.sum), nil
}
