package builtins

import (
	"math/bits"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// More of PostgreSQL 15's functions: counting NULL arguments, bytea's
// bytes and bits, trim_array and array_replace, array_to_json,
// json_object and jsonb_object, timestamp(date, time), and the session
// facts getdatabaseencoding, pg_client_encoding, getpgusername and
// pg_trigger_depth.

// byteIndex checks a byte or bit index of bytea b against its range
// 0..max-1, as PostgreSQL words the error.
func byteIndex(n int64, max int) error {
	if n < 0 || n >= int64(max) {
		return pgerr.New(pgerr.ArraySubscriptError, "index %d out of valid range, 0..%d", n, max-1)
	}
	return nil
}

// JSONObject is json_object(keys and values) and json_object(keys,
// values) (jsonb: jsonb_object): a one-dimensional array of alternating
// keys and values, or a two-dimensional array of pairs, or two arrays.
func JSONObject(a []sqltypes.Value, jsonb bool) (sqltypes.Value, error) {
	var keys, vals []sqltypes.Value
	if len(a) == 1 {
		arr, err := arrayArg(a[0])
		if err != nil {
			return sqltypes.Null, err
		}
		switch {
		case len(arr.Dims) == 0:
		case len(arr.Dims) == 1:
			if len(arr.Elems)%2 != 0 {
				return sqltypes.Null, pgerr.New(pgerr.ArraySubscriptError, "array must have even number of elements")
			}
		case len(arr.Dims) == 2:
			if arr.Dims[1] != 2 {
				return sqltypes.Null, pgerr.New(pgerr.ArraySubscriptError, "array must have two columns")
			}
		default:
			return sqltypes.Null, pgerr.New(pgerr.ArraySubscriptError, "wrong number of array subscripts")
		}
		for i := 0; i+1 < len(arr.Elems); i += 2 {
			keys, vals = append(keys, arr.Elems[i]), append(vals, arr.Elems[i+1])
		}
	} else {
		k, err := arrayArg(a[0])
		if err != nil {
			return sqltypes.Null, err
		}
		v, err := arrayArg(a[1])
		if err != nil {
			return sqltypes.Null, err
		}
		if len(k.Dims) > 1 || len(v.Dims) > 1 {
			return sqltypes.Null, pgerr.New(pgerr.ArraySubscriptError, "wrong number of array subscripts")
		}
		if len(k.Elems) != len(v.Elems) {
			return sqltypes.Null, pgerr.New(pgerr.ArraySubscriptError, "mismatched array dimensions")
		}
		keys, vals = k.Elems, v.Elems
	}
	args := make([]sqltypes.Value, 0, 2*len(keys))
	for i, k := range keys {
		if k.IsNull() {
			return sqltypes.Null, pgerr.New(pgerr.NullValueNotAllowed, "null value not allowed for object key")
		}
		args = append(args, k, vals[i])
	}
	if jsonb {
		return sqltypes.JSONBBuildObject(args)
	}
	// json_object prints "key" : "value" pairs, as PostgreSQL's does.
	return sqltypes.JSONObjectPairs(args)
}

func init() {
	bytea, int4, int8 := T(sqltypes.TypeBytea), T(sqltypes.TypeInt4), T(sqltypes.TypeInt8)
	anyArgs := Param{Any: true, Pseudo: AnyType}
	countNulls := func(nulls bool) func(*Context, []sqltypes.Value) (sqltypes.Value, error) {
		return func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			n := 0
			for _, v := range a {
				if v.IsNull() == nulls {
					n++
				}
			}
			return sqltypes.NewInt(int64(n)), nil
		}
	}
	Register("num_nulls", Overload{Params: []Param{anyArgs}, Variadic: true, MinArgs: 1, CalledOnNull: true, Result: Returns(sqltypes.TypeInt4),
		Doc: "count the number of NULL arguments", Eval: countNulls(true)})
	Register("num_nonnulls", Overload{Params: []Param{anyArgs}, Variadic: true, MinArgs: 1, CalledOnNull: true, Result: Returns(sqltypes.TypeInt4),
		Doc: "count the number of non-NULL arguments", Eval: countNulls(false)})

	Register("get_byte", Overload{Params: []Param{bytea, int4}, Result: Returns(sqltypes.TypeInt4), Doc: "get byte",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			if err := byteIndex(a[1].I, len(a[0].S)); err != nil {
				return sqltypes.Null, err
			}
			return sqltypes.NewInt(int64(a[0].S[a[1].I])), nil
		}})
	Register("set_byte", Overload{Params: []Param{bytea, int4, int4}, Result: Returns(sqltypes.TypeBytea), Doc: "set byte",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			if err := byteIndex(a[1].I, len(a[0].S)); err != nil {
				return sqltypes.Null, err
			}
			b := []byte(a[0].S)
			b[a[1].I] = byte(a[2].I)
			return sqltypes.NewBytes(b), nil
		}})
	// Bit n of a bytea is bit n%8 (from the least significant) of byte n/8.
	Register("get_bit", Overload{Params: []Param{bytea, int8}, Result: Returns(sqltypes.TypeInt4), Doc: "get bit",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			if err := byteIndex(a[1].I, len(a[0].S)*8); err != nil {
				return sqltypes.Null, err
			}
			return sqltypes.NewInt(int64(a[0].S[a[1].I/8]>>(a[1].I%8)) & 1), nil
		}})
	Register("set_bit", Overload{Params: []Param{bytea, int8, int4}, Result: Returns(sqltypes.TypeBytea), Doc: "set bit",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			if err := byteIndex(a[1].I, len(a[0].S)*8); err != nil {
				return sqltypes.Null, err
			}
			if a[2].I != 0 && a[2].I != 1 {
				return sqltypes.Null, pgerr.New(pgerr.InvalidParameterValue, "new bit must be 0 or 1")
			}
			b := []byte(a[0].S)
			mask := byte(1) << (a[1].I % 8)
			if a[2].I == 1 {
				b[a[1].I/8] |= mask
			} else {
				b[a[1].I/8] &^= mask
			}
			return sqltypes.NewBytes(b), nil
		}})
	Register("bit_count", Overload{Params: []Param{bytea}, Result: Returns(sqltypes.TypeInt8), Doc: "number of set bits",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			n := 0
			for i := 0; i < len(a[0].S); i++ {
				n += bits.OnesCount8(a[0].S[i])
			}
			return sqltypes.NewInt(int64(n)), nil
		}})

	anyArray := Param{Any: true, Pseudo: AnyArray}
	Register("trim_array", Overload{Params: []Param{anyArray, int4}, Result: arrayResult(0), ResultPseudo: AnyArray,
		Doc: "remove last N elements of array",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			arr, err := arrayArg(a[0])
			if err != nil {
				return sqltypes.Null, err
			}
			n := int64(0)
			if len(arr.Dims) > 0 {
				n = int64(arr.Dims[0])
			}
			if a[1].I < 0 || a[1].I > n {
				return sqltypes.Null, pgerr.New(pgerr.ArraySubscriptError, "number of elements to trim must be between 0 and %d", n)
			}
			keep := n - a[1].I
			if keep == 0 {
				return sqltypes.NewArray(&sqltypes.ArrayValue{Elem: arr.Elem}), nil
			}
			// Whole sub-arrays of the first dimension go.
			per := int64(len(arr.Elems)) / n
			out := &sqltypes.ArrayValue{Elem: arr.Elem, Dims: append([]int32{int32(keep)}, arr.Dims[1:]...), Lower: arr.Lower,
				Elems: append([]sqltypes.Value(nil), arr.Elems[:keep*per]...)}
			return sqltypes.NewArray(out), nil
		}})
	compatArr, compat := Param{Any: true, Pseudo: AnyCompatibleArray}, Param{Any: true, Pseudo: AnyCompatible}
	Register("array_replace", Overload{Params: []Param{compatArr, compat, compat}, Result: arrayResult(0), ResultPseudo: AnyCompatibleArray,
		CalledOnNull: true, Doc: "replace any occurrences of an element in an array",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			if a[0].IsNull() {
				return sqltypes.Null, nil
			}
			arr, err := arrayArg(a[0])
			if err != nil {
				return sqltypes.Null, err
			}
			with := a[2]
			if !with.IsNull() {
				if with, err = sqltypes.Cast(with, arr.Elem); err != nil {
					return sqltypes.Null, err
				}
			}
			out := *arr
			out.Elems = make([]sqltypes.Value, len(arr.Elems))
			for i, e := range arr.Elems {
				// IS NOT DISTINCT FROM: NULL replaces NULL.
				if e.IsNull() && a[1].IsNull() || !e.IsNull() && !a[1].IsNull() && sqltypes.Compare(e, a[1]) == 0 {
					e = with
				}
				out.Elems[i] = e
			}
			return sqltypes.NewArray(&out), nil
		}})

	toJSON := func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		if _, err := arrayArg(a[0]); err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.ArrayToJSON(a[0].Array(), len(a) > 1 && a[1].Bool())
	}
	doc := "map array to json"
	Register("array_to_json",
		Overload{Params: []Param{anyArray}, Result: Returns(sqltypes.TypeJSON), Volatility: Stable, Doc: doc, Eval: toJSON},
		Overload{Params: []Param{anyArray, T(sqltypes.TypeBool)}, Result: Returns(sqltypes.TypeJSON), Volatility: Stable, Doc: doc + " with optional pretty printing", Eval: toJSON})

	textArr := T(sqltypes.ArrayOf(sqltypes.TypeText))
	for _, jsonb := range []bool{false, true} {
		name, res := "json_object", sqltypes.TypeJSON
		if jsonb {
			name, res = "jsonb_object", sqltypes.TypeJSONB
		}
		obj := func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) { return JSONObject(a, jsonb) }
		Register(name,
			Overload{Params: []Param{textArr}, Result: Returns(res), Doc: "map text array of key value pairs to " + res.String() + " object", Eval: obj},
			Overload{Params: []Param{textArr, textArr}, Result: Returns(res), Doc: "map text arrays of keys and values to " + res.String() + " object", Eval: obj})
	}

	// timestamp(date, time) and timestamptz(date, time[tz]): the date at
	// that time of day (date + time).
	dateP, timeP, timetzP := T(sqltypes.TypeDate), T(sqltypes.Type{ID: sqltypes.Time}), T(sqltypes.Type{ID: sqltypes.TimeTZ})
	atTime := func(ctx *Context, d, tm sqltypes.Value) (int64, error) {
		us, err := sqltypes.DateToTimestamp(d.I)
		if err != nil || !sqltypes.IsFiniteTimestamp(us) {
			return us, err
		}
		return us + tm.I, nil
	}
	Register("timestamp", Overload{Params: []Param{dateP, timeP}, Result: Returns(sqltypes.TypeTimestamp), Doc: "convert date and time to timestamp",
		Eval: func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			us, err := atTime(ctx, a[0], a[1])
			return sqltypes.NewTimestamp(us), err
		}})
	Register("timestamptz",
		Overload{Params: []Param{dateP, timeP}, Result: Returns(sqltypes.TypeTimestampTZ), Volatility: Stable, Doc: "convert date and time to timestamp with time zone",
			Eval: func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				us, err := atTime(ctx, a[0], a[1])
				if err != nil {
					return sqltypes.Null, err
				}
				return sqltypes.CastIn(sqltypes.NewTimestamp(us), sqltypes.TypeTimestampTZ, true, SessionLocation(ctx))
			}},
		Overload{Params: []Param{dateP, timetzP}, Result: Returns(sqltypes.TypeTimestampTZ), Doc: "convert date and time with time zone to timestamp with time zone",
			Eval: func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				tz := a[1].TimeTZ()
				us, err := atTime(ctx, a[0], sqltypes.NewInt(tz.Micros))
				if err != nil || !sqltypes.IsFiniteTimestamp(us) {
					return sqltypes.NewTimestampTZ(us), err
				}
				return sqltypes.NewTimestampTZ(us - int64(tz.Offset)*1_000_000), nil
			}})

	// zproxy's server encoding is UTF8; the client's is the session's
	// client_encoding, which the wire converts to and from.
	Register("getdatabaseencoding", Overload{Result: Returns(sqltypes.Type{ID: sqltypes.Name}), Volatility: Stable, Doc: "encoding name of current database",
		Eval: func(*Context, []sqltypes.Value) (sqltypes.Value, error) { return sqltypes.NewText("UTF8"), nil }})
	Register("pg_client_encoding", Overload{Result: Returns(sqltypes.Type{ID: sqltypes.Name}), Volatility: Stable, Doc: "encoding name of current database",
		Eval: func(ctx *Context, _ []sqltypes.Value) (sqltypes.Value, error) {
			if ctx != nil && ctx.Settings != nil {
				if v, ok := ctx.Settings("client_encoding"); ok && v != "" {
					return sqltypes.NewText(v), nil
				}
			}
			return sqltypes.NewText("UTF8"), nil
		}})
	Register("getpgusername", Overload{Result: Returns(sqltypes.Type{ID: sqltypes.Name}), Volatility: Stable, Doc: "deprecated, use current_user instead",
		Eval: func(ctx *Context, _ []sqltypes.Value) (sqltypes.Value, error) {
			if ctx == nil {
				return sqltypes.Null, nil
			}
			return sqltypes.NewText(ctx.Session.User), nil
		}})
	// zproxy has no triggers, so no trigger is ever running.
	Register("pg_trigger_depth", Overload{Result: Returns(sqltypes.TypeInt4), Volatility: Stable, Doc: "current trigger depth",
		Eval: func(*Context, []sqltypes.Value) (sqltypes.Value, error) { return sqltypes.NewInt(0), nil }})
}

// jsonb_set_lax(target, path, new_value [, create_if_missing [,
// null_value_treatment]]): jsonb_set, except that a NULL new_value does
// what null_value_treatment says (use_json_null, the default; delete_key;
// return_target; raise_exception) instead of making the result NULL.
func jsonbSetLax(a []sqltypes.Value) (sqltypes.Value, error) {
	if a[0].IsNull() || a[1].IsNull() || a[3].IsNull() {
		return sqltypes.Null, nil
	}
	if a[4].IsNull() {
		return sqltypes.Null, pgerr.New(pgerr.InvalidParameterValue, "null_value_treatment must be \"delete_key\", \"return_target\", \"use_json_null\", or \"raise_exception\"")
	}
	if !a[2].IsNull() {
		return sqltypes.JSONBSet(a[0], a[1], a[2], a[3].Bool())
	}
	switch a[4].S {
	case "raise_exception":
		return sqltypes.Null, pgerr.New(pgerr.NullValueNotAllowed, "JSON value must not be null").
			WithDetail("Exception was raised because null_value_treatment is \"raise_exception\".").
			WithHint("To avoid, either change the null_value_treatment argument or ensure that an SQL NULL is not passed.")
	case "use_json_null":
		null, err := sqltypes.ParseText(sqltypes.TypeJSONB, "null")
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.JSONBSet(a[0], a[1], null, a[3].Bool())
	case "delete_key":
		return sqltypes.JSONBDeletePath(a[0], a[1])
	case "return_target":
		return a[0], nil
	}
	return sqltypes.Null, pgerr.New(pgerr.InvalidParameterValue, "null_value_treatment must be \"delete_key\", \"return_target\", \"use_json_null\", or \"raise_exception\"")
}

func init() {
	jsonb, path := T(sqltypes.TypeJSONB), T(sqltypes.ArrayOf(sqltypes.TypeText))
	set := func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		// The defaults PostgreSQL declares: create_if_missing true,
		// null_value_treatment 'use_json_null'.
		full := append([]sqltypes.Value(nil), a...)
		if len(full) < 4 {
			full = append(full, sqltypes.NewBool(true))
		}
		if len(full) < 5 {
			full = append(full, sqltypes.NewText("use_json_null"))
		}
		return jsonbSetLax(full)
	}
	doc := "replace part of a jsonb, with a rule for an SQL NULL new value"
	Register("jsonb_set_lax",
		Overload{Params: []Param{jsonb, path, jsonb}, Result: Returns(sqltypes.TypeJSONB), CalledOnNull: true, Doc: doc, Eval: set},
		Overload{Params: []Param{jsonb, path, jsonb, T(sqltypes.TypeBool)}, Result: Returns(sqltypes.TypeJSONB), CalledOnNull: true, Doc: doc, Eval: set},
		Overload{Params: []Param{jsonb, path, jsonb, T(sqltypes.TypeBool), T(sqltypes.TypeText)}, Result: Returns(sqltypes.TypeJSONB), CalledOnNull: true, Doc: doc, Eval: set})
}
