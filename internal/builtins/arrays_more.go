package builtins

import (
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// array_fill and width_bucket over a thresholds array, as PostgreSQL 15
// has them.

// intList reads array_fill's dimension or lower-bound array.
func intList(v sqltypes.Value, what string) ([]int32, error) {
	arr, err := arrayArg(v)
	if err != nil {
		return nil, err
	}
	if len(arr.Dims) > 1 {
		return nil, pgerr.New(pgerr.ArraySubscriptError, "wrong number of array subscripts").
			WithDetail("%s array must be one dimensional.", what)
	}
	out := make([]int32, len(arr.Elems))
	for i, e := range arr.Elems {
		if e.IsNull() {
			return nil, pgerr.New(pgerr.NullValueNotAllowed, "dimension values cannot be null")
		}
		out[i] = int32(e.I)
	}
	return out, nil
}

// ArrayFill is array_fill(value, dims [, lower bounds]).
func ArrayFill(elem sqltypes.Type, v sqltypes.Value, dimsV, lowerV sqltypes.Value, withLower bool) (sqltypes.Value, error) {
	if dimsV.IsNull() || withLower && lowerV.IsNull() {
		return sqltypes.Null, pgerr.New(pgerr.NullValueNotAllowed, "dimension array or low bound array cannot be null")
	}
	dims, err := intList(dimsV, "Dimension")
	if err != nil {
		return sqltypes.Null, err
	}
	if len(dims) > sqltypes.MaxArrayDims {
		return sqltypes.Null, pgerr.New(pgerr.ProgramLimitExceeded, "number of array dimensions (%d) exceeds the maximum allowed (%d)", len(dims), sqltypes.MaxArrayDims)
	}
	var lower []int32
	if withLower {
		if lower, err = intList(lowerV, "Low bound"); err != nil {
			return sqltypes.Null, err
		}
		if len(lower) != len(dims) {
			return sqltypes.Null, pgerr.New(pgerr.ArraySubscriptError, "wrong number of array subscripts").
				WithDetail("Low bound array has different size than dimensions array.")
		}
	}
	n := int64(1)
	for _, d := range dims {
		if err := sqltypes.ArrayElemsLimit(int64(d)); err != nil {
			return sqltypes.Null, err
		}
		n *= int64(d)
		if err := sqltypes.ArrayElemsLimit(n); err != nil {
			return sqltypes.Null, err
		}
	}
	if len(dims) == 0 || n == 0 {
		return sqltypes.NewArray(&sqltypes.ArrayValue{Elem: elem}), nil
	}
	// PostgreSQL sizes the array's data, n copies of the value, before it
	// builds it: a long text repeated may pass the field limit where the
	// count of elements does not.
	if err := sqltypes.ArrayBytesLimit(n * sqltypes.DatumSize(v)); err != nil {
		return sqltypes.Null, err
	}
	elems, err := sqltypes.MakeElems(n, "array_fill's array")
	if err != nil {
		return sqltypes.Null, err
	}
	for i := range elems {
		elems[i] = v
	}
	out := &sqltypes.ArrayValue{Elem: elem, Dims: dims, Elems: elems}
	for _, l := range lower {
		if l != 1 {
			out.Lower = lower
			break
		}
	}
	return sqltypes.NewArray(out), nil
}

// widthBucketArray is width_bucket(operand, thresholds): how many of the
// sorted thresholds are at most operand, found by PostgreSQL's binary
// search (so an unsorted array gives PostgreSQL's answer too).
func widthBucketArray(x sqltypes.Value, thresholds sqltypes.Value) (sqltypes.Value, error) {
	arr, err := arrayArg(thresholds)
	if err != nil {
		return sqltypes.Null, err
	}
	if len(arr.Dims) > 1 {
		return sqltypes.Null, pgerr.New(pgerr.ArraySubscriptError, "thresholds must be one-dimensional array")
	}
	for _, e := range arr.Elems {
		if e.IsNull() {
			return sqltypes.Null, pgerr.New(pgerr.NullValueNotAllowed, "thresholds array must not contain NULLs")
		}
	}
	left, right := 0, len(arr.Elems)
	for left < right {
		mid := (left + right) / 2
		if sqltypes.Compare(x, arr.Elems[mid]) < 0 {
			right = mid
		} else {
			left = mid + 1
		}
	}
	return sqltypes.NewInt(int64(left)), nil
}

func init() {
	intArray := T(sqltypes.ArrayOf(sqltypes.TypeInt4))
	elemP := Param{Any: true, Pseudo: AnyElement}
	fill := func(args []sqltypes.Type) func(*Context, []sqltypes.Value) (sqltypes.Value, error) {
		elem := args[0]
		return func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			if len(a) > 2 {
				return ArrayFill(elem, a[0], a[1], a[2], true)
			}
			return ArrayFill(elem, a[0], a[1], sqltypes.Null, false)
		}
	}
	doc := "array initialized with supplied value and dimensions"
	Register("array_fill",
		Overload{Params: []Param{elemP, intArray}, Result: arrayOfArg(0), ResultPseudo: AnyArray, CalledOnNull: true, Doc: doc, Typed: fill},
		Overload{Params: []Param{elemP, intArray, intArray}, Result: arrayOfArg(0), ResultPseudo: AnyArray, CalledOnNull: true,
			Doc: doc + ", optionally with lower bounds", Typed: fill})
	Register("width_bucket", Overload{
		Params: []Param{{Any: true, Pseudo: AnyCompatible}, {Any: true, Pseudo: AnyCompatibleArray}},
		Result: Returns(sqltypes.TypeInt4), Doc: "bucket number of operand given a sorted array of bucket lower bounds",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) { return widthBucketArray(a[0], a[1]) }})
}

// arrayOfArg is a Result of arrays of the i-th argument's type.
func arrayOfArg(i int) func([]sqltypes.Type) sqltypes.Type {
	return func(a []sqltypes.Type) sqltypes.Type { return sqltypes.ArrayOf(a[i]) }
}
