package sqltypes

import (
	"strings"
	"testing"
)

func textPath(p string) Value {
	if p == "" {
		return pathOf(nil)
	}
	return pathOf(strings.Split(p, ","))
}

func pathOf(parts []string) Value {
	elems := make([]Value, len(parts))
	for i, s := range parts {
		elems[i] = NewText(s)
	}
	return NewArray1(TypeText, elems)
}

// FuzzJSONBEdit runs the jsonb editing functions on arbitrary documents
// and paths: they never panic, jsonb_pretty reads back as the document,
// jsonb_set (creating) makes the path lead to the new value whenever the
// path's parent exists, and #- makes it lead nowhere.
func FuzzJSONBEdit(f *testing.F) {
	for _, s := range [][2]string{
		{`{"a": [1, {"b": null}], "c": {}}`, "a,1,b"}, {`[1, 2, 3]`, "-1"}, {`[1, 2, 3]`, "-9"}, {`[]`, "0"},
		{`{"a": 1}`, "a,b"}, {`{"a": {"b": [true]}}`, "a,b,5"}, {`"s"`, "a"}, {`{}`, ""}, {`[[]]`, "0,x"},
	} {
		f.Add(s[0], s[1])
	}
	newval, _ := ParseJSONB(`{"new": [1]}`)
	f.Fuzz(func(t *testing.T, doc, path string) {
		j, err := ParseJSONB(doc)
		if err != nil {
			return
		}
		v, p := NewJSONB(j), textPath(path)
		text, err := JSONBPretty(v)
		if err != nil {
			t.Fatal(err)
		}
		pretty, err := ParseJSONB(text)
		if err != nil || CompareJSONB(pretty, j) != 0 {
			t.Fatalf("jsonb_pretty(%s) reads back as %v (%v)", doc, pretty, err)
		}
		JSONBStripNulls(v)
		JSONBInsert(v, p, NewJSONB(newval), true)
		set, err := JSONBSet(v, p, NewJSONB(newval), true)
		if err == nil && path != "" {
			parts := strings.Split(path, ",")
			parent, _ := JSONGetPath(v, pathOf(parts[:len(parts)-1]))
			got, _ := JSONGetPath(set, p)
			last := strings.TrimSpace(parts[len(parts)-1])
			inRange := true
			if pj := parent.JSONB(); pj != nil && pj.Kind == JSONArray {
				// A subscript past either end appends or prepends: the
				// new value is then at the end or the start, not there.
				n, e := pathIndex(last, 0)
				inRange = e == nil && (n >= 0 && n < int64(len(pj.Elems)) || n < 0 && -n <= int64(len(pj.Elems)))
			}
			if pj := parent.JSONB(); pj != nil && (pj.Kind == JSONObject || pj.Kind == JSONArray) && inRange &&
				(got.IsNull() || CompareJSONB(got.JSONB(), newval) != 0) {
				t.Fatalf("jsonb_set(%s, {%s}) = %s: the path leads to %v", doc, path, FormatText(set), got)
			}
		}
		del, err := JSONBDeletePath(v, p)
		if err == nil && path != "" {
			if got, _ := JSONGetPath(del, p); !got.IsNull() && strings.Count(path, ",") == 0 && j.Kind == JSONObject {
				t.Fatalf("%s #- {%s} = %s still has the path", doc, path, FormatText(del))
			}
		}
	})
}
