package planner

import (
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/parser"
)

// ServerVersion is what version() reports.
const ServerVersion = "PostgreSQL 15.0 (zproxy)"

// bindFunc binds a call to a built-in scalar function. The set is small on
// purpose: what clients and BI tools send on connect plus common scalars.
func (b *Binder) bindFunc(name string, args []Expr) (Expr, error) {
	arity := func(lo, hi int) error {
		if len(args) < lo || len(args) > hi {
			return pgerr.New(pgerr.UndefinedFunction, "function %s with %d arguments does not exist", name, len(args)).
				WithHint("No function matches the given name and argument types.")
		}
		return nil
	}
	text := func(i int) error {
		b.inferParam(args[i], sqltypes.TypeText)
		if args[i].Type().ID == sqltypes.Unknown {
			var err error
			args[i], err = b.coerceTo(args[i], sqltypes.TypeText, false)
			return err
		}
		if args[i].Type().Kind() != sqltypes.KindText {
			return pgerr.New(pgerr.UndefinedFunction, "function %s(%s) does not exist", name, args[i].Type())
		}
		return nil
	}
	mk := func(typ sqltypes.Type, fn func(*EvalContext, []sqltypes.Value) (sqltypes.Value, error)) (Expr, error) {
		return fold(&Func{Name: name, Args: args, Typ: typ, fn: strict(fn)})
	}
	switch name {
	case "now", "current_timestamp", "transaction_timestamp", "statement_timestamp", "localtimestamp":
		if err := arity(0, 0); err != nil {
			return nil, err
		}
		typ := sqltypes.TypeTimestampTZ
		if name == "localtimestamp" {
			typ = sqltypes.TypeTimestamp
		}
		return &Func{Name: name, Typ: typ, volatile: true, fn: func(ctx *EvalContext, _ []sqltypes.Value) (sqltypes.Value, error) {
			now := time.Now()
			if ctx != nil && !ctx.Now.IsZero() {
				now = ctx.Now
			}
			return sqltypes.Value{K: typ.Kind(), I: now.UnixMicro()}, nil
		}}, nil
	case parser.NumericLiteralFunc:
		// A numeric literal too long for TiDB (see parser.NumericLiteralFunc).
		c, ok := args[0].(*Const)
		if len(args) != 1 || !ok || c.V.K != sqltypes.KindText {
			return nil, pgerr.New(pgerr.InternalError, "malformed numeric literal")
		}
		v, err := sqltypes.ParseText(sqltypes.TypeFloat8, c.V.S)
		if err != nil {
			return nil, err
		}
		return &Const{V: v, Typ: sqltypes.TypeFloat8}, nil
	case "version":
		if err := arity(0, 0); err != nil {
			return nil, err
		}
		return &Const{V: sqltypes.NewText(ServerVersion), Typ: sqltypes.TypeText}, nil
	case "current_database", "current_catalog":
		return &Const{V: sqltypes.NewText("zproxy"), Typ: sqltypes.TypeText}, nil
	case "current_schema":
		return &Const{V: sqltypes.NewText("public"), Typ: sqltypes.TypeText}, nil
	case "lower", "upper":
		if err := arity(1, 1); err != nil {
			return nil, err
		}
		if err := text(0); err != nil {
			return nil, err
		}
		f := strings.ToLower
		if name == "upper" {
			f = strings.ToUpper
		}
		return mk(sqltypes.TypeText, func(_ *EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewText(f(a[0].S)), nil
		})
	case "length", "char_length", "character_length":
		if err := arity(1, 1); err != nil {
			return nil, err
		}
		if err := text(0); err != nil {
			return nil, err
		}
		return mk(sqltypes.TypeInt4, func(_ *EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewInt(int64(utf8.RuneCountInString(a[0].S))), nil
		})
	case "abs":
		if err := arity(1, 1); err != nil {
			return nil, err
		}
		b.inferParam(args[0], sqltypes.TypeFloat8)
		if !args[0].Type().IsNumeric() {
			return nil, pgerr.New(pgerr.UndefinedFunction, "function abs(%s) does not exist", args[0].Type())
		}
		return mk(args[0].Type(), func(_ *EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
			if a[0].K == sqltypes.KindInt {
				if a[0].I == math.MinInt64 {
					return sqltypes.Null, overflow(args[0].Type())
				}
				if a[0].I < 0 {
					return sqltypes.NewInt(-a[0].I), nil
				}
				return a[0], nil
			}
			return sqltypes.NewFloat(math.Abs(a[0].F)), nil
		})
	case "round", "floor", "ceil", "ceiling", "trunc", "sqrt":
		if err := arity(1, 1); err != nil {
			return nil, err
		}
		b.inferParam(args[0], sqltypes.TypeFloat8)
		if !args[0].Type().IsNumeric() {
			return nil, pgerr.New(pgerr.UndefinedFunction, "function %s(%s) does not exist", name, args[0].Type())
		}
		f := map[string]func(float64) float64{"round": math.Round, "floor": math.Floor, "ceil": math.Ceil,
			"ceiling": math.Ceil, "trunc": math.Trunc, "sqrt": math.Sqrt}[name]
		return mk(sqltypes.TypeFloat8, func(_ *EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
			x := a[0].AsFloat()
			if name == "sqrt" && x < 0 {
				return sqltypes.Null, pgerr.New(pgerr.InvalidParameterValue, "cannot take square root of a negative number")
			}
			return sqltypes.NewFloat(f(x)), nil
		})
	case "coalesce":
		if len(args) == 0 {
			return nil, pgerr.New(pgerr.SyntaxError, "coalesce requires at least one argument")
		}
		typ := sqltypes.TypeUnknown
		for _, a := range args {
			if a.Type().ID != sqltypes.Unknown {
				typ = a.Type()
				break
			}
		}
		if typ.ID == sqltypes.Unknown {
			typ = sqltypes.TypeText
		}
		for i := range args {
			b.inferParam(args[i], typ)
			var err error
			if args[i], err = b.coerceTo(args[i], typ, false); err != nil {
				return nil, err
			}
		}
		return &Func{Name: name, Args: args, Typ: typ, lazy: evalCoalesce}, nil
	case "concat":
		// The || operator (TiDB spells it concat): NULL if any operand is.
		for i := range args {
			b.inferParam(args[i], sqltypes.TypeText)
		}
		return fold(&Func{Name: "||", Args: args, Typ: sqltypes.TypeText, fn: strict(func(_ *EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
			var sb strings.Builder
			for _, v := range a {
				sb.WriteString(textOf(v))
			}
			return sqltypes.NewText(sb.String()), nil
		})})
	case parser.ConcatFunc:
		name = "concat"
		for i := range args {
			b.inferParam(args[i], sqltypes.TypeText)
		}
		return fold(&Func{Name: name, Args: args, Typ: sqltypes.TypeText, fn: func(_ *EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
			var sb strings.Builder
			for _, v := range a {
				if !v.IsNull() {
					sb.WriteString(textOf(v))
				}
			}
			return sqltypes.NewText(sb.String()), nil
		}})
	case "current_setting":
		return nil, unsupported("current_setting() is not supported; use SHOW")
	}
	return nil, pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", name).
		WithHint("No function matches the given name and argument types.")
}

// strict wraps fn so any NULL argument gives NULL, as for most SQL functions.
func strict(fn func(*EvalContext, []sqltypes.Value) (sqltypes.Value, error)) func(*EvalContext, []sqltypes.Value) (sqltypes.Value, error) {
	return func(ctx *EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		for _, v := range a {
			if v.IsNull() {
				return sqltypes.Null, nil
			}
		}
		return fn(ctx, a)
	}
}

func evalCoalesce(ctx *EvalContext, row []sqltypes.Value, args []Expr) (sqltypes.Value, error) {
	for _, a := range args {
		v, err := a.Eval(ctx, row)
		if err != nil || !v.IsNull() {
			return v, err
		}
	}
	return sqltypes.Null, nil
}
