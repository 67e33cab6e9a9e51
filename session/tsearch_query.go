package session

import (
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
	"github.com/zproxy/zproxy/planner"
)

// RunQuery implements builtins.QueryRunner: the query ts_stat and
// ts_rewrite take as text, run in the calling statement's transaction and
// snapshot as the current user (the owner inside a SECURITY DEFINER
// routine), so that its privilege checks are those of the same query sent
// by the caller. As PostgreSQL's SPI cursor, it must be one statement and
// read only.
func (r *routineRunner) RunQuery(fc *builtins.Context, sql string) ([]sqltypes.Type, [][]sqltypes.Value, error) {
	if fc.RoutineDepth >= builtins.MaxRoutineDepth {
		return nil, nil, pgerr.New(pgerr.StatementTooComplex, "stack depth limit exceeded").
			WithHint("Increase the configuration parameter \"max_stack_depth\" (currently 2048kB), after ensuring the platform's stack depth limit is adequate.")
	}
	if err := r.ctx.Err(); err != nil {
		return nil, nil, storeErr(err)
	}
	stmts, err := parser.Parse(sql)
	if err != nil {
		return nil, nil, err
	}
	if len(stmts) != 1 {
		return nil, nil, pgerr.New(pgerr.InvalidCursorDefinition, "cannot open multi-query plan as cursor")
	}
	if r.snap == nil {
		snap, err := r.st.sess.snapshot(r.ctx)
		if err != nil {
			return nil, nil, storeErr(err)
		}
		r.snap = snap
	}
	owner := ""
	if fc.Session.Definer {
		owner = fc.Session.User
	}
	b, err := planner.BindWithVariables(r.snap, &stmts[0], nil, owner, r.style)
	if err != nil {
		return nil, nil, err
	}
	if _, ok := b.(*ir.Query); !ok {
		desc := b.Describe()
		tag := commandTag(b, desc)
		if desc.Writes && len(planner.ResultColumns(b)) > 0 {
			return nil, nil, pgerr.New(pgerr.FeatureNotSupported, "%s is not allowed in a non-volatile function", tag)
		}
		return nil, nil, pgerr.New(pgerr.InvalidCursorDefinition, "cannot open %s query as cursor", tag)
	}
	inner := *fc
	inner.RoutineDepth++
	opts := r.opts
	opts.Fn = inner
	rows, _, err := r.runStatement(nil, b, nil, opts, collectAll, nil)
	if err != nil {
		return nil, nil, err
	}
	cols := planner.ResultColumns(b)
	types := make([]sqltypes.Type, len(cols))
	for i, c := range cols {
		types[i] = c.Type
	}
	return types, rows, nil
}
