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
// read only. columns sees the result's types before any row is read.
func (r *routineRunner) RunQuery(fc *builtins.Context, sql string, columns func([]sqltypes.Type) error, row func([]sqltypes.Value) error) error {
	if fc.RoutineDepth >= builtins.MaxRoutineDepth {
		return pgerr.New(pgerr.StatementTooComplex, "stack depth limit exceeded").
			WithHint("Increase the configuration parameter \"max_stack_depth\" (currently 2048kB), after ensuring the platform's stack depth limit is adequate.")
	}
	if err := r.ctx.Err(); err != nil {
		return storeErr(err)
	}
	stmts, err := parser.Parse(sql)
	if err != nil {
		return err
	}
	if len(stmts) != 1 {
		return pgerr.New(pgerr.InvalidCursorDefinition, "cannot open multi-query plan as cursor")
	}
	if r.snap == nil {
		snap, err := r.st.sess.snapshot(r.ctx)
		if err != nil {
			return storeErr(err)
		}
		r.snap = snap
	}
	owner := ""
	if fc.Session.Definer {
		owner = fc.Session.User
	}
	b, err := planner.BindWithVariables(r.snap, &stmts[0], nil, owner, r.style)
	if err != nil {
		return err
	}
	if _, ok := b.(*ir.Query); !ok {
		desc := b.Describe()
		tag := commandTag(b, desc)
		if desc.Writes && len(planner.ResultColumns(b)) > 0 {
			return pgerr.New(pgerr.FeatureNotSupported, "%s is not allowed in a non-volatile function", tag)
		}
		return pgerr.New(pgerr.InvalidCursorDefinition, "cannot open %s query as cursor", tag)
	}
	inner := *fc
	inner.RoutineDepth++
	opts := r.opts
	opts.Fn = inner
	// Privileges first, then the result's shape, as PostgreSQL checks
	// them when it opens the cursor and after its first fetch.
	plan, ro, err := r.planStatement(b, nil, opts, nil)
	if err != nil {
		return err
	}
	cols := planner.ResultColumns(b)
	types := make([]sqltypes.Type, len(cols))
	for i, c := range cols {
		types[i] = c.Type
	}
	if err := columns(types); err != nil {
		return err
	}
	// Rows are handed over one at a time: ts_stat keeps its counts, not
	// the documents.
	return r.eachRow(plan, nil, ro, func(v []sqltypes.Value) (bool, error) {
		return true, row(v)
	})
}
