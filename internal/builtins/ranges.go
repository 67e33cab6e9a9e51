package builtins

import (
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// AnyRange is PostgreSQL's anyrange: a parameter only a range type's
// values match, all the call's anyrange arguments of one range type
// (sqltypes/range.go).
const AnyRange Pseudo = 3831

// rangeArg is the type of the call's first range argument to an anyrange
// parameter (Unknown when it has none).
func rangeArg(o *Overload, args []sqltypes.Type) sqltypes.Type {
	return pseudoArg(o, args, AnyRange, sqltypes.Type.IsRange)
}

// pseudoArg is the type of the call's first argument of a kind (is) to a
// parameter of pseudo-type pseudo (Unknown when it has none).
func pseudoArg(o *Overload, args []sqltypes.Type, pseudo Pseudo, is func(sqltypes.Type) bool) sqltypes.Type {
	for i, a := range args {
		if p := paramAt(o, i); p.Pseudo == pseudo && is(a) {
			return a
		}
	}
	return sqltypes.TypeUnknown
}

// rangeTypes are the built-in range types, each with its subtype.
var rangeTypes = []sqltypes.TypeID{sqltypes.Int4Range, sqltypes.Int8Range, sqltypes.NumRange, sqltypes.TsRange, sqltypes.TstzRange, sqltypes.DateRange}

// The operators of the user-defined range types are registered once for
// all of them, on parameters of ID UserRange and UserMultirange (which
// every such type has) and an element parameter of any type: the call's
// user-defined range operands must all be of one definition
// (userRangesAgree), the arguments keep their definitions (resolved) and
// the results take it from them (rangeResult, multirangeResult). The
// planner checks the element's type against the subtype
// (RangeElemMismatch).
var (
	userRange      = sqltypes.Type{ID: sqltypes.UserRange}
	userMultirange = sqltypes.Type{ID: sqltypes.UserMultirange}
)

// rangeParam is the parameter of a range operator's operand of type t:
// the element parameter of a user-defined range's operators is any type.
func rangeParam(t sqltypes.Type) Param {
	if t.ID == sqltypes.Unknown {
		return Param{Any: true, Pseudo: AnyElement}
	}
	return T(t)
}

// isUserRangeParam reports whether t is the parameter type of the
// user-defined ranges' operators (no definition of its own).
func isUserRangeParam(t sqltypes.Type) bool {
	return t.Range == nil && (t.ID == sqltypes.UserRange || t.ID == sqltypes.UserMultirange)
}

// userRangesAgree reports whether the call's user-defined range and
// multirange arguments are all of one definition.
func userRangesAgree(args []sqltypes.Type) bool {
	var oid uint32
	for _, a := range args {
		if a.Range == nil || a.ID != sqltypes.UserRange && a.ID != sqltypes.UserMultirange {
			continue
		}
		if oid != 0 && a.Range.OID != oid {
			return false
		}
		oid = a.Range.OID
	}
	return true
}

// rangeResult is the result type rt of a range operator, or for the
// user-defined ranges' the range type of the arguments.
func rangeResult(rt sqltypes.Type) func([]sqltypes.Type) sqltypes.Type {
	if !isUserRangeParam(rt) {
		return Returns(rt)
	}
	return func(ts []sqltypes.Type) sqltypes.Type {
		for _, t := range ts {
			switch t.ID {
			case sqltypes.UserRange:
				return t
			case sqltypes.UserMultirange:
				return sqltypes.MultirangeRange(t)
			}
		}
		return rt
	}
}

// multirangeResult is rangeResult's multirange counterpart.
func multirangeResult(mt sqltypes.Type) func([]sqltypes.Type) sqltypes.Type {
	if !isUserRangeParam(mt) {
		return Returns(mt)
	}
	r := rangeResult(userRange)
	return func(ts []sqltypes.Type) sqltypes.Type { return sqltypes.MultirangeOf(r(ts)) }
}

// The range types' functions and operators. The operators are typed per
// range type (int4range @> integer, ...), which is how PostgreSQL resolves
// its anyrange operators: the element operand must be of the range's
// subtype exactly (the planner checks that, as no implicit cast applies to
// a polymorphic operand).
func init() {
	anyRange := Param{Any: true, Pseudo: AnyRange}
	unary := func(doc string, result func([]sqltypes.Type) sqltypes.Type, ret Pseudo, f func(r *sqltypes.RangeValue) sqltypes.Value) Overload {
		return Overload{Params: []Param{anyRange}, Result: result, ResultPseudo: ret, Doc: doc,
			Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) { return f(a[0].Range()), nil }}
	}
	subtype := func(ts []sqltypes.Type) sqltypes.Type { return sqltypes.RangeSubtype(ts[0]) }
	boolFn := func(name, doc string, f func(r *sqltypes.RangeValue) bool) {
		Register(name, unary(doc, Returns(tBool), 0, func(r *sqltypes.RangeValue) sqltypes.Value { return sqltypes.NewBool(f(r)) }))
	}
	Register("lower", unary("lower bound of range", subtype, AnyElement, sqltypes.RangeLower))
	Register("upper", unary("upper bound of range", subtype, AnyElement, sqltypes.RangeUpper))
	boolFn("isempty", "is the range empty?", func(r *sqltypes.RangeValue) bool { return r.Empty })
	boolFn("lower_inc", "is the range's lower bound inclusive?", func(r *sqltypes.RangeValue) bool { return r.LowerInc })
	boolFn("upper_inc", "is the range's upper bound inclusive?", func(r *sqltypes.RangeValue) bool { return r.UpperInc })
	boolFn("lower_inf", "is the range's lower bound infinite?", func(r *sqltypes.RangeValue) bool { return r.LowerInf })
	boolFn("upper_inf", "is the range's upper bound infinite?", func(r *sqltypes.RangeValue) bool { return r.UpperInf })
	Register("range_merge", Overload{Params: []Param{anyRange, anyRange}, Result: SameAsArg(0), ResultPseudo: AnyRange,
		Doc: "the smallest range which includes both of the given ranges",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.RangeUnion(a[0].Range(), a[1].Range(), false)
		}})
	Register("range_cmp", Overload{Params: []Param{anyRange, anyRange}, Result: Returns(tInt4), Doc: "less-equal-greater",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewInt(int64(sqltypes.CompareRanges(a[0].Range(), a[1].Range()))), nil
		}})

	RegisterAggregate(&Func{Name: "range_intersect_agg", Overloads: []Overload{
		Sig("range aggregate by intersecting", AnyRange, AnyRange),
		Sig("range aggregate by intersecting", AnyMultirange, AnyMultirange),
	}, Type: func(c *Call) (sqltypes.Type, error) {
		if len(c.Args) != 1 || !c.Args[0].IsRange() && !c.Args[0].IsMultirange() {
			return errNoOverload()
		}
		return c.Args[0], nil
	}})

	for _, id := range append(rangeTypes, sqltypes.UserRange) {
		rt, sub := sqltypes.Type{ID: id}, sqltypes.RangeSubtype(sqltypes.Type{ID: id})
		if id != sqltypes.UserRange {
			Register(rt.String(), RangeConstructors(rt)...)
		}

		op := func(name string, l, r, result sqltypes.Type, f func(x, y sqltypes.Value) (sqltypes.Value, error)) {
			res := Returns(result)
			if result.ID == sqltypes.UserRange {
				res = rangeResult(result)
			}
			RegisterOperator(name, Overload{Params: []Param{rangeParam(l), rangeParam(r)}, Result: res, Doc: "range operator",
				Binary: func(_ *Context, x, y sqltypes.Value) (sqltypes.Value, error) { return f(x, y) }})
		}
		both := func(name string, f func(x, y *sqltypes.RangeValue) bool) {
			op(name, rt, rt, tBool, func(x, y sqltypes.Value) (sqltypes.Value, error) {
				return sqltypes.NewBool(f(x.Range(), y.Range())), nil
			})
		}
		both("@>", sqltypes.RangeContains)
		both("<@", func(x, y *sqltypes.RangeValue) bool { return sqltypes.RangeContains(y, x) })
		both("&&", sqltypes.RangeOverlaps)
		both("<<", sqltypes.RangeBefore)
		both(">>", func(x, y *sqltypes.RangeValue) bool { return sqltypes.RangeBefore(y, x) })
		both("&<", sqltypes.RangeOverLeft)
		both("&>", sqltypes.RangeOverRight)
		both("-|-", sqltypes.RangeAdjacent)
		op("@>", rt, sub, tBool, func(x, y sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewBool(sqltypes.RangeContainsElem(x.Range(), y)), nil
		})
		op("<@", sub, rt, tBool, func(x, y sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewBool(sqltypes.RangeContainsElem(y.Range(), x)), nil
		})
		op("+", rt, rt, rt, func(x, y sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.RangeUnion(x.Range(), y.Range(), true)
		})
		op("*", rt, rt, rt, func(x, y sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.RangeIntersect(x.Range(), y.Range())
		})
		op("-", rt, rt, rt, func(x, y sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.RangeMinus(x.Range(), y.Range())
		})
	}
}

// RangeConstructors are the constructor functions of the range type rt:
// rt(lower, upper) and rt(lower, upper, flags). They take NULL bounds
// (infinite); a NULL flags argument is an error.
func RangeConstructors(rt sqltypes.Type) []Overload {
	sub := sqltypes.RangeSubtype(rt)
	two := Overload{Params: []Param{T(sub), T(sub)}, Result: Returns(rt), CalledOnNull: true, Doc: rt.String() + " constructor",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.ConstructRange(rt, a[0], a[1], "[)")
		}}
	three := Overload{Params: []Param{T(sub), T(sub), T(sqltypes.TypeText)}, Result: Returns(rt), CalledOnNull: true, Doc: rt.String() + " constructor",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			if a[2].IsNull() {
				return sqltypes.Null, pgerr.New(pgerr.DataException, "range constructor flags argument must not be null")
			}
			return sqltypes.ConstructRange(rt, a[0], a[1], a[2].S)
		}}
	return []Overload{two, three}
}

// RangeElemMismatch reports whether l op r is a range's containment of
// an element of another type than its subtype (int8range @> integer),
// which PostgreSQL's polymorphic operators do not take.
func RangeElemMismatch(op string, l, r sqltypes.Type) bool {
	if op == "<@" {
		l, r = r, l
	}
	if l.IsMultirange() {
		l = sqltypes.MultirangeRange(l)
	}
	if op != "@>" && op != "<@" || !l.IsRange() || r.IsRange() || r.IsMultirange() || r.ID == sqltypes.Unknown {
		return false
	}
	return !r.StripDomain().Same(sqltypes.RangeSubtype(l).StripDomain())
}
