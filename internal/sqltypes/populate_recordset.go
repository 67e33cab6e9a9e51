package sqltypes

import "github.com/zproxy/zproxy/internal/pgerr"

// PopulateRecordset is json[b]_populate_recordset(base, doc) for the named
// composite type t: a record per object of the array doc, its fields from
// the object's keys and the others from base (as PopulateRecord). A NULL
// doc yields no record; fn names the function in errors, which differ
// between json and jsonb as PostgreSQL's do.
func PopulateRecordset(fn string, t Type, base, doc Value) ([]Value, error) {
	if doc.IsNull() {
		return nil, nil
	}
	j, err := jsonTree(doc)
	if err != nil {
		return nil, err
	}
	if j.Kind != JSONArray {
		what := "a non-array"
		if doc.K != KindJSONB {
			what = "a scalar"
			if j.Kind == JSONObject {
				what = "an object"
			}
		}
		return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot call %s on %s", fn, what)
	}
	out := make([]Value, 0, len(j.Elems))
	for i := range j.Elems {
		if j.Elems[i].Kind != JSONObject {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "argument of %s must be an array of objects", fn)
		}
		r, err := populateComposite(t, base, &j.Elems[i])
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}
