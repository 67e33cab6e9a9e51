package builtins

import (
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The general-purpose aggregates: count, sum, avg, min, max, the boolean
// ones, string_agg and array_agg (computed in executor/aggregate.go and
// executor/sumagg.go), typed as PostgreSQL 15 types them.

var (
	tBytea, tBool    = sqltypes.TypeBytea, sqltypes.TypeBool
	tJSON, tJSONB    = sqltypes.TypeJSON, sqltypes.TypeJSONB
	tFloat8Array     = sqltypes.ArrayOf(sqltypes.TypeFloat8)
	tIntervalArray   = sqltypes.ArrayOf(sqltypes.TypeInterval)
	numericAggInputs = []sqltypes.Type{tInt8, tInt4, tInt2, tFloat4, tFloat8, tNumeric}
	sameType         = func(t sqltypes.Type) any { return t }
	minMaxInputs     = []sqltypes.Type{tInt8, tInt4, tInt2, {ID: sqltypes.Oid}, tFloat4, tFloat8, tDate, {ID: sqltypes.Time}, {ID: sqltypes.TimeTZ}, tTS, tTSTZ, tInterval, tText, tNumeric, sqltypes.TypeBPChar, tMoney, sqltypes.TypeInet, tPgLSN, tXID8, tTID}
	errNoOverload    = func() (sqltypes.Type, error) { return sqltypes.Type{}, ErrNoOverload }
)

// wantArgs is PostgreSQL's error for a call with the wrong number of
// arguments of an aggregate that has one arity.
func wantArgs(name string, n int, c *Call) error {
	if len(c.Args) != n {
		return NoFunction(name, c.Args)
	}
	return nil
}

// sumAvgType is the result type of sum and avg, as PostgreSQL's catalog
// has them: sum(smallint or integer) is bigint, sum(bigint) and the
// average of any integer numeric, sum(real) real, avg(real) double
// precision; numeric, double precision and interval keep their type.
func sumAvgType(sum bool, arg sqltypes.Type) (sqltypes.Type, bool) {
	switch arg.ID {
	case sqltypes.Int2, sqltypes.Int4:
		if sum {
			return tInt8, true
		}
		return tNumeric, true
	case sqltypes.Int8, sqltypes.Numeric:
		return tNumeric, true
	case sqltypes.Float4:
		if sum {
			return tFloat4, true
		}
		return tFloat8, true
	case sqltypes.Float8:
		return tFloat8, true
	case sqltypes.Interval:
		return tInterval, true
	case sqltypes.Money:
		if sum {
			return tMoney, true
		}
	}
	return sqltypes.Type{}, false
}

func sumAvg(name string) *Func {
	sum := name == "sum"
	doc := "the sum of the non-NULL values"
	if !sum {
		doc = "the average (arithmetic mean) of the non-NULL values"
	}
	var ovs []Overload
	for _, t := range []sqltypes.Type{tInt8, tInt4, tInt2, tFloat4, tFloat8, tInterval, tNumeric, tMoney} {
		r, ok := sumAvgType(sum, t)
		if !ok {
			continue // no avg(money)
		}
		ovs = append(ovs, Sig(doc, r, t))
	}
	return &Func{Name: name, Overloads: ovs, Type: func(c *Call) (sqltypes.Type, error) {
		if err := wantArgs(name, 1, c); err != nil {
			return sqltypes.Type{}, err
		}
		if t, ok := sumAvgType(sum, c.Args[0]); ok {
			return t, nil
		}
		return errNoOverload()
	}}
}

func minMax(name string) *Func {
	doc := "the least non-NULL value"
	if name == "max" {
		doc = "the greatest non-NULL value"
	}
	ovs := []Overload{Sig(doc, AnyArray, AnyArray), Sig(doc, AnyEnum, AnyEnum)}
	ovs = append(ovs, sigs(doc, sameType, minMaxInputs...)...)
	return &Func{Name: name, Overloads: ovs, Type: func(c *Call) (sqltypes.Type, error) {
		if err := wantArgs(name, 1, c); err != nil {
			return sqltypes.Type{}, err
		}
		switch c.Args[0].ID {
		case sqltypes.Bool, sqltypes.Bytea, sqltypes.UUID, sqltypes.JSON, sqltypes.JSONB, sqltypes.Bit, sqltypes.VarBit, sqltypes.MacAddr, sqltypes.MacAddr8,
			sqltypes.Ltree, sqltypes.Lquery, sqltypes.Ltxtquery:
			// PostgreSQL has no min or max of these types.
			return errNoOverload()
		case sqltypes.Cidr:
			return sqltypes.TypeInet, nil // max(inet), through cidr's implicit cast
		case sqltypes.Varchar, sqltypes.Name:
			return tText, nil // max(text), through the implicit cast
		}
		if c.Args[0].IsRange() || sqltypes.IsGeo(c.Args[0].ID) {
			return errNoOverload() // nor of ranges and the geometric types
		}
		return c.Args[0], nil
	}}
}

func boolAgg(name, doc string) *Func {
	return &Func{Name: name, Overloads: []Overload{Sig(doc, tBool, tBool)}, Type: func(c *Call) (sqltypes.Type, error) {
		if len(c.Args) != 1 || c.Args[0].ID != sqltypes.Bool {
			return errNoOverload()
		}
		return tBool, nil
	}}
}

func init() {
	RegisterAggregate(&Func{Name: "count", Overloads: []Overload{
		Sig("the number of input rows", tInt8),
		Sig("the number of input rows in which the argument is not NULL", tInt8, AnyType),
	}, Type: func(c *Call) (sqltypes.Type, error) {
		// count(*) is typed by the planner; this is count(x).
		if err := wantArgs("count", 1, c); err != nil {
			return sqltypes.Type{}, err
		}
		return tInt8, nil
	}})
	RegisterAggregate(sumAvg("sum"))
	RegisterAggregate(sumAvg("avg"))
	RegisterAggregate(minMax("min"))
	RegisterAggregate(minMax("max"))
	RegisterAggregate(boolAgg("bool_and", "true if all the non-NULL values are true"))
	RegisterAggregate(boolAgg("bool_or", "true if any non-NULL value is true"))
	RegisterAggregate(boolAgg("every", "true if all the non-NULL values are true (bool_and)"))
	RegisterAggregate(&Func{Name: "string_agg", Overloads: []Overload{
		Sig("the non-NULL values concatenated, separated by the delimiter", tText, tText, tText),
		Sig("the non-NULL values concatenated, separated by the delimiter", tBytea, tBytea, tBytea),
	}, Type: func(c *Call) (sqltypes.Type, error) {
		if err := wantArgs("string_agg", 2, c); err != nil {
			return sqltypes.Type{}, err
		}
		switch c.Args[0].Kind() {
		case sqltypes.KindText:
			return tText, nil // string_agg(text, text), varchar through its implicit cast
		case sqltypes.KindBytes:
			return c.Args[0], nil
		}
		return errNoOverload()
	}})
	RegisterAggregate(&Func{Name: "array_agg", Overloads: []Overload{
		Sig("the values, NULLs included, as an array", AnyArray, AnyNonArray),
		Sig("the arrays, of one shape, as an array of one more dimension", AnyArray, AnyArray),
	}, Type: func(c *Call) (sqltypes.Type, error) {
		if len(c.Args) != 1 {
			return errNoOverload()
		}
		t := c.Args[0]
		if t.ID == sqltypes.Unknown {
			t = tText
		}
		if t.ID == sqltypes.Array {
			return t, nil // array_agg(anyarray): of the same array type
		}
		return sqltypes.ArrayOf(t), nil
	}})
}
