package wire

import (
	"context"
	"fmt"
	"log/slog"
	"sort"
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Registry is a session's namespace of prepared statements and of portals.
// PostgreSQL has one of each per session, shared by the extended protocol
// (Parse, Bind, Describe, Execute, Close) and by the SQL statements that
// name them: PREPARE, EXECUTE and DEALLOCATE see the statements Parse made
// (psycopg 3 sends DEALLOCATE ALL to drop its own), and a cursor made by
// DECLARE is a portal the protocol may Describe and Execute (psycopg 3
// describes its server-side cursors that way). The connection owns the
// Registry and hands it to the session (SessionParams.Registry); both use
// it from the connection's goroutine only.
type Registry struct {
	stmts   map[string]*prepared
	portals map[string]*portal
	log     *slog.Logger
	// ctx lives as long as the session: portals outlive the statements
	// that read them.
	ctx context.Context
	// mem is charged for the prepared statements and the portals of Bind
	// held (nil: not counted).
	mem MemAccount
}

// MemAccount is a session's memory account (memacct.Account): what the
// Registry holds is charged to it, and a statement or portal that does not
// fit is refused (53200) and not kept.
type MemAccount interface {
	Grow(n int64, what string) error
	Shrink(n int64)
}

// MemSizer is implemented by Statements that know about how much memory
// they hold (their text, syntax tree and bindings).
type MemSizer interface {
	MemSize() int64
}

// SetMemAccount charges the prepared statements and portals made from now
// on to a.
func (r *Registry) SetMemAccount(a MemAccount) { r.mem = a }

// statementSize is what a prepared statement is charged: what it says it
// holds, or a nominal size.
func statementSize(ps *prepared) int64 {
	n := int64(256 + len(ps.name) + 4*len(ps.declared))
	if m, ok := ps.stmt.(MemSizer); ok {
		n += m.MemSize()
	}
	return n
}

// portalCost is what a portal of the protocol is charged besides its
// parameters: its state and, once executed, its query's open operators.
const portalCost = 4 << 10

// chargePortal charges the session's account for a portal Bind makes (a
// cursor is charged by the session that declares it).
func (r *Registry) chargePortal(name string, p *portal) error {
	if r.mem == nil {
		return nil
	}
	size := int64(portalCost + len(name))
	for _, v := range p.params {
		size += 48 + int64(len(v.S))
	}
	what := `portal ""` // the unnamed portal, every driver's: no formatting per Bind
	if name != "" {
		what = fmt.Sprintf("portal \"%s\"", name)
	}
	if err := r.mem.Grow(size, what); err != nil {
		return err
	}
	p.mem = size
	return nil
}

// putStatement keeps ps under its name, replacing the statement of that
// name (only the unnamed one is ever replaced), once its memory is
// charged.
func (r *Registry) putStatement(ps *prepared) error {
	size := statementSize(ps)
	if r.mem != nil {
		if err := r.mem.Grow(size, fmt.Sprintf("prepared statement \"%s\"", ps.name)); err != nil {
			return err
		}
		ps.mem = size
	}
	if old := r.stmts[ps.name]; old != nil && r.mem != nil {
		// The portals made from it keep running; only the charge goes.
		r.mem.Shrink(old.mem)
		old.mem = 0
	}
	r.stmts[ps.name] = ps
	return nil
}

// NewRegistry returns an empty Registry whose portals run under ctx (the
// session's lifetime).
func NewRegistry(ctx context.Context) *Registry {
	return &Registry{stmts: map[string]*prepared{}, portals: map[string]*portal{}, log: slog.Default(), ctx: ctx}
}

// Cursor is a portal that SQL declared (DECLARE ... CURSOR). The session
// creates it and moves it with FETCH and MOVE; the extended protocol may
// Describe it and Execute it as a portal, which reads on from where the
// cursor stands.
type Cursor interface {
	Result
	// Binary is DECLARE ... BINARY CURSOR: an Execute sends its rows in
	// binary format.
	Binary() bool
	// Holdable is WITH HOLD: the cursor outlives the transaction that
	// declared it, where every other portal closes.
	Holdable() bool
}

// Prepare adds a named prepared statement (SQL PREPARE whose source text
// is text). paramTypes are the types declared for $1..$n (Unknown where
// open). A taken name is 42P05.
func (r *Registry) Prepare(name, text string, st Statement, paramTypes []sqltypes.Type) error {
	if _, exists := r.stmts[name]; exists {
		return pgerr.New(pgerr.DuplicatePreparedStatement, "prepared statement \"%s\" already exists", name)
	}
	declared := make([]uint32, len(paramTypes))
	for i, t := range paramTypes {
		if t.ID != sqltypes.Unknown {
			declared[i] = t.OID()
		}
	}
	return r.putStatement(&prepared{name: name, stmt: st, declared: declared, text: text, at: time.Now(), fromSQL: true})
}

// PreparedInfo describes a named prepared statement, as
// pg_prepared_statements shows it.
type PreparedInfo struct {
	Name, Statement string
	PrepareTime     time.Time
	// ParamTypes are the parameters' type OIDs: as declared, or as the
	// statement's binding found them.
	ParamTypes []uint32
	FromSQL    bool
	// GenericPlans and CustomPlans count the executions that used the
	// statement's generic plan and those planned with their values
	// (PlanCounter); a statement that does not count them has each
	// execution counted as a custom plan.
	GenericPlans, CustomPlans int64
}

// PlanCounter is a Statement that keeps a plan cache and counts how its
// executions were planned (pg_prepared_statements).
type PlanCounter interface {
	PlanCounts() (generic, custom int64)
}

// Statements lists the named prepared statements, made by PREPARE or by
// Parse, oldest first.
func (r *Registry) Statements() []PreparedInfo {
	var out []PreparedInfo
	for _, ps := range r.stmts {
		if ps.name == "" {
			continue // the unnamed statement is not listed, as in PostgreSQL
		}
		info := PreparedInfo{Name: ps.name, Statement: ps.text, PrepareTime: ps.at, FromSQL: ps.fromSQL, CustomPlans: ps.plans}
		if pc, ok := ps.stmt.(PlanCounter); ok {
			info.GenericPlans, info.CustomPlans = pc.PlanCounts()
		}
		if ps.described {
			for _, sp := range ps.params {
				info.ParamTypes = append(info.ParamTypes, sp.oid)
			}
		} else {
			info.ParamTypes = append(info.ParamTypes, ps.declared...)
		}
		out = append(out, info)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].PrepareTime.Equal(out[j].PrepareTime) {
			return out[i].PrepareTime.Before(out[j].PrepareTime)
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// Prepared returns the prepared statement of that name, made by PREPARE or
// by a Parse message; 26000 when there is none. The statement is nil for
// an empty query string.
func (r *Registry) Prepared(name string) (Statement, error) {
	ps := r.stmts[name]
	if ps == nil {
		return nil, pgerr.New(pgerr.InvalidSQLStatementName, "prepared statement \"%s\" does not exist", name)
	}
	return ps.stmt, nil
}

// Planned counts an execution of the prepared statement of that name by
// SQL EXECUTE (pg_prepared_statements.custom_plans).
func (r *Registry) Planned(name string) {
	if ps := r.stmts[name]; ps != nil {
		ps.plans++
	}
}

// Deallocate drops a prepared statement (26000 when there is none), with
// the portals made from it.
func (r *Registry) Deallocate(name string) error {
	ps := r.stmts[name]
	if ps == nil {
		return pgerr.New(pgerr.InvalidSQLStatementName, "prepared statement \"%s\" does not exist", name)
	}
	r.dropStatement(ps)
	return nil
}

// DeallocateAll drops every named prepared statement, those of Parse
// messages included (DEALLOCATE ALL, DISCARD ALL); as in PostgreSQL the
// unnamed statement is not among them.
func (r *Registry) DeallocateAll() {
	for name, ps := range r.stmts {
		if name != "" {
			r.dropStatement(ps)
		}
	}
}

// dropStatement drops a prepared statement with the portals made from it,
// but the one running now.
func (r *Registry) dropStatement(ps *prepared) {
	for name, p := range r.portals {
		if p.stmt == ps && !p.active {
			r.closePortal(p)
			delete(r.portals, name)
		}
	}
	if r.stmts[ps.name] == ps {
		delete(r.stmts, ps.name)
	}
	if r.mem != nil {
		r.mem.Shrink(ps.mem)
		ps.mem = 0
	}
}

// Declare adds a cursor as a portal named name: 42P03 when a portal of
// that name exists, 34000 for an empty name.
func (r *Registry) Declare(name string, cur Cursor) error {
	if name == "" {
		return pgerr.New(pgerr.InvalidCursorName, "invalid cursor name: must not be empty")
	}
	if _, exists := r.portals[name]; exists {
		return pgerr.New(pgerr.DuplicateCursor, "cursor \"%s\" already exists", name)
	}
	p := &portal{cursor: cur, res: cur, cols: cur.Columns()}
	if cur.Binary() {
		p.formats = []int16{formatBinary}
	}
	r.portals[name] = p
	return nil
}

// Cursor returns the cursor named name; 34000 when no cursor has that
// name.
func (r *Registry) Cursor(name string) (Cursor, error) {
	if p := r.portals[name]; p != nil && p.cursor != nil {
		return p.cursor, nil
	}
	return nil, pgerr.New(pgerr.InvalidCursorName, "cursor \"%s\" does not exist", name)
}

// Fetchable returns the portal named name as a cursor for FETCH and MOVE
// (34000 when there is none). A portal of the extended protocol becomes
// one: wrap receives its rows (starting its statement if no Execute has)
// and the function that cancels them, and the cursor it returns stands for
// the portal from then on, Execute included (asyncpg moves its portals
// with MOVE FORWARD n).
func (r *Registry) Fetchable(name string, wrap func(rows Result, cancel context.CancelCauseFunc) Cursor) (Cursor, error) {
	p := r.portals[name]
	if p == nil {
		return nil, pgerr.New(pgerr.InvalidCursorName, "cursor \"%s\" does not exist", name)
	}
	if p.cursor != nil {
		return p.cursor, nil
	}
	var rows Result
	switch {
	case p.res != nil:
		rows = p.res
	case p.done || p.stmt.stmt == nil:
		rows = &emptyRows{cols: p.stmt.cols}
	default:
		p.ctx, p.cancel = context.WithCancelCause(r.ctx)
		rows = &lazyRows{st: p.stmt.stmt, params: p.params, cols: p.stmt.cols, ctx: p.ctx}
	}
	if p.cancel == nil {
		p.ctx, p.cancel = context.WithCancelCause(r.ctx)
	}
	cur := wrap(rows, p.cancel)
	p.cursor, p.res, p.cols, p.cancel = cur, cur, cur.Columns(), nil
	return cur, nil
}

// lazyRows are the rows of a bound statement that no Execute has started:
// the statement starts at the first Next, under ctx (the portal's, which
// outlives the statement that reads it).
type lazyRows struct {
	st     Statement
	params []sqltypes.Value
	cols   []Column
	ctx    context.Context
	res    Result
}

func (l *lazyRows) Columns() []Column { return l.cols }

func (l *lazyRows) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	if l.res == nil {
		res, err := l.st.Execute(l.ctx, l.params)
		if err != nil {
			return nil, false, err
		}
		l.res = res
	}
	return l.res.Next(ctx)
}

func (l *lazyRows) Tag() string {
	if l.res == nil {
		return "SELECT 0"
	}
	return l.res.Tag()
}

func (l *lazyRows) Close() error {
	if l.res == nil {
		return nil
	}
	return l.res.Close()
}

// emptyRows are the rows of a portal that has none left.
type emptyRows struct{ cols []Column }

func (e *emptyRows) Columns() []Column                                    { return e.cols }
func (e *emptyRows) Next(context.Context) ([]sqltypes.Value, bool, error) { return nil, false, nil }
func (e *emptyRows) Tag() string                                          { return "SELECT 0" }
func (e *emptyRows) Close() error                                         { return nil }

// ClosePortal closes the portal (or cursor) named name; 34000 when there
// is none.
func (r *Registry) ClosePortal(name string) error {
	p := r.portals[name]
	if p == nil {
		return pgerr.New(pgerr.InvalidCursorName, "cursor \"%s\" does not exist", name)
	}
	r.closePortal(p)
	delete(r.portals, name)
	return nil
}

// ClosePortals closes every portal but the cursors keep returns true for
// (keep may be nil: close all) and the portal running now (the one of the
// COMMIT or CLOSE ALL that asks, as in PostgreSQL). Portals of the
// extended protocol are always closed. The session calls it when a
// transaction ends, and for CLOSE ALL with a nil keep.
func (r *Registry) ClosePortals(keep func(Cursor) bool) {
	for name, p := range r.portals {
		if p.active || p.cursor != nil && keep != nil && keep(p.cursor) {
			continue
		}
		r.closePortal(p)
		delete(r.portals, name)
	}
}

// closePortal releases a portal's result and context; a panic in the
// result's Close is logged, not passed on, as closing must go on.
func (r *Registry) closePortal(p *portal) {
	if r.mem != nil && p.mem > 0 {
		r.mem.Shrink(p.mem)
		p.mem = 0
	}
	if p.res != nil {
		res := p.res
		p.res = nil
		func() {
			defer func() {
				if v := recover(); v != nil {
					r.log.Error("panic closing a portal", "panic", pgerr.Redact(fmt.Sprint(v)))
				}
			}()
			if err := res.Close(); err != nil {
				r.log.Debug("closing a portal's result failed", "err", pgerr.Redact(err.Error()))
			}
		}()
	}
	if p.cancel != nil {
		p.cancel(nil)
	}
}
