package builtins

import (
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// AnyMultirange is PostgreSQL's anymultirange: a parameter only a
// multirange type's values match, all the call's anymultirange arguments
// of one type (sqltypes/multirange.go).
const AnyMultirange Pseudo = 4537

// multirangeArg is the type of the call's first multirange argument to an
// anymultirange parameter (Unknown when it has none).
func multirangeArg(o *Overload, args []sqltypes.Type) sqltypes.Type {
	return pseudoArg(o, args, AnyMultirange, sqltypes.Type.IsMultirange)
}

// The multirange types' functions and operators, as the ranges' are
// (ranges.go): functions over anymultirange, operators typed per
// multirange type.
func init() {
	anyMulti := Param{Any: true, Pseudo: AnyMultirange}
	unary := func(doc string, result func([]sqltypes.Type) sqltypes.Type, ret Pseudo, f func(m *sqltypes.MultirangeValue) sqltypes.Value) Overload {
		return Overload{Params: []Param{anyMulti}, Result: result, ResultPseudo: ret, Doc: doc,
			Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) { return f(a[0].Multirange()), nil }}
	}
	subtype := func(ts []sqltypes.Type) sqltypes.Type {
		return sqltypes.RangeSubtype(sqltypes.MultirangeRange(ts[0]))
	}
	rangeOf := func(ts []sqltypes.Type) sqltypes.Type { return sqltypes.MultirangeRange(ts[0]) }
	// The first range's lower bound and the last's upper: the span's.
	span := func(f func(r *sqltypes.RangeValue) sqltypes.Value) func(m *sqltypes.MultirangeValue) sqltypes.Value {
		return func(m *sqltypes.MultirangeValue) sqltypes.Value { return f(sqltypes.MultirangeSpan(m).Range()) }
	}
	flag := func(f func(r *sqltypes.RangeValue) bool) func(m *sqltypes.MultirangeValue) sqltypes.Value {
		return span(func(r *sqltypes.RangeValue) sqltypes.Value { return sqltypes.NewBool(f(r)) })
	}
	Register("lower", unary("lower bound of multirange", subtype, AnyElement, span(sqltypes.RangeLower)))
	Register("upper", unary("upper bound of multirange", subtype, AnyElement, span(sqltypes.RangeUpper)))
	Register("isempty", unary("is the multirange empty?", Returns(tBool), 0, func(m *sqltypes.MultirangeValue) sqltypes.Value {
		return sqltypes.NewBool(len(m.Ranges) == 0)
	}))
	Register("lower_inc", unary("is the multirange's lower bound inclusive?", Returns(tBool), 0, flag(func(r *sqltypes.RangeValue) bool { return r.LowerInc })))
	Register("upper_inc", unary("is the multirange's upper bound inclusive?", Returns(tBool), 0, flag(func(r *sqltypes.RangeValue) bool { return r.UpperInc })))
	Register("lower_inf", unary("is the multirange's lower bound infinite?", Returns(tBool), 0, flag(func(r *sqltypes.RangeValue) bool { return r.LowerInf })))
	Register("upper_inf", unary("is the multirange's upper bound infinite?", Returns(tBool), 0, flag(func(r *sqltypes.RangeValue) bool { return r.UpperInf })))
	Register("range_merge", unary("the smallest range which includes the whole multirange", rangeOf, AnyRange, sqltypes.MultirangeSpan))
	Register("multirange_cmp", Overload{Params: []Param{anyMulti, anyMulti}, Result: Returns(tInt4), Doc: "less-equal-greater",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewInt(int64(sqltypes.CompareMultiranges(a[0].Multirange(), a[1].Multirange()))), nil
		}})
	Register("multirange", Overload{Params: []Param{{Any: true, Pseudo: AnyRange}}, ResultPseudo: AnyMultirange,
		Result: func(ts []sqltypes.Type) sqltypes.Type { return sqltypes.MultirangeOf(ts[0]) },
		Doc:    "the multirange of a range",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			r := a[0].Range()
			return sqltypes.MakeMultirange(sqltypes.MultirangeOf(r.Typ), []*sqltypes.RangeValue{r})
		}})
	RegisterAggregate(&Func{Name: "range_agg", Overloads: []Overload{
		Sig("combine aggregate input into a multirange", AnyMultirange, AnyRange),
		Sig("combine aggregate input into a multirange", AnyMultirange, AnyMultirange),
	}, Type: func(c *Call) (sqltypes.Type, error) {
		switch {
		case len(c.Args) != 1:
		case c.Args[0].IsRange():
			return sqltypes.MultirangeOf(c.Args[0]), nil
		case c.Args[0].IsMultirange():
			return c.Args[0], nil
		}
		return errNoOverload()
	}})

	for _, rid := range append(rangeTypes, sqltypes.UserRange) {
		rt := sqltypes.Type{ID: rid}
		sub, mt := sqltypes.RangeSubtype(rt), sqltypes.MultirangeOf(rt)
		if rid == sqltypes.UserRange {
			mt = userMultirange
		} else {
			Register(mt.String(), MultirangeConstructors(mt)...)
		}

		op := func(name string, l, r, result sqltypes.Type, f func(x, y sqltypes.Value) (sqltypes.Value, error)) {
			res := Returns(result)
			if result.ID == sqltypes.UserMultirange {
				res = multirangeResult(result)
			}
			RegisterOperator(name, Overload{Params: []Param{rangeParam(l), rangeParam(r)}, Result: res, Doc: "multirange operator",
				Binary: func(_ *Context, x, y sqltypes.Value) (sqltypes.Value, error) { return f(x, y) }})
		}
		boolOp := func(name string, l, r sqltypes.Type, f func(x, y sqltypes.Value) bool) {
			op(name, l, r, tBool, func(x, y sqltypes.Value) (sqltypes.Value, error) { return sqltypes.NewBool(f(x, y)), nil })
		}
		mr := func(v sqltypes.Value) *sqltypes.MultirangeValue { return v.Multirange() }
		rg := func(v sqltypes.Value) *sqltypes.RangeValue { return v.Range() }
		boolOp("@>", mt, mt, func(x, y sqltypes.Value) bool { return sqltypes.MultirangeContains(mr(x), mr(y)) })
		boolOp("@>", mt, rt, func(x, y sqltypes.Value) bool { return sqltypes.MultirangeContainsRange(mr(x), rg(y)) })
		boolOp("@>", rt, mt, func(x, y sqltypes.Value) bool { return sqltypes.RangeContainsMultirange(rg(x), mr(y)) })
		boolOp("@>", mt, sub, func(x, y sqltypes.Value) bool { return sqltypes.MultirangeContainsElem(mr(x), y) })
		boolOp("<@", mt, mt, func(x, y sqltypes.Value) bool { return sqltypes.MultirangeContains(mr(y), mr(x)) })
		boolOp("<@", rt, mt, func(x, y sqltypes.Value) bool { return sqltypes.MultirangeContainsRange(mr(y), rg(x)) })
		boolOp("<@", mt, rt, func(x, y sqltypes.Value) bool { return sqltypes.RangeContainsMultirange(rg(y), mr(x)) })
		boolOp("<@", sub, mt, func(x, y sqltypes.Value) bool { return sqltypes.MultirangeContainsElem(mr(y), x) })
		boolOp("&&", mt, mt, func(x, y sqltypes.Value) bool { return sqltypes.MultirangeOverlaps(mr(x), mr(y)) })
		boolOp("&&", mt, rt, func(x, y sqltypes.Value) bool { return sqltypes.MultirangeOverlapsRange(mr(x), rg(y)) })
		boolOp("&&", rt, mt, func(x, y sqltypes.Value) bool { return sqltypes.MultirangeOverlapsRange(mr(y), rg(x)) })
		// The positional operators compare the multiranges' spans (an
		// empty multirange's is the empty range: never true).
		spanOf := func(v sqltypes.Value) *sqltypes.RangeValue {
			if v.K == sqltypes.KindMultirange {
				return sqltypes.MultirangeSpan(v.Multirange()).Range()
			}
			return v.Range()
		}
		for _, pos := range []struct {
			name string
			f    func(a, b *sqltypes.RangeValue) bool
		}{
			{"<<", sqltypes.RangeBefore},
			{">>", func(a, b *sqltypes.RangeValue) bool { return sqltypes.RangeBefore(b, a) }},
			{"&<", sqltypes.RangeOverLeft},
			{"&>", sqltypes.RangeOverRight},
			{"-|-", sqltypes.RangeAdjacent},
		} {
			f := pos.f
			for _, lr := range [][2]sqltypes.Type{{mt, mt}, {mt, rt}, {rt, mt}} {
				boolOp(pos.name, lr[0], lr[1], func(x, y sqltypes.Value) bool { return f(spanOf(x), spanOf(y)) })
			}
		}
		op("+", mt, mt, mt, func(x, y sqltypes.Value) (sqltypes.Value, error) { return sqltypes.MultirangeUnion(mr(x), mr(y)) })
		op("*", mt, mt, mt, func(x, y sqltypes.Value) (sqltypes.Value, error) { return sqltypes.MultirangeIntersect(mr(x), mr(y)) })
		op("-", mt, mt, mt, func(x, y sqltypes.Value) (sqltypes.Value, error) { return sqltypes.MultirangeMinus(mr(x), mr(y)) })
	}
}

// MultirangeConstructors are the constructor functions of the multirange
// type mt: mt(), mt(range) and mt(range, range, ...).
func MultirangeConstructors(mt sqltypes.Type) []Overload {
	rt := sqltypes.MultirangeRange(mt)
	constructor := func(params []Param) Overload {
		return Overload{Params: params, Result: Returns(mt), Doc: mt.String() + " constructor",
			Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				out := make([]*sqltypes.RangeValue, len(a))
				for i, v := range a {
					out[i] = v.Range()
				}
				return sqltypes.MakeMultirange(mt, out)
			}}
	}
	variadic := constructor([]Param{T(rt)})
	variadic.Variadic, variadic.MinArgs = true, 2
	// PostgreSQL's is strict in its array, whose NULL members are an
	// error: here the members are the arguments.
	variadic.CalledOnNull = true
	strictEval := variadic.Eval
	variadic.Eval = func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		for _, v := range a {
			if v.IsNull() {
				return sqltypes.Null, pgerr.New(pgerr.NullValueNotAllowed, "multirange values cannot contain null members")
			}
		}
		return strictEval(ctx, a)
	}
	return []Overload{constructor(nil), constructor([]Param{T(rt)}), variadic}
}
