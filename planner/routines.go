package planner

import (
	"slices"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// User-defined functions and procedures (ARCHITECTURE "Functions"): their
// statements bind here, their calls resolve with the built-ins'
// (builtins.ResolveAmong), and a body binds with its parameters in scope
// (BindRoutineStatement), when the routine runs.

// routineScope is what a routine's body sees besides the schema: its
// variables (a SQL function's parameters, a PL/pgSQL block's variables
// and record fields), by name and by qualified name ("f.a", "r.col"), as
// $n.
type routineScope struct {
	names map[string]int
	// conflict is what a name both a column and a variable means.
	conflict VariableConflict
	// relations are the trigger's transition tables (TransitionTable).
	relations map[string]*catalog.Table
}

// TransitionTable is a trigger's transition table (REFERENCING), which
// the trigger function's statements read by name, before any table of
// that name, as PostgreSQL's ephemeral named relations: its rows are the
// firing's (builtins.Context.Transition).
type TransitionTable struct {
	Name    string
	Columns []catalog.Column
}

// transitionTable returns the transition table a FROM item's unqualified name
// names, as a relation (nil: none).
func (b *Binder) transitionTable(name string) ir.Rel {
	if b.routine == nil || b.viewDepth > 0 {
		return nil
	}
	t, ok := b.routine.relations[name]
	if !ok {
		return nil
	}
	return ir.NewVirtual(t)
}

// Variable is a name a routine's statement may read as a value: $N for
// the N-th of the statement's variables. Qualifier is what may qualify it
// (the function's name for a parameter, a block's label, a record's
// name for its field).
type Variable struct {
	Name, Qualifier string
	Type            sqltypes.Type
	// Field marks a record's field, which only its qualified name
	// (r.col) names.
	Field bool
}

// VariableConflict is what a name that is both a table's column and a
// variable means in a PL/pgSQL statement (#variable_conflict).
type VariableConflict byte

// The ways a name's conflict resolves.
const (
	// ConflictError is 42702, PostgreSQL's default for PL/pgSQL.
	ConflictError VariableConflict = iota
	// ConflictUseVariable and ConflictUseColumn take the variable or the
	// column (a SQL function's statements: the column).
	ConflictUseVariable
	ConflictUseColumn
)

// ParseVariableConflict reads #variable_conflict's option ("" is the
// default, error).
func ParseVariableConflict(s string) VariableConflict {
	switch s {
	case "use_variable":
		return ConflictUseVariable
	case "use_column":
		return ConflictUseColumn
	}
	return ConflictError
}

// routineParam resolves a column name, unqualified or qualified, to the
// routine's variable of that name, if it has one (nil otherwise). A name
// that no column has is the variable; one that a column has too is as the
// scope's conflict says (variableConflict).
func (b *Binder) routineParam(name *ast.ColumnName) ir.Expr {
	r := b.routine
	if r == nil || name.Schema.L != "" {
		return nil
	}
	key := name.Name.L
	if name.Table.L != "" {
		key = name.Table.L + "." + key
	}
	n, ok := r.names[key]
	if !ok {
		return nil
	}
	return &ir.Param{N: n, Typ: b.params[n-1]}
}

// variableConflict decides what column name n, which names column e,
// means when it names one of the routine's variables too: the variable
// (use_variable) or PostgreSQL's 42702 (error).
func (b *Binder) variableConflict(e ir.Expr, n *ast.ColumnNameExpr) (ir.Expr, error) {
	p := b.routineParam(n.Name)
	switch {
	case p == nil:
		return e, nil
	case b.routine.conflict == ConflictUseVariable:
		return p, nil
	}
	name := n.Name.Name.O
	if n.Name.Table.O != "" {
		name = n.Name.Table.O + "." + name
	}
	err := pgerr.New(pgerr.AmbiguousColumn, "column reference \"%s\" is ambiguous", name).
		WithDetail("It could refer to either a PL/pgSQL variable or a table column.")
	if b.stmt != nil {
		err = err.WithPosition(b.exprPosition(n))
	}
	return nil, err
}

// newVariableScope is the scope of vars ($1 the first); a later
// variable of a name hides an earlier one.
func newVariableScope(vars []Variable, conflict VariableConflict) *routineScope {
	r := &routineScope{names: map[string]int{}, conflict: conflict}
	for i, v := range vars {
		if v.Name == "" {
			continue
		}
		if !v.Field {
			r.names[v.Name] = i + 1
		}
		if v.Qualifier != "" {
			r.names[v.Qualifier+"."+v.Name] = i + 1
		}
	}
	return r
}

// inputVariables are fn's input parameters as variables.
func inputVariables(fn *catalog.Function) []Variable {
	var vs []Variable
	for _, p := range fn.Inputs() {
		vs = append(vs, Variable{Name: p.Name, Qualifier: fn.Name, Type: p.Type})
	}
	return vs
}

// newRoutineScope is the scope of a SQL function's body.
func newRoutineScope(fn *catalog.Function) *routineScope {
	return newVariableScope(inputVariables(fn), ConflictUseColumn)
}

// BindRoutineStatement binds one statement of fn's body: its $n and its
// parameters' names are the routine's arguments, of the parameters'
// types. A SECURITY DEFINER routine's relations are checked as its
// owner's.
func BindRoutineStatement(snap *catalog.Snapshot, fn *catalog.Function, stmt *parser.Statement, style sqltypes.Style) (ir.Statement, error) {
	owner := ""
	if fn.Definer {
		owner = fn.Owner
	}
	return BindWithVariables(snap, stmt, inputVariables(fn), owner, style)
}

// BindWithVariables binds a statement of a routine's body whose $N and
// variable names are vars (a PL/pgSQL statement: the variables in scope
// where it is). checkAs, when set, is the role whose privileges the
// statement's relations are checked with (a SECURITY DEFINER routine's
// owner).
func BindWithVariables(snap *catalog.Snapshot, stmt *parser.Statement, vars []Variable, checkAs string, style sqltypes.Style) (ir.Statement, error) {
	return bindWithScope(snap, stmt, vars, nil, ConflictUseColumn, checkAs, style)
}

// BindPLStatement binds a statement of a PL/pgSQL body: as
// BindWithVariables, with a trigger function's transition tables, and a
// name both a column and a variable meaning what conflict says.
func BindPLStatement(snap *catalog.Snapshot, stmt *parser.Statement, vars []Variable, tables []TransitionTable, conflict VariableConflict, checkAs string, style sqltypes.Style) (ir.Statement, error) {
	return bindWithScope(snap, stmt, vars, tables, conflict, checkAs, style)
}

// PLBindable reports whether a statement of a routine's body binds with
// the body's variables (BindPLStatement): a query, an INSERT, UPDATE or
// DELETE, or a CALL. Any other statement is a utility statement, which a
// PL/pgSQL body hands to the session to run as a client's statement runs
// (PostgreSQL's SPI runs utility statements without parameters too).
func PLBindable(stmt *parser.Statement) bool {
	if rs := stmt.Routine; rs != nil && rs.Action == parser.RoutineCall {
		return true
	}
	if stmt.AST == nil || stmt.CreateAs != nil || stmt.Explain != nil {
		return false
	}
	switch stmt.AST.(type) {
	case *ast.SelectStmt, *ast.SetOprStmt, *ast.InsertStmt, *ast.UpdateStmt, *ast.DeleteStmt:
		return true
	}
	return false
}

func bindWithScope(snap *catalog.Snapshot, stmt *parser.Statement, vars []Variable, tables []TransitionTable, conflict VariableConflict, checkAs string, style sqltypes.Style) (ir.Statement, error) {
	if rs := stmt.Routine; rs != nil && rs.Action == parser.RoutineCall {
		// PL/pgSQL's CALL: the arguments may name variables.
		b := &Binder{snap: snap, stmt: rs.Call, loc: style.Location, style: style, routine: newVariableScope(vars, conflict), checkAs: checkAs}
		b.params, b.declared = make([]sqltypes.Type, len(vars)), make([]bool, len(vars))
		for i, v := range vars {
			b.params[i], b.declared[i] = v.Type, true
		}
		return b.bindCall(rs)
	}
	if !PLBindable(stmt) {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "only SELECT, INSERT, UPDATE and DELETE are supported in the body of a function").
			WithDetail("The body has %s.", firstWords(stmt.Text))
	}
	b := &Binder{snap: snap, stmt: stmt, loc: style.Location, style: style, routine: newVariableScope(vars, conflict), checkAs: checkAs}
	for _, tt := range tables {
		if b.routine.relations == nil {
			b.routine.relations = map[string]*catalog.Table{}
		}
		name := tt.Name
		b.routine.relations[name] = &catalog.Table{Name: name, Columns: tt.Columns, Virtual: func(fn *builtins.Context) ([][]sqltypes.Value, error) {
			rows, ok := fn.Transition[name]
			if !ok {
				return nil, pgerr.New(pgerr.UndefinedTable, "transition table %q is not available here", name)
			}
			return rows, nil
		}}
	}
	n := max(stmt.NumParams, len(vars))
	b.params, b.declared = make([]sqltypes.Type, n), make([]bool, n)
	for i, v := range vars {
		b.params[i], b.declared[i] = v.Type, true
	}
	st, err := b.bindStmt(stmt.AST)
	if err != nil {
		return nil, err
	}
	st = withWrites(st, b.writes)
	b.finishPermissions(st)
	if len(b.params) > len(vars) {
		return nil, pgerr.New(pgerr.UndefinedParameter, "there is no parameter $%d", len(vars)+1)
	}
	return st, nil
}

// firstWords is the statement's first two words, in capitals, for
// messages.
func firstWords(text string) string {
	f := strings.Fields(text)
	if len(f) > 2 {
		f = f[:2]
	}
	return strings.ToUpper(strings.Join(f, " "))
}

// ParseRoutineBody parses fn's body into its statements.
func ParseRoutineBody(fn *catalog.Function) ([]parser.Statement, error) {
	stmts, err := parser.Parse(fn.Body)
	if err != nil {
		return nil, err
	}
	return stmts, nil
}

// CheckRoutineBody validates a SQL routine's body as PostgreSQL's
// check_function_bodies does at CREATE: every statement binds, and the
// last one returns what the routine is declared to return.
func CheckRoutineBody(snap *catalog.Snapshot, fn *catalog.Function, style sqltypes.Style) error {
	if fn.IsAggregate() {
		return nil // its support functions were resolved as it was bound
	}
	if fn.Language == "plpgsql" {
		// PostgreSQL's plpgsql_validator compiles the body: its names,
		// labels and RETURNs are checked; its SQL binds when it runs.
		b, err := parser.ParsePLpgSQL(fn.Body)
		if err != nil {
			return err
		}
		return parser.CheckPLpgSQL(fn.Body, b, PLRoutineOf(fn))
	}
	stmts, err := ParseRoutineBody(fn)
	if err != nil {
		return err
	}
	var last ir.Statement
	for i := range stmts {
		if last, err = BindRoutineStatement(snap, fn, &stmts[i], style); err != nil {
			return err
		}
	}
	return CheckRoutineResult(fn, last)
}

// PLRoutineOf is what PL/pgSQL's compile-time checks know of fn.
func PLRoutineOf(fn *catalog.Function) parser.PLRoutine {
	_, name := catalog.SplitName(fn.Name)
	r := parser.PLRoutine{Name: name, Trigger: fn.Trigger, Procedure: fn.Procedure(), Set: fn.ReturnsSet,
		Void: fn.Result.ID == sqltypes.Void && !fn.Trigger}
	for _, p := range fn.Params {
		r.Params = append(r.Params, parser.PLParam{Name: p.Name, Output: p.IsOutput(),
			Record: p.Type.ID == sqltypes.Record || p.Type.ID == sqltypes.Unknown})
	}
	return r
}

// ResultColumns are the columns a statement of a routine's body returns
// (nil for a write without RETURNING).
func ResultColumns(st ir.Statement) []ir.Column {
	switch x := st.(type) {
	case *ir.Query:
		return x.Plan.Columns()
	case *ir.Insert:
		if x.Returning != nil {
			return x.Returning.Cols
		}
	case *ir.Update:
		if x.Returning != nil {
			return x.Returning.Cols
		}
	case *ir.Delete:
		if x.Returning != nil {
			return x.Returning.Cols
		}
	}
	return nil
}

// CheckRoutineResult checks that last, the final statement of fn's body
// (nil for an empty body), returns fn's result, as PostgreSQL's
// check_sql_fn_retval: a function returning void may end in anything,
// another must end in a query (or a write's RETURNING) whose columns
// assign to its result's.
func CheckRoutineResult(fn *catalog.Function, last ir.Statement) error {
	if fn.Procedure() && len(fn.Outputs()) == 0 || fn.Result.ID == sqltypes.Void {
		return nil
	}
	mismatch := func(detail string, args ...any) error {
		return pgerr.New(pgerr.InvalidFunctionDefinition, "return type mismatch in function declared to return %s", fn.Result).
			WithDetail(detail, args...)
	}
	var cols []ir.Column
	if last != nil {
		cols = ResultColumns(last)
	}
	if cols == nil {
		return mismatch("Function's final statement must be SELECT or INSERT/UPDATE/DELETE RETURNING.")
	}
	want := RoutineResultTypes(fn)
	if rowOfComposite(fn, cols) {
		// A function returning a composite type may end in a query of
		// the type's columns (check_sql_fn_retval's row form).
		want = fn.Result.Composite.FieldTypes()
	}
	if len(cols) > len(want) {
		return mismatch("Final statement returns too many columns.")
	}
	if len(cols) < len(want) {
		return mismatch("Final statement returns too few columns.")
	}
	for i, c := range cols {
		if c.Type.ID != sqltypes.Unknown && !castAllowedAssignment(c.Type, want[i]) {
			if len(want) == 1 && len(fn.Outputs()) <= 1 {
				return mismatch("Actual return type is %s.", c.Type)
			}
			return mismatch("Final statement returns %s instead of %s at column %d.", c.Type, want[i], i+1)
		}
	}
	return nil
}

// RoutineResultTypes are the types of the columns of fn's result rows:
// its output parameters', or its result type.
func RoutineResultTypes(fn *catalog.Function) []sqltypes.Type {
	outs := fn.Outputs()
	if len(outs) == 0 {
		return []sqltypes.Type{fn.Result}
	}
	ts := make([]sqltypes.Type, len(outs))
	for i, p := range outs {
		ts[i] = p.Type
	}
	return ts
}

// RoutineResultColumns are the columns a call of fn in FROM yields.
func RoutineResultColumns(fn *catalog.Function) []builtins.SetColumn {
	outs := fn.Outputs()
	if len(outs) == 0 {
		return []builtins.SetColumn{{Name: fn.Name, Type: fn.Result}}
	}
	cols := make([]builtins.SetColumn, len(outs))
	for i, p := range outs {
		name := p.Name
		if name == "" {
			name = "column" + strconv.Itoa(i+1)
		}
		cols[i] = builtins.SetColumn{Name: name, Type: p.Type}
	}
	return cols
}

// Languages PostgreSQL knows that zproxy does not run: a function in one
// is refused with 0A000 naming it.
var foreignLanguages = map[string]bool{
	"c": true, "internal": true, "plpythonu": true, "plpython2u": true, "plpython3u": true, "plperl": true, "plperlu": true,
	"pltcl": true, "pltclu": true, "plv8": true, "plr": true, "pljava": true, "plsh": true, "pllua": true, "plrust": true,
}

// checkLanguage refuses a routine in a language zproxy cannot run.
func checkLanguage(lang string) error {
	switch {
	case lang == "sql", lang == "plpgsql":
		return nil
	case foreignLanguages[lang]:
		return pgerr.New(pgerr.FeatureNotSupported, "functions in language \"%s\" are not supported", lang).
			WithHint("zproxy runs functions written in SQL and PL/pgSQL.")
	}
	return pgerr.New(pgerr.UndefinedObject, "language \"%s\" does not exist", lang)
}

// paramType resolves a parameter's type.
func paramType(snap *catalog.Snapshot, t sqltypes.Type, name string) (sqltypes.Type, error) {
	if name != "" {
		return columnTypeName(snap, name)
	}
	return t, nil
}

// bindRoutineStatement binds CREATE, ALTER and DROP FUNCTION/PROCEDURE,
// CALL and DO.
func bindRoutineStatement(snap *catalog.Snapshot, rs *parser.RoutineStatement, style sqltypes.Style) (ir.Statement, error) {
	switch {
	case rs.Operator != nil:
		return bindOperatorStatement(snap, rs)
	case rs.Cast != nil:
		return bindCastStatement(snap, rs)
	}
	switch rs.Action {
	case parser.RoutineCall:
		return bindCall(snap, rs, style)
	case parser.RoutineDo:
		if err := checkLanguage(rs.Options.Language); err != nil {
			return nil, err
		}
		if rs.Options.Language != "plpgsql" {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "DO blocks in language \"%s\" are not supported", rs.Options.Language)
		}
		b, err := parser.ParsePLpgSQL(rs.Body)
		if err == nil {
			err = parser.CheckPLpgSQL(rs.Body, b, parser.PLRoutine{Void: true})
		}
		if err != nil {
			return nil, rs.TransposeBodyError(err)
		}
		return &ir.Do{Body: rs.Body}, nil
	case parser.RoutineCreate:
		if rs.Aggregate != nil {
			return bindCreateAggregate(snap, rs)
		}
		return bindCreateRoutine(snap, rs)
	}
	x := &ir.RoutineChange{RoutineStatement: rs}
	var kept []parser.RoutineRef
	for _, ref := range rs.Refs {
		if !ref.HasArgs {
			x.RefArgs = append(x.RefArgs, nil)
			kept = append(kept, ref)
			continue
		}
		args := []sqltypes.Type{}
		skipped := false
		for _, p := range ref.Args {
			if p.Mode == parser.ModeOut && !rs.Procedure {
				continue // OUT parameters do not identify a function
			}
			t, err := paramType(snap, p.Type, p.TypeName)
			if skip, ok := missingTypeSkip(rs, p, err); ok {
				x.Skipped, skipped = append(x.Skipped, skip), true
				break
			}
			if err != nil {
				return nil, err
			}
			args = append(args, t)
		}
		if !skipped {
			x.RefArgs = append(x.RefArgs, args)
			kept = append(kept, ref)
		}
	}
	if len(kept) < len(rs.Refs) {
		c := *rs
		c.Refs = kept
		x.RoutineStatement = &c
	}
	return x, nil
}

// bindCreateRoutine checks CREATE FUNCTION's or PROCEDURE's declaration
// as PostgreSQL's CreateFunction does and resolves its types.
func bindCreateRoutine(snap *catalog.Snapshot, rs *parser.RoutineStatement) (ir.Statement, error) {
	if err := checkLanguage(rs.Options.Language); err != nil {
		return nil, err
	}
	x := &ir.RoutineChange{RoutineStatement: rs}
	bad := func(format string, args ...any) error {
		return pgerr.New(pgerr.InvalidFunctionDefinition, format, args...)
	}
	seen := map[string]bool{}
	defaults := false
	var outs []catalog.FuncParam
	inputs := 0
	for i, p := range append(append([]parser.RoutineParam(nil), rs.Params...), rs.Table...) {
		t, err := paramType(snap, p.Type, p.TypeName)
		if err != nil {
			return nil, err
		}
		if t.ID == sqltypes.Record && !t.IsNamedComposite() || t.ID == sqltypes.Void || t.ID == sqltypes.Unknown {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "parameters of type %s are not supported", t)
		}
		fp := catalog.FuncParam{Name: p.Name, Mode: p.Mode, Type: t, Default: p.Default}
		if p.Name != "" {
			if seen[p.Name] && p.Mode != parser.ModeTable {
				return nil, bad("parameter name \"%s\" used more than once", p.Name)
			}
			seen[p.Name] = true
		}
		if fp.IsInput() {
			inputs++
			switch {
			case p.Default != "":
				defaults = true
			case defaults:
				return nil, bad("input parameters after one with a default value must also have defaults")
			}
		} else if p.Default != "" {
			return nil, bad("only input parameters can have default values")
		}
		if p.Mode == parser.ModeVariadic {
			if t.ID != sqltypes.Array {
				return nil, bad("VARIADIC parameter must be an array")
			}
			for _, q := range rs.Params[i+1:] {
				if q.Mode != parser.ModeOut {
					return nil, bad("VARIADIC parameter must be the last input parameter")
				}
			}
		}
		if inputs > 100 {
			return nil, pgerr.New(pgerr.TooManyArguments, "functions cannot have more than 100 arguments")
		}
		if fp.IsOutput() {
			outs = append(outs, fp)
		}
		x.Params = append(x.Params, fp)
	}
	switch {
	case rs.Procedure && len(outs) > 0:
		x.Result = sqltypes.Type{ID: sqltypes.Record}
	case rs.Procedure:
		x.Result = sqltypes.TypeVoid
	case rs.Trigger:
		if rs.Options.Language != "plpgsql" {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "trigger functions can only be written in PL/pgSQL")
		}
		if len(rs.Params) > 0 {
			return nil, pgerr.New(pgerr.InvalidFunctionDefinition, "trigger functions cannot have declared arguments").
				WithHint("The arguments of the trigger can be accessed through TG_NARGS and TG_ARGV instead.")
		}
		x.Result = sqltypes.TypeVoid
	case rs.HasReturns && rs.ReturnsName != "" && len(rs.Table) == 0 && isRowType(snap, rs.ReturnsName):
		// RETURNS [SETOF] table: the table's row.
		t, _ := snap.Table(rs.ReturnsName)
		x.Result, x.RowType = sqltypes.Type{ID: sqltypes.Record}, t.Name
		for _, c := range t.Columns {
			if !c.Hidden {
				x.RowColumns = append(x.RowColumns, catalog.FuncParam{Name: c.Name, Mode: 't', Type: c.Type})
			}
		}
		if len(outs) > 0 {
			return nil, bad("function result type must be record because of OUT parameters")
		}
	case rs.HasReturns:
		t, err := paramType(snap, rs.Returns, rs.ReturnsName)
		if err != nil {
			return nil, err
		}
		x.Result = t
		if len(rs.Table) == 0 && len(outs) > 0 {
			want := sqltypes.Type{ID: sqltypes.Record}
			if len(outs) == 1 {
				want = outs[0].Type
			}
			if t != want {
				return nil, bad("function result type must be %s because of OUT parameters", want)
			}
		}
	case len(outs) == 1:
		x.Result = outs[0].Type
	case len(outs) > 1:
		x.Result = sqltypes.Type{ID: sqltypes.Record}
	default:
		return nil, bad("function result type must be specified")
	}
	if x.Result.ID == sqltypes.Record && len(outs) == 0 && x.RowType == "" && !x.Result.IsNamedComposite() {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "functions returning record without output parameters are not supported").
			WithHint("Declare the result's columns with OUT parameters or RETURNS TABLE.")
	}
	return x, nil
}

// isRowType reports whether name (no user-defined type's) names a table,
// whose row type a function may return.
func isRowType(snap *catalog.Snapshot, name string) bool {
	if _, ok := snap.UserType(name); ok || strings.HasSuffix(name, "[]") {
		return false
	}
	return snap.HasTable(name)
}

// userOverloads are the user-defined functions (procedures, with proc)
// named name, as overloads to resolve among the built-ins: one per
// number of arguments a call may give (parameters with defaults may be
// left out), their Routine the descriptor.
func (b *Binder) userOverloads(name string, proc bool) []builtins.Overload {
	if b.snap == nil {
		return nil
	}
	var out []builtins.Overload
	temp := strings.HasPrefix(name, tempRoutineSchema+".")
	for _, fn := range b.snap.Functions(name) {
		if fn.Procedure() != proc || fn.IsAggregate() {
			continue
		}
		if temp && !slices.Contains(b.tempCalls, fn.OID) {
			// A routine of pg_temp the statement may call (a permanent
			// view's dependency on it: bindCreateView).
			b.tempCalls = append(b.tempCalls, fn.OID)
		}
		in := fn.Inputs()
		if proc {
			in = procArgs(fn)
		}
		params := make([]builtins.Param, len(in))
		for i, p := range in {
			params[i] = builtins.T(p.Type)
		}
		base := builtins.Overload{Result: builtins.Returns(fn.Result), CalledOnNull: !fn.Strict, Volatility: volatilityOf(fn), Routine: fn}
		if fn.Variadic() {
			o := base
			o.Params = append(params[:len(params)-1:len(params)-1], builtins.T(params[len(params)-1].Type.ElemType()))
			o.Variadic, o.MinArgs = true, len(params)
			out = append(out, o)
			continue
		}
		for n := len(params) - fn.Defaults(); n <= len(params); n++ {
			o := base
			o.Params = params[:n]
			out = append(out, o)
		}
	}
	return out
}

// procArgs are the parameters a CALL of procedure fn gives: every one but
// TABLE columns (PostgreSQL 14 on: OUT parameters too, as NULL or any
// value, ignored).
func procArgs(fn *catalog.Function) []catalog.FuncParam {
	var out []catalog.FuncParam
	for _, p := range fn.Params {
		if p.Mode != 't' {
			out = append(out, p)
		}
	}
	return out
}

// volatilityOf is fn's volatility as the registry's.
func volatilityOf(fn *catalog.Function) builtins.Volatility {
	switch fn.Volatility {
	case 'i':
		return builtins.Immutable
	case 's':
		return builtins.Stable
	}
	return builtins.Volatile
}

// hasNamedArgs reports whether a call names an argument.
func hasNamedArgs(args []ir.Expr) bool {
	for _, a := range args {
		if _, ok := a.(*namedArg); ok {
			return true
		}
	}
	return false
}

// placeUserNamedArgs orders a call's named arguments by the parameters of
// the user-defined functions of that name: the first function they fit
// (every name one of its inputs, every input without a default given).
// ok is false when none fits.
func (b *Binder) placeUserNamedArgs(fns []*catalog.Function, args []ir.Expr, proc bool) ([]ir.Expr, *catalog.Function, bool, error) {
	var fits []*catalog.Function
	var placed [][]ir.Expr
	for _, fn := range fns {
		if fn.Procedure() != proc {
			continue
		}
		in := fn.Inputs()
		if proc {
			in = procArgs(fn)
		}
		out := make([]ir.Expr, len(in))
		ok := true
		for i, a := range args {
			na, named := a.(*namedArg)
			if !named {
				if i >= len(out) {
					ok = false
					break
				}
				out[i] = a
				continue
			}
			k := -1
			for j, p := range in {
				if p.Name == na.Name {
					k = j
				}
			}
			if k < 0 || out[k] != nil {
				ok = false
				break
			}
			out[k] = na.E
		}
		last := len(out)
		for ok && last > 0 && out[last-1] == nil && in[last-1].Default != "" {
			last--
		}
		for i := 0; ok && i < last; i++ {
			if out[i] == nil {
				if in[i].Default == "" {
					ok = false
					break
				}
				d, err := b.bindDefault(catalog.Column{Name: in[i].Name, Type: in[i].Type}, in[i].Default)
				if err != nil {
					return nil, nil, false, err
				}
				out[i] = d
			}
		}
		if ok {
			fits, placed = append(fits, fn), append(placed, out[:last])
		}
	}
	if len(fits) != 1 {
		return nil, nil, false, nil
	}
	return placed[0], fits[0], true, nil
}

// bindUserCall finishes the call of user-defined function fn resolved by
// res: the arguments left out take their defaults, a VARIADIC parameter's
// arguments become its array, and the call is inlined when it can be, else
// runs the function's body through the session (builtins.Routines).
func (b *Binder) bindUserCall(fn *catalog.Function, args []ir.Expr, res builtins.Resolved) (ir.Expr, error) {
	written := len(args)
	args, err := b.completeArgs(fn, fn.Inputs(), args, res.Spread)
	if err != nil {
		return nil, err
	}
	if fn.Trigger {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "trigger functions can only be called as triggers")
	}
	b.noteRoutine(fn)
	// A query bound to be printed (a view's definition) keeps the call:
	// PostgreSQL inlines when it plans, after the view's text is stored.
	if b.notes == nil {
		if e := b.inline(fn, args); e != nil {
			return e, nil
		}
	}
	if fn.ReturnsSet || len(fn.Outputs()) > 1 {
		o := *res.Overload
		cols := RoutineResultColumns(fn)
		o.Set = &builtins.SetFunc{Rows: func(ctx *builtins.Context, a []sqltypes.Value) (builtins.SetRows, error) {
			return builtins.RoutineCall(ctx, fn, a)
		}}
		if len(fn.Outputs()) > 1 || b.srf.from && len(cols) == 1 && cols[0].Name != "" {
			// In FROM, a function's one OUT parameter (or RETURNS
			// TABLE column) names its column, as PostgreSQL's
			// chooseScalarFunctionAlias.
			o.Set.Columns = cols
		}
		res.Overload = &o
		if !fn.ReturnsSet && !b.srf.from {
			// A function of several OUT parameters in an expression
			// returns one record.
			return b.recordCall(fn, args)
		}
		return b.setCall(fn.Name, args, res)
	}
	call := scalarCall(fn, args, fn.Result, func(row []sqltypes.Value) sqltypes.Value { return row[0] })
	if f, ok := call.(*ir.Func); ok && b.notes != nil && !fn.Variadic() && written < len(args) {
		b.notes.NoteWrittenArgs(f, written)
	}
	if f, ok := call.(*ir.Func); ok && res.Spread {
		f.Op = ir.OpVariadic
	}
	return call, nil
}

// completeArgs gives a resolved call of fn the arguments of all its
// parameters in (its inputs, or a procedure's arguments): a VARIADIC
// parameter's become its array (unless the call gave the array itself,
// spread: f(VARIADIC a)), the ones left out take their DEFAULTs.
func (b *Binder) completeArgs(fn *catalog.Function, in []catalog.FuncParam, args []ir.Expr, spread bool) ([]ir.Expr, error) {
	if fn.Variadic() && !spread {
		n := len(in) - 1
		arr, err := b.bindArrayCtor(append([]ir.Expr(nil), args[n:]...))
		if err != nil {
			return nil, err
		}
		if arr, err = b.coerceTo(arr, in[n].Type, false); err != nil {
			return nil, err
		}
		args = append(args[:n:n], arr)
	}
	for i := len(args); i < len(in); i++ {
		d, err := b.bindDefault(catalog.Column{Name: in[i].Name, Type: in[i].Type}, in[i].Default)
		if err != nil {
			return nil, err
		}
		args = append(args, d)
	}
	return args, nil
}

// recordCall is the call of a function of several OUT parameters in an
// expression: one record of its first row.
func (b *Binder) recordCall(fn *catalog.Function, args []ir.Expr) (ir.Expr, error) {
	return scalarCall(fn, args, sqltypes.Type{ID: sqltypes.Record}, func(row []sqltypes.Value) sqltypes.Value {
		return sqltypes.NewRecord(append([]sqltypes.Value(nil), row...))
	}), nil
}

// scalarCall is the call of fn in an expression, of type typ: the value
// of (of) the first row its body returns, NULL when none. It runs
// through the session (builtins.Routines).
func scalarCall(fn *catalog.Function, args []ir.Expr, typ sqltypes.Type, of func([]sqltypes.Value) sqltypes.Value) ir.Expr {
	call := func(ctx *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		var fc *builtins.Context
		if ctx != nil {
			fc = &ctx.Fn
		}
		rows, err := builtins.RoutineCall(fc, fn, a)
		if err != nil {
			return sqltypes.Null, err
		}
		row, ok, err := rows.Next()
		if err != nil || !ok || len(row) == 0 {
			return sqltypes.Null, err
		}
		return of(row), nil
	}
	if fn.Strict {
		call = strict(call)
	}
	return &ir.Func{Name: fn.Name, Args: args, Typ: typ, Fn: call, Volatile: true, PerCall: fn.Volatility == 'v', Routine: true}
}

// noteRoutine records a user-defined routine the statement calls.
func (b *Binder) noteRoutine(fn *catalog.Function) {
	b.lastRoutine = fn
	for _, f := range b.routines {
		if f == fn {
			return
		}
	}
	b.routines = append(b.routines, fn)
}

// inline is PostgreSQL's inlining of a SQL function (inline_function):
// the call of a function whose body is SELECT expr, neither volatile
// when declared otherwise, SECURITY DEFINER, nor with SET options,
// becomes expr with the arguments in place of the parameters, so the
// calling query's optimizer sees through it (a key range from WHERE k =
// f(x) or WHERE f(col) = c where the expansion gives one). A STRICT
// function is inlined only when its arguments are constants, none NULL.
// nil when the call cannot be inlined.
func (b *Binder) inline(fn *catalog.Function, args []ir.Expr) ir.Expr {
	if fn.Language != "sql" || fn.ReturnsSet || fn.Definer || len(fn.Config) > 0 || len(fn.Outputs()) > 1 ||
		fn.Result.ID == sqltypes.Void || fn.Result.ID == sqltypes.Record || b.inlining[fn.OID] || len(b.inlining) > 10 {
		return nil
	}
	if fn.Strict {
		for _, a := range args {
			if c, ok := a.(*ir.Const); !ok || c.V.IsNull() {
				return nil
			}
		}
	}
	stmts, err := ParseRoutineBody(fn)
	if err != nil || len(stmts) != 1 {
		return nil
	}
	sel, ok := stmts[0].AST.(*ast.SelectStmt)
	if !ok || sel.Fields == nil || len(sel.Fields.Fields) != 1 || sel.Fields.Fields[0].Expr == nil || sel.From != nil || sel.Where != nil ||
		sel.GroupBy != nil || sel.Having != nil || sel.OrderBy != nil || sel.Limit != nil || sel.Distinct || sel.WindowSpecs != nil ||
		sel.With != nil || stmts[0].WriteCTEs != nil || stmts[0].CountExprs != nil {
		return nil
	}
	var chk inlineChecker
	sel.Fields.Fields[0].Expr.Accept(&chk)
	if chk.bad {
		return nil
	}
	sub := &Binder{snap: b.snap, stmt: &stmts[0], loc: b.loc, style: b.style, routine: newRoutineScope(fn),
		inlining: map[uint32]bool{fn.OID: true}}
	for k := range b.inlining {
		sub.inlining[k] = true
	}
	in := fn.InputTypes()
	n := max(stmts[0].NumParams, len(in))
	sub.params, sub.declared = make([]sqltypes.Type, n), make([]bool, n)
	for i, t := range in {
		sub.params[i], sub.declared[i] = t, true
	}
	e, err := sub.bindExpr(env{}.newScope(), sel.Fields.Fields[0].Expr)
	if err != nil || len(sub.params) > len(in) {
		return nil
	}
	if fn.Volatility != 'v' && hasPerCall(e) {
		return nil // a volatile body in a function declared otherwise
	}
	if e.Type().ID != sqltypes.Unknown && !castAllowedAssignment(e.Type(), fn.Result) {
		return nil
	}
	// Each parameter read more than once needs an argument that costs
	// nothing to compute twice and gives one value.
	uses := make([]int, len(args))
	ir.Walk(e, func(x ir.Expr) {
		if p, ok := x.(*ir.Param); ok && p.N >= 1 && p.N <= len(uses) {
			uses[p.N-1]++
		}
	})
	for i, u := range uses {
		if u > 1 {
			switch args[i].(type) {
			case *ir.Const, *ir.ColRef, *ir.Param, *ir.OuterRef:
			default:
				return nil
			}
		}
	}
	out := ir.MapExpr(e, func(x ir.Expr) ir.Expr {
		if p, ok := x.(*ir.Param); ok && p.N >= 1 && p.N <= len(args) {
			return args[p.N-1]
		}
		return x
	})
	out, err = b.coerceTo(out, fn.Result, true)
	if err != nil {
		return nil
	}
	if fn.Strict {
		// Folded: its arguments are constants.
		if f, err := fold(out); err == nil {
			out = f
		}
	}
	for _, f := range sub.routines {
		b.noteRoutine(f)
	}
	return out
}

// inlineChecker finds what keeps a function's body from being inlined:
// subqueries, aggregates and window functions.
type inlineChecker struct{ bad bool }

func (v *inlineChecker) Enter(n ast.Node) (ast.Node, bool) {
	switch x := n.(type) {
	case *ast.SubqueryExpr, *ast.ExistsSubqueryExpr, *ast.AggregateFuncExpr, *ast.WindowFuncExpr:
		v.bad = true
	case *ast.FuncCallExpr:
		if x.FnName.L == parser.OverFunc {
			v.bad = true
		}
		if _, isAgg := builtins.LookupAggregate(x.FnName.L); isAgg {
			v.bad = true
		}
	}
	return n, v.bad
}

func (v *inlineChecker) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// bindCall binds CALL: the procedure chosen among those of the name by
// its arguments, as functions are.
func bindCall(snap *catalog.Snapshot, rs *parser.RoutineStatement, style sqltypes.Style) (ir.Statement, error) {
	b := &Binder{snap: snap, stmt: rs.Call, loc: style.Location, style: style}
	return b.bindCall(rs)
}

// bindCall binds CALL with b (whose scope may hold a PL/pgSQL body's
// variables).
func (b *Binder) bindCall(rs *parser.RoutineStatement) (ir.Statement, error) {
	stmt := rs.Call
	snap := b.snap
	sel, ok := stmt.AST.(*ast.SelectStmt)
	var call *ast.FuncCallExpr
	if ok && sel.Fields != nil && len(sel.Fields.Fields) == 1 {
		call, _ = sel.Fields.Fields[0].Expr.(*ast.FuncCallExpr)
	}
	if call == nil {
		return nil, pgerr.New(pgerr.SyntaxError, "syntax error in CALL")
	}
	name := rs.Refs[0].Name
	sc := env{}.newScope()
	args := make([]ir.Expr, len(call.Args))
	for i, a := range call.Args {
		x, err := b.child(sc, a, nil)
		if err != nil {
			return nil, err
		}
		args[i] = x
	}
	args, spread := spreadArg(args)
	fns := snap.Functions(name)
	var fn *catalog.Function
	if err := checkNamedArgs(args); err != nil {
		return nil, err
	}
	if hasNamedArgs(args) {
		placed, f, ok, err := b.placeUserNamedArgs(fns, args, true)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, noProcedure(name, args)
		}
		args, fn = placed, f
	}
	types := make([]sqltypes.Type, len(args))
	for i, a := range args {
		types[i] = a.Type()
	}
	ovs := b.userOverloads(name, true)
	if fn != nil {
		ovs = slicesFilter(ovs, fn)
	}
	if len(ovs) == 0 {
		for _, f := range fns {
			if !f.Procedure() {
				return nil, pgerr.New(pgerr.WrongObjectType, "%s(%s) is not a procedure", name, typeList(args)).
					WithHint("To call a function, use SELECT.")
			}
		}
		return nil, noProcedure(name, args)
	}
	resolve := builtins.ResolveAmong
	if spread {
		resolve = builtins.ResolveSpread // CALL p(VARIADIC a)
	}
	res, err := resolve(" ", types, ovs)
	if err != nil {
		if pgerr.CodeOf(err) == pgerr.UndefinedFunction {
			return nil, noProcedure(name, args)
		}
		return nil, pgerr.New(pgerr.AmbiguousFunction, "procedure %s(%s) is not unique", name, typeList(args)).
			WithHint("Could not choose a best candidate procedure. You might need to add explicit type casts.")
	}
	fn = res.Overload.Routine.(*catalog.Function)
	if err := b.coerceArgs(args, res.ArgTypes); err != nil {
		return nil, err
	}
	if args, err = b.completeArgs(fn, procArgs(fn), args, res.Spread); err != nil {
		return nil, err
	}
	x := &ir.Call{Routine: fn, Args: args}
	for _, p := range fn.Outputs() {
		x.Cols = append(x.Cols, ir.Column{Name: p.Name, Type: p.Type, Col: -1})
	}
	b.noteRoutine(fn)
	b.finishPermissions(x)
	return x, nil
}

// slicesFilter keeps the overloads of fn.
func slicesFilter(ovs []builtins.Overload, fn *catalog.Function) []builtins.Overload {
	var out []builtins.Overload
	for _, o := range ovs {
		if o.Routine == fn {
			out = append(out, o)
		}
	}
	return out
}

func noProcedure(name string, args []ir.Expr) error {
	return pgerr.New(pgerr.UndefinedFunction, "procedure %s(%s) does not exist", name, typeList(args)).
		WithHint("No procedure matches the given name and argument types. You might need to add explicit type casts.")
}

// hasPerCall reports whether e calls a volatile function.
func hasPerCall(e ir.Expr) bool {
	found := false
	ir.Walk(e, func(x ir.Expr) {
		if f, ok := x.(*ir.Func); ok && f.PerCall {
			found = true
		}
	})
	return found
}

// ResolveTypeName resolves a user-defined type's name ("mood", "mood[]").
func ResolveTypeName(snap *catalog.Snapshot, name string) (sqltypes.Type, error) {
	return columnTypeName(snap, name)
}

// bindTrigger binds a trigger statement: CREATE's relation, columns,
// transition tables and function are checked as PostgreSQL's
// CreateTrigger does, in its order.
func bindTrigger(snap *catalog.Snapshot, ts *parser.TriggerStatement) (ir.Statement, error) {
	// A copy: the names search_path resolved (qualifySpecial) are put back
	// in the parsed statement once it is bound, and the executor needs
	// the resolved ones.
	resolved := *ts
	ts = &resolved
	x := &ir.TriggerChange{TriggerStatement: ts}
	t, err := snap.Table(ts.Table)
	if err != nil {
		if _, isView := snap.StoredView(ts.Table); isView {
			x.View = true
		} else if ts.Action == parser.TriggerCreate {
			return nil, err
		}
	}
	if ts.Action == parser.TriggerEnable && x.View {
		action := "ENABLE"
		if !ts.Enable {
			action = "DISABLE"
		}
		return nil, pgerr.New(pgerr.WrongObjectType, "ALTER action %s TRIGGER cannot be performed on relation \"%s\"", action, ts.Table).
			WithDetail("This operation is not supported for views.")
	}
	if ts.Action != parser.TriggerCreate {
		if t != nil {
			return x, partitionTrigger(snap, t, ts)
		}
		return x, nil
	}
	row, timing := ts.Row, ts.Timing
	truncate := slices.Contains(ts.Events, "TRUNCATE")
	wrongType := func(kind, detail string) error {
		return pgerr.New(pgerr.WrongObjectType, "\"%s\" is a %s", ts.Table, kind).WithDetail("%s", detail)
	}
	switch {
	case x.View:
		if timing != "INSTEAD OF" && row {
			return nil, wrongType("view", "Views cannot have row-level BEFORE or AFTER triggers.")
		}
		if truncate {
			return nil, wrongType("view", "Views cannot have TRUNCATE triggers.")
		}
	case t.IsMatview():
		return nil, pgerr.New(pgerr.WrongObjectType, "relation \"%s\" cannot have triggers", ts.Table).
			WithDetail("This operation is not supported for materialized views.")
	case timing == "INSTEAD OF":
		return nil, wrongType("table", "Tables cannot have INSTEAD OF triggers.")
	}
	if truncate && row {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "TRUNCATE FOR EACH ROW triggers are not supported")
	}
	if timing == "INSTEAD OF" {
		switch {
		case !row:
			return nil, pgerr.New(pgerr.FeatureNotSupported, "INSTEAD OF triggers must be FOR EACH ROW")
		case ts.When != "":
			return nil, pgerr.New(pgerr.FeatureNotSupported, "INSTEAD OF triggers cannot have WHEN conditions")
		case len(ts.Columns) > 0:
			return nil, pgerr.New(pgerr.FeatureNotSupported, "INSTEAD OF triggers cannot have column lists")
		}
	}
	if err := bindTransitionTables(x, truncate); err != nil {
		return nil, err
	}
	if !x.View {
		for _, c := range ts.Columns {
			if t.ColumnIndex(c) < 0 {
				return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", c, t.Name)
			}
		}
	}
	switch {
	case (ts.WhenNew || ts.WhenOld) && !row:
		return nil, pgerr.New(pgerr.InvalidObjectDefinition, "statement trigger's WHEN condition cannot reference column values")
	case ts.WhenOld && slices.Contains(ts.Events, "INSERT"):
		return nil, pgerr.New(pgerr.InvalidObjectDefinition, "INSERT trigger's WHEN condition cannot reference OLD values")
	case ts.WhenNew && slices.Contains(ts.Events, "DELETE"):
		return nil, pgerr.New(pgerr.InvalidObjectDefinition, "DELETE trigger's WHEN condition cannot reference NEW values")
	}
	if ts.ConstrTable != "" {
		if _, err := snap.Table(ts.ConstrTable); err != nil {
			if _, ok := snap.StoredView(ts.ConstrTable); !ok {
				return nil, err
			}
		}
	}
	for _, fn := range snap.Functions(ts.Function) {
		if len(fn.Inputs()) == 0 && !fn.Procedure() {
			if !fn.Trigger {
				return nil, pgerr.New(pgerr.InvalidObjectDefinition, "function %s must return type trigger", fn.Name)
			}
			x.Function = fn
			return x, nil
		}
	}
	return nil, pgerr.New(pgerr.UndefinedFunction, "function %s() does not exist", ts.Function)
}

// bindTransitionTables checks REFERENCING's transition tables and names
// them in x.
func bindTransitionTables(x *ir.TriggerChange, truncate bool) error {
	ts := x.TriggerStatement
	if len(ts.Referencing) == 0 {
		return nil
	}
	events := 0
	for _, e := range []string{"INSERT", "UPDATE", "DELETE"} {
		if slices.Contains(ts.Events, e) {
			events++
		}
	}
	has := func(e string) bool { return slices.Contains(ts.Events, e) }
	for _, tt := range ts.Referencing {
		switch {
		case x.View:
			return pgerr.New(pgerr.WrongObjectType, "\"%s\" is a view", ts.Table).WithDetail("Triggers on views cannot have transition tables.")
		case ts.Timing != "AFTER":
			return pgerr.New(pgerr.InvalidObjectDefinition, "transition table name can only be specified for an AFTER trigger")
		case truncate:
			return pgerr.New(pgerr.FeatureNotSupported, "TRUNCATE triggers with transition tables are not supported")
		case events != 1:
			return pgerr.New(pgerr.FeatureNotSupported, "transition tables cannot be specified for triggers with more than one event")
		case len(ts.Columns) > 0:
			return pgerr.New(pgerr.FeatureNotSupported, "transition tables cannot be specified for triggers with column lists")
		}
		if tt.Old {
			if !has("DELETE") && !has("UPDATE") {
				return pgerr.New(pgerr.InvalidObjectDefinition, "OLD TABLE can only be specified for a DELETE or UPDATE trigger")
			}
			if x.OldTable != "" {
				return pgerr.New(pgerr.InvalidObjectDefinition, "OLD TABLE cannot be specified multiple times")
			}
			x.OldTable = tt.Name
		} else {
			if !has("INSERT") && !has("UPDATE") {
				return pgerr.New(pgerr.InvalidObjectDefinition, "NEW TABLE can only be specified for an INSERT or UPDATE trigger")
			}
			if x.NewTable != "" {
				return pgerr.New(pgerr.InvalidObjectDefinition, "NEW TABLE cannot be specified multiple times")
			}
			x.NewTable = tt.Name
		}
	}
	if x.OldTable != "" && x.OldTable == x.NewTable {
		return pgerr.New(pgerr.InvalidObjectDefinition, "OLD TABLE name and NEW TABLE name cannot be the same")
	}
	return nil
}

// constraintTriggerNamed reports whether a constraint trigger (a table's)
// has that name, for SET CONSTRAINTS: 42809 when it is not deferrable.
func constraintTriggerNamed(snap *catalog.Snapshot, name string) (bool, error) {
	for _, t := range snap.Tables() {
		if tg, _ := catalog.FindTrigger(t.Triggers, name); tg != nil && tg.Constraint {
			if !tg.Deferrable {
				return true, pgerr.New(pgerr.WrongObjectType, "constraint %q is not deferrable", name)
			}
			return true, nil
		}
	}
	return false, nil
}
