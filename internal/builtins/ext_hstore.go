package builtins

import (
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The hstore extension's functions (version 1.8). zproxy has the
// extension built in (catalog/pgcatalog/extensions.go); the type and its
// operations are in package sqltypes (hstore.go, hstore_ops.go), and the
// operators (->, ?, ?|, ?&, @>, <@, ||, -) are bound by the planner
// (planner/hstore.go) onto the same operations.

func init() {
	hs := T(sqltypes.TypeHstore)
	text := T(sqltypes.TypeText)
	texts := T(sqltypes.ArrayOf(sqltypes.TypeText))
	tHstore := sqltypes.TypeHstore
	fn := func(params []Param, result sqltypes.Type, doc string, f func(a []sqltypes.Value) (sqltypes.Value, error)) Overload {
		return Overload{Params: params, Result: Returns(result), Volatility: Immutable, Doc: doc,
			Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) { return f(a) }}
	}
	hstoreOf := func(h *sqltypes.HstoreValue, err error) (sqltypes.Value, error) {
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewHstore(h), nil
	}

	// hstore(key, value) is not strict in its value: a NULL value makes
	// a pair with a NULL value (a NULL key gives NULL).
	pair := fn([]Param{text, text}, tHstore, "an hstore of one pair", func(a []sqltypes.Value) (sqltypes.Value, error) {
		if a[0].IsNull() {
			return sqltypes.Null, nil
		}
		return sqltypes.NewHstore(&sqltypes.HstoreValue{Pairs: []sqltypes.HstorePair{{Key: a[0].S, Val: a[1].S, Null: a[1].IsNull()}}}), nil
	})
	pair.CalledOnNull = true
	// hstore(keys, values): a NULL values array makes every value NULL.
	arrays := fn([]Param{texts, texts}, tHstore, "an hstore of keys and values from two arrays", func(a []sqltypes.Value) (sqltypes.Value, error) {
		if a[0].IsNull() {
			return sqltypes.Null, nil
		}
		var vals *sqltypes.ArrayValue
		if !a[1].IsNull() {
			vals = a[1].Array()
		}
		return hstoreOf(sqltypes.HstoreFromArrays(a[0].Array(), vals))
	})
	arrays.CalledOnNull = true
	Register("hstore", pair, arrays,
		fn([]Param{texts}, tHstore, "an hstore of an array of keys and values, alternating or in {key,value} rows", func(a []sqltypes.Value) (sqltypes.Value, error) {
			return hstoreOf(sqltypes.HstoreFromArray(a[0].Array()))
		}))

	Register("akeys", fn([]Param{hs}, sqltypes.ArrayOf(sqltypes.TypeText), "the hstore's keys as an array", func(a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.HstoreKeys(a[0].Hstore()), nil
	}))
	Register("avals", fn([]Param{hs}, sqltypes.ArrayOf(sqltypes.TypeText), "the hstore's values as an array", func(a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.HstoreVals(a[0].Hstore()), nil
	}))
	Register("hstore_to_array", fn([]Param{hs}, sqltypes.ArrayOf(sqltypes.TypeText), "the hstore's keys and values, alternating, as an array", func(a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.HstoreToArray(a[0].Hstore()), nil
	}))
	Register("hstore_to_matrix", fn([]Param{hs}, sqltypes.ArrayOf(sqltypes.TypeText), "the hstore's pairs as a two-dimensional array", func(a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.HstoreToMatrix(a[0].Hstore()), nil
	}))
	Register("hstore_to_json", fn([]Param{hs}, sqltypes.TypeJSON, "the hstore as a json object of strings and nulls", func(a []sqltypes.Value) (sqltypes.Value, error) {
		s, err := sqltypes.HstoreJSON(a[0].Hstore())
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewJSON(s), nil
	}))
	Register("hstore_to_jsonb", fn([]Param{hs}, sqltypes.TypeJSONB, "the hstore as a jsonb object of strings and nulls", func(a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewJSONB(sqltypes.HstoreJSONB(a[0].Hstore())), nil
	}))
	Register("hstore_to_json_loose", fn([]Param{hs}, sqltypes.TypeJSON, "the hstore as a json object, values that look like numbers or booleans as those", func(a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewJSON(sqltypes.HstoreJSONLoose(a[0].Hstore())), nil
	}))
	Register("hstore_to_jsonb_loose", fn([]Param{hs}, sqltypes.TypeJSONB, "the hstore as a jsonb object, values that look like numbers or booleans as those", func(a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewJSONB(sqltypes.HstoreJSONBLoose(a[0].Hstore())), nil
	}))
	exist := func(doc string) Overload {
		return fn([]Param{hs, text}, sqltypes.TypeBool, doc, func(a []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewBool(sqltypes.HstoreExists(a[0].Hstore(), a[1].S)), nil
		})
	}
	Register("exist", exist("whether the hstore has the key (the ? operator)"))
	Register("exists_any", fn([]Param{hs, texts}, sqltypes.TypeBool, "whether the hstore has any of the keys (the ?| operator)", func(a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewBool(sqltypes.HstoreExistsAny(a[0].Hstore(), a[1].Array())), nil
	}))
	Register("exists_all", fn([]Param{hs, texts}, sqltypes.TypeBool, "whether the hstore has all of the keys (the ?& operator)", func(a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewBool(sqltypes.HstoreExistsAll(a[0].Hstore(), a[1].Array())), nil
	}))
	Register("defined", fn([]Param{hs, text}, sqltypes.TypeBool, "whether the hstore has the key with a non-NULL value", func(a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewBool(sqltypes.HstoreDefined(a[0].Hstore(), a[1].S)), nil
	}))
	Register("fetchval", fn([]Param{hs, text}, sqltypes.TypeText, "the key's value (the -> operator)", func(a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.HstoreFetch(a[0].Hstore(), a[1].S), nil
	}))
	Register("slice_array", fn([]Param{hs, texts}, sqltypes.ArrayOf(sqltypes.TypeText), "the keys' values as an array (the -> operator)", func(a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.HstoreFetchArray(a[0].Hstore(), a[1].Array()), nil
	}))
	Register("slice", fn([]Param{hs, texts}, tHstore, "the hstore's pairs of the keys given", func(a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewHstore(sqltypes.HstoreSlice(a[0].Hstore(), a[1].Array())), nil
	}))
	Register("delete",
		fn([]Param{hs, text}, tHstore, "the hstore without the key", func(a []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewHstore(sqltypes.HstoreDeleteKey(a[0].Hstore(), a[1].S)), nil
		}),
		fn([]Param{hs, texts}, tHstore, "the hstore without the keys", func(a []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewHstore(sqltypes.HstoreDeleteKeys(a[0].Hstore(), a[1].Array())), nil
		}),
		fn([]Param{hs, hs}, tHstore, "the hstore without the pairs of the other", func(a []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewHstore(sqltypes.HstoreDeletePairs(a[0].Hstore(), a[1].Hstore())), nil
		}))
	Register("hs_concat", fn([]Param{hs, hs}, tHstore, "the pairs of both hstores, the second's value winning (the || operator)", func(a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewHstore(sqltypes.HstoreConcat(a[0].Hstore(), a[1].Hstore())), nil
	}))
	Register("hs_contains", fn([]Param{hs, hs}, sqltypes.TypeBool, "whether the first hstore has every pair of the second (the @> operator)", func(a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewBool(sqltypes.HstoreContains(a[0].Hstore(), a[1].Hstore())), nil
	}))
	Register("hs_contained", fn([]Param{hs, hs}, sqltypes.TypeBool, "whether the second hstore has every pair of the first (the <@ operator)", func(a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewBool(sqltypes.HstoreContains(a[1].Hstore(), a[0].Hstore())), nil
	}))

	// The set-returning functions: in FROM and in a select list.
	column := func(f func(h *sqltypes.HstoreValue) sqltypes.Value) func(*Context, []sqltypes.Value) (SetRows, error) {
		return func(_ *Context, a []sqltypes.Value) (SetRows, error) {
			return Column(f(a[0].Hstore()).Array().Elems), nil
		}
	}
	Register("skeys", Overload{Params: []Param{hs}, Result: Returns(sqltypes.TypeText), Volatility: Immutable, Doc: "the hstore's keys as a set",
		Set: &SetFunc{Rows: column(sqltypes.HstoreKeys)}})
	Register("svals", Overload{Params: []Param{hs}, Result: Returns(sqltypes.TypeText), Volatility: Immutable, Doc: "the hstore's values as a set",
		Set: &SetFunc{Rows: column(sqltypes.HstoreVals)}})
	Register("each", Overload{Params: []Param{hs}, Result: Returns(sqltypes.Type{ID: sqltypes.Record}), Volatility: Immutable,
		Doc: "the hstore's pairs as a set of (key, value) rows",
		Set: &SetFunc{Columns: []SetColumn{{Name: "key", Type: sqltypes.TypeText}, {Name: "value", Type: sqltypes.TypeText}},
			Rows: func(_ *Context, a []sqltypes.Value) (SetRows, error) {
				return Table(sqltypes.HstoreEach(a[0].Hstore())), nil
			}}})
}
