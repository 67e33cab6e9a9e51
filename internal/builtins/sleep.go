package builtins

import (
	"math"
	"time"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// pg_sleep, pg_sleep_for and pg_sleep_until wait, as PostgreSQL's do, until
// the time is up or the statement is cancelled (a cancel request,
// statement_timeout, the client gone): a wait is never longer than the
// statement may run.
func init() {
	sleep := func(c *Context, d time.Duration) (sqltypes.Value, error) {
		if d > 0 {
			t := time.NewTimer(d)
			defer t.Stop()
			select {
			case <-t.C:
			case <-c.Done():
				return sqltypes.Null, c.Err()
			}
		}
		return sqltypes.NewText(""), nil
	}
	seconds := func(s float64) time.Duration {
		if math.IsNaN(s) || s <= 0 {
			return 0
		}
		if s > float64(math.MaxInt64/int64(time.Second)) {
			return math.MaxInt64
		}
		return time.Duration(s * float64(time.Second))
	}
	Register("pg_sleep", Overload{Params: []Param{float8}, Result: Returns(sqltypes.TypeVoid), Volatility: Volatile,
		Eval: func(c *Context, a []sqltypes.Value) (sqltypes.Value, error) { return sleep(c, seconds(a[0].F)) }})
	Register("pg_sleep_for", Overload{Params: []Param{T(sqltypes.TypeInterval)}, Result: Returns(sqltypes.TypeVoid), Volatility: Volatile,
		Eval: func(c *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			// As PostgreSQL: the interval added to now, then waited until.
			iv := a[0].Interval()
			until := time.Now().AddDate(0, int(iv.Months), int(iv.Days)).Add(time.Duration(iv.Micros) * time.Microsecond)
			return sleep(c, time.Until(until))
		}})
	Register("pg_sleep_until", Overload{Params: []Param{T(sqltypes.TypeTimestampTZ)}, Result: Returns(sqltypes.TypeVoid), Volatility: Volatile,
		Eval: func(c *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			switch {
			case a[0].I == sqltypes.TimestampInfinity:
				return sleep(c, math.MaxInt64) // until cancelled, as PostgreSQL
			case !sqltypes.IsFiniteTimestamp(a[0].I):
				return sqltypes.NewText(""), nil
			}
			return sleep(c, time.Until(sqltypes.TimestampTime(a[0].I)))
		}})
}
