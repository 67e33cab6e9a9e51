package session

import (
	"errors"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/executor"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// runTrigger runs one firing of a trigger: its function's body with NEW,
// OLD and the TG_ variables, after its WHEN condition; a BEFORE ROW
// trigger's result is the row to write (none: skip it).
func (r *routineRunner) runTrigger(fc *builtins.Context, call *executor.TriggerCall) (builtins.SetRows, error) {
	tg, t := call.Trigger, call.Table
	fn, ok := r.snap.FunctionByOID(tg.Function)
	if !ok {
		return nil, pgerr.New(pgerr.UndefinedFunction, "function of trigger \"%s\" does not exist", tg.Name)
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
	block, err := r.st.sess.plBlock(fn.Body)
	if err != nil {
		return nil, err
	}
	inner := *fc
	inner.RoutineDepth++
	if fn.Definer {
		// A SECURITY DEFINER trigger function runs as its owner, as any
		// SECURITY DEFINER routine (CallRoutine).
		inner.Session.User, inner.Session.Definer = fn.Owner, true
	}
	x := &plExec{r: r, fn: fn, body: fn.Body, opts: r.opts, ret: sqltypes.Null}
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
		ok, err := x.evalBool(tg.When)
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
	err = x.block(block)
	var ret plReturn
	if err != nil && !errors.As(err, &ret) {
		return nil, err
	}
	if !x.hasRet {
		return nil, pgerr.New(pgerr.FunctionExecutedNoReturnStatement, "control reached end of trigger procedure without RETURN")
	}
	if call.Timing != "BEFORE" || !tg.Row || x.trigRow == nil {
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
