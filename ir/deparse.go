package ir

import (
	"strconv"
	"strings"
	"time"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Deparse prints a bound expression as PostgreSQL's ruleutils prints a
// stored expression without pretty parentheses (pg_get_expr(e, rel),
// pg_get_indexdef, pg_get_constraintdef(oid)): every operator expression
// parenthesized, constants with their type ('x'::text), casts as
// (x)::type, implicit coercions shown where ruleutils shows them. The text
// binds back to the same expression in any session (a timestamptz
// constant carries its offset), which is why expression and partial
// indexes keep it. ok is false for an expression it cannot print
// faithfully; the caller then keeps the text as written.
func Deparse(e Expr) (s string, ok bool) { return DeparseMode(e, false) }

// DeparseMode is Deparse, or with pretty the pretty form (pg_get_expr(e,
// rel, true), pg_get_constraintdef(oid, true)): parentheses only where
// ruleutils' isSimpleNode finds the operand not simple in its parent.
func DeparseMode(e Expr, pretty bool) (s string, ok bool) {
	return DeparseNamed(e, pretty, nil)
}

// DeparseNamed is DeparseMode with the names of relations, routines and
// user-defined types printed as names sees them (nil: by their keys,
// bare in public).
func DeparseNamed(e Expr, pretty bool, names Namer) (s string, ok bool) {
	d := deparser{pretty: pretty, names: names}
	d.expr(e)
	return d.b.String(), !d.failed
}

// Namer prints the names of schema objects in deparsed text as the
// deparsing session's search path sees them, bare when the bare name
// finds the object and qualified otherwise, as ruleutils'
// generate_relation_name, generate_function_name and format_type do, so
// that the text binds back to the same objects under that path (pg_dump
// deparses with an empty one). Keys are the catalog's ("s.t"; bare in
// public). catalog.Names is the implementation.
type Namer interface {
	// Relation names a table, view, sequence or materialized view
	// (temp: one of the session's temporary relations).
	Relation(key string, temp bool) string
	// Routine names a function, procedure or aggregate; a name no user
	// routine has is a built-in's, printed as it is.
	Routine(key string) string
	// Type names a user-defined type.
	Type(key string) string
	// Operator names the user-defined operator stored under key, of kind
	// 'b' (infix) or 'l' (prefix, left the zero type), over those operand
	// types: bare when the bare name finds it, else OPERATOR(schema.op).
	Operator(key string, kind byte, left, right sqltypes.Type) string
}

// UserOperatorName is the name a Func printed as a user-defined operator
// carries: its catalog key in OPERATOR(), which the deparser prints
// through its Namer (Namer.Operator).
func UserOperatorName(key string) string { return "OPERATOR(" + key + ")" }

// operatorName prints the operator a Func is named by: a user-defined
// one (UserOperatorName) as d's Namer sees it, any other as it is.
func (d *deparser) operatorName(x *Func) string {
	key, ok := strings.CutPrefix(x.Name, "OPERATOR(")
	if !ok || !strings.HasSuffix(key, ")") {
		return x.Name
	}
	key = key[:len(key)-1]
	if d.names == nil {
		return key[strings.LastIndexByte(key, '.')+1:]
	}
	if len(x.Args) == 1 {
		return d.names.Operator(key, 'l', sqltypes.Type{}, x.Args[0].Type())
	}
	return d.names.Operator(key, 'b', x.Args[0].Type(), x.Args[1].Type())
}

// RegNamer is a Namer that also names the object an OID of a reg* type
// denotes ('t'::regclass), as that type's output prints it for the
// deparsing session ("" when there is none).
type RegNamer interface {
	Namer
	RegName(t sqltypes.Type, oid uint32) string
}

// relationName prints a relation stored under key.
func (d *deparser) relationName(key string, temp bool) string {
	if d.names == nil {
		return catalog.QuoteKey(key)
	}
	return d.names.Relation(key, temp)
}

// routineName prints a call's function or aggregate name.
func (d *deparser) routineName(key string) string {
	if d.names == nil {
		return sqltypes.QuoteKey(key) // a user schema's routine is keyed s.f
	}
	return d.names.Routine(key)
}

// typeName prints a type, a user-defined type (or an array of one) as
// d's Namer sees it.
func (d *deparser) typeName(t sqltypes.Type) string {
	if d.names == nil {
		return t.String()
	}
	if key, ok := userTypeKey(t); ok {
		return d.names.Type(key)
	}
	if t.ID == sqltypes.Array {
		if _, ok := userTypeKey(t.ElemType()); ok {
			return d.typeName(t.ElemType()) + "[]"
		}
	}
	base := t
	if t.ID == sqltypes.Array {
		base = t.ElemType()
	}
	if base.ID.IsExtension() {
		// An extension's type lives in public, which the path may leave
		// out: public.geometry(Point,4326), modifiers and brackets kept.
		name := base.UnmodifiedName()
		return d.names.Type(name) + strings.TrimPrefix(t.String(), name)
	}
	return t.String()
}

// userTypeKey is the catalog key of the user-defined type t is.
func userTypeKey(t sqltypes.Type) (string, bool) {
	switch {
	case t.IsDomain():
		return t.Domain.Name, true
	case t.ID == sqltypes.Enum && t.Enum != nil:
		return t.Enum.Name, true
	case t.ID == sqltypes.Record && t.Composite.Named():
		return t.Composite.Name, true
	case t.ID == sqltypes.UserRange && t.Range != nil:
		return t.Range.Name, true
	case t.ID == sqltypes.UserMultirange && t.Range != nil:
		return t.Range.MultiName, true
	}
	return "", false
}

type deparser struct {
	b strings.Builder
	// names prints the names of schema objects (nil: by their keys).
	names  Namer
	failed bool
	pretty bool
	// indent is ruleutils' indentLevel: CASE moves its WHEN and ELSE
	// lines in by four.
	indent int
	// cols, when set, prints a column reference of a query by its index
	// in the input row (ref.column, or an aggregate's text).
	cols func(i int) (string, bool)
	// outer are the rows of the queries around the one printed, the
	// nearest last: an OuterRef of depth n reads outer[len-n].
	outer []func(i int) (string, bool)
	// notes are the binder's notes of how the query was written.
	notes *QueryNotes
	// hideUnnamed: the query's column names are not visible (a
	// subquery's in an expression), so a column named ?column? needs no
	// label (ruleutils' colNamesVisible false).
	hideUnnamed bool
	// used are the relation names of the queries around this one and of
	// its own FROM, which a nested query's names must differ from; refs
	// are the names of this query's FROM items (nameLevel).
	used []string
	refs map[Rel]string
	// lateralRight is the right side of the LATERAL join being printed.
	lateralRight Rel
}

func (d *deparser) w(s string) { d.b.WriteString(s) }

// open and close are the parentheses ruleutils writes around an
// operator, boolean or test expression unless it prints pretty.
func (d *deparser) open() {
	if !d.pretty {
		d.w("(")
	}
}

func (d *deparser) close() {
	if !d.pretty {
		d.w(")")
	}
}

// keyword starts a new line, as ruleutils' appendContextKeyword does in
// its indenting mode (every pg_get_* function prints with it): trailing
// spaces go, the indent moves by before, the keyword follows the indent
// plus plus, and the indent then moves by after.
func (d *deparser) keyword(s string, before, after, plus int) {
	cur := strings.TrimRight(d.b.String(), " ")
	d.b.Reset()
	d.w(cur)
	d.w("\n")
	d.indent += before
	if n := d.indent + plus; n > 0 {
		d.w(strings.Repeat(" ", n))
	}
	d.w(s)
	d.indent += after
}

// nodeKind classifies an expression as ruleutils' node tags do, for the
// parenthesization rules.
type nodeKind int

const (
	kindWord  nodeKind = iota // a column, a constant, a parameter
	kindFunc                  // name(...), COALESCE(...), ARRAY[...], CASE ... END
	kindCast                  // arg::type (RelabelType, CoerceViaIO, a cast function)
	kindOp                    // an operator (OpExpr)
	kindTest                  // IS [NOT] NULL, IS DISTINCT FROM (NullTest, DistinctExpr)
	kindBool                  // AND, OR, NOT (BoolExpr)
	kindOther                 // = ANY (ARRAY[...]) and what ruleutils does not know
)

// kindOf is e's node kind; op is an operator's name when it is binary.
func kindOf(e Expr) (k nodeKind, op string) {
	switch x := e.(type) {
	case *ColRef, *Param, *OuterRef:
		return kindWord, ""
	case *Subquery:
		// ruleutils' isSimpleNode takes a SubLink as it takes a NullTest.
		if x.Neg {
			return kindBool, ""
		}
		return kindTest, ""
	case *Const:
		if x.From != nil {
			return kindOf(x.From)
		}
		return kindWord, ""
	case *Cast:
		if c, ok := x.E.(*Const); ok && c.Typ.ID == sqltypes.Unknown {
			return kindWord, ""
		}
		if lengthOnlyCast(x) {
			return kindOf(x.E)
		}
		return kindCast, ""
	case *Binary:
		switch x.Op {
		case OpAnd, OpOr:
			return kindBool, ""
		case OpNotDistinct:
			return kindBool, "" // NOT (a IS DISTINCT FROM b)
		}
		return kindOp, string(x.Op)
	case *Not:
		if b, ok := x.E.(*Binary); ok && b.Op == OpNotDistinct {
			return kindTest, ""
		}
		if f, ok := x.E.(*Func); ok && truthTest(f) != nil && strings.HasPrefix(f.Op, "IS NOT") {
			return kindTest, ""
		}
		return kindBool, ""
	case *Neg:
		return kindOp, ""
	case *IsNull:
		return kindTest, ""
	case *Like:
		return kindOp, likeOp(x)
	case *InList:
		return kindOther, ""
	case *OperatorCall:
		return kindFunc, ""
	case *Func:
		if _, ok := CollateName(x); ok {
			return kindOther, "" // CollateExpr: never simple
		}
		if regCast(x) {
			return kindCast, ""
		}
		if x.Op == "||" && len(x.Args) == 2 {
			return kindOp, "||"
		}
		if truthTest(x) != nil {
			return kindTest, ""
		}
		if (x.Infix || isOperatorName(x.Name)) && len(x.Args) == 2 || isOperatorName(x.Name) && len(x.Args) == 1 {
			return kindOp, x.Name // (a prefix operator is no binary one: its operand and it as one take parentheses)
		}
		if (x.Name == "any" || x.Name == "all") && x.Op != "" {
			return kindOther, ""
		}
		return kindFunc, ""
	}
	return kindOther, ""
}

// lengthOnlyCast reports whether c only drops its operand's length or
// precision (varchar(10) to varchar, numeric(8,3) to numeric), which
// PostgreSQL's coerce_type makes no node of: COALESCE(varchar(10),
// 'x') keeps its first argument as it is.
func lengthOnlyCast(c *Cast) bool {
	from, to := c.E.Type(), c.To
	return from.ID == to.ID && from.ID != sqltypes.Unknown && from.Elem == to.Elem &&
		to.Width == 0 && to.Scale == 0 && to.Domain == nil && from.Domain == nil &&
		to.Enum == nil && to.Composite == nil
}

// castArg is the operand of a cast-like node.
func castArg(e Expr) Expr {
	switch x := e.(type) {
	case *Cast:
		return x.E
	case *Func:
		return x.Args[0]
	}
	return nil
}

// regCast reports whether x is the binder's cast to a reg* type (or an
// array of one), a call named by the type, which PostgreSQL keeps as a
// cast.
func regCast(x *Func) bool {
	t := x.Typ
	if t.ID == sqltypes.Array {
		t = t.ElemType()
	}
	return len(x.Args) == 1 && t.IsReg() && x.Name == x.Typ.String()
}

// regOperand prints an operand of a reg* type as the oid its operators
// take it as, which ruleutils shows as a cast (('t'::regclass)::oid), and
// reports whether e was one.
func (d *deparser) regOperand(e, parent Expr) bool {
	if !e.Type().IsReg() {
		return false
	}
	d.implicitCast(e, sqltypes.TypeOid, parent)
	return true
}

// simple reports whether e prints unambiguously without parentheses as
// an operand of parent, following ruleutils' isSimpleNode.
func simple(e, parent Expr) bool {
	if c, ok := e.(*Const); ok && c.From != nil {
		e = c.From
	}
	if or := notBetween(e); or != nil {
		e = or
	}
	k, op := kindOf(e)
	pk, pop := kindOf(parent)
	switch k {
	case kindWord, kindFunc:
		return true
	case kindCast:
		return simple(castArg(e), e)
	case kindOp:
		if pk == kindOp {
			lo, hi := priority(op)
			plo, phi := priority(pop)
			switch {
			case !(lo || hi) || !(plo || phi):
				return false
			case hi && plo:
				return true
			case lo && phi:
				return false
			}
			// The same priority: (a - b) - c needs none, a - (b - c) does.
			return firstOperand(parent) == e
		}
		return pk == kindFunc || pk == kindBool
	case kindTest:
		return pk == kindFunc || pk == kindBool
	case kindBool:
		switch pk {
		case kindBool:
			if isNot(parent) {
				return false
			}
			if isAnd(e) || isNot(e) {
				return true // inside AND or OR
			}
			return !isAnd(parent) // OR inside OR
		case kindFunc:
			return true
		}
	}
	return false
}

// notBetween is x NOT BETWEEN a AND b as PostgreSQL keeps it, x < a OR
// x > b, when e is that NOT; nil otherwise.
func notBetween(e Expr) Expr {
	n, ok := e.(*Not)
	if !ok {
		return nil
	}
	b, ok := n.E.(*Binary)
	if !ok || b.Op != OpAnd || !b.Nested {
		return nil
	}
	ge, ok1 := b.L.(*Binary)
	le, ok2 := b.R.(*Binary)
	if !ok1 || !ok2 || ge.Op != OpGe || le.Op != OpLe {
		return nil
	}
	return &Binary{Op: OpOr, Typ: b.Typ,
		L: &Binary{Op: OpLt, L: ge.L, R: ge.R, Typ: ge.Typ},
		R: &Binary{Op: OpGt, L: le.L, R: le.R, Typ: le.Typ}}
}

// priority tells + and - (lo) from *, / and % (hi), the only operators
// whose precedence ruleutils relies on.
func priority(op string) (lo, hi bool) {
	if len(op) != 1 {
		// -> and ->> are not -: PostgreSQL 15 parenthesizes
		// (j -> 'a') -> 'b'.
		return false, false
	}
	return strings.ContainsRune("+-", rune(op[0])), strings.ContainsRune("*/%", rune(op[0]))
}

func firstOperand(e Expr) Expr {
	switch x := e.(type) {
	case *Binary:
		return x.L
	case *Like:
		return x.E
	case *Func:
		if len(x.Args) > 0 {
			return x.Args[0]
		}
	}
	return nil
}

func isAnd(e Expr) bool { b, ok := e.(*Binary); return ok && b.Op == OpAnd }

// isNot reports whether e prints as NOT (NOT IN and NOT EXISTS do).
func isNot(e Expr) bool {
	switch x := e.(type) {
	case *Not:
		return true
	case *Binary:
		return x.Op == OpNotDistinct // NOT (a IS DISTINCT FROM b)
	case *Subquery:
		return x.Neg
	}
	return false
}

// paren prints e as an operand of parent: in pretty mode within
// parentheses when it is not simple there (ruleutils'
// get_rule_expr_paren).
func (d *deparser) paren(e, parent Expr) {
	need := d.pretty && !simple(e, parent)
	if need {
		d.w("(")
	}
	d.expr(e)
	if need {
		d.w(")")
	}
}

func (d *deparser) expr(e Expr) {
	if name, ok := d.notes.mergedName(e); ok {
		d.w(sqltypes.QuoteIdent(name))
		return
	}
	switch x := e.(type) {
	case *ColRef:
		if d.cols != nil {
			text, ok := d.cols(x.Index)
			if !ok {
				d.failed = true
			}
			d.w(text)
			return
		}
		name := x.Name
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			name = name[i+1:]
		}
		d.w(sqltypes.QuoteIdent(name))
	case *Const:
		if x.From != nil {
			d.expr(x.From)
			return
		}
		d.w(d.constant(x.V, x.Typ))
	case *Binary:
		switch x.Op {
		case OpAnd, OpOr:
			d.open()
			d.chain(x, x.Op)
			d.close()
			return
		}
		if x.Op == OpNotDistinct {
			// PostgreSQL keeps it as NOT (a IS DISTINCT FROM b).
			d.open()
			d.w("NOT ")
			d.expr(&Not{E: x})
			d.close()
			return
		}
		d.open()
		d.operand(x.L, x.R.Type(), x)
		d.w(" " + string(x.Op) + " ")
		d.operand(x.R, x.L.Type(), x)
		d.close()
	case *Not:
		if f, ok := x.E.(*Func); ok && truthTest(f) != nil && strings.HasPrefix(f.Op, "IS NOT") {
			d.truth(f)
			return
		}
		if b, ok := x.E.(*Binary); ok && b.Op == OpNotDistinct {
			d.open()
			d.operand(b.L, b.R.Type(), x)
			d.w(" IS DISTINCT FROM ")
			d.operand(b.R, b.L.Type(), x)
			d.close()
			return
		}
		if or := notBetween(x); or != nil {
			d.expr(or)
			return
		}
		d.open()
		d.w("NOT ")
		d.paren(x.E, x)
		d.close()
	case *Neg:
		d.open()
		d.w("- ")
		if !d.relabel(x.E, x) {
			d.paren(x.E, x)
		}
		d.close()
	case *IsNull:
		d.open()
		d.paren(x.E, x)
		switch {
		case x.Unknown && x.Neg:
			d.w(" IS NOT UNKNOWN")
		case x.Unknown:
			d.w(" IS UNKNOWN")
		case x.Neg:
			d.w(" IS NOT NULL")
		default:
			d.w(" IS NULL")
		}
		d.close()
	case *InList:
		d.inList(x)
	case *Like:
		if x.Escape != 0 && x.Escape != '\\' {
			d.failed = true
		}
		// LIKE is the operator ~~ (ILIKE ~~*, NOT LIKE !~~), as
		// PostgreSQL keeps and prints it.
		d.open()
		d.textOperand(x.E, x)
		d.w(" " + likeOp(x) + " ")
		d.textOperand(x.Pattern, x)
		d.close()
	case *Cast:
		if lengthOnlyCast(x) {
			d.expr(x.E)
			return
		}
		if c, ok := x.E.(*Const); ok && !c.V.IsNull() && c.Typ.ID == sqltypes.Unknown {
			// A quoted literal cast is a constant of the type.
			v, err := CastValue(c.V, c.Typ, x.To, true, time.UTC)
			if err == nil {
				d.w(d.constant(v, x.To))
				return
			}
		}
		to := x.To
		if !x.Explicit && to.Domain == nil && to.ID == sqltypes.Numeric {
			// A coercion to a common type (CASE, GREATEST) has no
			// typmod in PostgreSQL (numeric(10,2) beside 0 is numeric).
			to.Width, to.Scale = 0, 0
		}
		d.cast(x.E, to, x)
	case *Func:
		d.fn(x)
	case *OperatorCall:
		d.fn(&Func{Name: x.Name, Args: x.Args, Typ: x.E.Type()})
	case *OuterRef:
		if x.Depth < 1 || x.Depth > len(d.outer) {
			d.failed = true
			return
		}
		text, ok := d.outer[len(d.outer)-x.Depth](x.Index)
		if !ok {
			d.failed = true
		}
		d.w(text)
	case *Subquery:
		d.sublink(x)
	case *RecordExpr:
		d.w("ROW(")
		for i, a := range x.Items {
			if i > 0 {
				d.w(", ")
			}
			d.expr(a)
		}
		d.w(")")
	default:
		d.failed = true
		d.w(e.String())
	}
}

// cast prints arg::to as ruleutils' get_coercion_expr does: the operand
// parenthesized unless pretty and simple.
func (d *deparser) cast(arg Expr, to sqltypes.Type, self Expr) {
	if c, ok := arg.(*Const); ok && !c.V.IsNull() && c.Typ.ID == to.ID && c.Typ.ID != sqltypes.Unknown &&
		c.Typ.Width == 0 && c.Typ.Scale == 0 && c.Typ.Domain == nil && c.From == nil {
		// A constant of the type itself, cast to a typmod (1.5::numeric(5,2)):
		// get_coercion_expr prints it bare, with no label of its own.
		d.w(bareConst(c.V, c.Typ) + "::" + d.typeName(to))
		return
	}
	d.open()
	d.paren(arg, self)
	d.close()
	d.w("::" + d.typeName(to))
}

func likeOp(x *Like) string {
	op := "~~"
	if x.CaseInsensitive {
		op += "*"
	}
	if x.Neg {
		op = "!" + op
	}
	return op
}

// operand prints an operand of a binary operator whose other operand is
// of type other. zproxy compares and computes across numeric types
// directly; PostgreSQL coerces the operand of the lesser type (integer
// below numeric below float) to the other's, which ruleutils shows as a
// cast. Integers of different widths, and float4 with float8, have
// cross-type operators and no coercion.
func (d *deparser) operand(e Expr, other sqltypes.Type, parent Expr) {
	if d.regOperand(e, parent) {
		return
	}
	if d.relabel(e, parent) {
		if _, ok := promotion(e.Type(), other); ok {
			d.failed = true // a second coercion, not printed
		}
		return
	}
	if to, ok := promotion(e.Type(), other); ok {
		d.implicitCast(e, to, parent)
		return
	}
	d.textOperand(e, parent)
}

// implicitCast prints an implicit coercion of operand e to type to as
// ruleutils shows it in parent: e::to, parenthesized in pretty mode where
// the cast is not simple there.
func (d *deparser) implicitCast(e Expr, to sqltypes.Type, parent Expr) {
	cast := &Cast{E: e, To: to}
	need := d.pretty && !simple(cast, parent)
	if need {
		d.w("(")
	}
	d.cast(e, to, cast)
	if need {
		d.w(")")
	}
}

// relabel prints a domain's column read as its base type (ColRef's
// Relabeled) with the cast ruleutils shows for it, and reports whether e
// was one; a varchar domain's goes on to text instead (textOperand).
func (d *deparser) relabel(e, parent Expr) bool {
	c, ok := e.(*ColRef)
	if !ok || !c.Relabeled || c.Typ.ID == sqltypes.Varchar || c.Typ.IsArray() {
		return false
	}
	to := c.Typ
	to.Width, to.Scale = 0, 0
	d.implicitCast(e, to, parent)
	return true
}

// promotion is the type PostgreSQL coerces a numeric operand of type t
// to beside one of type other, ok false when it is not coerced.
func promotion(t, other sqltypes.Type) (sqltypes.Type, bool) {
	rank := func(t sqltypes.Type) int {
		switch t.ID {
		case sqltypes.Int2, sqltypes.Int4, sqltypes.Int8:
			return 1
		case sqltypes.Numeric:
			return 2
		case sqltypes.Float4, sqltypes.Float8:
			return 3
		}
		return 0
	}
	r, ro := rank(t), rank(other)
	if r == 0 || ro == 0 || r >= ro || t.IsDomain() || other.IsDomain() {
		return t, false
	}
	to := other
	to.Width, to.Scale = 0, 0
	if to.ID == sqltypes.Float4 {
		// float4 compares with float8 (float48gt), so the other
		// operand becomes float8.
		to = sqltypes.Type{ID: sqltypes.Float8}
	}
	return to, true
}

// textOperand prints an operand of a text operator. varchar has no
// operators of its own in PostgreSQL: its values are relabeled text, which
// ruleutils prints as a cast ((nick)::text, 'x'::text).
func (d *deparser) textOperand(e, parent Expr) {
	if c, ok := e.(*Const); ok && c.From == nil && c.Typ.ID == sqltypes.Unknown && !c.V.IsNull() {
		// An untyped literal beside a text operand is text.
		d.w(d.constant(c.V, sqltypes.TypeText))
		return
	}
	if d.relabel(e, parent) || d.regOperand(e, parent) {
		return
	}
	if e.Type().ID != sqltypes.Varchar {
		d.paren(e, parent)
		return
	}
	if c, ok := e.(*Const); ok && c.From == nil && c.Typ.Width == 0 {
		// (A varchar(n) constant was cast so: ('x'::character
		// varying(5))::text.)
		d.w(d.constant(c.V, sqltypes.TypeText))
		return
	}
	d.implicitCast(e, sqltypes.TypeText, parent)
}

// inList prints x IN (list) as PostgreSQL keeps it, x = ANY (ARRAY[list])
// (NOT IN as <> ALL); a varchar operand compares as text, its list an
// array of varchar relabeled as text[].
func (d *deparser) inList(x *InList) {
	op := " = ANY ("
	if x.Neg {
		op = " <> ALL ("
	}
	d.open()
	varchar := x.E.Type().ID == sqltypes.Varchar
	d.textOperand(x.E, x)
	d.w(op)
	if varchar {
		d.open()
	}
	d.w("ARRAY[")
	for i, it := range x.List {
		if i > 0 {
			d.w(", ")
		}
		if c, ok := it.(*Const); ok && varchar && c.From == nil && !c.V.IsNull() {
			d.w(d.constant(c.V, sqltypes.Type{ID: sqltypes.Varchar}))
			continue
		}
		if d.regOperand(it, x) {
			continue
		}
		d.expr(it)
	}
	d.w("]")
	if varchar {
		d.close()
		d.w("::text[]")
	}
	d.w(")")
	d.close()
}

// chain prints an AND or OR of several operands, flattening the left
// operand as PostgreSQL's parser builds its BoolExpr (a AND b AND c is
// one; a AND (b AND c) is two).
func (d *deparser) chain(x *Binary, op BinOp) {
	var args []Expr
	var terms func(e Expr, first bool)
	terms = func(e Expr, first bool) {
		if b, ok := e.(*Binary); ok && b.Op == op && (b.Chain || first && !b.Nested) {
			// The binder's balancing node, or the first term's own
			// chain (which the parser's makeAndExpr extends).
			terms(b.L, first)
			terms(b.R, false)
			return
		}
		args = append(args, e)
	}
	terms(x.L, true)
	terms(x.R, false)
	for i, a := range args {
		if i > 0 {
			d.w(" " + string(op) + " ")
		}
		d.paren(a, x)
	}
}

func (d *deparser) fn(x *Func) {
	if name, ok := CollateName(x); ok {
		// ruleutils' CollateExpr: (x COLLATE name), the parentheses
		// dropped when pretty (every collation zproxy knows is
		// pg_catalog's, so its name is never qualified).
		d.open()
		d.paren(x.Args[0], x)
		d.w(" COLLATE " + sqltypes.QuoteIdent(name))
		d.close()
		return
	}
	switch {
	case strings.HasPrefix(x.Name, ".") && len(x.Args) == 1:
		// A field selection (planner's bindField): (row).field.
		d.w("(")
		d.expr(x.Args[0])
		d.w(")." + sqltypes.QuoteIdent(x.Name[1:]))
		return
	case regCast(x):
		d.cast(x.Args[0], x.Typ, x)
		return
	case truthTest(x) != nil:
		// Not under its Not (IS NOT TRUE): NOT (x IS TRUE) was written.
		f := *x
		f.Op = strings.Replace(f.Op, "IS NOT ", "IS ", 1)
		d.truth(&f)
		return
	case x.Op == "TRIM" && (len(x.Args) == 1 || len(x.Args) == 2):
		// ruleutils' get_func_sql_syntax: TRIM(BOTH [chars] FROM s).
		d.w("TRIM(" + map[string]string{"btrim": "BOTH", "ltrim": "LEADING", "rtrim": "TRAILING"}[x.Name])
		if len(x.Args) == 2 {
			d.sqlSyntax(" ", x.Args[1])
		}
		d.sqlSyntax(" FROM ", x.Args[0], ")")
		return
	case x.Op == OpSQLSyntax && x.Name == "overlay" && (len(x.Args) == 3 || len(x.Args) == 4):
		// ruleutils' get_func_sql_syntax.
		d.sqlSyntax("OVERLAY(", x.Args[0], " PLACING ", x.Args[1], " FROM ", x.Args[2])
		if len(x.Args) == 4 {
			d.sqlSyntax(" FOR ", x.Args[3])
		}
		d.w(")")
		return
	case x.Op == OpSQLSyntax && x.Name == "substring" && (len(x.Args) == 2 || len(x.Args) == 3) && x.Args[1].Type().ID != sqltypes.Text:
		// SUBSTRING(s FROM a [FOR b]); its regular-expression form by a
		// text pattern is printed as the call (get_func_sql_syntax has
		// no case for substring(text, text)), the SIMILAR one below.
		d.sqlSyntax("SUBSTRING(", x.Args[0], " FROM ", x.Args[1])
		if len(x.Args) == 3 {
			d.sqlSyntax(" FOR ", x.Args[2])
		}
		d.w(")")
		return
	case x.Op == OpSQLSyntax && x.Name == "substring" && len(x.Args) == 3:
		d.sqlSyntax("SUBSTRING(", x.Args[0], " SIMILAR ", x.Args[1], " ESCAPE ", x.Args[2], ")")
		return
	case x.Op == OpSQLSyntax && x.Name == "position" && len(x.Args) == 2:
		// POSITION(x IN y) is position(y, x); called by name (qualified:
		// bare, position is a key word), it is printed as a call.
		d.sqlSyntax("POSITION((", x.Args[1], ") IN (", x.Args[0], "))")
		return
	case x.Op == "||" && len(x.Args) == 2:
		d.open()
		d.paren(x.Args[0], x)
		d.w(" || ")
		d.paren(x.Args[1], x)
		d.close()
		return
	case x.Name == "subscript" && len(x.Args) >= 2 && !hasNil(x.Args),
		x.Name == "slice" && len(x.Args) == 3 && !hasNil(x.Args):
		// x[i][j] and x[lo:hi] (both bounds: the binder drops a missing
		// one), the container parenthesized unless a column.
		switch x.Args[0].(type) {
		case *ColRef, *OuterRef:
			d.expr(x.Args[0])
		default:
			d.w("(")
			d.expr(x.Args[0])
			d.w(")")
		}
		if x.Name == "slice" {
			d.w("[")
			d.expr(x.Args[1])
			d.w(":")
			d.expr(x.Args[2])
			d.w("]")
			return
		}
		for _, i := range x.Args[1:] {
			d.w("[")
			d.expr(i)
			d.w("]")
		}
		return
	case x.Name == "extract" && len(x.Args) == 2:
		if c, ok := x.Args[0].(*Const); ok && c.V.K == sqltypes.KindText {
			d.w("EXTRACT(" + c.V.S + " FROM ")
			d.expr(x.Args[1])
			d.w(")")
			return
		}
	case x.Name == "array":
		d.w("ARRAY[")
		for i, a := range x.Args {
			if i > 0 {
				d.w(", ")
			}
			d.expr(a)
		}
		d.w("]")
		return
	case (x.Infix || isOperatorName(x.Name)) && len(x.Args) == 2:
		// Infix, and the array operators, which bind as calls named by
		// their operator.
		d.open()
		if textOperator(x) {
			// Text's operators take a varchar operand relabeled to
			// text, as ruleutils shows it ((v)::text ~ 'a'::text).
			d.textOperand(x.Args[0], x)
			d.w(" " + x.Name + " ")
			d.textOperand(x.Args[1], x)
		} else {
			op := d.operatorName(x)
			for i, a := range x.Args {
				if i > 0 {
					d.w(" " + op + " ")
				}
				if !d.relabel(a, x) {
					d.paren(a, x)
				}
			}
		}
		d.close()
		return
	case isOperatorName(x.Name) && len(x.Args) == 1:
		// A prefix operator (~ x, @-@ lseg, ?| line), parenthesized as
		// ruleutils does an OpExpr: not when pretty.
		d.open()
		d.w(d.operatorName(x) + " ")
		d.paren(x.Args[0], x)
		d.close()
		return
	case x.Name == "timezone" && len(x.Args) == 2:
		// ruleutils' get_func_sql_syntax: always parenthesized, and
		// function-like (simple) as an operand.
		d.w("(")
		d.paren(x.Args[1], x)
		d.w(" AT TIME ZONE ")
		d.paren(x.Args[0], x)
		d.w(")")
		return
	case x.Name == "case":
		d.caseExpr(x)
		return
	case (x.Name == "any" || x.Name == "all") && x.Op != "" && len(x.Args) == 2:
		d.open()
		d.operand(x.Args[0], x.Args[1].Type().ElemType(), x)
		d.w(" " + x.Op + " " + strings.ToUpper(x.Name) + " (")
		// ruleutils' get_rule_expr_paren: an array that is an operator
		// or a subquery is parenthesized again, = ANY ((a || b)).
		d.paren(x.Args[1], x)
		d.w(")")
		d.close()
		return
	case strings.HasPrefix(x.Name, "zp_"):
		d.failed = true
	}
	if len(x.Args) == 0 && sqlValueFunctions[x.Name] {
		d.w(strings.ToUpper(x.Name))
		return
	}
	name := x.Name
	switch name {
	case "coalesce", "nullif", "greatest", "least":
		name = strings.ToUpper(name)
	default:
		name = d.routineName(name)
	}
	d.w(name + "(")
	for i, a := range d.notes.writtenArgs(x) {
		if i > 0 {
			d.w(", ")
		}
		if x.Op == OpVariadic && i == len(x.Args)-1 {
			d.w("VARIADIC ")
		}
		if c, ok := a.(*Const); ok && c.From == nil && !c.V.IsNull() && (c.Typ.ID == sqltypes.Unknown || c.Typ.ID == sqltypes.Text) && anyArgs(x.Name, i) {
			// A literal for a parameter of type "any" stays unknown (the
			// binder reads it as text, as a literal cast to text would be).
			d.w(d.constant(c.V, sqltypes.TypeUnknown))
			continue
		}
		if c, ok := a.(*Const); ok && c.From == nil && !c.V.IsNull() && (c.Typ.ID == sqltypes.Unknown || c.Typ.ID == sqltypes.Text) {
			// A literal argument takes the parameter's type: text, but
			// regclass for the sequence functions, which zproxy binds
			// to the sequence's name.
			t := "text"
			if i == 0 && (x.Name == "nextval" || x.Name == "currval" || x.Name == "setval") {
				t = "regclass"
			}
			d.w(d.constant(c.V, sqltypes.TypeUnknown) + "::" + t)
			continue
		}
		d.expr(a)
	}
	d.w(")")
}

// sqlValueFunctions are the calls PostgreSQL keeps as SQL keywords
// (SQLValueFunction) and prints as written, without parentheses.
var sqlValueFunctions = map[string]bool{
	"current_date": true, "current_time": true, "current_timestamp": true, "localtime": true,
	"localtimestamp": true, "current_user": true, "current_role": true, "session_user": true, "user": true,
}

// caseExpr prints a searched CASE over lines, as ruleutils indents it:
// CASE, each WHEN and the ELSE four spaces in, END back out.
func (d *deparser) caseExpr(x *Func) {
	if len(x.Args)%2 != 1 {
		d.failed = true
		return
	}
	// A simple CASE prints its operand once and each value alone, when
	// every condition is still operand = value.
	var operand Expr
	if x.Op == string(OpEq) {
		for i := 0; i+1 < len(x.Args); i += 2 {
			b, ok := x.Args[i].(*Binary)
			if !ok || b.Op != OpEq || operand != nil && b.L != operand {
				operand = nil
				break
			}
			operand = b.L
		}
	}
	d.keyword("CASE", 0, 4, 0)
	if operand != nil {
		d.w(" ")
		d.expr(operand)
	}
	for i := 0; i+1 < len(x.Args); i += 2 {
		d.keyword("WHEN ", 0, 0, 0)
		if operand != nil {
			d.expr(x.Args[i].(*Binary).R)
		} else {
			d.expr(x.Args[i])
		}
		d.w(" THEN ")
		d.expr(x.Args[i+1])
	}
	d.keyword("ELSE ", 0, 0, 0)
	els := x.Args[len(x.Args)-1]
	if c, ok := els.(*Const); ok && c.V.IsNull() && c.Typ.ID == sqltypes.Unknown {
		els = &Const{V: sqltypes.Null, Typ: x.Typ}
	}
	d.expr(els)
	d.keyword("END", -4, 0, 0)
}

// isOperatorName reports whether name is spelled as an operator (@>, &&),
// or names a user-defined one (UserOperatorName).
func isOperatorName(name string) bool {
	if q, ok := strings.CutPrefix(name, "OPERATOR("); ok && strings.HasSuffix(q, ")") {
		name = q[strings.LastIndexByte(q, '.')+1 : len(q)-1]
	}
	return name != "" && strings.Trim(name, "+-*/<>=~!@#%^&|`?") == ""
}

// textOperator reports whether x is one of text's binary operators over
// two string operands: the regular expression matches, and || between
// two strings.
func textOperator(x *Func) bool {
	switch x.Name {
	case "~", "~*", "!~", "!~*", "||":
	default:
		return false
	}
	for _, a := range x.Args {
		if k := a.Type().Kind(); k != sqltypes.KindText && a.Type().ID != sqltypes.Unknown {
			return false
		}
	}
	return true
}

// constant prints a constant as ruleutils' get_const_expr does:
// non-negative integers that fit int4 and decimal numerics bare, booleans
// as true/false, anything else as a quoted literal with its type.
func (d *deparser) constant(v sqltypes.Value, t sqltypes.Type) string {
	if v.IsNull() {
		if t.ID == sqltypes.Unknown {
			return "NULL"
		}
		return "NULL::" + d.typeName(t)
	}
	if rn, ok := d.names.(RegNamer); ok && t.IsReg() && v.K == sqltypes.KindInt {
		// 'r'::regclass names its object as the reader's path sees it.
		if name := rn.RegName(t, uint32(v.I)); name != "" {
			v = sqltypes.NewReg(uint32(v.I), name)
		}
	}
	text := sqltypes.FormatText(v)
	quoted := "'" + strings.ReplaceAll(text, "'", "''") + "'"
	switch v.K {
	case sqltypes.KindBool, sqltypes.KindInt:
		// Only an int4 constant prints bare (a negative one with its
		// cast); bigint and smallint constants always carry theirs.
		if bare := bareConst(v, t); bare[0] != '\'' {
			return bare
		}
	case sqltypes.KindNumeric:
		if !strings.HasPrefix(text, "-") && strings.Contains(text, ".") {
			return text
		}
	case sqltypes.KindFloat:
		// Digits print bare; NaN and Infinity are quoted (get_const_expr).
		if strings.Trim(text, "0123456789+-eE.") == "" && !strings.HasPrefix(text, "-") {
			return "(" + text + ")::" + d.typeName(t)
		}
	}
	if t.ID == sqltypes.Unknown {
		return quoted
	}
	return quoted + "::" + d.typeName(t)
}

// bareConst prints a constant as get_const_expr does with no type label
// (showtype -1): non-negative integers and numbers bare, booleans as
// words, anything else quoted.
func bareConst(v sqltypes.Value, t sqltypes.Type) string {
	text := sqltypes.FormatText(v)
	switch v.K {
	case sqltypes.KindBool:
		return strconv.FormatBool(v.I != 0)
	case sqltypes.KindInt:
		if t.ID == sqltypes.Int4 && v.I >= 0 {
			return text
		}
	case sqltypes.KindNumeric:
		if text != "" && text[0] >= '0' && text[0] <= '9' && strings.Trim(text, "0123456789+-eE.") == "" {
			return text
		}
	}
	return "'" + strings.ReplaceAll(text, "'", "''") + "'"
}

// IndexExprName is the name PostgreSQL's ChooseIndexColumnNames gives an
// expression key in an index's generated name: a function's name, a
// cast's operand's column, else "expr".
func IndexExprName(e Expr) string {
	switch x := e.(type) {
	case *Func:
		if !x.Infix && x.Name != "timezone" {
			return x.Name
		}
	case *Cast:
		if c, ok := x.E.(*ColRef); ok {
			name := c.Name
			if i := strings.LastIndexByte(name, '.'); i >= 0 {
				name = name[i+1:]
			}
			return name
		}
		return IndexExprName(x.E)
	}
	return "expr"
}

// truthTest is the operand of x IS TRUE or x IS FALSE when f is the
// COALESCE the binder makes of that test (Func.Op), else nil.
func truthTest(f *Func) Expr {
	if f.Name != "coalesce" || !strings.HasPrefix(f.Op, "IS ") || len(f.Args) != 2 {
		return nil
	}
	and, ok := f.Args[0].(*Binary)
	if !ok || and.Op != OpAnd {
		return nil
	}
	n, ok := and.L.(*IsNull)
	if !ok {
		return nil
	}
	return n.E
}

// truth prints a BooleanTest as ruleutils does: (x IS [NOT] TRUE).
func (d *deparser) truth(f *Func) {
	d.open()
	d.paren(truthTest(f), f)
	d.w(" " + f.Op)
	d.close()
}

// hasNil reports whether some of args is missing (a slice's open bound).
func hasNil(args []Expr) bool {
	for _, a := range args {
		if a == nil {
			return true
		}
	}
	return false
}

// anyArgsFrom are the functions whose parameters from the one given on
// are of type "any" (PostgreSQL 15's pg_proc).
var anyArgsFrom = map[string]int{
	"concat": 0, "concat_ws": 1, "format": 1, "json_build_array": 0, "json_build_object": 0,
	"jsonb_build_array": 0, "jsonb_build_object": 0, "num_nonnulls": 0, "num_nulls": 0,
	"pg_collation_for": 0, "pg_column_compression": 0, "pg_column_size": 0, "pg_typeof": 0,
}

// anyArgs reports whether argument i of function name is of type "any".
func anyArgs(name string, i int) bool {
	from, ok := anyArgsFrom[name]
	return ok && i >= from
}

// sqlSyntax prints a function call in SQL syntax: its words, and its
// arguments as sqlSyntaxArg does.
func (d *deparser) sqlSyntax(parts ...any) {
	for _, p := range parts {
		if s, ok := p.(string); ok {
			d.w(s)
		} else {
			d.sqlSyntaxArg(p.(Expr))
		}
	}
}

// sqlSyntaxArg prints an argument of a function ruleutils prints in SQL
// syntax: a literal as text, anything else without its implicit cast.
func (d *deparser) sqlSyntaxArg(e Expr) {
	if c, ok := e.(*Cast); ok && !c.Explicit && c.To.ID == sqltypes.Text && c.E.Type().ID == sqltypes.Varchar {
		e = c.E // varchar relabeled to text, a cast get_rule_expr hides
	}
	if c, ok := e.(*Const); ok && c.From == nil && !c.V.IsNull() && (c.Typ.ID == sqltypes.Unknown || c.Typ.ID == sqltypes.Text) {
		d.w(d.constant(c.V, sqltypes.TypeText))
		return
	}
	d.expr(e)
}
