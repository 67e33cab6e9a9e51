package planner

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// Automatically updatable views, as PostgreSQL has them: INSERT, UPDATE
// and DELETE on a view that reads one table (or one such view) with no
// DISTINCT, grouping, aggregates, window or set-returning functions, set
// operations, WITH or LIMIT write that table, the view's WHERE added to
// UPDATE's and DELETE's. zproxy requires every column of such a view to be
// a column of the table (PostgreSQL also lets the plain columns of a view
// with computed ones be written), and has no WITH CHECK OPTION.
//
// The write is bound against a stand-in for the table (viewTable): the
// table's columns in its own order, under the view's names, those the view
// does not show hidden. Column positions are then the table's, so the bound
// statement only needs its target and its scan swapped for the table's
// (finishViewWrite); the view's column order matters for INSERT without a
// column list and for RETURNING *, which ask viewWrite.

// viewWrite is a write through an updatable view being bound.
type viewWrite struct {
	name  string
	base  *catalog.Table
	stand *catalog.Table
	// order lists the table column of each view column, in view order.
	order []int
	// where are the views' WHERE conditions over the table row.
	where []ir.Expr
	// perm is the write's target permission, recorded against the
	// stand-in (permissions.go).
	perm *ir.RelPermission
	// instead is the view when the write runs its INSTEAD OF triggers
	// (insteadof.go); then base and stand are its stand-in.
	instead *catalog.View
}

// viewTarget returns the stand-in table for a write through view v.
func (b *Binder) viewTarget(v *catalog.View) (*catalog.Table, error) {
	if w := b.insteadOfTarget(v); w != nil {
		b.viewWrite = w
		return w.stand, nil
	}
	w, err := b.updatableView(v, 0)
	if err != nil {
		return nil, err
	}
	b.viewWrite = w
	return w.stand, nil
}

// notUpdatable is PostgreSQL's error for a write to a view it cannot
// write through.
func (b *Binder) notUpdatable(name, detail string) error {
	verb, hint, op := "change", "changing", "UPDATE"
	switch b.stmt.AST.(type) {
	case *ast.InsertStmt:
		verb, hint, op = "insert into", "inserting into", "INSERT"
	case *ast.UpdateStmt:
		verb, hint = "update", "updating"
	case *ast.DeleteStmt:
		verb, hint, op = "delete from", "deleting from", "DELETE"
	}
	return pgerr.New(pgerr.ObjectNotInPrerequisiteState, "cannot %s view %q", verb, name).WithDetail("%s", detail).
		WithHint("To enable %s the view, provide an INSTEAD OF %s trigger or an unconditional ON %s DO INSTEAD rule.", hint, op, op)
}

// updatableView checks that a view can be written through and works out
// what it writes.
func (b *Binder) updatableView(v *catalog.View, depth int) (*viewWrite, error) {
	if depth >= maxViewDepth {
		return nil, pgerr.New(pgerr.InvalidObjectDefinition, "infinite recursion detected in rules for relation %q", v.Name)
	}
	stmts, err := parser.Parse(v.SQL)
	if err != nil || len(stmts) != 1 {
		return nil, pgerr.New(pgerr.InvalidObjectDefinition, "view %q has an invalid definition: %v", v.Name, err)
	}
	sel, _ := stmts[0].AST.(*ast.SelectStmt)
	ts, tn, detail := autoUpdatable(b, sel)
	if detail != "" {
		return nil, b.notUpdatable(v.Name, detail)
	}

	// What the view reads: a table, or a view written through in turn.
	w := &viewWrite{name: v.Name}
	src, err := b.snap.Table(tableKey(tn))
	if err != nil {
		inner, ok := b.snap.StoredView(tableKey(tn))
		if !ok {
			return nil, err
		}
		iw, err := b.updatableView(inner, depth+1)
		if err != nil {
			return nil, err
		}
		w.base, src, w.where = iw.base, iw.stand, iw.where
	} else if src.IsMatview() {
		return nil, b.notUpdatable(v.Name, "Views that do not select from a single table or view are not automatically updatable.")
	} else {
		w.base = src
	}
	alias, _, _ := parser.SplitAlias(ts.AsName.O)
	if alias == "" {
		_, alias = catalog.SplitName(tn.Name.O)
	}

	// Its columns and WHERE, bound over that row.
	saved := b.stmt
	b.stmt = &stmts[0]
	b.viewDepth++
	defer func() { b.stmt = saved; b.viewDepth-- }()
	defer b.replayStars(v.Stars)()
	sc := env{}.newScope()
	sc.items = []*fromItem{{alias: alias, cols: ir.NewScan(src, alias).Columns()}}
	for _, f := range sel.Fields.Fields {
		var es []ir.Expr
		if f.WildCard != nil {
			if es, _, err = b.expandStar(sc, f.WildCard.Table.O); err != nil {
				return nil, b.fromEntryError(sc, err)
			}
		} else {
			e, err := b.bindExpr(sc, f.Expr)
			if err != nil {
				return nil, err
			}
			es = []ir.Expr{e}
		}
		for _, e := range es {
			c, ok := e.(*ir.ColRef)
			if !ok {
				return nil, unsupported("writing through view %q is not supported: its column %d is computed, not a column of %s", v.Name, len(w.order)+1, w.base.Name)
			}
			w.order = append(w.order, c.Index)
		}
	}
	if len(w.order) != len(v.Columns) {
		return nil, pgerr.New(pgerr.InvalidObjectDefinition, "view %q no longer matches its definition", v.Name)
	}
	if sel.Where != nil {
		pred, err := b.bindBool(sc, sel.Where, "WHERE")
		if err != nil {
			return nil, err
		}
		w.where = append(w.where, pred)
	}

	// The stand-in: the table's columns, named as the view names them.
	// Its columns' defaults are the view's own (ALTER VIEW ... SET
	// DEFAULT), else those of what it reads (an inner view's, the
	// table's).
	stand := *w.base
	stand.Name = v.Name // errors name the view
	stand.Columns = make([]catalog.Column, len(w.base.Columns))
	for i, c := range src.Columns {
		c.Hidden = true
		c.Name = "\x00" + w.base.Columns[i].Name // no query can name it
		stand.Columns[i] = c
	}
	for i, k := range w.order {
		if !stand.Columns[k].Hidden {
			return nil, unsupported("writing through view %q is not supported: it shows column %s twice", v.Name, w.base.Columns[k].Name)
		}
		stand.Columns[k].Name, stand.Columns[k].Hidden = v.Columns[i], false
		if i < len(v.Defaults) && v.Defaults[i] != "" {
			c := &stand.Columns[k]
			c.Default, c.Identity, c.Sequence = v.Defaults[i], "", ""
		}
	}
	w.stand = &stand
	return w, nil
}

// autoUpdatable applies PostgreSQL's view_query_is_auto_updatable to a
// view's query sel: the detail of its error when the view is not
// automatically updatable, else its one table source and that source's
// name.
func autoUpdatable(b *Binder, sel *ast.SelectStmt) (*ast.TableSource, *ast.TableName, string) {
	if sel == nil || sel.Kind != ast.SelectStmtKindSelect {
		return nil, nil, "Views containing UNION, INTERSECT, or EXCEPT are not automatically updatable."
	}
	var detail string
	switch {
	case sel.With != nil:
		detail = "Views containing WITH are not automatically updatable."
	case sel.Distinct:
		detail = "Views containing DISTINCT are not automatically updatable."
	case sel.GroupBy != nil:
		detail = "Views containing GROUP BY are not automatically updatable."
	case sel.Having != nil:
		detail = "Views containing HAVING are not automatically updatable."
	case sel.Limit != nil:
		detail = "Views containing LIMIT or OFFSET are not automatically updatable."
	case hasAggregate(b, sel.Fields):
		detail = "Views that return aggregate functions are not automatically updatable."
	case fieldsHave(sel.Fields, containsWindow):
		detail = "Views that return window functions are not automatically updatable."
	case fieldsHave(sel.Fields, containsSetCall):
		detail = "Views that return set-returning functions are not automatically updatable."
	}
	if detail != "" {
		return nil, nil, detail
	}
	var ts *ast.TableSource
	if sel.From != nil && sel.From.TableRefs != nil && sel.From.TableRefs.Right == nil {
		ts, _ = sel.From.TableRefs.Left.(*ast.TableSource)
	}
	var tn *ast.TableName
	if ts != nil {
		tn, _ = ts.Source.(*ast.TableName)
	}
	if tn == nil || tn.Schema.O != "" && tn.Schema.O != "public" {
		return nil, nil, "Views that do not select from a single table or view are not automatically updatable."
	}
	return ts, tn, ""
}

func init() { pgcatalog.ViewUpdatability = viewUpdatability }

// viewUpdatability answers pgcatalog.ViewUpdatability: whether view v is
// automatically updatable as PostgreSQL decides (whatever zproxy itself
// can write through: a view with computed columns is updatable in its
// other columns there), the table or view it writes through, and for
// each view column the source column it shows by name (its index in the
// table's Columns or the view's Columns), -1 for any other expression.
func viewUpdatability(snap *catalog.Snapshot, v *catalog.View) (base any, cols []int, ok bool) {
	stmts, err := parser.Parse(v.SQL)
	if err != nil || len(stmts) != 1 {
		return nil, nil, false
	}
	b := &Binder{snap: snap, stmt: &stmts[0]}
	sel, _ := stmts[0].AST.(*ast.SelectStmt)
	ts, tn, detail := autoUpdatable(b, sel)
	if detail != "" {
		return nil, nil, false
	}
	var names []string
	if t, err := snap.Table(tableKey(tn)); err == nil {
		if t.IsMatview() {
			return nil, nil, false
		}
		base = t
		for _, c := range t.Columns {
			if c.Hidden {
				names = append(names, "")
			} else {
				names = append(names, c.Name)
			}
		}
	} else if inner, ok := snap.StoredView(tableKey(tn)); ok {
		base, names = inner, inner.Columns
	} else {
		return nil, nil, false
	}
	alias, _, _ := parser.SplitAlias(ts.AsName.O)
	if alias == "" {
		_, alias = catalog.SplitName(tn.Name.O)
	}
	source := func(n *ast.ColumnName) int {
		if n.Schema.O != "" || n.Table.O != "" && n.Table.L != strings.ToLower(alias) {
			return -1
		}
		for i, name := range names {
			if name != "" && name == n.Name.O {
				return i
			}
		}
		return -1
	}
	for _, f := range sel.Fields.Fields {
		if f.WildCard != nil {
			for i, name := range names {
				if name != "" {
					cols = append(cols, i)
				}
			}
			continue
		}
		x := f.Expr
		for {
			p, ok := x.(*ast.ParenthesesExpr)
			if !ok {
				break
			}
			x = p.Expr
		}
		if c, ok := x.(*ast.ColumnNameExpr); ok {
			cols = append(cols, source(c.Name))
		} else {
			cols = append(cols, -1)
		}
	}
	if len(cols) != len(v.Columns) {
		return nil, nil, false
	}
	return base, cols, true
}

func fieldsHave(fields *ast.FieldList, pred func(ast.ExprNode) bool) bool {
	for _, f := range fields.Fields {
		if f.Expr != nil && pred(f.Expr) {
			return true
		}
	}
	return false
}

// containsSetCall reports whether an expression calls a set-returning
// function (outside subqueries).
func containsSetCall(node ast.ExprNode) bool {
	found := false
	node.Accept(&setCallFinder{found: &found})
	return found
}

type setCallFinder struct{ found *bool }

func (v *setCallFinder) Enter(n ast.Node) (ast.Node, bool) {
	switch x := n.(type) {
	case *ast.FuncCallExpr:
		for _, o := range builtins.Overloads(x.FnName.L) {
			if o.Set != nil {
				*v.found = true
				return n, true
			}
		}
	case *ast.SubqueryExpr:
		return n, true
	}
	return n, false
}

func (v *setCallFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// insertOrder is the column order of INSERT INTO view VALUES (...).
func (w *viewWrite) insertOrder() []int { return w.order }

// returningOrder puts the target's columns of RETURNING * in view order
// (the stand-in lists them in the table's).
func (w *viewWrite) returningOrder(es []ir.Expr, cols []ir.Column) ([]ir.Expr, []ir.Column) {
	pos := map[int]int{}
	for i, k := range w.order {
		pos[k] = i
	}
	var tes []ir.Expr
	var tcols []ir.Column
	var rest []int
	for i, e := range es {
		if c, ok := e.(*ir.ColRef); ok && c.Index < len(w.base.Columns) {
			tes, tcols = append(tes, e), append(tcols, cols[i])
			continue
		}
		rest = append(rest, i)
	}
	if len(tes) != len(w.order) {
		return es, cols // qualified by another item
	}
	outE := make([]ir.Expr, len(w.order), len(es))
	outC := make([]ir.Column, len(w.order), len(es))
	for i, e := range tes {
		p := pos[e.(*ir.ColRef).Index]
		outE[p], outC[p] = e, tcols[i]
	}
	for _, i := range rest {
		outE, outC = append(outE, es[i]), append(outC, cols[i])
	}
	return outE, outC
}

// finishWrite completes a bound INSERT, UPDATE or DELETE: one through a
// view becomes one of its table.
func (b *Binder) finishWrite(st ir.Statement, err error) (ir.Statement, error) {
	if err != nil || b.viewWrite == nil {
		b.viewWrite = nil
		return st, err
	}
	return b.finishViewWrite(st)
}

// finishViewWrite turns a write bound against a view's stand-in into one
// of the table: the table as target, its scan under the views' WHERE.
func (b *Binder) finishViewWrite(st ir.Statement) (ir.Statement, error) {
	w := b.viewWrite
	b.viewWrite = nil
	if w.instead != nil {
		return b.finishInsteadOf(st, w)
	}
	b.viewWritePermissions(w)
	scanOf := func(r ir.Rel) ir.Rel { return b.viewScan(r, w) }
	recheck := func(r ir.Expr) ir.Expr {
		for _, c := range w.where {
			for _, x := range ir.Conjuncts(c) {
				if onlyCols(x, len(w.base.Columns)) {
					r = andExpr(r, x)
				}
			}
		}
		return r
	}
	switch s := st.(type) {
	case *ir.Insert:
		if s.OnConflict != nil {
			return nil, unsupported("INSERT ... ON CONFLICT through a view is not supported")
		}
		s.Table = w.base
	case *ir.Update:
		s.Table, s.Source, s.Recheck = w.base, scanOf(s.Source), recheck(s.Recheck)
	case *ir.Delete:
		s.Table, s.Source, s.Recheck = w.base, scanOf(s.Source), recheck(s.Recheck)
	}
	return st, nil
}

// viewScan replaces the scan of the stand-in in a write's source with the
// table's, filtered by the views' WHERE.
func (b *Binder) viewScan(r ir.Rel, w *viewWrite) ir.Rel {
	if n, ok := r.(*ir.Scan); ok {
		if n.Table != w.stand {
			return n
		}
		s := ir.NewScan(w.base, n.Alias)
		s.Hints, s.Lock = n.Hints, n.Lock
		var out ir.Rel = s
		for _, c := range w.where {
			out = &ir.Filter{Input: out, Pred: c}
		}
		return out
	}
	return ir.MapInputs(r, func(in ir.Rel) ir.Rel { return b.viewScan(in, w) })
}
