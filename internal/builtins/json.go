package builtins

import (
	"strings"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The json and jsonb functions (the set-returning ones are table
// functions of the planner and executor). The documents' semantics live in
// package sqltypes.

var (
	jsonT     = T(sqltypes.TypeJSON)
	jsonbT    = T(sqltypes.TypeJSONB)
	textArray = T(sqltypes.ArrayOf(sqltypes.TypeText))
	boolT     = T(sqltypes.TypeBool)
)

// jsonInputs converts "any" arguments as the JSON functions take them, in
// the session's output settings (a nil ctx: PostgreSQL's defaults).
func jsonInputs(ctx *Context, ts []sqltypes.Type, a []sqltypes.Value) []sqltypes.Value {
	var st sqltypes.Style
	if ctx != nil {
		st = ctx.OutputStyle()
	}
	out := make([]sqltypes.Value, len(a))
	for i, v := range a {
		out[i] = sqltypes.JSONInputStyled(ts[i], v, st)
	}
	return out
}

// anyJSON is an overload over "any" arguments (variadic when min >= 0)
// that sees NULLs and the arguments' types. It is stable, as in
// PostgreSQL: the JSON of a float, bytea, interval or timestamptz depends
// on the session's settings.
func anyJSON(result sqltypes.Type, min int, f func(a []sqltypes.Value) (sqltypes.Value, error)) Overload {
	o := Overload{Params: []Param{AnyParam}, CalledOnNull: true, Result: Returns(result), Volatility: Stable,
		Typed: func(ts []sqltypes.Type) func(*Context, []sqltypes.Value) (sqltypes.Value, error) {
			return func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) { return f(jsonInputs(ctx, ts, a)) }
		}}
	if min >= 0 {
		o.Variadic, o.MinArgs, o.Params[0].Pseudo, o.Volatility = true, min, AnyType, Stable
	}
	return o
}

// noArgs is the zero-argument form of a variadic json builder
// (json_build_object() is a function of its own in pg_proc).
func noArgs(o Overload) Overload {
	o.Params, o.Variadic, o.MinArgs = nil, false, 0
	return o
}

func jsonFn(params []Param, result sqltypes.Type, f func(a []sqltypes.Value) (sqltypes.Value, error)) Overload {
	return Overload{Params: params, Result: Returns(result), Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) { return f(a) }}
}

func init() {
	// to_json and to_jsonb are strict and, as they print values with
	// their types' output functions (timestamptz's reads TimeZone),
	// stable.
	Register("to_json", anyJSON(sqltypes.TypeJSON, -1, func(a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.ToJSON(a[0])
	}).Strict().WithVolatility(Stable))
	Register("to_jsonb", anyJSON(sqltypes.TypeJSONB, -1, func(a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.ToJSONB(a[0])
	}).Strict().WithVolatility(Stable))
	Register("json_build_object", anyJSON(sqltypes.TypeJSON, 1, sqltypes.JSONBuildObject), noArgs(anyJSON(sqltypes.TypeJSON, 1, sqltypes.JSONBuildObject)))
	Register("jsonb_build_object", anyJSON(sqltypes.TypeJSONB, 1, sqltypes.JSONBBuildObject), noArgs(anyJSON(sqltypes.TypeJSONB, 1, sqltypes.JSONBBuildObject)))
	buildArray := sqltypes.JSONBuildArray
	Register("json_build_array", anyJSON(sqltypes.TypeJSON, 1, buildArray), noArgs(anyJSON(sqltypes.TypeJSON, 1, buildArray)))
	Register("jsonb_build_array", anyJSON(sqltypes.TypeJSONB, 1, sqltypes.JSONBBuildArray), noArgs(anyJSON(sqltypes.TypeJSONB, 1, sqltypes.JSONBBuildArray)))

	Register("json_typeof", jsonFn([]Param{jsonT}, sqltypes.TypeText, func(a []sqltypes.Value) (sqltypes.Value, error) { return sqltypes.JSONTypeof(a[0]) }))
	Register("jsonb_typeof", jsonFn([]Param{jsonbT}, sqltypes.TypeText, func(a []sqltypes.Value) (sqltypes.Value, error) { return sqltypes.JSONTypeof(a[0]) }))
	Register("json_array_length", jsonFn([]Param{jsonT}, sqltypes.TypeInt4, func(a []sqltypes.Value) (sqltypes.Value, error) { return sqltypes.JSONArrayLength(a[0]) }))
	Register("jsonb_array_length", jsonFn([]Param{jsonbT}, sqltypes.TypeInt4, func(a []sqltypes.Value) (sqltypes.Value, error) { return sqltypes.JSONArrayLength(a[0]) }))
	Register("json_strip_nulls", jsonFn([]Param{jsonT}, sqltypes.TypeJSON, func(a []sqltypes.Value) (sqltypes.Value, error) { return sqltypes.JSONStripNulls(a[0]) }))
	Register("jsonb_strip_nulls", jsonFn([]Param{jsonbT}, sqltypes.TypeJSONB, func(a []sqltypes.Value) (sqltypes.Value, error) { return sqltypes.JSONBStripNulls(a[0]), nil }))
	Register("jsonb_pretty", jsonFn([]Param{jsonbT}, sqltypes.TypeText, func(a []sqltypes.Value) (sqltypes.Value, error) {
		s, err := sqltypes.JSONBPretty(a[0])
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewText(s), nil
	}))

	// jsonb_set(target, path, new_value [, create_missing true]) and
	// jsonb_insert(target, path, new_value [, insert_after false]).
	for _, name := range []string{"jsonb_set", "jsonb_insert"} {
		set := name == "jsonb_set"
		edit := func(a []sqltypes.Value, flag bool) (sqltypes.Value, error) {
			if set {
				return sqltypes.JSONBSet(a[0], a[1], a[2], flag)
			}
			return sqltypes.JSONBInsert(a[0], a[1], a[2], flag)
		}
		Register(name,
			jsonFn([]Param{jsonbT, textArray, jsonbT}, sqltypes.TypeJSONB, func(a []sqltypes.Value) (sqltypes.Value, error) { return edit(a, set) }),
			jsonFn([]Param{jsonbT, textArray, jsonbT, boolT}, sqltypes.TypeJSONB, func(a []sqltypes.Value) (sqltypes.Value, error) { return edit(a, a[3].Bool()) }))
	}

	// json[b]_extract_path[_text](doc, VARIADIC path): the #> operators.
	for _, doc := range []Param{jsonT, jsonbT} {
		for _, asText := range []bool{false, true} {
			name, result, get := doc.Type.String()+"_extract_path", doc.Type, sqltypes.JSONGetPath
			if asText {
				name, result, get = name+"_text", sqltypes.TypeText, sqltypes.JSONGetPathText
			}
			Register(name, Overload{Params: []Param{doc, text}, Variadic: true, MinArgs: 1, Result: Returns(result),
				Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
					return get(a[0], sqltypes.NewArray1(sqltypes.TypeText, append([]sqltypes.Value(nil), a[1:]...)))
				}})
		}
	}
}

func init() {
	// row_to_json(t) of a whole row: the planner has made it json already.
	// row_to_json(record): the planner turns the row into json before the
	// call (planner/rowjson.go), so the value arriving is that json; pg_proc
	// declares the record PostgreSQL's takes.
	Register("row_to_json", Overload{Params: []Param{{Type: sqltypes.TypeJSON, Pseudo: Record}}, Result: Returns(sqltypes.TypeJSON), Volatility: Stable,
		Doc: "map row to json", Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) { return a[0], nil }},
		Overload{Params: []Param{{Type: sqltypes.TypeJSON, Pseudo: Record}, T(sqltypes.TypeBool)}, Result: Returns(sqltypes.TypeJSON), Volatility: Stable,
			Doc: "map row to json with optional pretty printing", Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				if !a[1].Bool() {
					return a[0], nil
				}
				return sqltypes.NewJSON(prettyRowJSON(a[0].S)), nil
			}})
}

// prettyRowJSON is row_to_json's pretty form of the row's json object s:
// a line feed and a space after each comma between its fields (the
// fields' own values are left as they are).
func prettyRowJSON(s string) string {
	var b strings.Builder
	depth, inString, escaped := 0, false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		b.WriteByte(c)
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
		case c == ',' && depth == 1:
			b.WriteString("\n ")
		}
	}
	return b.String()
}
