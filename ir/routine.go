package ir

import (
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/parser"
)

// RoutineChange is CREATE, ALTER or DROP FUNCTION or PROCEDURE: the
// executor applies it to the catalog as it is when the change commits
// (executor.ChangeRoutine), resolving the routines DROP and ALTER name
// there.
type RoutineChange struct {
	*parser.RoutineStatement
	// Params are CREATE's parameters (RETURNS TABLE's columns last) and
	// Result its result type, with user-defined types resolved.
	Params []catalog.FuncParam
	Result sqltypes.Type
	// RowType and RowColumns are RETURNS [SETOF] table's table and its
	// columns.
	RowType    string
	RowColumns []catalog.FuncParam
	// RefArgs are the argument types of each of Refs (nil where a ref
	// names no argument list), resolved.
	RefArgs [][]sqltypes.Type
	// AggDef is CREATE AGGREGATE's definition, its types and support
	// functions resolved.
	AggDef *catalog.AggregateDef
	// OperDef is CREATE OPERATOR's operator (its COMMUTATOR and NEGATOR
	// resolved as the change commits) and DropOps DROP OPERATOR's
	// operators (name, kind and operand types); CastDef is CREATE or
	// DROP CAST's cast.
	OperDef *catalog.Operator
	DropOps []catalog.Operator
	CastDef *catalog.Cast
	// Skipped are the notices of DROP ... IF EXISTS for the objects it
	// named over types that do not exist (left out of Refs, DropOps and
	// CastDef).
	Skipped []string
}

// Kind implements Statement.
func (*RoutineChange) Kind() string { return "routine" }

// Describe implements Statement: creating a routine needs CREATE on its
// schema; changing or dropping one, its ownership (checked where the
// routine is resolved, executor.ChangeRoutine).
func (x *RoutineChange) Describe() Description {
	kind := "FUNCTION"
	if x.Procedure {
		kind = "PROCEDURE"
	}
	switch {
	case x.Aggregate != nil:
		kind = "AGGREGATE"
	case x.Operator != nil:
		kind = "OPERATOR"
	case x.Cast != nil:
		kind = "CAST"
	}
	switch x.Action {
	case parser.RoutineCreate:
		d := ddl()
		d.CreatesIn = catalog.PublicSchema
		if x.Operator == nil && x.Cast == nil && len(x.Refs) > 0 {
			d.CreatesIn, _ = catalog.SplitName(x.Refs[0].Name) // the key's schema (planner/schemas.go)
		}
		if x.OperDef != nil {
			d.CreatesIn = x.OperDef.Schema() // the binder's key
		}
		return d.tagged("CREATE " + kind)
	case parser.RoutineDrop:
		return ddl().tagged("DROP " + kind)
	case parser.RoutineComment:
		return ddl().tagged("COMMENT")
	case parser.RoutineGrant:
		tag := "GRANT"
		if x.Revoke {
			tag = "REVOKE"
		}
		return Description{Class: ClassDCL, ChangesSchema: true, Writes: true, Tag: tag}
	}
	d := ddl()
	switch {
	case x.SetSchema && x.Operator != nil:
		d.CreatesIn = x.NewName // an operator's SET SCHEMA names the schema alone
	case x.SetSchema:
		d.CreatesIn, _ = catalog.SplitName(x.NewName)
	}
	return d.tagged("ALTER " + kind)
}

// Function is the descriptor CREATE defines, owned by owner, before the
// catalog gives it an OID; PostgreSQL's defaults fill the options not
// given (VOLATILE, CALLED ON NULL INPUT, SECURITY INVOKER, PARALLEL
// UNSAFE, COST 100, ROWS 1000 for a set).
func (x *RoutineChange) Function(owner string) *catalog.Function {
	fn := &catalog.Function{Name: x.Routine().Name, Kind: 'f', Params: x.Params, Result: x.Result, ReturnsSet: x.ReturnsSet, Trigger: x.Trigger,
		RowType: x.RowType, RowColumns: x.RowColumns,
		Language: x.Options.Language, Body: x.Body, Atomic: x.Atomic, Return: x.Return,
		Volatility: 'v', Parallel: 'u', Cost: 100, Owner: owner}
	if x.Procedure {
		fn.Kind = 'p'
	}
	if x.ReturnsSet {
		fn.Rows = 1000
	}
	if x.AggDef != nil {
		// pg_proc's row of an aggregate: language internal, immutable,
		// COST 1, as PostgreSQL's AggregateCreate makes it.
		fn.Kind, fn.Aggregate, fn.Body, fn.Volatility, fn.Cost = 'a', x.AggDef, "aggregate_dummy", 'i', 1
		if p := x.RoutineStatement.Aggregate.Parallel; p != 0 {
			fn.Parallel = p
		}
		return fn
	}
	ApplyRoutineOptions(fn, x.Options)
	return fn
}

// ApplyRoutineOptions sets the options given on fn.
func ApplyRoutineOptions(fn *catalog.Function, o parser.RoutineOptions) {
	if o.Volatility != 0 {
		fn.Volatility = o.Volatility
	}
	if o.Strict != nil {
		fn.Strict = *o.Strict
	}
	if o.Definer != nil {
		fn.Definer = *o.Definer
	}
	if o.Leakproof != nil {
		fn.Leakproof = *o.Leakproof
	}
	if o.Parallel != 0 {
		fn.Parallel = o.Parallel
	}
	if o.Cost != 0 {
		fn.Cost = o.Cost
	}
	if o.Rows != 0 {
		fn.Rows = o.Rows
	}
	for _, c := range o.Config {
		name, value, _ := strings.Cut(c, "=")
		fn.Config = catalog.ConfigSet(fn.Config, name, value)
	}
}

// Call is CALL procedure(args): the procedure resolved by the binder,
// its input arguments bound and cast to its parameters' types.
type Call struct {
	Permissions
	Routine *catalog.Function
	Args    []Expr
	// Cols are the result's columns: the procedure's OUT and INOUT
	// parameters (none: CALL returns no row).
	Cols []Column
}

// Kind implements Statement.
func (*Call) Kind() string { return "call" }

// Describe implements Statement: CALL is a utility statement whose body
// decides what it writes (a read-only transaction refuses the writes, not
// the CALL, as PostgreSQL does).
func (*Call) Describe() Description { return Description{Class: ClassUtility, Tag: "CALL"} }

// Do is a DO block: PL/pgSQL code run once, in the statement's
// transaction.
type Do struct {
	Body string
}

// Kind implements Statement.
func (*Do) Kind() string { return "do" }

// Describe implements Statement: DO is a utility statement whose code
// decides what it writes.
func (*Do) Describe() Description { return Description{Class: ClassUtility, Tag: "DO"} }

// TriggerChange is CREATE, DROP or ALTER TRIGGER, or ALTER TABLE ...
// ENABLE | DISABLE TRIGGER: the executor applies it to the table's
// descriptor (executor.ChangeTrigger). Function is CREATE's trigger
// function, resolved by the binder; View says the trigger's relation is
// a view; OldTable and NewTable name its transition tables.
type TriggerChange struct {
	*parser.TriggerStatement
	Function           *catalog.Function
	View               bool
	OldTable, NewTable string
}

// Kind implements Statement.
func (*TriggerChange) Kind() string { return "trigger" }

// Describe implements Statement: a trigger is its table's, so changing
// one needs the table's ownership.
func (x *TriggerChange) Describe() Description {
	d := ddl(ObjectRef{Kind: ObjectTable, Name: x.Table})
	if x.View {
		d = ddl(ObjectRef{Kind: ObjectView, Name: x.Table})
	}
	switch x.Action {
	case parser.TriggerCreate:
		return d.tagged("CREATE TRIGGER")
	case parser.TriggerDrop:
		return d.tagged("DROP TRIGGER")
	case parser.TriggerRename:
		return d.tagged("ALTER TRIGGER")
	}
	return d.tagged("ALTER TABLE")
}
