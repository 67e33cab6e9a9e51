package ir

import (
	"strconv"
	"strings"
	"time"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Deparse prints a bound expression as PostgreSQL's ruleutils prints a
// stored expression (pg_get_expr, pg_get_indexdef): every operator
// expression parenthesized, constants with their type ('x'::text), casts
// as (x)::type. The text binds back to the same expression in any session
// (a timestamptz constant carries its offset), which is why expression
// and partial indexes keep it. ok is false for an expression it cannot
// print faithfully; the caller then keeps the text as written.
func Deparse(e Expr) (s string, ok bool) {
	var d deparser
	d.expr(e)
	return d.b.String(), !d.failed
}

type deparser struct {
	b      strings.Builder
	failed bool
}

func (d *deparser) w(s string) { d.b.WriteString(s) }

func (d *deparser) expr(e Expr) {
	switch x := e.(type) {
	case *ColRef:
		name := x.Name
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			name = name[i+1:]
		}
		d.w(sqltypes.QuoteIdent(name))
	case *Const:
		d.w(deparseConst(x.V, x.Typ))
	case *Binary:
		if x.Op == OpAnd || x.Op == OpOr {
			d.w("(")
			d.chain(x, x.Op)
			d.w(")")
			return
		}
		op := string(x.Op)
		d.w("(")
		d.textOperand(x.L)
		d.w(" " + op + " ")
		d.textOperand(x.R)
		d.w(")")
	case *Not:
		if b, ok := x.E.(*Binary); ok && b.Op == OpNotDistinct {
			d.w("(")
			d.expr(b.L)
			d.w(" IS DISTINCT FROM ")
			d.expr(b.R)
			d.w(")")
			return
		}
		d.w("(NOT ")
		d.expr(x.E)
		d.w(")")
	case *Neg:
		d.w("(- ")
		d.expr(x.E)
		d.w(")")
	case *IsNull:
		d.w("(")
		d.expr(x.E)
		if x.Neg {
			d.w(" IS NOT NULL)")
		} else {
			d.w(" IS NULL)")
		}
	case *InList:
		// PostgreSQL turns x IN (list) into x = ANY (ARRAY[list]).
		d.w("(")
		d.expr(x.E)
		if x.Neg {
			d.w(" <> ALL (ARRAY[")
		} else {
			d.w(" = ANY (ARRAY[")
		}
		for i, it := range x.List {
			if i > 0 {
				d.w(", ")
			}
			d.expr(it)
		}
		d.w("]))")
	case *Like:
		if x.Escape != 0 && x.Escape != '\\' {
			d.failed = true
		}
		op := " LIKE "
		if x.CaseInsensitive {
			op = " ILIKE "
		}
		if x.Neg {
			op = " NOT" + op
		}
		d.w("(")
		d.textOperand(x.E)
		d.w(op)
		d.textOperand(x.Pattern)
		d.w(")")
	case *Cast:
		if c, ok := x.E.(*Const); ok && !c.V.IsNull() {
			v, err := CastValue(c.V, c.Typ, x.To, true, time.UTC)
			if err == nil {
				d.w(deparseConst(v, x.To))
				return
			}
		}
		d.w("(")
		d.expr(x.E)
		d.w(")::" + x.To.String())
	case *Func:
		d.fn(x)
	default:
		d.failed = true
		d.w(e.String())
	}
}

// textOperand prints an operand of a text operator. varchar has no
// operators of its own in PostgreSQL: its values are relabeled text, which
// ruleutils prints as a cast ((nick)::text, 'x'::text).
func (d *deparser) textOperand(e Expr) {
	if e.Type().ID != sqltypes.Varchar {
		d.expr(e)
		return
	}
	if c, ok := e.(*Const); ok {
		d.w(deparseConst(c.V, sqltypes.TypeText))
		return
	}
	d.w("(")
	d.expr(e)
	d.w(")::text")
}

// chain prints an AND or OR of several operands flat, as PostgreSQL's
// BoolExpr holds them: (a AND b AND c).
func (d *deparser) chain(e Expr, op BinOp) {
	if b, ok := e.(*Binary); ok && b.Op == op {
		d.chain(b.L, op)
		d.w(" " + string(op) + " ")
		d.chain(b.R, op)
		return
	}
	d.expr(e)
}

func (d *deparser) fn(x *Func) {
	switch {
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
		d.w("(")
		d.expr(x.Args[0])
		d.w(" " + x.Name + " ")
		d.expr(x.Args[1])
		d.w(")")
		return
	case isOperatorName(x.Name) && len(x.Args) == 1:
		// A prefix operator (~ x, @-@ lseg, ?| line).
		d.w("(" + x.Name + " ")
		d.expr(x.Args[0])
		d.w(")")
		return
	case x.Name == "timezone" && len(x.Args) == 2:
		d.w("(")
		d.expr(x.Args[1])
		d.w(" AT TIME ZONE ")
		d.expr(x.Args[0])
		d.w(")")
		return
	case x.Name == "case" || strings.HasPrefix(x.Name, "zp_"):
		d.failed = true
	}
	name := x.Name
	switch name {
	case "coalesce", "nullif", "greatest", "least":
		name = strings.ToUpper(name)
	default:
		name = sqltypes.QuoteIdent(name)
	}
	d.w(name + "(")
	for i, a := range x.Args {
		if i > 0 {
			d.w(", ")
		}
		d.expr(a)
	}
	d.w(")")
}

// isOperatorName reports whether name is spelled as an operator (@>, &&).
func isOperatorName(name string) bool {
	return name != "" && strings.Trim(name, "+-*/<>=~!@#%^&|`?") == ""
}

// deparseConst prints a constant as ruleutils' get_const_expr does:
// non-negative integers that fit int4 and decimal numerics bare, booleans
// as true/false, anything else as a quoted literal with its type.
func deparseConst(v sqltypes.Value, t sqltypes.Type) string {
	if v.IsNull() {
		if t.ID == sqltypes.Unknown {
			return "NULL"
		}
		return "NULL::" + t.String()
	}
	text := sqltypes.FormatText(v)
	quoted := "'" + strings.ReplaceAll(text, "'", "''") + "'"
	switch v.K {
	case sqltypes.KindBool:
		return text
	case sqltypes.KindInt:
		if t.ID == sqltypes.Int4 || t.ID == sqltypes.Int8 || t.ID == sqltypes.Int2 {
			if v.I >= 0 && v.I <= 1<<31-1 {
				return strconv.FormatInt(v.I, 10)
			}
			if v.I >= -1<<31 && v.I < 0 {
				return quoted + "::integer"
			}
		}
	case sqltypes.KindNumeric:
		if !strings.HasPrefix(text, "-") && strings.Contains(text, ".") {
			return text
		}
	case sqltypes.KindFloat:
		if _, err := strconv.ParseFloat(text, 64); err == nil && !strings.HasPrefix(text, "-") {
			return "(" + text + ")::" + t.String()
		}
	}
	if t.ID == sqltypes.Unknown {
		return quoted
	}
	return quoted + "::" + t.String()
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
