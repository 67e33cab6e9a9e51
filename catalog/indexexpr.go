package catalog

import (
	"strings"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Expression and partial indexes. A key part of a secondary index may be
// an expression of the row (KeyColumn.Expr, Column -1) and an index may
// have a predicate (Index.Predicate): only the rows for which it is true
// have entries. The catalog keeps both as text and knows no expression:
// ir.BindIndex binds them, and ir.IndexRow computes a row's *entry row*,
// the table row followed by the values of the index's expressions in key
// order, which is what the entry functions here (EntryKeyPK, UniqueKeyed,
// UniqueKey, Z-order codes) read key parts from. An index of columns only
// reads the table row itself.

// HasExprs reports whether a key part of ix is an expression.
func (ix *Index) HasExprs() bool {
	for _, k := range ix.Columns {
		if k.Column < 0 {
			return true
		}
	}
	return false
}

// Partial reports whether ix has a predicate (CREATE INDEX ... WHERE).
func (ix *Index) Partial() bool { return ix.Predicate != "" }

// Plain reports whether ix indexes columns only, every row: its entries
// are computed from the table row alone.
func (ix *Index) Plain() bool { return !ix.Partial() && !ix.HasExprs() }

// KeyValue returns key part i of ix in an entry row (see above).
func (t *Table) KeyValue(ix *Index, i int, row []sqltypes.Value) sqltypes.Value {
	if c := ix.Columns[i].Column; c >= 0 {
		return row[c]
	}
	slot := len(t.Columns)
	for _, k := range ix.Columns[:i] {
		if k.Column < 0 {
			slot++
		}
	}
	return row[slot]
}

// KeyType returns the type of key part k.
func (t *Table) KeyType(k KeyColumn) sqltypes.Type {
	if k.Column >= 0 {
		return t.Columns[k.Column].Type
	}
	if k.ExprType != nil {
		return *k.ExprType
	}
	return sqltypes.TypeText
}

// KeyName names key part k as PostgreSQL's messages and catalogs do: the
// column's name, or the expression's text.
func (t *Table) KeyName(k KeyColumn) string {
	if k.Column >= 0 {
		return t.Columns[k.Column].Name
	}
	return k.Expr
}

// KeyNotNull reports whether key part k is never NULL (a NOT NULL column;
// an expression may always be).
func (t *Table) KeyNotNull(k KeyColumn) bool {
	return k.Column >= 0 && t.Columns[k.Column].NotNull
}

// IndexKeyDef prints an index key expression as pg_get_indexdef does: a
// function call as it is, any other expression in one more pair of
// parentheses ((n + 1) → ((n + 1))).
func IndexKeyDef(text string) string {
	if looksLikeFunction(text) {
		return text
	}
	return "(" + text + ")"
}

// looksLikeFunction reports whether a deparsed expression is a function
// call (name(...) ending at its closing parenthesis), as ruleutils'
// looks_like_function decides on the node.
func looksLikeFunction(s string) bool {
	i := 0
	for i < len(s) && (s[i] == '_' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || i > 0 && s[i] >= '0' && s[i] <= '9') {
		i++
	}
	return i > 0 && Enclosed(s[i:])
}

// Enclosed reports whether s is one parenthesized expression, its first
// parenthesis closing at its end (quotes respected).
func Enclosed(s string) bool {
	if len(s) < 2 || s[0] != '(' || s[len(s)-1] != ')' {
		return false
	}
	depth, quote := 0, byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 && i < len(s)-1 {
				return false
			}
		}
	}
	return depth == 0
}

// KeyDef prints key part k as pg_get_indexdef does (IndexKeyDef for an
// expression, the quoted column name otherwise).
func (t *Table) KeyDef(k KeyColumn) string {
	if k.Column >= 0 {
		return sqltypes.QuoteIdent(t.Columns[k.Column].Name)
	}
	return IndexKeyDef(k.Expr)
}

// ExprAttName is the name of an expression key's attribute of the index
// relation (pg_attribute): the function's name for a call, else "expr",
// as PostgreSQL's FigureColname names it.
func ExprAttName(text string) string {
	if looksLikeFunction(text) {
		return strings.ToLower(text[:strings.IndexByte(text, '(')])
	}
	return "expr"
}
