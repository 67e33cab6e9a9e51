package sqltypes

import "github.com/zproxy/zproxy/internal/pgerr"

// JSONObjectKey checks a json_object_agg / jsonb_object_agg key: not NULL,
// and a scalar (22023 otherwise, with PostgreSQL's messages).
func JSONObjectKey(k Value) error {
	switch k.K {
	case KindNull:
		return pgerr.New(pgerr.InvalidParameterValue, "field name must not be null")
	case KindJSON, KindJSONB, KindArray:
		return pgerr.New(pgerr.InvalidParameterValue, "key value must be scalar, not array, composite, or json")
	}
	return nil
}

// JSONObjectAgg is json_object_agg over keys and values alternating in
// kv: json text `{ "a" : 1, "b" : 2 }`, duplicate keys kept, as
// PostgreSQL prints it. No pairs give NULL.
func JSONObjectAgg(kv []Value) (Value, error) {
	if len(kv) == 0 {
		return Null, nil
	}
	w := newJSONOut(nil)
	w.raw("{ ")
	w.pairs(kv)
	w.catenate(" }")
	return w.json()
}

// JSONInput is a value of type t as the JSON functions take it: a real
// with float4's digits (as a numeric), anything else as it is.
func JSONInput(t Type, v Value) Value {
	if t.ID == Float4 && v.K == KindFloat {
		if n, err := FloatToNumeric(v.F, 32); err == nil {
			return n
		}
	}
	return v
}

// JSONObjectKeys is json_object_keys / jsonb_object_keys (fn names the
// function in the error): the keys of a top-level object, in storage
// order (jsonb, unique) or input order (json, duplicates kept).
func JSONObjectKeys(v Value, fn string) ([]string, error) {
	j, err := jsonTree(v)
	if err != nil {
		return nil, err
	}
	switch j.Kind {
	case JSONObject:
		return append([]string(nil), j.Keys...), nil
	case JSONArray:
		return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot call %s on an array", fn)
	}
	return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot call %s on a scalar", fn)
}

// RowToJSON is a row as PostgreSQL's composite_to_json prints it:
// {"id":1,"name":"a"}, each column through to_json; 54000 past
// MaxAllocSize, as PostgreSQL's row_to_json fails.
func RowToJSON(names []string, types []Type, vals []Value) (Value, error) {
	return RowToJSONStyled(names, types, vals, Style{})
}

// RowToJSONStyled is RowToJSON in a session whose output settings are st
// (JSONInputStyled).
func RowToJSONStyled(names []string, types []Type, vals []Value, st Style) (Value, error) {
	w := newJSONOut(nil)
	w.row(names, types, vals, st)
	return w.json()
}

// row appends a row as composite_to_json does.
func (w *jsonOut) row(names []string, types []Type, vals []Value, st Style) {
	w.raw("{")
	for i, n := range names {
		if i > 0 {
			w.raw(",")
		}
		w.str(n)
		w.raw(":")
		w.toJSON(JSONInputStyled(types[i], vals[i], st))
	}
	w.raw("}")
}

// JSONAggRows is json_agg of rows (composite values): elements separated
// by ", " and a line break before each row but the first, as PostgreSQL
// prints them; a NULL (a row an outer join null-extended) gets no break.
func JSONAggRows(rows []Value) (Value, error) {
	return jsonAggText(rows, func(v Value) bool { return !v.IsNull() })
}
