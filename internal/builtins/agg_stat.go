package builtins

import (
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The statistical, bitwise and json aggregates (computed in
// executor/aggregate_stat.go), typed as PostgreSQL 15 types them.

func varianceAgg(name, doc string) *Func {
	res := func(t sqltypes.Type) any {
		if t.Kind() == sqltypes.KindFloat {
			return tFloat8
		}
		return tNumeric
	}
	return &Func{Name: name, Overloads: sigs(doc, res, numericAggInputs...), Type: func(c *Call) (sqltypes.Type, error) {
		if len(c.Args) != 1 || !c.Args[0].IsNumeric() {
			return errNoOverload()
		}
		if c.Args[0].Kind() == sqltypes.KindFloat {
			return tFloat8, nil
		}
		return tNumeric, nil // integers and numerics, exactly
	}}
}

// regrAgg is an aggregate of (Y, X) pairs as double precision.
func regrAgg(name, doc string) *Func {
	res := tFloat8
	if name == "regr_count" {
		res = tInt8
	}
	return &Func{Name: name, Overloads: []Overload{Sig(doc, res, tFloat8, tFloat8)}, Type: func(c *Call) (sqltypes.Type, error) {
		if len(c.Args) != 2 || !c.Args[0].IsNumeric() || !c.Args[1].IsNumeric() {
			return errNoOverload()
		}
		return res, nil
	}}
}

func bitAgg(name, doc string) *Func {
	return &Func{Name: name, Overloads: sigs(doc, sameType, tInt2, tInt4, tInt8, tBit), Type: func(c *Call) (sqltypes.Type, error) {
		if len(c.Args) != 1 || c.Args[0].Kind() != sqltypes.KindInt && c.Args[0].Kind() != sqltypes.KindBit {
			return errNoOverload()
		}
		if c.Args[0].ID == sqltypes.VarBit {
			return tBit, nil // bit varying reaches bit_and(bit) by its implicit cast
		}
		return c.Args[0], nil
	}}
}

// jsonAgg is json_agg and json_object_agg (nargs 1 and 2) of result res.
func jsonAgg(name, doc string, res sqltypes.Type, vol Volatility) *Func {
	ov := Sig(doc, res, AnyElement)
	nargs := 1
	if name == "json_object_agg" || name == "jsonb_object_agg" {
		ov, nargs = Sig(doc, res, AnyType, AnyType), 2
	}
	return &Func{Name: name, Overloads: []Overload{ov.WithVolatility(vol)}, Type: func(c *Call) (sqltypes.Type, error) {
		if len(c.Args) != nargs {
			return errNoOverload()
		}
		return res, nil
	}}
}

func init() {
	for _, f := range []*Func{
		varianceAgg("stddev", "the sample standard deviation of the non-NULL values (stddev_samp)"),
		varianceAgg("stddev_samp", "the sample standard deviation of the non-NULL values"),
		varianceAgg("stddev_pop", "the population standard deviation of the non-NULL values"),
		varianceAgg("variance", "the sample variance of the non-NULL values (var_samp)"),
		varianceAgg("var_samp", "the sample variance of the non-NULL values"),
		varianceAgg("var_pop", "the population variance of the non-NULL values"),
		regrAgg("corr", "the correlation coefficient of the (Y, X) pairs"),
		regrAgg("covar_pop", "the population covariance of the (Y, X) pairs"),
		regrAgg("covar_samp", "the sample covariance of the (Y, X) pairs"),
		regrAgg("regr_avgx", "the average of X over the (Y, X) pairs"),
		regrAgg("regr_avgy", "the average of Y over the (Y, X) pairs"),
		regrAgg("regr_count", "the number of (Y, X) pairs in which both are non-NULL"),
		regrAgg("regr_intercept", "the y-intercept of the least-squares line through the (Y, X) pairs"),
		regrAgg("regr_r2", "the square of the correlation coefficient of the (Y, X) pairs"),
		regrAgg("regr_slope", "the slope of the least-squares line through the (Y, X) pairs"),
		regrAgg("regr_sxx", "the sum of squares of the deviations of X"),
		regrAgg("regr_sxy", "the sum of products of the deviations of X and Y"),
		regrAgg("regr_syy", "the sum of squares of the deviations of Y"),
		bitAgg("bit_and", "the bitwise AND of the non-NULL values"),
		bitAgg("bit_or", "the bitwise OR of the non-NULL values"),
		bitAgg("bit_xor", "the bitwise exclusive OR of the non-NULL values"),
		jsonAgg("json_agg", "the values, NULLs included, as a json array", tJSON, Stable),
		jsonAgg("jsonb_agg", "the values, NULLs included, as a jsonb array", tJSONB, Stable),
		jsonAgg("json_object_agg", "the key/value pairs as a json object", tJSON, Stable),
		jsonAgg("jsonb_object_agg", "the key/value pairs as a jsonb object", tJSONB, Immutable),
	} {
		RegisterAggregate(f)
	}
}
