package parser

import (
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The checks PostgreSQL's PL/pgSQL compiler makes of a body before it
// runs (at CREATE FUNCTION with check_function_bodies, at DO, and at a
// routine's first call): every variable a statement assigns, fetches
// into, opens or loops with is declared where it stands; EXIT and
// CONTINUE name an enclosing block or loop; RETURN agrees with what the
// routine returns. The SQL inside the body is not checked here: it binds
// when it runs, as in PostgreSQL.

// PLRoutine is what the checks know of the routine a body belongs to.
type PLRoutine struct {
	// Name labels the parameters (f.a names parameter a of f); "" for a
	// DO block.
	Name   string
	Params []PLParam
	// Trigger marks a trigger function, whose special variables (NEW,
	// TG_OP, ...) are declared.
	Trigger bool
	// Procedure marks a procedure, Void a function returning void (and a
	// DO block), Set a set-returning one.
	Procedure, Void, Set bool
}

// PLParam is a parameter of the routine (IN, OUT, INOUT, a TABLE
// column): its name ("" for none) and whether it may be composite, whose
// fields a body may name.
type PLParam struct {
	Name   string
	Output bool
	Record bool
}

// plVar is a declared name as the checks see it.
type plVar struct {
	record, constant, cursor bool
}

// plScope is a block's, a loop's or the routine's names.
type plScope struct {
	label string
	loop  bool
	vars  map[string]plVar
	outer *plScope
}

type plChecker struct {
	src     string
	routine PLRoutine
	outs    bool // the routine has output parameters
}

// CheckPLpgSQL checks body, parsed as b, of routine r as PostgreSQL's
// compiler does; its errors carry their position in body.
func CheckPLpgSQL(body string, b *PLBlock, r PLRoutine) error {
	c := &plChecker{src: body, routine: r}
	top := &plScope{label: r.Name, vars: map[string]plVar{"found": {}}}
	for _, p := range r.Params {
		if p.Name != "" {
			top.vars[p.Name] = plVar{record: p.Record}
		}
		c.outs = c.outs || p.Output
	}
	if r.Trigger {
		top.vars["new"], top.vars["old"] = plVar{record: true}, plVar{record: true}
		for _, n := range []string{"tg_name", "tg_when", "tg_level", "tg_op", "tg_relid", "tg_relname", "tg_table_name", "tg_table_schema", "tg_nargs", "tg_argv"} {
			top.vars[n] = plVar{}
		}
	}
	return c.block(top, b)
}

func (c *plChecker) errAt(off int, code pgerr.Code, format string, args ...any) *pgerr.Error {
	return pgerr.New(code, format, args...).WithPosition(charPos(c.src, off))
}

func (c *plChecker) block(outer *plScope, b *PLBlock) error {
	s := &plScope{label: b.Label, vars: map[string]plVar{}, outer: outer}
	for _, d := range b.Decls {
		s.vars[d.Name] = plVar{record: declRecord(d, outer), constant: d.Constant, cursor: d.Cursor || d.Type.ID == sqltypes.RefCursor}
	}
	if err := c.stmts(s, b.Body); err != nil {
		return err
	}
	if len(b.Handlers) > 0 {
		// Inside a handler, SQLSTATE and SQLERRM name the error caught.
		h := &plScope{vars: map[string]plVar{"sqlstate": {constant: true}, "sqlerrm": {constant: true}}, outer: s}
		for _, x := range b.Handlers {
			if err := c.stmts(h, x.Body); err != nil {
				return err
			}
		}
	}
	return nil
}

// declRecord reports whether a declaration may be composite: record,
// %ROWTYPE, a type named by the user (which may be a composite type),
// x%TYPE of such a variable; a built-in type is not.
func declRecord(d PLDecl, s *plScope) bool {
	switch {
	case d.Record || d.RowOf != "" || d.TypeName != "":
		return true
	case d.Alias > 0:
		return true // the parameter's type is not known here
	case d.TypeOf != "":
		if v, _, ok := s.lookup(strings.Split(d.TypeOf, ".")); ok {
			return v.record
		}
		return true // a table's column: its type is not known here
	}
	return false
}

// lookup resolves a name of one to three parts as PostgreSQL's
// plpgsql_ns_lookup does, innermost scope first: a variable, then a
// label and a variable of its scope. used is how many parts named the
// variable; the rest are fields of it.
func (s *plScope) lookup(parts []string) (v plVar, used int, ok bool) {
	for ; s != nil; s = s.outer {
		if v, ok := s.vars[parts[0]]; ok {
			return v, 1, true
		}
		if len(parts) > 1 && s.label != "" && s.label == parts[0] {
			if v, ok := s.vars[parts[1]]; ok {
				return v, 2, true
			}
		}
	}
	return plVar{}, 0, false
}

// target resolves an assignment's (or INTO's, GET DIAGNOSTICS's) target:
// a variable, a field of a composite one, an array element of one.
func (s *plScope) target(name string) (plVar, bool) {
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i]
	}
	parts := strings.Split(name, ".")
	v, used, ok := s.lookup(parts)
	if !ok || used < len(parts) && !v.record {
		return plVar{}, false
	}
	return v, true
}

// targetName is the name of a target as PostgreSQL's messages print it:
// without its subscripts.
func targetName(name string) string {
	if i := strings.IndexByte(name, '['); i >= 0 {
		return name[:i]
	}
	return name
}

// assignable checks one target of an assignment, INTO or GET
// DIAGNOSTICS at offset at.
func (c *plChecker) assignable(s *plScope, name string, at int) error {
	v, ok := s.target(name)
	if !ok && name == "sqlstate" {
		// SQLSTATE is a word of PL/pgSQL's grammar where no variable
		// has that name.
		return c.errAt(at, pgerr.SyntaxError, "syntax error at or near \"sqlstate\"")
	}
	if !ok {
		return c.errAt(at, pgerr.SyntaxError, "\"%s\" is not a known variable", targetName(name))
	}
	if v.constant {
		parts := strings.Split(targetName(name), ".")
		return c.errAt(at, pgerr.ErrorInAssignment, "variable \"%s\" is declared CONSTANT", parts[len(parts)-1])
	}
	return nil
}

func (c *plChecker) targets(s *plScope, names []string, at []int) error {
	for i, n := range names {
		if err := c.assignable(s, n, offsetAt(at, i)); err != nil {
			return err
		}
	}
	return nil
}

func offsetAt(at []int, i int) int {
	if i < len(at) {
		return at[i]
	}
	return 0
}

// cursorVar checks a cursor named by OPEN, FETCH, MOVE or CLOSE.
func (c *plChecker) cursorVar(s *plScope, name string, at int) error {
	if _, _, ok := s.lookup([]string{name}); !ok {
		return c.errAt(at, pgerr.SyntaxError, "\"%s\" is not a known variable", name)
	}
	return nil
}

func (c *plChecker) stmts(s *plScope, body []PLStmt) error {
	for _, st := range body {
		if err := c.stmt(s, st); err != nil {
			return err
		}
	}
	return nil
}

func (c *plChecker) stmt(s *plScope, st PLStmt) error {
	switch x := st.(type) {
	case *PLBlock:
		return c.block(s, x)
	case *PLAssign:
		return c.assignable(s, x.Target, x.At)
	case *PLSQL:
		return c.targets(s, x.Into, x.IntoAt)
	case *PLExecute:
		return c.targets(s, x.Into, x.IntoAt)
	case *PLGetDiag:
		return c.targets(s, x.Vars, x.VarsAt)
	case *PLFetch:
		if err := c.cursorVar(s, x.Cursor, x.CursorAt); err != nil {
			return err
		}
		return c.targets(s, x.Into, x.IntoAt)
	case *PLOpen:
		return c.cursorVar(s, x.Cursor, x.At)
	case *PLClose:
		return c.cursorVar(s, x.Cursor, x.At)
	case *PLIf:
		for _, t := range x.Thens {
			if err := c.stmts(s, t); err != nil {
				return err
			}
		}
		return c.stmts(s, x.Else)
	case *PLCase:
		for _, t := range x.Thens {
			if err := c.stmts(s, t); err != nil {
				return err
			}
		}
		return c.stmts(s, x.Else)
	case *PLLoop:
		return c.loop(s, x)
	case *PLExit:
		return c.exit(s, x)
	case *PLReturn:
		return c.ret(x)
	}
	return nil
}

func (c *plChecker) loop(outer *plScope, x *PLLoop) error {
	s := &plScope{label: x.Label, loop: true, vars: map[string]plVar{}, outer: outer}
	switch x.Kind {
	case LoopInt:
		s.vars[x.Vars[0]] = plVar{} // declared by the loop
	case LoopCursor:
		if v, _, ok := outer.lookup([]string{x.Cursor}); ok && v.cursor {
			s.vars[x.Vars[0]] = plVar{record: true} // declared by the loop
			break
		}
		// A name that is no cursor is a query's text to PostgreSQL.
		fallthrough
	case LoopQuery, LoopExecute:
		if len(x.Vars) == 1 {
			if _, ok := outer.target(x.Vars[0]); !ok {
				code := pgerr.SyntaxError
				if x.Kind == LoopExecute {
					code = pgerr.DatatypeMismatch
				}
				return c.errAt(offsetAt(x.VarsAt, 0), code, "loop variable of loop over rows must be a record variable or list of scalar variables")
			}
			break
		}
		if err := c.targets(outer, x.Vars, x.VarsAt); err != nil {
			return err
		}
	case LoopForeach:
		for i, v := range x.Vars {
			if _, ok := outer.target(v); !ok {
				return c.errAt(offsetAt(x.VarsAt, i), pgerr.SyntaxError, "loop variable of FOREACH must be a known variable or list of variables")
			}
		}
	}
	return c.stmts(s, x.Body)
}

func (c *plChecker) exit(s *plScope, x *PLExit) error {
	if x.Label == "" {
		for l := s; l != nil; l = l.outer {
			if l.loop {
				return nil
			}
		}
		if x.Continue {
			return c.errAt(x.At, pgerr.SyntaxError, "CONTINUE cannot be used outside a loop")
		}
		return c.errAt(x.At, pgerr.SyntaxError, "EXIT cannot be used outside a loop, unless it has a label")
	}
	for l := s; l != nil; l = l.outer {
		if l.label != x.Label {
			continue // (the routine's name labels its outermost names, as a block's)
		}
		if x.Continue && !l.loop {
			return c.errAt(x.LabelAt, pgerr.SyntaxError, "block label \"%s\" cannot be used in CONTINUE", x.Label)
		}
		return nil
	}
	return c.errAt(x.LabelAt, pgerr.SyntaxError, "there is no label \"%s\" attached to any block or loop enclosing this statement", x.Label)
}

// ret checks RETURN, RETURN NEXT and RETURN QUERY against what the
// routine returns, in the order of PostgreSQL's make_return_stmt.
func (c *plChecker) ret(x *PLReturn) error {
	r := c.routine
	switch {
	case x.Next:
		if !r.Set {
			return c.errAt(x.At, pgerr.DatatypeMismatch, "cannot use RETURN NEXT in a non-SETOF function")
		}
		if c.outs && x.Expr != "" {
			return c.errAt(x.ExprAt, pgerr.DatatypeMismatch, "RETURN NEXT cannot have a parameter in function with OUT parameters")
		}
		if !c.outs && x.Expr == "" {
			return c.errAt(x.ExprAt, pgerr.SyntaxError, "missing expression at or near \";\"")
		}
		return nil
	case x.Query != "" || x.Execute != "":
		if !r.Set {
			return c.errAt(x.At, pgerr.DatatypeMismatch, "cannot use RETURN QUERY in a non-SETOF function")
		}
		return nil
	case r.Set:
		if x.Expr != "" {
			return c.errAt(x.ExprAt, pgerr.DatatypeMismatch, "RETURN cannot have a parameter in function returning set").
				WithHint("Use RETURN NEXT or RETURN QUERY.")
		}
	case r.Procedure && !c.outs:
		if x.Expr != "" {
			return c.errAt(x.ExprAt, pgerr.SyntaxError, "RETURN cannot have a parameter in a procedure")
		}
	case r.Void:
		if x.Expr != "" {
			return c.errAt(x.ExprAt, pgerr.DatatypeMismatch, "RETURN cannot have a parameter in function returning void")
		}
	case c.outs:
		if x.Expr != "" {
			return c.errAt(x.ExprAt, pgerr.DatatypeMismatch, "RETURN cannot have a parameter in function with OUT parameters")
		}
	case x.Expr == "":
		return c.errAt(x.ExprAt, pgerr.SyntaxError, "missing expression at or near \";\"")
	}
	return nil
}
