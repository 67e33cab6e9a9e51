package planner

import (
	"math"
	"slices"
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/ir"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/parser"
)

// env is where a query is bound: the scope its expressions may reach as
// outer references (nil at the top level), how many outer rows separate the
// query from that scope at run time, and the visible WITH queries.
type env struct {
	outer *scope
	depth int
	ctes  *cteEnv
	// setOpLeaf: the query is an operand of UNION, INTERSECT or EXCEPT,
	// whose untyped literals stay unknown for the set operation to
	// resolve with its other operands (SELECT 'a' UNION SELECT v, v
	// varchar, is varchar), as PostgreSQL leaves them.
	setOpLeaf bool
}

// newScope opens the scope of a query level bound in e.
func (e env) newScope() *scope {
	return &scope{outer: e.outer, depthToOuter: e.depth, ctes: e.ctes}
}

// bindQuery binds any query (SELECT, VALUES, TABLE, a set operation, with
// its WITH clause) and returns its plan, whose columns are exactly the
// query's output columns.
func (b *Binder) bindQuery(node ast.Node, e env) (ir.Rel, error) {
	b.nesting++
	defer func() { b.nesting-- }()
	switch n := node.(type) {
	case *ast.SelectStmt:
		rel, err := b.bindSelect(n, e)
		b.noteWith(rel, err, n.With)
		return rel, err
	case *ast.SetOprStmt:
		rel, err := b.bindSetOpr(n, e)
		if n.SelectList != nil && n.SelectList.With != nil {
			b.noteWith(rel, err, n.SelectList.With)
		}
		b.noteWith(rel, err, n.With)
		return rel, err
	case *ast.SetOprSelectList:
		return b.bindSetOprList(n, nil, nil, e)
	case *ast.SubqueryExpr:
		return b.bindQuery(n.Query, e)
	}
	return nil, unsupported("%s is not supported as a query", exprName(nil))
}

// withCTEs binds a WITH clause and returns the environment its query sees.
func (b *Binder) withCTEs(w *ast.WithClause, e env) (env, error) {
	if w == nil {
		return e, nil
	}
	ce := &cteEnv{ctes: map[string]*ir.CTE{}, outer: e.ctes}
	inner := e
	inner.ctes, inner.setOpLeaf = ce, false
	for _, c := range w.CTEs {
		name, flags, _ := parser.SplitAlias(c.Name.O)
		if _, dup := ce.ctes[name]; dup {
			return e, pgerr.New(pgerr.DuplicateAlias, "WITH query name %q specified more than once", name)
		}
		b.nextCTE++
		cte := &ir.CTE{Name: name, ID: b.nextCTE, Materialized: flags.Materialized, NotMaterialized: flags.NotMaterialized}
		if k, ok := writeCTEBody(c); ok {
			if err := b.bindWriteCTE(cte, k, inner); err != nil {
				return e, err
			}
			ce.ctes[name] = cte
			continue
		}
		var plan ir.Rel
		var err error
		if w.IsRecursive && refersTo(c.Query.Query, name) {
			plan, err = b.bindRecursiveCTE(cte, c, inner)
		} else if sc := b.searchCycleOf(c); sc != nil {
			return e, searchCycleError(sc, "WITH query is not recursive")
		} else {
			plan, err = b.bindQuery(c.Query.Query, inner)
		}
		if err != nil {
			return e, err
		}
		cols, err := renameColumns(plan.Columns(), c.ColNameList, "WITH query \""+name+"\"")
		if err != nil {
			return e, err
		}
		cte.Plan, cte.Cols = plan, cols
		ce.ctes[name] = cte
		if b.notes != nil {
			if b.withNotes == nil {
				b.withNotes = map[*ast.WithClause]*withNote{}
			}
			wn := b.withNotes[w]
			if wn == nil {
				wn = &withNote{}
				b.withNotes[w] = wn
			}
			var names []string
			for _, c := range c.ColNameList {
				names = append(names, c.O)
			}
			wn.ctes, wn.colNames = append(wn.ctes, cte), append(wn.colNames, names)
		}
	}
	// The query the WITH belongs to is still a set operation's operand
	// if it was one (its literals stay unknown); the WITH queries are not.
	inner.setOpLeaf = e.setOpLeaf
	return inner, nil
}

// withNote is a WITH clause's queries, for the notes of the query it
// belongs to (noteWith).
type withNote struct {
	ctes     []*ir.CTE
	colNames [][]string
}

// noteWith notes, when the binder keeps notes for pg_get_viewdef, the
// WITH clause w of the query bound as rel.
func (b *Binder) noteWith(rel ir.Rel, err error, w *ast.WithClause) {
	if b.notes == nil || err != nil || w == nil || b.withNotes[w] == nil {
		return
	}
	wn := b.withNotes[w]
	if len(wn.ctes) != len(w.CTEs) {
		return // a data-modifying WITH query: not noted, not printed
	}
	b.notes.NoteWith(rel, w.IsRecursive, wn.ctes, wn.colNames)
}

// renameColumns applies a column alias list (WITH t(a, b), AS t(a, b)):
// the first names are replaced, the rest kept.
func renameColumns(cols []ir.Column, names []ast.CIStr, what string) ([]ir.Column, error) {
	if len(names) > len(cols) {
		return nil, pgerr.New(pgerr.InvalidColumnReference, "%s has %d columns available but %d columns specified", what, len(cols), len(names))
	}
	out := make([]ir.Column, len(cols))
	copy(out, cols)
	for i, n := range names {
		out[i].Name = n.O
	}
	return out, nil
}

// refersTo reports whether a query mentions a table named name.
func refersTo(node ast.Node, name string) bool {
	found := false
	node.Accept(&tableNameFinder{name: name, found: &found})
	return found
}

type tableNameFinder struct {
	name  string
	found *bool
}

func (f *tableNameFinder) Enter(n ast.Node) (ast.Node, bool) {
	if t, ok := n.(*ast.TableName); ok && t.Schema.O == "" && t.Name.O == f.name {
		*f.found = true
	}
	return n, *f.found
}

func (f *tableNameFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// bindRecursiveCTE binds WITH RECURSIVE name AS (anchor UNION [ALL] rec):
// the anchor first, which fixes the columns, then the recursive term with
// name reading the work table.
func (b *Binder) bindRecursiveCTE(cte *ir.CTE, c *ast.CommonTableExpression, e env) (ir.Rel, error) {
	set, ok := c.Query.Query.(*ast.SetOprStmt)
	if !ok || set.SelectList == nil || len(set.SelectList.Selects) < 2 || set.OrderBy != nil || set.Limit != nil {
		return nil, pgerr.New(pgerr.InvalidRecursion, "recursive query %q does not have the form non-recursive-term UNION [ALL] recursive-term", cte.Name)
	}
	list := set.SelectList.Selects
	last := list[len(list)-1]
	op := setOprOf(last)
	if op == nil || (*op != ast.Union && *op != ast.UnionAll) {
		return nil, pgerr.New(pgerr.InvalidRecursion, "recursive query %q does not have the form non-recursive-term UNION [ALL] recursive-term", cte.Name)
	}
	anchorList := &ast.SetOprSelectList{Selects: list[:len(list)-1]}
	var anchor ir.Rel
	var err error
	if len(anchorList.Selects) == 1 {
		anchor, err = b.bindQuery(anchorList.Selects[0], e)
	} else {
		anchor, err = b.bindSetOprList(anchorList, nil, nil, e)
	}
	if err != nil {
		return nil, err
	}
	for _, s := range anchorList.Selects {
		if refersTo(s, cte.Name) {
			return nil, pgerr.New(pgerr.InvalidRecursion, "recursive reference to query %q must not appear within its non-recursive term", cte.Name)
		}
	}
	cols, err := renameColumns(anchor.Columns(), c.ColNameList, "WITH query \""+cte.Name+"\"")
	if err != nil {
		return nil, err
	}
	for i := range cols {
		cols[i].Table, cols[i].Col = nil, -1
	}
	cte.Cols, cte.Recursive = cols, true
	// SEARCH and CYCLE add columns the work table carries too
	// (searchcycle.go).
	sc := b.searchCycleOf(c)
	var extra []ir.Column
	var mark, def *ir.Const
	if sc != nil {
		if extra, mark, def, err = searchCycleColumns(sc, cols); err != nil {
			return nil, err
		}
		cte.Cols = append(append([]ir.Column(nil), cols...), extra...)
	}
	rec := e
	rec.ctes = &cteEnv{outer: e.ctes, self: cte}
	rec.setOpLeaf = true // its literals take the non-recursive term's types
	recursive, err := b.bindQuery(last, rec)
	if err != nil {
		return nil, err
	}
	if err := checkRecursiveTerm(cte.Name, recursive); err != nil {
		return nil, err
	}
	if len(recursive.Columns()) != len(cols) {
		return nil, pgerr.New(pgerr.SyntaxError, "each UNION query must have the same number of columns")
	}
	for i, c := range recursive.Columns() {
		if c.Type != cols[i].Type && c.Type.ID != sqltypes.Unknown && !(c.Type.IsNumeric() && cols[i].Type.IsNumeric() && arithType(c.Type, cols[i].Type) == cols[i].Type) {
			return nil, pgerr.New(pgerr.DatatypeMismatch, "recursive query %q column %d has type %s in non-recursive term but type %s overall", cte.Name, i+1, cols[i].Type, c.Type).
				WithHint("Cast the output of the non-recursive term to the correct type.")
		}
	}
	recursive, err = b.castColumns(recursive, cols)
	if err != nil {
		return nil, err
	}
	if sc != nil {
		if anchor, recursive, err = bindSearchCycle(sc, cte, cols, extra, anchor, recursive, mark, def); err != nil {
			return nil, err
		}
	}
	return &ir.RecursiveUnion{Anchor: anchor, Recursive: recursive, All: *op == ast.UnionAll, CTE: cte}, nil
}

// checkRecursiveTerm refuses the recursive terms PostgreSQL refuses (they
// could not reach a fixed point one round at a time): aggregates, window
// functions, and the work table on the NULL-extended side of an outer join.
func checkRecursiveTerm(name string, r ir.Rel) error {
	var err error
	var walk func(r ir.Rel, nullable bool)
	walk = func(r ir.Rel, nullable bool) {
		if err != nil {
			return
		}
		switch n := r.(type) {
		case *ir.Aggregate:
			err = pgerr.New(pgerr.InvalidRecursion, "aggregate functions are not allowed in a recursive query's recursive term")
			return
		case *ir.Window:
			err = pgerr.New(pgerr.InvalidRecursion, "window functions are not allowed in a recursive query's recursive term")
			return
		case *ir.WorkTable:
			if nullable {
				err = pgerr.New(pgerr.InvalidRecursion, "recursive reference to query %q must not appear within an outer join", name)
			}
			return
		case *ir.Join:
			walk(n.Left, nullable || n.Kind == ir.RightJoin || n.Kind == ir.FullJoin)
			walk(n.Right, nullable || n.Kind == ir.LeftJoin || n.Kind == ir.FullJoin || n.Kind == ir.AntiJoin)
			return
		}
		for _, in := range r.Inputs() {
			walk(in, nullable)
		}
	}
	walk(r, false)
	return err
}

func setOprOf(n ast.Node) *ast.SetOprType {
	switch x := n.(type) {
	case *ast.SelectStmt:
		return x.AfterSetOperator
	case *ast.SetOprSelectList:
		return x.AfterSetOperator
	}
	return nil
}

// bindSetOpr binds UNION / INTERSECT / EXCEPT with their ORDER BY, LIMIT
// and WITH.
func (b *Binder) bindSetOpr(n *ast.SetOprStmt, e env) (ir.Rel, error) {
	e, err := b.withCTEs(n.With, e)
	if err != nil {
		return nil, err
	}
	if n.SelectList.With != nil {
		if e, err = b.withCTEs(n.SelectList.With, e); err != nil {
			return nil, err
		}
	}
	return b.bindSetOprList(n.SelectList, n.OrderBy, n.Limit, e)
}

// bindSetOprList combines the operands of a set operation. INTERSECT binds
// tighter than UNION and EXCEPT, which go left to right.
func (b *Binder) bindSetOprList(l *ast.SetOprSelectList, order *ast.OrderByClause, limit *ast.Limit, e env) (ir.Rel, error) {
	if l.With != nil {
		var err error
		if e, err = b.withCTEs(l.With, e); err != nil {
			return nil, err
		}
	}
	if order == nil {
		order = l.OrderBy
	}
	if limit == nil {
		limit = l.Limit
	}
	type operand struct {
		rel ir.Rel
		op  ast.SetOprType
		// first is the operand's first target expression, where
		// PostgreSQL points a column count that does not match.
		first ast.ExprNode
	}
	var ops []operand
	leaf := e
	leaf.setOpLeaf = true
	for i, s := range l.Selects {
		rel, err := b.bindQuery(s, leaf)
		if err != nil {
			return nil, err
		}
		op := ast.Union
		if i > 0 {
			if p := setOprOf(s); p != nil {
				op = *p
			}
		}
		var first ast.ExprNode
		if f := firstSelectField(s); f != nil {
			first = f.Expr
		}
		ops = append(ops, operand{rel: rel, op: op, first: first})
	}
	// INTERSECT first.
	var stage []operand
	for i, o := range ops {
		if i > 0 && (o.op == ast.Intersect || o.op == ast.IntersectAll) {
			prev := &stage[len(stage)-1]
			r, err := b.setOp(ir.Intersect, o.op == ast.IntersectAll, prev.rel, o.rel)
			if err != nil {
				return nil, b.atFirstTarget(err, o.first)
			}
			prev.rel = r
			continue
		}
		stage = append(stage, o)
	}
	cur := stage[0].rel
	for _, o := range stage[1:] {
		kind, all := ir.Union, false
		switch o.op {
		case ast.UnionAll:
			all = true
		case ast.Except:
			kind = ir.Except
		case ast.ExceptAll:
			kind, all = ir.Except, true
		}
		r, err := b.setOp(kind, all, cur, o.rel)
		if err != nil {
			return nil, b.atFirstTarget(err, o.first)
		}
		cur = r
	}
	return b.orderLimitOutput(cur, order, limit, e)
}

// distinctOnMismatch is the DISTINCT ON expression PostgreSQL's
// transformDistinctOnClause points at when the expressions do not match
// the leading ORDER BY keys: the one of a key that follows a key not in
// DISTINCT ON, else the first not among the leading keys; -1 if none.
func distinctOnMismatch(keys []ir.SortKey, onCols []int) int {
	indexOf := func(col int) int {
		for j, c := range onCols {
			if c == col {
				return j
			}
		}
		return -1
	}
	skipped := false
	leading := map[int]bool{}
	for _, k := range keys {
		j := indexOf(k.Col)
		switch {
		case j < 0:
			skipped = true
		case skipped:
			return j
		default:
			leading[k.Col] = true
		}
	}
	if skipped {
		for j, c := range onCols {
			if !leading[c] {
				return j
			}
		}
	}
	return -1
}

// atFirstTarget points a set operation's column count error at the right
// operand's first target expression, as PostgreSQL does.
func (b *Binder) atFirstTarget(err error, first ast.ExprNode) error {
	if pe, ok := err.(*pgerr.Error); ok && pe.Code == pgerr.SyntaxError && pe.Position == 0 && first != nil {
		return b.at(pe, first)
	}
	return err
}

// setOp builds one set operation, giving both sides the common column types.
func (b *Binder) setOp(kind ir.SetOpKind, all bool, l, r ir.Rel) (ir.Rel, error) {
	lc, rc := l.Columns(), r.Columns()
	if len(lc) != len(rc) {
		return nil, pgerr.New(pgerr.SyntaxError, "each %s query must have the same number of columns", kind)
	}
	cols := make([]ir.Column, len(lc))
	for i := range lc {
		t, err := commonType(lc[i].Type, rc[i].Type, kind.String())
		if err != nil {
			return nil, err
		}
		if !lc[i].Type.Same(rc[i].Type) && !t.IsDomain() {
			// A modifier only when both sides have it
			// (select_common_typmod): numeric(10,2) beside an integer
			// is numeric, char(3) beside 'abcd' bpchar.
			t = t.WithoutTypmod()
		}
		if !(kind == ir.Union && all) {
			// Only UNION ALL keeps rows without comparing them.
			if err := groupable(t); err != nil {
				return nil, err
			}
		}
		cols[i] = ir.Column{Name: lc[i].Name, Type: t, Col: -1}
	}
	var err error
	if l, err = b.castColumns(l, cols); err != nil {
		return nil, err
	}
	if r, err = b.castColumns(r, cols); err != nil {
		return nil, err
	}
	return &ir.SetOp{Op: kind, All: all, Left: l, Right: r, Cols: cols}, nil
}

// sortsOrGroupsBy reports whether n's ORDER BY or GROUP BY names its
// target at position i (counting from 0) by position or by its name.
func sortsOrGroupsBy(n *ast.SelectStmt, i int, name string) bool {
	var items []*ast.ByItem
	if n.OrderBy != nil {
		items = append(items, n.OrderBy.Items...)
	}
	if n.GroupBy != nil {
		items = append(items, n.GroupBy.Items...)
	}
	for _, it := range items {
		e, _, _ := unwrapNulls(it.Expr) // NULLS FIRST | LAST
		if pos, ok := positionOf(e); ok {
			if pos == i+1 {
				return true
			}
			continue
		}
		switch x := e.(type) {
		case *ast.ColumnNameExpr:
			if x.Name.Table.L == "" && x.Name.Name.L == strings.ToLower(name) {
				return true
			}
		}
	}
	return false
}

// castColumns projects r onto the given column types (casting where they
// differ), or returns it unchanged.
func (b *Binder) castColumns(r ir.Rel, want []ir.Column) (ir.Rel, error) {
	if p, ok := r.(*ir.Project); ok {
		// An operand's untyped literal (env.setOpLeaf) becomes a literal
		// of the resolved type, as PostgreSQL's coercion of an unknown
		// constant does, rather than a cast over it.
		var typed *ir.Project
		for i, x := range p.Exprs {
			c, isConst := x.(*ir.Const)
			if !isConst || c.Typ.ID != sqltypes.Unknown || want[i].Type.ID == sqltypes.Unknown {
				continue
			}
			e, err := b.coerceTo(c, want[i].Type, true)
			if err != nil {
				return nil, err
			}
			if typed == nil {
				cp := *p
				cp.Exprs = slices.Clone(p.Exprs)
				cp.Cols = slices.Clone(p.Cols)
				typed = &cp
			}
			typed.Exprs[i] = e
			typed.Cols[i].Type = e.Type()
		}
		if typed != nil {
			r = typed
		}
	}
	have := r.Columns()
	same := true
	for i := range have {
		if have[i].Type != want[i].Type {
			same = false
		}
	}
	if same {
		return r, nil
	}
	exprs := make([]ir.Expr, len(have))
	cols := make([]ir.Column, len(have))
	for i, c := range have {
		var e ir.Expr = &ir.ColRef{Index: i, Name: c.Name, Typ: c.Type}
		if c.Type != want[i].Type {
			var err error
			if e, err = b.coerceTo(e, want[i].Type, false); err != nil {
				return nil, err
			}
		}
		exprs[i] = e
		cols[i] = ir.Column{Name: c.Name, Type: want[i].Type, Col: -1}
	}
	return &ir.Project{Input: r, Exprs: exprs, Cols: cols, Coerces: true}, nil
}

// commonType is the type PostgreSQL resolves for the columns of a UNION,
// CASE or VALUES: unknown gives way, numbers widen, text types meet at text.
func commonType(a, b sqltypes.Type, ctx string) (sqltypes.Type, error) {
	if a.IsDomain() && a.Same(b) {
		// Only inputs all of one type keep a domain (select_common_type).
		return a, nil
	}
	if (a.IsDomain() || b.IsDomain()) && !a.Same(b) {
		// Values of different domains (or of a domain and its base, or
		// an untyped NULL) meet as their base types, as PostgreSQL's
		// select_common_type: CASE WHEN ... THEN d END is of d's base.
		a, b = a.StripDomain(), b.StripDomain()
	}
	switch {
	case a == b:
		if a.ID == sqltypes.Unknown {
			return sqltypes.TypeText, nil
		}
		return a, nil
	case a.ID == sqltypes.Unknown:
		return b, nil
	case b.ID == sqltypes.Unknown:
		return a, nil
	case a.IsNumeric() && b.IsNumeric():
		if oidLike(a) != oidLike(b) && (a.Kind() != sqltypes.KindInt || b.Kind() != sqltypes.KindInt) {
			// oid and a float or numeric: only the integers convert to oid.
			return sqltypes.Type{}, couldNotConvert(ctx, b, a)
		}
		return arithType(a, b), nil
	case stringCategory(a) && stringCategory(b):
		return commonStringType(a, b), nil
	case a.ID == sqltypes.Array && b.ID == sqltypes.Array && !a.ElemType().Same(b.ElemType()):
		// Arrays meet where their elements do (category A): int[] and
		// bigint[] are bigint[], int[] and text[] do not convert.
		e, err := commonType(a.ElemType(), b.ElemType(), ctx)
		if err != nil {
			return sqltypes.Type{}, couldNotConvert(ctx, b, a)
		}
		return sqltypes.ArrayOf(e), nil
	case a.Kind() == sqltypes.KindInet && b.Kind() == sqltypes.KindInet:
		// cidr beside inet: inet, which cidr converts to implicitly.
		return sqltypes.TypeInet, nil
	case a.Kind() == b.Kind():
		return a, nil
	case castAllowedImplicitly(a, b) && dateish(a) && dateish(b):
		if a.ID == sqltypes.TimestampTZ || b.ID == sqltypes.TimestampTZ {
			return sqltypes.TypeTimestampTZ, nil
		}
		return sqltypes.TypeTimestamp, nil
	}
	if typeCategory(a) == typeCategory(b) && typeCategory(a) != 0 {
		// One category (money beside an integer, date beside time) but
		// no implicit conversion: select_common_type keeps the first type
		// and the second fails to convert to it.
		return sqltypes.Type{}, couldNotConvert(ctx, b, a)
	}
	return sqltypes.Type{}, pgerr.New(pgerr.DatatypeMismatch, "%s types %s and %s cannot be matched", ctx, a, b)
}

// couldNotConvert is select_common_type's 42846 for an input of type from
// that does not convert implicitly to the chosen type to.
func couldNotConvert(ctx string, from, to sqltypes.Type) error {
	if ctx == "CASE" {
		ctx = "CASE/WHEN" // coerce_to_common_type's context for CASE
	}
	return pgerr.New(pgerr.CannotCoerce, "%s could not convert type %s to %s", ctx, from.UnmodifiedName(), to.UnmodifiedName())
}

func oidLike(t sqltypes.Type) bool { return t.ID == sqltypes.Oid || t.IsReg() }

// typeCategory is t's pg_type.typcategory for the categories whose types
// select_common_type may meet without a conversion between them: N
// (numbers, money, oid), D (date and time types) and U (json, jsonb); 0
// for the others.
func typeCategory(t sqltypes.Type) byte {
	switch {
	case t.IsNumeric() || t.ID == sqltypes.Money:
		return 'N'
	case t.ID == sqltypes.Date || t.ID == sqltypes.Time || t.ID == sqltypes.TimeTZ || t.ID == sqltypes.Timestamp || t.ID == sqltypes.TimestampTZ:
		return 'D'
	case t.ID == sqltypes.JSON || t.ID == sqltypes.JSONB:
		return 'U'
	}
	return 0
}

// stringCategory reports whether t is in PostgreSQL's string category
// (typcategory S): text, varchar, char(n), name and citext.
func stringCategory(t sqltypes.Type) bool {
	return t.Kind() == sqltypes.KindText || t.ID == sqltypes.BPChar || t.ID == sqltypes.Citext
}

// commonStringType is select_common_type's choice between two types of
// the string category, a the one met first: a if it is text (the
// category's preferred type), b if a converts to b implicitly but not b
// to a (citext to varchar, name to text), else a. The result keeps a
// length only when both have the same one (select_common_typmod):
// COALESCE(varchar(10), text) is varchar, text beside varchar is text.
func commonStringType(a, b sqltypes.Type) sqltypes.Type {
	sa, sb := stringTypeID(a), stringTypeID(b)
	switch {
	case sa == sb && a.ID != b.ID:
		return sqltypes.TypeText
	case sa == sb:
		if a.Width != b.Width {
			a.Width = 0
		}
		return a
	case sa == sqltypes.Text:
		return sqltypes.TypeText
	case implicitStringCast(sa, sb) && !implicitStringCast(sb, sa):
		b.Width = 0
		return b
	}
	a.Width = 0
	return a
}

// stringTypeID names a string-category type for commonStringType; the
// kinds zproxy stores as text but PostgreSQL does not count as strings
// ("char", refcursor) meet others as text, as zproxy always had them.
func stringTypeID(t sqltypes.Type) sqltypes.TypeID {
	switch t.ID {
	case sqltypes.Varchar, sqltypes.BPChar, sqltypes.Name, sqltypes.Citext:
		return t.ID
	}
	return sqltypes.Text
}

// implicitStringCast reports whether pg_cast has an implicit cast from
// one string type to another: every pair of text, varchar, char(n) and
// name but name to varchar or char(n) (assignment casts), and from citext
// to text and varchar only (the citext extension's casts).
func implicitStringCast(from, to sqltypes.TypeID) bool {
	switch {
	case from == to:
		return true
	case to == sqltypes.Citext:
		return false
	case from == sqltypes.Citext:
		return to == sqltypes.Text || to == sqltypes.Varchar
	case from == sqltypes.Name:
		return to == sqltypes.Text
	}
	return true
}

func dateish(t sqltypes.Type) bool {
	k := t.Kind()
	return k == sqltypes.KindDate || k == sqltypes.KindTimestamp || k == sqltypes.KindTimestampTZ
}

// orderLimitOutput applies a set operation's (or VALUES') ORDER BY and
// LIMIT, which may name output columns only.
func (b *Binder) orderLimitOutput(r ir.Rel, order *ast.OrderByClause, limit *ast.Limit, e env) (ir.Rel, error) {
	if order != nil {
		cols := r.Columns()
		var keys []ir.SortKey
		for _, it := range order.Items {
			expr, desc, nulls := unwrapNulls(it.Expr)
			idx := -1
			if pos, ok := positionOf(expr); ok {
				if pos < 1 || pos > len(cols) {
					return nil, b.atOrdinal(pgerr.New(pgerr.InvalidColumnReference, "ORDER BY position %d is not in select list", pos), expr)
				}
				idx = pos - 1
			} else if cn, ok := expr.(*ast.ColumnNameExpr); ok && cn.Name.Table.O == "" {
				for i, c := range cols {
					if c.Name == cn.Name.Name.O {
						idx = i
						break
					}
				}
			}
			if idx < 0 {
				if cn, ok := expr.(*ast.ColumnNameExpr); ok {
					return nil, pgerr.New(pgerr.UndefinedColumn, "column %q does not exist", cn.Name.Name.O)
				}
				return nil, pgerr.New(pgerr.FeatureNotSupported, "invalid UNION/INTERSECT/EXCEPT ORDER BY clause").
					WithDetail("Only result column names can be used, not expressions or functions.")
			}
			desc = desc || it.Desc
			if err := orderable(cols[idx].Type); err != nil {
				return nil, err
			}
			keys = append(keys, ir.SortKey{Col: idx, Desc: desc, NullsFirst: nullsFirst(desc, nulls)})
		}
		r = &ir.Sort{Input: r, Keys: keys}
	}
	return b.bindLimit(r, limit, e)
}

// positionOf reads ORDER BY / GROUP BY n.
// atOrdinal points err at the ordinal node (ORDER BY 9) where the client
// wrote it (parser.Statement.OrdinalPosition).
func (b *Binder) atOrdinal(err *pgerr.Error, node ast.ExprNode) *pgerr.Error {
	if p, ok := node.(*ast.PositionExpr); ok && b.stmt != nil {
		err.WithPosition(b.stmt.OrdinalPosition(p))
	}
	return err
}

func positionOf(node ast.ExprNode) (int, bool) {
	if p, ok := node.(*ast.PositionExpr); ok && p.P == nil {
		return p.N, true
	}
	if v, ok := node.(*driver.ValueExpr); ok && (v.Kind() == driver.KindInt64 || v.Kind() == driver.KindUint64) {
		return int(v.GetInt64()), true
	}
	return 0, false
}

// bindLimit wraps r in LIMIT/OFFSET.
func (b *Binder) bindLimit(r ir.Rel, limit *ast.Limit, e env) (ir.Rel, error) {
	if limit == nil {
		return r, nil
	}
	sc := e.newScope()
	lim := &ir.Limit{Input: r}
	if v, ok := limit.Count.(*driver.ValueExpr); ok && v.Kind() == driver.KindUint64 && v.GetUint64() == math.MaxUint64 {
		// parser.NoLimit: an OFFSET without LIMIT.
	} else if limit.Count != nil {
		c, err := b.bindCount(sc, b.countOperand(limit.Count), "LIMIT")
		if err != nil {
			return nil, err
		}
		lim.Count = c
	}
	if limit.Offset != nil {
		o, err := b.bindCount(sc, b.countOperand(limit.Offset), "OFFSET")
		if err != nil {
			return nil, err
		}
		lim.Offset = o
	}
	return lim, nil
}

// unwrapNulls takes an ORDER BY expression apart: the parser spells
// "x DESC NULLS LAST" as zp_nulls_last(x) DESC. nulls is 'f', 'l' or 0.
func unwrapNulls(node ast.ExprNode) (ast.ExprNode, bool, byte) {
	if f, ok := node.(*ast.FuncCallExpr); ok && len(f.Args) == 1 {
		switch f.FnName.L {
		case parser.NullsFirstFunc:
			return f.Args[0], false, 'f'
		case parser.NullsLastFunc:
			return f.Args[0], false, 'l'
		}
	}
	return node, false, 0
}

// nullsFirst is PostgreSQL's NULL placement: NULLs sort as if larger than
// any value (last ascending, first descending) unless NULLS FIRST/LAST says
// otherwise.
func nullsFirst(desc bool, nulls byte) bool {
	switch nulls {
	case 'f':
		return true
	case 'l':
		return false
	}
	return desc
}

// bindValues binds VALUES (...), (...) as a relation: columns column1..n,
// each of the type its values resolve to.
func (b *Binder) bindValues(lists []*ast.RowExpr, e env) (ir.Rel, error) {
	defer b.srfDenied("VALUES")()
	sc := e.newScope()
	if len(lists) == 0 {
		return nil, pgerr.New(pgerr.SyntaxError, "VALUES needs at least one row")
	}
	width := len(lists[0].Values)
	rows := make([][]ir.Expr, len(lists))
	for i, l := range lists {
		if len(l.Values) != width {
			err := pgerr.New(pgerr.SyntaxError, "VALUES lists must all be the same length")
			if len(l.Values) > 0 {
				// At the list's first expression, as PostgreSQL points.
				err = b.at(err, l.Values[0])
			}
			return nil, err
		}
		rows[i] = make([]ir.Expr, width)
		for j, v := range l.Values {
			x, err := b.bindExpr(sc, v)
			if err != nil {
				return nil, err
			}
			rows[i][j] = x
		}
	}
	// All rows resolve together, as CASE's results do: untyped NULLs and
	// literals take the type of the typed ones, in any row, and a
	// modifier stays only when every row's value has it.
	cols := make([]ir.Column, width)
	column := make([]ir.Expr, len(rows))
	for j := range cols {
		for i := range rows {
			column[i] = rows[i][j]
		}
		t, err := b.commonArgType(column, "VALUES")
		if err != nil {
			return nil, err
		}
		for i := range rows {
			rows[i][j] = column[i]
		}
		cols[j] = ir.Column{Name: "column" + itoa(j+1), Type: t, Col: -1}
	}
	return &ir.Values{Rows: rows, Cols: cols}, nil
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}

// selectLevel carries what binding one SELECT collects across its clauses.
type selectLevel struct {
	sc  *scope
	agg *aggBinder
	// windows are the window calls met in the select list and ORDER BY,
	// and how each named its window.
	windows     []ir.WindowCall
	windowNotes []ir.WindowNote
	// named windows (WINDOW w AS (...)).
	named map[string]*ast.WindowSpec
	// srfs are the set-returning function calls of the select list, ORDER
	// BY and DISTINCT ON.
	srfs []levelCall
}

// bindSelect binds one SELECT (or VALUES / TABLE statement).
func (b *Binder) bindSelect(n *ast.SelectStmt, e env) (ir.Rel, error) {
	e, err := b.withCTEs(n.With, e)
	if err != nil {
		return nil, err
	}
	// TABLE t binds as the SELECT * FROM t TiDB parses it into.
	if n.Kind == ast.SelectStmtKindValues {
		r, err := b.bindValues(n.Lists, e)
		if err != nil {
			return nil, err
		}
		return b.orderLimitOutput(r, n.OrderBy, n.Limit, e)
	}
	if n.SelectIntoOpt != nil {
		// MySQL's SELECT ... INTO OUTFILE (PostgreSQL's SELECT ... INTO
		// is CREATE TABLE ... AS: parser/createas.go).
		return nil, unsupported("SELECT ... INTO OUTFILE is not supported")
	}
	sc := e.newScope()
	defer func(n int) { b.rtable = b.rtable[:n] }(len(b.rtable))
	var rel ir.Rel
	if n.From != nil && n.From.TableRefs != nil {
		if rel, err = b.bindFrom(n.From.TableRefs, sc); err != nil {
			return nil, err
		}
	} else {
		rel = &ir.Values{Rows: [][]ir.Expr{{}}}
	}
	if hints := b.bindHints(n.TableHints); len(hints) > 0 {
		applyHints(rel, hints)
	}
	if n.Where != nil {
		pred, err := b.bindBool(sc, n.Where, "WHERE")
		if err != nil {
			return nil, err
		}
		rel = &ir.Filter{Input: rel, Pred: pred}
	}
	lv := &selectLevel{sc: sc}
	if len(n.WindowSpecs) > 0 {
		lv.named = map[string]*ast.WindowSpec{}
		for i := range n.WindowSpecs {
			ws := &n.WindowSpecs[i]
			if _, dup := lv.named[ws.Name.O]; dup {
				return nil, pgerr.New(pgerr.WindowingError, "window %q is already defined", ws.Name.O)
			}
			lv.named[ws.Name.O] = ws
		}
		// A definition that cannot be built on is an error even unused.
		for i := range n.WindowSpecs {
			d, err := defFromAST(&n.WindowSpecs[i])
			if err == nil {
				_, err = resolveWindow(d, lv.named, 0)
			}
			if err != nil {
				return nil, err
			}
		}
	}

	aggregated := n.GroupBy != nil || n.Having != nil || hasAggregate(b, n.Fields) || (n.OrderBy != nil && hasAggregateInOrder(b, n.OrderBy))
	var groupNames []string
	if aggregated {
		lv.agg = &aggBinder{b: b, sc: sc, lv: lv}
		if n.GroupBy != nil {
			if n.GroupBy.Rollup {
				return nil, unsupported("GROUP BY ... WITH ROLLUP is not supported")
			}
			if err := lv.agg.bindGroupBy(n.GroupBy.Items, n.Fields); err != nil {
				return nil, err
			}
			for _, g := range lv.agg.groups {
				groupNames = append(groupNames, g.String())
			}
		}
		gm := &groupMap{col: map[int]int{}}
		for i, g := range lv.agg.groups {
			if c, ok := g.(*ir.ColRef); ok {
				if _, seen := gm.col[c.Index]; !seen {
					gm.col[c.Index] = i
				}
			}
		}
		sc.groups = gm
	}

	// The select list (after the DISTINCT ON marker, if any).
	var exprs []ir.Expr
	var cols []ir.Column
	fields := n.Fields.Fields
	if len(fields) == 1 && isNoColumns(fields[0]) {
		fields = nil // SELECT FROM t: rows of no columns
	}
	var distinctOn []ast.ExprNode
	if f, ok := firstDistinctOn(n.Fields); ok {
		distinctOn = f.Args
		fields = fields[1:]
	}
	// Set-returning functions may be called in the select list, ORDER BY
	// and DISTINCT ON (srf.go).
	defer b.srfAt(srfPlace{lv: lv})()
	defer b.inSelectList()()
	for _, f := range fields {
		if f.WildCard != nil {
			if n.From == nil {
				return nil, pgerr.New(pgerr.SyntaxError, "SELECT * with no tables specified is not valid")
			}
			se, scols, err := b.expandStar(sc, f.WildCard.Table.O)
			if err != nil {
				return nil, b.fromEntryError(sc, err)
			}
			if aggregated {
				for i := range se {
					x, err := lv.agg.bindBound(se[i])
					if err != nil {
						if pe, ok := err.(*pgerr.Error); ok && b.stmt != nil {
							err = pe.WithPosition(b.stmt.Position(f.Offset)) // at the *
						}
						return nil, err
					}
					se[i] = x
				}
			}
			exprs = append(exprs, se...)
			cols = append(cols, scols...)
			continue
		}
		if arg, ok := fieldStarOf(f.Expr); ok {
			se, scols, err := b.fieldStar(lv, arg)
			if err != nil {
				return nil, err
			}
			exprs = append(exprs, se...)
			cols = append(cols, scols...)
			continue
		}
		x, err := lv.bind(b, f.Expr)
		if err != nil {
			return nil, err
		}
		if t, ok := b.insertTarget(n, len(exprs)); ok {
			// INSERT ... SELECT: an untyped parameter or literal takes
			// the type of the column it goes to, as in PostgreSQL.
			b.inferParam(x, t)
			if c, isConst := x.(*ir.Const); isConst && c.Typ.ID == sqltypes.Unknown {
				if x, err = b.coerceTo(x, t, true); err != nil {
					return nil, err
				}
			}
		}
		// (A leaf that sorts, groups or removes duplicates by a literal
		// types it first: PostgreSQL's addTargetToSortList makes it text.)
		keepUnknown := e.setOpLeaf && !n.Distinct && !sortsOrGroupsBy(n, len(exprs), outputName(f))
		if c, isConst := x.(*ir.Const); !isConst || c.Typ.ID != sqltypes.Unknown || !keepUnknown {
			x = b.finishUnknown(x)
		}
		col := ir.Column{Name: outputName(f), Type: x.Type(), Col: -1}
		if cr, ok := x.(*ir.ColRef); ok && !aggregated && cr.Index < len(rel.Columns()) {
			src := rel.Columns()[cr.Index]
			col.Table, col.Col = src.Table, src.Col
		}
		exprs = append(exprs, x)
		cols = append(cols, col)
	}
	visible := len(exprs)

	var having ir.Expr
	if n.Having != nil {
		if !aggregated {
			return nil, pgerr.New(pgerr.GroupingError, "HAVING requires aggregation")
		}
		if containsWindow(n.Having.Expr) {
			return nil, pgerr.New(pgerr.WindowingError, "window functions are not allowed in HAVING")
		}
		h, err := func() (ir.Expr, error) {
			defer b.srfDenied("HAVING")()
			return lv.bind(b, n.Having.Expr)
		}()
		if err != nil {
			return nil, err
		}
		if h, err = b.coerceToBool(h, n.Having.Expr, "HAVING"); err != nil {
			return nil, err
		}
		having = h
	}

	// ORDER BY: output columns by position or name, or expressions, which
	// become hidden columns of the projection.
	var keys []ir.SortKey
	if n.OrderBy != nil {
		for _, item := range n.OrderBy.Items {
			node, _, nulls := unwrapNulls(item.Expr)
			idx, err := b.bindOrderItem(lv, &exprs, &cols, visible, n.Fields, node)
			if err != nil {
				return nil, err
			}
			if err := orderable(exprs[idx].Type()); err != nil {
				return nil, err
			}
			keys = append(keys, ir.SortKey{Col: idx, Desc: item.Desc, NullsFirst: nullsFirst(item.Desc, nulls)})
		}
	}
	var onCols []int
	for _, node := range distinctOn {
		idx, err := b.bindOrderItem(lv, &exprs, &cols, visible, n.Fields, node)
		if err != nil {
			return nil, err
		}
		onCols = append(onCols, idx)
	}
	if len(onCols) > 0 {
		// PostgreSQL: the DISTINCT ON expressions must match the leftmost
		// ORDER BY expressions.
		for i, k := range keys {
			if i >= len(onCols) {
				break
			}
			match := false
			for _, c := range onCols {
				match = match || c == k.Col
			}
			if !match {
				err := pgerr.New(pgerr.InvalidColumnReference, "SELECT DISTINCT ON expressions must match initial ORDER BY expressions")
				if j := distinctOnMismatch(keys, onCols); j >= 0 {
					return nil, b.at(err, distinctOn[j])
				}
				return nil, err
			}
		}
	}
	if n.Distinct {
		for _, e := range exprs[:visible] {
			if err := groupable(e.Type()); err != nil {
				return nil, err
			}
		}
	}
	if n.Distinct && len(onCols) == 0 && len(exprs) > visible {
		return nil, pgerr.New(pgerr.InvalidColumnReference, "for SELECT DISTINCT, ORDER BY expressions must appear in select list")
	}

	// Assemble: aggregate, HAVING, windows, set-returning functions,
	// projection, DISTINCT, ORDER BY, LIMIT, and the projection down to the
	// visible columns.
	if aggregated {
		for _, g := range lv.agg.groups {
			if err := groupable(g.Type()); err != nil {
				return nil, err
			}
		}
		a := ir.NewAggregate(rel, lv.agg.groups, lv.agg.aggs, groupNames)
		a.GroupingSets = lv.agg.sets
		if b.notes != nil && a.GroupingSets != nil {
			b.notes.NoteGrouping(a, lv.agg.syntax)
		}
		rel = a
		fix := lv.agg.fixer(len(lv.agg.groups))
		for i := range exprs {
			exprs[i] = fix(exprs[i])
		}
		if having != nil {
			rel = &ir.Filter{Input: rel, Pred: fix(having)}
		}
		for i := range lv.windows {
			lv.windows[i] = fixWindow(lv.windows[i], fix)
		}
	}
	// A WINDOW clause no call uses is kept, when binding for the
	// deparser (which never runs the plan), as a Window node of no calls.
	if len(lv.windows) > 0 || b.notes != nil && len(n.WindowSpecs) > 0 {
		base := len(rel.Columns())
		w := ir.NewWindow(rel, lv.windows)
		if b.notes != nil {
			if err := b.noteWindows(lv, n.WindowSpecs, w); err != nil {
				return nil, err
			}
		}
		rel = w
		fix := windowFixer(base)
		for i := range exprs {
			exprs[i] = fix(exprs[i])
		}
		lv.fixSRFArgs(fix)
	} else if hasWindowRef(exprs) {
		return nil, pgerr.New(pgerr.InternalError, "window reference without a window")
	}
	rel, exprs = lv.projectSets(rel, exprs)
	rel = &ir.Project{Input: rel, Exprs: exprs, Cols: cols}
	switch {
	case len(onCols) > 0:
		// DISTINCT ON keeps the first row of each group in ORDER BY order:
		// sort first, then keep firsts.
		if len(keys) > 0 {
			rel = &ir.Sort{Input: rel, Keys: keys}
			keys = nil
		} else {
			for _, c := range onCols {
				keys = append(keys, ir.SortKey{Col: c})
			}
			rel = &ir.Sort{Input: rel, Keys: keys, Implied: true}
			keys = nil
		}
		rel = &ir.Distinct{Input: rel, On: onCols}
	case n.Distinct:
		rel = &ir.Distinct{Input: rel}
	}
	if len(keys) > 0 {
		rel = &ir.Sort{Input: rel, Keys: keys}
	}
	if rel, err = b.bindLimit(rel, n.Limit, e); err != nil {
		return nil, err
	}
	if len(exprs) > visible {
		out := make([]ir.Expr, visible)
		for i := range out {
			out[i] = &ir.ColRef{Index: i, Name: cols[i].Name, Typ: cols[i].Type}
		}
		rel = &ir.Project{Input: rel, Exprs: out, Cols: cols[:visible], DropsOrderKeys: true}
	}
	if n.LockInfo != nil && n.LockInfo.LockType != ast.SelectLockNone {
		if err := b.lockRows(rel, n.LockInfo, aggregated || n.GroupBy != nil, n.Distinct, len(lv.windows) > 0); err != nil {
			return nil, err
		}
	}
	return rel, nil
}

// firstDistinctOn finds the parser's DISTINCT ON marker.
func firstDistinctOn(fields *ast.FieldList) (*ast.FuncCallExpr, bool) {
	if len(fields.Fields) == 0 {
		return nil, false
	}
	f, ok := fields.Fields[0].Expr.(*ast.FuncCallExpr)
	if !ok || f.FnName.L != parser.DistinctOnFunc {
		return nil, false
	}
	return f, true
}

// lockRows gives the table scans of a SELECT ... FOR UPDATE / FOR SHARE
// [OF names] their lock, refusing the forms PostgreSQL refuses.
func (b *Binder) lockRows(r ir.Rel, info *ast.SelectLockInfo, grouped, distinct, windowed bool) error {
	var strength ir.LockStrength
	clause := "FOR UPDATE"
	switch info.LockType {
	case ast.SelectLockForUpdate, ast.SelectLockForUpdateWaitN:
		strength = ir.LockUpdate
	case ast.SelectLockForUpdateNoWait:
		strength = ir.LockUpdate | ir.LockNoWait
	case ast.SelectLockForUpdateSkipLocked:
		strength = ir.LockUpdate | ir.LockSkipLocked
	case ast.SelectLockForShare:
		strength, clause = ir.LockShare, "FOR SHARE"
	case ast.SelectLockForShareNoWait:
		strength, clause = ir.LockShare|ir.LockNoWait, "FOR SHARE"
	case ast.SelectLockForShareSkipLocked:
		strength, clause = ir.LockShare|ir.LockSkipLocked, "FOR SHARE"
	default:
		return pgerr.New(pgerr.FeatureNotSupported, "this locking clause is not supported")
	}
	switch {
	case grouped:
		return pgerr.New(pgerr.FeatureNotSupported, "%s is not allowed with GROUP BY clause or aggregate functions", clause)
	case distinct:
		return pgerr.New(pgerr.FeatureNotSupported, "%s is not allowed with DISTINCT clause", clause)
	case windowed:
		return pgerr.New(pgerr.FeatureNotSupported, "%s is not allowed with window functions", clause)
	}
	named := map[string]bool{}
	for _, t := range info.Tables {
		named[t.Name.L] = false
	}
	var err error
	ir.WalkRel(r, func(x ir.Rel) {
		switch s := x.(type) {
		case *ir.Scan:
			name := s.Alias
			if name == "" {
				name = s.Table.Name
			}
			if _, ok := named[name]; ok || len(named) == 0 {
				if s.Table.IsMatview() && err == nil {
					err = pgerr.New(pgerr.WrongObjectType, "cannot lock rows in materialized view %q", s.Table.Name)
				}
				s.Lock = strength
				named[name] = true
				if p := b.permissionFor(s); p != nil {
					// PostgreSQL 15: a row lock needs UPDATE.
					p.Required |= catalog.PrivUpdate
				}
			}
		case *ir.SetOp:
			if err == nil {
				err = pgerr.New(pgerr.FeatureNotSupported, "%s is not allowed with UNION/INTERSECT/EXCEPT", clause)
			}
		}
	})
	if err != nil {
		return err
	}
	for i, t := range info.Tables {
		if !named[t.Name.L] {
			err := pgerr.New(pgerr.UndefinedTable, "relation %q in %s clause not found in FROM clause", t.Name.O, clause)
			if b.stmt != nil && b.lockClauses < len(b.stmt.LockOf) && len(b.stmt.LockOf[b.lockClauses]) == len(info.Tables) {
				err.WithPosition(b.stmt.LockOf[b.lockClauses][i]) // at the name, as PostgreSQL's RangeVar
			}
			return err
		}
	}
	if b.notes != nil {
		// The clause as written: its strength (TiDB's AST has no key
		// strengths), the relations it names, NOWAIT.
		note := ir.LockNote{Strength: strings.TrimPrefix(clause, "FOR "), NoWait: strength&ir.LockNoWait != 0, SkipLocked: strength&ir.LockSkipLocked != 0}
		if b.stmt != nil && b.lockClauses < len(b.stmt.LockStrengths) {
			note.Strength = b.stmt.LockStrengths[b.lockClauses]
		}
		for _, t := range info.Tables {
			note.Of = append(note.Of, t.Name.O)
		}
		b.notes.NoteLock(r, note)
	}
	b.lockClauses++
	return nil
}

// applyHints gives each scan the hints naming it (index hints without a
// table name apply to every scan). A hint naming no table of the query
// goes to the first scan, whose access-path rules report it as ignored.
func applyHints(r ir.Rel, hints []ir.Hint) {
	var scans []*ir.Scan
	ir.WalkRel(r, func(x ir.Rel) {
		if s, ok := x.(*ir.Scan); ok {
			scans = append(scans, s)
		}
	})
	names := func(s *ir.Scan, t string) bool { return t == s.Alias || t == s.Table.Name }
	for _, h := range hints {
		matched := false
		for _, s := range scans {
			hit := false
			switch {
			case h.Name == "use_index" || h.Name == "ignore_index":
				hit = h.Table == "" || names(s, h.Table)
			default:
				for _, t := range h.Tables {
					hit = hit || names(s, t)
				}
			}
			if hit {
				s.Hints = append(s.Hints, h)
				matched = true
			}
		}
		if !matched && len(scans) > 0 && (h.Name == "use_index" || h.Name == "ignore_index") {
			scans[0].Hints = append(scans[0].Hints, h)
		}
	}
}

// bind binds an expression of the select list, HAVING or ORDER BY: over
// the aggregated row when the query aggregates, with window functions
// collected into the level.
func (lv *selectLevel) bind(b *Binder, node ast.ExprNode) (ir.Expr, error) {
	saved := b.level
	b.level = lv
	defer func() { b.level = saved }()
	if lv.agg != nil {
		e, err := lv.agg.bind(node)
		return e, b.positioned(err, node)
	}
	return b.bindExpr(lv.sc, node)
}

// bindOrderItem resolves an ORDER BY (or DISTINCT ON) item to a column of
// the projected row: an output ordinal (ORDER BY 2), an output alias, an
// expression equal to an output column, or else a new hidden column.
func (b *Binder) bindOrderItem(lv *selectLevel, exprs *[]ir.Expr, cols *[]ir.Column, visible int, fields *ast.FieldList, node ast.ExprNode) (int, error) {
	if pos, ok := positionOf(node); ok {
		if pos < 1 || pos > visible {
			return 0, b.atOrdinal(pgerr.New(pgerr.InvalidColumnReference, "ORDER BY position %d is not in select list", pos), node)
		}
		return pos - 1, nil
	}
	if cn, ok := node.(*ast.ColumnNameExpr); ok && cn.Name.Table.O == "" {
		match := -1
		for i := 0; i < visible; i++ {
			if (*cols)[i].Name == cn.Name.Name.O {
				if match >= 0 && rowKey((*exprs)[match]) != rowKey((*exprs)[i]) {
					return 0, pgerr.New(pgerr.AmbiguousColumn, "ORDER BY %q is ambiguous", cn.Name.Name.O)
				}
				if match < 0 {
					match = i
				}
			}
		}
		if match >= 0 {
			return match, nil
		}
	}
	e, err := lv.bind(b, node)
	if err != nil {
		return 0, err
	}
	// An expression of the select list (the same columns, however they
	// are qualified) is sorted by, not added.
	key := rowKey(e)
	for i, p := range *exprs {
		if rowKey(p) == key {
			return i, nil
		}
	}
	*exprs = append(*exprs, e)
	*cols = append(*cols, ir.Column{Name: "?column?", Type: e.Type(), Col: -1})
	return len(*exprs) - 1, nil
}

// bindGroupItem binds a GROUP BY item, which may name an output column by
// ordinal or alias, as in PostgreSQL (input columns win over aliases).
func (b *Binder) bindGroupItem(sc *scope, node ast.ExprNode, fields *ast.FieldList) (ir.Expr, error) {
	if pos, ok := positionOf(node); ok {
		if pos < 1 || pos > len(fields.Fields) || fields.Fields[pos-1].WildCard != nil {
			return nil, b.atOrdinal(pgerr.New(pgerr.InvalidColumnReference, "GROUP BY position %d is not in select list", pos), node)
		}
		node = fields.Fields[pos-1].Expr
	} else if cn, ok := node.(*ast.ColumnNameExpr); ok && cn.Name.Table.O == "" {
		if _, found, _ := sc.lookup("", cn.Name.Name.O); !found {
			for _, f := range fields.Fields {
				if f.AsName.O == cn.Name.Name.O {
					node = f.Expr
					break
				}
			}
		}
	}
	defer b.srfDenied(srfInGroupBy)()
	return b.bindExprNoAgg(sc, node)
}

// countOperand returns the expression a LIMIT or OFFSET value stands for
// when the parser lifted it (parser.CountExprIndex), else node.
func (b *Binder) countOperand(node ast.ExprNode) ast.ExprNode {
	if v, ok := node.(*driver.ValueExpr); ok && v.Kind() == driver.KindUint64 {
		if k, ok := parser.CountExprIndex(v.GetUint64()); ok && k < len(b.stmt.CountExprs) {
			return b.stmt.CountExprs[k]
		}
	}
	return node
}

func (b *Binder) bindCount(sc *scope, node ast.ExprNode, clause string) (ir.Expr, error) {
	defer b.srfDenied(clause)()
	e, err := b.bindExpr(sc, node)
	if err != nil {
		return nil, err
	}
	if len(ir.Columns(e)) > 0 {
		// The query's own columns; outer rows and subqueries may be read.
		return nil, pgerr.New(pgerr.InvalidColumnReference, "argument of %s must not contain variables", clause)
	}
	b.inferParam(e, sqltypes.TypeInt8)
	if c, ok := e.(*ir.Const); ok && c.Typ.ID == sqltypes.Unknown {
		// LIMIT '5': read as bigint now, a bad one failing at the literal.
		return b.coerceTo(e, sqltypes.TypeInt8, false)
	}
	if e.Type().Kind() != sqltypes.KindInt && e.Type().ID != sqltypes.Unknown {
		if c, ok := e.(*ir.Const); ok && c.V.K == sqltypes.KindFloat {
			return &ir.Const{V: sqltypes.NewInt(int64(math.Round(c.V.F))), Typ: sqltypes.TypeInt8}, nil
		}
		if e.Type().IsNumeric() {
			return &ir.Cast{E: e, To: sqltypes.TypeInt8}, nil // LIMIT (SELECT 1.6)
		}
		return nil, pgerr.New(pgerr.DatatypeMismatch, "argument of %s must be type bigint, not type %s", clause, e.Type())
	}
	return e, nil
}

// outputName is the column name PostgreSQL gives a select-list item.
func outputName(f *ast.SelectField) string {
	if f.AsName.O != "" {
		return f.AsName.O
	}
	return exprLabel(f.Expr)
}

// exprLabel is PostgreSQL's FigureColname: the column name of an output
// expression without an alias ("?column?" when it has none).
func exprLabel(node ast.ExprNode) string {
	if name, strength := figureColname(node); strength > 0 {
		return name
	}
	return "?column?"
}

// strongLabel reports whether exprLabel(node) is a name of the node's own
// (a column's, a function's; PostgreSQL's FigureColname strength 2) rather
// than a type's, "case" or "?column?".
func strongLabel(node ast.ExprNode) bool {
	_, strength := figureColname(node)
	return strength == 2
}

// figureColname follows PostgreSQL's FigureColnameInternal (parse_target.c)
// over the AST: the name an expression gives its output column and the
// name's strength, 2 for a name of the expression's own (a column, a
// function, EXISTS, a scalar subquery's column), 1 for a fallback (a cast's
// type, "case") that an enclosing cast or CASE may override, 0 for none
// (operators, NOT, literals: "?column?").
func figureColname(node ast.ExprNode) (string, int) {
	switch e := node.(type) {
	case *ast.ColumnNameExpr:
		return e.Name.Name.O, 2
	case *ast.AggregateFuncExpr:
		return strings.ToLower(e.F), 2
	case *ast.WindowFuncExpr:
		return strings.ToLower(e.Name), 2
	case *ast.ParenthesesExpr:
		return figureColname(e.Expr)
	case *ast.FuncCallExpr:
		return funcColname(e)
	case *ast.CaseExpr:
		// Named after its ELSE result when that has a name of its own.
		if e.ElseClause != nil {
			if name, strength := figureColname(e.ElseClause); strength == 2 {
				return name, 2
			}
		}
		return "case", 1
	case *ast.ExistsSubqueryExpr:
		if e.Not {
			return "", 0 // NOT EXISTS is a NOT (a BoolExpr): no name
		}
		return "exists", 2
	case *ast.RowExpr:
		return "row", 2
	case *ast.SubqueryExpr:
		// The subquery's (leftmost, under a set operation) first column.
		if f := firstSelectField(e.Query); f != nil {
			if f.AsName.O != "" {
				return f.AsName.O, 2
			}
			if f.Expr != nil {
				return exprLabel(f.Expr), 2
			}
		}
	case *ast.FuncCastExpr:
		if name, strength := figureColname(e.Expr); strength == 2 {
			return name, 2
		}
	}
	return "", 0
}

// funcColname is figureColname of a call, which is named after the
// function unless it stands for PostgreSQL syntax (a cast, an operator,
// a subscript) that names its column otherwise.
func funcColname(e *ast.FuncCallExpr) (string, int) {
	switch e.FnName.L {
	case parser.ArrayFunc, parser.ArraySubFunc:
		return "array", 2
	case parser.SubscriptFunc, parser.SliceFunc, parser.CollateFunc:
		if len(e.Args) > 0 {
			return figureColname(e.Args[0])
		}
	case parser.FieldFunc:
		if len(e.Args) == 2 {
			if v, ok := e.Args[1].(ast.ValueExpr); ok {
				return v.GetString(), 2
			}
		}
	case parser.AnyFunc, parser.AllFunc, parser.OpFunc, parser.SimilarFunc, parser.NumericLiteralFunc:
		return "", 0
	}
	if operand, t, ok := parser.CastOf(e); ok {
		// A cast takes its operand's name unless that is only a
		// fallback (a cast of a cast, of a constant, of a CASE).
		if name, strength := figureColname(operand); strength == 2 {
			return name, 2
		}
		return castLabel(t), 1
	}
	if operand, name, _, ok := parser.UserTypeCastOf(e); ok {
		if n, strength := figureColname(operand); strength == 2 {
			return n, 2
		}
		_, bare := catalog.SplitName(name) // s.t names its column t
		return bare, 1
	}
	switch e.FnName.L {
	case parser.OverFunc:
		name, strength := figureColname(e.Args[0])
		return strings.TrimPrefix(name, parser.WindowFuncPrefix), strength
	case parser.ConcatFunc:
		return "concat", 2
	case parser.TrimFromFunc:
		if c, ok := e.Args[0].(*driver.ValueExpr); ok {
			return strings.TrimPrefix(c.GetString(), "="), 2
		}
	case parser.SQLSyntaxFunc:
		if c, ok := e.Args[0].(*driver.ValueExpr); ok {
			return c.GetString(), 2
		}
	case parser.XMLElementFunc:
		return "xmlelement", 2
	case parser.XMLForestFunc:
		return "xmlforest", 2
	case parser.XMLFunc:
		if c, ok := e.Args[0].(*driver.ValueExpr); ok {
			mode := c.GetString()
			switch {
			case strings.HasPrefix(mode, "parse_"):
				return "xmlparse", 2
			case strings.HasPrefix(mode, "serialize_"):
				return "xmlserialize", 2
			}
		}
		return "", 0
	case parser.RowFunc:
		return "row", 2
	case parser.ExtractFunc:
		return "extract", 2
	case parser.AtTimeZoneFunc:
		return "timezone", 2
	case parser.AggFilterFunc, parser.AggOrderFunc, parser.WithinGroupFunc:
		if len(e.Args) > 0 {
			return figureColname(e.Args[0])
		}
	}
	// A call of s.f is of its key "s.f" (qualifyCall): named f.
	_, name := catalog.SplitName(e.FnName.L)
	return name, 2
}

// firstSelectField is the first select-list item of a query, the leftmost
// SELECT's under a set operation (whose columns it names), or nil (VALUES,
// TABLE, a star).
func firstSelectField(n ast.Node) *ast.SelectField {
	switch q := n.(type) {
	case *ast.SelectStmt:
		if q.Fields != nil && len(q.Fields.Fields) > 0 && q.Fields.Fields[0].WildCard == nil {
			return q.Fields.Fields[0]
		}
	case *ast.SetOprStmt:
		if q.SelectList != nil {
			return firstSelectField(q.SelectList)
		}
	case *ast.SetOprSelectList:
		if len(q.Selects) > 0 {
			return firstSelectField(q.Selects[0])
		}
	}
	return nil
}

// castLabel is the column name PostgreSQL gives a cast of a non-column:
// the type's internal name.
func castLabel(t sqltypes.Type) string {
	if t.ID == sqltypes.Array {
		// An array type's column is named for its element type, as
		// FigureColname names it ('{1}'::int[] is "int4").
		return castLabel(t.ElemType())
	}
	// FigureColname takes the last name of the type as the grammar left
	// it, which for a built-in type is its pg_type.typname whatever the
	// spelling and modifiers: bit(4) is "bit", bit varying(5) "varbit",
	// geometry(Point, 4326) "geometry".
	if !t.IsDomain() {
		if name, ok := pgcatalog.BuiltinTypeName(t.OID()); ok {
			return name
		}
	}
	return t.String()
}

// isNoColumns reports whether a select item is the parser's stand-in for
// an empty select list (parser.NoColumnsFunc).
func isNoColumns(f *ast.SelectField) bool {
	c, ok := f.Expr.(*ast.FuncCallExpr)
	return ok && f.WildCard == nil && c.FnName.L == parser.NoColumnsFunc && len(c.Args) == 0
}

// orderable refuses ORDER BY a type PostgreSQL has no ordering operator
// for (no btree operator class): json, xml, xid, aclitem, jsonpath, the
// geometric types and PostGIS's box2d.
func orderable(t sqltypes.Type) error {
	if withoutComparison(t) || t.ID == sqltypes.XID || t.ID == sqltypes.ACLItem || sqltypes.IsGeo(t.ID) || t.ID == sqltypes.Box2D {
		return pgerr.New(pgerr.UndefinedFunction, "could not identify an ordering operator for type %s", t).
			WithHint("Use an explicit ordering operator or modify the query.")
	}
	return nil
}

// groupable refuses GROUP BY and DISTINCT over a type PostgreSQL has no
// equality operator for: json, xml, jsonpath, the geometric types
// (whose = operators, where they have one, compare areas or lengths and
// belong to no operator class) and PostGIS's box2d (whose = is geometry's,
// through the implicit cast).
func groupable(t sqltypes.Type) error {
	if withoutComparison(t) || sqltypes.IsGeo(t.ID) || t.ID == sqltypes.Box2D {
		return pgerr.New(pgerr.UndefinedFunction, "could not identify an equality operator for type %s", t)
	}
	return nil
}
