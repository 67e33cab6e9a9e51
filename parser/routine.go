package parser

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Functions and procedures: CREATE [OR REPLACE] FUNCTION | PROCEDURE,
// ALTER and DROP FUNCTION | PROCEDURE, CALL and DO. TiDB has none of them,
// so the front end reads them into a RoutineStatement. A routine's body is
// kept as text: it is parsed and bound when the routine is called (as
// PostgreSQL plans a SQL function's body at its first call), against the
// schema of that moment.

// RoutineAction is what a RoutineStatement does.
type RoutineAction uint8

// The routine statements.
const (
	// RoutineCreate is CREATE [OR REPLACE] FUNCTION | PROCEDURE.
	RoutineCreate RoutineAction = iota
	// RoutineDrop is DROP FUNCTION | PROCEDURE [IF EXISTS] ref [, ...]
	// [CASCADE | RESTRICT].
	RoutineDrop
	// RoutineRename is ALTER FUNCTION ref RENAME TO NewName.
	RoutineRename
	// RoutineOwner is ALTER FUNCTION ref OWNER TO NewName.
	RoutineOwner
	// RoutineAlter is ALTER FUNCTION ref with options (volatility,
	// strictness, security, SET/RESET): Options has them.
	RoutineAlter
	// RoutineCall is CALL name(args): Call is the parse of SELECT
	// name(args).
	RoutineCall
	// RoutineDo is DO [LANGUAGE l] 'code'.
	RoutineDo
	// RoutineGrant is GRANT EXECUTE | ALL [PRIVILEGES] ON FUNCTION |
	// PROCEDURE | ROUTINE ref [, ...] TO Grantees; with Revoke, REVOKE
	// ... FROM Grantees.
	RoutineGrant
	// RoutineComment is COMMENT ON FUNCTION | PROCEDURE | ROUTINE |
	// AGGREGATE ref IS 'text' | NULL: Comment is the text ("" removes
	// it, as NULL does).
	RoutineComment
)

// Parameter modes, as pg_proc.proargmodes spells them.
const (
	ModeIn       = 'i'
	ModeOut      = 'o'
	ModeInOut    = 'b'
	ModeVariadic = 'v'
	ModeTable    = 't'
)

// RoutineParam is one parameter of a routine (or a column of RETURNS
// TABLE, Mode ModeTable).
type RoutineParam struct {
	// Name is the parameter's name ("" when unnamed).
	Name string
	// Mode is one of ModeIn, ModeOut, ModeInOut, ModeVariadic, ModeTable.
	Mode byte
	// Type is a built-in type, or TypeName names a user-defined one for
	// the binder to look up.
	Type     sqltypes.Type
	TypeName string
	// Default is the DEFAULT expression as written ("" for none).
	Default string
}

// RoutineRef names a routine in DROP and ALTER: its name and, when
// HasArgs, the types of its arguments (names and modes as written; OUT
// parameters do not identify a function).
type RoutineRef struct {
	Name    string
	Pos     int
	HasArgs bool
	Args    []RoutineParam
}

// RoutineOptions are the options of CREATE and ALTER FUNCTION; a nil
// pointer is an option not given.
type RoutineOptions struct {
	Language   string
	Volatility byte // 'i', 's', 'v'; 0 when not given
	Strict     *bool
	Definer    *bool
	Leakproof  *bool
	Parallel   byte // 's', 'r', 'u'; 0 when not given
	Cost, Rows float64
	// Config are SET name = value options, "name=value" as proconfig
	// prints them; Reset lists RESET names (ALTER), "all" for RESET ALL.
	Config []string
	Reset  []string
}

// RoutineStatement is one of the statements on functions and procedures.
type RoutineStatement struct {
	Action RoutineAction
	// Procedure: the statement is on a procedure (CREATE/ALTER/DROP
	// PROCEDURE, CALL); else on a function.
	Procedure bool
	// Replace is CREATE's OR REPLACE.
	Replace bool
	// Refs are the routines DROP and ALTER name (one for ALTER); Refs[0]
	// is CREATE's name and Params its parameters.
	Refs []RoutineRef
	// AllIn are the schemas of GRANT | REVOKE ... ON ALL FUNCTIONS |
	// PROCEDURES | ROUTINES IN SCHEMA s, ...; AllKind is which ("functions",
	// aggregates included, "procedures" or "routines").
	AllIn   []string
	AllKind string
	Params  []RoutineParam
	// MissingOK and Cascade are DROP's IF EXISTS and CASCADE.
	MissingOK bool
	Cascade   bool
	// Returns is CREATE FUNCTION's result type (ReturnsName a
	// user-defined one's name); ReturnsSet is SETOF or TABLE (Table holds
	// TABLE's columns); HasReturns says RETURNS was written.
	HasReturns  bool
	Returns     sqltypes.Type
	ReturnsName string
	ReturnsSet  bool
	Table       []RoutineParam
	// Trigger is RETURNS trigger.
	Trigger bool
	// Options are CREATE's or ALTER's options.
	Options RoutineOptions
	// Body is the routine's code: AS's string, the statements of BEGIN
	// ATOMIC ... END (Atomic set), or RETURN's expression as SELECT expr
	// (Return set). Link is AS's second string (C functions' symbol).
	Body   string
	Atomic bool
	Return bool
	HasAS  bool
	// BodyPos is the 1-based position of the body in the statement.
	BodyPos int
	// bodyLiteral is the string literal Body was written as, if it was
	// one (TransposeBodyError).
	bodyLiteral string
	// NewName is RENAME TO's name or OWNER TO's role, or SET SCHEMA's
	// schema (SetSchema, read as RoutineRename: the binder makes NewName
	// the routine's key in that schema).
	NewName   string
	SetSchema bool
	// Call is CALL's call, parsed as SELECT name(args).
	Call *Statement
	// Revoke and Grantees are GRANT's and REVOKE's: the roles as
	// written ("public" for PUBLIC, CURRENT_USER and the like as those
	// words).
	Revoke   bool
	Grantees []string
	// Comment is COMMENT ON's text (RoutineComment).
	Comment string
	// EitherKind marks ROUTINE: the routine named may be a function or a
	// procedure.
	EitherKind bool
	// Aggregate marks CREATE and DROP AGGREGATE (aggregate.go): CREATE's
	// definition list.
	Aggregate *AggregateSpec
	// Operator and Cast mark CREATE and DROP OPERATOR and CAST
	// (operator.go).
	Operator *OperatorSpec
	Cast     *CastSpec
}

// Routine returns the routine CREATE defines or ALTER names.
func (rs *RoutineStatement) Routine() RoutineRef { return rs.Refs[0] }

// routineStmt parses the statements of RoutineStatement, or returns nil
// for another statement.
func (r *rewriter) routineStmt() (*RoutineStatement, error) {
	k := 0
	switch {
	case r.peek(0, "create"):
		k = 1
		replace := false
		if r.peek(1, "or") && r.peek(2, "replace") {
			k, replace = 3, true
		}
		if r.peek(k, "operator") && !r.peekAny(k+1, "class", "family") && !replace || r.peek(k, "cast") && !replace {
			return r.operatorStmt(true, r.peek(k, "cast"), k+1)
		}
		if r.peek(k, "aggregate") {
			rs := &RoutineStatement{Action: RoutineCreate, Replace: replace}
			return rs, r.createAggregate(rs, k+1)
		}
		if !r.peek(k, "function") && !r.peek(k, "procedure") {
			return nil, nil
		}
		rs := &RoutineStatement{Action: RoutineCreate, Replace: replace, Procedure: r.peek(k, "procedure")}
		return rs, r.createRoutine(rs, k+1)
	case r.peek(0, "drop") && (r.peek(1, "operator") && !r.peekAny(2, "class", "family") || r.peek(1, "cast")):
		return r.operatorStmt(false, r.peek(1, "cast"), 2)
	case r.peek(0, "alter") && (r.peek(1, "aggregate") || r.peek(1, "operator") && !r.peekAny(2, "class", "family")):
		return r.alterObject(r.peek(1, "operator"))
	case r.peek(0, "drop") && r.peek(1, "aggregate"):
		return r.dropAggregate(2)
	case r.peek(0, "drop") && (r.peek(1, "function") || r.peek(1, "procedure") || r.peek(1, "routine")):
		rs := &RoutineStatement{Action: RoutineDrop, Procedure: r.peek(1, "procedure")}
		k = 2
		if r.peek(k, "if") && r.peek(k+1, "exists") {
			rs.MissingOK, k = true, k+2
		}
		var err error
		if rs.Refs, k, err = r.routineRefs(k); err != nil {
			return nil, err
		}
		return rs, r.dropBehavior(rs, k)
	case r.peek(0, "alter") && (r.peek(1, "function") || r.peek(1, "procedure") || r.peek(1, "routine")):
		rs := &RoutineStatement{Procedure: r.peek(1, "procedure")}
		return rs, r.alterRoutine(rs)
	case r.peek(0, "call"):
		return r.callStmt()
	case r.peek(0, "grant") || r.peek(0, "revoke"):
		return r.routineGrant()
	case r.peek(0, "do"):
		rs := &RoutineStatement{Action: RoutineDo}
		k = 1
		for k < len(r.toks) {
			switch {
			case r.peek(k, "language"):
				l, err := r.name(k + 1)
				if err != nil {
					return nil, err
				}
				rs.Options.Language, k = l, k+2
			case r.toks[k].kind == tkString:
				rs.Body, rs.BodyPos, rs.HasAS, rs.bodyLiteral, k = r.toks[k].val, r.pos(k), true, r.sql[r.toks[k].start:r.toks[k].end], k+1
			default:
				return nil, r.syntaxErrorAt(k)
			}
		}
		if !rs.HasAS {
			return nil, pgerr.New(pgerr.SyntaxError, "no inline code specified")
		}
		if rs.Options.Language == "" {
			rs.Options.Language = "plpgsql"
		}
		return rs, nil
	}
	return nil, nil
}

// callStmt reads CALL name(args): the call parses as SELECT name(args),
// so its arguments take every expression form a query's do.
func (r *rewriter) callStmt() (*RoutineStatement, error) {
	rs := &RoutineStatement{Action: RoutineCall, Procedure: true}
	name, k, err := r.relationName(1)
	if err != nil {
		return nil, err
	}
	if !r.peek(k, "(") {
		return nil, r.syntaxErrorAt(k)
	}
	close := r.matching(k)
	if close < 0 {
		return nil, r.syntaxErrorAt(len(r.toks))
	}
	if close+1 < len(r.toks) {
		return nil, r.syntaxErrorAt(close + 1)
	}
	rs.Refs = []RoutineRef{{Name: name, Pos: r.pos(1)}}
	text := r.sql[r.toks[k].start:r.toks[close].end]
	stmts, err := Parse("SELECT " + quoteIdentIfNeeded(name) + text)
	if err != nil {
		if pe := pgerr.As(err); pe != nil && pe.Position > 0 {
			// Positions in the SELECT move back to the CALL's text.
			shift := r.pos(k) - 1 - len("SELECT ") - len(quoteIdentIfNeeded(name))
			return nil, pe.WithPosition(pe.Position + shift)
		}
		return nil, err
	}
	if len(stmts) != 1 {
		return nil, r.syntaxErrorAt(k)
	}
	rs.Call = &stmts[0]
	return rs, nil
}

// quoteIdentIfNeeded quotes name for SQL text unless it is a plain lower
// case word.
func quoteIdentIfNeeded(name string) string {
	for i, c := range name {
		if !(c == '_' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
		}
	}
	return name
}

// createRoutine reads CREATE FUNCTION's or PROCEDURE's rest from k: the
// name, the parameters, RETURNS and the options and body in any order.
func (r *rewriter) createRoutine(rs *RoutineStatement, k int) error {
	pos := r.pos(k)
	name, k, err := r.relationName(k)
	if err != nil {
		return err
	}
	rs.Refs = []RoutineRef{{Name: name, Pos: pos, HasArgs: true}}
	if !r.peek(k, "(") {
		return r.syntaxErrorAt(k)
	}
	if rs.Params, k, err = r.routineParams(k, true); err != nil {
		return err
	}
	rs.Refs[0].Args = rs.Params
	end := len(r.toks)
	for k < end {
		switch {
		case r.peek(k, "returns") && !rs.Procedure && !(r.peek(k+1, "null") && r.peek(k+2, "on")):
			if rs.HasReturns {
				return pgerr.New(pgerr.SyntaxError, "conflicting or redundant options").WithPosition(r.pos(k))
			}
			rs.HasReturns = true
			if k, err = r.routineReturns(rs, k+1); err != nil {
				return err
			}
		case r.peek(k, "as"):
			if rs.HasAS || rs.Atomic || rs.Return {
				return pgerr.New(pgerr.SyntaxError, "conflicting or redundant options").WithPosition(r.pos(k))
			}
			body, err := r.stringAt(k + 1)
			if err != nil {
				return err
			}
			rs.Body, rs.BodyPos, rs.HasAS, rs.bodyLiteral, k = body, r.pos(k+1), true, r.sql[r.toks[k+1].start:r.toks[k+1].end], k+2
			if r.peek(k, ",") {
				// AS 'obj_file', 'link_symbol' (C functions).
				if _, err := r.stringAt(k + 1); err != nil {
					return err
				}
				k += 2
			}
		case r.peek(k, "return"):
			if rs.HasAS || rs.Atomic || rs.Return {
				return pgerr.New(pgerr.SyntaxError, "conflicting or redundant options").WithPosition(r.pos(k))
			}
			stop := r.optionsEnd(k + 1)
			if stop == k+1 {
				return r.syntaxErrorAt(k + 1)
			}
			rs.Body = "SELECT " + r.sql[r.toks[k+1].start:r.toks[stop-1].end]
			rs.BodyPos, rs.Return, k = r.pos(k+1), true, stop
		case r.peek(k, "begin") && r.peek(k+1, "atomic"):
			if rs.HasAS || rs.Atomic || rs.Return {
				return pgerr.New(pgerr.SyntaxError, "conflicting or redundant options").WithPosition(r.pos(k))
			}
			stop := atomicEnd(r.toks, k+2)
			if stop < 0 {
				return r.syntaxErrorAt(len(r.toks))
			}
			if stop > k+2 {
				rs.Body = r.sql[r.toks[k+2].start:r.toks[stop-1].end]
			}
			rs.BodyPos, rs.Atomic, k = r.pos(k+2), true, stop+1
		default:
			next, err := r.routineOption(&rs.Options, k, false)
			if err != nil {
				return err
			}
			k = next
		}
	}
	if !rs.HasAS && !rs.Atomic && !rs.Return {
		return pgerr.New(pgerr.InvalidFunctionDefinition, "no function body specified")
	}
	if rs.Options.Language == "" {
		if rs.HasAS {
			return pgerr.New(pgerr.InvalidFunctionDefinition, "no language specified")
		}
		rs.Options.Language = "sql"
	}
	return nil
}

// optionsEnd is where RETURN's expression ends: at the next routine
// option at parenthesis depth zero, or the statement's end.
func (r *rewriter) optionsEnd(k int) int {
	depth := 0
	for ; k < len(r.toks); k++ {
		switch {
		case r.peek(k, "(") || r.peek(k, "["):
			depth++
		case r.peek(k, ")") || r.peek(k, "]"):
			depth--
		case depth == 0 && r.peekAny(k, "language", "immutable", "stable", "volatile", "strict", "security", "leakproof", "parallel", "cost"):
			return k
		}
	}
	return k
}

// atomicEnd returns the index of the END closing a BEGIN ATOMIC body whose
// statements start at k (CASE ... END nests inside it), or -1.
func atomicEnd(toks []token, k int) int {
	depth := 0
	for ; k < len(toks); k++ {
		switch {
		case toks[k].is("case"):
			depth++
		case toks[k].is("end"):
			if depth == 0 {
				return k
			}
			depth--
		}
	}
	return -1
}

// routineParams reads a parenthesized parameter list at k. create allows
// DEFAULT expressions.
func (r *rewriter) routineParams(k int, create bool) ([]RoutineParam, int, error) {
	var out []RoutineParam
	if r.peek(k+1, ")") {
		return nil, k + 2, nil
	}
	next, err := r.parenList(k, func(k int) (int, error) {
		p, next, err := r.routineParam(k, create)
		out = append(out, p)
		return next, err
	})
	return out, next, err
}

// routineParam reads one parameter at k: [mode] [name] type [DEFAULT
// expr | = expr], or name mode type.
func (r *rewriter) routineParam(k int, create bool) (RoutineParam, int, error) {
	p := RoutineParam{Mode: ModeIn}
	mode := func() bool {
		switch {
		case r.peek(k, "in") && r.peek(k+1, "out"):
			p.Mode, k = ModeInOut, k+2
		case r.peek(k, "in"):
			p.Mode, k = ModeIn, k+1
		case r.peek(k, "out"):
			p.Mode, k = ModeOut, k+1
		case r.peek(k, "inout"):
			p.Mode, k = ModeInOut, k+1
		case r.peek(k, "variadic"):
			p.Mode, k = ModeVariadic, k+1
		default:
			return false
		}
		return true
	}
	hadMode := mode()
	// A type followed by the parameter's end is an unnamed parameter;
	// otherwise the first word is its name.
	_, _, after, err := r.parseTypeRef(k)
	if err != nil || !r.paramEnd(after) {
		if k >= len(r.toks) || r.toks[k].kind != tkIdent && r.toks[k].kind != tkQIdent {
			return p, k, r.syntaxErrorAt(k)
		}
		p.Name, k = r.toks[k].val, k+1
		if !hadMode {
			mode()
		}
	}
	t, name, next, err := r.parseTypeRef(k)
	if err != nil {
		return p, k, err
	}
	if r.peek(next, "%") && r.peek(next+1, "type") {
		return p, k, pgerr.New(pgerr.FeatureNotSupported, "%%TYPE in a parameter's type is not supported").WithPosition(r.pos(next))
	}
	p.Type, p.TypeName, k = t, name, next
	if r.peek(k, "default") || r.peek(k, "=") {
		if !create {
			return p, k, r.syntaxErrorAt(k)
		}
		stop := k + 1
		for depth := 0; stop < len(r.toks); stop++ {
			if depth == 0 && (r.peek(stop, ",") || r.peek(stop, ")")) {
				break
			}
			switch {
			case r.peek(stop, "(") || r.peek(stop, "["):
				depth++
			case r.peek(stop, ")") || r.peek(stop, "]"):
				depth--
			}
		}
		if stop == k+1 {
			return p, k, r.syntaxErrorAt(stop)
		}
		p.Default, k = r.sql[r.toks[k+1].start:r.toks[stop-1].end], stop
	}
	return p, k, nil
}

// paramEnd reports whether a parameter's declaration ends at k.
func (r *rewriter) paramEnd(k int) bool {
	return r.peekAny(k, ",", ")", "default", "=")
}

// routineReturns reads RETURNS's type at k: [SETOF] type, TABLE (...),
// void, trigger or record.
func (r *rewriter) routineReturns(rs *RoutineStatement, k int) (int, error) {
	if r.peek(k, "table") && r.peek(k+1, "(") {
		cols, next, err := r.routineParams(k+1, false)
		if err != nil {
			return k, err
		}
		for i := range cols {
			if cols[i].Mode != ModeIn || cols[i].Name == "" {
				return k, r.syntaxErrorAt(k + 2)
			}
			cols[i].Mode = ModeTable
		}
		rs.Table, rs.ReturnsSet, rs.Returns = cols, true, sqltypes.Type{ID: sqltypes.Record}
		if len(cols) == 1 {
			rs.Returns, rs.ReturnsName = cols[0].Type, cols[0].TypeName
		}
		return next, nil
	}
	if r.peek(k, "setof") {
		rs.ReturnsSet, k = true, k+1
	}
	switch {
	case r.peek(k, "void"):
		rs.Returns = sqltypes.TypeVoid
		return k + 1, nil
	case r.peek(k, "record"):
		rs.Returns = sqltypes.Type{ID: sqltypes.Record}
		return k + 1, nil
	case r.peek(k, "trigger") && !rs.ReturnsSet:
		rs.Returns, rs.Trigger = sqltypes.TypeVoid, true
		return k + 1, nil
	case r.peek(k, "event_trigger"):
		return k, pgerr.New(pgerr.FeatureNotSupported, "event triggers are not supported").WithPosition(r.pos(k))
	}
	t, name, next, err := r.parseTypeRef(k)
	if err != nil {
		return k, err
	}
	if r.peek(next, "%") && r.peek(next+1, "type") {
		return k, pgerr.New(pgerr.FeatureNotSupported, "%%TYPE in a function's result type is not supported").WithPosition(r.pos(next))
	}
	rs.Returns, rs.ReturnsName = t, name
	return next, nil
}

// routineOption reads one option of CREATE or ALTER FUNCTION at k.
func (r *rewriter) routineOption(o *RoutineOptions, k int, alter bool) (int, error) {
	yes, no := true, false
	switch {
	case !alter && r.peek(k, "language"):
		l, err := r.name(k + 1)
		if err != nil {
			if k+1 < len(r.toks) && r.toks[k+1].kind == tkString {
				l, err = r.toks[k+1].val, nil
			} else {
				return k, err
			}
		}
		o.Language = strings.ToLower(l)
		return k + 2, nil
	case r.peekAny(k, "immutable", "stable", "volatile"):
		o.Volatility = r.toks[k].val[0]
		return k + 1, nil
	case r.peek(k, "strict"):
		o.Strict = &yes
		return k + 1, nil
	case r.peek(k, "called") && r.peek(k+1, "on") && r.peek(k+2, "null") && r.peek(k+3, "input"):
		o.Strict = &no
		return k + 4, nil
	case r.peek(k, "returns") && r.peek(k+1, "null") && r.peek(k+2, "on") && r.peek(k+3, "null") && r.peek(k+4, "input"):
		o.Strict = &yes
		return k + 5, nil
	case r.peek(k, "external") && r.peek(k+1, "security"), r.peek(k, "security"):
		if r.peek(k, "external") {
			k++
		}
		switch {
		case r.peek(k+1, "definer"):
			o.Definer = &yes
		case r.peek(k+1, "invoker"):
			o.Definer = &no
		default:
			return k, r.syntaxErrorAt(k + 1)
		}
		return k + 2, nil
	case r.peek(k, "leakproof"):
		o.Leakproof = &yes
		return k + 1, nil
	case r.peek(k, "not") && r.peek(k+1, "leakproof"):
		o.Leakproof = &no
		return k + 2, nil
	case r.peek(k, "parallel"):
		switch {
		case r.peekAny(k+1, "safe", "restricted", "unsafe"):
			o.Parallel = r.toks[k+1].val[0]
		default:
			return k, r.syntaxErrorAt(k + 1)
		}
		return k + 2, nil
	case r.peek(k, "cost") || r.peek(k, "rows"):
		if k+1 >= len(r.toks) || r.toks[k+1].kind != tkNumber {
			return k, r.syntaxErrorAt(k + 1)
		}
		v, err := strconv.ParseFloat(r.toks[k+1].val, 64)
		if err != nil || v <= 0 {
			what := "COST"
			if r.peek(k, "rows") {
				what = "ROWS"
			}
			return k, pgerr.New(pgerr.InvalidParameterValue, "%s must be positive", what)
		}
		if r.peek(k, "cost") {
			o.Cost = v
		} else {
			o.Rows = v
		}
		return k + 2, nil
	case r.peek(k, "set"):
		name, next, err := r.settingName(k + 1)
		if err != nil {
			return k, err
		}
		if r.peek(next, "from") && r.peek(next+1, "current") {
			return k, pgerr.New(pgerr.FeatureNotSupported, "SET %s FROM CURRENT on a function is not supported", name).WithPosition(r.pos(k))
		}
		if !r.peek(next, "to") && !r.peek(next, "=") {
			return k, r.syntaxErrorAt(next)
		}
		next++
		var vals []string
		for next < len(r.toks) {
			sign := ""
			if (r.peek(next, "-") || r.peek(next, "+")) && next+1 < len(r.toks) && r.toks[next+1].kind == tkNumber {
				sign = r.toks[next].val
				next++
			}
			t := r.toks[next]
			if t.kind != tkString && t.kind != tkIdent && t.kind != tkQIdent && t.kind != tkNumber {
				break
			}
			if t.kind == tkIdent && r.isRoutineOptionWord(next) {
				break
			}
			if sign == "-" {
				t.val = "-" + t.val
			}
			vals = append(vals, listQuoted(name, t, t.val))
			next++
			if !r.peek(next, ",") {
				break
			}
			next++
		}
		if len(vals) == 0 {
			return k, r.syntaxErrorAt(next)
		}
		if err := checkValueCount(name, vals); err != nil {
			return k, err
		}
		o.Config = append(o.Config, name+"="+strings.Join(vals, ", "))
		return next, nil
	case alter && r.peek(k, "reset"):
		if r.peek(k+1, "all") {
			o.Reset = append(o.Reset, "all")
			return k + 2, nil
		}
		name, next, err := r.settingName(k + 1)
		if err != nil {
			return k, err
		}
		o.Reset = append(o.Reset, name)
		return next, nil
	case !alter && r.peek(k, "window"):
		return k, pgerr.New(pgerr.FeatureNotSupported, "window functions written by users are not supported").WithPosition(r.pos(k))
	case !alter && r.peek(k, "transform"):
		return k, pgerr.New(pgerr.FeatureNotSupported, "TRANSFORM is not supported").WithPosition(r.pos(k))
	case r.peek(k, "support"):
		return k, pgerr.New(pgerr.FeatureNotSupported, "SUPPORT functions are not supported").WithPosition(r.pos(k))
	}
	return k, r.syntaxErrorAt(k)
}

// isRoutineOptionWord reports whether the word at k starts a routine
// option (ending a SET option's value list).
func (r *rewriter) isRoutineOptionWord(k int) bool {
	return r.peekAny(k, "language", "immutable", "stable", "volatile", "strict", "called", "returns", "security", "external",
		"leakproof", "not", "parallel", "cost", "rows", "set", "as", "return", "begin", "window", "support", "transform", "reset")
}

// routineRef reads name [(args)] at k.
func (r *rewriter) routineRef(k int) (RoutineRef, int, error) {
	ref := RoutineRef{Pos: r.pos(k)}
	name, k, err := r.relationName(k)
	if err != nil {
		return ref, k, err
	}
	ref.Name = name
	if r.peek(k, "(") {
		ref.HasArgs = true
		if ref.Args, k, err = r.routineParams(k, false); err != nil {
			return ref, k, err
		}
	}
	return ref, k, nil
}

// routineRefs reads ref [, ...] at k.
func (r *rewriter) routineRefs(k int) ([]RoutineRef, int, error) {
	var refs []RoutineRef
	for {
		ref, next, err := r.routineRef(k)
		if err != nil {
			return nil, k, err
		}
		refs, k = append(refs, ref), next
		if !r.peek(k, ",") {
			return refs, k, nil
		}
		k++
	}
}

// alterRoutine reads ALTER FUNCTION | PROCEDURE ref action.
func (r *rewriter) alterRoutine(rs *RoutineStatement) error {
	ref, k, err := r.routineRef(2)
	if err != nil {
		return err
	}
	rs.Refs = []RoutineRef{ref}
	switch {
	case r.peek(k, "rename") && r.peek(k+1, "to"):
		rs.Action = RoutineRename
	case r.peek(k, "owner") && r.peek(k+1, "to"):
		rs.Action = RoutineOwner
	case r.peek(k, "set") && r.peek(k+1, "schema"):
		rs.Action, rs.SetSchema = RoutineRename, true
	case r.peek(k, "depends") || r.peek(k, "no") && r.peek(k+1, "depends"):
		return pgerr.New(pgerr.FeatureNotSupported, "ALTER FUNCTION ... DEPENDS ON EXTENSION is not supported").WithPosition(r.pos(k))
	default:
		rs.Action = RoutineAlter
		for k < len(r.toks) && !r.peek(k, "restrict") {
			if k, err = r.routineOption(&rs.Options, k, true); err != nil {
				return err
			}
		}
		if r.peek(k, "restrict") {
			k++
		}
		if k < len(r.toks) {
			return r.syntaxErrorAt(k)
		}
		return nil
	}
	return r.newName(rs, k+2)
}

// newName reads RENAME TO's or OWNER TO's name at k, the statement's last
// word.
func (r *rewriter) newName(rs *RoutineStatement, k int) error {
	var err error
	if rs.NewName, err = r.name(k); err != nil {
		if rs.Action == RoutineOwner && r.peekAny(k, "current_user", "current_role", "session_user") {
			rs.NewName, err = r.toks[k].val, nil
		} else {
			return err
		}
	}
	if k+1 < len(r.toks) {
		return r.syntaxErrorAt(k + 1)
	}
	return nil
}

// routineGrant reads GRANT and REVOKE of EXECUTE on functions and
// procedures, or returns nil for another GRANT or REVOKE.
func (r *rewriter) routineGrant() (*RoutineStatement, error) {
	rs := &RoutineStatement{Action: RoutineGrant, Revoke: r.peek(0, "revoke")}
	k := 1
	switch {
	case r.peek(k, "execute"):
		k++
	case r.peek(k, "all"):
		k++
		if r.peek(k, "privileges") {
			k++
		}
	default:
		return nil, nil
	}
	allOf := r.peek(k+1, "all") && r.peekAny(k+2, "functions", "procedures", "routines")
	if !r.peek(k, "on") || !r.peekAny(k+1, "function", "procedure", "routine") && !allOf {
		return nil, nil
	}
	k++
	var err error
	if allOf {
		// ALL FUNCTIONS | PROCEDURES | ROUTINES IN SCHEMA s, ...
		rs.AllKind = r.toks[k+1].val
		if !r.peek(k+2, "in") || !r.peek(k+3, "schema") {
			return nil, r.syntaxErrorAt(k + 2)
		}
		for k += 4; ; k++ {
			sc, err := r.name(k)
			if err != nil {
				return nil, err
			}
			rs.AllIn, k = append(rs.AllIn, sc), k+1
			if !r.peek(k, ",") {
				break
			}
		}
	} else {
		rs.Procedure = r.peek(k, "procedure")
		k++
		if rs.Refs, k, err = r.routineRefs(k); err != nil {
			return nil, err
		}
	}
	if rs.Revoke && !r.peek(k, "from") || !rs.Revoke && !r.peek(k, "to") {
		return nil, r.syntaxErrorAt(k)
	}
	k++
	for {
		g, err := r.name(k)
		if err != nil {
			return nil, err
		}
		if r.toks[k].kind == tkQIdent && g == "public" {
			g = "\"public\"" // a role named public, not PUBLIC
		}
		rs.Grantees, k = append(rs.Grantees, g), k+1
		if !r.peek(k, ",") {
			break
		}
		k++
	}
	switch {
	case r.peek(k, "with") && r.peek(k+1, "grant") && r.peek(k+2, "option"):
		return nil, pgerr.New(pgerr.FeatureNotSupported, "GRANT OPTION is not supported").WithPosition(r.pos(k))
	case r.peek(k, "granted") && r.peek(k+1, "by"):
		return nil, pgerr.New(pgerr.FeatureNotSupported, "GRANTED BY is not supported").WithPosition(r.pos(k))
	case rs.Revoke && (r.peek(k, "cascade") || r.peek(k, "restrict")):
		k++
	}
	if k < len(r.toks) {
		return nil, r.syntaxErrorAt(k)
	}
	return rs, nil
}

// TransposeBodyError gives an error whose position is in the routine's
// body (its parse or its binding) the position in the statement, as
// PostgreSQL's function_parse_error_transpose does: through the body's
// string literal, dollar-quoted or quoted (a doubled quote is one
// character of the body). A body PostgreSQL could not match to its
// literal (an E” string) loses the position rather than point at the
// wrong text.
func (rs *RoutineStatement) TransposeBodyError(err error) error {
	pe := pgerr.As(err)
	if pe == nil || pe.Position <= 0 {
		return err
	}
	out := *pe
	out.Position = rs.bodyPosition(pe.Position)
	return &out
}

// bodyPosition is the statement position of pos, a 1-based character
// position in the body; 0 when the literal is not one it can follow. A
// body that was no literal (BEGIN ATOMIC, RETURN) was parsed with the
// statement, and its positions are the statement's already.
func (rs *RoutineStatement) bodyPosition(pos int) int {
	lit, prefix := rs.bodyLiteral, 0
	switch {
	case lit == "":
		return pos
	case lit[0] == '$':
		tag := lit[:strings.IndexByte(lit[1:], '$')+2]
		return rs.BodyPos + utf8.RuneCountInString(tag) + pos - 1
	case (lit[0] == 'E' || lit[0] == 'e') && !strings.Contains(lit, `\`):
		// E'...' without escapes reads as '...' does, a character on.
		lit, prefix = lit[1:], 1
	case lit[0] != '\'':
		return 0
	}
	chars := 1 // the opening quote
	for i, n := 1, 1; n < pos && i < len(lit)-1; n++ {
		r, size := utf8.DecodeRuneInString(lit[i:])
		if r == '\'' {
			size = 2 // '' in the literal, ' in the body
			chars++
		}
		i += size
		chars++
	}
	return rs.BodyPos + prefix + chars
}
