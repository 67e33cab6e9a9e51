package builtins

import (
	"strings"
	"sync"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Operators of PostgreSQL that are another spelling of something zproxy
// has: the prefix operators @ (abs), |/ (square root) and ||/ (cube root),
// and the text pattern comparisons ~<~ ~<=~ ~>=~ ~>~ (text_pattern_ops'
// operators, which compare bytes; zproxy's text compares bytes anyway).
// Session's TestOperatorsAgainstPostgres checks each against PostgreSQL's
// pg_operator.
func init() {
	prefixAlias("@", "abs", tInt2, tInt4, tInt8, tFloat4, tFloat8, tNumeric)
	prefixAlias("|/", "sqrt", tFloat8)
	prefixAlias("||/", "cbrt", tFloat8)
	patterns := map[string]func(c int) bool{
		"~<~":  func(c int) bool { return c < 0 },
		"~<=~": func(c int) bool { return c <= 0 },
		"~>=~": func(c int) bool { return c >= 0 },
		"~>~":  func(c int) bool { return c > 0 },
	}
	for op, holds := range patterns {
		RegisterOperator(op, binop(sqltypes.TypeText, sqltypes.TypeText, sqltypes.TypeBool, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewBool(holds(strings.Compare(a.S, b.S))), nil
		}))
		// bpchar_pattern_lt and its kin compare without the trailing
		// blanks, as character(n) compares.
		bpchar := sqltypes.Type{ID: sqltypes.BPChar}
		RegisterOperator(op, binop(bpchar, bpchar, sqltypes.TypeBool, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewBool(holds(strings.Compare(strings.TrimRight(a.S, " "), strings.TrimRight(b.S, " ")))), nil
		}))
	}
}

// prefixAlias registers the prefix operator op over each of types as the
// function fn's overload of that type. The overload is looked up at the
// first use, so that the order in which the package's files register
// their functions does not matter.
func prefixAlias(op, fn string, types ...sqltypes.Type) {
	for _, t := range types {
		impl := sync.OnceValue(func() *Overload {
			r, err := Resolve(fn, []sqltypes.Type{t})
			if err != nil || r.ArgTypes[0] != t {
				panic("builtins: " + op + " needs " + fn + "(" + t.String() + ")")
			}
			return r.Overload
		})
		RegisterOperator(op, Overload{Params: []Param{T(t)}, Result: Returns(t), Volatility: Immutable,
			Eval: func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) { return impl().Eval(ctx, a) }})
	}
}
