package session

import (
	"strconv"
	"strings"
	"time"

	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/parser"
	"github.com/zproxy/zproxy/planner"
	"github.com/zproxy/zproxy/wire"
)

// Utility statements in PL/pgSQL bodies: CREATE, ALTER, DROP, GRANT, SET,
// COMMENT, TRUNCATE and every other statement that is not a query, a
// write or a CALL (planner.PLBindable), written in the body or run by
// EXECUTE. The body does not bind them with its variables (PostgreSQL's
// SPI runs them without parameters); the session runs each as it runs a
// client's statement (statement.run), in the open block's transaction,
// so its privilege checks, its catalog (the block's: ROLLBACK undoes the
// change) and its runner are the ones a client's statement gets. The
// body then binds against the schema the change left (plExec.refresh).
//
// An exception block is a savepoint of the session's block
// (Session.pushSavepoint), so a handled error undoes the block's schema
// changes, temporary objects created and settings made, as SQL's ROLLBACK
// TO SAVEPOINT does. A change to a temporary object's definition is not
// undone by a block's rollback (the temporary catalog is outside the
// block's transaction): inside an exception block it is refused
// (Session.tempChangeAllowed).

// plUtilityRun is what the session's statement path knows of the
// PL/pgSQL utility statement it is running (Session.plUtility).
type plUtilityRun struct {
	// ownTxn: the routine's statement runs in a transaction of its own,
	// not in a client's transaction block; subxact: inside an exception
	// block. They decide how a statement refused inside a transaction
	// block is refused (Session.notInBlock), as PostgreSQL's
	// PreventInTransactionBlock words it.
	ownTxn, subxact bool
	// definer: the routine runs as its owner (SECURITY DEFINER), who may
	// not SET ROLE or SESSION AUTHORIZATION.
	definer bool
}

// notInBlock is the error of a statement that cannot run inside a
// transaction block (what names it: "VACUUM", "CREATE DATABASE"). Run
// from a function outside a client's block, PostgreSQL says the function
// is the reason, or its exception block.
func (s *Session) notInBlock(what string) error {
	if u := s.plUtility; u != nil && u.ownTxn {
		if u.subxact {
			return pgerr.New(pgerr.ActiveSQLTransaction, "%s cannot run inside a subtransaction", what)
		}
		return pgerr.New(pgerr.ActiveSQLTransaction, "%s cannot be executed from a function", what)
	}
	return pgerr.New(pgerr.ActiveSQLTransaction, "%s cannot run inside a transaction block", what)
}

// tempChangeAllowed refuses a change to a temporary object's definition
// inside a PL/pgSQL exception block: the temporary catalog is not the
// block's transaction, so the block's rollback could not undo it.
func (s *Session) tempChangeAllowed() error {
	if u := s.plUtility; u != nil && u.subxact {
		return pgerr.New(pgerr.FeatureNotSupported, "changing a temporary object's definition inside a PL/pgSQL block with an EXCEPTION clause is not supported").
			WithDetail("zproxy could not undo the change should the block fail.").
			WithHint("Make the change outside the block with the EXCEPTION clause.")
	}
	return nil
}

// plSubxact is an exception block's subtransaction: a savepoint of the
// runner's transaction (none without one: nothing is written), and, once
// a utility statement runs inside the block, a savepoint of the session's
// block too (upgrade), whose rollback also undoes the session's state the
// statement changed (settings, temporary objects created), as SQL's
// ROLLBACK TO SAVEPOINT does. The session's savepoint is taken only then,
// not for every block: a function with an exception block may be called
// by a scan's streams at once, and the session's savepoints are a stack
// of one goroutine's.
type plSubxact struct {
	x     *plExec
	hasSP bool
	sp    kv.Savepoint
	// session marks the session savepoint upgrade pushed (found by
	// identity: Session.plSavepoint).
	session bool
	ddl     int64 // x.r.ddl when it began
}

// subxact begins an exception block's subtransaction.
func (x *plExec) subxact() *plSubxact {
	sx := &plSubxact{x: x, ddl: x.r.ddl.Load()}
	if txn := x.r.txn; txn != nil {
		sx.sp, sx.hasSP = txn.Savepoint(), true
	}
	x.subxacts = append(x.subxacts, sx)
	return sx
}

// end forgets the subtransaction as its block ends.
func (sx *plSubxact) end() {
	x := sx.x
	if n := len(x.subxacts); n > 0 && x.subxacts[n-1] == sx {
		x.subxacts = x.subxacts[:n-1]
	}
}

// upgrade gives the open exception blocks of x and of the activations
// that called it savepoints of the session's block, outermost first, so
// that a utility statement's changes to the session are undone with the
// block's writes.
func (x *plExec) upgrade() error {
	var chain []*plExec
	for e := x; e != nil; e = e.caller {
		chain = append(chain, e)
	}
	s := x.r.st.sess
	for i := len(chain) - 1; i >= 0; i-- {
		for _, sx := range chain[i].subxacts {
			if sx.session || sx.x.r.txn != s.txn {
				continue
			}
			if _, err := s.pushSavepoint(x.r.ctx, ""); err != nil {
				return err
			}
			s.savepoints[len(s.savepoints)-1].pl = sx
			sx.session = true
		}
	}
	return nil
}

var _ builtins.SettingScope = (*plExec)(nil)

// SettingChanging gives the open exception blocks of x and of its callers
// savepoints of the session's block before a function of the body's
// statement (set_config) changes a setting, so that a block's failure
// undoes the change as a utility statement's SET is undone.
func (x *plExec) SettingChanging() error {
	open := false
	for e := x; e != nil && !open; e = e.caller {
		open = len(e.subxacts) > 0
	}
	if !open {
		return nil
	}
	if x.r.txn == nil || x.r.txn != x.r.st.sess.txn || x.r.firingDeferred {
		// As for a utility statement (plExec.utility): no session block
		// whose savepoint could undo the change.
		return pgerr.New(pgerr.FeatureNotSupported, "changing a setting in a PL/pgSQL block with an EXCEPTION clause is not supported here").
			WithDetail("zproxy undoes such a change only in the transaction of the statement that called the function.")
	}
	x.r.utilityMu.Lock()
	defer x.r.utilityMu.Unlock()
	return x.upgrade()
}

// release ends the subtransaction, its work kept.
func (sx *plSubxact) release() error {
	sx.end()
	r := sx.x.r
	if sx.session {
		s := r.st.sess
		if i := s.plSavepoint(sx); i >= 0 {
			if err := s.releaseSavepoint(i); err != nil {
				return err
			}
		}
	}
	if sx.hasSP {
		return r.txn.Release(sx.sp)
	}
	return nil
}

// rollback ends the subtransaction, its work undone; the body binds
// against the schema as it was again should the block have changed it.
func (sx *plSubxact) rollback() error {
	sx.end()
	r := sx.x.r
	s := r.st.sess
	if sx.session {
		if i := s.plSavepoint(sx); i >= 0 {
			err := s.rollbackToSavepoint(r.ctx, i)
			s.savepoints = s.savepoints[:i]
			if err != nil {
				return err
			}
		}
	}
	if sx.hasSP {
		if err := r.txn.RollbackTo(sx.sp); err != nil {
			return err
		}
	}
	if r.ddl.Load() != sx.ddl {
		return r.resnapshot()
	}
	return nil
}

// plSavepoint is the index of the session savepoint of sx, or -1 when a
// ROLLBACK TO or RELEASE of an enclosing one has taken it.
func (s *Session) plSavepoint(sx *plSubxact) int {
	for i := len(s.savepoints) - 1; i >= 0; i-- {
		if s.savepoints[i].pl == sx {
			return i
		}
	}
	return -1
}

// abort ends the subtransaction of a block an error leaves unhandled: its
// work is undone, as PostgreSQL aborts the subtransaction. The error goes
// on to fail what encloses the block, whose own rollback undoes what this
// one could not, so a failure here is not reported over it.
func (sx *plSubxact) abort() {
	_ = sx.rollback()
}

// resnapshot makes the schema the session sees now the one the
// statement's routines bind against (after a utility statement, or the
// rollback of one).
func (r *routineRunner) resnapshot() error {
	snap, err := r.st.sess.snapshot(r.ctx)
	if err != nil {
		return storeErr(err)
	}
	r.snap = snap
	return nil
}

// refresh rebinds the activation to the runner's snapshot when a utility
// statement (of this body or of one it called) changed it: the body's
// scope, and the catalog functions' and views' snapshot. Outside a
// SECURITY DEFINER routine the body runs as the session's current user,
// whom a SET ROLE in it changes.
func (x *plExec) refresh() {
	if fc := &x.opts.Fn; !fc.Session.Definer && x.r.ddl.Load() > 0 {
		fc.Session.User = x.r.st.sess.currentUser()
	}
	if x.seen == x.r.snap {
		return
	}
	x.seen = x.r.snap
	x.scope0 = x.r.st.sess.scopeOf(x.r.snap, x.fn, x.opts.Fn.Session.User)
	if env, ok := x.opts.Fn.Catalog.(*pgcatalog.Env); ok {
		e := *env
		e.Snap = x.scope0.snap
		x.opts.Fn.Catalog = &e
	}
}

// utility runs a utility statement of the body (dynamic: EXECUTE's)
// through the session's statement path, returning the rows it gives (SHOW,
// EXPLAIN) as collect asks and their count, or CREATE TABLE AS's count of
// rows.
func (x *plExec) utility(p *parser.Statement, dynamic bool, collect int) ([][]sqltypes.Value, []ir.Column, int64, error) {
	s := x.r.st.sess
	x.refresh()
	var bound ir.Statement
	var tag string
	if u := p.Utility; u != nil {
		tag = strings.ToUpper(u.Kind)
		switch u.Kind {
		case "copy":
			return nil, nil, 0, pgerr.New(pgerr.FeatureNotSupported, "cannot COPY to/from client in PL/pgSQL")
		case "listen", "unlisten", "notify", "prepare", "deallocate", "discard":
		default:
			return nil, nil, 0, pgerr.New(pgerr.FeatureNotSupported, "%s is not supported in a PL/pgSQL function", tag)
		}
	} else {
		b, _, err := planner.BindStyled(x.scope0.snap, p, nil, x.r.style)
		if err != nil {
			return nil, nil, 0, err
		}
		if _, ok := b.(*ir.TxnOp); ok {
			if dynamic {
				return nil, nil, 0, pgerr.New(pgerr.FeatureNotSupported, "EXECUTE of transaction commands is not implemented")
			}
			return nil, nil, 0, pgerr.New(pgerr.FeatureNotSupported, "unsupported transaction command in PL/pgSQL")
		}
		bound, tag = b, commandTag(b, b.Describe())
	}
	if x.fn != nil && x.fn.Volatility != 'v' {
		return nil, nil, 0, pgerr.New(pgerr.FeatureNotSupported, "%s is not allowed in a non-volatile function", tag)
	}
	if x.r.txn == nil || x.r.txn != s.txn || x.r.firingDeferred {
		// Only the session's block has the catalog a schema change goes
		// through and the savepoints that undo it; a body run in COPY's
		// transaction, or at a deferred trigger's firing, has neither.
		return nil, nil, 0, pgerr.New(pgerr.FeatureNotSupported, "%s in a PL/pgSQL function is not supported here", tag).
			WithDetail("zproxy runs utility statements in a function only in the transaction of the statement that called it.")
	}
	// One utility statement of the statement's routines at a time: they
	// change the session's state.
	x.r.utilityMu.Lock()
	defer x.r.utilityMu.Unlock()
	if err := x.upgrade(); err != nil {
		return nil, nil, 0, err
	}
	st := &statement{sess: s, parsed: p, boundSnap: x.scope0.snap, bound: bound}
	var rows [][]sqltypes.Value
	var cols []ir.Column
	var n int64
	err := s.withPLUtility(x, func() error {
		start := time.Now()
		var r wire.Result
		var err error
		if bound == nil {
			r, _, err = st.runUtility(x.r.ctx, nil, start)
		} else {
			r, err = st.run(x.r.ctx, bound, nil, start)
		}
		if err != nil || r == nil {
			return err
		}
		defer r.Close()
		for _, c := range r.Columns() {
			cols = append(cols, ir.Column{Name: c.Name, Type: c.Type})
		}
		for {
			row, ok, err := r.Next(x.r.ctx)
			if err != nil {
				return err
			}
			if !ok {
				break
			}
			n++
			if collect == collectAll || collect == collectFirst && n == 1 {
				rows = append(rows, append([]sqltypes.Value(nil), row...))
			}
		}
		if _, ok := bound.(*ir.CreateTableAs); ok {
			// SPI's count of a CREATE TABLE AS is the rows it wrote.
			if f := strings.Fields(r.Tag()); len(f) == 2 && f[0] == "SELECT" {
				n, _ = strconv.ParseInt(f[1], 10, 64)
			}
		}
		return nil
	})
	x.r.ddl.Add(1)
	if rerr := x.r.resnapshot(); err == nil {
		err = rerr
	}
	x.refresh()
	if err != nil {
		return nil, nil, 0, err
	}
	if collect != collectNone && cols == nil {
		return nil, nil, 0, pgerr.New(pgerr.SyntaxError, "INTO used with a command that cannot return data")
	}
	return rows, cols, n, nil
}

// withPLUtility runs f with the session knowing it runs x's utility
// statement, as x's user (the owner of a SECURITY DEFINER routine).
func (s *Session) withPLUtility(x *plExec, f func() error) error {
	prev, prevAs := s.plUtility, s.runAs
	// A body run by a utility statement of another (a DO that EXECUTE
	// runs) runs in that one's transaction: the outermost says whose it is.
	ownTxn := x.r.st.ownTxn || prev != nil && prev.ownTxn
	s.plUtility = &plUtilityRun{ownTxn: ownTxn, subxact: x.r.subxacts.Load() > 0, definer: x.opts.Fn.Session.Definer}
	if u := x.opts.Fn.Session.User; x.opts.Fn.Session.Definer && u != "" {
		s.runAs = u
	}
	defer func() { s.plUtility, s.runAs = prev, prevAs }()
	return f()
}

// utilityTag names a utility statement as PostgreSQL's errors do
// ("CREATE TABLE").
func (x *plExec) utilityTag(p *parser.Statement) (string, error) {
	if p.Utility != nil {
		return strings.ToUpper(p.Utility.Kind), nil
	}
	x.refresh()
	b, _, err := planner.BindStyled(x.scope0.snap, p, nil, x.r.style)
	if err != nil {
		return "", err
	}
	return commandTag(b, b.Describe()), nil
}

// notCursor refuses a utility statement where a query is wanted (a FOR
// loop's, OPEN's, RETURN QUERY's), as PostgreSQL does.
func (x *plExec) notCursor(p *parser.Statement) error {
	tag, err := x.utilityTag(p)
	if err != nil {
		return err
	}
	return pgerr.New(pgerr.InvalidCursorDefinition, "cannot open %s query as cursor", tag)
}
