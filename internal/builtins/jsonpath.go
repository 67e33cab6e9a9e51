package builtins

import (
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The SQL/JSON path functions and operators of PostgreSQL 15:
// jsonb_path_exists, _match, _query (set-returning), _query_array and
// _query_first, each (target, path [, vars [, silent]]), and jsonb @?
// jsonpath and jsonb @@ jsonpath, which are _exists and _match with
// silent true and no vars. The _tz variants let .datetime()'s items
// compare across zoned and unzoned types in the session's time zone; the
// others raise 0A000 there, as PostgreSQL's.

var jsonpathT = T(sqltypes.TypeJSONPath)

// jsonPathArgs reads a call's arguments: the document, the path, the vars
// object (nil: none) and whether errors are suppressed.
func jsonPathArgs(a []sqltypes.Value) (doc *sqltypes.JSONValue, path *sqltypes.JSONPathTree, vars *sqltypes.JSONValue, silent bool, err error) {
	path, err = a[1].JSONPath()
	if err != nil {
		return nil, nil, nil, false, err
	}
	// A call without vars has the default '{}' (PostgreSQL numbers
	// keyvalue()'s generated objects after it); the operators pass none.
	vars = emptyJSONBObject.JSONB()
	if len(a) > 2 {
		vars = a[2].JSONB()
	}
	if len(a) > 3 {
		silent = a[3].Bool()
	}
	return a[0].JSONB(), path, vars, silent, nil
}

// jsonPathQuery runs the path and returns every item found. tz is the
// session's time zone for the _tz variants, nil for the others (here and
// in JSONPathExists and JSONPathMatch). With errors
// suppressed, the items found before an error are kept, as PostgreSQL
// keeps them.
func jsonPathQuery(tz *time.Location, a []sqltypes.Value) ([]*sqltypes.JSONValue, error) {
	doc, path, vars, silent, err := jsonPathArgs(a)
	if err != nil {
		return nil, err
	}
	var found []*sqltypes.JSONValue
	if _, err := runJSONPath(path, doc, vars, !silent, tz, &found); err != nil && err != errJPSuppressed {
		return nil, err
	}
	for i, v := range found {
		if v.Datetime != nil {
			// A datetime item leaves the evaluation as its string only: a
			// later path over the result sees a string, as in PostgreSQL.
			found[i] = &sqltypes.JSONValue{Kind: sqltypes.JSONString, Str: v.Str}
		}
	}
	return found, nil
}

// JSONPathExists is jsonb_path_exists: NULL when an error was suppressed.
func JSONPathExists(tz *time.Location, a []sqltypes.Value) (sqltypes.Value, error) {
	doc, path, vars, silent, err := jsonPathArgs(a)
	if err != nil {
		return sqltypes.Null, err
	}
	res, err := runJSONPath(path, doc, vars, !silent, tz, nil)
	if err == errJPSuppressed {
		return sqltypes.Null, nil
	}
	if err != nil {
		return sqltypes.Null, err
	}
	return sqltypes.NewBool(res == jpOK), nil
}

// JSONPathMatch is jsonb_path_match: the path's single boolean (a JSON
// null is SQL NULL); anything else is 22038, or NULL when silent.
func JSONPathMatch(tz *time.Location, a []sqltypes.Value) (sqltypes.Value, error) {
	doc, path, vars, silent, err := jsonPathArgs(a)
	if err != nil {
		return sqltypes.Null, err
	}
	var found []*sqltypes.JSONValue
	if _, err := runJSONPath(path, doc, vars, !silent, tz, &found); err != nil && err != errJPSuppressed {
		return sqltypes.Null, err
	}
	if len(found) == 1 {
		switch found[0].Kind {
		case sqltypes.JSONBool:
			return sqltypes.NewBool(found[0].Bool), nil
		case sqltypes.JSONNull:
			return sqltypes.Null, nil
		}
	}
	if !silent {
		return sqltypes.Null, pgerrSingleBoolean()
	}
	return sqltypes.Null, nil
}

func init() {
	params := [][]Param{{jsonbT, jsonpathT}, {jsonbT, jsonpathT, jsonbT}, {jsonbT, jsonpathT, jsonbT, boolT}}
	// zone is the time zone a variant's .datetime() items convert in:
	// the session's for the _tz variants, none for the others.
	zone := func(useTz bool, ctx *Context) *time.Location {
		if !useTz {
			return nil
		}
		if ctx == nil || ctx.Location == nil {
			return time.UTC
		}
		return ctx.Location
	}
	scalar := func(result sqltypes.Type, vol Volatility, doc string, f func(tz *time.Location, a []sqltypes.Value) (sqltypes.Value, error)) []Overload {
		var ovs []Overload
		useTz := vol == Stable
		for _, p := range params {
			ovs = append(ovs, Overload{Params: p, Result: Returns(result), Volatility: vol, Doc: doc,
				Eval: func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) { return f(zone(useTz, ctx), a) }})
		}
		return ovs
	}
	queryArray := func(tz *time.Location, a []sqltypes.Value) (sqltypes.Value, error) {
		found, err := jsonPathQuery(tz, a)
		if err != nil {
			return sqltypes.Null, err
		}
		arr := &sqltypes.JSONValue{Kind: sqltypes.JSONArray, Elems: make([]sqltypes.JSONValue, len(found))}
		for i, v := range found {
			arr.Elems[i] = *v
		}
		return sqltypes.NewJSONB(arr), nil
	}
	queryFirst := func(tz *time.Location, a []sqltypes.Value) (sqltypes.Value, error) {
		found, err := jsonPathQuery(tz, a)
		if err != nil || len(found) == 0 {
			return sqltypes.Null, err
		}
		return sqltypes.NewJSONB(found[0]), nil
	}
	// The _tz variants differ from the others only in .datetime()'s
	// conversions between zoned and unzoned values, which is why they
	// are stable (they read the session's TimeZone).
	for _, tz := range []string{"", "_tz"} {
		vol, docTZ := Immutable, ""
		if tz != "" {
			vol, docTZ = Stable, " with timezone"
		}
		Register("jsonb_path_exists"+tz, scalar(sqltypes.TypeBool, vol, "jsonpath exists test"+docTZ, JSONPathExists)...)
		Register("jsonb_path_match"+tz, scalar(sqltypes.TypeBool, vol, "jsonpath match"+docTZ, JSONPathMatch)...)
		Register("jsonb_path_query_array"+tz, scalar(sqltypes.TypeJSONB, vol, "jsonpath query wrapped into array"+docTZ, queryArray)...)
		Register("jsonb_path_query_first"+tz, scalar(sqltypes.TypeJSONB, vol, "jsonpath query first item"+docTZ, queryFirst)...)
		for _, p := range params {
			Register("jsonb_path_query"+tz, Overload{Params: p, Result: Returns(sqltypes.TypeJSONB), Volatility: vol, Doc: "jsonpath query" + docTZ,
				Set: &SetFunc{Rows: func(ctx *Context, a []sqltypes.Value) (SetRows, error) {
					found, err := jsonPathQuery(zone(tz != "", ctx), a)
					if err != nil {
						return nil, err
					}
					vals := make([]sqltypes.Value, len(found))
					for i, v := range found {
						vals[i] = sqltypes.NewJSONB(v)
					}
					return Column(vals), nil
				}}})
		}
		for _, name := range []string{"jsonb_path_exists", "jsonb_path_match", "jsonb_path_query", "jsonb_path_query_array", "jsonb_path_query_first"} {
			paramNames[name+tz] = paramInfo{names: []string{"target", "path", "vars", "silent"}, optional: 2,
				defaults: []sqltypes.Value{emptyJSONBObject, sqltypes.NewBool(false)}, defaultTypes: []sqltypes.Type{sqltypes.TypeJSONB, sqltypes.TypeBool}}
		}
	}

	// @? and @@: the functions with no vars and errors suppressed
	// (jsonb_path_exists_opr, jsonb_path_match_opr).
	binary := func(doc string, f func(tz *time.Location, a []sqltypes.Value) (sqltypes.Value, error)) Overload {
		return Overload{Params: []Param{jsonbT, jsonpathT}, Result: Returns(sqltypes.TypeBool), Volatility: Immutable, Doc: doc,
			Binary: func(_ *Context, doc, path sqltypes.Value) (sqltypes.Value, error) {
				return f(nil, []sqltypes.Value{doc, path, sqltypes.NewJSONB(nil), sqltypes.NewBool(true)})
			}}
	}
	RegisterOperator("@?", binary("implementation of @? operator", JSONPathExists))
	RegisterOperator("@@", binary("implementation of @@ operator", JSONPathMatch))
}

// emptyJSONBObject is the vars argument's default, '{}'::jsonb.
var emptyJSONBObject = sqltypes.NewJSONB(&sqltypes.JSONValue{Kind: sqltypes.JSONObject})

func pgerrSingleBoolean() error {
	return pgerr.New(pgerr.SingletonSQLJSONItemRequired, "single boolean result is expected")
}
