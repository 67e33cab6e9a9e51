package session

import (
	"errors"
	"strconv"
	"strings"

	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// An error raised in a PL/pgSQL body says where, as PostgreSQL's does:
//
//   - Each activation it passes through adds a CONTEXT line naming the
//     routine, the line and the kind of the statement that was running
//     ("PL/pgSQL function f(integer) line 3 at RAISE"), or the declaration
//     whose initial value failed. It adds it once, at the innermost
//     statement: the statements around that one pass the error on as it
//     is (plFramed marks it until it leaves the activation).
//   - A SQL statement the body runs adds, below that, the statement's
//     text (SQL statement "SELECT ..."), as PostgreSQL's SPI error
//     callback does; so does an expression (SQL expression "a / 0") or an
//     assignment (PL/pgSQL assignment "x := a / 0") where PostgreSQL's
//     callback is active: while it is prepared (zproxy: bound), which
//     includes folding a constant expression, and while one that is not a
//     simple expression runs.
//   - An error that points into such a text points there instead of into
//     the client's statement: the text becomes the error's internal query
//     and the position its internal position (psql's QUERY line and
//     caret), and no CONTEXT line names the text.
//
// The lines accumulate innermost first as the error travels out through
// the calls, which is the order of PostgreSQL's error context stack.

// plFramed is an error that already has its activation's CONTEXT line.
type plFramed struct{ err error }

func (f *plFramed) Error() string { return f.err.Error() }
func (f *plFramed) Unwrap() error { return f.err }

// unframed is err as it leaves its activation: without the mark, so the
// activation that called it adds its own line.
func unframed(err error) error {
	if f, ok := err.(*plFramed); ok {
		return f.err
	}
	return err
}

// withContext is a copy of err's *pgerr.Error changed by f (errors may be
// shared values, so they are never changed in place); ok is false, and
// err unchanged, when it is control flow, already framed here, or no
// *pgerr.Error.
func withContext(err error, f func(*pgerr.Error)) (out error, ok bool) {
	if err == nil || isControl(err) {
		return err, false
	}
	var framed *plFramed
	if errors.As(err, &framed) {
		return err, false
	}
	pe := pgerr.As(err)
	if pe == nil {
		return err, false
	}
	cp := *pe
	f(&cp)
	return &cp, true
}

// framed adds the activation's CONTEXT line for what was running (where:
// "line 3 at RAISE") and marks err as having it.
func (x *plExec) framed(err error, where string) error {
	out, ok := withContext(err, func(pe *pgerr.Error) {
		pe.AddContext("PL/pgSQL function " + x.routineName() + " " + where)
	})
	if !ok {
		return err
	}
	return &plFramed{out}
}

// stmtFramed is framed for an error out of statement s.
func (x *plExec) stmtFramed(err error, s parser.PLStmt) error {
	if err == nil {
		return nil
	}
	return x.framed(err, "line "+strconv.Itoa(s.Line())+" at "+plStmtKind(s))
}

// routineName is the routine as PostgreSQL's CONTEXT names it:
// regprocedure's text, inline_code_block for a DO block.
func (x *plExec) routineName() string {
	if x.fn == nil {
		return "inline_code_block"
	}
	// Once an activation: the activations it calls, which may run on other
	// goroutines, ask it too.
	x.nameOnce.Do(func() {
		// Printed under the routine's own search path, as PostgreSQL
		// prints it while the routine runs.
		env := pgcatalog.Env{Ctx: x.r.ctx, Snap: x.scope0.snap, Sess: pgSession{x.r.st.sess}}
		x.name = env.RegName(sqltypes.TypeRegProcedure, x.fn.OID)
	})
	return x.name
}

// sqlContext is PostgreSQL's SPI error callback over text, a statement or
// an expression a body runs (what: "SQL statement", "SQL expression",
// "PL/pgSQL assignment"); shift maps a position in what was bound to one
// in text.
func sqlContext(err error, what, text string, shift int) error {
	out, _ := withContext(err, func(pe *pgerr.Error) {
		if pe.Position > 0 && pe.Position+shift > 0 && pe.InternalQuery == "" {
			pe.InternalQuery, pe.InternalPosition, pe.Position = text, pe.Position+shift, 0
			return
		}
		pe.AddContext(what + " \"" + text + "\"")
	})
	return out
}

// plFolded reports whether PostgreSQL would compute a simple expression
// while preparing it: it reads no variable and calls nothing volatile or
// stable, so its constants are folded (and an error in them is raised
// under the SPI callback).
func plFolded(exprs []ir.Expr) bool {
	folded := true
	for _, e := range exprs {
		ir.Walk(e, func(e ir.Expr) {
			switch e := e.(type) {
			case *ir.Param:
				folded = false
			case *ir.Func:
				if e.Volatile {
					folded = false
				}
			}
		})
	}
	return folded
}

// plStmtKind is PostgreSQL's name of a statement's kind
// (plpgsql_stmt_typename), which CONTEXT lines end with.
func plStmtKind(s parser.PLStmt) string {
	switch s := s.(type) {
	case *parser.PLBlock:
		return "statement block"
	case *parser.PLAssign:
		return "assignment"
	case *parser.PLIf:
		return "IF"
	case *parser.PLCase:
		return "CASE"
	case *parser.PLLoop:
		return loopKinds[s.Kind]
	case *parser.PLExit:
		if s.Continue {
			return "CONTINUE"
		}
		return "EXIT"
	case *parser.PLReturn:
		switch {
		case s.Query != "" || s.Execute != "":
			return "RETURN QUERY"
		case s.Next:
			return "RETURN NEXT"
		}
		return "RETURN"
	case *parser.PLPerform:
		return "PERFORM"
	case *parser.PLSQL:
		if kw, _, _ := strings.Cut(strings.TrimSpace(s.SQL), " "); strings.EqualFold(kw, "call") {
			return "CALL"
		}
		return "SQL statement"
	case *parser.PLExecute:
		return "EXECUTE"
	case *parser.PLGetDiag:
		if s.Stacked {
			return "GET STACKED DIAGNOSTICS"
		}
		return "GET DIAGNOSTICS"
	case *parser.PLRaise:
		return "RAISE"
	case *parser.PLNull:
		return "NULL"
	case *parser.PLAssert:
		return "ASSERT"
	case *parser.PLOpen:
		return "OPEN"
	case *parser.PLFetch:
		if s.Move {
			return "MOVE"
		}
		return "FETCH"
	case *parser.PLClose:
		return "CLOSE"
	case *parser.PLCommit:
		if s.Rollback {
			return "ROLLBACK"
		}
		return "COMMIT"
	}
	return "unknown"
}

// loopKinds are PostgreSQL's names of the loops' kinds.
var loopKinds = map[int]string{
	parser.LoopPlain:   "LOOP",
	parser.LoopWhile:   "WHILE",
	parser.LoopInt:     "FOR with integer loop variable",
	parser.LoopQuery:   "FOR over SELECT rows",
	parser.LoopForeach: "FOREACH over array",
	parser.LoopExecute: "FOR over EXECUTE statement",
	parser.LoopCursor:  "FOR over cursor",
}

// assignText is an assignment as written in the body ("x := a / 0"),
// which PostgreSQL's CONTEXT names, and where its expression starts in it.
func (x *plExec) assignText(s *parser.PLAssign) (string, int) {
	if s.At >= 0 && s.At < len(x.body) {
		if i := strings.Index(x.body[s.At:], s.Expr); i >= 0 {
			return x.body[s.At : s.At+i+len(s.Expr)], i
		}
	}
	text := s.Target + " := "
	return text + s.Expr, len(text)
}

// contextStack is PostgreSQL's error context stack where the activation
// stands now, innermost first: its own line, then for each activation
// that called it the SQL statement or expression it was running and its
// line. A notice (RAISE below EXCEPTION) carries it as its CONTEXT, and
// GET DIAGNOSTICS ... PG_CONTEXT reads it.
func (x *plExec) contextStack() string {
	var b strings.Builder
	for f := x; f != nil; f = f.caller {
		if f != x && f.spiKind != "" {
			b.WriteString("\n" + f.spiKind + " \"" + f.spiText + "\"")
		}
		if f != x {
			b.WriteByte('\n')
		}
		b.WriteString("PL/pgSQL function " + f.routineName() + " " + f.where())
	}
	return b.String()
}

// where is what an activation's context line says it is running: its
// statement's line and kind, or the declaration it initializes.
func (x *plExec) where() string {
	switch {
	case x.decl != nil: // within the statement (a block) that declares it
		return "line " + strconv.Itoa(x.decl.Line) + " during statement block local variable initialization"
	case x.cur != nil:
		return "line " + strconv.Itoa(x.cur.Line()) + " at " + plStmtKind(x.cur)
	}
	return "during function entry"
}
