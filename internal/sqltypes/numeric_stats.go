package sqltypes

import (
	"github.com/cockroachdb/apd/v3"
)

// NumericMoments accumulates what PostgreSQL's numeric variance
// aggregates keep (numeric_accum, int8_accum, and the 128-bit sums of
// int2_accum and int4_accum, which are the same numbers): the count, the
// exact sum and the exact sum of squares of the inputs. The zero value is
// ready to use.
type NumericMoments struct {
	n       int64
	sumX    apd.Decimal
	sumX2   apd.Decimal
	special bool // a NaN or an infinity was added: the result is NaN
}

// Add takes one non-NULL integer or numeric value.
func (m *NumericMoments) Add(v Value) error {
	var x *apd.Decimal
	switch v.K {
	case KindInt:
		x = apd.New(v.I, 0)
	case KindNumeric:
		x = v.Numeric()
	default:
		return errNumericOverflow()
	}
	m.n++
	if x.Form != apd.Finite {
		m.special = true
		return nil
	}
	var sq apd.Decimal
	if _, err := exactCtx.Mul(&sq, x, x); err != nil {
		return errNumericOverflow()
	}
	if _, err := exactCtx.Add(&m.sumX, &m.sumX, x); err != nil {
		return errNumericOverflow()
	}
	if _, err := exactCtx.Add(&m.sumX2, &m.sumX2, &sq); err != nil {
		return errNumericOverflow()
	}
	return nil
}

// Variance returns the variance (or, with stddev, its square root) as
// PostgreSQL's numeric_stddev_internal computes it: the numerator
// N·ΣX² − (ΣX)² exactly, divided by N·(N−1) (sample) or N² (population)
// to the scale of numeric division, the square root taken to that same
// scale. NULL for no rows, or one row of a sample statistic.
func (m *NumericMoments) Variance(sample, stddev bool) (Value, error) {
	if m.n == 0 || sample && m.n == 1 {
		return Null, nil
	}
	if m.special {
		return NumericNaN(), nil
	}
	n := apd.New(m.n, 0)
	var num, sq apd.Decimal
	if _, err := exactCtx.Mul(&num, n, &m.sumX2); err != nil {
		return Null, errNumericOverflow()
	}
	if _, err := exactCtx.Mul(&sq, &m.sumX, &m.sumX); err != nil {
		return Null, errNumericOverflow()
	}
	if _, err := exactCtx.Sub(&num, &num, &sq); err != nil {
		return Null, errNumericOverflow()
	}
	if num.Sign() <= 0 {
		return NumericFromInt(0), nil
	}
	den := apd.New(m.n*m.n, 0)
	if sample {
		den = apd.New(m.n*(m.n-1), 0)
	}
	if m.n > 3037000499 { // n² overflows an int64
		den = new(apd.Decimal)
		minus := apd.New(m.n, 0)
		if sample {
			exactCtx.Sub(minus, minus, apd.New(1, 0))
		}
		exactCtx.Mul(den, n, minus)
	}
	rscale := divScale(&num, den)
	v := quoRound(&num, den, rscale)
	if stddev {
		v = sqrtRound(v, rscale)
	}
	return numericResult(v)
}
