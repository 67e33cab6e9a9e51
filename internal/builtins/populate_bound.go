package builtins

// json[b]_populate_record and json[b]_populate_recordset the planner binds
// itself (planner/record.go), their result being the named composite type
// of their first argument; listed here so pg_proc has them. json's third
// argument, use_json_as_text, PostgreSQL ignores.
func init() {
	stable := func(o Overload) Overload { return o.WithVolatility(Stable) }
	set := func(o Overload) Overload { o.Retset = true; return stable(o) }
	RegisterPlannerBound("json_populate_record", stable(Sig("a record of the base's type, its fields from the object's keys", AnyElement, AnyElement, tJSON, tBool)))
	RegisterPlannerBound("jsonb_populate_record", stable(Sig("a record of the base's type, its fields from the object's keys", AnyElement, AnyElement, tJSONB)))
	RegisterPlannerBound("json_populate_recordset", set(Sig("a record of the base's type per object of the array", AnyElement, AnyElement, tJSON, tBool)))
	RegisterPlannerBound("jsonb_populate_recordset", set(Sig("a record of the base's type per object of the array", AnyElement, AnyElement, tJSONB)))
	// json[b]_to_record(set) in FROM, with a column definition list
	// (planner/coldef.go).
	strict := func(o Overload) Overload { o.CalledOnNull = false; return stable(o) }
	RegisterPlannerBound("json_to_record", strict(Sig("a record of the column definition list's columns from the object's keys", Record, tJSON)))
	RegisterPlannerBound("jsonb_to_record", strict(Sig("a record of the column definition list's columns from the object's keys", Record, tJSONB)))
	RegisterPlannerBound("json_to_recordset", set(Sig("a record of the column definition list's columns per object of the array", Record, tJSON)))
	RegisterPlannerBound("jsonb_to_recordset", set(Sig("a record of the column definition list's columns per object of the array", Record, tJSONB)))
}
