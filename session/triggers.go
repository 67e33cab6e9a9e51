package session

import (
	"context"
	"errors"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/executor"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/planner"
	"github.com/zproxy/zproxy/wire"
)

// runTrigger runs one firing of a trigger: its function's body with NEW,
// OLD and the TG_ variables, after its WHEN condition; a BEFORE ROW
// trigger's result is the row to write (none: skip it).
func (r *routineRunner) runTrigger(fc *builtins.Context, call *executor.TriggerCall) (_ builtins.SetRows, err error) {
	tg, t := call.Trigger, call.Table
	fn, ok := r.snap.FunctionByOID(tg.Function)
	if !ok {
		return nil, pgerr.New(pgerr.UndefinedFunction, "function of trigger \"%s\" does not exist", tg.Name)
	}
	if config := routineConfig(fn); len(config) > 0 {
		// The function's SET clauses, as for any call (CallRoutine).
		leave, err := r.st.sess.enterRoutineSettings(config, r.definerIsSuperuser(fn))
		if err != nil {
			return nil, err
		}
		defer func() { leave(err != nil) }()
	}
	cols := make([]ir.Column, len(t.Columns))
	for i, c := range t.Columns {
		cols[i] = ir.Column{Name: c.Name, Type: c.Type, Col: i}
	}
	rec := func(name string, row []sqltypes.Value) *plVar {
		v := &plVar{name: name, record: true, cols: cols}
		if row != nil {
			v.row = append([]sqltypes.Value(nil), row...)
		}
		return v
	}
	newV, oldV := rec("new", call.New), rec("old", call.Old)
	block, err := r.st.sess.plBlock(fn.Body, fn)
	if err != nil {
		return nil, err
	}
	inner := *fc
	inner.RoutineDepth++
	inner.Routines = r // a deferred firing's runner (deferred)
	if fn.Definer {
		// A SECURITY DEFINER trigger function runs as its owner, as any
		// SECURITY DEFINER routine (CallRoutine).
		inner.Session.User, inner.Session.Definer = fn.Owner, true
	}
	sc := r.st.sess.scopeOf(r.snap, fn, inner.Session.User)
	inner = *inScope(&inner, fn, sc)
	x := &plExec{r: r, fn: fn, body: fn.Body, opts: r.opts, ret: sqltypes.Null, top: block, scope0: sc, seen: r.snap}
	if tg.OldTable != "" || tg.NewTable != "" {
		inner.Transition = map[string][][]sqltypes.Value{}
		for _, tt := range []struct {
			name string
			rows [][]sqltypes.Value
		}{{tg.OldTable, call.OldTable}, {tg.NewTable, call.NewTable}} {
			if tt.name != "" {
				cols, rows := visibleRows(t, tt.rows)
				inner.Transition[tt.name] = rows
				x.tables = append(x.tables, planner.TransitionTable{Name: tt.name, Columns: cols})
			}
		}
	}
	x.caller, _ = fc.Frame.(*plExec)
	inner.Frame = x
	x.opts.Fn = inner
	level := "STATEMENT"
	if tg.Row {
		level = "ROW"
	}
	argv := make([]sqltypes.Value, len(tg.Args))
	for i, a := range tg.Args {
		argv[i] = sqltypes.NewText(a)
	}
	text := func(name, v string) *plVar {
		return &plVar{name: name, typ: sqltypes.TypeName, val: sqltypes.NewText(v)}
	}
	top := []*plVar{newV, oldV}
	if tg.When != "" {
		x.scope = [][]*plVar{top}
		// The executor's condition, not the body's: PostgreSQL names no
		// routine or expression in its errors.
		v, t, _, err := x.evalSPI(tg.When, nil)
		ok, err := x.truth(v, t, err)
		if err != nil || !ok {
			if err == nil && call.Timing == "BEFORE" {
				// Not fired: the row goes on unchanged.
				row := call.New
				if call.Event == "DELETE" {
					row = call.Old
				}
				return builtins.Table([][]sqltypes.Value{row}), nil
			}
			return builtins.Table(nil), err
		}
	}
	top = append(top, text("tg_name", tg.Name), text("tg_when", call.Timing), text("tg_level", level), text("tg_op", call.Event),
		text("tg_table_name", t.Name), text("tg_relname", t.Name), text("tg_table_schema", catalog.PublicSchema),
		&plVar{name: "tg_nargs", typ: sqltypes.TypeInt4, val: sqltypes.NewInt(int64(len(tg.Args)))},
		&plVar{name: "tg_argv", typ: sqltypes.ArrayOf(sqltypes.TypeText), val: zeroBased(argv)})
	x.scope = [][]*plVar{top}
	err = unframed(x.block(block))
	var ret plReturn
	if err != nil && !errors.As(err, &ret) {
		return nil, err
	}
	if !x.hasRet {
		return nil, pgerr.New(pgerr.FunctionExecutedNoReturnStatement, "control reached end of trigger procedure without RETURN")
	}
	if call.Timing == "AFTER" || !tg.Row || x.trigRow == nil {
		return builtins.Table(nil), nil
	}
	return builtins.Table([][]sqltypes.Value{x.trigRow}), nil
}

// zeroBased is a text array whose subscripts start at 0, as TG_ARGV's do.
func zeroBased(elems []sqltypes.Value) sqltypes.Value {
	a := &sqltypes.ArrayValue{Elem: sqltypes.TypeText, Elems: elems}
	if len(elems) > 0 {
		a.Dims, a.Lower = []int32{int32(len(elems))}, []int32{0}
	}
	return sqltypes.NewArray(a)
}

// fireTruncate fires the TRUNCATE triggers of the tables x empties at
// timing, in the statement's transaction (needsTransaction gives it one);
// before them, TRUNCATE ... CASCADE's notices name the tables it reaches.
func (st *statement) fireTruncate(ctx context.Context, x *ir.Truncate, timing string, env *runEnv) error {
	if !truncateTriggers(x) {
		return nil
	}
	e := st.sess.engine
	snap, err := st.sess.snapshot(ctx)
	if err != nil {
		return storeErr(err)
	}
	if rr, ok := env.opts.Fn.Routines.(*routineRunner); ok && timing == "AFTER" {
		rr.snap = snap // the AFTER triggers see the emptied tables
	}
	if timing == "BEFORE" && x.Cascade {
		tables, err := executor.TruncatedTables(snap, x.Tables, true)
		if err != nil {
			return err
		}
		for _, t := range tables[len(x.Tables):] {
			st.sess.notice(pgerr.Notice("truncate cascades to table \"%s\"", t.Name))
		}
	}
	err = e.exec.FireTruncate(ctx, snap, x.Tables, x.Cascade, timing, executor.RunOptions{WorkMem: st.sess.workMem(), TempFileLimit: st.sess.tempFileLimit(), Fn: env.opts.Fn, Txn: env.txn})
	return storeErr(err)
}

// truncateTriggers reports whether a TRUNCATE's tables may have TRUNCATE
// triggers (with CASCADE, those it reaches may).
func truncateTriggers(x *ir.Truncate) bool {
	if x.Cascade {
		return true
	}
	for _, t := range x.Tables {
		if t.HasTriggers("TRUNCATE") {
			return true
		}
	}
	return false
}

// deferred is the runner of a deferred constraint trigger's firing, which
// runs after its statement, at COMMIT or SET CONSTRAINTS ... IMMEDIATE:
// in ctx, that statement's, with the write gate already held
// (setConstraints, commitBlock).
func (r *routineRunner) deferred(ctx context.Context) *routineRunner {
	d := &routineRunner{st: r.st, ctx: ctx, txn: r.txn, opts: r.opts, snap: r.snap, style: r.style, firingDeferred: true}
	d.gate.Store(1)
	return d
}

// setConstraints runs SET CONSTRAINTS under the write gate: making
// constraints immediate fires their deferred triggers, whose writes need
// it, as COMMIT's do (commitBlock).
func (st *statement) setConstraints(ctx context.Context, txn *executor.Txn, x *ir.SetConstraints) error {
	e := st.sess.engine
	e.exec.Gate.RLock()
	defer e.exec.Gate.RUnlock()
	return txn.SetConstraints(ctx, x.Names, x.Immediate)
}

// visibleRows are a transition table's columns and rows: the table's
// visible columns (not its hidden row id).
func visibleRows(t *catalog.Table, rows [][]sqltypes.Value) ([]catalog.Column, [][]sqltypes.Value) {
	var cols []catalog.Column
	var keep []int
	for i, c := range t.Columns {
		if !c.Hidden {
			cols, keep = append(cols, c), append(keep, i)
		}
	}
	if len(keep) == len(t.Columns) {
		return cols, rows
	}
	out := make([][]sqltypes.Value, len(rows))
	for i, r := range rows {
		out[i] = make([]sqltypes.Value, len(keep))
		for j, k := range keep {
			out[i][j] = r[k]
		}
	}
	return cols, out
}

// copyToView runs COPY view FROM STDIN on a view with an INSTEAD OF INSERT
// trigger: its rows go through an INSERT on the view, which runs the
// trigger on each (planner/insteadof.go), as PostgreSQL's COPY does.
func (st *statement) copyToView(ctx context.Context, v *catalog.View, names []string) (wire.Result, error) {
	t := &catalog.Table{Name: v.Name, Triggers: v.Triggers}
	for i, c := range v.Columns {
		t.Columns = append(t.Columns, catalog.Column{Name: c, Type: v.Types[i]})
	}
	cols, err := copyColumns(t, names)
	if err != nil {
		return nil, err
	}
	snap, err := st.sess.snapshot(ctx)
	if err != nil {
		return nil, storeErr(err)
	}
	return st.copyFrom(ctx, t, snap.RelationKeyText(v.Name, v.Temp), cols)
}
