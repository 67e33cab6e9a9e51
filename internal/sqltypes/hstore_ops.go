package sqltypes

import (
	"github.com/zproxy/zproxy/internal/pgerr"
)

// The hstore extension's operators and functions over HstoreValue, as
// hstore_op.c computes them. Arguments are non-NULL (the functions are
// strict); text[] arguments may hold NULL elements, which name no key.

func textOrNull(p HstorePair) Value {
	if p.Null {
		return Null
	}
	return NewText(p.Val)
}

// HstoreFetch is h -> key: the key's value, NULL when absent.
func HstoreFetch(h *HstoreValue, key string) Value {
	if i := h.Find(key); i >= 0 {
		return textOrNull(h.Pairs[i])
	}
	return Null
}

// HstoreFetchArray is h -> text[] (slice_array): each key's value (NULL
// when absent or for a NULL element), in the keys' order and shape.
func HstoreFetchArray(h *HstoreValue, keys *ArrayValue) Value {
	out := make([]Value, len(keys.Elems))
	for i, k := range keys.Elems {
		if !k.IsNull() {
			out[i] = HstoreFetch(h, k.S)
		}
	}
	return NewArray(&ArrayValue{Elem: TypeText, Dims: keys.Dims, Lower: keys.Lower, Elems: out})
}

// HstoreExists is h ? key (exist): whether the key is present, whatever
// its value.
func HstoreExists(h *HstoreValue, key string) bool { return h.Find(key) >= 0 }

// HstoreDefined is defined(h, key): present with a non-NULL value.
func HstoreDefined(h *HstoreValue, key string) bool {
	i := h.Find(key)
	return i >= 0 && !h.Pairs[i].Null
}

// HstoreExistsAny is h ?| text[]: whether any of the (non-NULL) keys is
// present.
func HstoreExistsAny(h *HstoreValue, keys *ArrayValue) bool {
	for _, k := range keys.Elems {
		if !k.IsNull() && h.Find(k.S) >= 0 {
			return true
		}
	}
	return false
}

// HstoreExistsAll is h ?& text[]: whether every non-NULL key is present.
func HstoreExistsAll(h *HstoreValue, keys *ArrayValue) bool {
	for _, k := range keys.Elems {
		if !k.IsNull() && h.Find(k.S) < 0 {
			return false
		}
	}
	return true
}

// HstoreContains is a @> b: every pair of b is in a with the same value
// (NULL matching NULL).
func HstoreContains(a, b *HstoreValue) bool {
	for _, p := range b.Pairs {
		i := a.Find(p.Key)
		if i < 0 {
			return false
		}
		q := a.Pairs[i]
		if q.Null != p.Null || !p.Null && q.Val != p.Val {
			return false
		}
	}
	return true
}

// HstoreConcat is a || b: the pairs of both, b's value winning for a key
// in both.
func HstoreConcat(a, b *HstoreValue) *HstoreValue {
	pairs := make([]HstorePair, 0, len(a.Pairs)+len(b.Pairs))
	pairs = append(pairs, b.Pairs...)
	pairs = append(pairs, a.Pairs...)
	return MakeHstore(pairs) // keeps the first of a key: b's
}

// hstoreKeep returns h without the pairs drop reports.
func hstoreKeep(h *HstoreValue, drop func(p HstorePair) bool) *HstoreValue {
	out := make([]HstorePair, 0, len(h.Pairs))
	for _, p := range h.Pairs {
		if !drop(p) {
			out = append(out, p)
		}
	}
	return &HstoreValue{Pairs: out}
}

// HstoreDeleteKey is h - key (delete(h, text)).
func HstoreDeleteKey(h *HstoreValue, key string) *HstoreValue {
	return hstoreKeep(h, func(p HstorePair) bool { return p.Key == key })
}

// HstoreDeleteKeys is h - text[] (delete(h, text[])).
func HstoreDeleteKeys(h *HstoreValue, keys *ArrayValue) *HstoreValue {
	set := map[string]bool{}
	for _, k := range keys.Elems {
		if !k.IsNull() {
			set[k.S] = true
		}
	}
	return hstoreKeep(h, func(p HstorePair) bool { return set[p.Key] })
}

// HstoreDeletePairs is a - b (delete(h, hstore)): a without the pairs b
// has with the same value (NULL matching NULL).
func HstoreDeletePairs(a, b *HstoreValue) *HstoreValue {
	return hstoreKeep(a, func(p HstorePair) bool {
		i := b.Find(p.Key)
		if i < 0 {
			return false
		}
		q := b.Pairs[i]
		return q.Null == p.Null && (p.Null || q.Val == p.Val)
	})
}

// HstoreSlice is slice(h, text[]): the pairs of the keys named.
func HstoreSlice(h *HstoreValue, keys *ArrayValue) *HstoreValue {
	var pairs []HstorePair
	for _, k := range keys.Elems {
		if k.IsNull() {
			continue
		}
		if i := h.Find(k.S); i >= 0 {
			pairs = append(pairs, h.Pairs[i])
		}
	}
	return MakeHstore(pairs)
}

// HstoreKeys is akeys: the keys in storage order.
func HstoreKeys(h *HstoreValue) Value {
	out := make([]Value, len(h.Pairs))
	for i, p := range h.Pairs {
		out[i] = NewText(p.Key)
	}
	return NewArray1(TypeText, out)
}

// HstoreVals is avals: the values (NULL for NULL) in storage order.
func HstoreVals(h *HstoreValue) Value {
	out := make([]Value, len(h.Pairs))
	for i, p := range h.Pairs {
		out[i] = textOrNull(p)
	}
	return NewArray1(TypeText, out)
}

// HstoreToArray is hstore_to_array (%% h): keys and values alternating.
func HstoreToArray(h *HstoreValue) Value {
	out := make([]Value, 0, 2*len(h.Pairs))
	for _, p := range h.Pairs {
		out = append(out, NewText(p.Key), textOrNull(p))
	}
	return NewArray1(TypeText, out)
}

// HstoreToMatrix is hstore_to_matrix (%# h): one {key,value} row per pair.
func HstoreToMatrix(h *HstoreValue) Value {
	a := HstoreToArray(h).Array()
	if len(h.Pairs) == 0 {
		return NewArray(a)
	}
	return NewArray(&ArrayValue{Elem: TypeText, Dims: []int32{int32(len(h.Pairs)), 2}, Elems: a.Elems})
}

// HstoreEach is each(h)'s rows: (key, value) in storage order.
func HstoreEach(h *HstoreValue) [][]Value {
	rows := make([][]Value, len(h.Pairs))
	for i, p := range h.Pairs {
		rows[i] = []Value{NewText(p.Key), textOrNull(p)}
	}
	return rows
}

func errHstoreNullKey() error {
	return pgerr.New(pgerr.NullValueNotAllowed, "null value not allowed for hstore key")
}

// HstoreFromArrays is hstore(keys text[], values text[]); values may be
// nil (SQL NULL: every value NULL). Of repeated keys the first is kept.
func HstoreFromArrays(keys, vals *ArrayValue) (*HstoreValue, error) {
	if len(keys.Dims) > 1 {
		return nil, pgerr.New(pgerr.ArraySubscriptError, "wrong number of array subscripts")
	}
	if vals != nil {
		if len(vals.Dims) > 1 {
			return nil, pgerr.New(pgerr.ArraySubscriptError, "wrong number of array subscripts")
		}
		if (len(keys.Dims) > 0 || len(vals.Dims) > 0) &&
			(len(keys.Dims) != len(vals.Dims) || keys.Dims[0] != vals.Dims[0] || keys.LowerBound(0) != vals.LowerBound(0)) {
			return nil, pgerr.New(pgerr.ArraySubscriptError, "arrays must have same bounds")
		}
	}
	pairs := make([]HstorePair, len(keys.Elems))
	for i, k := range keys.Elems {
		if k.IsNull() {
			return nil, errHstoreNullKey()
		}
		pairs[i] = HstorePair{Key: k.S, Null: true}
		if vals != nil && !vals.Elems[i].IsNull() {
			pairs[i].Val, pairs[i].Null = vals.Elems[i].S, false
		}
	}
	return MakeHstore(pairs), nil
}

// HstoreFromArray is hstore(text[]): a one-dimensional array of keys and
// values alternating, or a two-dimensional one of {key,value} rows.
func HstoreFromArray(a *ArrayValue) (*HstoreValue, error) {
	switch len(a.Dims) {
	case 0:
		return &HstoreValue{}, nil
	case 1:
		if a.Dims[0]%2 != 0 {
			return nil, pgerr.New(pgerr.ArraySubscriptError, "array must have even number of elements")
		}
	case 2:
		if a.Dims[1] != 2 {
			return nil, pgerr.New(pgerr.ArraySubscriptError, "array must have two columns")
		}
	default:
		return nil, pgerr.New(pgerr.ArraySubscriptError, "wrong number of array subscripts")
	}
	pairs := make([]HstorePair, len(a.Elems)/2)
	for i := range pairs {
		k, v := a.Elems[2*i], a.Elems[2*i+1]
		if k.IsNull() {
			return nil, errHstoreNullKey()
		}
		pairs[i] = HstorePair{Key: k.S, Val: v.S, Null: v.IsNull()}
	}
	return MakeHstore(pairs), nil
}
