package sqltypes

import (
	"strconv"
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
)

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

func errJSONB(format string, args ...any) *pgerr.Error {
	return pgerr.New(pgerr.InvalidParameterValue, format, args...)
}

func isJSONScalar(j *JSONValue) bool { return j.Kind != JSONArray && j.Kind != JSONObject }

// withoutKeys returns object or array j without the object fields (or the
// string array elements) whose key is in keys.
func withoutKeys(j *JSONValue, keys map[string]bool) *JSONValue {
	out := &JSONValue{Kind: j.Kind}
	if j.Kind == JSONObject {
		out.Keys, out.Elems = []string{}, []JSONValue{}
		for i, k := range j.Keys {
			if !keys[k] {
				out.Keys = append(out.Keys, k)
				out.Elems = append(out.Elems, j.Elems[i])
			}
		}
		return out
	}
	out.Elems = []JSONValue{}
	for _, e := range j.Elems {
		if e.Kind != JSONString || !keys[e.Str] {
			out.Elems = append(out.Elems, e)
		}
	}
	return out
}

// JSONBDeleteKeys is jsonb - text and jsonb - text[]: the object without
// those keys, or the array without those strings (NULL keys are ignored).
func JSONBDeleteKeys(v Value, keys []Value) (Value, error) {
	j := v.JSONB()
	if isJSONScalar(j) {
		return Null, errJSONB("cannot delete from scalar")
	}
	set := map[string]bool{}
	for _, k := range keys {
		if !k.IsNull() {
			set[k.S] = true
		}
	}
	return NewJSONB(withoutKeys(j, set)), nil
}

// JSONBDeleteIndex is jsonb - integer: the array without element i
// (negative counting from the end); unchanged when i is out of range.
func JSONBDeleteIndex(v Value, i int64) (Value, error) {
	j := v.JSONB()
	switch j.Kind {
	case JSONObject:
		return Null, errJSONB("cannot delete from object using integer index")
	case JSONArray:
	default:
		return Null, errJSONB("cannot delete from scalar")
	}
	n := int64(len(j.Elems))
	if i < 0 {
		i += n
	}
	if i < 0 || i >= n {
		return v, nil
	}
	out := &JSONValue{Kind: JSONArray, Elems: append(append(make([]JSONValue, 0, n-1), j.Elems[:i]...), j.Elems[i+1:]...)}
	return NewJSONB(out), nil
}

// jsonPathOp is what setPath does at the end of a path, as PostgreSQL's
// JB_PATH_* flags say.
type jsonPathOp uint8

const (
	pathReplace      jsonPathOp = iota // jsonb_set(..., create_missing => false)
	pathCreate                         // jsonb_set: replace, or add when missing
	pathDelete                         // #-
	pathInsertBefore                   // jsonb_insert
	pathInsertAfter                    // jsonb_insert(..., insert_after => true)
)

func (op jsonPathOp) creates() bool {
	return op == pathCreate || op == pathInsertBefore || op == pathInsertAfter
}

// pathStrings reads a text[] path; a NULL element is an error.
func pathStrings(path Value) ([]string, error) {
	a := path.Array()
	if a == nil {
		return nil, pgerr.New(pgerr.DatatypeMismatch, "path must be a text array")
	}
	out := make([]string, len(a.Elems))
	for i, e := range a.Elems {
		if e.IsNull() {
			return nil, pgerr.New(pgerr.NullValueNotAllowed, "path element at position %d is null", i+1)
		}
		out[i] = e.S
	}
	return out, nil
}

// setPath returns j with the operation applied at path[level:], the
// value at each level rebuilt and everything off the path shared. A path
// that runs into a scalar, or misses a step before its last, changes
// nothing.
func setPath(j *JSONValue, path []string, level int, newval *JSONValue, op jsonPathOp) (*JSONValue, error) {
	last := level == len(path)-1
	switch j.Kind {
	case JSONObject:
		out := &JSONValue{Kind: JSONObject, Keys: make([]string, 0, len(j.Keys)+1), Elems: make([]JSONValue, 0, len(j.Keys)+1)}
		found := false
		for i, k := range j.Keys {
			if found || k != path[level] {
				out.Keys, out.Elems = append(out.Keys, k), append(out.Elems, j.Elems[i])
				continue
			}
			found = true
			switch {
			case !last:
				e, err := setPath(&j.Elems[i], path, level+1, newval, op)
				if err != nil {
					return nil, err
				}
				out.Keys, out.Elems = append(out.Keys, k), append(out.Elems, *e)
			case op == pathInsertBefore || op == pathInsertAfter:
				return nil, errJSONB("cannot replace existing key").WithHint("Try using the function jsonb_set to replace key value.")
			case op != pathDelete:
				out.Keys, out.Elems = append(out.Keys, k), append(out.Elems, *newval)
			}
		}
		if !found && last && op.creates() {
			out.Keys, out.Elems = append(out.Keys, path[level]), append(out.Elems, *newval)
			normalizeObject(out)
		}
		return out, nil
	case JSONArray:
		idx, err := pathIndex(path[level], level)
		if err != nil {
			return nil, err
		}
		n := int64(len(j.Elems))
		prepend := false
		if idx < 0 {
			if -idx > n {
				prepend = true
			} else {
				idx += n
			}
		}
		out := &JSONValue{Kind: JSONArray, Elems: make([]JSONValue, 0, n+1)}
		done := false
		if (prepend || n == 0) && last && op.creates() {
			out.Elems = append(out.Elems, *newval)
			done = true
		}
		for i := int64(0); i < n; i++ {
			e := j.Elems[i]
			if i != idx || prepend {
				out.Elems = append(out.Elems, e)
				continue
			}
			if !last {
				ne, err := setPath(&e, path, level+1, newval, op)
				if err != nil {
					return nil, err
				}
				out.Elems = append(out.Elems, *ne)
				continue
			}
			switch op {
			case pathCreate, pathReplace:
				out.Elems = append(out.Elems, *newval)
			case pathInsertBefore:
				out.Elems = append(out.Elems, *newval, e)
			case pathInsertAfter:
				out.Elems = append(out.Elems, e, *newval)
			}
			done = true
		}
		if !done && last && op.creates() {
			out.Elems = append(out.Elems, *newval)
		}
		return out, nil
	}
	return j, nil
}

// pathIndex reads an array subscript of a path: a decimal integer, or
// 22P02 naming its position.
func pathIndex(s string, level int) (int64, error) {
	t := strings.TrimLeft(s, " \t\n\r\v\f")
	n, err := strconv.ParseInt(t, 10, 32)
	if err != nil || t == "" {
		return 0, pgerr.New(pgerr.InvalidTextRepresentation, "path element at position %d is not an integer: \"%s\"", level+1, s)
	}
	return n, nil
}

// editPath applies op along path to v (a jsonb document), refusing a
// scalar document with the message of the function.
func editPath(v, path Value, newval *JSONValue, op jsonPathOp, scalarMsg string) (Value, error) {
	j := v.JSONB()
	if isJSONScalar(j) {
		return Null, errJSONB("%s", scalarMsg)
	}
	p, err := pathStrings(path)
	if err != nil {
		return Null, err
	}
	if len(p) == 0 {
		return v, nil
	}
	out, err := setPath(j, p, 0, newval, op)
	if err != nil {
		return Null, err
	}
	return NewJSONB(out), nil
}

// JSONBDeletePath is jsonb #- text[].
func JSONBDeletePath(v, path Value) (Value, error) {
	if j := v.JSONB(); !isJSONScalar(j) && len(j.Elems) == 0 {
		return v, nil // an empty container has nothing to delete
	}
	return editPath(v, path, nil, pathDelete, "cannot delete path in scalar")
}

// JSONBSet is jsonb_set(target, path, new_value, create_missing).
func JSONBSet(v, path, newval Value, create bool) (Value, error) {
	op := pathReplace
	if create {
		op = pathCreate
	}
	return editPath(v, path, newval.JSONB(), op, "cannot set path in scalar")
}

// JSONBInsert is jsonb_insert(target, path, new_value, insert_after).
func JSONBInsert(v, path, newval Value, after bool) (Value, error) {
	op := pathInsertBefore
	if after {
		op = pathInsertAfter
	}
	return editPath(v, path, newval.JSONB(), op, "cannot set path in scalar")
}

// JSONBStripNulls is jsonb_strip_nulls: every object field whose value is
// null removed, at any depth (null array elements stay).
func JSONBStripNulls(v Value) Value { return NewJSONB(stripNulls(v.JSONB())) }

func stripNulls(j *JSONValue) *JSONValue {
	switch j.Kind {
	case JSONObject:
		out := &JSONValue{Kind: JSONObject, Keys: []string{}, Elems: []JSONValue{}}
		for i := range j.Keys {
			if j.Elems[i].Kind != JSONNull {
				out.Keys = append(out.Keys, j.Keys[i])
				out.Elems = append(out.Elems, *stripNulls(&j.Elems[i]))
			}
		}
		return out
	case JSONArray:
		out := &JSONValue{Kind: JSONArray, Elems: make([]JSONValue, len(j.Elems))}
		for i := range j.Elems {
			out.Elems[i] = *stripNulls(&j.Elems[i])
		}
		return out
	}
	return j
}

// JSONBPretty is jsonb_pretty: one element or field a line, indented by
// four spaces a level; an empty container's brackets on two lines. A text
// past MaxAllocSize fails as PostgreSQL's does (jsonOut.pretty).
func JSONBPretty(v Value) (string, error) {
	w := newJSONOut(nil)
	w.pretty(v.JSONB(), 0, false)
	b, err := w.result()
	if err == nil {
		err = AllocLimit(int64(len(b)) + varHeader) // the text value
	}
	return string(b), err
}

// JSONStripNulls is json_strip_nulls: the json text without the object
// fields whose value is null, rewritten as PostgreSQL's semantic actions
// emit it (no whitespace, duplicate keys kept, numbers and literals as
// written, strings re-escaped).
func JSONStripNulls(v Value) (Value, error) {
	j, err := jsonTree(v)
	if err != nil {
		return Null, err
	}
	return NewJSON(string(appendCompactJSON(nil, j, true))), nil
}

// appendCompactJSON appends j as json's semantic actions emit it (no
// whitespace, duplicate keys kept, numbers and literals as written,
// strings re-escaped), without the fields whose value is null when strip.
func appendCompactJSON(buf []byte, j *JSONValue, strip bool) []byte {
	switch j.Kind {
	case JSONObject:
		buf = append(buf, '{')
		first := true
		for i := range j.Keys {
			if strip && j.Elems[i].Kind == JSONNull {
				continue
			}
			if !first {
				buf = append(buf, ',')
			}
			first = false
			buf = appendJSONString(buf, j.Keys[i])
			buf = append(buf, ':')
			buf = appendCompactJSON(buf, &j.Elems[i], strip)
		}
		return append(buf, '}')
	case JSONArray:
		buf = append(buf, '[')
		for i := range j.Elems {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendCompactJSON(buf, &j.Elems[i], strip)
		}
		return append(buf, ']')
	case JSONString:
		return appendJSONString(buf, j.Str)
	}
	return append(buf, j.raw...)
}
