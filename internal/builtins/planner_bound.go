package builtins

import "github.com/zproxy/zproxy/internal/sqltypes"

// Set-returning functions the planner binds itself in FROM
// (planner/tablefunc.go), listed here so pg_proc has them. COALESCE,
// NULLIF, GREATEST and LEAST, which the planner binds too, are syntax in
// PostgreSQL, not functions, and pg_proc has no row of them.
func init() {
	set := func(o Overload) Overload { o.CalledOnNull, o.Retset = false, true; return o }
	tTextArray := sqltypes.ArrayOf(tText)
	RegisterPlannerBound("unnest", set(Sig("the array's elements as rows", AnyElement, AnyArray)))
	RegisterPlannerBound("generate_subscripts", set(Sig("the subscripts of the array's given dimension as rows", tInt4, AnyArray, tInt4)))
	RegisterPlannerBound("regexp_matches",
		set(Sig("the captured substrings of the first match as a text array", tTextArray, tText, tText)),
		set(Sig("the captured substrings of each match (with flag g) as text arrays", tTextArray, tText, tText, tText)))
	RegisterPlannerBound("regexp_split_to_table",
		set(Sig("the string split at each match as rows", tText, tText, tText)),
		set(Sig("the string split at each match as rows, with flags", tText, tText, tText, tText)))
}
