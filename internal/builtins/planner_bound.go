package builtins

import "github.com/zproxy/zproxy/internal/sqltypes"

// Set-returning functions the planner binds itself in FROM
// (planner/tablefunc.go), listed here so pg_proc has them. COALESCE,
// NULLIF, GREATEST and LEAST, which the planner binds too, are syntax in
// PostgreSQL, not functions, and pg_proc has no row of them.
func init() {
	set := func(o Overload) Overload { o.CalledOnNull, o.Retset = false, true; return o }
	tTextArray := sqltypes.ArrayOf(tText)
	RegisterPlannerBound("unnest", set(Sig("the array's elements as rows", AnyElement, AnyArray)),
		set(Sig("the multirange's ranges as rows", AnyRange, AnyMultirange)))
	// pg_typeof(x) the planner answers from x's type (planner/pgexpr.go).
	RegisterPlannerBound("pg_typeof", Sig("type of the argument", sqltypes.TypeRegType, AnyType).WithVolatility(Stable))
	RegisterPlannerBound("generate_subscripts", set(Sig("the subscripts of the array's given dimension as rows", tInt4, AnyArray, tInt4)),
		set(Sig("the subscripts of the array's given dimension as rows, in reverse order if asked", tInt4, AnyArray, tInt4, tBool)))
	RegisterPlannerBound("regexp_matches",
		set(Sig("the captured substrings of the first match as a text array", tTextArray, tText, tText)),
		set(Sig("the captured substrings of each match (with flag g) as text arrays", tTextArray, tText, tText, tText)))
	RegisterPlannerBound("regexp_split_to_table",
		set(Sig("the string split at each match as rows", tText, tText, tText)),
		set(Sig("the string split at each match as rows, with flags", tText, tText, tText, tText)))
	// The json set-returning functions (planner/tablefunc_json.go).
	for _, doc := range []sqltypes.Type{tJSON, tJSONB} {
		p := doc.String()
		RegisterPlannerBound(p+"_each", set(Sig("the object's top-level key/value pairs as rows", Record, doc)))
		RegisterPlannerBound(p+"_each_text", set(Sig("the object's top-level key/value pairs as rows, values as text", Record, doc)))
		RegisterPlannerBound(p+"_array_elements", set(Sig("the array's elements as rows", doc, doc)))
		RegisterPlannerBound(p+"_array_elements_text", set(Sig("the array's elements as rows of text", tText, doc)))
		RegisterPlannerBound(p+"_object_keys", set(Sig("the object's top-level keys as rows", tText, doc)))
	}
}
