package session

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/executor"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/optimizer"
	"github.com/zproxy/zproxy/parser"
	"github.com/zproxy/zproxy/planner"
)

// PL/pgSQL: the interpreter of a function's, procedure's or DO block's
// body (parser.ParsePLpgSQL's tree). Every expression and SQL statement
// in it is bound as a statement whose variables are the block's variables
// in scope ($N each, planner.BindWithVariables), once per catalog snapshot
// and variable shape (plan caching, routineBodies.plans), then planned
// with the variables' values and run in the caller's transaction, as the
// SQL functions' statements are. An exception block runs under a
// savepoint of that transaction: an error it handles undoes the block's
// writes.

// plVar is one variable: a scalar, or a record (record, %ROWTYPE) whose
// fields are its columns.
type plVar struct {
	name, label string
	typ         sqltypes.Type
	val         sqltypes.Value
	constant    bool
	notNull     bool
	record      bool
	cols        []ir.Column
	row         []sqltypes.Value // nil: a record not yet assigned
	// cursor is a bound cursor's declaration (its variable a refcursor).
	cursor *plCursor
	// alias, for a name declared ALIAS FOR $n, is the parameter's
	// variable: it holds the value both names read and assign.
	alias *plVar
}

// base is the variable that holds v's value: its parameter's for an
// alias.
func (v *plVar) base() *plVar {
	if v.alias != nil {
		return v.alias
	}
	return v
}

// plExec is one activation of a PL/pgSQL body.
type plExec struct {
	r     *routineRunner
	fn    *catalog.Function // nil for a DO block
	body  string
	opts  optimizer.Options
	scope [][]*plVar // innermost last
	// found and rowCount are FOUND and GET DIAGNOSTICS ROW_COUNT.
	found    bool
	rowCount int64
	// rows are RETURN NEXT's and RETURN QUERY's; ret RETURN's value.
	rows   [][]sqltypes.Value
	ret    sqltypes.Value
	hasRet bool
	// trigRow is a trigger function's returned row (nil: NULL).
	trigRow []sqltypes.Value
	// tables are a trigger function's transition tables (triggers.go).
	tables []planner.TransitionTable
	// handling are the errors being handled, innermost last (RAISE;
	// re-raises the last; GET STACKED DIAGNOSTICS reads it).
	handling []*pgerr.Error
	// nonAtomic: COMMIT and ROLLBACK may end the transaction (a CALL or
	// DO outside a transaction block, plpgsql_cursor.go).
	nonAtomic bool
	// pinned are the cursors of the cursor FOR loops running.
	pinned []*cursor
	// orphans are the cursors opened outside any transaction: they close
	// when the activation ends, no transaction's end being there to.
	orphans []string
	// top is the body's block; vc the variables of the last statement.
	top *parser.PLBlock
	// scope0 is where the body binds: the statement's snapshot, or one of
	// the routine's own search path (routine_path.go).
	scope0 routineScope
	vc     plVarsCache
	// seen is the runner's snapshot scope0 and opts were made for
	// (refresh); subxacts are the exception blocks running, outermost first
	// (plpgsql_utility.go).
	seen     *catalog.Snapshot
	subxacts []*plSubxact
	// caller is the activation whose statement called this one (nil for
	// the outermost); cur the statement running, decl the declaration
	// being initialized, and spiKind and spiText the SQL statement or
	// expression being run ("SQL statement", its text): what the context
	// stack of a notice and of GET DIAGNOSTICS PG_CONTEXT shows
	// (plpgsql_context.go).
	caller           *plExec
	name             string // routineName, once asked (nameOnce)
	nameOnce         sync.Once
	cur              parser.PLStmt
	decl             *parser.PLDecl
	spiKind, spiText string
}

// Control flow out of statements travels as these errors.
type (
	plExit struct {
		label string
		cont  bool
	}
	plReturn struct{}
)

func (e *plExit) Error() string {
	if e.cont {
		return "CONTINUE cannot be used outside a loop"
	}
	return "EXIT cannot be used outside a loop, unless it has a label"
}
func (plReturn) Error() string { return "RETURN" }

// runPLpgSQL runs a PL/pgSQL body (fn nil for DO) with args.
func (r *routineRunner) runPLpgSQL(fc *builtins.Context, fn *catalog.Function, body string, args []sqltypes.Value) (builtins.SetRows, error) {
	block, err := r.st.sess.plBlock(body, fn)
	if err != nil {
		return nil, err
	}
	sc := r.st.sess.scopeOf(r.snap, fn, fc.Session.User)
	inner := *inScope(fc, fn, sc)
	inner.RoutineDepth++
	x := &plExec{r: r, fn: fn, body: body, opts: r.opts, ret: sqltypes.Null, top: block, scope0: sc, seen: r.snap}
	x.caller, _ = fc.Frame.(*plExec)
	inner.Frame = x
	x.opts.Fn = inner
	// A CALL or DO run in a transaction of its own may end it; so may a
	// procedure a non-atomic body CALLs (plExec.call).
	x.nonAtomic = r.nonAtomic && (fc.RoutineDepth == 0 || r.callNonAtomic.Load()) && (fn == nil || fn.Procedure())
	if x.nonAtomic {
		r.callNonAtomic.Store(false) // what this body calls is atomic unless a CALL says otherwise
	}
	var top []*plVar
	if fn != nil {
		// A procedure's CALL gives every parameter an argument, OUT ones
		// too; a function's call its inputs only.
		all := fn.Procedure() && len(args) == len(fn.Params)
		in := 0
		for i, p := range fn.Params {
			v := &plVar{name: p.Name, label: fn.Name, typ: p.Type, val: sqltypes.Null}
			if p.IsInput() {
				if all {
					v.val = args[i]
				} else {
					v.val = args[in]
				}
				in++
			}
			top = append(top, v)
		}
	}
	x.scope = append(x.scope, top)
	defer func() {
		for _, name := range x.orphans {
			_ = r.st.sess.ext.reg.ClosePortal(name)
		}
	}()
	err = unframed(x.block(block))
	var ret plReturn
	if err != nil && !errors.As(err, &ret) {
		var exit *plExit
		if errors.As(err, &exit) {
			return nil, pgerr.New(pgerr.SyntaxError, "%s", exit.Error())
		}
		return nil, err
	}
	if fn == nil {
		return builtins.Table(nil), nil
	}
	return x.result(top, err != nil)
}

// result is what the routine returns once its body has ended (returned
// when RETURN ended it).
func (x *plExec) result(top []*plVar, returned bool) (builtins.SetRows, error) {
	fn := x.fn
	outs := fn.Outputs()
	switch {
	case fn.ReturnsSet:
		return builtins.Table(x.rows), nil
	case fn.Procedure() || len(outs) > 0 && fn.RowType == "":
		var row []sqltypes.Value
		for _, v := range top {
			for _, p := range fn.Params {
				if p.Name == v.name && p.IsOutput() {
					row = append(row, v.val)
					break
				}
			}
		}
		return builtins.Table([][]sqltypes.Value{row}), nil
	case fn.Result.ID == sqltypes.Void:
		return builtins.Table([][]sqltypes.Value{{sqltypes.NewText("")}}), nil
	}
	if !returned {
		return nil, pgerr.New(pgerr.FunctionExecutedNoReturnStatement, "control reached end of function without RETURN")
	}
	if fn.RowType != "" {
		if rec, ok := x.ret.X.([]sqltypes.Value); ok {
			return builtins.Table([][]sqltypes.Value{rec}), nil
		}
		return builtins.Table([][]sqltypes.Value{make([]sqltypes.Value, len(outs))}), nil
	}
	return builtins.Table([][]sqltypes.Value{{x.ret}}), nil
}

// plBlock parses and checks (once per session and snapshot) the
// PL/pgSQL body of fn (nil for a DO block), as PostgreSQL compiles a
// routine at its first call: a routine created with check_function_bodies
// off fails here as it would have at CREATE. The error's position, in the
// body, is not the statement's the client sent: it is dropped.
func (s *Session) plBlock(body string, fn *catalog.Function) (*parser.PLBlock, error) {
	c := &s.bodies
	if fn != nil {
		// A routine's descriptor is immutable: its block, found once, is
		// found by the descriptor from then on, without the text key
		// (which costs a formatting of the routine every call).
		c.mu.Lock()
		b, ok := c.plByFn[fn]
		c.mu.Unlock()
		if ok {
			return b, nil
		}
	}
	r := parser.PLRoutine{Void: true}
	if fn != nil {
		r = planner.PLRoutineOf(fn)
	}
	key := body + "\x00" + fmt.Sprintf("%+v", r)
	c.mu.Lock()
	b, ok := c.pl[key]
	if ok && fn != nil {
		c.rememberBlock(fn, b)
	}
	c.mu.Unlock()
	if ok {
		return b, nil
	}
	b, err := parser.ParsePLpgSQL(body)
	if err == nil {
		err = parser.CheckPLpgSQL(body, b, r)
	}
	if err != nil {
		if pe, ok := err.(*pgerr.Error); ok && pe.Position > 0 {
			e := *pe
			e.Position = 0
			return nil, &e
		}
		return nil, err
	}
	c.mu.Lock()
	if c.pl == nil {
		c.pl = map[string]*parser.PLBlock{}
	}
	c.pl[key] = b
	if fn != nil {
		c.rememberBlock(fn, b)
	}
	c.mu.Unlock()
	return b, nil
}

// rememberBlock records fn's parsed block (c.mu held). The map is
// dropped with the bound bodies when the snapshot changes, so it holds
// the descriptors of one catalog version at a time.
func (c *routineBodies) rememberBlock(fn *catalog.Function, b *parser.PLBlock) {
	if c.plByFn == nil {
		c.plByFn = map[*catalog.Function]*parser.PLBlock{}
	}
	c.plByFn[fn] = b
}

// lookup finds a variable by name (or label.name), innermost first.
func (x *plExec) lookup(name string) (*plVar, string) {
	if strings.Contains(name, `"`) {
		name = strings.ReplaceAll(name, `"`, "")
	} else {
		name = strings.ToLower(strings.TrimSpace(name))
	}
	label, field := "", ""
	if i := strings.IndexByte(name, '.'); i >= 0 {
		label, field = name[:i], name[i+1:]
	}
	for i := len(x.scope) - 1; i >= 0; i-- {
		for j := len(x.scope[i]) - 1; j >= 0; j-- {
			v := x.scope[i][j]
			switch {
			case label == "" && v.name == name:
				return v.base(), ""
			case label != "" && v.label == label && v.name == field:
				return v.base(), ""
			case label != "" && v.name == label && v.record:
				return v.base(), field
			}
		}
	}
	return nil, ""
}

// block runs a block: its declarations, its statements, its handlers.
func (x *plExec) block(b *parser.PLBlock) error {
	x.scope = append(x.scope, nil)
	defer func() { x.scope = x.scope[:len(x.scope)-1] }()
	for i := range b.Decls {
		d := &b.Decls[i]
		x.decl = d
		err := x.declare(b.Label, *d)
		x.decl = nil
		if err != nil {
			return x.framed(err, "line "+strconv.Itoa(d.Line)+" during statement block local variable initialization")
		}
	}
	if len(b.Handlers) == 0 {
		return x.labeled(b.Label, x.stmts(b.Body))
	}
	sx := x.subxact()
	x.r.subxacts.Add(1)
	err := x.stmts(b.Body)
	x.r.subxacts.Add(-1)
	if err == nil || isControl(err) {
		if rerr := sx.release(); rerr != nil {
			return rerr
		}
		return x.labeled(b.Label, err)
	}
	pe := pgerr.As(executor.ClassifyError(err))
	if pe == nil {
		sx.abort()
		return err
	}
	for _, h := range b.Handlers {
		if !handles(h, pe) {
			continue
		}
		if rerr := sx.rollback(); rerr != nil {
			return rerr
		}
		x.handling = append(x.handling, pe)
		x.scope = append(x.scope, []*plVar{
			{name: "sqlstate", typ: sqltypes.TypeText, val: sqltypes.NewText(pe.Code.String())},
			{name: "sqlerrm", typ: sqltypes.TypeText, val: sqltypes.NewText(pe.Message)},
		})
		herr := x.stmts(h.Body)
		x.scope = x.scope[:len(x.scope)-1]
		x.handling = x.handling[:len(x.handling)-1]
		return x.labeled(b.Label, herr)
	}
	sx.abort()
	return err
}

// labeled ends an EXIT of the block's label.
func (x *plExec) labeled(label string, err error) error {
	var exit *plExit
	if label != "" && errors.As(err, &exit) && exit.label == label && !exit.cont {
		return nil
	}
	return err
}

func isControl(err error) bool {
	var exit *plExit
	var ret plReturn
	return errors.As(err, &exit) || errors.As(err, &ret)
}

// handles reports whether handler h catches e. OTHERS catches every
// error but query_canceled and assert_failure, as in PostgreSQL.
func handles(h parser.PLHandler, e *pgerr.Error) bool {
	for _, c := range h.Conditions {
		switch {
		case c == "others":
			if e.Code != pgerr.QueryCanceled && e.Code != pgerr.AssertFailure {
				return true
			}
		case strings.HasPrefix(c, "sqlstate:"):
			if e.Code.String() == strings.TrimPrefix(c, "sqlstate:") {
				return true
			}
		default:
			code, ok := pgerr.CodeOfCondition(c)
			if !ok {
				continue
			}
			// A class's condition (its code ends in 000) catches the class.
			if code == e.Code || strings.HasSuffix(code.String(), "000") && code.String()[:2] == e.Code.String()[:2] {
				return true
			}
		}
	}
	return false
}

// declare adds a block's variable.
func (x *plExec) declare(label string, d parser.PLDecl) error {
	v := &plVar{name: d.Name, label: label, constant: d.Constant, notNull: d.NotNull, val: sqltypes.Null}
	snap := x.scope0.snap
	switch {
	case d.Alias > 0:
		if x.fn == nil || d.Alias > len(x.fn.Inputs()) {
			return pgerr.New(pgerr.UndefinedParameter, "there is no parameter $%d", d.Alias)
		}
		in := 0
		for _, p := range x.scope[0] {
			if x.fn.Params[in].IsInput() {
				in++
				if in == d.Alias {
					alias := *p
					alias.name, alias.label, alias.alias = d.Name, label, p.base()
					x.scope[len(x.scope)-1] = append(x.scope[len(x.scope)-1], &alias)
					return nil
				}
			}
		}
	case d.Cursor:
		// A bound cursor's portal is named after its variable unless the
		// variable is set to another name before OPEN.
		v.typ, v.val = refcursorType, sqltypes.NewText(d.Name)
		v.cursor = &plCursor{query: d.CursorQuery, scroll: d.Scroll}
		for _, a := range d.CursorArgs {
			t := a.Type
			if a.TypeName != "" {
				var err error
				if t, err = planner.ResolveTypeName(snap, a.TypeName); err != nil {
					return err
				}
			}
			v.cursor.args = append(v.cursor.args, &plVar{name: a.Name, label: d.Name, typ: t, val: sqltypes.Null})
		}
	case d.Record:
		v.record = true
	case d.RowOf != "" && compositeNamed(snap, d.RowOf) != nil:
		declareComposite(v, compositeNamed(snap, d.RowOf)) // addr%ROWTYPE of a composite type
	case d.RowOf != "":
		t, err := snap.Table(d.RowOf)
		if err != nil {
			return err
		}
		v.record = true
		for i, c := range t.Columns {
			if !c.Hidden {
				v.cols = append(v.cols, ir.Column{Name: c.Name, Type: c.Type, Col: i})
				v.row = append(v.row, sqltypes.Null)
			}
		}
	case d.TypeOf != "":
		if tbl, col, ok := strings.Cut(d.TypeOf, "."); ok {
			t, err := snap.Table(tbl)
			if err != nil {
				return err
			}
			i := t.ColumnIndex(col)
			if i < 0 {
				return pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", col, tbl)
			}
			v.typ = t.Columns[i].Type
		} else if o, _ := x.lookup(d.TypeOf); o != nil {
			v.typ = o.typ
		} else {
			return pgerr.New(pgerr.UndefinedObject, "variable \"%s\" does not exist", d.TypeOf)
		}
	case d.TypeName != "":
		t, err := planner.ResolveTypeName(snap, d.TypeName)
		if err != nil {
			return err
		}
		v.typ = t
		if t.IsNamedComposite() {
			declareComposite(v, t.Composite)
		}
	default:
		v.typ = d.Type
	}
	x.scope[len(x.scope)-1] = append(x.scope[len(x.scope)-1], v)
	if d.Default != "" {
		val, t, err := x.eval(d.Default)
		if err != nil {
			return err
		}
		v.constant = false
		if err := x.assign(v, "", val, t); err != nil {
			return err
		}
		v.constant = d.Constant
	} else if d.NotNull {
		return pgerr.New(pgerr.NullValueNotAllowed, "null value cannot be assigned to variable \"%s\" declared NOT NULL", d.Name)
	}
	return nil
}

// assign stores val (of type t) in v (field of a record when set),
// converted to the variable's type.
// assignFound assigns to a target that names no declared variable: FOUND
// (the boolean every block has, kept in x.found), else nothing known.
func (x *plExec) assignFound(name string, val sqltypes.Value, t sqltypes.Type) error {
	if strings.ToLower(strings.TrimSpace(name)) != "found" {
		return pgerr.New(pgerr.SyntaxError, "\"%s\" is not a known variable", name)
	}
	b, err := x.convert(val, t, sqltypes.TypeBool)
	if err != nil {
		return err
	}
	x.found = !b.IsNull() && b.I != 0
	return nil
}

func (x *plExec) assign(v *plVar, field string, val sqltypes.Value, t sqltypes.Type) error {
	if v.constant {
		return pgerr.New(pgerr.ErrorInAssignment, "variable \"%s\" is declared CONSTANT", v.name)
	}
	if v.record {
		if field == "" {
			rec, ok := val.X.([]sqltypes.Value)
			if val.IsNull() {
				for i := range v.row {
					v.row[i] = sqltypes.Null
				}
				return nil
			}
			if !ok || len(v.cols) != len(rec) {
				return pgerr.New(pgerr.DatatypeMismatch, "cannot assign a %s to record variable \"%s\"", t, v.name)
			}
			copy(v.row, rec)
			return nil
		}
		for i, c := range v.cols {
			if c.Name == field {
				cv, err := x.convert(val, t, c.Type)
				if err != nil {
					return err
				}
				v.row[i] = cv
				return nil
			}
		}
		if v.row == nil {
			return pgerr.New(pgerr.ObjectNotInPrerequisiteState, "record \"%s\" is not assigned yet", v.name).
				WithDetail("The tuple structure of a not-yet-assigned record is indeterminate.")
		}
		return pgerr.New(pgerr.UndefinedColumn, "record \"%s\" has no field \"%s\"", v.name, field)
	}
	cv, err := x.convert(val, t, v.typ)
	if err != nil {
		return err
	}
	if cv.IsNull() && v.notNull {
		return pgerr.New(pgerr.NullValueNotAllowed, "null value cannot be assigned to variable \"%s\" declared NOT NULL", v.name)
	}
	v.val = cv
	return nil
}

// convert casts val from type from to type to, as an assignment.
func (x *plExec) convert(val sqltypes.Value, from, to sqltypes.Type) (sqltypes.Value, error) {
	if val.IsNull() || from == to || to.ID == sqltypes.Unknown {
		return val, nil
	}
	return ir.CastValueStyled(val, from, to, false, x.r.style)
}

// assignRow stores a row (of columns cols) in the targets: one record
// variable takes the whole row; otherwise each target a column.
func (x *plExec) assignRow(targets []string, row []sqltypes.Value, cols []ir.Column) error {
	if len(targets) == 1 {
		if v, field := x.lookup(targets[0]); v != nil && v.record && field == "" {
			if v.typ.IsNamedComposite() {
				return x.assignCompositeRow(v, row, cols)
			}
			v.cols = append([]ir.Column(nil), cols...)
			if row == nil {
				v.row = make([]sqltypes.Value, len(cols))
				for i := range v.row {
					v.row[i] = sqltypes.Null
				}
				return nil
			}
			v.row = append([]sqltypes.Value(nil), row...)
			return nil
		}
	}
	for i, name := range targets {
		val, t := sqltypes.Null, sqltypes.TypeUnknown
		if row != nil && i < len(row) {
			val, t = row[i], cols[i].Type
		}
		v, field := x.lookup(name)
		if v == nil {
			if err := x.assignFound(name, val, t); err != nil {
				return err
			}
			continue
		}
		if err := x.assign(v, field, val, t); err != nil {
			return err
		}
	}
	return nil
}

// plVarsCache is the last variables() answer and the shape it was
// computed for: the variables in scope, in order, and each record's
// columns. A statement in a loop sees the same shape every time.
type plVarsCache struct {
	shape []*plVar
	cols  []*ir.Column // each record's columns' first element (nil: none)
	vars  []planner.Variable
	vals  []func() sqltypes.Value
	sig   string
}

// sameShape reports whether the scope still has the cached shape.
func (x *plExec) sameShape() bool {
	c := &x.vc
	k := 0
	for _, level := range x.scope {
		for _, v := range level {
			if k >= len(c.shape) || c.shape[k] != v || c.cols[k] != firstColumn(v.base()) {
				return false
			}
			k++
		}
	}
	return k == len(c.shape) && c.vars != nil
}

func firstColumn(v *plVar) *ir.Column {
	if !v.record || len(v.cols) == 0 {
		return nil
	}
	return &v.cols[0]
}

// variables lists the variables in scope for a statement, with the slots
// their values come from, and a signature of their names and types (the
// plan cache's key).
func (x *plExec) variables() ([]planner.Variable, []func() sqltypes.Value, string) {
	if x.sameShape() {
		return x.vc.vars, x.vc.vals, x.vc.sig
	}
	// FOUND is a variable of every block, outside the function's own.
	vars := []planner.Variable{{Name: "found", Type: sqltypes.TypeBool}}
	vals := []func() sqltypes.Value{func() sqltypes.Value { return sqltypes.NewBool(x.found) }}
	var shape []*plVar
	var cols []*ir.Column
	// The signature is built by hand, without fmt: it is computed
	// whenever a body's scope changes shape.
	var sig []byte
	add := func(qual, name string, t sqltypes.Type) {
		sig = append(append(append(append(sig, qual...), '.'), name...), ':')
		sig = append(strconv.AppendUint(sig, uint64(t.OID()), 10), ';')
	}
	for _, level := range x.scope {
		for _, v := range level {
			v, b := v, v.base() // b holds the value (an alias's parameter)
			shape, cols = append(shape, v), append(cols, firstColumn(b))
			if b.record {
				for i, c := range b.cols {
					i := i
					vars = append(vars, planner.Variable{Name: c.Name, Qualifier: v.name, Type: c.Type, Field: true})
					vals = append(vals, func() sqltypes.Value {
						if b.row == nil {
							return sqltypes.Null
						}
						return b.row[i]
					})
					add(v.name, c.Name, c.Type)
				}
				continue
			}
			vars = append(vars, planner.Variable{Name: v.name, Qualifier: v.label, Type: v.typ})
			vals = append(vals, func() sqltypes.Value { return b.val })
			add(v.label, v.name, v.typ)
			vars, vals = compositeFieldVars(v, vars, vals, add)
		}
	}
	x.vc = plVarsCache{shape: shape, cols: cols, vars: vars, vals: vals, sig: string(sig)}
	return vars, vals, x.vc.sig
}

// plBound is a bound statement of a PL/pgSQL body. simple are the
// expressions of a SELECT of expressions alone (no FROM, WHERE,
// subquery...), which the interpreter evaluates itself without planning
// or running a plan, as PostgreSQL's PL/pgSQL evaluates its "simple
// expressions".
type plBound struct {
	st ir.Statement
	// utility, instead of st, is a utility statement, which the session
	// runs (plExec.utility).
	utility *parser.Statement
	simple  []ir.Expr
	cols    []ir.Column
	// cache is the statement's plan cache (plancache.go), as a prepared
	// statement's: custom plans, then a generic plan whose key ranges
	// come from each execution's values. mu guards it: a statement's
	// functions may run on several goroutines.
	mu    sync.Mutex
	cache planCache
}

// simpleExprs returns the expressions of a bound SELECT of expressions
// alone, or nil.
func simpleExprs(st ir.Statement) []ir.Expr {
	q, ok := st.(*ir.Query)
	if !ok || q.Locking != "" || len(q.Writes) > 0 {
		return nil
	}
	p, ok := q.Plan.(*ir.Project)
	if !ok || len(p.Exprs) == 0 {
		return nil
	}
	if v, ok := p.Input.(*ir.Values); !ok || len(v.Rows) != 1 || len(v.Rows[0]) != 0 {
		return nil
	}
	simple := true
	for _, e := range p.Exprs {
		ir.Walk(e, func(e ir.Expr) {
			switch e.(type) {
			case *ir.Binary, *ir.Cast, *ir.Const, *ir.Func, *ir.InList, *ir.IsNull, *ir.Like, *ir.Neg, *ir.Not, *ir.Param, *ir.RowExpr:
			default:
				simple = false // a subquery, a column, anything else the executor runs
			}
		})
	}
	if !simple {
		return nil
	}
	return p.Exprs
}

// bind binds one SQL statement of the body with the variables in scope
// (cached per snapshot, text and variable shape) and returns its
// parameter values.
func (x *plExec) bind(sql string) (ir.Statement, []sqltypes.Value, error) {
	b, params, err := x.bindFull(sql, true)
	if err != nil {
		return nil, nil, err
	}
	if b.utility != nil {
		return nil, nil, x.notCursor(b.utility)
	}
	return b.st, params, nil
}

// bindFull binds sql, from the cache when cache is set.
func (x *plExec) bindFull(sql string, cache bool) (*plBound, []sqltypes.Value, error) {
	x.refresh()
	vars, vals, sig := x.variables()
	if len(x.tables) > 0 {
		// A trigger's statements also read its transition tables.
		t := []byte(sig)
		for _, tt := range x.tables {
			t = append(append(t, 0), tt.Name...)
			for _, c := range tt.Columns {
				t = append(append(append(t, ';'), c.Name...), ':')
				t = strconv.AppendUint(t, uint64(c.Type.OID()), 10)
			}
		}
		sig = string(t)
	}
	key := plPlanKey{block: x.top, sql: sql, sig: sig, path: x.scope0.pathKey}
	s := x.r.st.sess
	c := &s.bodies
	c.mu.Lock()
	if c.snap != x.r.snap {
		c.snap, c.bodies, c.plans, c.plByFn = x.r.snap, map[routineBodyKey][]ir.Statement{}, nil, nil
	}
	b, ok := c.plans[key]
	c.mu.Unlock()
	if !ok || !cache {
		stmts, err := parser.Parse(sql)
		if err != nil {
			return nil, nil, err
		}
		if len(stmts) != 1 {
			return nil, nil, pgerr.New(pgerr.SyntaxError, "query \"%s\" is not a single statement", sql)
		}
		if !planner.PLBindable(&stmts[0]) {
			// Not cached: the session binds it as it runs it.
			return &plBound{utility: &stmts[0]}, nil, nil
		}
		owner := ""
		if x.fn != nil && x.fn.Definer {
			owner = x.fn.Owner
		}
		st, err := planner.BindPLStatement(x.scope0.snap, &stmts[0], vars, x.tables, planner.ParseVariableConflict(x.top.VariableConflict), owner, x.r.style)
		if err != nil {
			return nil, nil, err
		}
		b = &plBound{st: st, simple: simpleExprs(st), cols: planner.ResultColumns(st)}
		if !cache {
			return b, values(vals), nil
		}
		c.mu.Lock()
		if c.plans == nil {
			c.plans = map[plPlanKey]*plBound{}
		}
		c.plans[key] = b
		c.mu.Unlock()
	}
	return b, values(vals), nil
}

// values reads the variables' slots.
func values(vals []func() sqltypes.Value) []sqltypes.Value {
	params := make([]sqltypes.Value, len(vals))
	for i, f := range vals {
		params[i] = f()
	}
	return params
}

// plPlanKey identifies a bound statement of a PL/pgSQL body: the body
// (its parsed block, which the session keeps per text), the statement's
// text and the variables' shape.
type plPlanKey struct {
	block          *parser.PLBlock
	sql, sig, path string
}

// run binds and runs a SQL statement, returning rows as collect asks and
// their columns.
func (x *plExec) run(sql string, collect int) ([][]sqltypes.Value, []ir.Column, int64, error) {
	rows, cols, n, _, err := x.runSQL(sql, collect, false)
	return rows, cols, n, err
}

// runSQL is run, running a utility statement when utility allows (else
// refusing it where a query is wanted); ran reports one was run.
func (x *plExec) runSQL(sql string, collect int, utility bool) (rows [][]sqltypes.Value, cols []ir.Column, n int64, ran bool, err error) {
	b, params, err := x.bindStatement(sql)
	if err == nil && b.utility != nil && !utility {
		err = x.notCursor(b.utility)
	}
	if err != nil {
		return nil, nil, 0, false, sqlContext(err, "SQL statement", sql, 0)
	}
	x.spiKind, x.spiText = "SQL statement", sql
	if b.utility != nil {
		rows, cols, n, err = x.utility(b.utility, false, collect)
	} else {
		rows, cols, n, err = x.runBound(b, params, collect)
	}
	x.spiKind = ""
	return rows, cols, n, b.utility != nil, sqlContext(err, "SQL statement", sql, 0)
}

// runBound runs a bound statement with its parameters.
func (x *plExec) runBound(b *plBound, params []sqltypes.Value, collect int) ([][]sqltypes.Value, []ir.Column, int64, error) {
	if err := x.r.ctx.Err(); err != nil {
		return nil, nil, 0, storeErr(err)
	}
	if b.utility != nil {
		return nil, nil, 0, x.notCursor(b.utility) // an expression's SELECT never is one
	}
	st := b.st
	if b.simple != nil {
		row, err := x.evalSimple(b, params)
		if err != nil {
			return nil, nil, 0, err
		}
		if collect == collectNone {
			return nil, b.cols, 1, nil
		}
		return [][]sqltypes.Value{row}, b.cols, 1, nil
	}
	if c, ok := st.(*ir.Call); ok {
		vars, _, _ := x.variables()
		return nil, nil, 0, x.call(c, params, vars)
	}
	rows, n, err := x.r.runStatement(x.fn, st, params, x.opts, collect, b)
	return rows, b.cols, n, err
}

// bindStatement binds a statement of the body; one with WHERE CURRENT OF
// cursor (a cursor variable, or a portal's name) is bound afresh with the
// cursor's current row in its place.
func (x *plExec) bindStatement(sql string) (*plBound, []sqltypes.Value, error) {
	start, end, name, ok := parser.CurrentOf(sql)
	if !ok {
		return x.bindFull(sql, true)
	}
	portal := name
	if v, field := x.lookup(name); v != nil && field == "" && !v.record && v.typ.ID == sqltypes.RefCursor {
		c, err := x.portalOf(v)
		if err != nil {
			return nil, nil, err
		}
		portal = c.name
	}
	text, t, err := x.r.st.sess.currentOfText(sql, start, end, portal)
	if err != nil {
		return nil, nil, err
	}
	b, params, err := x.bindFull(text, false)
	if err != nil {
		return nil, nil, err
	}
	return b, params, checkCurrentOfTarget(b.st, t, portal)
}

// evalSimple evaluates a simple statement's expressions (plBound.simple)
// with params: its one row.
func (x *plExec) evalSimple(b *plBound, params []sqltypes.Value) ([]sqltypes.Value, error) {
	if len(b.st.(*ir.Query).Routines) > 0 {
		if err := x.r.st.sess.checkPrivileges(x.r.ctx, b.st); err != nil {
			return nil, err
		}
	}
	fn := x.opts.Fn
	if fn.Now.IsZero() {
		fn.Now = time.Now()
	}
	ec := &ir.EvalContext{Params: params, Now: fn.Now, Fn: fn}
	row := make([]sqltypes.Value, len(b.simple))
	for i, e := range b.simple {
		v, err := e.Eval(ec, nil)
		if err != nil {
			return nil, err
		}
		row[i] = v
	}
	return row, nil
}

// eval computes an expression's value and type.
func (x *plExec) eval(expr string) (sqltypes.Value, sqltypes.Type, error) {
	v, t, spi, err := x.evalSPI(expr, nil)
	if spi {
		err = sqlContext(err, "SQL expression", expr, -len("SELECT "))
	}
	return v, t, err
}

// evalSPI is eval (of an assignment's expression, with assign) without
// CONTEXT; spi reports whether PostgreSQL's SPI
// error callback would name the expression in the error's
// (plpgsql_context.go): it failed as it was bound, or as it ran when it is
// not a simple expression or one PostgreSQL folds as it prepares it.
func (x *plExec) evalSPI(expr string, assign *parser.PLAssign) (v sqltypes.Value, t sqltypes.Type, spi bool, err error) {
	b, params, err := x.bindStatement("SELECT " + expr)
	if err != nil {
		return sqltypes.Null, sqltypes.TypeUnknown, true, err
	}
	if b.simple == nil {
		// Run as a statement, under PostgreSQL's SPI callback.
		x.spiKind, x.spiText = "SQL expression", expr
		if assign != nil {
			x.spiKind = "PL/pgSQL assignment"
			x.spiText, _ = x.assignText(assign)
		}
	}
	rows, cols, _, err := x.runBound(b, params, collectFirst)
	x.spiKind = ""
	if err != nil {
		return sqltypes.Null, sqltypes.TypeUnknown, b.simple == nil || plFolded(b.simple), err
	}
	if len(cols) != 1 {
		return sqltypes.Null, sqltypes.TypeUnknown, false, pgerr.New(pgerr.SyntaxError, "query \"SELECT %s\" returned %d columns", expr, len(cols))
	}
	if len(rows) == 0 {
		return sqltypes.Null, cols[0].Type, false, nil
	}
	return rows[0][0], cols[0].Type, false, nil
}

// evalBool computes a condition (NULL is false).
func (x *plExec) evalBool(expr string) (bool, error) {
	return x.truth(x.eval(expr))
}

// truth is a condition's value (NULL is false) from its evaluation.
func (x *plExec) truth(v sqltypes.Value, t sqltypes.Type, err error) (bool, error) {
	if err != nil {
		return false, err
	}
	if v.IsNull() {
		return false, nil
	}
	if t.ID != sqltypes.Bool {
		b, err := ir.CastValueStyled(v, t, sqltypes.TypeBool, false, x.r.style)
		if err != nil {
			return false, err
		}
		v = b
	}
	return v.I != 0, nil
}

// evalInt computes an integer expression (a FOR loop's bound).
func (x *plExec) evalInt(expr, what string) (int64, error) {
	v, t, err := x.eval(expr)
	if err != nil {
		return 0, err
	}
	if v.IsNull() {
		return 0, pgerr.New(pgerr.NullValueNotAllowed, "%s of FOR loop cannot be null", what)
	}
	if t.ID != sqltypes.Int8 {
		if v, err = ir.CastValueStyled(v, t, sqltypes.TypeInt8, false, x.r.style); err != nil {
			return 0, err
		}
	}
	return v.I, nil
}

func (x *plExec) stmts(ss []parser.PLStmt) error {
	for _, s := range ss {
		if err := x.r.ctx.Err(); err != nil {
			return storeErr(err)
		}
		if err := x.stmt(s); err != nil {
			return err
		}
	}
	return nil
}

// stmt runs one statement; an error out of it gets the activation's
// CONTEXT line for it, unless a statement inside it gave one
// (plpgsql_context.go).
func (x *plExec) stmt(s parser.PLStmt) error {
	prev := x.cur
	x.cur = s
	err := x.stmtFramed(x.execStmt(s), s)
	x.cur = prev
	return err
}

func (x *plExec) execStmt(s parser.PLStmt) error {
	switch s := s.(type) {
	case *parser.PLBlock:
		return x.block(s)
	case *parser.PLNull:
		return nil
	case *parser.PLAssign:
		v, field := x.lookup(s.Target)
		val, t, spi, err := x.evalSPI(s.Expr, s)
		if err != nil {
			if spi {
				text, offset := x.assignText(s)
				err = sqlContext(err, "PL/pgSQL assignment", text, offset-len("SELECT "))
			}
			return err
		}
		if v == nil {
			return x.assignFound(s.Target, val, t)
		}
		return x.assign(v, field, val, t)
	case *parser.PLIf:
		for i, c := range s.Conds {
			ok, err := x.evalBool(c)
			if err != nil {
				return err
			}
			if ok {
				return x.stmts(s.Thens[i])
			}
		}
		return x.stmts(s.Else)
	case *parser.PLCase:
		for i, w := range s.Whens {
			cond := w
			if s.Operand != "" {
				cond = "(" + s.Operand + ") IN (" + w + ")"
			}
			ok, err := x.evalBool(cond)
			if err != nil {
				return err
			}
			if ok {
				return x.stmts(s.Thens[i])
			}
		}
		if !s.HasElse {
			return pgerr.New(pgerr.CaseNotFound, "case not found").WithHint("CASE statement is missing ELSE part.")
		}
		return x.stmts(s.Else)
	case *parser.PLLoop:
		return x.loop(s)
	case *parser.PLExit:
		if s.When != "" {
			ok, err := x.evalBool(s.When)
			if err != nil || !ok {
				return err
			}
		}
		return &plExit{label: s.Label, cont: s.Continue}
	case *parser.PLReturn:
		return x.returnStmt(s)
	case *parser.PLPerform:
		_, _, n, err := x.run(s.Query, collectNone)
		if err == nil {
			x.found, x.rowCount = n > 0, n
		}
		return err
	case *parser.PLSQL:
		return x.sqlStmt(s.SQL, s.Into, s.Strict, nil)
	case *parser.PLExecute:
		return x.execute(s)
	case *parser.PLGetDiag:
		return x.getDiag(s)
	case *parser.PLRaise:
		return x.raise(s)
	case *parser.PLOpen:
		return x.open(s)
	case *parser.PLFetch:
		return x.fetch(s)
	case *parser.PLClose:
		return x.closeCursor(s)
	case *parser.PLCommit:
		return x.transactionControl(s)
	case *parser.PLAssert:
		ok, err := x.evalBool(s.Cond)
		if err != nil || ok {
			return err
		}
		msg := "assertion failed"
		if s.Message != "" {
			v, t, err := x.eval(s.Message)
			if err != nil {
				return err
			}
			msg = x.text(v, t)
		}
		return pgerr.New(pgerr.AssertFailure, "%s", msg)
	}
	return pgerr.New(pgerr.FeatureNotSupported, "PL/pgSQL statement %T is not supported", s)
}

// sqlStmt runs a SQL statement (its parameters given when dynamic: the
// EXECUTE's USING values), storing its first row in into.
func (x *plExec) sqlStmt(sql string, into []string, strict bool, using []sqltypes.Value) error {
	collect := collectNone
	if into != nil {
		collect = collectFirst
	}
	var rows [][]sqltypes.Value
	var cols []ir.Column
	var n int64
	var utility bool
	var err error
	dynamic := using != nil || strings.HasPrefix(sql, "\x00")
	if dynamic {
		rows, cols, n, utility, err = x.runDynamicSQL(strings.TrimPrefix(sql, "\x00"), using, collect, true)
	} else {
		rows, cols, n, utility, err = x.runSQL(sql, collect, true)
	}
	if err != nil {
		return err
	}
	// PostgreSQL sets FOUND after a query or a write, not after a
	// utility statement nor after EXECUTE; ROW_COUNT after each.
	if !utility && !dynamic {
		x.found = n > 0
	}
	x.rowCount = n
	if into == nil {
		return nil
	}
	switch {
	case n == 0 && strict:
		return pgerr.New(pgerr.NoDataFound, "query returned no rows")
	case n > 1 && strict:
		return pgerr.New(pgerr.TooManyRows, "query returned more than one row").
			WithHint("Make sure the query returns a single row, or use LIMIT 1.")
	}
	x.rowCount = min(n, 1)
	var row []sqltypes.Value
	if len(rows) > 0 {
		row = rows[0]
	}
	return x.assignRow(into, row, cols)
}

// runDynamic runs EXECUTE's statement, its $n the USING values.
func (x *plExec) runDynamic(sql string, using []sqltypes.Value, collect int) ([][]sqltypes.Value, []ir.Column, int64, error) {
	rows, cols, n, _, err := x.runDynamicSQL(sql, using, collect, false)
	return rows, cols, n, err
}

// runDynamicSQL is runDynamic, running a utility statement when utility
// allows (EXECUTE's own), else refusing it; ran reports one was run.
func (x *plExec) runDynamicSQL(sql string, using []sqltypes.Value, collect int, utility bool) (rows [][]sqltypes.Value, cols []ir.Column, n int64, ran bool, err error) {
	p, err := x.parseDynamic(sql)
	if err != nil {
		return nil, nil, 0, false, sqlContext(err, "SQL statement", sql, 0)
	}
	if !planner.PLBindable(p) {
		if !utility {
			return nil, nil, 0, false, sqlContext(x.notCursor(p), "SQL statement", sql, 0)
		}
		x.spiKind, x.spiText = "SQL statement", sql
		rows, cols, n, err = x.utility(p, true, collect)
		x.spiKind = ""
		return rows, cols, n, true, sqlContext(err, "SQL statement", sql, 0)
	}
	st, err := x.bindParsed(p, using)
	if err != nil {
		return nil, nil, 0, false, sqlContext(err, "SQL statement", sql, 0)
	}
	x.spiKind, x.spiText = "SQL statement", sql
	rows, n, err = x.r.runStatement(x.fn, st, using, x.opts, collect, nil)
	x.spiKind = ""
	return rows, planner.ResultColumns(st), n, false, sqlContext(err, "SQL statement", sql, 0)
}

// parseDynamic parses an EXECUTE's statement.
func (x *plExec) parseDynamic(sql string) (*parser.Statement, error) {
	stmts, err := parser.Parse(sql)
	if err != nil {
		return nil, err
	}
	if len(stmts) != 1 {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "EXECUTE of several statements is not supported")
	}
	return &stmts[0], nil
}

// bindDynamic binds an EXECUTE's statement, its $n the USING values; a
// utility statement is refused (a cursor's query).
func (x *plExec) bindDynamic(sql string, using []sqltypes.Value) (ir.Statement, error) {
	p, err := x.parseDynamic(sql)
	if err != nil {
		return nil, err
	}
	if !planner.PLBindable(p) {
		return nil, x.notCursor(p)
	}
	return x.bindParsed(p, using)
}

// bindParsed binds a parsed EXECUTE statement, its $n the USING values.
func (x *plExec) bindParsed(p *parser.Statement, using []sqltypes.Value) (ir.Statement, error) {
	x.refresh()
	vars := make([]planner.Variable, len(using))
	for i, v := range using {
		vars[i] = planner.Variable{Type: sqltypes.TypeOfValue(v)}
	}
	owner := ""
	if x.fn != nil && x.fn.Definer {
		owner = x.fn.Owner
	}
	return planner.BindPLStatement(x.scope0.snap, p, vars, x.tables, planner.ParseVariableConflict(x.top.VariableConflict), owner, x.r.style)
}

// dynamicQuery computes an EXECUTE's query string and its USING
// arguments.
func (x *plExec) dynamicQuery(query string, using []string) (string, []sqltypes.Value, error) {
	q, t, err := x.eval(query)
	if err != nil {
		return "", nil, err
	}
	if q.IsNull() {
		return "", nil, pgerr.New(pgerr.NullValueNotAllowed, "query string argument of EXECUTE is null")
	}
	args, err := x.evalList(using)
	if err != nil {
		return "", nil, err
	}
	return x.text(q, t), args, nil
}

// dynamicRows runs the query the expression query computes, its $n the
// USING expressions' values, and returns all its rows.
func (x *plExec) dynamicRows(query string, using []string) ([][]sqltypes.Value, []ir.Column, error) {
	sql, args, err := x.dynamicQuery(query, using)
	if err != nil {
		return nil, nil, err
	}
	rows, cols, _, err := x.runDynamic(sql, args, collectAll)
	return rows, cols, err
}

func (x *plExec) execute(s *parser.PLExecute) error {
	sql, using, err := x.dynamicQuery(s.Query, s.Using)
	if err != nil {
		return err
	}
	return x.sqlStmt("\x00"+sql, s.Into, s.Strict, using)
}

// evalList computes USING's arguments.
func (x *plExec) evalList(exprs []string) ([]sqltypes.Value, error) {
	out := []sqltypes.Value{}
	for _, e := range exprs {
		v, _, err := x.eval(e)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// text is a value's text form (RAISE's %, EXECUTE's string).
func (x *plExec) text(v sqltypes.Value, t sqltypes.Type) string {
	if v.IsNull() {
		return ""
	}
	if v.K == sqltypes.KindText {
		return v.S
	}
	// The type's output function, as RAISE prints (a boolean is t or f,
	// where a cast to text says true or false).
	return string(sqltypes.AppendTextStyled(nil, t, v, x.r.style))
}

func (x *plExec) loop(s *parser.PLLoop) error {
	// body runs the loop's body once: done when the loop ends.
	body := func() (done bool, err error) {
		// Each iteration heeds statement_timeout and cancel, even one
		// with an empty body.
		if err := x.r.ctx.Err(); err != nil {
			return false, storeErr(err)
		}
		err = x.stmts(s.Body)
		var exit *plExit
		if errors.As(err, &exit) && (exit.label == "" || exit.label == s.Label) {
			return !exit.cont, nil
		}
		return false, err
	}
	switch s.Kind {
	case parser.LoopPlain, parser.LoopWhile:
		for {
			if s.Kind == parser.LoopWhile {
				ok, err := x.evalBool(s.Cond)
				if err != nil || !ok {
					return err
				}
			}
			if done, err := body(); done || err != nil {
				return err
			}
		}
	case parser.LoopInt:
		lo, err := x.evalInt(s.Lo, "lower bound")
		if err != nil {
			return err
		}
		hi, err := x.evalInt(s.Hi, "upper bound")
		if err != nil {
			return err
		}
		step := int64(1)
		if s.By != "" {
			if step, err = x.evalInt(s.By, "BY value"); err != nil {
				return err
			}
			if step <= 0 {
				return pgerr.New(pgerr.InvalidParameterValue, "BY value of FOR loop must be greater than zero")
			}
		}
		v := &plVar{name: s.Vars[0], label: s.Label, typ: sqltypes.TypeInt4}
		x.scope = append(x.scope, []*plVar{v})
		defer func() { x.scope = x.scope[:len(x.scope)-1] }()
		x.found = false
		for i := lo; s.Reverse && i >= hi || !s.Reverse && i <= hi; {
			v.val = sqltypes.NewInt(i)
			x.found = true
			if done, err := body(); done || err != nil {
				return err
			}
			if s.Reverse {
				i -= step
			} else {
				i += step
			}
		}
		return nil
	case parser.LoopCursor:
		return x.cursorLoop(s, body)
	case parser.LoopQuery, parser.LoopExecute:
		// PostgreSQL runs the loop's query as an unnamed cursor: it takes
		// a number of "<unnamed portal N>".
		x.unnamedPortal()
		var rows [][]sqltypes.Value
		var cols []ir.Column
		var err error
		if s.Kind == parser.LoopExecute {
			rows, cols, err = x.dynamicRows(s.Query, s.Using)
		} else {
			rows, cols, _, err = x.run(s.Query, collectAll)
		}
		if err != nil {
			return err
		}
		for _, row := range rows {
			if err := x.assignRow(s.Vars, row, cols); err != nil {
				return err
			}
			if done, err := body(); done || err != nil {
				x.found = true
				return err
			}
		}
		x.found = len(rows) > 0
		return nil
	case parser.LoopForeach:
		arr, t, err := x.eval(s.Array)
		if err != nil {
			return err
		}
		if arr.IsNull() {
			return pgerr.New(pgerr.NullValueNotAllowed, "FOREACH expression must not be null")
		}
		elems, ok := arr.X.(*sqltypes.ArrayValue)
		if t.ID != sqltypes.Array || !ok {
			return pgerr.New(pgerr.DatatypeMismatch, "FOREACH expression must yield an array, not type %s", t)
		}
		et := t.ElemType()
		for _, e := range elems.Elems {
			if err := x.assignRow(s.Vars, []sqltypes.Value{e}, []ir.Column{{Type: et}}); err != nil {
				return err
			}
			if done, err := body(); done || err != nil {
				return err
			}
		}
		return nil
	}
	return nil
}

func (x *plExec) returnStmt(s *parser.PLReturn) error {
	fn := x.fn
	switch {
	case s.Query != "" || s.Execute != "":
		if fn == nil || !fn.ReturnsSet {
			return pgerr.New(pgerr.SyntaxError, "cannot use RETURN QUERY in a non-SETOF function")
		}
		var rows [][]sqltypes.Value
		var cols []ir.Column
		var err error
		if s.Execute != "" {
			rows, cols, err = x.dynamicRows(s.Execute, s.Using)
		} else {
			rows, cols, _, err = x.run(s.Query, collectAll)
		}
		if err != nil {
			return err
		}
		want := planner.RoutineResultTypes(fn)
		if len(cols) != len(want) {
			return pgerr.New(pgerr.DatatypeMismatch, "structure of query does not match function result type").
				WithDetail("Number of returned columns (%d) does not match expected column count (%d).", len(cols), len(want))
		}
		for _, row := range rows {
			for i := range row {
				if row[i], err = x.convert(row[i], cols[i].Type, want[i]); err != nil {
					return err
				}
			}
		}
		x.rows = append(x.rows, rows...)
		x.found, x.rowCount = len(rows) > 0, int64(len(rows))
		return nil
	case s.Next:
		if fn == nil || !fn.ReturnsSet {
			return pgerr.New(pgerr.SyntaxError, "cannot use RETURN NEXT in a non-SETOF function")
		}
		row, err := x.resultRow(s.Expr)
		if err != nil {
			return err
		}
		x.rows = append(x.rows, row)
		return nil
	}
	if fn != nil && fn.Trigger {
		x.hasRet = true
		if s.Expr == "" {
			return pgerr.New(pgerr.SyntaxError, "missing expression at or near \";\"")
		}
		if v, field := x.lookup(s.Expr); v != nil && v.record && field == "" {
			x.trigRow = v.row
			return plReturn{}
		}
		if strings.EqualFold(strings.TrimSpace(s.Expr), "null") {
			x.trigRow = nil // RETURN NULL, without a query
			return plReturn{}
		}
		val, _, err := x.eval(s.Expr)
		if err != nil {
			return err
		}
		if !val.IsNull() {
			return pgerr.New(pgerr.DatatypeMismatch, "returned row structure does not match the structure of the triggering table")
		}
		x.trigRow = nil
		return plReturn{}
	}
	if s.Expr != "" {
		if fn == nil || fn.Procedure() {
			return pgerr.New(pgerr.SyntaxError, "RETURN cannot have a parameter in a procedure")
		}
		if fn.ReturnsSet {
			return pgerr.New(pgerr.SyntaxError, "RETURN cannot have a parameter in function returning set").
				WithHint("Use RETURN NEXT or RETURN QUERY.")
		}
		if fn.RowType != "" {
			row, err := x.resultRow(s.Expr)
			if err != nil {
				return err
			}
			x.ret = sqltypes.Value{K: sqltypes.KindArray, X: row}
		} else if rec, ok, err := x.compositeReturn(s.Expr); ok {
			if err != nil {
				return err
			}
			x.ret = rec
		} else {
			v, t, err := x.eval(s.Expr)
			if err != nil {
				return err
			}
			if x.ret, err = x.convert(v, t, fn.Result); err != nil {
				return err
			}
		}
		x.hasRet = true
	}
	return plReturn{}
}

// resultRow is RETURN NEXT's row: the OUT parameters' values (no
// expression), a record variable's row, or the expression's value.
func (x *plExec) resultRow(expr string) ([]sqltypes.Value, error) {
	fn := x.fn
	want := planner.RoutineResultTypes(fn)
	if expr == "" {
		var row []sqltypes.Value
		for _, p := range fn.Params {
			if p.IsOutput() {
				v, _ := x.lookup(p.Name)
				if v == nil {
					row = append(row, sqltypes.Null)
					continue
				}
				row = append(row, v.val)
			}
		}
		return row, nil
	}
	if v, field := x.lookup(expr); v != nil && v.record && field == "" {
		if len(v.row) != len(want) {
			return nil, pgerr.New(pgerr.DatatypeMismatch, "wrong record type supplied in RETURN NEXT")
		}
		row := make([]sqltypes.Value, len(want))
		for i := range want {
			cv, err := x.convert(v.row[i], v.cols[i].Type, want[i])
			if err != nil {
				return nil, err
			}
			row[i] = cv
		}
		return row, nil
	}
	val, t, err := x.eval(expr)
	if err != nil {
		return nil, err
	}
	if len(want) != 1 {
		return nil, pgerr.New(pgerr.DatatypeMismatch, "RETURN NEXT must return a record or row variable in a function with several result columns")
	}
	cv, err := x.convert(val, t, want[0])
	return []sqltypes.Value{cv}, err
}

func (x *plExec) getDiag(s *parser.PLGetDiag) error {
	for i, item := range s.Items {
		v, field := x.lookup(s.Vars[i])
		if v == nil {
			return pgerr.New(pgerr.SyntaxError, "\"%s\" is not a known variable", s.Vars[i])
		}
		var val sqltypes.Value
		var t sqltypes.Type
		switch {
		case !s.Stacked && item == "row_count":
			val, t = sqltypes.NewInt(x.rowCount), sqltypes.TypeInt8
		case !s.Stacked && item == "pg_context":
			val, t = sqltypes.NewText(x.contextStack()), sqltypes.TypeText
		case s.Stacked && len(x.handling) > 0:
			e := x.handling[len(x.handling)-1]
			t = sqltypes.TypeText
			switch item {
			case "returned_sqlstate":
				val = sqltypes.NewText(e.Code.String())
			case "message_text":
				val = sqltypes.NewText(e.Message)
			case "pg_exception_detail":
				val = sqltypes.NewText(e.Detail)
			case "pg_exception_hint":
				val = sqltypes.NewText(e.Hint)
			case "pg_exception_context":
				val = sqltypes.NewText(e.Where)
			default:
				return pgerr.New(pgerr.FeatureNotSupported, "GET STACKED DIAGNOSTICS %s is not supported", strings.ToUpper(item))
			}
		case s.Stacked:
			return pgerr.New(pgerr.StackedDiagnosticsAccessedWithoutActiveHandler, "GET STACKED DIAGNOSTICS cannot be used outside an exception handler")
		default:
			return pgerr.New(pgerr.FeatureNotSupported, "GET DIAGNOSTICS %s is not supported", strings.ToUpper(item))
		}
		if err := x.assign(v, field, val, t); err != nil {
			return err
		}
	}
	return nil
}

// raiseSeverities are RAISE's levels as a message's severity.
var raiseSeverities = map[string]string{"debug": "DEBUG", "log": "LOG", "info": "INFO", "notice": "NOTICE", "warning": "WARNING"}

func (x *plExec) raise(s *parser.PLRaise) error {
	if s.Level == "" {
		if len(x.handling) == 0 {
			return pgerr.New(pgerr.StackedDiagnosticsAccessedWithoutActiveHandler, "RAISE without parameters cannot be used outside an exception handler")
		}
		// The error handled, as it was raised: with its CONTEXT.
		return &plFramed{x.handling[len(x.handling)-1]}
	}
	e := &pgerr.Error{Code: pgerr.RaiseException, Severity: "ERROR"}
	if s.Level != "exception" {
		e.Severity, e.Code = raiseSeverities[s.Level], pgerr.SuccessfulCompletion
		if s.Level == "warning" {
			e.Code = pgerr.Warning
		}
	}
	switch {
	case s.HasFormat:
		args := make([]string, len(s.Args))
		for i, a := range s.Args {
			v, t, err := x.eval(a)
			if err != nil {
				return err
			}
			args[i] = "<NULL>"
			if !v.IsNull() {
				args[i] = x.text(v, t)
			}
		}
		msg, err := raiseFormat(s.Format, args)
		if err != nil {
			return err
		}
		e.Message = msg
	case s.SQLState != "":
		e.Code, e.Message = pgerr.FromSQLState(s.SQLState), s.SQLState
	case s.Condition != "":
		code, ok := pgerr.CodeOfCondition(s.Condition)
		if !ok {
			return pgerr.New(pgerr.UndefinedObject, "unrecognized exception condition \"%s\"", s.Condition)
		}
		e.Code, e.Message = code, s.Condition
	}
	for i, name := range s.OptNames {
		v, t, err := x.eval(s.OptExprs[i])
		if err != nil {
			return err
		}
		if v.IsNull() {
			return pgerr.New(pgerr.NullValueNotAllowed, "RAISE statement option cannot be null")
		}
		val := x.text(v, t)
		switch strings.ToLower(name) {
		case "message":
			e.Message = val
		case "detail":
			e.Detail = val
		case "hint":
			e.Hint = val
		case "errcode":
			if code, ok := pgerr.CodeOfCondition(val); ok {
				e.Code = code
			} else if len(val) == 5 {
				e.Code = pgerr.FromSQLState(val)
			} else {
				return pgerr.New(pgerr.UndefinedObject, "unrecognized exception condition \"%s\"", val)
			}
		case "column", "constraint", "datatype", "table", "schema":
		default:
			return pgerr.New(pgerr.SyntaxError, "unrecognized RAISE statement option \"%s\"", name)
		}
	}
	if e.Message == "" {
		e.Message = e.Code.String()
		if c := pgerr.ConditionOf(e.Code); c != "" {
			e.Message = c
		}
	}
	if s.Level != "exception" {
		if x.r.st.sess.noticeWanted(e.Severity) { // (RAISE DEBUG in a loop costs nothing more)
			e.Where = x.contextStack()
			x.r.st.sess.notice(e)
		}
		return nil
	}
	return e.RaisedByUser() // RAISE ... USING ERRCODE = 'XX000' is the user's, not zproxy's
}

// raiseFormat replaces each % of format with the next argument (%% is a
// percent sign), as RAISE does.
func raiseFormat(format string, args []string) (string, error) {
	var b strings.Builder
	n := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			b.WriteByte(format[i])
			continue
		}
		if i+1 < len(format) && format[i+1] == '%' {
			b.WriteByte('%')
			i++
			continue
		}
		if n >= len(args) {
			return "", pgerr.New(pgerr.SyntaxError, "too few parameters specified for RAISE")
		}
		b.WriteString(args[n])
		n++
	}
	if n < len(args) {
		return "", pgerr.New(pgerr.SyntaxError, "too many parameters specified for RAISE")
	}
	return b.String(), nil
}
