package ir

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Expr is a bound, typed scalar expression evaluated over one input row.
type Expr interface {
	// Type is the result type (Unknown for an untyped NULL).
	Type() sqltypes.Type
	// Eval computes the value for row.
	Eval(ctx *EvalContext, row []sqltypes.Value) (sqltypes.Value, error)
	// String renders the expression for EXPLAIN.
	String() string
	// AppendChildren appends the expression's direct sub-expressions to
	// dst and returns it. It is the allocation-free form of Children:
	// walks push children onto a stack they already hold.
	AppendChildren(dst []Expr) []Expr
	// WithChildren returns a copy of the expression with its direct
	// sub-expressions replaced by kids, given in AppendChildren's order.
	WithChildren(kids []Expr) Expr
}

// EvalContext carries what an expression needs beyond its row.
type EvalContext struct {
	Params []sqltypes.Value
	Now    time.Time
	// Outer is the stack of enclosing rows a correlated subquery or a
	// LATERAL item reads through OuterRef (innermost last).
	Outer [][]sqltypes.Value
	// Subplans evaluates the physical subplans the optimizer put in place
	// of subqueries (the executor provides it).
	Subplans SubplanRunner
	// Fn is what built-in functions see of the statement and session.
	Fn builtins.Context
}

// SubplanRunner runs a subquery's physical plan for the current outer row.
// Plan is the optimizer's node; the executor knows its type.
type SubplanRunner interface {
	RunSubplan(ctx *EvalContext, plan any, outer []sqltypes.Value) (SubplanResult, error)
}

// SubplanResult is what a subplan produced: its rows, read lazily. Next
// returns ok false at the end; Close releases the run.
type SubplanResult interface {
	Next() (row []sqltypes.Value, ok bool, err error)
	Close()
}

// ColRef reads column Index of the input row.
type ColRef struct {
	Index int
	Name  string
	Typ   sqltypes.Type
	// Relabeled marks a column of a domain read as its base type Typ
	// (PostgreSQL's RelabelType, which ruleutils prints as a cast:
	// (p)::integer + 1).
	Relabeled bool
}

// Const is a constant value.
type Const struct {
	V   sqltypes.Value
	Typ sqltypes.Type
	// From is the expression the binder folded into this constant (an
	// immutable call on constants, lower('ABC'); a typed constant's
	// implicit coercion), which PostgreSQL keeps unfolded in a stored
	// tree and ruleutils prints (Deparse); nil for a literal.
	From Expr
	// At is where the binder read an untyped literal: its offset in the
	// statement's parsed text plus one (0 when not known). An error of
	// reading it as the type its context gives it points there
	// (coerce_type's parser position); the binder maps it to the client's
	// text only then, as the mapping counts the characters before it.
	At int
}

// Param is the statement parameter $N (1-based).
type Param struct {
	N   int
	Typ sqltypes.Type
}

// BinOp is a binary operator.
type BinOp string

const OpAnd BinOp = "AND"

const OpOr BinOp = "OR"

const OpEq BinOp = "="

const OpNe BinOp = "<>"

const OpLt BinOp = "<"

const OpLe BinOp = "<="

const OpGt BinOp = ">"

const OpGe BinOp = ">="

const OpAdd BinOp = "+"

const OpSub BinOp = "-"

const OpMul BinOp = "*"

const OpDiv BinOp = "/"

const (
	OpMod BinOp = "%"
	OpPow BinOp = "^"
)

const OpConcat BinOp = "||"

// OpNotDistinct is IS NOT DISTINCT FROM: equality that treats two NULLs
// as equal and is never NULL itself.
const OpNotDistinct BinOp = "IS NOT DISTINCT FROM"

// Binary applies Op to L and R.
type Binary struct {
	Op   BinOp
	L, R Expr
	Typ  sqltypes.Type

	// fn computes an arithmetic operator: the overload of the operator
	// that binding resolved (see bindArith).
	Fn func(ctx *EvalContext, l, r sqltypes.Value) (sqltypes.Value, error)

	// Nested marks an AND that PostgreSQL keeps as a node of its own
	// (BETWEEN's), which Deparse does not flatten into an enclosing AND.
	Nested bool
	// Chain marks an AND or OR the binder added inside a chain of them
	// (a AND b AND c) to balance its tree: PostgreSQL keeps the chain as
	// one node of all its terms, which Deparse prints flat.
	Chain bool
}

// Not is logical negation.
type Not struct{ E Expr }

// Neg is arithmetic negation.
type Neg struct{ E Expr }

// IsNull tests E IS [NOT] NULL.
type IsNull struct {
	E   Expr
	Neg bool
	// Unknown: the test was spelled E IS [NOT] UNKNOWN (PostgreSQL's
	// boolean test, E is boolean), and deparses so.
	Unknown bool
}

// InList tests E [NOT] IN (List...).
type InList struct {
	E    Expr
	List []Expr
	Neg  bool

	// hashed indexes a list of constants of one kind (see newInList), so a
	// long IN list costs one probe per row instead of a comparison per item.
	hashed *constSet
}

// constSet is a hash set of constant values of one kind.
type constSet struct {
	kind    sqltypes.Kind
	buckets map[uint64][]sqltypes.Value
	hasNull bool
}

// minHashedIn is the list length from which IN probes a hash set.
const minHashedIn = 8

// NewInList returns e [NOT] IN (list...), indexing the list when it is long
// and made of constants of one kind.
func NewInList(e Expr, list []Expr, neg bool) *InList {
	in := &InList{E: e, List: list, Neg: neg}
	if len(list) < minHashedIn {
		return in
	}
	set := &constSet{kind: sqltypes.KindNull, buckets: make(map[uint64][]sqltypes.Value, len(list))}
	for _, item := range list {
		c, ok := item.(*Const)
		if !ok {
			return in
		}
		if c.V.IsNull() {
			set.hasNull = true
			continue
		}
		if set.kind == sqltypes.KindNull {
			set.kind = c.V.K
		} else if c.V.K != set.kind {
			return in
		}
		h := c.V.Hash(0)
		set.buckets[h] = append(set.buckets[h], c.V)
	}
	in.hashed = set
	return in
}

// Like tests E [NOT] LIKE/ILIKE Pattern.
type Like struct {
	E, Pattern      Expr
	Neg             bool
	CaseInsensitive bool
	Escape          byte
}

// Cast converts E to To. Explicit is CAST(E AS To) or E::To, written in
// the query (not a coercion the binder added).
type Cast struct {
	E        Expr
	To       sqltypes.Type
	Explicit bool
}

// Func is a call to a built-in scalar function.
type Func struct {
	Name string
	Args []Expr
	Typ  sqltypes.Type
	Fn   func(ctx *EvalContext, args []sqltypes.Value) (sqltypes.Value, error)
	// Strict2, when set, is what Fn computes for a strict function of two
	// arguments (most operators): the result of two non-NULL values. Eval
	// calls it directly, NULL when either value is, without building the
	// argument slice Fn takes or going through Fn's wrapping; an operator
	// evaluated a row is cheaper by a slice allocation and two calls.
	// Whoever replaces Fn clears it.
	Strict2 func(l, r sqltypes.Value) (sqltypes.Value, error)
	// lazy, when set, evaluates the arguments itself (CASE, COALESCE).
	Lazy func(ctx *EvalContext, row []sqltypes.Value, args []Expr) (sqltypes.Value, error)
	// volatile functions (now(), random()) are never constant-folded.
	Volatile bool
	// perCall marks PostgreSQL's volatile functions (random(),
	// clock_timestamp()): a new value at every call, where a stable one
	// (now()) keeps its value for the statement.
	PerCall bool
	// Routine marks a call of a user-defined function: the session's
	// routine runner evaluates it, whose transaction savepoints (an
	// exception block's) and state are one goroutine's, so a scan whose
	// filter calls one reads its shards one after another
	// (HasRoutineCall), as PostgreSQL plans no parallel scan under a
	// PARALLEL UNSAFE function.
	Routine bool
	// infix: an operator (||, ->, ...) printed as (l op r).
	Infix bool
	// Op is the operator of an op ANY/ALL (array) test (the functions
	// "any" and "all"), "=" for a simple CASE x WHEN v (each condition
	// is x = v), "IS [NOT] TRUE" or "IS [NOT] FALSE" for the COALESCE the
	// binder makes of that test (under a Not for IS NOT), "||" for
	// array_cat, array_append or array_prepend written as that operator,
	// and "TRIM" for btrim, ltrim or rtrim written TRIM(...), which
	// Deparse prints, and OpSQLSyntax for a call written in its
	// SQL-standard syntax (SUBSTRING(s FROM a FOR b), OVERLAY(...)),
	// and OpVariadic for a variadic function given its array whole.
	Op string
}

// OpVariadic is Func.Op of a call of a variadic function whose last
// argument was written VARIADIC, the array whole (ruleutils prints the
// VARIADIC of a FuncExpr's funcvariadic).
const OpVariadic = "VARIADIC"

// OpSQLSyntax is Func.Op of a call written in the SQL-standard syntax of
// its function (ruleutils' COERCE_SQL_SYNTAX).
const OpSQLSyntax = "SQL"

func (e *Func) Pure() bool { return !e.Volatile }

// HasRoutineCall reports whether e calls a user-defined function
// (Func.Routine).
func HasRoutineCall(e Expr) bool {
	found := false
	if e != nil {
		Walk(e, func(x Expr) {
			if f, ok := x.(*Func); ok && f.Routine {
				found = true
			}
		})
	}
	return found
}

// Type implementations.
func (e *ColRef) Type() sqltypes.Type { return e.Typ }

func (e *Const) Type() sqltypes.Type { return e.Typ }

func (e *Param) Type() sqltypes.Type { return e.Typ }

func (e *Binary) Type() sqltypes.Type { return e.Typ }

func (e *Not) Type() sqltypes.Type { return sqltypes.TypeBool }

func (e *Neg) Type() sqltypes.Type { return e.E.Type() }

func (e *IsNull) Type() sqltypes.Type { return sqltypes.TypeBool }

func (e *InList) Type() sqltypes.Type { return sqltypes.TypeBool }

func (e *Like) Type() sqltypes.Type { return sqltypes.TypeBool }

func (e *Cast) Type() sqltypes.Type { return e.To }

func (e *Func) Type() sqltypes.Type { return e.Typ }

func (e *ColRef) Eval(_ *EvalContext, row []sqltypes.Value) (sqltypes.Value, error) {
	return row[e.Index], nil
}

func (e *Const) Eval(*EvalContext, []sqltypes.Value) (sqltypes.Value, error) { return e.V, nil }

func (e *Param) Eval(ctx *EvalContext, _ []sqltypes.Value) (sqltypes.Value, error) {
	if ctx == nil || e.N > len(ctx.Params) {
		return sqltypes.Null, pgerr.New(pgerr.UndefinedParameter, "there is no parameter $%d", e.N)
	}
	return ctx.Params[e.N-1], nil
}

func (e *Binary) Eval(ctx *EvalContext, row []sqltypes.Value) (sqltypes.Value, error) {
	l, err := e.L.Eval(ctx, row)
	if err != nil {
		return l, err
	}
	switch e.Op {
	case OpAnd:
		if l.K == sqltypes.KindBool && !l.Bool() {
			return sqltypes.NewBool(false), nil
		}
		r, err := e.R.Eval(ctx, row)
		if err != nil {
			return r, err
		}
		if r.K == sqltypes.KindBool && !r.Bool() {
			return sqltypes.NewBool(false), nil
		}
		if l.IsNull() || r.IsNull() {
			return sqltypes.Null, nil
		}
		return sqltypes.NewBool(true), nil
	case OpNotDistinct:
		r, err := e.R.Eval(ctx, row)
		if err != nil {
			return r, err
		}
		if l.IsNull() || r.IsNull() {
			return sqltypes.NewBool(l.IsNull() && r.IsNull()), nil
		}
		return sqltypes.NewBool(sqltypes.Compare(l, r) == 0), nil
	case OpOr:
		if l.K == sqltypes.KindBool && l.Bool() {
			return sqltypes.NewBool(true), nil
		}
		r, err := e.R.Eval(ctx, row)
		if err != nil {
			return r, err
		}
		if r.K == sqltypes.KindBool && r.Bool() {
			return sqltypes.NewBool(true), nil
		}
		if l.IsNull() || r.IsNull() {
			return sqltypes.Null, nil
		}
		return sqltypes.NewBool(false), nil
	}
	r, err := e.R.Eval(ctx, row)
	if err != nil {
		return r, err
	}
	if l.IsNull() || r.IsNull() {
		return sqltypes.Null, nil
	}
	switch e.Op {
	case OpEq, OpNe, OpLt, OpLe, OpGt, OpGe:
		return sqltypes.NewBool(CompareHolds(e.Op, sqltypes.Compare(l, r))), nil
	case OpConcat:
		ls, rs := textOf(ctx, l), textOf(ctx, r)
		s, err := Concat(ls, rs)
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewText(s), nil
	}
	if e.Fn == nil {
		return sqltypes.Null, pgerr.New(pgerr.InternalError, "operator %s was not resolved", e.Op)
	}
	return e.Fn(ctx, l, r)
}

// textOf renders a value for ||, which in PostgreSQL accepts any non-array
// operand through its text output, in the session's output settings.
func textOf(ctx *EvalContext, v sqltypes.Value) string {
	if v.K == sqltypes.KindText {
		return v.S
	}
	var st sqltypes.Style
	if ctx != nil {
		st = ctx.Fn.OutputStyle()
	}
	return string(sqltypes.AppendTextStyled(nil, sqltypes.Type{}, v, st))
}

// CompareHolds reports whether the comparison op holds between two values
// whose three-way comparison is c (negative, zero or positive); false for
// an op that is no comparison.
func CompareHolds(op BinOp, c int) bool {
	switch op {
	case OpEq:
		return c == 0
	case OpNe:
		return c != 0
	case OpLt:
		return c < 0
	case OpLe:
		return c <= 0
	case OpGt:
		return c > 0
	case OpGe:
		return c >= 0
	}
	return false
}

func (e *Not) Eval(ctx *EvalContext, row []sqltypes.Value) (sqltypes.Value, error) {
	v, err := e.E.Eval(ctx, row)
	if err != nil || v.IsNull() {
		return v, err
	}
	return sqltypes.NewBool(!v.Bool()), nil
}

func (e *Neg) Eval(ctx *EvalContext, row []sqltypes.Value) (sqltypes.Value, error) {
	v, err := e.E.Eval(ctx, row)
	if err != nil || v.IsNull() {
		return v, err
	}
	return negate(v, e.Type())
}

// negate is prefix minus over the kinds that have it (PostgreSQL's int2um
// ... interval_um).
func negate(v sqltypes.Value, t sqltypes.Type) (sqltypes.Value, error) {
	switch v.K {
	case sqltypes.KindInt:
		return builtins.IntArith('-', 0, v.I, t)
	case sqltypes.KindFloat:
		return sqltypes.NewFloat(-v.F), nil
	case sqltypes.KindNumeric:
		return sqltypes.NegNumeric(v), nil
	case sqltypes.KindInterval:
		iv, err := sqltypes.NegInterval(v.Interval())
		return sqltypes.NewInterval(iv), err
	}
	return sqltypes.Null, pgerr.New(pgerr.UndefinedFunction, "operator does not exist: - %s", t)
}

func (e *IsNull) Eval(ctx *EvalContext, row []sqltypes.Value) (sqltypes.Value, error) {
	v, err := e.E.Eval(ctx, row)
	if err != nil {
		return v, err
	}
	return sqltypes.NewBool(v.IsNull() != e.Neg), nil
}

func (e *InList) Eval(ctx *EvalContext, row []sqltypes.Value) (sqltypes.Value, error) {
	v, err := e.E.Eval(ctx, row)
	if err != nil || v.IsNull() {
		return sqltypes.Null, err
	}
	if set := e.hashed; set != nil && v.K == set.kind {
		for _, w := range set.buckets[v.Hash(0)] {
			if sqltypes.Compare(v, w) == 0 {
				return sqltypes.NewBool(!e.Neg), nil
			}
		}
		if set.hasNull {
			return sqltypes.Null, nil
		}
		return sqltypes.NewBool(e.Neg), nil
	}
	sawNull := false
	for _, item := range e.List {
		w, err := item.Eval(ctx, row)
		if err != nil {
			return w, err
		}
		if w.IsNull() {
			sawNull = true
			continue
		}
		if sqltypes.Compare(v, w) == 0 {
			return sqltypes.NewBool(!e.Neg), nil
		}
	}
	if sawNull {
		return sqltypes.Null, nil
	}
	return sqltypes.NewBool(e.Neg), nil
}

func (e *Like) Eval(ctx *EvalContext, row []sqltypes.Value) (sqltypes.Value, error) {
	v, err := e.E.Eval(ctx, row)
	if err != nil || v.IsNull() {
		return sqltypes.Null, err
	}
	p, err := e.Pattern.Eval(ctx, row)
	if err != nil || p.IsNull() {
		return sqltypes.Null, err
	}
	s, pat := textOf(ctx, v), textOf(ctx, p)
	if e.CaseInsensitive {
		s, pat = strings.ToLower(s), strings.ToLower(pat)
	}
	esc := e.Escape
	if esc == 0 {
		esc = '\\'
	}
	m, err := builtins.LikeMatch([]rune(s), []rune(pat), rune(esc))
	if err != nil {
		return sqltypes.Null, err
	}
	return sqltypes.NewBool(m != e.Neg), nil
}

// LikePrefix returns the literal prefix of a LIKE pattern (before the first
// wildcard) and whether the pattern is exactly that prefix followed by a
// single trailing %; the optimizer turns such patterns into key ranges.
func LikePrefix(pat string, esc byte) (prefix string, onlyTrailingPercent bool) {
	if esc == 0 {
		esc = '\\'
	}
	var b strings.Builder
	for i := 0; i < len(pat); i++ {
		c := pat[i]
		switch {
		case c == esc && i+1 < len(pat):
			i++
			b.WriteByte(pat[i])
		case c == '%':
			return b.String(), i == len(pat)-1
		case c == '_':
			return b.String(), false
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), false
}

func (e *Cast) Eval(ctx *EvalContext, row []sqltypes.Value) (sqltypes.Value, error) {
	v, err := e.E.Eval(ctx, row)
	if err != nil {
		return v, err
	}
	if v.K == sqltypes.KindGeometry && !v.IsGeography() && e.To.ID == sqltypes.Geometry && e.To.Width == 0 && e.To.Domain == nil {
		// A geometry column's value given to a function of geometry
		// (its typmod dropped): the same value, for every row a spatial
		// filter reads.
		return v, nil
	}
	var st sqltypes.Style
	if ctx != nil {
		st = ctx.Fn.Style
		st.Location = ctx.Fn.Location
	}
	return CastValueStyled(v, e.E.Type(), e.To, e.Explicit, st)
}

func (e *Func) Eval(ctx *EvalContext, row []sqltypes.Value) (sqltypes.Value, error) {
	switch {
	case e.Lazy != nil:
		return e.Lazy(ctx, row, e.Args)
	case e.Strict2 != nil:
		l, err := e.Args[0].Eval(ctx, row)
		if err != nil {
			return l, err
		}
		return e.evalStrict2(ctx, row, l)
	}
	return e.EvalWith(ctx, row, make([]sqltypes.Value, len(e.Args)))
}

// evalStrict2 evaluates the right argument and applies Strict2 to l and
// it. Both arguments are evaluated before NULL is returned for either, as
// PostgreSQL's strict call does: an error of the right one is not hidden
// by a NULL on the left.
func (e *Func) evalStrict2(ctx *EvalContext, row []sqltypes.Value, l sqltypes.Value) (sqltypes.Value, error) {
	r, err := e.Args[1].Eval(ctx, row)
	if err != nil {
		return r, err
	}
	if l.IsNull() || r.IsNull() {
		return sqltypes.Null, nil
	}
	return e.Strict2(l, r)
}

// EvalWith is Eval with args, of len(e.Args), as the buffer of the
// arguments' values: a caller evaluating e over many rows (a
// nearest-neighbour search's distance for each entry it reads) reuses one
// where Eval allocates one a call. Fn must keep no reference to args past
// the call (builtins' operators take their arguments' values).
func (e *Func) EvalWith(ctx *EvalContext, row, args []sqltypes.Value) (sqltypes.Value, error) {
	return e.EvalFixed(ctx, row, args, -1, sqltypes.Null)
}

// EvalFixed is EvalWith with the argument at index fixed taken as v, not
// evaluated: a caller evaluating e over many rows whose argument there is
// the same for all of them (a nearest-neighbour search's centre, a
// statement constant it has evaluated once) saves its evaluation a row.
// A fixed of -1 fixes none.
func (e *Func) EvalFixed(ctx *EvalContext, row, args []sqltypes.Value, fixed int, fixedVal sqltypes.Value) (sqltypes.Value, error) {
	if e.Lazy != nil {
		return e.Lazy(ctx, row, e.Args)
	}
	if e.Strict2 != nil && fixed == 0 {
		return e.evalStrict2(ctx, row, fixedVal)
	}
	for i, a := range e.Args {
		if i == fixed {
			args[i] = fixedVal
			continue
		}
		v, err := a.Eval(ctx, row)
		if err != nil {
			return v, err
		}
		args[i] = v
	}
	return e.Fn(ctx, args)
}

func (e *ColRef) String() string { return e.Name }

func (e *Const) String() string {
	switch e.V.K {
	case sqltypes.KindNull:
		// As PostgreSQL's EXPLAIN shows a typed NULL.
		if e.Typ.ID != sqltypes.Unknown {
			return "NULL::" + e.Typ.String()
		}
		return "NULL"
	case sqltypes.KindInt, sqltypes.KindFloat, sqltypes.KindBool:
		return sqltypes.FormatText(e.V)
	case sqltypes.KindNumeric:
		if s := sqltypes.FormatText(e.V); s != "NaN" && s != "Infinity" && s != "-Infinity" {
			return s
		}
	}
	return "'" + strings.ReplaceAll(sqltypes.FormatText(e.V), "'", "''") + "'"
}

func (e *Param) String() string { return fmt.Sprintf("$%d", e.N) }

func (e *Binary) String() string {
	return "(" + e.L.String() + " " + string(e.Op) + " " + e.R.String() + ")"
}

func (e *Not) String() string { return "(NOT " + e.E.String() + ")" }

func (e *Neg) String() string { return "(-" + e.E.String() + ")" }

func (e *IsNull) String() string {
	if e.Neg {
		return "(" + e.E.String() + " IS NOT NULL)"
	}
	return "(" + e.E.String() + " IS NULL)"
}

func (e *InList) String() string {
	parts := make([]string, len(e.List))
	for i, x := range e.List {
		parts[i] = x.String()
	}
	op := " IN ("
	if e.Neg {
		op = " NOT IN ("
	}
	return "(" + e.E.String() + op + strings.Join(parts, ", ") + "))"
}

func (e *Like) String() string {
	op := " LIKE "
	if e.CaseInsensitive {
		op = " ILIKE "
	}
	if e.Neg {
		op = " NOT" + op
	}
	return "(" + e.E.String() + op + e.Pattern.String() + ")"
}

func (e *Cast) String() string { return e.E.String() + "::" + e.To.String() }

func (e *Func) String() string {
	parts := make([]string, len(e.Args))
	for i, x := range e.Args {
		parts[i] = x.String()
	}
	if e.Infix && len(parts) == 2 {
		return "(" + parts[0] + " " + e.Name + " " + parts[1] + ")"
	}
	return e.Name + "(" + strings.Join(parts, ", ") + ")"
}

// Children returns e's direct sub-expressions.
func Children(e Expr) []Expr { return e.AppendChildren(nil) }

func (e *Binary) AppendChildren(dst []Expr) []Expr { return append(dst, e.L, e.R) }

func (e *Not) AppendChildren(dst []Expr) []Expr { return append(dst, e.E) }

func (e *Neg) AppendChildren(dst []Expr) []Expr { return append(dst, e.E) }

func (e *IsNull) AppendChildren(dst []Expr) []Expr { return append(dst, e.E) }

func (e *InList) AppendChildren(dst []Expr) []Expr { return append(append(dst, e.E), e.List...) }

func (e *Like) AppendChildren(dst []Expr) []Expr { return append(dst, e.E, e.Pattern) }

func (e *Cast) AppendChildren(dst []Expr) []Expr { return append(dst, e.E) }

func (e *Func) AppendChildren(dst []Expr) []Expr { return append(dst, e.Args...) }

func (e *ColRef) AppendChildren(dst []Expr) []Expr { return dst }

func (e *Const) AppendChildren(dst []Expr) []Expr { return dst }

func (e *Param) AppendChildren(dst []Expr) []Expr { return dst }

func (e *Binary) WithChildren(kids []Expr) Expr {
	c := *e
	c.L, c.R = kids[0], kids[1]
	return &c
}

func (e *Not) WithChildren(kids []Expr) Expr { return &Not{E: kids[0]} }

func (e *Neg) WithChildren(kids []Expr) Expr { return &Neg{E: kids[0]} }

func (e *IsNull) WithChildren(kids []Expr) Expr { return &IsNull{E: kids[0], Neg: e.Neg} }

// WithChildren builds the list again, so its constant set is made for the
// new items.
func (e *InList) WithChildren(kids []Expr) Expr { return NewInList(kids[0], kids[1:], e.Neg) }

func (e *Like) WithChildren(kids []Expr) Expr {
	c := *e
	c.E, c.Pattern = kids[0], kids[1]
	return &c
}

func (e *Cast) WithChildren(kids []Expr) Expr {
	return &Cast{E: kids[0], To: e.To, Explicit: e.Explicit}
}

func (e *Func) WithChildren(kids []Expr) Expr {
	c := *e
	c.Args = kids
	return &c
}

func (e *ColRef) WithChildren([]Expr) Expr { return e }

func (e *Const) WithChildren([]Expr) Expr { return e }

func (e *Param) WithChildren([]Expr) Expr { return e }

// Walk calls fn for e and every sub-expression, parents before children. It
// keeps its own stack, so the depth of e costs heap, not goroutine stack.
func Walk(e Expr, fn func(Expr)) {
	if e == nil {
		return
	}
	// The planner walks every statement's expressions several times: a
	// pooled stack and children pushed in place keep a walk free of
	// allocations (a stack array of the walk's own escapes to the heap
	// through AppendChildren, an interface call).
	sp := walkStacks.Get().(*[]Expr)
	stack := append((*sp)[:0], e)
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		fn(x)
		stack = pushChildren(stack, x)
	}
	clear(stack[:cap(stack)])
	*sp = stack[:0]
	walkStacks.Put(sp)
}

// walkStacks are Walk's stacks.
var walkStacks = sync.Pool{New: func() any {
	s := make([]Expr, 0, 32)
	return &s
}}

// pushChildren appends e's sub-expressions to stack in reverse, so the
// first is popped first, skipping nil ones.
func pushChildren(stack []Expr, e Expr) []Expr {
	n := len(stack)
	stack = e.AppendChildren(stack)
	kids := stack[n:]
	for i, j := 0, len(kids)-1; i < j; i, j = i+1, j-1 {
		kids[i], kids[j] = kids[j], kids[i]
	}
	// Drop nil children (an absent operand) in place.
	out := stack[:n]
	for _, k := range kids {
		if k != nil {
			out = append(out, k)
		}
	}
	return out
}

// IsConstant reports whether e references no column (it may reference
// parameters, whose values are fixed for one execution).
func IsConstant(e Expr) bool {
	ok := true
	Walk(e, func(x Expr) {
		switch x.(type) {
		case *ColRef, *OuterRef, *Subquery:
			ok = false
		}
	})
	return ok
}

// IsStatementConstant reports whether e has one value for the whole
// execution of a statement: it references no column and calls no volatile
// function (now() qualifies, random() does not), so the optimizer may
// evaluate it once, for a key range.
func IsStatementConstant(e Expr) bool {
	switch e.(type) {
	case *Const, *Param:
		return true // a key lookup's every value: no walk
	}
	ok := true
	Walk(e, func(x Expr) {
		switch x := x.(type) {
		case *ColRef, *OuterRef, *Subquery:
			ok = false
		case *Func:
			if x.PerCall {
				ok = false
			}
		case RowReader:
			if x.ReadsRow() {
				ok = false
			}
		}
	})
	return ok
}

// RowReader is an expression that walks see as a leaf but that may read
// the row it is evaluated over: a planned subquery (optimizer.SubPlan),
// whose left operand (x IN (SELECT ...)) or outer references do.
type RowReader interface {
	ReadsRow() bool
}

// Columns returns the distinct column ordinals e references.
func Columns(e Expr) []int {
	var out []int
	seen := map[int]bool{}
	Walk(e, func(x Expr) {
		if c, ok := x.(*ColRef); ok && !seen[c.Index] {
			seen[c.Index] = true
			out = append(out, c.Index)
		}
	})
	return out
}

// Conjuncts splits e on AND. A conjunct that calls an operator's
// function by name (jsonb_exists(doc, 'k')) is given as its operator, so
// the optimizer can serve it from an index as it serves doc ? 'k'.
func Conjuncts(e Expr) []Expr {
	out := splitOn(e, OpAnd)
	for i, x := range out {
		if oc, ok := x.(*OperatorCall); ok {
			out[i] = oc.E
		}
	}
	return out
}

// Disjuncts splits e on OR.
func Disjuncts(e Expr) []Expr { return splitOn(e, OpOr) }

// splitOn flattens nested applications of op, left to right, without
// recursion: a WHERE clause may hold tens of thousands of them.
func splitOn(e Expr, op BinOp) []Expr {
	if e == nil {
		return nil
	}
	var out []Expr
	stack := []Expr{e}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if b, ok := x.(*Binary); ok && b.Op == op {
			stack = append(stack, b.R, b.L)
			continue
		}
		out = append(out, x)
	}
	return out
}

// Truthy reports whether a filter result admits the row (NULL does not).
func Truthy(v sqltypes.Value) bool { return v.K == sqltypes.KindBool && v.I != 0 }

// IsVolatile reports whether a function call may return a different value
// each time (now(), random()): it is not folded or moved.
func IsVolatile(f *Func) bool { return f.Volatile }

// Failed is a constant expression whose evaluation failed when the binder
// folded it (1/0, '2024-13-01'::date + 1 ...). PostgreSQL's planner folds
// constants when a statement is planned, so the error belongs to running
// the statement, never to preparing or describing it: the binder keeps
// the expression as Failed, and PlanErr raises the error before the
// statement's first row (before its RowDescription, as PostgreSQL sends
// none for such a query).
type Failed struct {
	E   Expr
	Err error
}

// Type implements Expr.
func (f *Failed) Type() sqltypes.Type { return f.E.Type() }

// Eval implements Expr: the folding's error.
func (f *Failed) Eval(*EvalContext, []sqltypes.Value) (sqltypes.Value, error) {
	return sqltypes.Null, f.Err
}

// String implements Expr.
func (f *Failed) String() string { return f.E.String() }

// AppendChildren implements Expr: a Failed is a leaf, its operands
// already folded as far as they go.
func (f *Failed) AppendChildren(dst []Expr) []Expr { return dst }

// WithChildren implements Expr.
func (f *Failed) WithChildren([]Expr) Expr { return f }

// Collate is e COLLATE name: e's value, marked with the collation it was
// given (every collation zproxy accepts compares bytewise), which Deparse
// prints again.
func Collate(e Expr, name string) Expr {
	return &Func{Name: collatePrefix + name, Args: []Expr{e}, Typ: e.Type(),
		Fn: func(_ *EvalContext, a []sqltypes.Value) (sqltypes.Value, error) { return a[0], nil }}
}

// collatePrefix starts the name of Collate's Func; the collation follows,
// so x COLLATE "C" and x COLLATE "POSIX" are different expressions (an
// ORDER BY matching the select list).
const collatePrefix = "pg_catalog.collate:"

// CollateName is the collation of e COLLATE name, and whether e is one.
func CollateName(e Expr) (string, bool) {
	f, ok := e.(*Func)
	if !ok || len(f.Args) != 1 {
		return "", false
	}
	return strings.CutPrefix(f.Name, collatePrefix)
}
