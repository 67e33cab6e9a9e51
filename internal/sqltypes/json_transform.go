package sqltypes

// TransformJSONStrings is PostgreSQL's transform_json_string_values: v
// (json or jsonb) with each string value, not the objects' keys, replaced
// by f's result and the structure kept. json comes out as its semantic
// actions emit it (no whitespace, keys in their order, duplicates kept,
// numbers as written).
func TransformJSONStrings(v Value, f func(string) (string, error)) (Value, error) {
	j, err := jsonTree(v)
	if err != nil {
		return Null, err
	}
	out, err := transformJSONStrings(j, f)
	if err != nil {
		return Null, err
	}
	if v.K == KindJSONB {
		return NewJSONB(out), nil
	}
	return NewJSON(string(appendCompactJSON(nil, out, false))), nil
}

// transformJSONStrings copies j with its string values through f (j is
// shared, so it is not changed in place).
func transformJSONStrings(j *JSONValue, f func(string) (string, error)) (*JSONValue, error) {
	switch j.Kind {
	case JSONString:
		s, err := f(j.Str)
		if err != nil {
			return nil, err
		}
		return &JSONValue{Kind: JSONString, Str: s}, nil
	case JSONArray, JSONObject:
		c := *j
		c.Elems = make([]JSONValue, len(j.Elems))
		for i := range j.Elems {
			e, err := transformJSONStrings(&j.Elems[i], f)
			if err != nil {
				return nil, err
			}
			c.Elems[i] = *e
		}
		return &c, nil
	}
	return j, nil
}
