package planner

import (
	"slices"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// maxViewDepth bounds views defined over views (and catches cycles, which
// CREATE VIEW cannot make but a replaced view could).
const maxViewDepth = 32

// fromPart is a bound piece of a FROM clause: its plan and the names its
// columns go by, with offsets relative to the plan's own row.
type fromPart struct {
	rel    ir.Rel
	items  []*fromItem
	merged []mergedCol
}

// bindFrom binds a FROM clause into sc and returns its plan.
func (b *Binder) bindFrom(j *ast.Join, sc *scope) (ir.Rel, error) {
	p, err := b.bindTableRef(j, sc, nil)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, it := range p.items {
		if it.alias == "" {
			continue
		}
		if seen[it.alias] {
			return nil, pgerr.New(pgerr.DuplicateAlias, "table name %q specified more than once", it.alias)
		}
		seen[it.alias] = true
	}
	sc.items, sc.merged = p.items, p.merged
	return p.rel, nil
}

// lateralEnv is what a LATERAL item sees to its left: the scope of the
// items before it in its join, chained (through the scope's outer) to the
// items before each enclosing join, and then to the enclosing query; depth
// is the number of outer rows pushed between the item and sc's row (1 when
// the join above the item runs it per left row, 0 for the right side of a
// RIGHT or FULL join, which runs it once).
type lateralEnv struct {
	sc    *scope
	depth int
}

// lateralArgScope is the scope in which an implicitly LATERAL item (a
// function in FROM) binds its arguments: the items to its left as an outer
// row, or, with nothing to its left, the enclosing query's row directly (a
// correlated subquery's FROM unnest(outer.col)).
func lateralArgScope(sc *scope, left *lateralEnv) *scope {
	if left == nil {
		return &scope{outer: sc.outer, depthToOuter: sc.depthToOuter, ctes: sc.ctes}
	}
	return &scope{outer: left.sc, depthToOuter: left.depth, ctes: sc.ctes}
}

// bindTableRef binds one FROM element: a join, a table, a derived table,
// a table function, a CTE reference. left is what a LATERAL item there
// sees to its left, or nil.
func (b *Binder) bindTableRef(node ast.ResultSetNode, sc *scope, left *lateralEnv) (*fromPart, error) {
	switch n := node.(type) {
	case *ast.Join:
		if n.Right == nil {
			return b.bindTableRef(n.Left, sc, left)
		}
		return b.bindJoin(n, sc, left)
	case *ast.TableSource:
		return b.bindTableSource(n, sc, left)
	}
	return nil, unsupported("this FROM item is not supported")
}

// bindJoin binds left JOIN right. A LATERAL item anywhere in the right
// side may read the left side's columns (PostgreSQL: the items on the left
// of every JOIN it is on the right of, and the FROM items before them), so
// the join is bound as lateral, running its right side per left row, when
// the right side holds such an item; the right side's other items then read
// the enclosing query's row one push further away. A join whose right side
// turns out to read neither the left side nor anything beyond is an
// ordinary join.
func (b *Binder) bindJoin(n *ast.Join, sc *scope, outerLeft *lateralEnv) (*fromPart, error) {
	l, err := b.bindTableRef(n.Left, sc, outerLeft)
	if err != nil {
		return nil, err
	}
	kind := ir.InnerJoin
	switch {
	case n.StraightJoin:
		// The parser spells FULL [OUTER] JOIN as STRAIGHT_JOIN, which
		// TiDB's grammar has and PostgreSQL's does not.
		kind = ir.FullJoin
	case n.Tp == ast.LeftJoin:
		kind = ir.LeftJoin
	case n.Tp == ast.RightJoin:
		kind = ir.RightJoin
	}
	next, nextDepth := sc.outer, sc.depthToOuter
	if outerLeft != nil {
		next, nextDepth = outerLeft.sc, outerLeft.depth
	}
	ls := &scope{items: l.items, merged: l.merged, outer: next, depthToOuter: nextDepth, ctes: sc.ctes}
	rightEnv, rsc := &lateralEnv{sc: ls}, sc
	if kind == ir.RightJoin || kind == ir.FullJoin {
		// The right side of a RIGHT or FULL join is computed once: a
		// LATERAL item there may not read the left side (but may read
		// what lies before the join).
		ls.lateralDenied = true
	} else if hasLateralItem(n.Right) {
		rightEnv.depth = 1
		rsc = &scope{outer: sc.outer, depthToOuter: sc.depthToOuter + 1, ctes: sc.ctes}
	}
	r, err := b.bindTableRef(n.Right, rsc, rightEnv)
	if err != nil {
		return nil, err
	}
	// Presumed lateral, the right side's references past the left side
	// counted the push; a right side with none is an ordinary join.
	lateral := rightEnv.depth == 1 && (ls.correlated || ir.Escapes(r.rel))
	lw := len(l.rel.Columns())
	for _, li := range l.items {
		for _, ri := range r.items {
			if li.alias != "" && li.alias == ri.alias {
				return nil, pgerr.New(pgerr.DuplicateAlias, "table name %q specified more than once", li.alias)
			}
		}
	}
	ritems, rmerged := shiftItems(r.items, r.merged, lw, len(l.items))
	if kind == ir.LeftJoin || kind == ir.FullJoin {
		for _, it := range ritems {
			it.nullable = true
		}
	}
	if kind == ir.RightJoin || kind == ir.FullJoin {
		for _, it := range l.items {
			it.nullable = true
		}
	}
	out := &fromPart{items: append(append([]*fromItem(nil), l.items...), ritems...)}
	out.merged = append(append([]mergedCol(nil), l.merged...), rmerged...)

	var on ir.Expr
	using := n.Using
	natural := n.NaturalJoin || naturalFullRight(n.Right)
	if natural {
		// Each left column that some right column is named as, in the
		// left's order, as transformFromClauseItem lists them.
		using = nil
		rnames := visibleNames(r)
		for _, lc := range visibleNames(l) {
			if slices.Contains(rnames, lc) {
				using = append(using, &ast.ColumnName{Name: ast.NewCIStr(lc)})
			}
		}
	}
	if len(using) > 0 {
		// Each USING column becomes one merged column; the two it merges
		// are hidden from unqualified names and from *.
		lScope := &scope{items: l.items, merged: l.merged}
		rScope := &scope{items: ritems, merged: rmerged}
		var merged []mergedCol
		for i, u := range using {
			name := u.Name.O
			for _, prev := range using[:i] {
				if prev.Name.O == name {
					return nil, pgerr.New(pgerr.DuplicateColumn, "column name %q appears more than once in USING clause", name)
				}
			}
			le, lok, lerr := lScope.lookup("", name)
			re, rok, rerr := rScope.lookup("", name)
			for _, side := range []struct {
				err  error
				name string
			}{{lerr, "left"}, {rerr, "right"}} {
				if side.err == nil {
					continue
				}
				if pe, ok := side.err.(*pgerr.Error); ok && pe.Code == pgerr.AmbiguousColumn {
					return nil, pgerr.New(pgerr.AmbiguousColumn, "common column name %q appears more than once in %s table", name, side.name)
				}
				return nil, side.err
			}
			if !lok || !rok {
				side := "left"
				if lok {
					side = "right"
				}
				return nil, pgerr.New(pgerr.UndefinedColumn, "column %q specified in USING clause does not exist in %s table", name, side)
			}
			// The merged column has both sides' common type (PostgreSQL's
			// buildMergedJoinVar): smallint USING integer is integer.
			t, err := commonType(le.Type(), re.Type(), "JOIN/USING")
			if err != nil {
				return nil, err
			}
			eq, err := b.compare(ir.OpEq, le, re)
			if err != nil {
				return nil, err
			}
			on = andExpr(on, eq)
			lt, err := b.coerceTo(le, t, false)
			if err != nil {
				return nil, err
			}
			rt, err := b.coerceTo(re, t, false)
			if err != nil {
				return nil, err
			}
			var m ir.Expr
			switch kind {
			case ir.RightJoin:
				m = rt
			case ir.FullJoin:
				f := &ir.Func{Name: "coalesce", Args: []ir.Expr{lt, rt}, Typ: t, Lazy: evalCoalesce}
				if b.notes != nil {
					b.notes.NoteMerged(f, name)
				}
				m = f
			default:
				m = lt
			}
			merged = append(merged, mergedCol{name: name, expr: m})
			hideUsing(out.items, le)
			hideUsing(out.items, re)
		}
		// Merged columns come first, and replace any merged by an inner join.
		out.merged = append(merged, dropMerged(out.merged, merged)...)
	}
	cross := rightItemFlags(n.Right).Cross
	if cross && n.On != nil {
		if !parenthesizedJoin(n.Right) {
			return nil, pgerr.New(pgerr.SyntaxError, "syntax error at or near \"ON\"")
		}
		// The parser's ON TRUE of CROSS JOIN (a JOIN b) (fromItems).
		n.On = nil
	}
	if n.On != nil {
		onScope := &scope{outer: sc.outer, depthToOuter: sc.depthToOuter, ctes: sc.ctes, items: out.items, merged: out.merged}
		e, err := b.bindBool(onScope, n.On.Expr, "JOIN/ON")
		if err != nil {
			return nil, err
		}
		if onScope.correlated {
			sc.correlated = true
		}
		on = andExpr(on, e)
	} else if kind != ir.InnerJoin && len(using) == 0 && !natural {
		return nil, pgerr.New(pgerr.SyntaxError, "syntax error at or near end of JOIN: an outer join needs ON or USING")
	}
	j := ir.NewJoin(kind, l.rel, r.rel, on)
	j.Lateral = lateral
	out.rel = j
	if b.notes != nil && (natural || len(using) > 0) {
		var names []string
		for _, u := range using {
			names = append(names, u.Name.O)
		}
		// ON's own condition follows USING's in On: only USING is
		// printed, so a join with both is not.
		b.notes.NoteUsing(j, names, n.On != nil)
	}
	if b.notes != nil && cross {
		b.notes.NoteCross(j)
	}
	return out, nil
}

// visibleNames lists the column names a NATURAL join can match.
func visibleNames(p *fromPart) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range p.merged {
		if !seen[m.name] {
			seen[m.name] = true
			out = append(out, m.name)
		}
	}
	for _, it := range p.items {
		for i, c := range it.cols {
			if c.Hidden || it.hiddenByUsing[i] || seen[c.Name] {
				continue
			}
			seen[c.Name] = true
			out = append(out, c.Name)
		}
	}
	return out
}

func hideUsing(items []*fromItem, e ir.Expr) {
	c, ok := e.(*ir.ColRef)
	if !ok {
		return
	}
	for _, it := range items {
		if c.Index >= it.offset && c.Index < it.offset+len(it.cols) {
			if it.hiddenByUsing == nil {
				it.hiddenByUsing = map[int]bool{}
			}
			it.hiddenByUsing[c.Index-it.offset] = true
		}
	}
}

func dropMerged(all, replaced []mergedCol) []mergedCol {
	var out []mergedCol
	for _, m := range all {
		keep := true
		for _, r := range replaced {
			keep = keep && r.name != m.name
		}
		if keep {
			out = append(out, m)
		}
	}
	return out
}

func andExpr(a, b ir.Expr) ir.Expr {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	return &ir.Binary{Op: ir.OpAnd, L: a, R: b, Typ: sqltypes.TypeBool}
}

// rightFlags are the flags the parser encoded in a join's right item's
// alias.
func rightFlags(node ast.ResultSetNode) parser.AliasFlags {
	ts, ok := node.(*ast.TableSource)
	if !ok {
		return parser.AliasFlags{}
	}
	_, flags, _ := parser.SplitAlias(ts.AsName.O)
	return flags
}

// naturalFullRight reports whether a join's right side is the right item of
// NATURAL FULL JOIN.
func naturalFullRight(node ast.ResultSetNode) bool { return rightItemFlags(node).NaturalFull }

// rightItemFlags are the flags the parser encoded for a join's right side:
// in its alias, or, for a parenthesized join (which has no alias), in the
// alias of its leftmost item (the parser marks it there; a leftmost item
// is never itself a join's right item).
func rightItemFlags(node ast.ResultSetNode) parser.AliasFlags {
	for {
		switch n := node.(type) {
		case *ast.Join:
			node = n.Left
		case *ast.TableSource:
			if j, ok := n.Source.(*ast.Join); ok && n.AsName.O == "" {
				node = j
				continue
			}
			return rightFlags(n)
		default:
			return parser.AliasFlags{}
		}
	}
}

// hasLateralItem reports whether a FROM item is, or is a join holding, a
// LATERAL item (a function in FROM is one).
func hasLateralItem(node ast.ResultSetNode) bool {
	switch n := node.(type) {
	case *ast.Join:
		return hasLateralItem(n.Left) || (n.Right != nil && hasLateralItem(n.Right))
	case *ast.TableSource:
		if j, ok := n.Source.(*ast.Join); ok {
			return hasLateralItem(j)
		}
		return isLateral(n)
	}
	return false
}

// isLateral reports whether a join's right side is a LATERAL item (table
// functions are always lateral, as in PostgreSQL).
func isLateral(node ast.ResultSetNode) bool {
	ts, ok := node.(*ast.TableSource)
	if !ok {
		return false
	}
	flags := rightFlags(node)
	if flags.NotLateral {
		return false
	}
	return ts.Lateral || flags.Lateral || tableFuncOf(ts) != nil
}

// tableFuncOf recognises the parser's spelling of a function in FROM:
// (SELECT zp_table_func(f(args))).
func tableFuncOf(ts *ast.TableSource) *ast.FuncCallExpr {
	sel, ok := ts.Source.(*ast.SelectStmt)
	if !ok || sel.From != nil || sel.Fields == nil || len(sel.Fields.Fields) != 1 {
		return nil
	}
	call, ok := sel.Fields.Fields[0].Expr.(*ast.FuncCallExpr)
	if !ok || call.FnName.L != parser.TableFuncFunc || len(call.Args) != 1 {
		return nil
	}
	f, ok := call.Args[0].(*ast.FuncCallExpr)
	if !ok {
		return nil
	}
	return f
}

func (b *Binder) bindTableSource(ts *ast.TableSource, sc *scope, left *lateralEnv) (*fromPart, error) {
	alias, flags, colAliases := parser.SplitAlias(ts.AsName.O)
	lateral := (ts.Lateral || flags.Lateral) && !flags.NotLateral
	colNames, defTypes := splitColumnDefs(colAliases)
	names := make([]ast.CIStr, len(colNames))
	for i, c := range colNames {
		names[i] = ast.NewCIStr(c)
	}
	names = append(names, ts.ColumnNames...)
	finish := func(rel ir.Rel, alias string, what string) (*fromPart, error) {
		cols, err := renameColumns(rel.Columns(), names, what)
		if err != nil {
			return nil, err
		}
		it := &fromItem{alias: alias, cols: cols, perm: b.permissionFor(rel)}
		if s, ok := rel.(*ir.Scan); ok {
			it.table = s.Table
		}
		b.rtable = append(b.rtable, rtEntry{alias: alias, table: it.table})
		if it.table == nil && b.notes == nil && b.namesWholeRow(alias) {
			rel = withPresence(rel, it)
		}
		return &fromPart{rel: rel, items: []*fromItem{it}}, nil
	}
	switch src := ts.Source.(type) {
	case *ast.TableName:
		if alias == "" {
			// A relation of a user schema is named by its key
			// "schema.name" (schemas.go); its default alias is the
			// name in the schema.
			_, alias = catalog.SplitName(src.Name.O)
		}
		rel, err := b.bindTableName(src, sc, alias)
		if err != nil {
			return nil, err
		}
		if src.TableSample != nil && !isTableSample(rel) {
			// bindTableName samples a table's (or materialized view's)
			// rows; a view, a WITH query, a catalog relation has none.
			return nil, pgerr.New(pgerr.FeatureNotSupported, "TABLESAMPLE clause can only be applied to tables and materialized views").
				WithPosition(b.stmt.NamePosition(src.Name.O))
		}
		v, virtual := rel.(*ir.Virtual)
		if virtual && b.notes != nil && (strings.HasPrefix(v.Table.Name, "pg_catalog.") || strings.HasPrefix(v.Table.Name, "information_schema.")) {
			// A catalog relation, printed by its name.
			b.notes.NoteRelation(v, v.Table.Name)
		}
		part, err := finish(rel, alias, "table \""+alias+"\"")
		if err == nil && virtual && b.notes != nil {
			part.items[0].relabel = informationSchemaDomains(v.Table)
		}
		if err == nil && b.notes != nil && b.notes.IsRelation(rel) {
			b.notes.NoteFrom(rel, alias, len(names) > 0, false, part.items[0].cols)
		}
		return part, err
	case *ast.SelectStmt, *ast.SetOprStmt:
		if f := tableFuncOf(ts); f != nil {
			part, err := b.bindTableFunc(f, alias, names, defTypes, flags.Ordinality, sc, left)
			if err == nil && b.notes != nil && len(defTypes) == 0 {
				// With a column definition list the note would print the
				// columns without their types: the stored text is printed.
				if tf, ok := part.rel.(*ir.TableFunc); ok && (tf.Parts == nil || f.FnName.L == parser.RowsFromFunc) {
					b.notes.NoteFrom(tf, part.items[0].alias, len(names) > 0, lateral, part.items[0].cols)
				}
			}
			return part, err
		}
		if alias == "" {
			return nil, unaliasedSubquery(src, b.stmt)
		}
		e := env{outer: sc.outer, depth: sc.depthToOuter, ctes: sc.ctes}
		if lateral && left != nil {
			e = env{outer: left.sc, depth: left.depth, ctes: sc.ctes}
		}
		rel, err := b.bindQuery(src, e)
		if err != nil {
			return nil, err
		}
		part, err := finish(rel, alias, "table \""+alias+"\"")
		if err == nil && b.notes != nil {
			b.notes.NoteFrom(rel, alias, len(names) > 0, lateral, part.items[0].cols)
		}
		return part, err
	case *ast.Join:
		if alias != "" {
			return nil, unsupported("an alias for a parenthesized join is not supported")
		}
		return b.bindTableRef(src, sc, left)
	}
	return nil, unsupported("this FROM item is not supported")
}

// informationSchemaDomains marks the columns of an information_schema
// relation that PostgreSQL declares of its domains over name, integer and
// timestamptz (sql_identifier, cardinal_number, time_stamp): zproxy gives
// them the base type (columns_gen.go), and every column of those base
// types there is of one of them but for the internal _pg_ views'. An
// operator takes such a column relabeled to the base type, which
// pg_get_viewdef prints as a cast ((tables.table_name)::name); the
// character_data and yes_or_no columns (varchar domains) print as varchar
// ones do already.
func informationSchemaDomains(t *catalog.Table) map[int]bool {
	sc, name := catalog.SplitName(t.Name)
	if sc != "information_schema" || strings.HasPrefix(name, "_pg_") {
		return nil
	}
	var out map[int]bool
	for i, c := range t.Columns {
		switch c.Type.ID {
		case sqltypes.Name, sqltypes.Int4, sqltypes.TimestampTZ:
			if out == nil {
				out = map[int]bool{}
			}
			out[i] = true
		}
	}
	return out
}

// parenthesizedJoin reports whether a join's right side is a
// parenthesized join (no alias: one with an alias is a derived table).
func parenthesizedJoin(node ast.ResultSetNode) bool {
	switch n := node.(type) {
	case *ast.Join:
		return n.Right != nil
	case *ast.TableSource:
		j, ok := n.Source.(*ast.Join)
		return ok && n.AsName.O == "" && j.Right != nil
	}
	return false
}

// firstArgCall is f's first argument when it is a function call.
func firstArgCall(f *ast.FuncCallExpr) (*ast.FuncCallExpr, bool) {
	if len(f.Args) == 0 {
		return nil, false
	}
	call, ok := f.Args[0].(*ast.FuncCallExpr)
	return call, ok
}

// snapFor is the schema a name qualified by schema resolves in: public
// names only permanent relations (a temporary one of the same name hides
// them from unqualified names alone), pg_temp only the session's
// temporary ones (tempOnly), and an unqualified name either.
func (b *Binder) snapFor(schema string) (snap *catalog.Snapshot, tempOnly bool) {
	switch {
	case schema == "public":
		return b.snap.Permanent(), false
	case isTempSchema(schema):
		return b.snap, true
	}
	return b.snap, false
}

// bindTableName resolves a table name: a WITH query, a view, a stored
// table, or a catalog relation (pg_catalog is on every search path).
func (b *Binder) bindTableName(tn *ast.TableName, sc *scope, alias string) (ir.Rel, error) {
	schema, name := tn.Schema.O, tn.Name.O
	only := schema == parser.OnlySchema // SELECT ... FROM ONLY name
	if only {
		schema = ""
	}
	if schema == "" {
		cte, self, ok := sc.ctes.lookup(name)
		if !ok {
			// The WITH of an INSERT, UPDATE or DELETE (writecte.go).
			cte, self, ok = b.baseCTEs.lookup(name)
		}
		if ok {
			if self {
				wt := ir.NewWorkTable(cte)
				if b.notes != nil && alias != name {
					b.notes.NoteAlias(wt, alias)
				}
				return wt, nil
			}
			if cte.Write != nil && cte.Cols == nil {
				return nil, noReturning(cte)
			}
			cte.Refs++
			return ir.NewCTEScan(cte, alias), nil
		}
		if r := b.transitionTable(name); r != nil {
			return r, nil
		}
	}
	if schema == "" {
		// pg_catalog is searched before public unless search_path names
		// it later (zproxy's search_path always starts with it), so a
		// user's relation named like a catalog one never stands in for it
		// in anyone's unqualified query.
		if v, ok := pgcatalog.Lookup(b.snap, "pg_catalog", name); ok {
			return b.catalogRelation(v), nil
		}
	}
	if schema == "" || schema == "public" || isTempSchema(schema) {
		snap, tempOnly := b.snapFor(schema)
		if t, err := snap.Table(name); err == nil && (!tempOnly || t.Temp) {
			b.depends(t.Name, t.Temp)
			var s ir.Rel = ir.NewScan(t, alias)
			switch heirs := b.snap.Inheritors(t); {
			case only && t.IsPartitioned():
				// A partitioned table holds no rows of its own.
				s = &ir.Values{Cols: s.Columns()}
				if b.wantsTableOID() {
					s = &ir.Values{Cols: append(s.Columns(), tableOIDColumn)}
				}
			case t.IsPartitioned():
				s = b.partitionedScan(t, alias, b.wantsTableOID())
			case !only && len(heirs) > 0:
				s = b.inheritedScan(t, alias, heirs)
			default:
				s = b.withTableOID(s, t)
			}
			b.notePermission(s, b.addPermission(t, nil, catalog.PrivSelect))
			if tn.TableSample != nil {
				return b.tableSample(s, tn.TableSample)
			}
			return s, nil
		}
		if v, ok := snap.StoredView(name); ok && !tempOnly {
			b.depends(v.Name, v.Temp)
			p := b.addPermission(nil, v, catalog.PrivSelect)
			r, err := b.bindView(v)
			if err == nil {
				b.notePermission(r, p)
				if b.notes != nil {
					b.notes.NoteRelation(r, v.Name)
				}
			}
			return r, err
		}
		if q, ok := snap.Sequence(name); ok && (!tempOnly || q.Temp) {
			return ir.NewVirtual(sequenceRelation(b.snap, q)), nil
		}
		// The built-in extensions' relations in public (postgis's
		// spatial_ref_sys and geometry_columns), after the user's own.
		if v, ok := pgcatalog.Lookup(b.snap, "public", name); ok && !isTempSchema(schema) {
			return b.catalogRelation(v), nil
		}
		if schema != "" {
			return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", schema+"."+name).WithPosition(b.stmt.NamePosition(schema))
		}
	}
	if v, ok := pgcatalog.Lookup(b.snap, schema, name); ok {
		return b.catalogRelation(v), nil
	}
	full, at := name, name
	if schema != "" {
		// A qualified name is at its qualifier, as PostgreSQL's RangeVar.
		full, at = schema+"."+name, schema
	}
	return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", full).WithPosition(b.stmt.NamePosition(at))
}

// sequenceRelation is a sequence read as a relation, as PostgreSQL shows
// one: a row of last_value, log_cnt and is_called (pg_dump reads them to
// restore the sequence with setval). zproxy writes no WAL, so log_cnt is 0.
func sequenceRelation(snap *catalog.Snapshot, q *catalog.Sequence) *catalog.Table {
	name := q.Name
	text := snap.RelationKeyText(q.Name, q.Temp) // q exactly, whatever the path
	return &catalog.Table{Name: name, Columns: []catalog.Column{
		{Name: "last_value", Type: sqltypes.TypeInt8, NotNull: true},
		{Name: "log_cnt", Type: sqltypes.TypeInt8, NotNull: true},
		{Name: "is_called", Type: sqltypes.TypeBool, NotNull: true},
	}, Virtual: func(fn *builtins.Context) ([][]sqltypes.Value, error) {
		if fn == nil || fn.Sequences == nil {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "sequence %s cannot be read here", name)
		}
		last, called, err := fn.Sequences.State(text)
		if err != nil {
			return nil, err
		}
		return [][]sqltypes.Value{{sqltypes.NewInt(last), sqltypes.NewInt(0), sqltypes.NewBool(called)}}, nil
	}}
}

// depends records a stored relation the statement reads (a view's
// dependencies), once.
func (b *Binder) depends(name string, temp bool) {
	if b.viewDepth > 0 {
		return // only the view's own query counts, not the views it reads
	}
	// Whether one is temporary is known here alone: its key may be
	// public's too (public.t past a temporary t).
	b.readsTemp = b.readsTemp || temp
	for _, d := range b.deps {
		if d == name {
			return
		}
	}
	b.deps = append(b.deps, name)
}

// bindView binds a stored view's query in a fresh name space (a view sees
// no outer query and no WITH of the query using it).
func (b *Binder) bindView(v *catalog.View) (ir.Rel, error) {
	if b.viewDepth >= maxViewDepth {
		return nil, pgerr.New(pgerr.InvalidObjectDefinition, "infinite recursion detected in rules for relation %q", v.Name)
	}
	stmts, err := parser.Parse(v.SQL)
	if err != nil || len(stmts) != 1 {
		return nil, pgerr.New(pgerr.InvalidObjectDefinition, "view %q has an invalid definition: %v", v.Name, err)
	}
	saved, savedAs := b.stmt, b.checkAs
	b.stmt = &stmts[0]
	b.viewDepth++
	if v.Owner != "" && !v.SecurityInvoker() {
		// What the view reads is checked as its owner (views created
		// before owners were recorded, and security_invoker views: as
		// the user, or the owner of the view around it).
		b.checkAs = v.Owner
	}
	defer func() { b.stmt, b.checkAs = saved, savedAs; b.viewDepth-- }()
	defer b.replayStars(v.Stars)()
	rel, err := b.bindStored(v.Path, stmts[0].AST, func() (ir.Rel, error) { return b.bindQuery(stmts[0].AST, env{}) })
	if err != nil {
		return nil, err
	}
	cols := rel.Columns()
	if len(cols) != len(v.Columns) {
		return nil, pgerr.New(pgerr.InvalidObjectDefinition, "view %q no longer matches its definition", v.Name)
	}
	out := make([]ir.Column, len(cols))
	exprs := make([]ir.Expr, len(cols))
	for i, c := range cols {
		out[i] = c
		out[i].Name = v.Columns[i]
		exprs[i] = &ir.ColRef{Index: i, Name: v.Columns[i], Typ: c.Type}
	}
	return &ir.Project{Input: rel, Exprs: exprs, Cols: out}, nil
}

// bindTableFunc binds the function of a FROM item. Its arguments may read
// the items to its left (functions in FROM are implicitly LATERAL) but may
// not call set-returning functions themselves.
func (b *Binder) bindTableFunc(f *ast.FuncCallExpr, alias string, names []ast.CIStr, defTypes []string, ordinality bool, sc *scope, left *lateralEnv) (*fromPart, error) {
	name := f.FnName.L
	if name == parser.RowsFromFunc && len(f.Args) == 1 {
		// ROWS FROM (f(...)) is f(...) (PostgreSQL's grammar makes it so).
		if call, ok := f.Args[0].(*ast.FuncCallExpr); ok {
			f, name = call, call.FnName.L
		}
	}
	if alias == "" {
		_, alias = catalog.SplitName(name) // s.f(...) (its key, qualifyCall) is named f
		if call, ok := firstArgCall(f); ok && name == parser.RowsFromFunc {
			// ROWS FROM's default alias is its first function's name.
			_, alias = catalog.SplitName(call.FnName.L)
		}
	}
	if len(defTypes) > 0 && ordinality {
		return nil, pgerr.New(pgerr.SyntaxError, "WITH ORDINALITY cannot be used with a column definition list").
			WithHint("Put the column definition list inside ROWS FROM().")
	}
	if len(defTypes) > 0 && name == parser.RowsFromFunc {
		return nil, pgerr.New(pgerr.SyntaxError, "ROWS FROM() with multiple functions cannot have a column definition list").
			WithHint("Put a separate column definition list for each function inside ROWS FROM().")
	}
	if name == parser.RowsFromFunc {
		return b.bindRowsFrom(f, alias, names, ordinality, sc, left)
	}
	argScope := lateralArgScope(sc, left)
	args := make([]ir.Expr, len(f.Args))
	restore, leave := b.srfDenied(srfInFromArgs), b.inClause("functions in FROM")
	for i, a := range f.Args {
		x, err := b.bindExpr(argScope, a)
		if err != nil {
			restore()
			leave()
			return nil, err
		}
		args[i] = x
	}
	restore()
	leave()
	colNames := make([]string, len(names))
	for i, n := range names {
		colNames[i] = n.O
	}
	defs, err := b.columnDefTypes(colNames, defTypes)
	if err != nil {
		return nil, err
	}
	var tf *ir.TableFunc
	if isJSONToRecord(name) {
		tf, err = b.jsonToRecord(name, args, colNames, defs)
	} else {
		tf, err = b.tableFunc(name, args)
		if err == nil && defs != nil {
			err = columnDefinitionNotAllowed(name, tf)
		}
	}
	if err != nil {
		return nil, err
	}
	tf.Ordinality = ordinality
	scalar := len(tf.Cols) == 1 && !ordinality && defs == nil && len(tf.Parts) <= 1 && tf.Name != ir.ScalarRowTableFunc &&
		!isJSONToRecord(name) && !(tf.Fn != nil && returnsRowType(tf.Fn))
	if len(tf.Cols) == 1 && len(names) == 0 && !hasOutColumns(name) && !(tf.Fn != nil && tf.Fn.Set != nil && len(tf.Fn.Set.Columns) == 1) && b.outNamed != tf {
		// A function returning one column names it after the alias, as
		// PostgreSQL does (FROM generate_series(1, 3) AS g gives column g),
		// unless it names its column itself (an OUT parameter, such as
		// pg_partition_ancestors' relid).
		tf.Cols[0].Name = alias
	}
	if ordinality {
		tf.Cols = append(tf.Cols, ir.Column{Name: "ordinality", Type: sqltypes.TypeInt8, Col: -1})
	}
	cols, err := renameColumns(tf.Cols, names, "table \""+alias+"\"")
	if err != nil {
		return nil, err
	}
	tf.Cols = cols
	item := &fromItem{alias: alias, cols: cols, scalar: scalar}
	if fn, ok := routineOf(tf.Fn); ok && fn.RowType != "" && !ordinality && len(names) == 0 {
		if t, err := b.snap.Table(fn.RowType); err == nil && len(b.rowTypeOf(t).Fields) == len(cols) {
			item.rowsOf = t
		}
	}
	return &fromPart{rel: tf, items: []*fromItem{item}}, nil
}

// routineOf is the user function a table function's overload calls.
func routineOf(o *builtins.Overload) (*catalog.Function, bool) {
	if o == nil {
		return nil, false
	}
	fn, ok := o.Routine.(*catalog.Function)
	return fn, ok
}

// returnsRowType reports whether a table function's overload is a user
// function returning a table's (or composite type's) rows, whose whole
// row is a record even when it has one column.
func returnsRowType(o *builtins.Overload) bool {
	fn, ok := routineOf(o)
	return ok && (fn.RowType != "" || fn.Result.IsNamedComposite())
}

// withPresence gives the relation of it, a derived FROM item (subquery,
// VALUES, function, view, WITH query), a hidden last column that is true
// in every row: an outer join null-extending the item makes it NULL, so
// the item's whole row is NULL there, as PostgreSQL's whole-row Var of a
// null-extended relation is (presentColumn), not a row of NULLs.
func withPresence(rel ir.Rel, it *fromItem) ir.Rel {
	cols := rel.Columns()
	exprs := make([]ir.Expr, len(cols), len(cols)+1)
	for i, c := range cols {
		exprs[i] = &ir.ColRef{Index: i, Name: c.Name, Typ: c.Type}
	}
	exprs = append(exprs, &ir.Const{V: sqltypes.NewBool(true), Typ: sqltypes.TypeBool})
	out := append(slices.Clip(slices.Clone(cols)), ir.Column{Name: "?present?", Type: sqltypes.TypeBool, Col: -1, Hidden: true})
	it.present = len(cols)
	return &ir.Project{Input: rel, Exprs: exprs, Cols: out}
}

// namesWholeRow reports whether the statement may read the whole row of
// the FROM item alias: it names alias as a column (s, row_to_json(s),
// (s).a), or it is not known (nil statement).
func (b *Binder) namesWholeRow(alias string) bool {
	if b.stmt == nil || b.stmt.AST == nil {
		return true
	}
	if b.wholeRowNames == nil {
		b.wholeRowNames = map[string]bool{}
		b.stmt.AST.Accept(&columnNames{names: b.wholeRowNames})
	}
	return b.wholeRowNames[strings.ToLower(alias)]
}

// columnNames collects the unqualified column names of a statement.
type columnNames struct{ names map[string]bool }

func (v *columnNames) Enter(n ast.Node) (ast.Node, bool) {
	if c, ok := n.(*ast.ColumnNameExpr); ok && c.Name.Table.O == "" {
		v.names[c.Name.Name.L] = true
	}
	return n, false
}

func (v *columnNames) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// unaliasedSubquery is PostgreSQL 15's refusal of a FROM item that is a
// query with no alias (VALUES's own words for a VALUES list), at the first
// such item in the text: the items bind in text order, so the first one
// refused is the first one written.
func unaliasedSubquery(src ast.ResultSetNode, stmt *parser.Statement) error {
	what := "subquery"
	example := "SELECT"
	if sel, ok := src.(*ast.SelectStmt); ok && sel.Kind == ast.SelectStmtKindValues {
		what, example = "VALUES", "VALUES"
	}
	err := pgerr.New(pgerr.SyntaxError, "%s in FROM must have an alias", what).
		WithHint("For example, FROM (%s ...) [AS] foo.", example)
	if stmt != nil && len(stmt.UnaliasedSubqueries) > 0 {
		err = err.WithPosition(stmt.UnaliasedSubqueries[0])
	}
	return err
}
