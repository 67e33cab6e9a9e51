package session

import (
	"context"
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// UPDATE and DELETE ... WHERE CURRENT OF cursor, as PostgreSQL's
// execCurrentOf answers them. zproxy has no ctid: a cursor whose query is
// a simple scan of one table (projections, a filter, ORDER BY and LIMIT
// over it; no join, aggregate, DISTINCT, window or set operation) runs
// with the table's primary-key columns appended to its output
// (rowKeyPlan), which FETCH and MOVE strip and keep as the key of the row
// the cursor stands on (cursor.step). The statement, whose WHERE the
// parser left TRUE, is narrowed to that key when it runs: a filter on the
// primary key, which the optimizer turns into a point lookup, and the same
// predicate rechecked on the target row.

// keyedCursor is what a cursor knows for WHERE CURRENT OF.
type keyedCursor struct {
	// table is the table the query scans (nil: not a simply updatable
	// scan), keyCols how many key values end each row of the query,
	// locking its FOR UPDATE / FOR SHARE.
	table   *catalog.Table
	keyCols int
	locking bool
	// cur is the key of the row the cursor stands on; nil when it stands
	// on none (before the first row, after the last).
	cur []sqltypes.Value
}

// keyedQuery returns q with the primary key of the table it scans appended
// to its rows, when it is a simply updatable scan, and the key's width.
func keyedQuery(q *ir.Query) (*ir.Query, *catalog.Table, int) {
	if len(q.Writes) > 0 {
		return q, nil, 0
	}
	plan, t, pos := rowKeyPlan(q.Plan)
	if t == nil {
		return q, nil, 0
	}
	kq := *q
	kq.Plan = plan
	return &kq, t, len(pos)
}

// rowKeyPlan rebuilds rel with the scanned table's primary-key columns
// after its own, returning the table and where the key columns stand;
// nil when rel is not a simply updatable scan of one stored table.
func rowKeyPlan(rel ir.Rel) (ir.Rel, *catalog.Table, []int) {
	switch x := rel.(type) {
	case *ir.Scan:
		t := x.Table
		if t == nil || t.Virtual != nil || t.IsMatview() || len(t.PrimaryKey) == 0 {
			return nil, nil, nil
		}
		cols := x.Columns()
		var pos []int
		for _, k := range t.PrimaryKey {
			at := -1
			for i, c := range cols {
				if c.Table == t && c.Col == k.Column {
					at = i
				}
			}
			if at < 0 {
				return nil, nil, nil
			}
			pos = append(pos, at)
		}
		return x, t, pos
	case *ir.Filter:
		in, t, pos := rowKeyPlan(x.Input)
		if t == nil {
			return nil, nil, nil
		}
		return &ir.Filter{Input: in, Pred: x.Pred}, t, pos
	case *ir.Sort:
		in, t, pos := rowKeyPlan(x.Input)
		if t == nil {
			return nil, nil, nil
		}
		return &ir.Sort{Input: in, Keys: x.Keys}, t, pos
	case *ir.Limit:
		in, t, pos := rowKeyPlan(x.Input)
		if t == nil {
			return nil, nil, nil
		}
		return &ir.Limit{Input: in, Count: x.Count, Offset: x.Offset}, t, pos
	case *ir.Project:
		in, t, pos := rowKeyPlan(x.Input)
		if t == nil {
			return nil, nil, nil
		}
		inCols := in.Columns()
		exprs := append(append([]ir.Expr(nil), x.Exprs...), make([]ir.Expr, len(pos))...)
		cols := append(append([]ir.Column(nil), x.Cols...), make([]ir.Column, len(pos))...)
		out := make([]int, len(pos))
		for i, p := range pos {
			c := inCols[p]
			at := len(x.Exprs) + i
			exprs[at] = &ir.ColRef{Index: p, Name: c.Name, Typ: c.Type}
			c.Hidden = false // kept in the rows the cursor reads; FETCH strips it
			cols[at] = c
			out[i] = at
		}
		return &ir.Project{Input: in, Exprs: exprs, Cols: cols}, t, out
	}
	return nil, nil, nil
}

// currentOf narrows UPDATE or DELETE ... WHERE CURRENT OF name (bound, or
// its EXPLAIN) to the cursor's current row, with PostgreSQL's errors in
// its order: no such cursor (34000), one held from a committed
// transaction, one that is no simply updatable scan of the target table,
// one standing on no row (24000). The key is compared with parameters
// base+1, ... (a plan the statement keeps stays right when the cursor
// moves), whose values it returns.
func (s *Session) currentOf(bound ir.Statement, name string, base int) (ir.Statement, []sqltypes.Value, error) {
	if x, ok := bound.(*ir.Explain); ok {
		inner, key, err := s.currentOf(x.Stmt, name, base)
		if err != nil {
			return nil, nil, err
		}
		c := *x
		c.Stmt = inner
		return &c, key, nil
	}
	wc, err := s.ext.reg.Cursor(name)
	if err != nil {
		return nil, nil, err
	}
	var target *catalog.Table
	switch x := bound.(type) {
	case *ir.Update:
		target = x.Table
	case *ir.Delete:
		target = x.Table
	default:
		return nil, nil, pgerr.New(pgerr.FeatureNotSupported, "WHERE CURRENT OF is only supported in UPDATE and DELETE")
	}
	_, tname := catalog.SplitName(target.Name)
	c, ok := wc.(*cursor)
	if !ok {
		return nil, nil, pgerr.New(pgerr.InvalidCursorState, "cursor \"%s\" is not a SELECT query", name)
	}
	if c.held {
		return nil, nil, pgerr.New(pgerr.InvalidCursorState, "cursor \"%s\" is held from a previous transaction", name)
	}
	k := &c.key
	if k.table == nil || k.table.ID != target.ID {
		if k.locking {
			return nil, nil, pgerr.New(pgerr.InvalidCursorState, "cursor \"%s\" does not have a FOR UPDATE/SHARE reference to table \"%s\"", name, tname)
		}
		return nil, nil, pgerr.New(pgerr.InvalidCursorState, "cursor \"%s\" is not a simply updatable scan of table \"%s\"", name, tname)
	}
	if k.cur == nil {
		return nil, nil, pgerr.New(pgerr.InvalidCursorState, "cursor \"%s\" is not positioned on a row", name)
	}
	var pred ir.Expr
	for i, pk := range target.PrimaryKey {
		col := target.Columns[pk.Column]
		eq := &ir.Binary{Op: ir.OpEq, L: &ir.ColRef{Index: pk.Column, Name: col.Name, Typ: col.Type},
			R: &ir.Param{N: base + i + 1, Typ: col.Type}, Typ: sqltypes.TypeBool}
		if pred == nil {
			pred = eq
		} else {
			pred = &ir.Binary{Op: ir.OpAnd, L: pred, R: eq, Typ: sqltypes.TypeBool}
		}
	}
	and := func(e ir.Expr) ir.Expr {
		if e == nil {
			return pred
		}
		return &ir.Binary{Op: ir.OpAnd, L: e, R: pred, Typ: sqltypes.TypeBool}
	}
	switch x := bound.(type) {
	case *ir.Update:
		u := *x
		u.Source, u.Recheck = &ir.Filter{Input: x.Source, Pred: pred}, and(x.Recheck)
		return &u, k.cur, nil
	case *ir.Delete:
		d := *x
		d.Source, d.Recheck = &ir.Filter{Input: x.Source, Pred: pred}, and(x.Recheck)
		return &d, k.cur, nil
	}
	return bound, nil, nil
}

// stepKeyed is step for a cursor that keeps its rows' keys: the key goes
// to key.cur, the row without it to the caller.
func (c *cursor) stepKeyed(ctx context.Context, forward bool) ([]sqltypes.Value, bool, error) {
	row, ok, err := c.stepRow(ctx, forward)
	if c.key.keyCols == 0 {
		return row, ok, err
	}
	c.key.cur = nil
	if err != nil || !ok {
		return nil, ok, err
	}
	n := len(row) - c.key.keyCols
	c.key.cur = row[n:]
	return row[:n], true, nil
}

// In a PL/pgSQL body, a statement's "CURRENT OF cursor" becomes the
// primary key of the row the cursor is on, as constants, so the statement
// is bound as a key lookup of that row. zproxy's rows have no
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
		pred.WriteString(sqltypes.QuoteLiteral(string(sqltypes.AppendTextStyled(nil, col.Type, v, s.bindStyle()))))
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
