package builtins

import (
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// String (and json) functions the catalog queries of pgJDBC and SQLAlchemy
// call.
// Each is registered only if no other file registered it first (init
// functions run in file name order, and this file sorts after strings.go),
// so the full string library, when it has them, wins.
func init() {
	textT, intT := T(sqltypes.TypeText), T(sqltypes.TypeInt4)
	trim := func(left, right bool) func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		return func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			chars := " "
			if len(a) > 1 {
				chars = a[1].S
			}
			s := a[0].S
			if left {
				s = strings.TrimLeft(s, chars)
			}
			if right {
				s = strings.TrimRight(s, chars)
			}
			return sqltypes.NewText(s), nil
		}
	}
	for name, sides := range map[string][2]bool{"btrim": {true, true}, "ltrim": {true, false}, "rtrim": {false, true}} {
		if !Exists(name) {
			f := trim(sides[0], sides[1])
			Register(name, Overload{Params: []Param{textT}, Result: Returns(sqltypes.TypeText), Eval: f},
				Overload{Params: []Param{textT, textT}, Result: Returns(sqltypes.TypeText), Eval: f})
		}
	}
	if !Exists("json_build_object") {
		// SQLAlchemy's column reflection builds its identity options with it.
		Register("json_build_object", Overload{Params: []Param{AnyParam}, Variadic: true, Result: Returns(sqltypes.TypeJSON),
			CalledOnNull: true, Volatility: Stable, Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				return sqltypes.JSONBuildObject(a)
			}})
	}
	if !Exists("substring") {
		// substring(s, start [, count]), in characters.
		sub := func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			rs := []rune(a[0].S)
			start := a[1].I
			end := int64(len(rs)) + 1
			if len(a) > 2 {
				if a[2].I < 0 {
					return sqltypes.Null, pgerr.New(pgerr.SubstringError, "negative substring length not allowed")
				}
				end = start + a[2].I
			}
			lo, hi := max(start, 1), min(end, int64(len(rs))+1)
			if lo >= hi {
				return sqltypes.NewText(""), nil
			}
			return sqltypes.NewText(string(rs[lo-1 : hi-1])), nil
		}
		// substring(s FROM pattern): the part matching the regular
		// expression, or its first parenthesized subexpression.
		match := func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			re, err := CompileRegex(a[1].S, "")
			if err != nil {
				return sqltypes.Null, err
			}
			m := re.FindStringSubmatchIndex(a[0].S)
			switch {
			case m == nil:
				return sqltypes.Null, nil
			case len(m) > 2:
				if m[2] < 0 {
					return sqltypes.Null, nil
				}
				return sqltypes.NewText(a[0].S[m[2]:m[3]]), nil
			}
			return sqltypes.NewText(a[0].S[m[0]:m[1]]), nil
		}
		Register("substring", Overload{Params: []Param{textT, intT}, Result: Returns(sqltypes.TypeText), Eval: sub},
			Overload{Params: []Param{textT, intT, intT}, Result: Returns(sqltypes.TypeText), Eval: sub},
			Overload{Params: []Param{textT, textT}, Result: Returns(sqltypes.TypeText), Eval: match})
	}
	if !Exists("replace") {
		Register("replace", Overload{Params: []Param{textT, textT, textT}, Result: Returns(sqltypes.TypeText),
			Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				if a[1].S == "" {
					return a[0], nil
				}
				return sqltypes.NewText(strings.ReplaceAll(a[0].S, a[1].S, a[2].S)), nil
			}})
	}
}
