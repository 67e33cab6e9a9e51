package builtins

import (
	"fmt"
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Array functions. Where PostgreSQL refuses a multidimensional array
// (array_position, array_remove, array_append) they refuse it in its words.

func arrayArg(v sqltypes.Value) (*sqltypes.ArrayValue, error) {
	if v.K != sqltypes.KindArray {
		return nil, pgerr.New(pgerr.DatatypeMismatch, "argument must be an array")
	}
	return v.Array(), nil
}

// elemOf is the element type of an array type (int2vector and oidvector
// included), or Unknown.
func elemOf(t sqltypes.Type) sqltypes.Type {
	switch t.ID {
	case sqltypes.Array:
		return t.ElemType()
	case sqltypes.Int2Vector, sqltypes.OidVector:
		return sqltypes.VectorElem(t)
	}
	return sqltypes.TypeUnknown
}

// arrayResult types a function returning an array like its i-th argument
// (a vector becomes an array of its elements).
func arrayResult(i int) func([]sqltypes.Type) sqltypes.Type {
	return func(a []sqltypes.Type) sqltypes.Type {
		if e := elemOf(a[i]); e.ID != sqltypes.Unknown {
			return sqltypes.ArrayOf(e)
		}
		return a[i]
	}
}

// errNotOneDim is array_append's and array_prepend's refusal of an array
// of more than one dimension.
var errNotOneDim = pgerr.New(pgerr.DataException, "argument must be empty or one-dimensional array")

// catArrays concatenates x and y (of element type elem) by
// PostgreSQL's array_cat rules: an empty array yields the other; arrays
// of equal dimensions join along the first, whose lower bound x keeps;
// an array of one dimension fewer than the other is one more element of
// the other's first dimension. The joined parts must agree in their
// other dimensions and lower bounds.
func catArrays(x, y *sqltypes.ArrayValue, elem sqltypes.Type) (sqltypes.Value, error) {
	nx, ny := len(x.Dims), len(y.Dims)
	switch {
	case nx == 0 && ny == 0:
		return sqltypes.NewArray(&sqltypes.ArrayValue{Elem: elem}), nil
	case nx == 0:
		out := *y
		out.Elem = elem
		return sqltypes.NewArray(&out), nil
	case ny == 0:
		out := *x
		out.Elem = elem
		return sqltypes.NewArray(&out), nil
	}
	incompatible := func(detail string, args ...any) error {
		return pgerr.New(pgerr.ArraySubscriptError, "cannot concatenate incompatible arrays").WithDetail(detail, args...)
	}
	// outer is the array whose dimensions and lower bounds the result
	// takes (x when the dimensions are equal); inner the other, whose
	// dimensions (all, or all but the first) must be outer's element
	// dimensions.
	outer, inner, skip := x, y, 1
	switch nx - ny {
	case 0:
	case -1:
		outer, inner, skip = y, x, 0
	case 1:
		skip = 0
	default:
		return sqltypes.Null, incompatible("Arrays of %d and %d dimensions are not compatible for concatenation.", nx, ny)
	}
	for i := skip; i < len(inner.Dims); i++ {
		j := i + 1 - skip
		if inner.Dims[i] != outer.Dims[j] || inner.LowerBound(i) != outer.LowerBound(j) {
			if nx == ny {
				return sqltypes.Null, incompatible("Arrays with differing element dimensions are not compatible for concatenation.")
			}
			return sqltypes.Null, incompatible("Arrays with differing dimensions are not compatible for concatenation.")
		}
	}
	if err := sqltypes.ArrayElemsLimit(int64(len(x.Elems)) + int64(len(y.Elems))); err != nil {
		return sqltypes.Null, err
	}
	elems, err := sqltypes.MakeElems(int64(len(x.Elems))+int64(len(y.Elems)), "the concatenated array")
	if err != nil {
		return sqltypes.Null, err
	}
	copy(elems[copy(elems, x.Elems):], y.Elems)
	out := &sqltypes.ArrayValue{Elem: elem, Elems: elems}
	out.Dims = append([]int32(nil), outer.Dims...)
	if nx == ny {
		out.Dims[0] += y.Dims[0]
	} else {
		out.Dims[0]++
	}
	if outer.Lower != nil {
		out.Lower = append([]int32(nil), outer.Lower...)
	}
	return sqltypes.NewArray(out), nil
}

func oneDim(a *sqltypes.ArrayValue, fn string) error {
	if len(a.Dims) > 1 {
		switch fn {
		case "array_remove": // PostgreSQL's own refusals, in its words
			return pgerr.New(pgerr.FeatureNotSupported, "removing elements from multidimensional arrays is not supported")
		case "array_position":
			return pgerr.New(pgerr.FeatureNotSupported, "searching for elements in multidimensional arrays is not supported")
		}
		return pgerr.New(pgerr.FeatureNotSupported, "%s of a multidimensional array is not supported", fn)
	}
	return nil
}

func init() {
	anyP, intP, textP := Param{Any: true, Pseudo: AnyArray}, T(sqltypes.TypeInt4), T(sqltypes.TypeText)
	compatArr, compat := Param{Any: true, Pseudo: AnyCompatibleArray}, Param{Any: true, Pseudo: AnyCompatible}
	toString := func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		arr, err := arrayArg(a[0])
		if err != nil {
			return sqltypes.Null, err
		}
		if a[1].IsNull() {
			return sqltypes.Null, nil
		}
		// As PostgreSQL's array_to_text: one buffer, each element after
		// the first appended with the separator in one formatted append,
		// which asks for both and the terminating NUL.
		out := sqltypes.Buffer{What: "array_to_string's result"}
		sep, printed := a[1].S, false
		for _, e := range arr.Elems {
			var part string
			switch {
			case !e.IsNull():
				part = ctx.OutputText(arr.Elem, e)
			case len(a) > 2 && !a[2].IsNull():
				part = a[2].S
			default:
				continue
			}
			if printed {
				if err := sqltypes.AppendLimit(out.Len(), int64(len(sep))+int64(len(part))+1); err != nil {
					return sqltypes.Null, err
				}
				if err := out.Append(sep); err != nil {
					return sqltypes.Null, err
				}
			}
			if err := out.Append(part); err != nil {
				return sqltypes.Null, err
			}
			printed = true
		}
		res, err := out.String()
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewText(res), nil
	}
	Register("array_to_string",
		Overload{Params: []Param{anyP, textP}, Result: Returns(sqltypes.TypeText), Volatility: Stable,
			Eval: func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) { return toString(ctx, a) }},
		Overload{Params: []Param{anyP, textP, textP}, Result: Returns(sqltypes.TypeText), Volatility: Stable, CalledOnNull: true,
			Eval: func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				if a[0].IsNull() || a[1].IsNull() {
					return sqltypes.Null, nil
				}
				return toString(ctx, a)
			}})
	dim := func(f func(a *sqltypes.ArrayValue, d int) sqltypes.Value) Overload {
		return Overload{Params: []Param{anyP, intP}, Result: Returns(sqltypes.TypeInt4), Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			arr, err := arrayArg(a[0])
			if err != nil {
				return sqltypes.Null, err
			}
			d := int(a[1].I) - 1
			if d < 0 || d >= len(arr.Dims) {
				return sqltypes.Null, nil
			}
			return f(arr, d), nil
		}}
	}
	Register("array_length", dim(func(a *sqltypes.ArrayValue, d int) sqltypes.Value { return sqltypes.NewInt(int64(a.Dims[d])) }))
	Register("array_lower", dim(func(a *sqltypes.ArrayValue, d int) sqltypes.Value { return sqltypes.NewInt(int64(a.LowerBound(d))) }))
	Register("array_upper", dim(func(a *sqltypes.ArrayValue, d int) sqltypes.Value {
		return sqltypes.NewInt(int64(a.LowerBound(d) + a.Dims[d] - 1))
	}))
	Register("cardinality", Overload{Params: []Param{anyP}, Result: Returns(sqltypes.TypeInt4), Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		arr, err := arrayArg(a[0])
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewInt(int64(len(arr.Elems))), nil
	}})
	Register("array_dims", Overload{Params: []Param{anyP}, Result: Returns(sqltypes.TypeText), Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		arr, err := arrayArg(a[0])
		if err != nil || len(arr.Dims) == 0 {
			return sqltypes.Null, err
		}
		var b strings.Builder
		for d := range arr.Dims {
			lo := arr.LowerBound(d)
			fmt.Fprintf(&b, "[%d:%d]", lo, lo+arr.Dims[d]-1)
		}
		return sqltypes.NewText(b.String()), nil
	}})
	Register("array_ndims", Overload{Params: []Param{anyP}, Result: Returns(sqltypes.TypeInt4), Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		arr, err := arrayArg(a[0])
		if err != nil || len(arr.Dims) == 0 {
			return sqltypes.Null, err
		}
		return sqltypes.NewInt(int64(len(arr.Dims))), nil
	}})
	split := func(a []sqltypes.Value) (sqltypes.Value, error) {
		if a[0].IsNull() {
			return sqltypes.Null, nil
		}
		pieces, err := splitToTable(a, true)
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewArray1(sqltypes.TypeText, pieces), nil
	}
	Register("string_to_array",
		Overload{Params: []Param{textP, textP}, Result: Returns(sqltypes.ArrayOf(sqltypes.TypeText)), CalledOnNull: true,
			Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) { return split(a) }},
		Overload{Params: []Param{textP, textP, textP}, Result: Returns(sqltypes.ArrayOf(sqltypes.TypeText)), CalledOnNull: true,
			Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) { return split(a) }})
	position := func(all bool) func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		return func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			if a[0].IsNull() {
				return sqltypes.Null, nil
			}
			arr, err := arrayArg(a[0])
			if err != nil {
				return sqltypes.Null, err
			}
			if err := oneDim(arr, "array_position"); err != nil {
				return sqltypes.Null, err
			}
			start := 0
			if len(a) > 2 {
				if a[2].IsNull() {
					return sqltypes.Null, pgerr.New(pgerr.NullValueNotAllowed, "initial position must not be null")
				}
				start = int(a[2].I - int64(arr.LowerBound(0)))
			}
			var hits []sqltypes.Value
			for i := max(start, 0); i < len(arr.Elems); i++ {
				e := arr.Elems[i]
				// IS NOT DISTINCT FROM: NULL finds NULL.
				if e.IsNull() && a[1].IsNull() || !e.IsNull() && !a[1].IsNull() && sqltypes.Compare(e, a[1]) == 0 {
					pos := sqltypes.NewInt(int64(i) + int64(arr.LowerBound(0)))
					if !all {
						return pos, nil
					}
					hits = append(hits, pos)
				}
			}
			if !all {
				return sqltypes.Null, nil
			}
			return sqltypes.NewArray1(sqltypes.TypeInt4, hits), nil
		}
	}
	Register("array_position",
		Overload{Params: []Param{compatArr, compat}, Result: Returns(sqltypes.TypeInt4), CalledOnNull: true, Eval: position(false)},
		Overload{Params: []Param{compatArr, compat, intP}, Result: Returns(sqltypes.TypeInt4), CalledOnNull: true, Eval: position(false)})
	Register("array_positions", Overload{Params: []Param{compatArr, compat}, Result: Returns(sqltypes.ArrayOf(sqltypes.TypeInt4)), CalledOnNull: true, Eval: position(true)})
	Register("array_append", Overload{Params: []Param{compatArr, compat}, Result: arrayResult(0), ResultPseudo: AnyCompatibleArray, CalledOnNull: true,
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			if a[0].IsNull() {
				return sqltypes.NewArray1(sqltypes.TypeOfValue(a[1]), []sqltypes.Value{a[1]}), nil
			}
			x := a[0].Array()
			if len(x.Dims) > 1 {
				return sqltypes.Null, errNotOneDim
			}
			e, err := sqltypes.Cast(a[1], x.Elem)
			if err != nil {
				return sqltypes.Null, err
			}
			return catArrays(x, &sqltypes.ArrayValue{Elems: []sqltypes.Value{e}, Dims: []int32{1}, Lower: x.Lower}, x.Elem)
		}})
	Register("array_prepend", Overload{Params: []Param{compat, compatArr}, Result: arrayResult(1), ResultPseudo: AnyCompatibleArray, CalledOnNull: true,
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			if a[1].IsNull() {
				return sqltypes.NewArray1(sqltypes.TypeOfValue(a[0]), []sqltypes.Value{a[0]}), nil
			}
			y := a[1].Array()
			if len(y.Dims) > 1 {
				return sqltypes.Null, errNotOneDim
			}
			e, err := sqltypes.Cast(a[0], y.Elem)
			if err != nil {
				return sqltypes.Null, err
			}
			// The result keeps the array's lower bound, as PostgreSQL's does.
			return catArrays(&sqltypes.ArrayValue{Elems: []sqltypes.Value{e}, Dims: []int32{1}, Lower: y.Lower}, y, y.Elem)
		}})
	Register("array_cat", Overload{Params: []Param{compatArr, compatArr}, Result: arrayResult(0), ResultPseudo: AnyCompatibleArray, CalledOnNull: true,
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			switch {
			case a[0].IsNull():
				return a[1], nil
			case a[1].IsNull():
				return a[0], nil
			}
			x := a[0].Array()
			if a[1].K != sqltypes.KindArray {
				return sqltypes.Null, pgerr.New(pgerr.DatatypeMismatch, "argument must be an array")
			}
			y, err := sqltypes.CastArray(a[1], x.Elem, false)
			if err != nil {
				return sqltypes.Null, err
			}
			return catArrays(x, y.Array(), x.Elem)
		}})
	Register("array_remove", Overload{Params: []Param{compatArr, compat}, Result: arrayResult(0), ResultPseudo: AnyCompatibleArray, CalledOnNull: true,
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			if a[0].IsNull() {
				return sqltypes.Null, nil
			}
			x := a[0].Array()
			if err := oneDim(x, "array_remove"); err != nil {
				return sqltypes.Null, err
			}
			var keep []sqltypes.Value
			for _, e := range x.Elems {
				if e.IsNull() && a[1].IsNull() || !e.IsNull() && !a[1].IsNull() && sqltypes.Compare(e, a[1]) == 0 {
					continue
				}
				keep = append(keep, e)
			}
			return sqltypes.NewArray1(x.Elem, keep), nil
		}})
}
