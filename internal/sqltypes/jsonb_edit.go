package sqltypes

// The jsonb operators and functions that build a new document from old
// ones (||, -, #-, jsonb_set, jsonb_insert, jsonb_strip_nulls). Trees are
// shared, never modified: each builds the nodes on its changed path anew.

// asArrayElems is a document as the elements of an array: an array's own,
// anything else as the only element (PostgreSQL keeps a top-level scalar
// as a one-element array, and || treats an object the same way).
func asArrayElems(j *JSONValue) []JSONValue {
	if j.Kind == JSONArray {
		return j.Elems
	}
	return []JSONValue{*j}
}

// JSONBConcat is jsonb || jsonb: two objects merge (the right one's keys
// win); anything else concatenates as arrays.
func JSONBConcat(a, b Value) Value {
	x, y := a.JSONB(), b.JSONB()
	if x.Kind == JSONObject && y.Kind == JSONObject {
		out := &JSONValue{Kind: JSONObject,
			Keys:  append(append(make([]string, 0, len(x.Keys)+len(y.Keys)), x.Keys...), y.Keys...),
			Elems: append(append(make([]JSONValue, 0, len(x.Elems)+len(y.Elems)), x.Elems...), y.Elems...)}
		normalizeObject(out)
		return NewJSONB(out)
	}
	xe, ye := asArrayElems(x), asArrayElems(y)
	out := &JSONValue{Kind: JSONArray, Elems: append(append(make([]JSONValue, 0, len(xe)+len(ye)), xe...), ye...)}
	return NewJSONB(out)
}
