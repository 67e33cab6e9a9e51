package session

import (
	"context"
	"strings"
	"time"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
	"github.com/zproxy/zproxy/wire"
)

// WHERE CURRENT OF: an UPDATE's or DELETE's "CURRENT OF cursor" becomes
// the primary key of the row the cursor is on, as constants, so the
// statement is bound as a key lookup of that row. zproxy's rows have no
// ctid: the cursor's query must select its table's primary key columns
// (0A000 otherwise), and the statement must write that table (24000, as
// PostgreSQL says of a cursor over another).

// currentOfText returns sql with bytes [start, end) ("CURRENT OF name")
// replaced by the current row's key of cursor portal, and the cursor's
// table.
func (s *Session) currentOfText(sql string, start, end int, portal string) (string, *catalog.Table, error) {
	wc, err := s.ext.reg.Cursor(portal)
	if err != nil {
		return "", nil, err
	}
	c, ok := wc.(*cursor)
	if !ok {
		return "", nil, pgerr.New(pgerr.InvalidCursorName, "cursor \"%s\" does not exist", portal)
	}
	var t *catalog.Table
	for _, col := range c.src {
		if col.Table != nil {
			t = col.Table
			break
		}
	}
	if t == nil {
		return "", nil, pgerr.New(pgerr.InvalidCursorState, "cursor \"%s\" is not a simply updatable scan of a table", portal)
	}
	if c.current == nil {
		return "", nil, pgerr.New(pgerr.InvalidCursorState, "cursor \"%s\" is not positioned on a row", portal)
	}
	var pred strings.Builder
	for i, k := range t.PrimaryKey {
		at := -1
		for j, col := range c.src {
			if col.Table != nil && col.Table.ID == t.ID && col.Col == k.Column {
				at = j
				break
			}
		}
		if at < 0 || k.Column < 0 || at >= len(c.current) {
			return "", nil, pgerr.New(pgerr.FeatureNotSupported, "WHERE CURRENT OF needs cursor \"%s\" to select the primary key of table \"%s\"", portal, t.Name)
		}
		if i > 0 {
			pred.WriteString(" AND ")
		}
		col := t.Columns[k.Column]
		pred.WriteString(sqltypes.QuoteIdent(col.Name))
		v := c.current[at]
		if v.IsNull() {
			pred.WriteString(" IS NULL")
			continue
		}
		pred.WriteString(" = ")
		pred.WriteString(builtins.QuoteLiteral(string(sqltypes.AppendTextStyled(nil, col.Type, v, s.bindStyle()))))
		pred.WriteString("::")
		pred.WriteString(col.Type.String())
	}
	return sql[:start] + "(" + pred.String() + ")" + sql[end:], t, nil
}

// checkCurrentOfTarget refuses a statement that writes another table than
// its cursor's.
func checkCurrentOfTarget(st ir.Statement, t *catalog.Table, portal string) error {
	var target *catalog.Table
	switch x := st.(type) {
	case *ir.Update:
		target = x.Table
	case *ir.Delete:
		target = x.Table
	default:
		return pgerr.New(pgerr.SyntaxError, "WHERE CURRENT OF is only allowed in UPDATE and DELETE")
	}
	if target.ID != t.ID {
		return pgerr.New(pgerr.InvalidCursorState, "cursor \"%s\" is not a simply updatable scan of table \"%s\"", portal, target.Name)
	}
	return nil
}

// currentOfRef is a statement's WHERE CURRENT OF: the statement's text,
// where "CURRENT OF name" is ([start, end)) and the cursor's name.
type currentOfRef struct {
	sql        string
	start, end int
	cursor     string
}

// parseCurrentOf reads a statement the grammar refused for its WHERE
// CURRENT OF: it is parsed (and described) with FALSE in its place, and
// each execution puts the cursor's current row there. nil when sql is no
// single such statement.
func (s *Session) parseCurrentOf(sql string, paramTypes []sqltypes.Type) *statement {
	start, end, name, ok := parser.CurrentOf(sql)
	if !ok {
		return nil
	}
	stmts, err := parser.Parse(sql[:start] + "FALSE" + sql[end:])
	if err != nil || len(stmts) != 1 || stmts[0].Utility != nil {
		return nil
	}
	return &statement{sess: s, parsed: &stmts[0], declared: paramTypes,
		currentOf: &currentOfRef{sql: sql, start: start, end: end, cursor: name}}
}

// executeCurrentOf runs a statement with WHERE CURRENT OF: bound afresh
// with the cursor's current row.
func (st *statement) executeCurrentOf(ctx context.Context, params []sqltypes.Value, start time.Time) (wire.Result, string, error) {
	ref := st.currentOf
	text, t, err := st.sess.currentOfText(ref.sql, ref.start, ref.end, ref.cursor)
	if err != nil {
		return nil, "", err
	}
	stmts, err := parser.Parse(text)
	if err != nil {
		return nil, "", err
	}
	if len(stmts) != 1 {
		return nil, "", pgerr.New(pgerr.SyntaxError, "WHERE CURRENT OF in several statements")
	}
	inner := st.sub(&stmts[0])
	bound, _, _, err := inner.bind(ctx)
	if err != nil {
		return nil, "", err
	}
	if err := checkCurrentOfTarget(bound, t, ref.cursor); err != nil {
		return nil, "", err
	}
	return inner.execute(ctx, params, start)
}
