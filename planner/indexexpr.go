package planner

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// Expression and partial indexes (catalog/indexexpr.go). CREATE INDEX
// binds each expression key and the predicate with PostgreSQL's
// restrictions (immutable, no subquery, aggregate, window or
// set-returning function) and keeps their deparsed text (ir.Deparse), which
// binds back to the same expression in any session; ir.BindIndex binds
// that text for every stage that computes or matches entries, through
// bindIndexText below.

func init() { ir.IndexBinder = bindIndexText }

// bindIndexText binds ix's stored expressions and predicate over a row of
// t. The texts are deparsed (constants typed, timestamptz constants with
// their offset), so no session setting changes what they bind to.
func bindIndexText(t *catalog.Table, ix *catalog.Index) (*ir.BoundIndex, error) {
	b := &Binder{snap: &catalog.Snapshot{}, loc: time.UTC}
	bi := &ir.BoundIndex{Keys: make([]ir.Expr, len(ix.Columns))}
	for i, k := range ix.Columns {
		if k.Column >= 0 {
			continue
		}
		e, err := b.bindIndexExpr(t, k.Expr, false)
		if err != nil {
			return nil, err
		}
		bi.Keys[i] = e
	}
	if ix.Predicate != "" {
		e, err := b.bindIndexExpr(t, ix.Predicate, true)
		if err != nil {
			return nil, err
		}
		bi.Pred = e
	}
	return bi, nil
}

// bindIndexExpr binds an index expression (pred false) or predicate over
// a row of t, refusing what PostgreSQL refuses there.
func (b *Binder) bindIndexExpr(t *catalog.Table, sql string, pred bool) (ir.Expr, error) {
	where := "index expression"
	if pred {
		where = "index predicate"
	}
	sub, node, err := b.parseStoredExpr(sql, where)
	if err != nil {
		return nil, err
	}
	sc := &scope{items: []*fromItem{tableItem(t, t.Name, 0)}}
	var e ir.Expr
	if pred {
		e, err = sub.bindBool(sc, node, "WHERE")
	} else {
		e, err = sub.bindExpr(sc, node)
	}
	if err != nil {
		return nil, err
	}
	if !immutableExpr(e) {
		return nil, pgerr.New(pgerr.InvalidObjectDefinition, "functions in %s must be marked IMMUTABLE", where)
	}
	return e, nil
}

// immutableExpr reports whether e calls only immutable functions and
// casts (none whose result depends on a session setting), as an index
// or partition key expression must.
func immutableExpr(e ir.Expr) bool {
	immutable := true
	ir.Walk(e, func(x ir.Expr) {
		switch x := x.(type) {
		case *ir.Func:
			immutable = immutable && !x.Volatile
		case *ir.Cast:
			immutable = immutable && !ir.StyleDependentCast(x.E.Type(), x.To) && !zoneDependentCast(x.E.Type(), x.To)
		}
	})
	return immutable
}

// zoneDependentCast reports whether a cast's result depends on the
// session's TimeZone or DateStyle (PostgreSQL's stable casts): between
// timestamptz and another date/time type, time to timetz, and text to a
// date/time type.
func zoneDependentCast(from, to sqltypes.Type) bool {
	dateTime := func(t sqltypes.Type) bool {
		switch t.ID {
		case sqltypes.Date, sqltypes.Timestamp, sqltypes.TimestampTZ, sqltypes.Time, sqltypes.TimeTZ:
			return true
		}
		return false
	}
	if from.ID == to.ID {
		return false
	}
	if from.ID == sqltypes.Time && to.ID == sqltypes.TimeTZ {
		// time_timetz takes the session zone's offset today.
		return true
	}
	if from.ID == sqltypes.TimestampTZ || to.ID == sqltypes.TimestampTZ {
		return dateTime(from) && dateTime(to)
	}
	return from.IsTextual() && dateTime(to)
}

// bindIndexKeyExpr binds the i-th expression key of a CREATE INDEX into
// key part kc: its deparsed text, its type and the columns it reads.
func (b *Binder) bindIndexKeyExpr(t *catalog.Table, ix *catalog.Index, i int, kc *catalog.KeyColumn) (ir.Expr, error) {
	if i >= len(b.stmt.IndexExprs) {
		return nil, pgerr.New(pgerr.SyntaxError, "syntax error in index expression")
	}
	src := b.stmt.IndexExprs[i]
	e, err := b.bindIndexExpr(t, src.SQL, false)
	if err != nil {
		return nil, err
	}
	typ := e.Type()
	if typ.ID == sqltypes.Unknown {
		// An untyped literal is text, as PostgreSQL resolves it.
		if e, err = b.coerceTo(e, sqltypes.TypeText, false); err != nil {
			return nil, err
		}
		typ = sqltypes.TypeText
	}
	if ix.Kind != catalog.KindGIN { // a gin key is tokenized by its operator class
		if err := catalog.CheckKeyEncodable(typ); err != nil {
			return nil, err
		}
	}
	text := b.storedIndexText(t, e, src.SQL, false)
	kc.Column, kc.Expr, kc.ExprType = -1, text, &typ
	for _, c := range ir.Columns(e) {
		if !slices.Contains(ix.ExprColumns, c) {
			ix.ExprColumns = append(ix.ExprColumns, c)
		}
	}
	return e, nil
}

// bindIndexPredicate binds CREATE INDEX ... WHERE into ix.Predicate.
func (b *Binder) bindIndexPredicate(t *catalog.Table, ix *catalog.Index) error {
	if b.stmt.IndexWhere == "" {
		return nil
	}
	e, err := b.bindIndexExpr(t, b.stmt.IndexWhere, true)
	if err != nil {
		return err
	}
	text := b.storedIndexText(t, e, b.stmt.IndexWhere, true)
	ix.Predicate = text
	return nil
}

// indexExprOrdinal reports which lifted expression a CREATE INDEX key
// part's placeholder column names (parser.IndexExprPrefix), or -1.
func indexExprOrdinal(name string) int {
	rest, ok := strings.CutPrefix(name, parser.IndexExprPrefix)
	if !ok {
		return -1
	}
	n, err := strconv.Atoi(rest)
	if err != nil {
		return -1
	}
	return n
}

// uniqueKeyNames numbers repeated key names as ChooseIndexColumnNames
// does: (c + 1), (c + 2) name an index t_expr_expr1_idx.
func uniqueKeyNames(names []string) []string {
	out := make([]string, 0, len(names))
	for _, n := range names {
		cur := n
		for i := 1; slices.Contains(out, cur); i++ {
			cur = n + strconv.Itoa(i)
		}
		out = append(out, cur)
	}
	return out
}

// storedIndexText is the text an index keeps for its bound expression or
// predicate e: the deparsed form, as pg_get_indexdef prints it, when it
// binds back to the same expression, else the text as written. Every
// write binds the stored text again (ir.BindIndex), so it must bind.
func (b *Binder) storedIndexText(t *catalog.Table, e ir.Expr, written string, pred bool) string {
	text, ok := ir.Deparse(e)
	if ok {
		again, err := b.bindIndexExpr(t, text, pred)
		// The same value, though perhaps not the same tree: the deparsed
		// text spells implicit casts out ((nick)::text).
		ok = err == nil && again.Type() == e.Type()
	}
	if !ok {
		return strings.TrimSpace(written)
	}
	return text
}

func init() {
	pgcatalog.ExprDeparser = deparseStoredExpr
	pgcatalog.CheckColumns = func(snap *catalog.Snapshot, t *catalog.Table, sql string) []int {
		if snap == nil {
			snap = &catalog.Snapshot{}
		}
		b := &Binder{snap: snap, loc: time.UTC}
		_, cols, err := b.bindCheck(t, sql)
		if err != nil {
			return nil
		}
		return cols
	}
}

// deparseStoredExpr binds an expression text table t keeps over a row of
// t, as any session would, and deparses it (pg_get_expr,
// pg_get_constraintdef).
func deparseStoredExpr(snap *catalog.Snapshot, t *catalog.Table, sql string, pretty bool) (string, bool) {
	if snap == nil {
		snap = &catalog.Snapshot{}
	}
	b := &Binder{snap: snap, loc: time.UTC}
	sub, node, err := b.parseStoredExpr(sql, "")
	if err != nil {
		return "", false
	}
	if _, row := node.(*ast.RowExpr); row && !strings.HasPrefix(strings.ToLower(strings.TrimSpace(sql)), "row") {
		// An index's list of expressions, kept as "(a), (b)": no row
		// constructor, printed as kept.
		return "", false
	}
	sc := &scope{items: []*fromItem{tableItem(t, t.Name, 0)}}
	e, err := sub.bindExpr(sc, node)
	if err != nil {
		return "", false
	}
	return ir.DeparseNamed(e, pretty, deparseNames(snap))
}

// deparseNames names the objects of a deparsed text as snap's search
// path sees them (ir.RegNamer).
func deparseNames(snap *catalog.Snapshot) ir.RegNamer {
	return namesWithRegs{catalog.Names{Snap: snap}, pgcatalog.NewEnv(snap, nil)}
}

type namesWithRegs struct {
	catalog.Names
	*pgcatalog.Env
}

var _ ir.RegNamer = namesWithRegs{}

func init() { pgcatalog.ViewDeparser = deparseViewQuery }

// deparseViewQuery binds a view's query under the search path it was
// created under (path), as any session reading it does, and prints it as
// pg_get_viewdef does (ir.DeparseQuery), its names as snap's path sees
// them.
func deparseViewQuery(snap *catalog.Snapshot, path []string, sql string, names []string, stars []catalog.ViewStar, pretty bool) (string, bool) {
	if snap == nil {
		return "", false
	}
	stmts, err := parser.Parse(sql)
	if err != nil || len(stmts) != 1 {
		return "", false
	}
	notes := &ir.QueryNotes{Names: deparseNames(snap)}
	bindSnap := snap
	if _, ok := snap.SearchPath(); ok {
		if path == nil {
			path = []string{catalog.PublicSchema}
		}
		bindSnap = snap.WithPath(path)
	}
	st, _, err := bindStyledStars(bindSnap, &stmts[0], nil, sqltypes.Style{Location: time.UTC}, notes, stars)
	if err != nil {
		return "", false
	}
	q, ok := st.(*ir.Query)
	if !ok || len(q.Writes) > 0 {
		return "", false
	}
	return ir.DeparseQuery(q.Plan, names, pretty, notes)
}
