package parser

import (
	"slices"
	"strconv"

	tidb "github.com/pingcap/tidb/pkg/parser"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// UtilityStatement is a session statement in PostgreSQL's spelling that
// TiDB's grammar lacks: SQL-level prepared statements (PREPARE, EXECUTE,
// DEALLOCATE, DISCARD), cursors (DECLARE, FETCH, MOVE, CLOSE),
// notifications (LISTEN, UNLISTEN, NOTIFY) and COPY. Statement.AST is nil
// for these and Statement.Utility holds them; the session runs them, and
// the statements they carry (Inner, Args) are ordinary parsed statements.
type UtilityStatement struct {
	// Kind is "prepare", "execute", "deallocate", "discard", "declare",
	// "fetch", "move", "close", "listen", "unlisten", "notify", "copy",
	// "load" (Name is the file) or
	// "drop tablespace" (IF EXISTS, of a tablespace zproxy does not have:
	// tablespace.go).
	Kind string
	// Name is the prepared statement, cursor or channel named, as an
	// identifier folds; NamePos its 1-based position in the query.
	Name    string
	NamePos int
	// All is DEALLOCATE ALL, CLOSE ALL or UNLISTEN *.
	All bool
	// Inner is the statement PREPARE names, DECLARE's query and COPY's
	// (query).
	Inner *Statement
	// ParamTypes are PREPARE's declared parameter types, in order.
	ParamTypes []sqltypes.Type
	// Args holds EXECUTE's arguments as the select list of a SELECT (nil
	// when the statement has no argument list).
	Args *Statement
	// Discard is DISCARD's object: "all", "plans", "sequences" or "temp".
	Discard string
	// Cursor holds DECLARE's options.
	Cursor CursorOptions
	// Fetch is the direction of FETCH and MOVE.
	Fetch FetchDirection
	// Payload is NOTIFY's payload ("" when none is given).
	Payload string
	// Copy describes COPY.
	Copy *CopyStatement
}

// CursorOptions are the options of DECLARE.
type CursorOptions struct {
	Binary   bool // BINARY: rows in binary format
	Scroll   bool // SCROLL: may move backwards
	NoScroll bool // NO SCROLL, said explicitly
	Hold     bool // WITH HOLD: outlives its transaction
}

// Fetch direction kinds (FetchDirection.Kind), as PostgreSQL's
// FetchDirection: NEXT, FORWARD and a bare count are forward; PRIOR and
// BACKWARD backward; FIRST is ABSOLUTE 1 and LAST ABSOLUTE -1.
const (
	FetchForward  = "forward"
	FetchBackward = "backward"
	FetchAbsolute = "absolute"
	FetchRelative = "relative"
)

// FetchDirection says how FETCH or MOVE moves a cursor. A negative Count
// for forward or backward has already been turned into the other
// direction, and All means every remaining row in that direction.
type FetchDirection struct {
	Kind  string
	Count int64
	All   bool
}

// CopyStatement describes COPY.
type CopyStatement struct {
	// Table and Columns name the table and the column list (nil: every
	// visible column); Query is set instead for COPY (query) TO.
	Table   string
	Columns []string
	Query   *Statement
	// From is COPY ... FROM (into the table); otherwise COPY ... TO.
	From bool
	// Stdio is FROM STDIN or TO STDOUT; File the file name otherwise, and
	// Program says it names a program (PROGRAM 'command').
	Stdio   bool
	File    string
	Program bool
	// Options are the options in the order written, in the modern form
	// (old spellings such as CSV HEADER and DELIMITER AS ',' are
	// translated: CSV is format csv).
	Options []CopyOption
	// Where is COPY FROM's WHERE condition as a statement SELECT ... WHERE
	// (nil when there is none).
	Where *Statement
}

// CopyOption is one option of COPY: a name (lower case, "force_quote",
// "force_not_null" and "force_null" for the FORCE forms) with a value: a
// string or word, a column list, or * (Star) for FORCE_QUOTE *.
type CopyOption struct {
	Name     string
	Value    string
	HasValue bool
	Columns  []string
	Star     bool
	Pos      int // 1-based position of the option name
}

// utilityStmt parses the statements of UtilityStatement. It returns nil
// when the statement is not one of them.
func (r *rewriter) utilityStmt() (*UtilityStatement, error) {
	switch r.toks[0].val {
	case "prepare":
		if r.peek(1, "transaction") {
			return nil, nil // two-phase commit: TiDB refuses it
		}
		return r.prepareStmt()
	case "execute":
		return r.executeStmt()
	case "deallocate":
		k := 1
		if r.peek(k, "prepare") {
			k++
		}
		return r.nameOrAll("deallocate", k, false)
	case "discard":
		if len(r.toks) != 2 {
			return nil, r.syntaxErrorAt(min(2, len(r.toks)))
		}
		what := r.toks[1].val
		switch {
		case r.toks[1].kind != tkIdent:
			return nil, r.syntaxErrorAt(1)
		case what == "temporary":
			what = "temp"
		case what != "all" && what != "plans" && what != "sequences" && what != "temp":
			return nil, r.syntaxErrorAt(1)
		}
		return &UtilityStatement{Kind: "discard", Discard: what}, nil
	case "close":
		return r.nameOrAll("close", 1, false)
	case "load":
		// LOAD 'file': a string, the whole statement.
		if len(r.toks) < 2 || r.toks[1].kind != tkString {
			return nil, r.syntaxErrorAt(1)
		}
		if len(r.toks) > 2 {
			return nil, r.syntaxErrorAt(2)
		}
		return &UtilityStatement{Kind: "load", Name: r.toks[1].val, NamePos: r.pos(1)}, nil
	case "listen":
		return r.nameOrAll("listen", 1, false)
	case "unlisten":
		return r.nameOrAll("unlisten", 1, true)
	case "notify":
		return r.notifyStmt()
	case "declare":
		return r.declareStmt()
	case "fetch", "move":
		return r.fetchStmt(r.toks[0].val)
	case "copy":
		return r.copyStmt()
	}
	return nil, nil
}

// name reads an identifier at k.
func (r *rewriter) name(k int) (string, error) {
	if k >= len(r.toks) || r.toks[k].kind != tkIdent && r.toks[k].kind != tkQIdent {
		return "", r.syntaxErrorAt(k)
	}
	return r.toks[k].val, nil
}

// nameOrAll reads "name" or "ALL" (or "*" with star) at k, the end of the
// statement.
func (r *rewriter) nameOrAll(kind string, k int, star bool) (*UtilityStatement, error) {
	us := &UtilityStatement{Kind: kind}
	if star && r.peek(k, "*") || !star && r.peek(k, "all") && k+1 == len(r.toks) {
		us.All = true
		if k+1 < len(r.toks) {
			return nil, r.syntaxErrorAt(k + 1)
		}
		return us, nil
	}
	return us, r.lastName(us, k)
}

// named starts a statement of that kind whose name is its second token.
func (r *rewriter) named(kind string) (*UtilityStatement, error) {
	n, err := r.name(1)
	if err != nil {
		return nil, err
	}
	return &UtilityStatement{Kind: kind, Name: n, NamePos: r.pos(1)}, nil
}

// lastName reads the name at k, which must end the statement, into us.
func (r *rewriter) lastName(us *UtilityStatement, k int) error {
	n, err := r.name(k)
	if err != nil {
		return err
	}
	us.Name, us.NamePos = n, r.pos(k)
	if k+1 < len(r.toks) {
		return r.syntaxErrorAt(k + 1)
	}
	return nil
}

// prepareStmt parses PREPARE name [(type, ...)] AS statement.
func (r *rewriter) prepareStmt() (*UtilityStatement, error) {
	us, err := r.named("prepare")
	if err != nil {
		return nil, err
	}
	k := 2
	if r.peek(k, "(") {
		var err error
		k, err = r.parenList(k, func(k int) (int, error) {
			t, next, err := r.parseType(k)
			us.ParamTypes = append(us.ParamTypes, t)
			return next, err
		})
		if err != nil {
			return nil, err
		}
	}
	if !r.peek(k, "as") || k+1 >= len(r.toks) {
		return nil, r.syntaxErrorAt(k + 1)
	}
	return us, r.inner(us, k+1, "select", "values", "with", "table", "(", "insert", "update", "delete", "merge")
}

// inner parses the tokens from k on as us.Inner, which must start with one
// of the words given.
func (r *rewriter) inner(us *UtilityStatement, k int, starts ...string) error {
	if !slices.ContainsFunc(starts, func(w string) bool { return r.peek(k, w) }) {
		return r.syntaxErrorAt(k)
	}
	inner, err := parseOne(r.sql, r.toks[k:])
	if err != nil {
		return err
	}
	us.Inner = &inner
	return nil
}

// executeStmt parses EXECUTE name [(argument, ...)].
func (r *rewriter) executeStmt() (*UtilityStatement, error) {
	us, err := r.named("execute")
	if err != nil {
		return nil, err
	}
	if len(r.toks) == 2 {
		return us, nil
	}
	if !r.peek(2, "(") {
		return nil, r.syntaxErrorAt(2)
	}
	end := r.matching(2)
	if end < 0 {
		return nil, r.syntaxErrorAt(len(r.toks))
	}
	if end != len(r.toks)-1 {
		return nil, r.syntaxErrorAt(end + 1)
	}
	if end == 3 {
		return nil, r.syntaxErrorAt(3) // EXECUTE p(): PostgreSQL wants an argument
	}
	args, err := parsePrefixed(r.sql, r.toks[3:end], "SELECT ")
	if err != nil {
		return nil, err
	}
	us.Args = &args
	return us, nil
}

// parsePrefixed parses tokens as the statement prefix + their text (EXECUTE's
// arguments as a select list), keeping positions in the client's text.
func parsePrefixed(sql string, toks []token, prefix string) (Statement, error) {
	first, last := toks[0], toks[len(toks)-1]
	st := Statement{Text: sql[first.start:last.end], Offset: first.start, query: sql}
	if err := checkDepth(toks); err != nil {
		return st, err
	}
	r := &rewriter{sql: sql, toks: toks, ed: make([]edit, len(toks)), primStart: map[int]int{}, st: &st}
	r.catalogCalls(0)
	if err := r.rewrite(0); err != nil {
		return st, err
	}
	r.ed[0].pre = prefix + r.ed[0].pre
	st.SQL = r.emit(0)
	st.segs = r.seg
	p := tidbPool.Get().(*tidb.Parser)
	defer releaseTiDB(p)
	stmts, _, err := p.ParseSQL(st.SQL)
	if err != nil || len(stmts) != 1 {
		if err == nil {
			return st, r.syntaxErrorAt(0)
		}
		return st, r.tidbError(r.tidbErrorToken(&st, err), err)
	}
	st.AST = stmts[0]
	r.numberParams(&st)
	return st, nil
}

// notifyStmt parses NOTIFY channel [, 'payload'].
func (r *rewriter) notifyStmt() (*UtilityStatement, error) {
	us, err := r.named("notify")
	if err != nil {
		return nil, err
	}
	switch {
	case len(r.toks) == 2:
	case r.peek(2, ",") && len(r.toks) == 4 && r.toks[3].kind == tkString && r.toks[3].str != strBit:
		us.Payload = r.toks[3].val
	default:
		k := 2
		if r.peek(2, ",") {
			k = 3
		}
		return nil, r.syntaxErrorAt(k)
	}
	return us, nil
}

// declareStmt parses DECLARE name [BINARY] [ASENSITIVE | INSENSITIVE]
// [[NO] SCROLL] CURSOR [{WITH | WITHOUT} HOLD] FOR query.
func (r *rewriter) declareStmt() (*UtilityStatement, error) {
	us, err := r.named("declare")
	if err != nil {
		return nil, err
	}
	k := 2
	for ; k < len(r.toks) && !r.peek(k, "cursor"); k++ {
		switch {
		case r.peek(k, "binary"):
			us.Cursor.Binary = true
		case r.peek(k, "insensitive"), r.peek(k, "asensitive"):
		case r.peek(k, "scroll"):
			us.Cursor.Scroll = true
		case r.peek(k, "no") && r.peek(k+1, "scroll"):
			us.Cursor.NoScroll = true
			k++
		default:
			return nil, r.syntaxErrorAt(k)
		}
	}
	if us.Cursor.Scroll && us.Cursor.NoScroll {
		return nil, pgerr.New(pgerr.InvalidCursorDefinition, "cannot specify both SCROLL and NO SCROLL").WithPosition(r.pos(1))
	}
	k++ // CURSOR
	switch {
	case r.peek(k, "with") && r.peek(k+1, "hold"):
		us.Cursor.Hold = true
		k += 2
	case r.peek(k, "without") && r.peek(k+1, "hold"):
		k += 2
	}
	if !r.peek(k, "for") || k+1 >= len(r.toks) {
		return nil, r.syntaxErrorAt(min(k+1, len(r.toks)))
	}
	if err := r.inner(us, k+1, "select", "values", "with", "table", "("); err != nil {
		return nil, err
	}
	if ca := us.Inner.CreateAs; ca != nil {
		return nil, pgerr.New(pgerr.SyntaxError, "SELECT ... INTO is not allowed here").WithPosition(ca.Pos)
	}
	return us, nil
}

// fetchStmt parses FETCH and MOVE: [direction] [FROM | IN] cursor.
func (r *rewriter) fetchStmt(kind string) (*UtilityStatement, error) {
	us := &UtilityStatement{Kind: kind, Fetch: FetchDirection{Kind: FetchForward, Count: 1}}
	k := 1
	count := func(k int) (int64, int, bool) {
		sign := int64(1)
		if r.peek(k, "-") || r.peek(k, "+") {
			if r.toks[k].val == "-" {
				sign = -1
			}
			k++
		}
		if k >= len(r.toks) || r.toks[k].kind != tkNumber {
			return 0, k, false
		}
		n, err := strconv.ParseInt(r.toks[k].val, 10, 64)
		if err != nil {
			return 0, k, false
		}
		return sign * n, k + 1, true
	}
	d := &us.Fetch
	switch {
	case r.peek(k, "next"):
		k++
	case r.peek(k, "prior"):
		d.Kind = FetchBackward
		k++
	case r.peek(k, "first"):
		d.Kind = FetchAbsolute
		k++
	case r.peek(k, "last"):
		d.Kind, d.Count = FetchAbsolute, -1
		k++
	case r.peek(k, "absolute"), r.peek(k, "relative"):
		d.Kind = r.toks[k].val
		n, next, ok := count(k + 1)
		if !ok {
			return nil, r.syntaxErrorAt(next)
		}
		d.Count, k = n, next
	case r.peek(k, "all"):
		d.All = true
		k++
	case r.peek(k, "forward"), r.peek(k, "backward"):
		d.Kind = r.toks[k].val
		k++
		if r.peek(k, "all") {
			d.All = true
			k++
		} else if n, next, ok := count(k); ok {
			d.Count, k = n, next
		}
	default:
		if n, next, ok := count(k); ok {
			d.Count, k = n, next
		}
	}
	if !d.All && d.Count < 0 && (d.Kind == FetchForward || d.Kind == FetchBackward) {
		// FETCH -2 is BACKWARD 2, as PostgreSQL turns it.
		d.Count = -d.Count
		if d.Kind == FetchForward {
			d.Kind = FetchBackward
		} else {
			d.Kind = FetchForward
		}
	}
	if r.peek(k, "from") || r.peek(k, "in") {
		k++
	}
	if err := r.lastName(us, k); err != nil {
		return nil, err
	}
	return us, nil
}

// copyStmt parses COPY in both of PostgreSQL's option syntaxes:
//
//	COPY t [(cols)] FROM {STDIN | 'file' | PROGRAM 'cmd'} [[WITH] (option [value], ...)] [WHERE cond]
//	COPY {t [(cols)] | (query)} TO {STDOUT | 'file' | PROGRAM 'cmd'} [[WITH] (option [value], ...)]
//
// and the older [WITH] BINARY | DELIMITER [AS] 'c' | NULL [AS] 's' | CSV
// [HEADER] [QUOTE [AS] 'q'] [ESCAPE [AS] 'e'] [FORCE QUOTE {cols | *}]
// [FORCE NOT NULL cols], and COPY BINARY t.
func (r *rewriter) copyStmt() (*UtilityStatement, error) {
	c := &CopyStatement{}
	us := &UtilityStatement{Kind: "copy", Copy: c}
	k := 1
	if r.peek(k, "binary") {
		c.Options = append(c.Options, CopyOption{Name: "format", Value: "binary", HasValue: true, Pos: r.pos(k)})
		k++
	}
	if r.peek(k, "(") {
		end := r.matching(k)
		if end < 0 || end == k+1 {
			return nil, r.syntaxErrorAt(max(end, k+1))
		}
		inner, err := parseOne(r.sql, r.toks[k+1:end])
		if err != nil {
			return nil, err
		}
		if ca := inner.CreateAs; ca != nil && ca.SelectInto {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "COPY (SELECT INTO) is not supported")
		} else if ca != nil {
			return nil, r.syntaxErrorAt(k + 1) // COPY (CREATE TABLE ... AS ...)
		}
		c.Query = &inner
		k = end + 1
	} else {
		n, err := r.name(k)
		if err != nil {
			return nil, err
		}
		us.NamePos = r.pos(k)
		k++
		if r.peek(k, ".") {
			schema := n
			if n, err = r.name(k + 1); err != nil {
				return nil, err
			}
			k += 2
			if r.peek(k, ".") {
				return nil, pgerr.New(pgerr.FeatureNotSupported, "cross-database references are not implemented")
			}
			// schema.name, public's too: the binder resolves it
			// (catalog.Snapshot.lookupRelation).
			if schema != "pg_catalog" {
				n = schema + "." + n
			}
		}
		c.Table = n
		if r.peek(k, "(") {
			if c.Columns, k, err = r.columnList(k); err != nil {
				return nil, err
			}
		}
	}
	switch {
	case r.peek(k, "from"):
		c.From = true
	case r.peek(k, "to"):
	default:
		return nil, r.syntaxErrorAt(k)
	}
	if c.From && c.Query != nil {
		return nil, r.syntaxErrorAt(k)
	}
	k++
	switch {
	case r.peek(k, "stdin") && c.From, r.peek(k, "stdout") && !c.From:
		c.Stdio = true
	case r.peek(k, "program") && k+1 < len(r.toks) && r.toks[k+1].kind == tkString:
		c.Program, c.File = true, r.toks[k+1].val
		k++
	case k < len(r.toks) && r.toks[k].kind == tkString:
		c.File = r.toks[k].val
	default:
		return nil, r.syntaxErrorAt(k)
	}
	k++
	var err error
	if k, err = r.copyOptions(c, k); err != nil {
		return nil, err
	}
	if r.peek(k, "where") {
		if !c.From {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "WHERE clause not allowed with COPY TO").WithPosition(r.pos(k))
		}
		if k+1 >= len(r.toks) {
			return nil, r.syntaxErrorAt(k + 1)
		}
		where, err := parsePrefixed(r.sql, r.toks[k:], "SELECT 1 ")
		if err != nil {
			return nil, err
		}
		c.Where = &where
		k = len(r.toks)
	}
	if k < len(r.toks) {
		return nil, r.syntaxErrorAt(k)
	}
	return us, nil
}

// copyOptions reads COPY's options at k, in either syntax, and returns the
// index after them.
func (r *rewriter) copyOptions(c *CopyStatement, k int) (int, error) {
	if r.peek(k, "with") {
		k++
	}
	if r.peek(k, "(") {
		return r.parenList(k, func(k int) (int, error) {
			if k >= len(r.toks) || r.toks[k].kind != tkIdent && r.toks[k].kind != tkQIdent {
				return k, r.syntaxErrorAt(k)
			}
			opt := CopyOption{Name: r.toks[k].val, Pos: r.pos(k)}
			k++
			switch {
			case r.peek(k, "("):
				cols, next, err := r.columnList(k)
				if err != nil {
					return k, err
				}
				opt.Columns, k = cols, next
			case r.peek(k, "*"):
				opt.Star = true
				k++
			case k < len(r.toks) && !r.peek(k, ",") && !r.peek(k, ")"):
				v, ok := optionValue(r.toks[k])
				if !ok {
					return k, r.syntaxErrorAt(k)
				}
				opt.Value, opt.HasValue = v, true
				k++
			}
			c.Options = append(c.Options, opt)
			return k, nil
		})
	}
	str := func(k int) (string, int, error) {
		if r.peek(k, "as") {
			k++
		}
		if k >= len(r.toks) || r.toks[k].kind != tkString || r.toks[k].str == strBit {
			return "", k, r.syntaxErrorAt(k)
		}
		return r.toks[k].val, k + 1, nil
	}
	for k < len(r.toks) && !r.peek(k, "where") {
		opt := CopyOption{Pos: r.pos(k), HasValue: true}
		var err error
		switch {
		case r.peek(k, "binary"), r.peek(k, "csv"):
			opt.Name, opt.Value = "format", r.toks[k].val
			k++
		case r.peek(k, "header"):
			opt.Name, opt.Value = "header", "true"
			k++
		case r.peek(k, "freeze"):
			opt.Name, opt.Value = "freeze", "true"
			k++
		case r.peek(k, "oids"):
			return k, pgerr.New(pgerr.SyntaxError, "COPY with OIDS is not supported anymore").WithPosition(r.pos(k))
		case r.peek(k, "delimiter"), r.peek(k, "null"), r.peek(k, "quote"), r.peek(k, "escape"), r.peek(k, "encoding"):
			opt.Name = r.toks[k].val
			opt.Value, k, err = str(k + 1)
		case r.peek(k, "force") && r.peek(k+1, "quote"):
			opt.Name, opt.HasValue = "force_quote", false
			if r.peek(k+2, "*") {
				opt.Star, k = true, k+3
			} else {
				opt.Columns, k, err = r.bareColumns(k + 2)
			}
		case r.peek(k, "force") && r.peek(k+1, "not") && r.peek(k+2, "null"):
			opt.Name, opt.HasValue = "force_not_null", false
			opt.Columns, k, err = r.bareColumns(k + 3)
		case r.peek(k, "force") && r.peek(k+1, "null"):
			opt.Name, opt.HasValue = "force_null", false
			opt.Columns, k, err = r.bareColumns(k + 2)
		default:
			return k, r.syntaxErrorAt(k)
		}
		if err != nil {
			return k, err
		}
		c.Options = append(c.Options, opt)
	}
	return k, nil
}

// parenList reads "(item, ...)" at k, calling item at each item's first
// token (it returns the index after the item), and returns the index after
// the ")".
func (r *rewriter) parenList(k int, item func(k int) (int, error)) (int, error) {
	if !r.peek(k, "(") {
		return k, r.syntaxErrorAt(k)
	}
	k++
	for {
		next, err := item(k)
		if err != nil {
			return next, err
		}
		k = next
		if r.peek(k, ",") {
			k++
			continue
		}
		if !r.peek(k, ")") {
			return k, r.syntaxErrorAt(k)
		}
		return k + 1, nil
	}
}

// columnList reads (col, ...) at k.
func (r *rewriter) columnList(k int) ([]string, int, error) {
	var cols []string
	k, err := r.parenList(k, func(k int) (int, error) {
		n, err := r.name(k)
		cols = append(cols, n)
		return k + 1, err
	})
	return cols, k, err
}

// bareColumns reads col, ... (without parentheses) at k.
func (r *rewriter) bareColumns(k int) ([]string, int, error) {
	var cols []string
	for {
		n, err := r.name(k)
		if err != nil {
			return nil, k, err
		}
		cols = append(cols, n)
		k++
		if !r.peek(k, ",") {
			return cols, k, nil
		}
		k++
	}
}
