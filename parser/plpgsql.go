package parser

import (
	"sort"
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// PL/pgSQL: ParsePLpgSQL reads a function's, procedure's or DO block's
// body into a tree of statements. The SQL inside it (expressions,
// queries, the statements it runs) stays text, cut from the body as
// written: the interpreter binds each piece with the variables in scope
// when it first runs it (session/plpgsql.go).

// PLBlock is BEGIN ... [EXCEPTION ...] END with its declarations.
type PLBlock struct {
	PLLine
	Label    string
	Decls    []PLDecl
	Body     []PLStmt
	Handlers []PLHandler
	// VariableConflict is the body's #variable_conflict option (error,
	// use_variable, use_column; "" when it has none): what a name that is
	// both a column and a variable means in its statements.
	VariableConflict string
}

// PLDecl is one declaration of a block.
type PLDecl struct {
	Name     string
	Constant bool
	NotNull  bool
	// Type is the declared type, or TypeName a user-defined one; Record
	// marks "record"; RowOf names the table of t%ROWTYPE (or of a
	// table's name as the type); TypeOf is the "table.column" or
	// variable of x%TYPE.
	Type     sqltypes.Type
	TypeName string
	Record   bool
	RowOf    string
	TypeOf   string
	// Default is the initial value's expression ("" for NULL).
	Default string
	// Alias is n for ALIAS FOR $n (0 otherwise).
	Alias int
	// Line is the line of the body the declaration starts on (1 for the
	// first): what an error in its initial value's CONTEXT names.
	Line int
	// Cursor marks a bound cursor, name [[NO] SCROLL] CURSOR [(args)]
	// FOR query: its parameters, its query and Scroll (1 SCROLL, -1 NO
	// SCROLL, 0 neither). Its variable is a refcursor.
	Cursor      bool
	CursorArgs  []PLCursorArg
	CursorQuery string
	Scroll      int
}

// PLCursorArg is a parameter of a bound cursor.
type PLCursorArg struct {
	Name     string
	Type     sqltypes.Type
	TypeName string
}

// PLHandler is one WHEN of an EXCEPTION clause: its conditions (condition
// names in lower case, SQLSTATE 'xxxxx' as the code, "others") and body.
type PLHandler struct {
	Conditions []string
	Body       []PLStmt
}

// PLStmt is a PL/pgSQL statement: one of the PL* types below.
type PLStmt interface {
	plStmt()
	// Line is the line of the body the statement starts on, 1 for the
	// first: what an error's CONTEXT names ("line 3 at RAISE").
	Line() int
	setLine(int)
}

// PLLine is a statement's line in its body (PLStmt.Line).
type PLLine struct{ line int }

// Line is the line of the body the statement starts on (1 for the first).
func (l *PLLine) Line() int { return l.line }

func (l *PLLine) setLine(n int) { l.line = n }

// PLAssign is target := expr (target a variable or record.field). At is
// the target's offset in the body.
type PLAssign struct {
	PLLine
	Target, Expr string
	At           int
}

// PLIf is IF ... ELSIF ... ELSE ... END IF.
type PLIf struct {
	PLLine
	Conds []string
	Thens [][]PLStmt
	Else  []PLStmt
}

// PLCase is CASE [operand] WHEN a, b THEN ... ELSE ... END CASE.
type PLCase struct {
	PLLine
	Operand string
	Whens   []string // each WHEN's expressions (a list for the operand form)
	Thens   [][]PLStmt
	Else    []PLStmt
	HasElse bool
}

// Loop kinds.
const (
	LoopPlain = iota
	LoopWhile
	LoopInt
	LoopQuery
	LoopForeach
	LoopExecute
	LoopCursor
)

// PLLoop is LOOP, WHILE, FOR (integer range, query, EXECUTE) and FOREACH.
type PLLoop struct {
	PLLine
	Label string
	Kind  int
	// Cond is WHILE's condition.
	Cond string
	// Vars are FOR's and FOREACH's loop variables.
	Vars []string
	// Lo, Hi and By are an integer FOR's bounds; Reverse counts down.
	Lo, Hi, By string
	Reverse    bool
	// Query is a query FOR's query (or EXECUTE's string, Using its
	// arguments), Array FOREACH's array and Slice its SLICE.
	Query string
	Using []string
	Array string
	Slice int
	Body  []PLStmt
	// Cursor is a bound cursor FOR loops over (LoopCursor), Args its
	// arguments.
	Cursor string
	Args   PLArgs
	// VarsAt are the offsets of Vars in the body.
	VarsAt []int
}

// PLArgs are a bound cursor's arguments: expressions, each named when
// written name := expr (Names[i] "" when positional).
type PLArgs struct {
	Exprs []string
	Names []string
}

// PLOpen is OPEN cursor [[NO] SCROLL] FOR query, FOR EXECUTE string
// [USING args], or a bound cursor's OPEN cursor [(args)].
type PLOpen struct {
	PLLine
	Cursor  string
	At      int // the cursor's offset in the body
	Scroll  int // 1 SCROLL, -1 NO SCROLL, 0 neither
	Query   string
	Execute string
	Using   []string
	Args    PLArgs
}

// PLFetch is FETCH [direction {FROM | IN}] cursor INTO targets, or (Move)
// MOVE [direction {FROM | IN}] cursor. Kind is FetchForward,
// FetchBackward, FetchAbsolute or FetchRelative; Count the count's
// expression ("" for 1 unless All).
type PLFetch struct {
	PLLine
	Move   bool
	Cursor string
	// CursorAt and IntoAt are the offsets of Cursor and Into in the body.
	CursorAt int
	IntoAt   []int
	Kind     string
	Count    string
	All      bool
	Into     []string
}

// PLClose is CLOSE cursor; At is the cursor's offset in the body.
type PLClose struct {
	PLLine
	Cursor string
	At     int
}

// PLCommit is COMMIT or (Rollback) ROLLBACK [AND [NO] CHAIN] in a
// procedure or DO block.
type PLCommit struct {
	PLLine
	Rollback, Chain bool
}

// PLExit is EXIT or CONTINUE [label] [WHEN cond].
type PLExit struct {
	PLLine
	Continue bool
	Label    string
	When     string
	// At and LabelAt are the offsets of the statement and its label in
	// the body.
	At, LabelAt int
}

// PLReturn is RETURN [expr], RETURN NEXT [expr] and RETURN QUERY query.
type PLReturn struct {
	PLLine
	Expr  string
	Next  bool
	Query string
	// Execute is RETURN QUERY EXECUTE's string, Using its arguments.
	Execute string
	Using   []string
	// At is the statement's offset in the body, ExprAt that of what
	// follows RETURN (or RETURN NEXT): the expression, or the semicolon.
	At, ExprAt int
}

// PLPerform is PERFORM query.
type PLPerform struct {
	PLLine
	Query string
}

// PLSQL is a SQL statement run for its effect, or with INTO its first
// row's values stored in Into (STRICT: exactly one row).
type PLSQL struct {
	PLLine
	SQL    string
	Into   []string
	Strict bool
	IntoAt []int // the offsets of Into in the body
}

// PLExecute is EXECUTE string [INTO [STRICT] targets] [USING args].
type PLExecute struct {
	PLLine
	Query  string
	Into   []string
	Strict bool
	Using  []string
	IntoAt []int // the offsets of Into in the body
}

// PLGetDiag is GET [CURRENT | STACKED] DIAGNOSTICS var = item, ...
type PLGetDiag struct {
	PLLine
	Stacked bool
	Vars    []string
	Items   []string
	VarsAt  []int // the offsets of Vars in the body
}

// PLRaise is RAISE [level] ['format' [, args]] [condition] [USING ...];
// a RAISE with nothing after it re-raises the handled error.
type PLRaise struct {
	PLLine
	Level     string // debug, log, info, notice, warning, exception
	Format    string
	HasFormat bool
	Args      []string
	// Condition is a condition name or, with SQLState, a code.
	Condition string
	SQLState  string
	// Options are USING's: option name (message, detail, hint, errcode,
	// ...) to its expression.
	OptNames []string
	OptExprs []string
}

// PLNull is NULL;.
type PLNull struct {
	PLLine
}

// PLAssert is ASSERT cond [, message].
type PLAssert struct {
	PLLine
	Cond, Message string
}

func (*PLBlock) plStmt()   {}
func (*PLAssign) plStmt()  {}
func (*PLIf) plStmt()      {}
func (*PLCase) plStmt()    {}
func (*PLLoop) plStmt()    {}
func (*PLExit) plStmt()    {}
func (*PLReturn) plStmt()  {}
func (*PLPerform) plStmt() {}
func (*PLSQL) plStmt()     {}
func (*PLExecute) plStmt() {}
func (*PLGetDiag) plStmt() {}
func (*PLRaise) plStmt()   {}
func (*PLNull) plStmt()    {}
func (*PLAssert) plStmt()  {}
func (*PLOpen) plStmt()    {}
func (*PLFetch) plStmt()   {}
func (*PLClose) plStmt()   {}
func (*PLCommit) plStmt()  {}

// plParser reads a PL/pgSQL body's tokens.
type plParser struct {
	src  string
	toks []token
	k    int
	// newlines are the offsets of src's newlines (lineAt), found once.
	newlines []int
}

// lineAt is the line of the body token k starts on, 1 for the first.
func (p *plParser) lineAt(k int) int {
	if p.newlines == nil {
		p.newlines = []int{}
		for i := 0; i < len(p.src); i++ {
			if p.src[i] == '\n' {
				p.newlines = append(p.newlines, i)
			}
		}
	}
	off := len(p.src)
	if k < len(p.toks) {
		off = p.toks[k].start
	}
	return 1 + sort.SearchInts(p.newlines, off)
}

// ParsePLpgSQL parses a PL/pgSQL body: one block, optionally followed by
// a semicolon.
func ParsePLpgSQL(body string) (*PLBlock, error) {
	toks, err := scan(body)
	if err != nil {
		return nil, err
	}
	if err := checkDepth(toks); err != nil {
		return nil, err
	}
	p := &plParser{src: body, toks: toks}
	conflict, err := p.options()
	if err != nil {
		return nil, err
	}
	line := p.lineAt(p.k)
	label := p.label()
	if !p.is("declare") && !p.is("begin") {
		return nil, p.errAt(p.k)
	}
	b, err := p.block(label)
	if err != nil {
		return nil, err
	}
	b.setLine(line)
	b.VariableConflict = conflict
	if p.is(";") {
		p.k++
	}
	if p.k < len(p.toks) {
		return nil, p.errAt(p.k)
	}
	return b, nil
}

// options reads the compiler options that may open a body:
// #variable_conflict error | use_variable | use_column. PostgreSQL's
// others (#print_strict_params, #option dump) are 0A000.
func (p *plParser) options() (conflict string, err error) {
	for p.is("#") {
		at := p.pos()
		p.k++
		switch {
		case p.is("variable_conflict"):
			p.k++
			if !p.is("error") && !p.is("use_variable") && !p.is("use_column") {
				return "", p.errAt(p.k)
			}
			conflict = p.toks[p.k].val
			p.k++
		case p.is("print_strict_params") || p.is("option"):
			return "", pgerr.New(pgerr.FeatureNotSupported, "#%s is not supported", p.toks[p.k].val).WithPosition(charPos(p.src, at))
		default:
			return "", p.errAt(p.k)
		}
	}
	return conflict, nil
}

func (p *plParser) is(w string) bool { return p.k < len(p.toks) && p.toks[p.k].is(w) }
func (p *plParser) isAt(i int, w string) bool {
	return i < len(p.toks) && p.toks[i].is(w)
}

// errAt is a syntax error at token i.
func (p *plParser) errAt(i int) error {
	if i >= len(p.toks) {
		return pgerr.New(pgerr.SyntaxError, "syntax error at end of input").WithPosition(charPos(p.src, len(p.src)))
	}
	t := p.toks[i]
	return pgerr.New(pgerr.SyntaxError, "syntax error at or near \"%s\"", nearText(p.src, t.start, t.end)).WithPosition(charPos(p.src, t.start))
}

// expect consumes word w.
func (p *plParser) expect(w string) error {
	if !p.is(w) {
		return p.errAt(p.k)
	}
	p.k++
	return nil
}

// ident reads an identifier.
func (p *plParser) ident() (string, error) {
	if p.k >= len(p.toks) || p.toks[p.k].kind != tkIdent && p.toks[p.k].kind != tkQIdent {
		return "", p.errAt(p.k)
	}
	p.k++
	return p.toks[p.k-1].val, nil
}

// label reads <<label>> if there is one.
func (p *plParser) label() string {
	if p.is("<<") && p.k+2 < len(p.toks) && p.toks[p.k+2].is(">>") {
		l := p.toks[p.k+1].val
		p.k += 3
		return l
	}
	return ""
}

// text is the source from token i to token j (exclusive).
func (p *plParser) text(i, j int) string {
	if i >= j {
		return ""
	}
	return strings.TrimSpace(p.src[p.toks[i].start:p.toks[j-1].end])
}

// until returns the index of the first of words at parenthesis depth zero
// from k (words are lower-case words or punctuation), or len(toks).
// CASE ... END nests, so an END inside an expression's CASE is skipped.
func (p *plParser) until(k int, words ...string) int {
	depth, cases := 0, 0
	for i := k; i < len(p.toks); i++ {
		t := &p.toks[i]
		switch {
		case t.is("(") || t.is("["):
			depth++
		case t.is(")") || t.is("]"):
			depth--
		case depth == 0 && t.is("case"):
			cases++
		case depth == 0 && cases > 0 && t.is("end"):
			cases--
		case depth == 0 && cases == 0:
			for _, w := range words {
				if t.is(w) {
					return i
				}
			}
		}
	}
	return len(p.toks)
}

// exprUntil reads an expression up to one of words (not consumed).
func (p *plParser) exprUntil(words ...string) (string, error) {
	end := p.until(p.k, words...)
	if end == p.k || end >= len(p.toks) {
		return "", p.errAt(end)
	}
	e := p.text(p.k, end)
	p.k = end
	return e, nil
}

// block reads [DECLARE ...] BEGIN ... [EXCEPTION ...] END [label].
func (p *plParser) block(label string) (*PLBlock, error) {
	b := &PLBlock{Label: label}
	if p.is("declare") {
		p.k++
		for !p.is("begin") {
			if p.k >= len(p.toks) {
				return nil, p.errAt(p.k)
			}
			if p.is("declare") {
				p.k++
				continue
			}
			line := p.lineAt(p.k)
			d, err := p.decl()
			if err != nil {
				return nil, err
			}
			d.Line = line
			b.Decls = append(b.Decls, d)
		}
	}
	if err := p.expect("begin"); err != nil {
		return nil, err
	}
	body, err := p.stmts("end", "exception")
	if err != nil {
		return nil, err
	}
	b.Body = body
	if p.is("exception") {
		p.k++
		for p.is("when") {
			p.k++
			var h PLHandler
			for {
				switch {
				case p.is("sqlstate"):
					p.k++
					if p.k >= len(p.toks) || p.toks[p.k].kind != tkString {
						return nil, p.errAt(p.k)
					}
					h.Conditions = append(h.Conditions, "sqlstate:"+p.toks[p.k].val)
					p.k++
				default:
					c, err := p.ident()
					if err != nil {
						return nil, err
					}
					h.Conditions = append(h.Conditions, c)
				}
				if !p.is("or") {
					break
				}
				p.k++
			}
			if err := p.expect("then"); err != nil {
				return nil, err
			}
			if h.Body, err = p.stmts("when", "end"); err != nil {
				return nil, err
			}
			b.Handlers = append(b.Handlers, h)
		}
		if b.Handlers == nil {
			return nil, p.errAt(p.k)
		}
	}
	if err := p.expect("end"); err != nil {
		return nil, err
	}
	if label != "" && p.k < len(p.toks) && p.toks[p.k].kind == tkIdent && p.toks[p.k].val == label {
		p.k++
	}
	return b, nil
}

// decl reads one declaration, through its semicolon.
func (p *plParser) decl() (PLDecl, error) {
	var d PLDecl
	name, err := p.ident()
	if err != nil {
		return d, err
	}
	d.Name = name
	if p.is("alias") {
		p.k++
		if err := p.expect("for"); err != nil {
			return d, err
		}
		if p.k >= len(p.toks) || p.toks[p.k].kind != tkParam {
			return d, p.errAt(p.k)
		}
		d.Alias = p.toks[p.k].n
		p.k++
		return d, p.expect(";")
	}
	if p.is("constant") {
		d.Constant = true
		p.k++
	}
	if p.is("cursor") || p.is("scroll") || p.is("no") && p.isAt(p.k+1, "scroll") {
		return d, p.cursorDecl(&d)
	}
	switch {
	case p.is("record"):
		d.Record = true
		p.k++
	case p.k+2 < len(p.toks) && p.toks[p.k+1].is("%") && p.toks[p.k+2].is("rowtype"):
		d.RowOf = p.toks[p.k].val
		p.k += 3
	case p.k+4 < len(p.toks) && p.toks[p.k+1].is(".") && p.toks[p.k+3].is("%") && p.toks[p.k+4].is("type"):
		d.TypeOf = p.toks[p.k].val + "." + p.toks[p.k+2].val
		p.k += 5
	case p.k+2 < len(p.toks) && p.toks[p.k+1].is("%") && p.toks[p.k+2].is("type"):
		d.TypeOf = p.toks[p.k].val
		p.k += 3
	default:
		r := &rewriter{sql: p.src, toks: p.toks}
		t, udt, next, err := r.parseTypeRef(p.k)
		if err != nil {
			return d, err
		}
		d.Type, d.TypeName, p.k = t, udt, next
	}
	if p.is("collate") {
		p.k += 2
	}
	if p.is("not") && p.isAt(p.k+1, "null") {
		d.NotNull = true
		p.k += 2
	}
	switch {
	case p.is("default"), p.is("="):
		p.k++
	case p.is(":") && p.isAt(p.k+1, "="):
		p.k += 2
	case p.is(";"):
		p.k++
		if d.Constant || d.NotNull {
			what := "constant"
			if !d.Constant {
				what = "NOT NULL"
			}
			return d, pgerr.New(pgerr.SyntaxError, "variable \"%s\" must have a default value, since it's declared %s", d.Name, what)
		}
		return d, nil
	default:
		return d, p.errAt(p.k)
	}
	if d.Default, err = p.exprUntil(";"); err != nil {
		return d, err
	}
	p.k++
	return d, nil
}

// stmts reads statements until one of the words ends the list (not
// consumed).
func (p *plParser) stmts(stop ...string) ([]PLStmt, error) {
	var out []PLStmt
	for {
		if p.k >= len(p.toks) {
			return nil, p.errAt(p.k)
		}
		for _, w := range stop {
			if p.is(w) {
				return out, nil
			}
		}
		line := p.lineAt(p.k)
		s, err := p.stmt()
		if err != nil {
			return nil, err
		}
		if s != nil {
			s.setLine(line)
			out = append(out, s)
		}
	}
}

// endStmt consumes the statement's closing words (END IF, END LOOP ...)
// and its semicolon.
func (p *plParser) endStmt(words ...string) error {
	for _, w := range words {
		if err := p.expect(w); err != nil {
			return err
		}
	}
	return p.expect(";")
}

// stmt reads one statement, through its semicolon.
func (p *plParser) stmt() (PLStmt, error) {
	start := p.k
	if p.is(";") {
		p.k++
		return nil, nil
	}
	label := p.label()
	switch {
	case p.is("declare") || p.is("begin"):
		b, err := p.block(label)
		if err != nil {
			return nil, err
		}
		return b, p.expect(";")
	case p.is("loop") || p.is("while") || p.is("for") || p.is("foreach"):
		return p.loop(label)
	case label != "":
		return nil, p.errAt(p.k)
	case p.is("if"):
		return p.ifStmt()
	case p.is("case"):
		return p.caseStmt()
	case p.is("exit") || p.is("continue"):
		x := &PLExit{Continue: p.is("continue"), At: p.toks[p.k].start}
		p.k++
		if p.k < len(p.toks) && (p.toks[p.k].kind == tkIdent && !p.is("when") || p.toks[p.k].kind == tkQIdent) {
			x.Label, x.LabelAt = p.toks[p.k].val, p.toks[p.k].start
			p.k++
		}
		if p.is("when") {
			p.k++
			var err error
			if x.When, err = p.exprUntil(";"); err != nil {
				return nil, err
			}
		}
		return x, p.expect(";")
	case p.is("return"):
		return p.returnStmt()
	case p.is("perform"):
		p.k++
		q, err := p.exprUntil(";")
		if err != nil {
			return nil, err
		}
		p.k++
		return &PLPerform{Query: "SELECT " + q}, nil
	case p.is("execute"):
		return p.executeStmt()
	case p.is("get"):
		return p.getDiag()
	case p.is("raise"):
		return p.raise()
	case p.is("assert"):
		p.k++
		a := &PLAssert{}
		var err error
		if a.Cond, err = p.exprUntil(",", ";"); err != nil {
			return nil, err
		}
		if p.is(",") {
			p.k++
			if a.Message, err = p.exprUntil(";"); err != nil {
				return nil, err
			}
		}
		return a, p.expect(";")
	case p.is("null") && p.isAt(p.k+1, ";"):
		p.k += 2
		return &PLNull{}, nil
	case p.is("commit") || p.is("rollback"):
		x := &PLCommit{Rollback: p.is("rollback")}
		p.k++
		if p.is("and") {
			p.k++
			if p.is("no") {
				p.k++
			} else {
				x.Chain = true
			}
			if err := p.expect("chain"); err != nil {
				return nil, err
			}
		}
		return x, p.expect(";")
	case p.is("open"):
		return p.openStmt()
	case p.is("fetch") || p.is("move"):
		return p.fetchStmt()
	case p.is("close"):
		p.k++
		at := p.pos()
		name, err := p.ident()
		if err != nil {
			return nil, err
		}
		return &PLClose{Cursor: name, At: at}, p.expect(";")
	}
	// target := expr, or a SQL statement.
	if p.k < len(p.toks) && (p.toks[p.k].kind == tkIdent || p.toks[p.k].kind == tkQIdent) {
		i := p.k + 1
		for i+1 < len(p.toks) && p.toks[i].is(".") {
			i += 2
		}
		if i+1 < len(p.toks) && p.toks[i].is(":") && p.toks[i+1].is("=") || i < len(p.toks) && p.toks[i].is("=") {
			target, at := p.dotted(p.k, i), p.toks[p.k].start
			if p.toks[i].is(":") {
				i++
			}
			p.k = i + 1
			e, err := p.exprUntil(";")
			if err != nil {
				return nil, err
			}
			p.k++
			return &PLAssign{Target: target, Expr: e, At: at}, nil
		}
		if i < len(p.toks) && p.toks[i].is("[") {
			return p.subscriptAssign(i)
		}
	}
	end := p.until(start, ";")
	if end >= len(p.toks) {
		return nil, p.errAt(end)
	}
	s := &PLSQL{}
	if err := p.sqlInto(start, end, s); err != nil {
		return nil, err
	}
	p.k = end + 1
	return s, nil
}

// subscriptAssign reads x[i]... := value, whose first bracket is token
// open: an assignment to x of x with the element (or the jsonb step, or
// the slice) assigned, zp_subscript_assign(x[i]..., (value)), which the
// binder reads as UPDATE's SET x[i] = value.
func (p *plParser) subscriptAssign(open int) (PLStmt, error) {
	j := open
	for j < len(p.toks) && p.toks[j].is("[") {
		m := matchingIn(p.toks, j)
		if m < 0 {
			return nil, p.errAt(len(p.toks))
		}
		j = m + 1
	}
	switch {
	case j+1 < len(p.toks) && p.toks[j].is(":") && p.toks[j+1].is("="):
		j += 2
	case j < len(p.toks) && p.toks[j].is("="):
		j++
	default:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "assigning to a field of an array element in PL/pgSQL is not supported").WithPosition(charPos(p.src, p.toks[p.k].start))
	}
	target, lhs, at := p.dotted(p.k, open), p.text(p.k, j-1), p.toks[p.k].start
	if p.toks[j-1].is("=") && p.toks[j-2].is(":") {
		lhs = p.text(p.k, j-2)
	}
	p.k = j
	e, err := p.exprUntil(";")
	if err != nil {
		return nil, err
	}
	p.k++
	return &PLAssign{Target: target, Expr: SubscriptAssignFunc + "(" + lhs + ", (" + e + "))", At: at}, nil
}

// dotted is the name of tokens i to j (words and dots: "new.body"), each
// word folded or quoted as the scanner read it.
func (p *plParser) dotted(i, j int) string {
	var b strings.Builder
	for ; i < j; i++ {
		b.WriteString(p.toks[i].val)
	}
	return b.String()
}

// sqlInto takes a SQL statement's INTO [STRICT] targets out of its text
// (SELECT ... INTO x FROM ..., INSERT ... RETURNING ... INTO x).
func (p *plParser) sqlInto(start, end int, s *PLSQL) error {
	first := p.toks[start]
	skip := -1
	if first.is("insert") || first.is("merge") {
		skip = p.until(start, "into") // INSERT INTO t is the table
	}
	into := -1
	for i, depth := start, 0; i < end; i++ {
		switch {
		case p.toks[i].is("("):
			depth++
		case p.toks[i].is(")"):
			depth--
		case depth == 0 && p.toks[i].is("into") && i != skip && !(i > start && p.toks[i-1].is("insert")):
			into = i
		}
		if into >= 0 {
			break
		}
	}
	if into < 0 {
		s.SQL = p.text(start, end)
		return nil
	}
	k := into + 1
	if k < end && p.toks[k].is("strict") {
		s.Strict = true
		k++
	}
	for {
		i := k
		if i >= end || p.toks[i].kind != tkIdent && p.toks[i].kind != tkQIdent {
			return p.errAt(i)
		}
		i++
		for i+1 < end && p.toks[i].is(".") {
			i += 2
		}
		s.Into, s.IntoAt = append(s.Into, p.dotted(k, i)), append(s.IntoAt, p.toks[k].start)
		k = i
		if k < end && p.toks[k].is(",") {
			k++
			continue
		}
		break
	}
	s.SQL = strings.TrimSpace(p.src[p.toks[start].start:p.toks[into].start])
	if k < end {
		s.SQL += " " + p.text(k, end)
	}
	return nil
}

func (p *plParser) ifStmt() (PLStmt, error) {
	x := &PLIf{}
	for {
		p.k++ // IF or ELSIF
		c, err := p.exprUntil("then")
		if err != nil {
			return nil, err
		}
		p.k++
		body, err := p.stmts("elsif", "elseif", "else", "end")
		if err != nil {
			return nil, err
		}
		x.Conds, x.Thens = append(x.Conds, c), append(x.Thens, body)
		if p.is("elsif") || p.is("elseif") {
			continue
		}
		break
	}
	if p.is("else") {
		p.k++
		var err error
		if x.Else, err = p.stmts("end"); err != nil {
			return nil, err
		}
	}
	return x, p.endStmt("end", "if")
}

func (p *plParser) caseStmt() (PLStmt, error) {
	x := &PLCase{}
	p.k++
	if !p.is("when") {
		var err error
		if x.Operand, err = p.exprUntil("when"); err != nil {
			return nil, err
		}
	}
	for p.is("when") {
		p.k++
		w, err := p.exprUntil("then")
		if err != nil {
			return nil, err
		}
		p.k++
		body, err := p.stmts("when", "else", "end")
		if err != nil {
			return nil, err
		}
		x.Whens, x.Thens = append(x.Whens, w), append(x.Thens, body)
	}
	if x.Whens == nil {
		return nil, p.errAt(p.k)
	}
	if p.is("else") {
		p.k++
		x.HasElse = true
		var err error
		if x.Else, err = p.stmts("end"); err != nil {
			return nil, err
		}
	}
	return x, p.endStmt("end", "case")
}

// loop reads LOOP, WHILE, FOR and FOREACH through END LOOP [label];.
func (p *plParser) loop(label string) (PLStmt, error) {
	x := &PLLoop{Label: label}
	var err error
	switch {
	case p.is("while"):
		p.k++
		x.Kind = LoopWhile
		if x.Cond, err = p.exprUntil("loop"); err != nil {
			return nil, err
		}
	case p.is("foreach"):
		p.k++
		x.Kind = LoopForeach
		if x.Vars, x.VarsAt, err = p.loopVars(); err != nil {
			return nil, err
		}
		if p.is("slice") {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "FOREACH ... SLICE is not supported").WithPosition(charPos(p.src, p.toks[p.k].start))
		}
		if err := p.expect("in"); err != nil {
			return nil, err
		}
		if err := p.expect("array"); err != nil {
			return nil, err
		}
		if x.Array, err = p.exprUntil("loop"); err != nil {
			return nil, err
		}
	case p.is("for"):
		p.k++
		if x.Vars, x.VarsAt, err = p.loopVars(); err != nil {
			return nil, err
		}
		if err := p.expect("in"); err != nil {
			return nil, err
		}
		if err := p.forSource(x); err != nil {
			return nil, err
		}
	}
	if err := p.expect("loop"); err != nil {
		return nil, err
	}
	if x.Body, err = p.stmts("end"); err != nil {
		return nil, err
	}
	p.k++
	if err := p.expect("loop"); err != nil {
		return nil, err
	}
	if p.k < len(p.toks) && p.toks[p.k].kind == tkIdent {
		if p.toks[p.k].val != label {
			return nil, p.errAt(p.k)
		}
		p.k++
	}
	return x, p.expect(";")
}

// loopVars reads FOR's or FOREACH's variables and their offsets.
func (p *plParser) loopVars() ([]string, []int, error) {
	var vs []string
	var at []int
	for {
		at = append(at, p.pos())
		v, err := p.ident()
		if err != nil {
			return nil, nil, err
		}
		vs = append(vs, v)
		if !p.is(",") {
			return vs, at, nil
		}
		p.k++
	}
}

// pos is the offset in the body of the next token (the body's end when
// there is none).
func (p *plParser) pos() int {
	if p.k < len(p.toks) {
		return p.toks[p.k].start
	}
	return len(p.src)
}

// forSource reads what FOR loops over: [REVERSE] lo .. hi [BY step], a
// query, or EXECUTE string [USING args].
func (p *plParser) forSource(x *PLLoop) error {
	end := p.until(p.k, "loop")
	if end >= len(p.toks) {
		return p.errAt(end)
	}
	if p.is("execute") {
		x.Kind = LoopExecute
		x.Query, x.Using = p.executeUsing(end)
		p.k = end
		return nil
	}
	if p.is("reverse") {
		x.Reverse = true
		p.k++
	}
	if p.k >= end {
		// Nothing between IN (or REVERSE) and LOOP.
		t := p.toks[end]
		return pgerr.New(pgerr.SyntaxError, "missing expression at or near \"%s\"", nearText(p.src, t.start, t.end)).WithPosition(charPos(p.src, t.start))
	}
	// An integer range has ".." at depth zero: the scanner reads "1..10"
	// as 1, ".", .10, so it is found in the text.
	dots := -1
	for i, depth := p.k, 0; i < end && dots < 0; i++ {
		switch {
		case p.toks[i].is("("):
			depth++
		case p.toks[i].is(")"):
			depth--
		case depth == 0 && p.toks[i].is(".") && i+1 < end && p.toks[i+1].start == p.toks[i].end && strings.HasPrefix(p.src[p.toks[i+1].start:], "."):
			dots = i
		}
	}
	if dots < 0 {
		if x.Reverse {
			return p.errAt(p.k)
		}
		// A bound cursor, with its arguments: a name alone, or a name
		// and a parenthesized list, is no query.
		if p.toks[p.k].kind == tkIdent || p.toks[p.k].kind == tkQIdent {
			if p.k+1 == end {
				x.Kind, x.Cursor = LoopCursor, p.toks[p.k].val
				p.k = end
				return nil
			}
			if p.toks[p.k+1].is("(") && p.closeParen(p.k+1)+1 == end {
				x.Kind, x.Cursor = LoopCursor, p.toks[p.k].val
				p.k++
				args, err := p.cursorArgs()
				if err != nil {
					return err
				}
				x.Args = args
				return nil
			}
		}
		x.Kind, x.Query = LoopQuery, p.text(p.k, end)
		p.k = end
		return nil
	}
	x.Kind = LoopInt
	x.Lo = p.text(p.k, dots)
	hiStart := p.toks[dots].end + 1 // after the second "."
	by := p.until(dots, "by")
	hiEnd := p.toks[min(by, end)-1].end
	if by < end {
		hiEnd = p.toks[by].start
		x.By = p.text(by+1, end)
	}
	x.Hi = strings.TrimSpace(p.src[hiStart:hiEnd])
	if x.Lo == "" || x.Hi == "" {
		return p.errAt(dots)
	}
	p.k = end
	return nil
}

// list reads comma-separated expressions up to token end.
func (p *plParser) list(end int) []string {
	var out []string
	for p.k < end {
		stop := min(p.until(p.k, ","), end)
		out = append(out, p.text(p.k, stop))
		p.k = stop
		if p.is(",") {
			p.k++
		}
	}
	return out
}

func (p *plParser) returnStmt() (PLStmt, error) {
	x := &PLReturn{At: p.pos()}
	p.k++
	switch {
	case p.is("next"):
		x.Next = true
		p.k++
	case p.is("query"):
		p.k++
		end := p.until(p.k, ";")
		if end >= len(p.toks) {
			return nil, p.errAt(end)
		}
		if p.is("execute") {
			x.Execute, x.Using = p.executeUsing(end)
		} else {
			x.Query = p.text(p.k, end)
		}
		p.k = end + 1
		return x, nil
	}
	end := p.until(p.k, ";")
	if end >= len(p.toks) {
		return nil, p.errAt(end)
	}
	x.ExprAt = p.pos()
	x.Expr = p.text(p.k, end)
	p.k = end + 1
	return x, nil
}

func (p *plParser) executeStmt() (PLStmt, error) {
	p.k++
	x := &PLExecute{}
	end := p.until(p.k, ";")
	if end >= len(p.toks) {
		return nil, p.errAt(end)
	}
	stop := min(p.until(p.k, "into", "using"), end)
	x.Query = p.text(p.k, stop)
	p.k = stop
	for p.k < end {
		switch {
		case p.is("into"):
			p.k++
			if p.is("strict") {
				x.Strict = true
				p.k++
			}
			stop := min(p.until(p.k, "using"), end)
			for p.k < stop {
				x.IntoAt = append(x.IntoAt, p.pos())
				next := min(p.until(p.k, ","), stop)
				x.Into = append(x.Into, strings.ToLower(strings.ReplaceAll(p.text(p.k, next), " ", "")))
				p.k = next
				if p.is(",") {
					p.k++
				}
			}
		case p.is("using"):
			p.k++
			stop := min(p.until(p.k, "into"), end)
			x.Using = p.list(stop)
		default:
			return nil, p.errAt(p.k)
		}
	}
	if x.Query == "" {
		return nil, p.errAt(p.k)
	}
	p.k = end + 1
	return x, nil
}

// nameEquals reads "name =" or "name :=" and returns the name.
func (p *plParser) nameEquals() (string, error) {
	name, err := p.ident()
	if err != nil {
		return "", err
	}
	switch {
	case p.is("="):
		p.k++
	case p.is(":") && p.isAt(p.k+1, "="):
		p.k += 2
	default:
		return "", p.errAt(p.k)
	}
	return name, nil
}

func (p *plParser) getDiag() (PLStmt, error) {
	p.k++
	x := &PLGetDiag{}
	switch {
	case p.is("current"):
		p.k++
	case p.is("stacked"):
		x.Stacked = true
		p.k++
	}
	if err := p.expect("diagnostics"); err != nil {
		return nil, err
	}
	for {
		at := p.pos()
		v, err := p.nameEquals()
		if err != nil {
			return nil, err
		}
		item, err := p.ident()
		if err != nil {
			return nil, err
		}
		x.Vars, x.Items, x.VarsAt = append(x.Vars, v), append(x.Items, item), append(x.VarsAt, at)
		if !p.is(",") {
			break
		}
		p.k++
	}
	return x, p.expect(";")
}

// raiseLevels are RAISE's levels.
var raiseLevels = map[string]bool{"debug": true, "log": true, "info": true, "notice": true, "warning": true, "exception": true}

func (p *plParser) raise() (PLStmt, error) {
	p.k++
	x := &PLRaise{Level: "exception"}
	if p.is(";") {
		p.k++
		x.Level = ""
		return x, nil // re-raise
	}
	if p.k < len(p.toks) && p.toks[p.k].kind == tkIdent && raiseLevels[p.toks[p.k].val] {
		x.Level = p.toks[p.k].val
		p.k++
	}
	end := p.until(p.k, ";")
	if end >= len(p.toks) {
		return nil, p.errAt(end)
	}
	switch {
	case p.k < end && p.toks[p.k].kind == tkString:
		x.Format, x.HasFormat = p.toks[p.k].val, true
		p.k++
		if p.is(",") {
			p.k++
			stop := min(p.until(p.k, "using"), end)
			x.Args = p.list(stop)
		}
	case p.is("sqlstate"):
		p.k++
		if p.k >= end || p.toks[p.k].kind != tkString {
			return nil, p.errAt(p.k)
		}
		x.SQLState = p.toks[p.k].val
		p.k++
	case p.k < end && p.toks[p.k].kind == tkIdent && !p.is("using"):
		x.Condition = p.toks[p.k].val
		p.k++
	}
	if p.is("using") {
		p.k++
		for p.k < end {
			name, err := p.nameEquals()
			if err != nil {
				return nil, err
			}
			stop := min(p.until(p.k, ","), end)
			x.OptNames, x.OptExprs = append(x.OptNames, name), append(x.OptExprs, p.text(p.k, stop))
			p.k = stop
			if p.is(",") {
				p.k++
			}
		}
	}
	if p.k != end {
		return nil, p.errAt(p.k)
	}
	p.k = end + 1
	return x, nil
}

// cursorDecl reads the rest of a bound cursor's declaration: [[NO]
// SCROLL] CURSOR [(name type, ...)] {FOR | IS} query;
func (p *plParser) cursorDecl(d *PLDecl) error {
	d.Cursor = true
	switch {
	case p.is("no"):
		d.Scroll = -1
		p.k += 2
	case p.is("scroll"):
		d.Scroll = 1
		p.k++
	}
	if err := p.expect("cursor"); err != nil {
		return err
	}
	if p.is("(") {
		p.k++
		for {
			name, err := p.ident()
			if err != nil {
				return err
			}
			r := &rewriter{sql: p.src, toks: p.toks}
			t, udt, next, err := r.parseTypeRef(p.k)
			if err != nil {
				return err
			}
			p.k = next
			d.CursorArgs = append(d.CursorArgs, PLCursorArg{Name: name, Type: t, TypeName: udt})
			if p.is(",") {
				p.k++
				continue
			}
			if err := p.expect(")"); err != nil {
				return err
			}
			break
		}
	}
	if !p.is("for") && !p.is("is") {
		return p.errAt(p.k)
	}
	p.k++
	q, err := p.exprUntil(";")
	if err != nil {
		return err
	}
	d.CursorQuery = q
	p.k++
	return nil
}

// cursorArgs reads a bound cursor's arguments: (expr, ...), each
// argument possibly named (name := expr or name => expr).
func (p *plParser) cursorArgs() (PLArgs, error) {
	var a PLArgs
	end := p.closeParen(p.k)
	if err := p.expect("("); err != nil {
		return a, err
	}
	if end >= len(p.toks) {
		return a, p.errAt(end)
	}
	for p.k < end {
		stop := min(p.until(p.k, ","), end)
		name := ""
		if p.k+2 < stop && p.toks[p.k].kind == tkIdent && p.toks[p.k+1].is(":") && p.toks[p.k+2].is("=") {
			name = p.toks[p.k].val
			p.k += 3
		} else if p.k+1 < stop && p.toks[p.k].kind == tkIdent && p.toks[p.k+1].is("=>") {
			name = p.toks[p.k].val
			p.k += 2
		}
		if p.k >= stop {
			return a, p.errAt(p.k)
		}
		a.Exprs = append(a.Exprs, p.text(p.k, stop))
		a.Names = append(a.Names, name)
		p.k = stop
		if p.is(",") {
			p.k++
		}
	}
	p.k = end + 1
	return a, nil
}

// closeParen is the index of the parenthesis closing the one at i
// (len(toks) when there is none).
func (p *plParser) closeParen(i int) int {
	depth := 0
	for ; i < len(p.toks); i++ {
		switch {
		case p.toks[i].is("(") || p.toks[i].is("["):
			depth++
		case p.toks[i].is(")") || p.toks[i].is("]"):
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return len(p.toks)
}

// executeUsing reads EXECUTE string [USING args] up to token end (not
// consumed).
func (p *plParser) executeUsing(end int) (string, []string) {
	p.k++
	stop := min(p.until(p.k, "using"), end)
	query := p.text(p.k, stop)
	p.k = stop
	var using []string
	if p.is("using") {
		p.k++
		using = p.list(end)
	}
	return query, using
}

// openStmt reads OPEN.
func (p *plParser) openStmt() (PLStmt, error) {
	p.k++
	x := &PLOpen{At: p.pos()}
	name, err := p.ident()
	if err != nil {
		return nil, err
	}
	x.Cursor = name
	switch {
	case p.is("no") && p.isAt(p.k+1, "scroll"):
		x.Scroll = -1
		p.k += 2
	case p.is("scroll"):
		x.Scroll = 1
		p.k++
	}
	switch {
	case p.is("for"):
		p.k++
		end := p.until(p.k, ";")
		if end >= len(p.toks) {
			return nil, p.errAt(end)
		}
		if p.is("execute") {
			if x.Execute, x.Using = p.executeUsing(end); x.Execute == "" {
				return nil, p.errAt(p.k)
			}
		} else {
			if x.Query = p.text(p.k, end); x.Query == "" {
				return nil, p.errAt(p.k)
			}
		}
		p.k = end
	case p.is("("):
		if x.Args, err = p.cursorArgs(); err != nil {
			return nil, err
		}
	}
	return x, p.expect(";")
}

// fetchStmt reads FETCH and MOVE: [direction {FROM | IN}] cursor [INTO
// targets].
func (p *plParser) fetchStmt() (PLStmt, error) {
	x := &PLFetch{Move: p.is("move"), Kind: FetchForward}
	start := p.k
	p.k++
	end := p.until(p.k, ";")
	if end >= len(p.toks) {
		return nil, p.errAt(end)
	}
	stop := end
	if !x.Move {
		if stop = p.until(p.k, "into"); stop >= end {
			return nil, pgerr.New(pgerr.SyntaxError, "syntax error at or near \";\"").WithPosition(charPos(p.src, p.toks[end].start))
		}
	}
	// The cursor is the last word before INTO (or the end); what comes
	// before it is the direction, then FROM or IN.
	c := stop - 1
	if c < p.k || p.toks[c].kind != tkIdent && p.toks[c].kind != tkQIdent {
		return nil, p.errAt(c + 1)
	}
	x.Cursor, x.CursorAt = p.toks[c].val, p.toks[c].start
	dirEnd := c
	if dirEnd > p.k && (p.toks[dirEnd-1].is("from") || p.toks[dirEnd-1].is("in")) {
		dirEnd--
	}
	multi := false
	if p.k < dirEnd {
		w := p.toks[p.k]
		rest := func() string { return p.text(p.k+1, dirEnd) }
		switch {
		case w.is("next") && p.k+1 == dirEnd:
		case w.is("prior") && p.k+1 == dirEnd:
			x.Kind = FetchBackward
		case w.is("first") && p.k+1 == dirEnd:
			x.Kind, x.Count = FetchAbsolute, "1"
		case w.is("last") && p.k+1 == dirEnd:
			x.Kind, x.Count = FetchAbsolute, "-1"
		case w.is("absolute") || w.is("relative"):
			x.Kind, x.Count = w.val, rest()
			if x.Count == "" {
				return nil, p.errAt(p.k + 1)
			}
		case w.is("all") && p.k+1 == dirEnd:
			x.All, multi = true, true
		case w.is("forward") || w.is("backward"):
			x.Kind = w.val
			switch {
			case p.k+1 == dirEnd:
			case p.toks[p.k+1].is("all") && p.k+2 == dirEnd:
				x.All, multi = true, true
			default:
				x.Count, multi = rest(), true
			}
		default:
			x.Count, multi = p.text(p.k, dirEnd), true
		}
	}
	if multi && !x.Move {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "FETCH statement cannot return multiple rows").WithPosition(charPos(p.src, p.toks[start].start))
	}
	if !x.Move {
		p.k = stop + 1
		for {
			i := p.k
			if i >= end || p.toks[i].kind != tkIdent && p.toks[i].kind != tkQIdent {
				return nil, p.errAt(i)
			}
			i++
			for i+1 < end && p.toks[i].is(".") {
				i += 2
			}
			x.Into, x.IntoAt = append(x.Into, p.dotted(p.k, i)), append(x.IntoAt, p.toks[p.k].start)
			p.k = i
			if p.is(",") {
				p.k++
				continue
			}
			break
		}
		if p.k != end {
			return nil, p.errAt(p.k)
		}
	}
	p.k = end + 1
	return x, nil
}

// CurrentOf finds WHERE CURRENT OF cursor in a statement: the byte range
// of "CURRENT OF cursor" in sql and the cursor's name (folded, or as
// quoted). The caller puts the cursor's current row in its place.
func CurrentOf(sql string) (start, end int, cursor string, ok bool) {
	toks, err := scan(sql)
	if err != nil {
		return 0, 0, "", false
	}
	depth := 0
	for i := 0; i+3 < len(toks); i++ {
		switch {
		case toks[i].is("("):
			depth++
		case toks[i].is(")"):
			depth--
		case depth == 0 && toks[i].is("where") && toks[i+1].is("current") && toks[i+2].is("of") &&
			(toks[i+3].kind == tkIdent || toks[i+3].kind == tkQIdent):
			return toks[i+1].start, toks[i+3].end, toks[i+3].val, true
		}
	}
	return 0, 0, "", false
}
