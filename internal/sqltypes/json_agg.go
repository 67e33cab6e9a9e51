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
func JSONObjectAgg(kv []Value) Value {
	if len(kv) == 0 {
		return Null
	}
	buf := []byte("{ ")
	for i := 0; i+1 < len(kv); i += 2 {
		if i > 0 {
			buf = append(buf, ", "...)
		}
		buf = appendJSONString(buf, jsonKeyText(kv[i]))
		buf = append(buf, " : "...)
		buf = AppendToJSON(buf, kv[i+1])
	}
	return NewJSON(string(append(buf, " }"...)))
}
