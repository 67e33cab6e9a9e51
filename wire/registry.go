package wire

import (
	"fmt"
	"log/slog"

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
}

// NewRegistry returns an empty Registry.
func NewRegistry() *Registry {
	return &Registry{stmts: map[string]*prepared{}, portals: map[string]*portal{}, log: slog.Default()}
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

// Prepare adds a named prepared statement (SQL PREPARE). paramTypes are
// the types declared for $1..$n (Unknown where open). A taken name is
// 42P05.
func (r *Registry) Prepare(name string, st Statement, paramTypes []sqltypes.Type) error {
	if _, exists := r.stmts[name]; exists {
		return pgerr.New(pgerr.DuplicatePreparedStatement, "prepared statement \"%s\" already exists", name)
	}
	declared := make([]uint32, len(paramTypes))
	for i, t := range paramTypes {
		if t.ID != sqltypes.Unknown {
			declared[i] = t.OID()
		}
	}
	r.stmts[name] = &prepared{name: name, stmt: st, declared: declared}
	return nil
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

// DeallocateAll drops every prepared statement, those of Parse messages
// included (DEALLOCATE ALL, DISCARD ALL).
func (r *Registry) DeallocateAll() {
	for _, ps := range r.stmts {
		r.dropStatement(ps)
	}
}

func (r *Registry) dropStatement(ps *prepared) {
	for name, p := range r.portals {
		if p.stmt == ps {
			r.closePortal(p)
			delete(r.portals, name)
		}
	}
	delete(r.stmts, ps.name)
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
// (keep may be nil: close all). Portals of the extended protocol are
// always closed. The session calls it when a transaction ends, and CLOSE
// ALL with a nil keep.
func (r *Registry) ClosePortals(keep func(Cursor) bool) {
	for name, p := range r.portals {
		if p.cursor != nil && keep != nil && keep(p.cursor) {
			continue
		}
		r.closePortal(p)
		delete(r.portals, name)
	}
}

// closePortal releases a portal's result and context; a panic in the
// result's Close is logged, not passed on, as closing must go on.
func (r *Registry) closePortal(p *portal) {
	if p.res != nil {
		res := p.res
		p.res = nil
		func() {
			defer func() {
				if v := recover(); v != nil {
					r.log.Error("panic closing a portal", "panic", fmt.Sprint(v))
				}
			}()
			if err := res.Close(); err != nil {
				r.log.Debug("closing a portal's result failed", "err", err)
			}
		}()
	}
	if p.cancel != nil {
		p.cancel(nil)
	}
}
