package planner

import (
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// MERGE (PostgreSQL 15's) is bound as the join of the target with the
// source (target RIGHT JOIN source ON condition: every source row, with
// the target row it matches or NULLs), the WHEN clauses' conditions over
// the join's rows, and the UPDATE, DELETE and INSERT the clauses name,
// each bound as that statement is but reading the rows the executor
// decided for it (ir.Merge). Several UPDATE clauses are one UPDATE whose
// SET picks each clause's value by the row's action (CASE), the columns
// any of them sets being the UPDATE's (PostgreSQL's updatedCols is their
// union too); several INSERT clauses likewise one INSERT.
//
// Privileges are PostgreSQL's: the target needs the privilege of each
// action a clause names (whether or not a row takes it), UPDATE on the
// columns set, INSERT on those inserted, and SELECT on the columns the
// join condition, the WHEN conditions and the actions' expressions read
// (marked as their names resolve through the target's FROM item); the
// source needs SELECT as any FROM item does.

// mergeActionType is the type of ir.Merge's action column.
var mergeActionType = sqltypes.TypeInt4

// bindMerge binds MERGE.
func (b *Binder) bindMerge(m *parser.MergeStatement) (ir.Statement, error) {
	defer b.srfDenied("MERGE")()
	// PostgreSQL checks the clauses' order before it looks at a name.
	unconditional := map[bool]bool{}
	for _, when := range m.Whens {
		if unconditional[when.Matched] {
			return nil, pgerr.New(pgerr.SyntaxError, "unreachable WHEN clause specified after unconditional WHEN clause")
		}
		unconditional[when.Matched] = when.Cond == nil
	}
	if err := b.bindWriteWith(); err != nil {
		return nil, err
	}
	t, alias, err := b.mergeTarget(m)
	if err != nil {
		return nil, err
	}
	w := len(t.Columns)
	perm := b.addPermission(t, nil, 0)
	tgt := tableItem(t, alias, 0)
	tgt.perm = perm
	b.targetTableOID(tgt, t)

	srcScope := env{}.newScope()
	part, err := b.bindTableRef(m.Source, srcScope, nil)
	if err != nil {
		return nil, err
	}
	items, merged := shiftItems(part.items, part.merged, w, 1)
	for _, it := range items {
		if it.alias == alias {
			return nil, pgerr.New(pgerr.DuplicateAlias, "name %q specified more than once", alias).
				WithDetail("The name is used both as MERGE target table and data source.")
		}
	}
	// NOT MATCHED clauses see the source alone (PostgreSQL: the target
	// cannot be referenced from this part of the query).
	srcScope.items, srcScope.merged = items, merged
	both := env{}.newScope()
	both.items = append([]*fromItem{tgt}, items...)
	both.merged = merged

	var scan ir.Rel = ir.NewScan(t, alias)
	if t.IsPartitioned() {
		scan = b.partitionedScan(t, alias, false)
	}
	on, err := b.bindBool(both, m.On, "JOIN/ON")
	if err != nil {
		return nil, err
	}
	join := ir.NewJoin(ir.RightJoin, scan, part.rel, on)
	width := len(join.Columns())
	key := t.PrimaryKey[0].Column
	x := &ir.Merge{Table: t, Join: join, Action: width,
		Matched: &ir.IsNull{E: &ir.ColRef{Index: key, Name: t.Columns[key].Name, Typ: t.Columns[key].Type}, Neg: true}}

	action := &ir.ColRef{Index: width, Name: "action", Typ: mergeActionType}
	// shared collects the UPDATE clauses' sub-SELECTs of multiple-column
	// assignments (ir.Update.Shared), each computed for its clause's
	// rows only.
	shared := &ir.Update{}
	var updates, deletes, inserts []int
	sets := map[int]map[int]ir.Expr{} // by action: the clause's SET
	rows := map[int][]ir.Expr{}       // by action: the clause's row
	for k, when := range m.Whens {
		sc := srcScope
		if when.Matched {
			sc = both
		}
		a := &ir.MergeAction{Matched: when.Matched, Kind: when.Action}
		if when.Cond != nil {
			if a.Cond, err = b.mergeCond(sc, when.Cond); err != nil {
				return nil, err
			}
		}
		switch when.Action {
		case "update":
			perm.Required |= catalog.PrivUpdate
			before := len(shared.Shared)
			if sets[k], err = b.mergeSet(sc, t, alias, perm, when.Set, shared, width+1); err != nil {
				return nil, err
			}
			for i := before; i < len(shared.Shared); i++ {
				cond, err := b.compare(ir.OpEq, action, &ir.Const{V: sqltypes.NewInt(int64(k)), Typ: mergeActionType})
				if err != nil {
					return nil, err
				}
				s := shared.Shared[i]
				shared.Shared[i] = &ir.Func{Name: "case", Args: []ir.Expr{cond, s, &ir.Const{V: sqltypes.Null, Typ: s.Type()}}, Typ: s.Type(), Lazy: evalCase}
			}
			updates = append(updates, k)
		case "delete":
			perm.Required |= catalog.PrivDelete
			deletes = append(deletes, k)
		case "insert":
			perm.Required |= catalog.PrivInsert
			if rows[k], err = b.mergeInsertRow(sc, t, perm, when); err != nil {
				return nil, err
			}
			inserts = append(inserts, k)
		}
		x.Actions = append(x.Actions, a)
	}

	b.nextCTE++
	cols := append(append([]ir.Column(nil), join.Columns()...), ir.Column{Name: "action", Type: mergeActionType, Col: -1})
	x.Rows = &ir.CTE{Name: "merge", ID: b.nextCTE, Cols: cols, Write: x}
	of := func(actions []int) ir.Rel {
		list := make([]ir.Expr, len(actions))
		for i, k := range actions {
			list[i] = &ir.Const{V: sqltypes.NewInt(int64(k)), Typ: mergeActionType}
		}
		return &ir.Filter{Input: ir.NewCTEScan(x.Rows, alias), Pred: ir.NewInList(action, list, false)}
	}
	// pick is CASE action WHEN k THEN value ... ELSE otherwise END over
	// the actions' values (value alone for one action).
	pick := func(actions []int, value func(k int) ir.Expr, otherwise ir.Expr, typ sqltypes.Type) (ir.Expr, error) {
		if len(actions) == 1 {
			return value(actions[0]), nil
		}
		var args []ir.Expr
		for _, k := range actions {
			cond, err := b.compare(ir.OpEq, action, &ir.Const{V: sqltypes.NewInt(int64(k)), Typ: mergeActionType})
			if err != nil {
				return nil, err
			}
			args = append(args, cond, value(k))
		}
		args = append(args, otherwise)
		return &ir.Func{Name: "case", Args: args, Typ: typ, Lazy: evalCase}, nil
	}
	if len(updates) > 0 {
		u := &ir.Update{Table: t, Source: of(updates), Set: map[int]ir.Expr{}, Shared: shared.Shared}
		for _, k := range updates {
			for c := range sets[k] {
				if u.Set[c] != nil {
					continue
				}
				old := &ir.ColRef{Index: c, Name: t.Columns[c].Name, Typ: t.Columns[c].Type}
				e, err := pick(updates, func(k int) ir.Expr {
					if v, ok := sets[k][c]; ok {
						return v
					}
					return old
				}, old, t.Columns[c].Type)
				if err != nil {
					return nil, err
				}
				u.Set[c] = e
			}
		}
		if u.Constraints, err = b.bindConstraints(t, writeUpdate, u.Set); err != nil {
			return nil, err
		}
		x.Update = u
	}
	if len(deletes) > 0 {
		d := &ir.Delete{Table: t, Source: of(deletes)}
		if d.Constraints, err = b.bindConstraints(t, writeDelete, nil); err != nil {
			return nil, err
		}
		x.Delete = d
	}
	if len(inserts) > 0 {
		row := make([]ir.Expr, w)
		for c := range row {
			null := &ir.Const{V: sqltypes.Null, Typ: t.Columns[c].Type}
			if row[c], err = pick(inserts, func(k int) ir.Expr { return rows[k][c] }, null, t.Columns[c].Type); err != nil {
				return nil, err
			}
		}
		ins := &ir.Insert{Table: t, Source: &ir.Project{Input: of(inserts), Exprs: row, Cols: ir.NewScan(t, alias).Columns()}}
		if ins.Constraints, err = b.bindConstraints(t, writeInsert, nil); err != nil {
			return nil, err
		}
		x.Insert = ins
	}
	return x, nil
}

// mergeTarget resolves MERGE's target: a stored table, not a view (which
// PostgreSQL 15 refuses), nor one that tables inherit from (zproxy binds
// such writes per heir, which MERGE does not).
func (b *Binder) mergeTarget(m *parser.MergeStatement) (*catalog.Table, string, error) {
	tn := m.Target
	name := tn.Name.O
	if tn.Schema.O != "" {
		name = tn.Schema.O + "." + tn.Name.O
	}
	if r := pgcatalog.Find(tn.Schema.O, tn.Name.O); r != nil && !r.IsTable() && (tn.Schema.O != "" || !b.snap.HasRelation(tn.Name.O)) {
		// A view zproxy computes, refused as a stored one.
		return nil, "", pgerr.New(pgerr.FeatureNotSupported, "cannot execute MERGE on relation %q", tn.Name.O).
			WithDetail("This operation is not supported for views.")
	}
	if tn.Schema.O == "" {
		if _, ok := b.snap.StoredView(tn.Name.O); ok {
			if _, err := b.snap.Table(tn.Name.O); err != nil {
				return nil, "", pgerr.New(pgerr.FeatureNotSupported, "cannot execute MERGE on relation %q", tn.Name.O).
					WithDetail("This operation is not supported for views.")
			}
		}
	}
	t, alias, err := b.writeTarget(tn)
	if err != nil {
		if pe := pgerr.As(err); pe != nil && pe.Code == pgerr.UndefinedTable && pe.Position == 0 {
			at := tn.Name.O
			if tn.Schema.O != "" {
				at = tn.Schema.O
			}
			err = pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", name).WithPosition(b.stmt.NamePosition(at))
		}
		return nil, "", err
	}
	if b.viewWrite != nil {
		b.viewWrite = nil
		return nil, "", pgerr.New(pgerr.FeatureNotSupported, "cannot execute MERGE on relation %q", name).
			WithDetail("This operation is not supported for views.")
	}
	if t.InsteadOf != nil {
		return nil, "", pgerr.New(pgerr.FeatureNotSupported, "cannot execute MERGE on relation %q", name).
			WithDetail("This operation is not supported for views.")
	}
	if t.IsPartitioned() && b.stmt.TargetOnly {
		return nil, "", unsupported("MERGE INTO ONLY a partitioned table is not supported")
	}
	if len(b.writeHeirs(t)) > 0 {
		return nil, "", unsupported("MERGE into a table that other tables inherit from is not supported")
	}
	t = b.snap.WithClonedTriggers(t)
	_, alias = catalog.SplitName(alias)
	if m.Alias != "" {
		alias = m.Alias
	}
	return t, alias, nil
}

// mergeCond binds a WHEN clause's AND condition over sc, as PostgreSQL's
// EXPR_KIND_MERGE_WHEN ("argument of WHEN must be type boolean").
func (b *Binder) mergeCond(sc *scope, node ast.ExprNode) (ir.Expr, error) {
	defer b.srfDenied("MERGE WHEN conditions")()
	e, err := b.bindExpr(sc, node)
	if err != nil {
		return nil, err
	}
	return b.coerceToBool(e, node, "WHEN")
}

// mergeSet binds an UPDATE action's SET list over sc (the target's and
// the source's columns): column -> value. The sub-SELECT of a
// multiple-column assignment joins shared's Shared, read after the
// width columns of the row the UPDATE's SET reads.
func (b *Binder) mergeSet(sc *scope, t *catalog.Table, alias string, perm *ir.RelPermission, list []*ast.Assignment, shared *ir.Update, width int) (map[int]ir.Expr, error) {
	defer b.srfDenied("UPDATE")()
	set := map[int]ir.Expr{}
	subscripted := map[int]bool{} // columns assigned through subscripts
	for _, a := range list {
		name := a.Column.Name.O
		if q := a.Column.Table.O; q != "" {
			// SET col.field = value (record.go), as UPDATE's.
			i := t.ColumnIndex(q)
			if i < 0 || t.Columns[i].Type.ID != sqltypes.Record {
				return nil, pgerr.New(pgerr.UndefinedColumn, "column %q of relation %q does not exist", q+"."+name, t.Name)
			}
			e, err := b.bindFieldAssign(sc, t, i, set[i], name, a.Expr)
			if err != nil {
				return nil, err
			}
			set[i] = e
			perm.Updated.Add(i)
			continue
		}
		i := t.ColumnIndex(name)
		if i < 0 {
			return nil, pgerr.New(pgerr.UndefinedColumn, "column %q of relation %q does not exist", name, t.Name).WithPosition(b.stmt.NamePosition(name))
		}
		if f, ok := isSubscriptAssign(a.Expr); ok {
			if err := b.bindSubscriptAssign(sc, t, alias, i, set, subscripted, f); err != nil {
				return nil, err
			}
			perm.Updated.Add(i)
			continue
		}
		if _, dup := set[i]; dup {
			return nil, pgerr.New(pgerr.SyntaxError, "multiple assignments to same column %q", name)
		}
		perm.Updated.Add(i)
		if _, isDefault := a.Expr.(*ast.DefaultExpr); isDefault {
			e, err := b.defaultExpr(t, i)
			if err != nil {
				return nil, err
			}
			set[i] = e
			continue
		}
		if t.Columns[i].Generated != "" {
			return nil, generatedColumnValue(t.Columns[i], true)
		}
		if t.Columns[i].Identity == "always" {
			return nil, identityAlways(t.Columns[i], true)
		}
		if f, ok := a.Expr.(*ast.FuncCallExpr); ok && f.FnName.L == parser.MultiAssignFunc {
			// SET (a, b) = (SELECT ...): the sub-SELECT computed once per
			// row, each column its field (UPDATE's Shared).
			e, err := b.bindMultiAssign(sc, shared, width, f, t.Columns[i])
			if err != nil {
				return nil, err
			}
			set[i] = e
			continue
		}
		e, err := b.bindAssign(sc, a.Expr, t.Columns[i])
		if err != nil {
			return nil, err
		}
		set[i] = e
	}
	return set, nil
}

// mergeInsertRow binds an INSERT action's row over sc (the source's
// columns): one value per table column, defaults filled in, as INSERT's
// VALUES row.
func (b *Binder) mergeInsertRow(sc *scope, t *catalog.Table, perm *ir.RelPermission, when *parser.MergeWhen) ([]ir.Expr, error) {
	saved := b.stmt.Overriding
	b.stmt.Overriding = when.Overriding
	defer func() { b.stmt.Overriding = saved }()
	defer b.srfDenied("VALUES")()
	var targets []int
	if when.Columns == nil {
		for i, c := range t.Columns {
			if !c.Hidden {
				targets = append(targets, i)
			}
		}
	} else {
		seen := map[int]bool{}
		for k, name := range when.Columns {
			i := t.ColumnIndex(name)
			if i < 0 || t.Columns[i].Hidden {
				return nil, pgerr.New(pgerr.UndefinedColumn, "column %q of relation %q does not exist", name, t.Name).WithPosition(when.ColumnPositions[k])
			}
			if seen[i] {
				return nil, pgerr.New(pgerr.DuplicateColumn, "column %q specified more than once", name).WithPosition(when.ColumnPositions[k])
			}
			seen[i] = true
			targets = append(targets, i)
		}
	}
	if len(when.Values) > len(targets) {
		return nil, pgerr.New(pgerr.SyntaxError, "INSERT has more expressions than target columns").
			WithPosition(b.stmt.Position(when.Values[len(targets)].OriginTextPosition()))
	}
	if !when.DefaultValues && len(when.Values) < len(targets) && when.Columns != nil {
		return nil, pgerr.New(pgerr.SyntaxError, "INSERT has more target columns than expressions").WithPosition(when.ListPosition)
	}
	given := map[int]bool{}
	for j, node := range when.Values {
		perm.Inserted.Add(targets[j])
		if _, isDefault := node.(*ast.DefaultExpr); !isDefault && !userValueIgnored(t.Columns[targets[j]], when.Overriding) {
			given[targets[j]] = true
		}
	}
	row, err := b.defaults(t).row(given)
	if err != nil {
		return nil, err
	}
	for j, node := range when.Values {
		col := targets[j]
		if !given[col] {
			continue
		}
		if err := b.checkIdentityValue(t.Columns[col]); err != nil {
			return nil, err
		}
		if row[col], err = b.bindAssign(sc, node, t.Columns[col]); err != nil {
			return nil, err
		}
	}
	return row, nil
}

// mergeNodes are the parts of a MERGE statement (none for another) whose
// names the binder qualifies (qualifyNames), its WITH clause first.
func mergeNodes(stmt *parser.Statement) []ast.Node {
	m := stmt.Merge
	if m == nil {
		return nil
	}
	var out []ast.Node
	if stmt.WriteWith != nil {
		out = append(out, stmt.WriteWith)
	}
	out = append(out, m.Target, m.Source, m.On)
	for _, w := range m.Whens {
		if w.Cond != nil {
			out = append(out, w.Cond)
		}
		for _, a := range w.Set {
			out = append(out, a.Expr)
		}
		for _, v := range w.Values {
			out = append(out, v)
		}
	}
	return out
}
