package builtins

import (
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// AnyEnum is PostgreSQL's anyenum: a parameter only an enum type's values
// match (sqltypes/enum.go).
const AnyEnum Pseudo = 3500

// The support functions of enum types. enum_first, enum_last and
// enum_range read the labels of their argument's type, so they are Typed:
// enum_range(NULL::mood) needs no value of the type.
func init() {
	enumOf := func(ts []sqltypes.Type) *sqltypes.EnumType { return ts[0].Enum }
	anyEnum := Param{Any: true, Pseudo: AnyEnum}
	typed := func(doc string, ret Pseudo, result func([]sqltypes.Type) sqltypes.Type, n int,
		f func(e *sqltypes.EnumType, args []sqltypes.Value) (sqltypes.Value, error)) Overload {
		params := make([]Param, n)
		for i := range params {
			params[i] = anyEnum
		}
		return Overload{Params: params, Result: result, ResultPseudo: ret, CalledOnNull: true, Volatility: Stable, Doc: doc,
			Typed: func(ts []sqltypes.Type) func(*Context, []sqltypes.Value) (sqltypes.Value, error) {
				e := enumOf(ts)
				return func(_ *Context, args []sqltypes.Value) (sqltypes.Value, error) {
					if e == nil {
						return sqltypes.Null, pgerr.New(pgerr.UndefinedFunction, "could not determine actual enum type")
					}
					return f(e, args)
				}
			}}
	}
	arrayOf0 := func(ts []sqltypes.Type) sqltypes.Type { return sqltypes.ArrayOf(ts[0]) }
	end := func(last bool) func(e *sqltypes.EnumType, _ []sqltypes.Value) (sqltypes.Value, error) {
		return func(e *sqltypes.EnumType, _ []sqltypes.Value) (sqltypes.Value, error) {
			if len(e.Labels) == 0 {
				return sqltypes.Null, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "enum %s contains no values", e.TypeName())
			}
			l := e.Labels[0]
			if last {
				l = e.Labels[len(e.Labels)-1]
			}
			if err := e.Safe(l); err != nil {
				return sqltypes.Null, err
			}
			return e.Value(l), nil
		}
	}
	Register("enum_first", typed("first value of the input enum type", AnyEnum, SameAsArg(0), 1, end(false)))
	Register("enum_last", typed("last value of the input enum type", AnyEnum, SameAsArg(0), 1, end(true)))
	Register("enum_range",
		typed("range of the given enum type, as an ordered array", AnyArray, arrayOf0, 1, func(e *sqltypes.EnumType, _ []sqltypes.Value) (sqltypes.Value, error) {
			return enumRange(e, sqltypes.Null, sqltypes.Null)
		}),
		typed("range between the two given enum values, as an ordered array", AnyArray, arrayOf0, 2, func(e *sqltypes.EnumType, args []sqltypes.Value) (sqltypes.Value, error) {
			return enumRange(e, args[0], args[1])
		}))

	// The comparison functions behind the enum operators, callable by
	// name as in PostgreSQL.
	cmpFn := func(name, doc string, res func(c int) sqltypes.Value, ret sqltypes.Type) {
		Register(name, Overload{Params: []Param{anyEnum, anyEnum}, Result: Returns(ret), Doc: doc,
			Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				return res(sqltypes.Compare(a[0], a[1])), nil
			}})
	}
	cmpFn("enum_cmp", "less-equal-greater", func(c int) sqltypes.Value { return sqltypes.NewInt(int64(c)) }, tInt4)
	cmpFn("enum_eq", "implementation of = operator", func(c int) sqltypes.Value { return sqltypes.NewBool(c == 0) }, tBool)
	cmpFn("enum_ne", "implementation of <> operator", func(c int) sqltypes.Value { return sqltypes.NewBool(c != 0) }, tBool)
	cmpFn("enum_lt", "implementation of < operator", func(c int) sqltypes.Value { return sqltypes.NewBool(c < 0) }, tBool)
	cmpFn("enum_le", "implementation of <= operator", func(c int) sqltypes.Value { return sqltypes.NewBool(c <= 0) }, tBool)
	cmpFn("enum_gt", "implementation of > operator", func(c int) sqltypes.Value { return sqltypes.NewBool(c > 0) }, tBool)
	cmpFn("enum_ge", "implementation of >= operator", func(c int) sqltypes.Value { return sqltypes.NewBool(c >= 0) }, tBool)
	pick := func(name, doc string, larger bool) {
		Register(name, Overload{Params: []Param{anyEnum, anyEnum}, Result: SameAsArg(0), ResultPseudo: AnyEnum, Doc: doc,
			Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				if c := sqltypes.Compare(a[0], a[1]); c > 0 == larger && c != 0 {
					return a[0], nil
				}
				return a[1], nil
			}})
	}
	Register("enum_send", Overload{Params: []Param{anyEnum}, Result: Returns(tBytea), Volatility: Stable, Doc: "I/O",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewBytes([]byte(a[0].S)), nil // an enum's binary form is its label
		}})
	pick("enum_larger", "larger of two", true)
	pick("enum_smaller", "smaller of two", false)
}

// enumRange is the labels of e from lo to hi (a NULL end is open), as
// an array of e.
func enumRange(e *sqltypes.EnumType, lo, hi sqltypes.Value) (sqltypes.Value, error) {
	elems := make([]sqltypes.Value, 0, len(e.Labels))
	for _, l := range e.Labels {
		if !lo.IsNull() && l.Order < lo.F || !hi.IsNull() && l.Order > hi.F {
			continue
		}
		if err := e.Safe(l); err != nil {
			return sqltypes.Null, err
		}
		elems = append(elems, e.Value(l))
	}
	return sqltypes.NewArray1(sqltypes.EnumOf(e), elems), nil
}
