package planner

import (
	"fmt"
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// targetTable resolves the table an INSERT, UPDATE or DELETE writes.
func (b *Binder) targetTable(refs *ast.TableRefsClause) (*catalog.Table, string, error) {
	if refs == nil || refs.TableRefs == nil || refs.TableRefs.Right != nil {
		return nil, "", unsupported("writing to several tables at once is not supported")
	}
	ts, ok := refs.TableRefs.Left.(*ast.TableSource)
	if !ok {
		return nil, "", unsupported("this write target is not supported")
	}
	tn, ok := ts.Source.(*ast.TableName)
	if !ok {
		return nil, "", unsupported("cannot write to a subquery")
	}
	t, alias, err := b.writeTarget(tn)
	if err != nil {
		if pe := pgerr.As(err); pe != nil && pe.Code == pgerr.UndefinedTable && pe.Position == 0 {
			// At the name, as PostgreSQL's RangeVar: a qualified one at
			// its qualifier.
			full, at := tn.Name.O, tn.Name.O
			if tn.Schema.O != "" {
				full, at = tn.Schema.O+"."+tn.Name.O, tn.Schema.O
			}
			err = pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", full).WithPosition(b.stmt.NamePosition(at))
		}
		return nil, "", err
	}
	// Rows written to a partition directly fire the row triggers it has
	// from the partitioned tables above it (their clones, as PostgreSQL's).
	t = b.snap.WithClonedTriggers(t)
	// A relation of a user schema is named by its key "schema.name"
	// (schemas.go); its default alias is the name in the schema.
	_, alias = catalog.SplitName(alias)
	if ts.AsName.O != "" {
		alias = ts.AsName.O
	}
	if b.stmt.InsertAlias != "" {
		alias = b.stmt.InsertAlias
	}
	return t, alias, nil
}

// ComputedWriteError is a write to a table zproxy computes (a catalog
// table, a built-in extension's such as PostGIS's spatial_ref_sys),
// which it cannot change: Err (55000) for a superuser. The bootstrap
// superuser owns those tables in PostgreSQL and PUBLIC may only read
// them, and the privilege check comes first, so the session reports
// "permission denied" (42501) to any other role. (A write to a computed
// view fails as no view can be written, for every role, as PostgreSQL's
// rewriter refuses it before the privilege check.)
type ComputedWriteError struct {
	Relation string // as PostgreSQL names it in the message: unqualified
	Err      *pgerr.Error
}

func (e *ComputedWriteError) Error() string { return e.Err.Error() }

// Unwrap gives the 55000 error, which callers that do not tell roles
// apart report.
func (e *ComputedWriteError) Unwrap() error { return e.Err }

// computedWrite is err for a write to the computed relation schema.name,
// a ComputedWriteError when the relation is a table; a view's is
// PostgreSQL's for a view it cannot write through (its rewriter refuses
// the write before privileges are checked, whoever writes).
func (b *Binder) computedWrite(schema, name string, err *pgerr.Error) error {
	r := pgcatalog.Find(schema, name)
	switch {
	case r == nil:
		return err
	case !r.IsTable():
		return b.notUpdatable(name, "Views that do not select from a single table or view are not automatically updatable.")
	}
	return &ComputedWriteError{Relation: name, Err: err}
}

func (b *Binder) writeTarget(tn *ast.TableName) (*catalog.Table, string, error) {
	if tn.Schema.O == "" && b.transitionTable(tn.Name.O) != nil {
		return nil, "", pgerr.New(pgerr.FeatureNotSupported, "relation %q cannot be the target of a modifying statement", tn.Name.O)
	}
	if s := tn.Schema.L; s == "public" || isTempSchema(s) {
		snap, tempOnly := b.snapFor(s)
		if t, err := snap.Table(tn.Name.O); err == nil && (!tempOnly || t.Temp) {
			return t, tn.Name.O, nil
		}
		if tempOnly {
			return nil, "", pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", tn.Schema.O+"."+tn.Name.O)
		}
	}
	if s := tn.Schema.O; s != "" && s != "public" {
		if _, ok := pgcatalog.Lookup(b.snap, s, tn.Name.O); ok {
			return nil, "", b.computedWrite(s, tn.Name.O, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "cannot change relation %q", s+"."+tn.Name.O).
				WithDetail("The information_schema and pg_catalog relations are computed from the schema."))
		}
		return nil, "", pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", s+"."+tn.Name.O)
	}
	if tn.Schema.O == "" {
		if _, ok := pgcatalog.Lookup(b.snap, "pg_catalog", tn.Name.O); ok {
			return nil, "", b.computedWrite("pg_catalog", tn.Name.O, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "cannot change relation %q", tn.Name.O))
		}
	}
	t, err := b.snap.Table(tn.Name.O)
	if err != nil {
		if v, ok := b.snap.StoredView(tn.Name.O); ok {
			stand, err := b.viewTarget(v) // an updatable view (viewwrite.go)
			return stand, tn.Name.O, err
		}
		if _, ok := pgcatalog.Lookup(b.snap, "", tn.Name.O); ok {
			return nil, "", b.computedWrite("", tn.Name.O, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "cannot change relation %q", tn.Name.O))
		}
		return nil, "", err
	}
	if t.IsMatview() {
		return nil, "", pgerr.New(pgerr.WrongObjectType, "cannot change materialized view %q", t.Name)
	}
	return t, tn.Name.O, nil
}

// tableItem is the FROM item of a write's target table.
func tableItem(t *catalog.Table, alias string, offset int) *fromItem {
	return &fromItem{alias: alias, offset: offset, cols: ir.NewScan(t, alias).Columns(), table: t}
}

func (b *Binder) bindInsert(n *ast.InsertStmt) (ir.Statement, error) {
	if n.IsReplace {
		return nil, unsupported("REPLACE is not supported; use INSERT ... ON CONFLICT")
	}
	if n.Setlist {
		return nil, unsupported("INSERT ... SET is not supported")
	}
	t, alias, err := b.targetTable(n.Table)
	if err != nil {
		return nil, err
	}
	targets := make([]int, 0, len(t.Columns))
	if len(n.Columns) == 0 {
		for i, c := range t.Columns {
			if !c.Hidden {
				targets = append(targets, i)
			}
		}
	} else {
		seen, whole := map[int]bool{}, map[int]bool{}
		for k, c := range n.Columns {
			i := t.ColumnIndex(c.Name.O)
			if i < 0 {
				return nil, pgerr.New(pgerr.UndefinedColumn, "column %q of relation %q does not exist", c.Name.O, t.Name).WithPosition(b.stmt.NamePosition(c.Name.O))
			}
			// Several subscripted items may name one column (a[1],
			// a[2]); a column named whole may not be named again.
			sub := b.stmt.InsertSubscripted(k)
			if seen[i] && (!sub || whole[i]) {
				return nil, pgerr.New(pgerr.DuplicateColumn, "column %q specified more than once", c.Name.O).WithPosition(b.stmt.InsertColumnPosition(k))
			}
			seen[i], whole[i] = true, whole[i] || !sub
			targets = append(targets, i)
		}
	}
	assigns, err := b.insertAssignTargets(t, targets)
	if err != nil {
		return nil, err
	}
	if b.viewWrite != nil && len(n.Columns) == 0 {
		targets = b.viewWrite.insertOrder()
	}
	ins := &ir.Insert{Table: t}
	target := b.targetPermission(t, catalog.PrivInsert)
	defs := b.defaults(t)
	if n.Select != nil {
		b.insertSelect = n.Select
		for j, c := range targets {
			if st := assigns[j]; st != nil {
				b.insertTypes = append(b.insertTypes, st.want)
				continue
			}
			b.insertTypes = append(b.insertTypes, t.Columns[c].Type)
		}
		src, err := b.bindQuery(n.Select, env{})
		if err != nil {
			return nil, err
		}
		cols := src.Columns()
		if len(cols) > len(targets) {
			err := pgerr.New(pgerr.SyntaxError, "INSERT has more expressions than target columns")
			if item := selectItem(n.Select, len(targets), len(cols)); item != nil {
				// At the first expression without a column.
				err = b.at(err, item)
			}
			return nil, err
		}
		for _, c := range targets[:len(cols)] {
			target.Inserted.Add(c)
		}
		if len(cols) < len(targets) && len(n.Columns) > 0 {
			return nil, pgerr.New(pgerr.SyntaxError, "INSERT has more target columns than expressions")
		}
		given := map[int]bool{}
		for j := range cols {
			if !userValueIgnored(t.Columns[targets[j]], b.stmt.Overriding) {
				given[targets[j]] = true
			}
		}
		row, err := defs.row(given)
		if err != nil {
			return nil, err
		}
		assigned := map[int]bool{}
		for j, c := range cols {
			col := targets[j]
			if !given[col] {
				continue
			}
			if err := b.checkIdentityValue(t.Columns[col]); err != nil {
				return nil, err
			}
			var e ir.Expr = &ir.ColRef{Index: j, Name: c.Name, Typ: c.Type}
			if st := assigns[j]; st != nil {
				if row[col], err = b.assignInserted(st, row, assigned, col, e, selectItem(n.Select, j, len(cols))); err != nil {
					return nil, err
				}
				continue
			}
			if e, err = b.coerceToColumn(e, t.Columns[col].Name, t.Columns[col].Type, selectItem(n.Select, j, len(cols))); err != nil {
				return nil, err
			}
			row[col] = e
		}
		ins.Source = &ir.Project{Input: src, Exprs: row, Cols: ir.NewScan(t, alias).Columns()}
	} else {
		vals := &ir.Values{Cols: ir.NewScan(t, alias).Columns()}
		sc := env{}.newScope()
		// A single row's VALUES still takes set-returning functions
		// (PostgreSQL's EXPR_KIND_VALUES_SINGLE), but no aggregates.
		defer b.inClause("VALUES")()
		for _, list := range n.Lists {
			if len(list) > len(targets) {
				// At the first expression without a column.
				return nil, pgerr.New(pgerr.SyntaxError, "INSERT has more expressions than target columns").
					WithPosition(b.stmt.Position(list[len(targets)].OriginTextPosition()))
			}
			if len(list) < len(targets) && len(n.Columns) > 0 {
				return nil, pgerr.New(pgerr.SyntaxError, "INSERT has more target columns than expressions")
			}
			for _, c := range targets[:len(list)] {
				target.Inserted.Add(c)
			}
			given := map[int]bool{}
			for j, node := range list {
				_, isDefault := node.(*ast.DefaultExpr)
				if isDefault && assigns[j] != nil {
					return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot set an array element to DEFAULT").WithPosition(b.stmt.InsertColumnPosition(j))
				}
				if !isDefault && !userValueIgnored(t.Columns[targets[j]], b.stmt.Overriding) {
					given[targets[j]] = true
				}
			}
			row, err := defs.row(given)
			if err != nil {
				return nil, err
			}
			assigned := map[int]bool{}
			for j, node := range list {
				col := targets[j]
				if !given[col] {
					continue
				}
				if err := b.checkIdentityValue(t.Columns[col]); err != nil {
					return nil, err
				}
				if st := assigns[j]; st != nil {
					v, err := b.bindExpr(sc, node)
					if err != nil {
						return nil, err
					}
					if row[col], err = b.assignInserted(st, row, assigned, col, v, node); err != nil {
						return nil, err
					}
					continue
				}
				e, err := b.bindAssign(sc, node, t.Columns[col])
				if err != nil {
					return nil, err
				}
				row[col] = e
			}
			vals.Rows = append(vals.Rows, row)
		}
		ins.Source = vals
	}
	if oc := b.stmt.OnConflict; oc != nil {
		ins.OnConflict = &ir.OnConflict{DoNothing: oc.DoNothing}
		if !oc.DoNothing {
			target.Required |= catalog.PrivUpdate
			existing := tableItem(t, alias, 0)
			existing.perm = target
			sc := &scope{items: []*fromItem{existing, tableItem(t, "excluded", len(t.Columns))}}
			ins.OnConflict.Set = map[int]ir.Expr{}
			subscripted := map[int]bool{}
			for _, a := range n.OnDuplicate {
				if a.Column.Name.O == parser.ConflictWhereColumn {
					// DO UPDATE ... WHERE: over the existing and the
					// proposed (excluded) row, as SET.
					if ins.OnConflict.Where, err = b.bindBool(sc, a.Expr, "WHERE"); err != nil {
						return nil, err
					}
					continue
				}
				i := t.ColumnIndex(a.Column.Name.O)
				if i < 0 {
					return nil, pgerr.New(pgerr.UndefinedColumn, "column %q of relation %q does not exist", a.Column.Name.O, t.Name).WithPosition(b.stmt.NamePosition(a.Column.Name.O)).WithPosition(b.stmt.NamePosition(a.Column.Name.O))
				}
				if f, ok := isSubscriptAssign(a.Expr); ok {
					if err := b.bindSubscriptAssign(sc, t, alias, i, ins.OnConflict.Set, subscripted, f); err != nil {
						return nil, err
					}
					target.Updated.Add(i)
					continue
				}
				if _, dup := ins.OnConflict.Set[i]; dup {
					return nil, pgerr.New(pgerr.SyntaxError, "multiple assignments to same column %q", a.Column.Name.O)
				}
				if f, ok := a.Expr.(*ast.FuncCallExpr); ok && f.FnName.L == parser.MultiAssignFunc {
					return nil, unsupported("a multiple-column assignment from a sub-SELECT is not supported in ON CONFLICT DO UPDATE")
				}
				e, err := b.bindAssign(sc, a.Expr, t.Columns[i])
				if err != nil {
					return nil, err
				}
				ins.OnConflict.Set[i] = e
				target.Updated.Add(i)
			}
		}
		if ins.OnConflict.Arbiters, err = b.conflictArbiters(t, oc); err != nil {
			return nil, err
		}
		ins.OnConflict.Untargeted = oc.Constraint == "" && len(oc.Columns) == 0 && len(oc.Exprs) == 0
		// The conflict target's columns are read, as PostgreSQL marks
		// them (an inserter without SELECT could otherwise probe keys).
		for _, name := range oc.Columns {
			if c := t.ColumnIndex(name); c >= 0 {
				target.SelectCol(c)
			}
		}
	} else if n.IgnoreErr {
		ins.OnConflict = &ir.OnConflict{DoNothing: true, Arbiters: b.arbiterKeys(t), Untargeted: true}
	}
	var set map[int]ir.Expr
	if ins.OnConflict != nil {
		set = ins.OnConflict.Set
	}
	if ins.Constraints, err = b.bindConstraints(t, writeInsert, set); err != nil {
		return nil, err
	}
	returning := tableItem(t, alias, 0)
	b.targetTableOID(returning, t)
	returning.perm = target
	if ins.Returning, err = b.bindReturning(&scope{items: []*fromItem{returning}}); err != nil {
		return nil, err
	}
	return ins, nil
}

// defaults binds column defaults on demand, once per statement: a
// VALUES list of many rows shares them (each row still evaluates them, so
// nextval() and random() differ per row).
type defaults struct {
	b     *Binder
	t     *catalog.Table
	bound []ir.Expr
}

func (b *Binder) defaults(t *catalog.Table) *defaults {
	return &defaults{b: b, t: t, bound: make([]ir.Expr, len(t.Columns))}
}

// of returns column i's default.
func (d *defaults) of(i int) (ir.Expr, error) {
	if d.bound[i] == nil {
		e, err := d.b.defaultExpr(d.t, i)
		if err != nil {
			return nil, err
		}
		d.bound[i] = e
	}
	return d.bound[i], nil
}

// row returns a row of defaults, leaving out (nil) the columns in skip.
func (d *defaults) row(skip map[int]bool) ([]ir.Expr, error) {
	row := make([]ir.Expr, len(d.t.Columns))
	for i := range row {
		if skip[i] {
			continue
		}
		e, err := d.of(i)
		if err != nil {
			return nil, err
		}
		row[i] = e
	}
	return row, nil
}

// userValueIgnored reports whether an INSERT's value for column c is
// replaced by the column's default: OVERRIDING USER VALUE on an identity
// column.
func userValueIgnored(c catalog.Column, overriding string) bool {
	return overriding == "user" && c.Identity != ""
}

// checkIdentityValue refuses an INSERT's explicit value for a GENERATED
// ALWAYS identity column unless the statement says OVERRIDING SYSTEM
// VALUE.
func (b *Binder) checkIdentityValue(c catalog.Column) error {
	if c.Generated != "" {
		return generatedColumnValue(c, false)
	}
	if c.Identity == "always" && b.stmt.Overriding != "system" {
		return identityAlways(c, false)
	}
	return nil
}

// identityAlways refuses an explicit value for a GENERATED ALWAYS identity
// column, as PostgreSQL does.
func identityAlways(c catalog.Column, update bool) error {
	if update {
		return pgerr.New(pgerr.GeneratedAlways, "column %q can only be updated to DEFAULT", c.Name).
			WithDetail("Column %q is an identity column defined as GENERATED ALWAYS.", c.Name)
	}
	return pgerr.New(pgerr.GeneratedAlways, "cannot insert a non-DEFAULT value into column %q", c.Name).
		WithDetail("Column %q is an identity column defined as GENERATED ALWAYS.", c.Name).
		WithHint("Use OVERRIDING SYSTEM VALUE to override.")
}

// bindReturning binds the statement's RETURNING list over sc.
func (b *Binder) bindReturning(sc *scope) (*ir.Returning, error) {
	fields := b.stmt.Returning
	if fields == nil {
		return nil, nil
	}
	defer b.srfDenied("RETURNING")()
	r := &ir.Returning{}
	for _, f := range fields.Fields {
		if f.WildCard != nil {
			es, cols, err := sc.star(f.WildCard.Table.O)
			if err != nil {
				return nil, b.fromEntryError(sc, err)
			}
			if b.viewWrite != nil {
				es, cols = b.viewWrite.returningOrder(es, cols)
			}
			r.Exprs = append(r.Exprs, es...)
			r.Cols = append(r.Cols, cols...)
			continue
		}
		e, err := b.bindExprNoAgg(sc, f.Expr)
		if err != nil {
			return nil, err
		}
		e = b.finishUnknown(e)
		col := ir.Column{Name: outputName(f), Type: e.Type(), Col: -1}
		if cr, ok := e.(*ir.ColRef); ok {
			for _, it := range sc.items {
				if cr.Index >= it.offset && cr.Index < it.offset+len(it.cols) {
					src := it.cols[cr.Index-it.offset]
					col.Table, col.Col = src.Table, src.Col
				}
			}
		}
		r.Exprs = append(r.Exprs, e)
		r.Cols = append(r.Cols, col)
	}
	return r, nil
}

// rowSource binds the rows an UPDATE or DELETE changes: the target table
// joined with any FROM / USING items, filtered by WHERE. The target's row
// comes first.
//
// heirOf, when set, is the table the statement names, of which t
// inherits (inherit.go): the target's row is t's but only heirOf's
// columns are seen in it.
func (b *Binder) rowSource(t, heirOf *catalog.Table, target *ir.RelPermission, alias string, extra *ast.Join, where ast.ExprNode, hints []*ast.TableOptimizerHint) (ir.Rel, *scope, ir.Expr, error) {
	sc := env{}.newScope()
	var scan ir.Rel = ir.NewScan(t, alias)
	switch {
	case t.IsPartitioned() && b.stmt.TargetOnly:
		// UPDATE ONLY / DELETE FROM ONLY a partitioned table: it holds
		// no rows of its own.
		scan = &ir.Values{Cols: scan.Columns()}
	case t.IsPartitioned():
		scan = b.partitionedScan(t, alias, false)
	}
	rel := scan
	sc.items = []*fromItem{tableItem(t, alias, 0)}
	sc.items[0].perm = target
	if heirOf != nil {
		sc.items[0].cols, sc.items[0].starOrder = heirColumns(t, heirOf, sc.items[0].cols)
	}
	b.targetTableOID(sc.items[0], t)
	if extra != nil {
		part, err := b.bindTableRef(extra, sc, nil)
		if err != nil {
			return nil, nil, nil, err
		}
		items, merged := shiftItems(part.items, part.merged, len(t.Columns), 1)
		for _, it := range items {
			if it.alias == alias {
				return nil, nil, nil, pgerr.New(pgerr.DuplicateAlias, "table name %q specified more than once", alias)
			}
		}
		sc.items = append(sc.items, items...)
		sc.merged = merged
		rel = ir.NewJoin(ir.InnerJoin, scan, part.rel, nil)
	}
	if h := b.bindHints(hints); len(h) > 0 {
		applyHints(rel, h)
	}
	var recheck []ir.Expr
	if where != nil {
		pred, err := b.bindBool(sc, where, "WHERE")
		if err != nil {
			return nil, nil, nil, err
		}
		rel = &ir.Filter{Input: rel, Pred: pred}
		for _, c := range ir.Conjuncts(pred) {
			if onlyCols(c, len(t.Columns)) {
				recheck = append(recheck, c)
			}
		}
	}
	return rel, sc, andAll(recheck), nil
}

// onlyCols reports whether e reads nothing but columns below n (no outer
// row, no subquery, nothing volatile).
func onlyCols(e ir.Expr, n int) bool {
	ok := true
	ir.Walk(e, func(x ir.Expr) {
		switch y := x.(type) {
		case *ir.ColRef:
			ok = ok && y.Index < n
		case *ir.OuterRef, *ir.Subquery:
			ok = false
		case *ir.Func:
			ok = ok && !y.Volatile
		}
	})
	return ok
}

func andAll(es []ir.Expr) ir.Expr {
	var out ir.Expr
	for _, e := range es {
		out = andExpr(out, e)
	}
	return out
}

func (b *Binder) bindUpdate(n *ast.UpdateStmt) (ir.Statement, error) {
	defer b.srfDenied("UPDATE")()
	if n.Order != nil || n.Limit != nil {
		return nil, unsupported("UPDATE with ORDER BY or LIMIT is not supported")
	}
	t, alias, err := b.targetTable(n.TableRefs)
	if err != nil {
		return nil, err
	}
	u, err := b.bindUpdateOf(n, t, nil, b.targetPermission(t, catalog.PrivUpdate), alias)
	if err != nil {
		return nil, err
	}
	for _, h := range b.writeHeirs(t) {
		hu, err := b.bindUpdateOf(n, h, t, &ir.RelPermission{Table: h}, alias)
		if err != nil {
			return nil, err
		}
		u.Heirs = append(u.Heirs, hu)
	}
	if len(u.Heirs) > 0 {
		u.Constraints = inTxn(u.Constraints)
	}
	return u, nil
}

// bindUpdateOf binds UPDATE n of table t (heirOf: as for rowSource).
func (b *Binder) bindUpdateOf(n *ast.UpdateStmt, t, heirOf *catalog.Table, target *ir.RelPermission, alias string) (*ir.Update, error) {
	src, sc, recheck, err := b.rowSource(t, heirOf, target, alias, b.stmt.From, n.Where, n.TableHints)
	if err != nil {
		return nil, err
	}
	u := &ir.Update{Table: t, Source: src, Set: map[int]ir.Expr{}, Recheck: recheck}
	subscripted := map[int]bool{} // columns assigned through subscripts
	for _, a := range n.List {
		if q := a.Column.Table.O; q != "" && q != alias {
			if i := t.ColumnIndex(q); i >= 0 && t.Columns[i].Type.ID == sqltypes.Record {
				// SET col.field = value (record.go).
				e, err := b.bindFieldAssign(sc, t, i, u.Set[i], a.Column.Name.O, a.Expr)
				if err != nil {
					return nil, err
				}
				u.Set[i] = e
				target.Updated.Add(i)
				continue
			}
			return nil, pgerr.New(pgerr.UndefinedColumn, "column %q of relation %q does not exist", q+"."+a.Column.Name.O, t.Name)
		}
		i := t.ColumnIndex(a.Column.Name.O)
		if i < 0 {
			return nil, pgerr.New(pgerr.UndefinedColumn, "column %q of relation %q does not exist", a.Column.Name.O, t.Name).WithPosition(b.stmt.NamePosition(a.Column.Name.O))
		}
		if f, ok := isSubscriptAssign(a.Expr); ok {
			if err := b.bindSubscriptAssign(sc, t, alias, i, u.Set, subscripted, f); err != nil {
				return nil, err
			}
			target.Updated.Add(i)
			continue
		}
		if _, dup := u.Set[i]; dup {
			return nil, pgerr.New(pgerr.SyntaxError, "multiple assignments to same column %q", a.Column.Name.O)
		}
		target.Updated.Add(i)
		if _, isDefault := a.Expr.(*ast.DefaultExpr); isDefault {
			e, err := b.defaultExpr(t, i)
			if err != nil {
				return nil, err
			}
			u.Set[i] = e
			continue
		}
		if t.Columns[i].Generated != "" {
			return nil, generatedColumnValue(t.Columns[i], true)
		}
		if t.Columns[i].Identity == "always" {
			return nil, identityAlways(t.Columns[i], true)
		}
		if f, ok := a.Expr.(*ast.FuncCallExpr); ok && f.FnName.L == parser.MultiAssignFunc {
			e, err := b.bindMultiAssign(sc, u, len(src.Columns()), f, t.Columns[i])
			if err != nil {
				return nil, err
			}
			u.Set[i] = e
			continue
		}
		e, err := b.bindAssign(sc, a.Expr, t.Columns[i])
		if err != nil {
			return nil, err
		}
		u.Set[i] = e
	}
	if u.Returning, err = b.bindReturning(sc); err != nil {
		return nil, err
	}
	if u.Constraints, err = b.bindConstraints(t, writeUpdate, u.Set); err != nil {
		return nil, err
	}
	return u, nil
}

func (b *Binder) bindDelete(n *ast.DeleteStmt) (ir.Statement, error) {
	if n.Order != nil || n.Limit != nil {
		return nil, unsupported("DELETE with ORDER BY or LIMIT is not supported")
	}
	var t *catalog.Table
	var alias string
	var using *ast.Join
	var err error
	if n.IsMultiTable {
		// DELETE FROM t USING u, v: TiDB lists the target in Tables and the
		// USING items in TableRefs.
		if n.BeforeFrom || n.Tables == nil || len(n.Tables.Tables) != 1 {
			return nil, unsupported("deleting from several tables at once is not supported")
		}
		if t, alias, err = b.writeTarget(n.Tables.Tables[0]); err != nil {
			return nil, err
		}
		// As targetTable: a user schema's relation is keyed "schema.name",
		// and its default alias is the name in the schema.
		_, alias = catalog.SplitName(alias)
		if b.stmt.TargetAlias != "" {
			alias = b.stmt.TargetAlias // DELETE FROM t alias USING ...
		}
		using = n.TableRefs.TableRefs
	} else if t, alias, err = b.targetTable(n.TableRefs); err != nil {
		return nil, err
	}
	d, err := b.bindDeleteOf(n, t, nil, b.targetPermission(t, catalog.PrivDelete), alias, using)
	if err != nil {
		return nil, err
	}
	for _, h := range b.writeHeirs(t) {
		hd, err := b.bindDeleteOf(n, h, t, &ir.RelPermission{Table: h}, alias, using)
		if err != nil {
			return nil, err
		}
		d.Heirs = append(d.Heirs, hd)
	}
	if len(d.Heirs) > 0 {
		d.Constraints = inTxn(d.Constraints)
	}
	return d, nil
}

// bindDeleteOf binds DELETE n of table t (heirOf: as for rowSource).
func (b *Binder) bindDeleteOf(n *ast.DeleteStmt, t, heirOf *catalog.Table, target *ir.RelPermission, alias string, using *ast.Join) (*ir.Delete, error) {
	src, sc, recheck, err := b.rowSource(t, heirOf, target, alias, using, n.Where, n.TableHints)
	if err != nil {
		return nil, err
	}
	d := &ir.Delete{Table: t, Source: src, Recheck: recheck}
	if d.Returning, err = b.bindReturning(sc); err != nil {
		return nil, err
	}
	if d.Constraints, err = b.bindConstraints(t, writeDelete, nil); err != nil {
		return nil, err
	}
	return d, nil
}

// bindCreateView checks a view's query by binding it, and keeps its text
// and output columns.
func (b *Binder) bindCreateView(n *ast.CreateViewStmt) (ir.Statement, error) {
	if isTempSchema(n.ViewName.Schema.L) {
		b.stmt.Temp = true
	} else if err := creationSchema(n.ViewName.Schema.O, n.ViewName.Name.O); err != nil {
		return nil, err
	}
	if b.stmt.ViewQuery == "" {
		return nil, pgerr.New(pgerr.SyntaxError, "CREATE VIEW needs AS followed by a query")
	}
	stars := &starLog{record: true}
	b.stars = stars
	rel, err := b.bindQuery(n.Select, env{})
	b.stars = nil
	if err != nil {
		return nil, err
	}
	for i, p := range b.params {
		if p.ID != sqltypes.Unknown || i < len(b.params) {
			return nil, pgerr.New(pgerr.UndefinedParameter, "there is no parameter $%d", i+1)
		}
	}
	cols, err := renameColumns(rel.Columns(), n.Cols, "CREATE VIEW")
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, c := range cols {
		if seen[c.Name] {
			return nil, pgerr.New(pgerr.DuplicateColumn, "column %q specified more than once", c.Name)
		}
		if c.Type.ID == sqltypes.Record && !c.Type.Composite.Named() {
			// An anonymous record (PostgreSQL's CheckAttributeType).
			return nil, pgerr.New(pgerr.InvalidTableDefinition, "column \"%s\" has pseudo-type record", c.Name)
		}
		seen[c.Name] = true
		if isPseudoType(c.Type) {
			return nil, pgerr.New(pgerr.InvalidTableDefinition, "column \"%s\" has pseudo-type %s", c.Name, c.Type)
		}
	}
	cv := &ir.CreateView{Name: n.ViewName.Name.O, OrReplace: n.OrReplace, SQL: b.stmt.ViewQuery, Columns: cols, Depends: b.deps, Temp: b.stmt.Temp, Path: b.storedPath(), Stars: stars.stars}
	for _, k := range b.stmt.WithOrder {
		if err := checkViewOption(k, b.stmt.With[k]); err != nil {
			return nil, err
		}
		cv.Options = append(cv.Options, k+"="+b.stmt.With[k])
	}
	if !cv.Temp {
		cv.TempFuncs = b.tempCalls
	}
	if !cv.Temp && b.readsTemp {
		// A view reading a temporary relation is temporary itself, as
		// PostgreSQL makes it (with a NOTICE the session sends).
		cv.Temp, cv.ImplicitTemp = true, true
	}
	return cv, nil
}

// selectItem is the j-th expression of the select list of an INSERT's
// query when that is a plain SELECT whose n items are its n columns (no *
// expanding to more), or nil: where PostgreSQL points an error about the
// j-th value.
func selectItem(q ast.ResultSetNode, j, n int) ast.ExprNode {
	sel, ok := q.(*ast.SelectStmt)
	if !ok || sel.Kind != ast.SelectStmtKindSelect || sel.Fields == nil || len(sel.Fields.Fields) != n || j >= n {
		return nil
	}
	if sel.Fields.Fields[j].WildCard != nil {
		return nil
	}
	return sel.Fields.Fields[j].Expr
}

// bindMultiAssign binds column col's part of a multiple-column assignment
// from a sub-SELECT, SET (a, b) = (SELECT ...) (parser.MultiAssignFunc):
// the first column binds the sub-SELECT as one of u's Shared values, the
// row it returns (NULL when none; 21000 for more than one), at position
// width + its index in the row Set reads; each column, the first
// included, takes its field of that row.
func (b *Binder) bindMultiAssign(sc *scope, u *ir.Update, width int, f *ast.FuncCallExpr, col catalog.Column) (ir.Expr, error) {
	if len(f.Args) != 3 {
		return nil, pgerr.New(pgerr.InternalError, "malformed multiple-column assignment")
	}
	k, n := intLiteral(f.Args[1]), intLiteral(f.Args[2])
	if k == 0 {
		sub, ok := f.Args[0].(*ast.SubqueryExpr)
		if !ok {
			return nil, pgerr.New(pgerr.InternalError, "malformed multiple-column assignment")
		}
		rel, corr, err := b.bindSubquery(sc, sub.Query)
		if err != nil {
			return nil, err
		}
		cols := rel.Columns()
		if len(cols) != n {
			return nil, b.at(pgerr.New(pgerr.SyntaxError, "number of columns does not match number of values"), sub)
		}
		items := make([]ir.Expr, len(cols))
		names := make([]string, len(cols))
		types := make([]sqltypes.Type, len(cols))
		for i, c := range cols {
			items[i] = &ir.ColRef{Index: i, Name: c.Name, Typ: c.Type}
			names[i], types[i] = c.Name, c.Type
		}
		b.multiAssignQuery = sub.Query
		rec := sqltypes.AnonymousRecord(names, types)
		row := &ir.Project{Input: rel, Exprs: []ir.Expr{ir.NewRecordExpr(items, rec)}, Cols: []ir.Column{{Name: "row", Type: rec, Col: -1}}}
		u.Shared = append(u.Shared, &ir.Subquery{Kind: ir.ScalarSubquery, Plan: row, Correlated: corr, Typ: rec, ID: b.newSubqueryID()})
	}
	if len(u.Shared) == 0 {
		return nil, pgerr.New(pgerr.InternalError, "malformed multiple-column assignment")
	}
	shared := u.Shared[len(u.Shared)-1]
	fields := shared.Type().Composite.FieldTypes()
	if k < 0 || k >= len(fields) {
		return nil, pgerr.New(pgerr.InternalError, "malformed multiple-column assignment")
	}
	ref := &ir.ColRef{Index: width + len(u.Shared) - 1, Name: fmt.Sprintf("(SubPlan %d)", shared.(*ir.Subquery).ID), Typ: shared.Type()}
	field := &ir.Func{Name: fmt.Sprintf(".col%d", k+1), Args: []ir.Expr{ref}, Typ: fields[k], Fn: strict(func(_ *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		return a[0].Array().Elems[k], nil
	})}
	// A mismatch points at the sub-SELECT's item, as PostgreSQL's does.
	return b.coerceToColumn(field, col.Name, col.Type, selectItem(b.multiAssignQuery, k, len(fields)))
}

// intLiteral is the value of an integer literal the parser wrote, or -1.
func intLiteral(e ast.ExprNode) int {
	if v, ok := e.(ast.ValueExpr); ok {
		if i, ok := v.GetValue().(int64); ok {
			return int(i)
		}
	}
	return -1
}
