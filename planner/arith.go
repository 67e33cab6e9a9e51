package planner

import (
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"time"
)

// bindArith binds an arithmetic operator (+ - * / % ^) by PostgreSQL's
// operator resolution (builtins.ResolveOperator): integer + numeric is
// numeric + numeric, numeric * double precision is double precision,
// timestamp - timestamp an interval, date + integer a date. The operands
// are cast to the chosen overload's types; untyped literals and
// parameters take them.
func (b *Binder) bindArith(op BinOp, l, r Expr) (Expr, error) {
	res, err := builtins.ResolveOperator(string(op), []sqltypes.Type{l.Type(), r.Type()})
	if err != nil {
		return nil, err
	}
	args := []Expr{l, r}
	if err := b.coerceArgs(args, res.ArgTypes); err != nil {
		return nil, err
	}
	ov := res.Overload
	fn := func(ctx *EvalContext, x, y sqltypes.Value) (sqltypes.Value, error) {
		return ov.Binary(fnContext(ctx), x, y)
	}
	e := &Binary{Op: op, L: args[0], R: args[1], Typ: res.Result, fn: fn}
	if ov.Volatility != builtins.Immutable {
		// timestamptz + interval reads the session's time zone: it is
		// computed when the statement runs, never folded here.
		return e, nil
	}
	return fold(e)
}

// bindNeg binds prefix minus.
func (b *Binder) bindNeg(e Expr) (Expr, error) {
	res, err := builtins.ResolveOperator("-", []sqltypes.Type{e.Type()})
	if err != nil {
		return nil, err
	}
	args := []Expr{e}
	if err := b.coerceArgs(args, res.ArgTypes); err != nil {
		return nil, err
	}
	return fold(&Neg{E: args[0]})
}

// fnContext is what a built-in function sees of an evaluation.
func fnContext(ctx *EvalContext) *builtins.Context {
	if ctx == nil {
		return nil
	}
	return &ctx.Fn
}

// castValue converts v, of type from, to type to, in a session whose
// TimeZone is loc (sqltypes.CastIn: timestamptz conversions). A real is a
// float32 in a float64: converted to numeric or to text it keeps the
// digits a real shows (1.1, not 1.100000023841858), as PostgreSQL converts
// float4. An explicit cast (CAST, ::) cuts strings to varchar(n) and
// char(n) where an assignment fails with 22001.
func castValue(v sqltypes.Value, from, to sqltypes.Type, explicit bool, loc *time.Location) (sqltypes.Value, error) {
	if from.ID == sqltypes.Float4 && v.K == sqltypes.KindFloat {
		switch {
		case to.ID == sqltypes.Numeric:
			n, err := sqltypes.FloatToNumeric(v.F, 32)
			if err != nil {
				return sqltypes.Null, err
			}
			return sqltypes.ApplyNumericTypmod(n, to)
		case to.IsTextual():
			v = sqltypes.NewText(string(sqltypes.AppendTextAs(nil, from, v)))
		}
	}
	return sqltypes.CastIn(v, to, explicit, loc)
}
