package builtins

import (
	"math"
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// ServerVersion is what version() reports.
const ServerVersion = "PostgreSQL 15.0 (zproxy)"

var (
	text   = T(sqltypes.TypeText)
	int8   = T(sqltypes.TypeInt8)
	float8 = T(sqltypes.TypeFloat8)
)

func init() {
	now := func(typ sqltypes.Type) Overload {
		return Overload{Result: Returns(typ), Volatility: Stable, Eval: func(ctx *Context, _ []sqltypes.Value) (sqltypes.Value, error) {
			t := time.Now()
			if ctx != nil && !ctx.Now.IsZero() {
				t = ctx.Now
			}
			us := sqltypes.TimestampFromTime(t)
			if typ.ID == sqltypes.Timestamp {
				us = ToLocal(us, SessionLocation(ctx)) // the session's wall clock
			}
			return sqltypes.Value{K: typ.Kind(), I: us}, nil
		}}
	}
	for _, n := range []string{"now", "current_timestamp", "transaction_timestamp", "statement_timestamp"} {
		Register(n, now(sqltypes.TypeTimestampTZ))
	}
	Register("localtimestamp", now(sqltypes.TypeTimestamp))
	Register("clock_timestamp", Overload{Result: Returns(sqltypes.TypeTimestampTZ), Volatility: Volatile,
		Eval: func(*Context, []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewTimestampTZ(sqltypes.TimestampFromTime(time.Now())), nil
		}})

	Register("version", Overload{Result: Returns(sqltypes.TypeText), Volatility: Stable,
		Eval: func(*Context, []sqltypes.Value) (sqltypes.Value, error) { return sqltypes.NewText(ServerVersion), nil }})
	database := Overload{Result: Returns(sqltypes.Type{ID: sqltypes.Name}), Volatility: Stable, Eval: func(ctx *Context, _ []sqltypes.Value) (sqltypes.Value, error) {
		if ctx != nil && ctx.Session.Database != "" {
			return sqltypes.NewText(ctx.Session.Database), nil
		}
		// Without a session's database (an embedded session), the
		// catalog's default one, which pg_database lists.
		return sqltypes.NewText("postgres"), nil
	}}
	Register("current_database", database)
	Register("current_catalog", database)

	for _, t := range []sqltypes.Type{sqltypes.TypeInt2, sqltypes.TypeInt4, sqltypes.TypeInt8} {
		t := t
		Register("abs", Overload{Params: []Param{T(t)}, Result: Returns(t), Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			v := a[0].I
			if v < 0 {
				v = -v
			}
			return sqltypes.CheckRange(t, sqltypes.NewInt(v))
		}})
	}
	Register("abs", Overload{Params: []Param{T(sqltypes.TypeFloat4)}, Result: Returns(sqltypes.TypeFloat4), Eval: floatFn(math.Abs)},
		Overload{Params: []Param{float8}, Result: Returns(sqltypes.TypeFloat8), Eval: floatFn(math.Abs)})
	// round(double precision) rounds half to even, as PostgreSQL's rint().
	Register("round", Overload{Params: []Param{float8}, Result: Returns(sqltypes.TypeFloat8), Eval: floatFn(math.RoundToEven)})
	Register("floor", Overload{Params: []Param{float8}, Result: Returns(sqltypes.TypeFloat8), Eval: floatFn(math.Floor)})
	Register("ceil", Overload{Params: []Param{float8}, Result: Returns(sqltypes.TypeFloat8), Eval: floatFn(math.Ceil)})
	Register("ceiling", Overload{Params: []Param{float8}, Result: Returns(sqltypes.TypeFloat8), Eval: floatFn(math.Ceil)})
	Register("trunc", Overload{Params: []Param{float8}, Result: Returns(sqltypes.TypeFloat8), Eval: floatFn(math.Trunc)})
	Register("sqrt", Overload{Params: []Param{float8}, Result: Returns(sqltypes.TypeFloat8), Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		if a[0].F < 0 {
			return sqltypes.Null, pgerr.New(pgerr.InvalidArgumentForPowerFunction, "cannot take square root of a negative number")
		}
		return sqltypes.NewFloat(math.Sqrt(a[0].F)), nil
	}})
}

// floatFn lifts a float function to an overload implementation.
func floatFn(f func(float64) float64) func(*Context, []sqltypes.Value) (sqltypes.Value, error) {
	return func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewFloat(f(a[0].AsFloat())), nil
	}
}
