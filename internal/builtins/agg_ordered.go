package builtins

import (
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The ordered-set aggregates, f(direct args) WITHIN GROUP (ORDER BY x)
// (computed in executor/aggregate_stat.go). Their Type sees the direct
// arguments' types, then the sorted value's.

// fraction checks a percentile's fraction: double precision or an array
// of them (an untyped one has become double precision already).
func fraction(t sqltypes.Type) (array, ok bool) {
	switch {
	case t.IsArray() && t.ElemType().IsNumeric():
		return true, true
	case t.IsNumeric():
		return false, true
	}
	return false, false
}

func percentile(name string, cont bool, ovs ...Overload) *Func {
	return &Func{Name: name, OrderedSet: true, DirectArgs: 1, Overloads: ovs, Type: func(c *Call) (sqltypes.Type, error) {
		if len(c.Args) != 2 {
			return errNoOverload()
		}
		array, ok := fraction(c.Args[0])
		if !ok {
			return errNoOverload()
		}
		typ := c.Args[1]
		if cont {
			switch {
			case typ.IsNumeric():
				typ = tFloat8
			case typ.ID == sqltypes.Interval:
			default:
				return errNoOverload()
			}
		}
		if array {
			typ = sqltypes.ArrayOf(typ)
		}
		return typ, nil
	}}
}

func init() {
	const cont = "the value at the fraction of the sorted values, interpolated between neighbours"
	const contArray = "the values at the fractions of the sorted values, interpolated between neighbours"
	RegisterAggregate(percentile("percentile_cont", true,
		Sig(cont, tFloat8, tFloat8, tFloat8),
		Sig(cont, tInterval, tFloat8, tInterval),
		Sig(contArray, tFloat8Array, tFloat8Array, tFloat8),
		Sig(contArray, tIntervalArray, tFloat8Array, tInterval),
	))
	RegisterAggregate(percentile("percentile_disc", false,
		Sig("the first sorted value whose position reaches the fraction", AnyElement, tFloat8, AnyElement),
		Sig("the first sorted values whose positions reach the fractions", AnyArray, tFloat8Array, AnyElement),
	))
	RegisterAggregate(&Func{Name: "mode", OrderedSet: true, Overloads: []Overload{
		Sig("the most frequent value (the first in sort order among ties)", AnyElement, AnyElement),
	}, Type: func(c *Call) (sqltypes.Type, error) {
		if len(c.Args) != 1 {
			return errNoOverload()
		}
		return c.Args[0], nil
	}})
	// The hypothetical-set aggregates: where the row of the direct
	// arguments would fall among the group's rows sorted by the WITHIN
	// GROUP order. They share their names with the window functions.
	hypo := func(name, doc string, res sqltypes.Type) {
		RegisterAggregate(&Func{Name: name, OrderedSet: true, Hypothetical: true, Overloads: []Overload{
			{Params: []Param{{Any: true, Pseudo: AnyType}}, Variadic: true, MinArgs: 1, CalledOnNull: true, Result: Returns(res), Doc: doc},
		}, Type: func(*Call) (sqltypes.Type, error) { return res, nil }})
	}
	hypo("rank", "the rank of the hypothetical row, with gaps", tInt8)
	hypo("dense_rank", "the rank of the hypothetical row, without gaps", tInt8)
	hypo("percent_rank", "the relative rank of the hypothetical row, from 0 to 1", tFloat8)
	hypo("cume_dist", "the cumulative distribution of the hypothetical row: the rows before it or its peers, it included, over the rows", tFloat8)
}
