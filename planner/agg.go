package planner

import (
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// hasAggregate reports whether any select field contains an aggregate of
// this query level.
func hasAggregate(b *Binder, fields *ast.FieldList) bool {
	found := false
	for _, f := range fields.Fields {
		if f.Expr != nil {
			f.Expr.Accept(&aggFinder{found: &found, b: b})
		}
	}
	return found
}

func hasAggregateInOrder(b *Binder, ob *ast.OrderByClause) bool {
	found := false
	for _, it := range ob.Items {
		it.Expr.Accept(&aggFinder{found: &found, b: b})
	}
	return found
}

// aggFinder looks for aggregates of the current level: it does not enter
// subqueries (their aggregates are theirs) or window calls (an aggregate
// with OVER is a window function). b, when set, knows the user-defined
// aggregates.
type aggFinder struct {
	found *bool
	b     *Binder
	// first is the first aggregate found, where errors point.
	first ast.Node
}

func (v *aggFinder) Enter(n ast.Node) (ast.Node, bool) {
	switch x := n.(type) {
	case *ast.AggregateFuncExpr:
		v.saw(n)
		return n, true
	case *ast.FuncCallExpr:
		if v.b.isAggregateCall(x) {
			v.saw(n)
			return n, true
		}
		if x.FnName.L == parser.OverFunc {
			return n, true // a window call (parser/window.go)
		}
	case *ast.SubqueryExpr:
		return n, true
	}
	return n, false
}

func (v *aggFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }

func (v *aggFinder) saw(n ast.Node) {
	*v.found = true
	if v.first == nil {
		v.first = n
	}
}

// firstAggregate is the first aggregate call of node's level, nil if
// none (aggFinder).
func (b *Binder) firstAggregate(node ast.Node) ast.Node {
	found := false
	f := &aggFinder{found: &found, b: b}
	node.Accept(f)
	return f.first
}

// at points err at node in the client's text.
func (b *Binder) at(err *pgerr.Error, node ast.Node) *pgerr.Error {
	if b.stmt != nil && node != nil {
		err = err.WithPosition(b.stmt.Position(node.OriginTextPosition()))
	}
	return err
}

// bindExprNoAgg binds an expression in which aggregates are not allowed.
func (b *Binder) bindExprNoAgg(sc *scope, node ast.ExprNode) (ir.Expr, error) {
	if agg := b.firstAggregate(node); agg != nil {
		return nil, b.at(b.notAllowedIn(pgerr.GroupingError, "aggregate functions"), agg)
	}
	return b.bindExpr(sc, node)
}

// aggBinder binds expressions evaluated after aggregation, over rows of
// [group values..., aggregate values...].
type aggBinder struct {
	b      *Binder
	sc     *scope
	lv     *selectLevel
	groups []ir.Expr
	aggs   []ir.AggCall
	// sets are the grouping sets of GROUPING SETS, ROLLUP and CUBE (see
	// Aggregate.GroupingSets).
	sets [][]int
	// syntax is how the GROUP BY elements were written, when the binder
	// keeps notes.
	syntax []ir.GroupingItem
}

// groupCol returns the group column equal to e, if any. Expressions are
// compared by the columns they read, not by how the columns were named:
// GROUP BY "ownerId" ... ORDER BY "Model"."ownerId" (Sequelize) reads one
// column, as in PostgreSQL.
func (a *aggBinder) groupCol(e ir.Expr) (ir.Expr, bool) {
	key := rowKey(e)
	for i, g := range a.groups {
		if rowKey(g) == key {
			return &ir.ColRef{Index: i, Name: e.String(), Typ: g.Type()}, true
		}
	}
	return nil, false
}

// rowKey renders e with each column reference as its position in the row,
// so two spellings of one column (qualified or not) compare equal.
func rowKey(e ir.Expr) string {
	return ir.MapExpr(e, func(x ir.Expr) ir.Expr {
		if c, ok := x.(*ir.ColRef); ok {
			return &ir.ColRef{Index: c.Index, Name: "#" + strconv.Itoa(c.Index), Typ: c.Typ}
		}
		return nil
	}).String()
}

func (a *aggBinder) bind(node ast.ExprNode) (ir.Expr, error) {
	// A whole expression equal to a GROUP BY item reads the group column.
	if !containsSubquery(node) {
		if e, err := a.bindFromRow(node); err == nil {
			if g, ok := a.groupCol(e); ok {
				return g, nil
			}
			if ir.IsConstant(e) && !a.readsOwnColumns(node) {
				// (pg_typeof(x) folds to a constant but reads x, which
				// PostgreSQL's grouping rule looks at.)
				return e, nil
			}
		}
	}
	switch n := node.(type) {
	case *ast.AggregateFuncExpr:
		return a.bindAgg(n, n.F, n.Args, n.Distinct, nil, nil)
	case *ast.ColumnNameExpr:
		if g := a.b.groupedWholeRow(a.sc, n.Name, a); g != nil {
			return g, nil // GROUP BY t ... SELECT f(t) (record.go)
		}
		if e, ok, err := outerColumn(a.sc, n.Name); ok || err != nil {
			return e, err
		}
		// PostgreSQL names the column with its relation (od.name).
		name, qual := n.Name.Name.O, n.Name.Table.O
		if qual == "" {
			qual = a.sc.qualifierOf(name)
		}
		if qual != "" {
			name = qual + "." + name
		}
		return nil, pgerr.New(pgerr.GroupingError, "column %q must appear in the GROUP BY clause or be used in an aggregate function", name)
	}
	// Rebind the expression with this binder handling the leaves.
	return a.b.bindExprWith(a.sc, node, a)
}

// bindFromRow binds node over the FROM row (no aggregates), with the
// scope's group mapping off: the result is compared with GROUP BY items.
func (a *aggBinder) bindFromRow(node ast.ExprNode) (ir.Expr, error) {
	saved := a.sc.groups
	a.sc.groups = nil
	defer func() { a.sc.groups = saved }()
	savedLevel := a.b.level
	a.b.level = nil
	defer func() { a.b.level = savedLevel }()
	if inner := a.b.firstAggregate(node); inner != nil {
		return nil, a.b.at(pgerr.New(pgerr.GroupingError, "aggregate function calls cannot be nested"), inner)
	}
	return a.b.bindExpr(a.sc, node)
}

// bindBound maps an expression already bound over the FROM row (from *)
// onto the aggregated row.
func (a *aggBinder) bindBound(e ir.Expr) (ir.Expr, error) {
	if g, ok := a.groupCol(e); ok {
		return g, nil
	}
	if c, ok := e.(*ir.ColRef); ok {
		// Named with its relation, as PostgreSQL names the Var (* expands
		// to the columns of each FROM item in turn).
		name := c.Name
		if q := a.sc.qualifierAt(c.Index); q != "" && !strings.Contains(name, ".") {
			name = q + "." + name
		}
		return nil, pgerr.New(pgerr.GroupingError, "column %q must appear in the GROUP BY clause or be used in an aggregate function", name)
	}
	return nil, pgerr.New(pgerr.GroupingError, "column must appear in the GROUP BY clause or be used in an aggregate function")
}

func containsSubquery(node ast.ExprNode) bool {
	return containsNode(node, func(n ast.Node) bool {
		_, ok := n.(*ast.SubqueryExpr)
		return ok
	})
}

// readsOwnColumns reports whether node names a column of the aggregated
// level's FROM items.
func (a *aggBinder) readsOwnColumns(node ast.ExprNode) bool {
	return containsNode(node, func(n ast.Node) bool {
		c, ok := n.(*ast.ColumnNameExpr)
		if !ok {
			return false
		}
		_, found, _ := a.sc.lookup(c.Name.Table.O, c.Name.Name.O)
		return found
	})
}

// containsNode reports whether node holds a node that match accepts,
// outside subqueries.
func containsNode(node ast.ExprNode, match func(ast.Node) bool) bool {
	found := false
	node.Accept(&nodeFinder{found: &found, match: match})
	return found
}

type nodeFinder struct {
	found *bool
	match func(ast.Node) bool
}

func (v *nodeFinder) Enter(n ast.Node) (ast.Node, bool) {
	if v.match(n) {
		*v.found = true
		return n, true
	}
	_, sub := n.(*ast.SubqueryExpr)
	return n, sub
}

func (v *nodeFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// IsAggregateName reports whether name is an aggregate function called
// as f(args) (of the registry of package builtins; TiDB parses some as
// AggregateFuncExpr, others as plain calls), or the parser's WITHIN GROUP
// marker around an ordered-set aggregate.
func IsAggregateName(name string) bool {
	if f, ok := builtins.LookupAggregate(name); ok {
		return !f.OrderedSet
	}
	return name == parser.WithinGroupFunc
}

// bindAgg binds an aggregate call, at: its arguments are bound over the
// FROM row (aggregates do not nest), its result is a column of the
// aggregated row. Its errors are placed at the call, which a FILTER or
// ORDER BY wraps in syntax of zproxy's own (parser.AggFilterFunc).
func (a *aggBinder) bindAgg(at ast.ExprNode, fname string, argNodes []ast.ExprNode, distinct bool, filter ast.ExprNode, order []ast.ExprNode) (ir.Expr, error) {
	if fname == parser.WithinGroupFunc {
		return a.bindWithinGroup(argNodes, distinct, filter)
	}
	call, err := a.b.aggCall(a.sc, fname, a.b.calledName(at, fname), argNodes, distinct, filter, order, a.bindFromRow)
	if err != nil {
		return nil, a.b.positioned(err, at)
	}
	if outerLevelAgg(call) {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "aggregate %s over columns of an outer query only is not supported", fname).
			WithHint("PostgreSQL computes such an aggregate in the outer query; write it there.")
	}
	return a.addAgg(call), nil
}

// outerLevelAgg reports whether an aggregate reads columns of enclosing
// queries and none of its own level's, which PostgreSQL computes as an
// aggregate of the outer query (agglevelsup). zproxy aggregates at the
// level where the call is written, which would answer differently, so the
// call is refused.
func outerLevelAgg(call ir.AggCall) bool {
	exprs := append([]ir.Expr{call.Filter}, call.Args...)
	if call.Arg != nil {
		exprs = append(exprs, call.Arg)
	}
	for _, k := range call.OrderBy {
		exprs = append(exprs, k.E)
	}
	outer := false
	for _, e := range exprs {
		if e == nil {
			continue
		}
		if len(ir.Columns(e)) > 0 {
			return false
		}
		ir.Walk(e, func(x ir.Expr) {
			if _, ok := x.(*ir.OuterRef); ok {
				outer = true
			}
		})
	}
	return outer
}

// addAgg adds an aggregate to the aggregated row (once, if an equal one
// is there already) and returns the column it is.
func (a *aggBinder) addAgg(call ir.AggCall) ir.Expr {
	for i, prev := range a.aggs {
		if aggEqual(prev, call) {
			return &ir.ColRef{Index: len(a.groups) + i, Name: aggLabel(call), Typ: call.Typ}
		}
	}
	a.aggs = append(a.aggs, call)
	return &ir.ColRef{Index: len(a.groups) + len(a.aggs) - 1, Name: aggLabel(call), Typ: call.Typ}
}

func aggEqual(x, y ir.AggCall) bool {
	return aggLabel(x) == aggLabel(y) && x.Distinct == y.Distinct && exprString(x.Filter) == exprString(y.Filter) && len(x.OrderBy) == 0 && len(y.OrderBy) == 0
}

func exprString(e ir.Expr) string {
	if e == nil {
		return ""
	}
	return e.String()
}

func aggLabel(c ir.AggCall) string {
	if c.Func == ir.AggCountStar {
		return "count(*)"
	}
	parts := make([]string, len(c.Args))
	for i, x := range c.Args {
		parts[i] = x.String()
	}
	d := ""
	if c.Distinct {
		d = "DISTINCT "
	}
	return string(c.Func) + "(" + d + strings.Join(parts, ", ") + ")"
}

// calledName is fname as the call at wrote it, for its errors: the
// front end drops a pg_catalog qualifier (parser's catalogCalls), which
// PostgreSQL's messages keep.
func (b *Binder) calledName(at ast.Node, fname string) string {
	if b.stmt != nil && b.stmt.CatalogQualified(at.OriginTextPosition()) {
		return "pg_catalog." + strings.ToLower(fname)
	}
	return strings.ToLower(fname)
}

// aggCall types an aggregate call; shown is its name as the call wrote it
// (calledName), which a 42883 names. bindArg binds an argument over the
// aggregate's input row.
func (b *Binder) aggCall(sc *scope, fname, shown string, argNodes []ast.ExprNode, distinct bool, filter ast.ExprNode, order []ast.ExprNode, bindArg func(ast.ExprNode) (ir.Expr, error)) (ir.AggCall, error) {
	defer b.srfDenied(srfInAggregate)()
	fn := ir.AggFunc(strings.ToLower(fname))
	if len(argNodes) > 0 {
		if m, ok := argNodes[0].(*ast.FuncCallExpr); ok && m.FnName.L == parser.DistinctArgFunc {
			// f(DISTINCT ...) of an aggregate TiDB does not know.
			distinct, argNodes = true, argNodes[1:]
		}
	}
	call := ir.AggCall{Func: fn, Distinct: distinct}
	defer b.allowWholeRow(string(fn))()
	if !b.isAggregate(string(fn)) {
		return call, unsupported("aggregate function %s is not supported", fname)
	}
	if fn == ir.AggCount && len(argNodes) == 1 && !distinct {
		if v, ok := argNodes[0].(*driver.ValueExpr); ok && v.Kind() != driver.KindNull {
			// count(*) arrives as count(1); count(<constant>) counts rows too.
			call.Func = ir.AggCountStar
		}
	}
	// written are the arguments' types as the call gave them (an untyped
	// literal's unknown, a domain), which a 42883 names, as PostgreSQL's
	// func_signature_string does, before they resolve.
	var written []sqltypes.Type
	if call.Func != ir.AggCountStar {
		for _, n := range argNodes {
			x, err := bindArg(n)
			if err != nil {
				return call, err
			}
			if v, ok := x.(*variadicArg); ok {
				// count(VARIADIC a): no plain aggregate is variadic, and
				// PostgreSQL forgets the VARIADIC of a call of a function
				// that is not.
				x = v.E
			}
			if distinct {
				// DISTINCT compares the arguments: a type without
				// equality cannot be (transformAggregateCall).
				if err := groupable(x.Type()); err != nil {
					return call, b.at(err.(*pgerr.Error), n)
				}
			}
			// An aggregate takes a domain's values as its base type's.
			written = append(written, x.Type())
			call.Args = append(call.Args, baseOf(b.finishUnknown(x)))
		}
		if f, ok := builtins.LookupAggregate(string(fn)); ok && b.userAggregates(string(fn)) == nil {
			for i, a := range call.Args {
				if a.Type().ID == sqltypes.BPChar && f.TextOnly(i) {
					x, err := b.coerceTo(a, sqltypes.TypeText, false)
					if err != nil {
						return call, err
					}
					call.Args[i] = x
				}
			}
		}
		if len(call.Args) > 0 {
			call.Arg = call.Args[0]
		}
	}
	if filter != nil {
		b.srf.where = "FILTER"
	}
	var err error
	if call.Filter, err = b.bindFilter(filter, bindArg); err != nil {
		return call, err
	}
	for _, o := range order {
		node, desc, nulls := unwrapOrderKey(o)
		x, err := bindArg(node)
		if err != nil {
			return call, err
		}
		call.OrderBy = append(call.OrderBy, ir.SortKeyExpr{E: x, Desc: desc, NullsFirst: nullsFirst(desc, nulls)})
	}
	if users := b.userAggregates(string(fn)); len(users) > 0 {
		if handled, err := b.bindUserAggregate(&call, users); handled || err != nil {
			return call, err
		}
	}
	typ, err := aggType(call)
	if pe := pgerr.As(err); pe != nil && pe.Code == pgerr.UndefinedFunction && len(written) == len(call.Args) {
		err = builtins.NoFunction(shown, written)
	}
	if err != nil {
		return call, err
	}
	call.Typ = typ
	return call, nil
}

// bindFilter binds an aggregate's FILTER (WHERE ...) condition (nil for
// none) over the aggregate's input row.
func (b *Binder) bindFilter(filter ast.ExprNode, bindArg func(ast.ExprNode) (ir.Expr, error)) (ir.Expr, error) {
	if filter == nil {
		return nil, nil
	}
	if inner := b.firstAggregate(filter); inner != nil {
		return nil, b.at(pgerr.New(pgerr.GroupingError, "aggregate functions are not allowed in FILTER"), inner)
	}
	f, err := bindArg(filter)
	if err != nil {
		return nil, err
	}
	return b.coerceToBool(f, filter, "FILTER")
}

// unwrapOrderKey reads the parser's spelling of an ORDER BY key inside a
// call: zp_desc(x) for DESC, zp_nulls_first/last(...) around it.
func unwrapOrderKey(node ast.ExprNode) (ast.ExprNode, bool, byte) {
	node, _, nulls := unwrapNulls(node)
	if f, ok := node.(*ast.FuncCallExpr); ok && f.FnName.L == parser.DescFunc && len(f.Args) == 1 {
		return f.Args[0], true, nulls
	}
	return node, false, nulls
}

// aggType is the result type of an aggregate, as the registry of package
// builtins types it (count(*) is syntax: a bigint).
func aggType(c ir.AggCall) (sqltypes.Type, error) {
	if c.Func == ir.AggCountStar {
		return sqltypes.TypeInt8, nil
	}
	types := make([]sqltypes.Type, len(c.Args))
	for i, a := range c.Args {
		types[i] = a.Type()
	}
	f, ok := builtins.LookupAggregate(string(c.Func))
	if !ok || f.OrderedSet {
		return sqltypes.Type{}, builtins.NoFunction(string(c.Func), types)
	}
	t, err := f.Type(&builtins.Call{Args: types, Common: commonType})
	if err == builtins.ErrNoOverload {
		err = builtins.NoFunction(string(c.Func), types)
	}
	return t, err
}
