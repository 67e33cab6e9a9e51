package session

import (
	"context"
	"strings"
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
	"github.com/zproxy/zproxy/planner"
	"github.com/zproxy/zproxy/wire"
)

// extState is what a session keeps for the statements of
// parser.UtilityStatement: prepared statements and cursors (in the
// connection's wire.Registry, shared with the extended protocol),
// notification channels and COPY.
type extState struct {
	// ctx lives as long as the session: a cursor's query runs under it,
	// since it outlives the statement that declared it.
	ctx context.Context
	reg *wire.Registry
	// listening holds the channels of LISTEN.
	listening map[string]bool
	// pending holds the NOTIFYs of the open transaction block, sent when
	// it commits, and listenChanges its LISTENs and UNLISTENs.
	pending       []notification
	listenChanges []listenChange
	// loc is the TimeZone setting's location (nil: UTC).
	loc *time.Location
}

func (s *Session) initExt(ctx context.Context) {
	x := &s.ext
	x.ctx, x.reg = ctx, s.params.Registry
	if x.reg == nil {
		x.reg = wire.NewRegistry(ctx)
	}
	x.reg.SetMemAccount(s.mem)
	if s.params.PID != 0 {
		sessionsByPID.Store(s.params.PID, s)
	}
}

// describeUtility reports the parameter types and result columns of a
// utility statement.
func (st *statement) describeUtility(ctx context.Context) ([]sqltypes.Type, []wire.Column, error) {
	u := st.parsed.Utility
	switch u.Kind {
	case "prepare":
		return nil, nil, nil
	case "execute":
		_, params, cols, err := st.sess.preparedFor(ctx, u.Name)
		if err != nil {
			return nil, nil, err
		}
		types, err := st.describeArgs(ctx, len(params))
		if o := st.parsed.Explain; o != nil && err == nil {
			cols = columnsOf(&ir.Explain{Format: o.Format})
		}
		return types, cols, err
	case "declare":
		types, _, err := st.sub(u.Inner).Describe(ctx)
		return types, nil, err
	case "fetch":
		// As PostgreSQL, a FETCH from a cursor that does not exist (yet)
		// describes as returning nothing; running it is the error.
		if cur, err := st.sess.ext.reg.Cursor(u.Name); err == nil {
			return nil, cur.Columns(), nil
		}
		return nil, nil, nil
	case "copy":
		return st.describeCopy(ctx)
	}
	return nil, nil, nil
}

// PortalColumns implements wire.PortalDescriber: a FETCH describes its
// portal by its cursor's columns as the cursor is when the portal is
// bound, which may have been declared after the FETCH was prepared.
func (st *statement) PortalColumns(ctx context.Context) ([]wire.Column, bool) {
	u := st.parsed.Utility
	if u == nil || u.Kind != "fetch" {
		return nil, false
	}
	cur, err := st.sess.ext.reg.Cursor(u.Name)
	if err != nil {
		return nil, true // as PostgreSQL: NoData; executing it is the error
	}
	return cur.Columns(), true
}

var _ wire.PortalDescriber = (*statement)(nil)

// runUtility executes a utility statement.
func (st *statement) runUtility(ctx context.Context, params []sqltypes.Value, start time.Time) (wire.Result, string, error) {
	s := st.sess
	u := st.parsed.Utility
	var res wire.Result
	var err error
	switch u.Kind {
	case "prepare":
		res, err = st.prepare(ctx)
	case "execute":
		return st.executePrepared(ctx, params, start)
	case "deallocate":
		if u.All {
			s.ext.reg.DeallocateAll()
			return tagResult("DEALLOCATE ALL"), u.Kind, nil
		}
		res, err = tagResult("DEALLOCATE"), s.ext.reg.Deallocate(u.Name)
	case "discard":
		res, err = s.discard(ctx, u.Discard)
	case "close":
		if u.All {
			s.ext.reg.ClosePortals(nil)
			return tagResult("CLOSE CURSOR ALL"), u.Kind, nil
		}
		res, err = tagResult("CLOSE CURSOR"), s.ext.reg.ClosePortal(u.Name)
	case "declare":
		res, err = st.declare(ctx, params, start)
	case "fetch", "move":
		res, err = s.fetch(ctx, u)
	case "listen", "unlisten", "notify":
		res, err = s.notifyStatement(u)
	case "copy":
		res, err = st.copy(ctx, params, start)
	case "load":
		res, err = s.load(u.Name)
	case "drop tablespace":
		s.notice(pgerr.Notice("tablespace %q does not exist, skipping", u.Name))
		res = tagResult("DROP TABLESPACE")
	default:
		err = pgerr.New(pgerr.FeatureNotSupported, "%s is not supported", u.Kind)
	}
	if err != nil {
		return nil, u.Kind, err
	}
	return res, u.Kind, nil
}

// sub is a statement of the session for a statement a utility statement
// carries, with the outer statement's declared parameter types.
func (st *statement) sub(p *parser.Statement) *statement {
	return &statement{sess: st.sess, parsed: p, declared: st.declared}
}

// prepare runs PREPARE name [(types)] AS statement: the statement is bound
// now, so a missing table is an error of PREPARE as in PostgreSQL.
func (st *statement) prepare(ctx context.Context) (wire.Result, error) {
	u := st.parsed.Utility
	inner := &statement{sess: st.sess, parsed: u.Inner, declared: u.ParamTypes}
	if u.Inner.Utility != nil {
		return nil, pgerr.New(pgerr.SyntaxError, "syntax error at or near \"%s\"", firstWord(u.Inner.Text))
	}
	if _, _, err := inner.Describe(ctx); err != nil {
		return nil, err
	}
	if err := st.sess.ext.reg.Prepare(u.Name, st.parsed.Query(), inner, u.ParamTypes); err != nil {
		return nil, err
	}
	return tagResult("PREPARE"), nil
}

// preparedFor finds a prepared statement and describes it.
func (s *Session) preparedFor(ctx context.Context, name string) (wire.Statement, []sqltypes.Type, []wire.Column, error) {
	ps, err := s.ext.reg.Prepared(name)
	if err != nil {
		return nil, nil, nil, err
	}
	if ps == nil {
		return nil, nil, nil, pgerr.New(pgerr.FeatureNotSupported, "EXECUTE of an empty prepared statement is not supported")
	}
	params, cols, err := ps.Describe(ctx)
	return ps, params, cols, err
}

// describeArgs binds EXECUTE's arguments, checks their number against the
// n parameters of the statement, and returns the types of the parameters
// ($n) the arguments themselves use.
func (st *statement) describeArgs(ctx context.Context, n int) ([]sqltypes.Type, error) {
	u := st.parsed.Utility
	var types []sqltypes.Type
	var cols []wire.Column
	if u.Args != nil {
		var err error
		if types, cols, err = st.sub(u.Args).Describe(ctx); err != nil {
			return nil, err
		}
	}
	if len(cols) != n {
		return nil, pgerr.New(pgerr.SyntaxError, "wrong number of parameters for prepared statement \"%s\"", u.Name).
			WithDetail("Expected %d parameters but got %d.", n, len(cols))
	}
	return types, nil
}

// executePrepared runs EXECUTE name [(args)]: the arguments are evaluated
// as a one-row SELECT, cast to the statement's parameter types, and the
// statement runs with them; its result is EXECUTE's.
func (st *statement) executePrepared(ctx context.Context, params []sqltypes.Value, start time.Time) (wire.Result, string, error) {
	u := st.parsed.Utility
	ps, types, _, err := st.sess.preparedFor(ctx, u.Name)
	if err != nil {
		return nil, u.Kind, err
	}
	st.sess.ext.reg.Planned(u.Name)
	if _, err := st.describeArgs(ctx, len(types)); err != nil {
		return nil, u.Kind, err
	}
	var args []sqltypes.Value
	if u.Args != nil {
		res, _, err := st.sub(u.Args).execute(ctx, params, start)
		if err != nil {
			return nil, u.Kind, err
		}
		row, ok, err := res.Next(ctx)
		if err == nil && ok {
			args = append(args, row...)
		}
		res.Close()
		if err != nil {
			return nil, u.Kind, err
		}
	}
	for i, v := range args {
		if args[i], err = sqltypes.Cast(v, types[i]); err != nil {
			return nil, u.Kind, err
		}
	}
	if o := st.parsed.Explain; o != nil {
		res, err := st.explainPrepared(ctx, ps, o, args, start)
		return res, "explain", err
	}
	res, err := ps.Execute(ctx, args)
	kind := u.Kind
	if inner, ok := ps.(*statement); ok && inner.bound != nil {
		kind = inner.bound.Kind()
	}
	return res, kind, err
}

// discard runs DISCARD ALL | PLANS | TEMP | SEQUENCES.
func (s *Session) discard(ctx context.Context, what string) (wire.Result, error) {
	switch what {
	case "all":
		if s.txStatus != 'I' {
			return nil, s.notInBlock("DISCARD ALL")
		}
		// What PostgreSQL's DISCARD ALL does, in its order: CLOSE ALL,
		// RESET ALL, DEALLOCATE ALL, UNLISTEN *, DISCARD PLANS, DISCARD
		// SEQUENCES, DISCARD TEMP.
		s.ext.reg.ClosePortals(nil)
		s.resetRoles() // SET SESSION AUTHORIZATION DEFAULT, which RESET ALL is not
		if err := s.resetAll(); err != nil {
			return nil, err
		}
		s.ext.reg.DeallocateAll()
		s.unlistenAll()
		s.discardSequences()
		if err := s.dropTemp(ctx); err != nil {
			return nil, storeErr(err)
		}
		return tagResult("DISCARD ALL"), nil
	case "sequences":
		// Forget currval and lastval (blocks of values are the engine's,
		// not the session's).
		s.discardSequences()
		return tagResult("DISCARD SEQUENCES"), nil
	case "plans":
		// Every prepared statement plans anew (plancache.go).
		s.planEpoch++
		return tagResult("DISCARD PLANS"), nil
	case "temp":
		if err := s.dropTemp(ctx); err != nil {
			return nil, storeErr(err)
		}
		return tagResult("DISCARD TEMP"), nil
	}
	return nil, pgerr.New(pgerr.FeatureNotSupported, "DISCARD %s is not supported", strings.ToUpper(what))
}

// transactionEnded is called when a transaction block rolls back: its
// cursors close and its NOTIFYs are dropped. (COMMIT calls the two steps
// itself, around the store's commit: see txnControl.)
func (s *Session) transactionEnded(commit bool) error {
	err := s.cursorsAtTransactionEnd(s.ext.ctx, commit)
	var notifies []outgoing
	if commit && err == nil {
		notifies, err = s.reserveNotifications()
	}
	s.notifyAtTransactionEnd(notifies, commit && err == nil)
	return err
}

// closeExt releases what the session holds when it ends.
func (s *Session) closeExt() {
	s.ext.reg.ClosePortals(nil)
	s.unlistenAll()
	sessionsByPID.CompareAndDelete(s.params.PID, s)
}

// explainPrepared runs EXPLAIN EXECUTE: the prepared statement's plan for
// args, taken through its plan cache as EXECUTE would take it (and counted
// there, as PostgreSQL counts it), with the cache's choice in the output.
func (st *statement) explainPrepared(ctx context.Context, ps wire.Statement, o *parser.ExplainOptions, args []sqltypes.Value, start time.Time) (wire.Result, error) {
	inner, ok := ps.(*statement)
	if !ok || inner.parsed.Utility != nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "EXPLAIN EXECUTE of this prepared statement is not supported")
	}
	bound, _, _, err := inner.bind(ctx)
	if err != nil {
		return nil, err
	}
	x, err := planner.ExplainOf(bound, o)
	if err != nil {
		return nil, err
	}
	inner.explainCached = true
	defer func() { inner.explainCached = false }()
	return inner.run(ctx, x, args, start)
}

// builtinLibraries are the shared libraries of PostgreSQL's that hold
// what zproxy has built in (its extensions, PL/pgSQL, auto_explain):
// always loaded, so LOAD of one succeeds and changes nothing, as a second
// LOAD of a loaded library does in PostgreSQL.
var builtinLibraries = map[string]bool{
	"auto_explain": true, "plpgsql": true, "pg_stat_statements": true, "uuid-ossp": true, "pgcrypto": true,
	"citext": true, "hstore": true, "pg_trgm": true, "btree_gist": true, "postgis-3": true, "ltree": true,
}

// load runs LOAD 'file'. As in PostgreSQL, a role that is not a
// superuser may load only from $libdir/plugins/ (where none of zproxy's
// libraries is), and a library zproxy does not have is 58P01.
func (s *Session) load(file string) (wire.Result, error) {
	if !s.superuserNow() && !strings.HasPrefix(file, "$libdir/plugins/") {
		return nil, pgerr.New(pgerr.InsufficientPrivilege, "access to library \"%s\" is not allowed", file)
	}
	name := strings.TrimSuffix(strings.TrimPrefix(file, "$libdir/"), ".so")
	if !builtinLibraries[name] {
		return nil, pgerr.New(pgerr.UndefinedFile, "could not access file \"%s\": No such file or directory", file)
	}
	return tagResult("LOAD"), nil
}
