package pgcatalog

import (
	"github.com/zproxy/zproxy/catalog"
	"math"
	"strconv"
	"strings"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// defaultDisplay is a column default as pg_get_expr prints it, for the
// defaults that are a single literal (DEFAULT 0, DEFAULT 'x', DEFAULT
// false); others keep the text as written. PostgreSQL stores the default
// coerced to the column's type and prints the constant back (ruleutils'
// get_const_expr): an integer literal bare (a negative one as
// '-1'::integer), a decimal one bare (a negative one as '-1.5'::numeric),
// booleans as true and false, a quoted literal as its value of the
// column's type with a cast ('x'::character varying, '{}'::text[]) unless
// that type is integer, numeric or boolean, which print bare. Implicit
// coercions (an integer literal into a bigint column) are not shown, as
// PostgreSQL does not show them. Schema tools (knex's columnInfo, Rails'
// schema dump) compare these texts with what they expect from PostgreSQL.
func defaultDisplay(def string, t sqltypes.Type) string {
	lit := strings.TrimSpace(def)
	switch {
	case strings.EqualFold(lit, "null"):
		// The NULL of the column's type (format_type's name).
		bare := t
		bare.Width, bare.Scale = 0, 0
		name := bare.String()
		if bare.ID == sqltypes.BPChar {
			name = "bpchar"
		}
		return "NULL::" + name
	case strings.EqualFold(lit, "true") || strings.EqualFold(lit, "false"):
		return strings.ToLower(lit)
	case isNumberLiteral(lit, false):
		n, err := strconv.ParseInt(strings.TrimPrefix(lit, "+"), 10, 64)
		if err != nil {
			return def
		}
		return intConst(n)
	case isNumberLiteral(lit, true):
		lit = strings.TrimPrefix(lit, "+")
		if strings.HasPrefix(lit, "-") {
			return sqltypes.QuoteLiteral(lit) + "::numeric"
		}
		return lit
	case len(lit) >= 2 && lit[0] == '\'' && lit[len(lit)-1] == '\'':
		s := lit[1 : len(lit)-1]
		if strings.Contains(strings.ReplaceAll(s, "''", ""), "'") {
			return def // more than one literal
		}
		s = strings.ReplaceAll(s, "''", "'")
		bare := t
		bare.Width, bare.Scale = 0, 0
		v, err := sqltypes.ParseText(bare, s)
		if err != nil {
			return def
		}
		switch bare.ID {
		case sqltypes.Bool:
			if v.I != 0 {
				return "true"
			}
			return "false"
		case sqltypes.Int4:
			return intConst(v.I)
		case sqltypes.Numeric:
			if text := sqltypes.FormatText(v); !strings.HasPrefix(text, "-") && text != "NaN" {
				return text
			}
		}
		name := bare.String()
		if bare.ID == sqltypes.BPChar {
			name = "bpchar" // format_type of character without a length
		}
		return sqltypes.QuoteLiteral(sqltypes.FormatText(v)) + "::" + name
	}
	return def
}

// intConst prints an int4 constant as get_const_expr does; a value past
// int4 is a bigint constant, printed with its cast.
func intConst(n int64) string {
	switch {
	case n < math.MinInt32 || n > math.MaxInt32:
		return sqltypes.QuoteLiteral(strconv.FormatInt(n, 10)) + "::bigint"
	case n < 0:
		return sqltypes.QuoteLiteral(strconv.FormatInt(n, 10)) + "::integer"
	}
	return strconv.FormatInt(n, 10)
}

// isNumberLiteral reports whether s is a signed integer literal, or with
// decimal a literal with a fraction or an exponent.
func isNumberLiteral(s string, decimal bool) bool {
	s = strings.TrimLeft(s, "+-")
	if s == "" {
		return false
	}
	digits, frac := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' || c == 'e' || c == 'E':
			frac = true
			if c != '.' && i+1 < len(s) && (s[i+1] == '+' || s[i+1] == '-') {
				i++
			}
		default:
			return false
		}
	}
	return digits > 0 && frac == decimal
}

// ExprDeparser binds the text of an expression that table t keeps (a
// default, a CHECK, an index expression or predicate) over a row of t and
// prints it as ruleutils does (ir.DeparseMode); ok is false when the text
// does not bind or does not deparse faithfully, and the caller prints the
// text as kept. The planner registers it: binding is the planner's, and
// every pg_get_* function deparses through this one path.
var ExprDeparser func(snap *catalog.Snapshot, t *catalog.Table, sql string, pretty bool) (string, bool)

// deparseExpr is ExprDeparser over the environment's snapshot.
func (e *Env) deparseExpr(t *catalog.Table, sql string, pretty bool) (string, bool) {
	if ExprDeparser == nil || t == nil || strings.TrimSpace(sql) == "" {
		return "", false
	}
	return ExprDeparser(e.Snap, t, sql, pretty)
}

// ViewDeparser binds a view's query text and prints it as pg_get_viewdef
// prints the view's rule (ir.DeparseQuery), with the view's column names
// (nil: the query's own) and its stars as they expanded at CREATE VIEW
// (catalog.View.Stars); ok is false when it does not bind or its shape
// is not one the deparser prints, and the caller prints the query as
// written. path is the search path the view was created under, which
// binds its names (nil: public); the names print as snap's path sees
// them. The planner registers it.
var ViewDeparser func(snap *catalog.Snapshot, path []string, sql string, names []string, stars []catalog.ViewStar, pretty bool) (string, bool)

// viewDefinition is pg_get_viewdef of a view or materialized view, plain
// or pretty; ok is false for other relations.
func (e *Env) viewDefinition(o *object, pretty bool) (string, bool) {
	def, ok := o.definition()
	if !ok || ViewDeparser == nil {
		return def, ok
	}
	var sql string
	var names, path []string
	var stars []catalog.ViewStar
	switch {
	case o.view != nil:
		sql, names, path, stars = o.view.SQL, o.view.Columns, o.view.Path, o.view.Stars
	case o.kind == 'm':
		sql, path, stars = o.table.Matview.SQL, o.table.Matview.Path, o.table.Matview.Stars
		for _, c := range o.table.Columns {
			if !c.Hidden {
				names = append(names, c.Name)
			}
		}
	}
	if text, ok := ViewDeparser(e.Snap, path, sql, names, stars, pretty); ok {
		return text, true
	}
	return def, true
}

// CheckColumns are the columns of t a CHECK's text reads, in the order
// they first appear (nil when it does not bind); the planner registers
// it.
var CheckColumns func(snap *catalog.Snapshot, t *catalog.Table, sql string) []int
