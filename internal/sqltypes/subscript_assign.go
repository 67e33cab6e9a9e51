package sqltypes

import (
	"strconv"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// Subscripted assignment: UPDATE ... SET a[i] = v, a[lo:hi] = v and
// j['k'][n] = v, as PostgreSQL's array_set_element, array_set_slice and
// jsonb_subscript_assign compute them. Each returns a new value; the old
// one is shared where it is not changed, never modified.

// errArraySubscripts is 2202E "wrong number of array subscripts".
func errArraySubscripts() error {
	return pgerr.New(pgerr.ArraySubscriptError, "wrong number of array subscripts")
}

// NullArraySubscript is PostgreSQL's refusal of a NULL subscript in an
// assignment (22004).
func NullArraySubscript() error {
	return pgerr.New(pgerr.NullValueNotAllowed, "array subscript in assignment must not be null")
}

// ArraySetElement is arr[subs...] = v for an array of elem: arr NULL or
// empty becomes an array of len(subs) dimensions holding v alone at subs
// (its lower bounds); a one-dimensional array grows to reach a subscript
// outside it, the gap filled with NULLs; an array of more dimensions must
// already hold the element.
func ArraySetElement(arr Value, elem Type, subs []int64, v Value) (Value, error) {
	var a *ArrayValue
	if !arr.IsNull() {
		a = arr.Array()
	}
	if a == nil || len(a.Dims) == 0 {
		if len(subs) > MaxArrayDims {
			return Null, pgerr.New(pgerr.ProgramLimitExceeded, "number of array dimensions (%d) exceeds the maximum allowed (%d)", len(subs), MaxArrayDims)
		}
		out := &ArrayValue{Elem: elem, Dims: make([]int32, len(subs)), Elems: []Value{v}}
		lower := make([]int32, len(subs))
		for d, s := range subs {
			out.Dims[d], lower[d] = 1, int32(s)
			if s != 1 {
				out.Lower = lower
			}
		}
		return NewArray(out), nil
	}
	if len(subs) != len(a.Dims) {
		return Null, errArraySubscripts()
	}
	if len(a.Dims) > 1 {
		off := 0
		for d := range a.Dims {
			i := subs[d] - int64(a.LowerBound(d))
			if i < 0 || i >= int64(a.Dims[d]) {
				return Null, pgerr.New(pgerr.ArraySubscriptError, "array subscript out of range")
			}
			off = off*int(a.Dims[d]) + int(i)
		}
		out := *a
		out.Elems = append([]Value(nil), a.Elems...)
		out.Elems[off] = v
		return NewArray(&out), nil
	}
	out, at, err := grow1(a, subs[0], subs[0])
	if err != nil {
		return Null, err
	}
	out.Elems[at] = v
	return NewArray(out), nil
}

// grow1 copies one-dimensional a, grown with NULLs to hold [lo, hi], and
// returns where lo is in it.
func grow1(a *ArrayValue, lo, hi int64) (*ArrayValue, int, error) {
	lb := int64(a.LowerBound(0))
	ub := lb + int64(a.Dims[0]) - 1
	nlb, nub := min(lb, lo), max(ub, hi)
	n := nub - nlb + 1
	if err := ArrayElemsLimit(n); err != nil {
		return nil, 0, err
	}
	if nlb < -1<<31 || nub > 1<<31-1 {
		return nil, 0, pgerr.New(pgerr.ProgramLimitExceeded, "array size exceeds the maximum allowed (%d)", MaxArraySize)
	}
	elems, err := MakeElems(n, "the array assigned to")
	if err != nil {
		return nil, 0, err
	}
	out := &ArrayValue{Elem: a.Elem, Dims: []int32{int32(n)}, Elems: elems}
	if nlb != 1 {
		out.Lower = []int32{int32(nlb)}
	}
	copy(out.Elems[lb-nlb:], a.Elems)
	return out, int(lo - nlb), nil
}

// ArraySetSlice is arr[lo:hi] = src for a one-dimensional slice (lo, hi
// nil where the slice leaves them out): the slice's elements take src's
// first ones in order. A NULL src leaves arr as it is; a NULL or empty arr
// needs both bounds.
func ArraySetSlice(arr Value, elem Type, lo, hi *int64, src Value) (Value, error) {
	if src.IsNull() {
		return arr, nil
	}
	var a *ArrayValue
	if !arr.IsNull() {
		a = arr.Array()
	}
	empty := a == nil || len(a.Dims) == 0
	if empty && (lo == nil || hi == nil) {
		return Null, pgerr.New(pgerr.ArraySubscriptError, "array slice subscript must provide both boundaries").
			WithDetail("When assigning to a slice of an empty array value, slice boundaries must be fully specified.")
	}
	if !empty && len(a.Dims) != 1 {
		// PostgreSQL takes the dimensions a slice leaves out whole.
		return Null, pgerr.New(pgerr.FeatureNotSupported, "assignment to a slice of a multidimensional array is not supported")
	}
	var l, h int64
	switch {
	case empty:
		l, h = *lo, *hi
		if h < l {
			if a == nil {
				return NewArray(&ArrayValue{Elem: elem}), nil
			}
			return arr, nil
		}
		a = &ArrayValue{Elem: elem, Dims: []int32{0}, Lower: []int32{int32(l)}}
	default:
		l, h = int64(a.LowerBound(0)), int64(a.LowerBound(0))+int64(a.Dims[0])-1
		if lo != nil {
			l = *lo
		}
		if hi != nil {
			h = *hi
		}
		if h < l {
			return Null, pgerr.New(pgerr.ArraySubscriptError, "upper bound cannot be less than lower bound")
		}
	}
	s := src.Array()
	if s == nil || int64(len(s.Elems)) < h-l+1 {
		return Null, pgerr.New(pgerr.ArraySubscriptError, "source array too small")
	}
	out, at, err := grow1(a, l, h)
	if err != nil {
		return Null, err
	}
	copy(out.Elems[at:at+int(h-l+1)], s.Elems)
	return NewArray(out), nil
}

// JSONBSubscriptAssign is doc[subs...] = v for jsonb (v NULL: JSON null):
// each subscript is a text or integer value, the last step is set or
// added, missing steps before it are created (an array where the next
// subscript is an integer, else an object), an array grows with nulls to
// reach an index past its end, and a step into a scalar fails. A NULL doc
// starts as an empty array when the first subscript is an integer, else as
// an empty object.
func JSONBSubscriptAssign(doc Value, subs []Value, v Value) (Value, error) {
	path := make([]string, len(subs))
	for i, s := range subs {
		switch {
		case s.IsNull():
			return Null, pgerr.New(pgerr.NullValueNotAllowed, "jsonb subscript in assignment must not be null")
		case s.K == KindInt:
			path[i] = strconv.FormatInt(s.I, 10)
		default:
			path[i] = s.S
		}
	}
	newval := &JSONValue{Kind: JSONNull}
	if !v.IsNull() {
		newval = v.JSONB()
	}
	var j *JSONValue
	switch {
	case !doc.IsNull():
		j = doc.JSONB()
	case len(subs) > 0 && subs[0].K == KindInt:
		j = &JSONValue{Kind: JSONArray}
	default:
		j = &JSONValue{Kind: JSONObject}
	}
	if len(path) == 0 {
		return NewJSONB(newval), nil
	}
	out, err := assignPath(j, path, 0, newval)
	if err != nil {
		return Null, err
	}
	return NewJSONB(out), nil
}

// assignPath is JSONBSubscriptAssign's step at path[level] into j.
func assignPath(j *JSONValue, path []string, level int, newval *JSONValue) (*JSONValue, error) {
	last := level == len(path)-1
	switch j.Kind {
	case JSONObject:
		out := &JSONValue{Kind: JSONObject, Keys: append([]string(nil), j.Keys...), Elems: append([]JSONValue(nil), j.Elems...)}
		for i, k := range j.Keys {
			if k != path[level] {
				continue
			}
			if last {
				out.Elems[i] = *newval
				return out, nil
			}
			e, err := assignPath(&j.Elems[i], path, level+1, newval)
			if err != nil {
				return nil, err
			}
			out.Elems[i] = *e
			return out, nil
		}
		e, err := createPath(path, level+1, newval)
		if err != nil {
			return nil, err
		}
		out.Keys, out.Elems = append(out.Keys, path[level]), append(out.Elems, *e)
		normalizeObject(out)
		return out, nil
	case JSONArray:
		idx, err := pathIndex(path[level], level)
		if err != nil {
			return nil, err
		}
		n := int64(len(j.Elems))
		if idx < 0 {
			if -idx > n {
				return nil, errJSONB("path element at position %d is out of range: %d", level+1, idx)
			}
			idx += n
		}
		if idx < n {
			out := &JSONValue{Kind: JSONArray, Elems: append([]JSONValue(nil), j.Elems...)}
			if last {
				out.Elems[idx] = *newval
				return out, nil
			}
			e, err := assignPath(&j.Elems[idx], path, level+1, newval)
			if err != nil {
				return nil, err
			}
			out.Elems[idx] = *e
			return out, nil
		}
		if err := JSONBArrayLimit(4 * (idx + 1)); err != nil {
			return nil, err
		}
		e, err := createPath(path, level+1, newval)
		if err != nil {
			return nil, err
		}
		out := &JSONValue{Kind: JSONArray, Elems: make([]JSONValue, idx+1)}
		copy(out.Elems, j.Elems)
		for k := n; k < idx; k++ {
			out.Elems[k].Kind = JSONNull
		}
		out.Elems[idx] = *e
		return out, nil
	}
	return nil, errJSONB("cannot replace existing key").
		WithDetail("The path assumes key is a composite object, but it is a scalar value.")
}

// createPath is what a missing step before path[level] becomes: newval at
// the end of the path, else an array holding the rest at an integer
// subscript (nulls before it) or an object holding it under a key.
func createPath(path []string, level int, newval *JSONValue) (*JSONValue, error) {
	if level == len(path) {
		return newval, nil
	}
	e, err := createPath(path, level+1, newval)
	if err != nil {
		return nil, err
	}
	idx, perr := strconv.ParseInt(path[level], 10, 32)
	if perr != nil {
		return &JSONValue{Kind: JSONObject, Keys: []string{path[level]}, Elems: []JSONValue{*e}}, nil
	}
	if idx < 0 {
		idx = 0
	}
	if err := JSONBArrayLimit(4 * (idx + 1)); err != nil {
		return nil, err
	}
	out := &JSONValue{Kind: JSONArray, Elems: make([]JSONValue, idx+1)}
	for k := int64(0); k < idx; k++ {
		out.Elems[k].Kind = JSONNull
	}
	out.Elems[idx] = *e
	return out, nil
}
