package planner

import (
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// bindArith binds an arithmetic operator (+ - * / % ^) by PostgreSQL's
// operator resolution (builtins.ResolveOperator): integer + numeric is
// numeric + numeric, numeric * double precision is double precision,
// timestamp - timestamp an interval, date + integer a date. The operands
// are cast to the chosen overload's types; untyped literals and
// parameters take them.
func (b *Binder) bindArith(op ir.BinOp, l, r ir.Expr) (ir.Expr, error) {
	res, err := builtins.ResolveOperator(string(op), []sqltypes.Type{l.Type(), r.Type()})
	if err != nil {
		return nil, err
	}
	args := []ir.Expr{l, r}
	if err := b.coerceArgs(args, res.ArgTypes); err != nil {
		return nil, err
	}
	ov := res.Overload
	fn := func(ctx *ir.EvalContext, x, y sqltypes.Value) (sqltypes.Value, error) {
		return ov.Binary(fnContext(ctx), x, y)
	}
	e := &ir.Binary{Op: op, L: args[0], R: args[1], Typ: res.Result, Fn: fn}
	if ov.Volatility != builtins.Immutable {
		// timestamptz + interval reads the session's time zone: it is
		// computed when the statement runs, never folded here.
		return e, nil
	}
	return fold(e)
}

// bindNeg binds prefix minus.
func (b *Binder) bindNeg(e ir.Expr) (ir.Expr, error) {
	res, err := builtins.ResolveOperator("-", []sqltypes.Type{e.Type()})
	if err != nil {
		return nil, err
	}
	args := []ir.Expr{e}
	if err := b.coerceArgs(args, res.ArgTypes); err != nil {
		return nil, err
	}
	return fold(&ir.Neg{E: args[0]})
}

// bindPlus binds unary plus, the identity of each number type: an
// untyped operand is read as float8, the numbers' preferred type, as
// PostgreSQL resolves + '1'; other types have no such operator.
func (b *Binder) bindPlus(e ir.Expr) (ir.Expr, error) {
	if e.Type().IsNumeric() {
		return e, nil
	}
	res, err := builtins.ResolveOperator("+", []sqltypes.Type{e.Type()})
	if err != nil {
		return nil, err
	}
	args := []ir.Expr{e}
	if err := b.coerceArgs(args, res.ArgTypes); err != nil {
		return nil, err
	}
	return args[0], nil
}

// fnContext is what a built-in function sees of an evaluation.
func fnContext(ctx *ir.EvalContext) *builtins.Context {
	if ctx == nil {
		return nil
	}
	return &ctx.Fn
}
