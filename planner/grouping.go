package planner

import (
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// GROUP BY with GROUPING SETS, ROLLUP and CUBE, which the parser spells as
// zp_grouping_sets, zp_rollup and zp_cube calls whose composite elements
// are zp_set calls. The items expand into grouping sets as PostgreSQL's
// expand_grouping_sets does: each item gives a list of sets, and the
// GROUP BY list is their cross product.

// maxGroupingSets is PostgreSQL's limit on the sets one GROUP BY makes.
const maxGroupingSets = 4096

func tooManySets() error {
	return pgerr.New(pgerr.StatementTooComplex, "too many grouping sets present (maximum %d)", maxGroupingSets)
}

// bindGroupBy binds the GROUP BY items into a.groups (each distinct
// expression once) and, when grouping-set syntax is used, a.sets.
func (a *aggBinder) bindGroupBy(items []*ast.ByItem, fields *ast.FieldList) error {
	result := [][]int{{}}
	special := false
	for _, item := range items {
		sets, isSets, err := a.groupingElement(item.Expr, fields)
		if err != nil {
			return err
		}
		if a.b.notes != nil {
			a.syntax = append(a.syntax, a.groupingSyntax(item.Expr, fields))
		}
		special = special || isSets
		var next [][]int
		for _, r := range result {
			for _, s := range sets {
				next = append(next, append(append([]int(nil), r...), s...))
				if len(next) > maxGroupingSets {
					return tooManySets()
				}
			}
		}
		result = next
	}
	if special {
		for i, s := range result {
			result[i] = uniqueInts(s)
		}
		a.sets = result
	}
	return nil
}

// groupingElement expands one element into its grouping sets; isSets
// reports grouping-set syntax (a plain expression is the one set {e}).
func (a *aggBinder) groupingElement(node ast.ExprNode, fields *ast.FieldList) (sets [][]int, isSets bool, err error) {
	call, ok := node.(*ast.FuncCallExpr)
	if !ok {
		i, err := a.groupIndex(node, fields)
		return [][]int{{i}}, false, err
	}
	switch call.FnName.L {
	case parser.GroupingSetFunc:
		// A parenthesized list: one set of plain expressions.
		var set []int
		for _, arg := range call.Args {
			i, err := a.groupIndex(arg, fields)
			if err != nil {
				return nil, true, err
			}
			set = append(set, i)
		}
		return [][]int{set}, true, nil
	case parser.RollupFunc, parser.CubeFunc:
		var parts [][]int
		for _, arg := range call.Args {
			s, _, err := a.groupingElement(arg, fields)
			if err != nil {
				return nil, true, err
			}
			if len(s) != 1 {
				return nil, true, pgerr.New(pgerr.SyntaxError, "ROLLUP and CUBE take expressions and parenthesized lists")
			}
			parts = append(parts, s[0])
		}
		if call.FnName.L == parser.RollupFunc {
			// (e1, ..., en), (e1, ..., en-1), ..., ()
			for n := len(parts); n >= 0; n-- {
				sets = append(sets, concatSets(parts[:n]))
			}
			return sets, true, nil
		}
		if len(parts) > 12 {
			return nil, true, tooManySets()
		}
		for mask := 0; mask < 1<<len(parts); mask++ {
			var chosen [][]int
			for i := range parts {
				if mask&(1<<i) != 0 {
					chosen = append(chosen, parts[i])
				}
			}
			sets = append(sets, concatSets(chosen))
		}
		return sets, true, nil
	case parser.GroupingSetsFunc:
		for _, arg := range call.Args {
			s, _, err := a.groupingElement(arg, fields)
			if err != nil {
				return nil, true, err
			}
			sets = append(sets, s...)
			if len(sets) > maxGroupingSets {
				return nil, true, tooManySets()
			}
		}
		return sets, true, nil
	}
	i, err := a.groupIndex(node, fields)
	return [][]int{{i}}, false, err
}

// groupIndex binds a grouping expression and returns its index in
// a.groups, adding it when new.
func (a *aggBinder) groupIndex(node ast.ExprNode, fields *ast.FieldList) (int, error) {
	g, err := a.b.bindGroupItem(a.sc, node, fields)
	if err != nil {
		return 0, err
	}
	// A grouped literal is text (PostgreSQL's addTargetToGroupList), even
	// in a set operation's operand, which keeps its other literals unknown.
	g = a.b.finishUnknown(g)
	key := g.String()
	for i, x := range a.groups {
		if x.String() == key {
			return i, nil
		}
	}
	a.groups = append(a.groups, g)
	return len(a.groups) - 1, nil
}

func concatSets(parts [][]int) []int {
	var out []int
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func uniqueInts(xs []int) []int {
	seen := map[int]bool{}
	out := make([]int, 0, len(xs))
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// bindGrouping binds grouping(a, b, ...): an aggregate-level value whose
// bit for each argument (the last argument's bit lowest) is 1 when the row
// is of a grouping set without that argument.
func (b *Binder) bindGrouping(n *ast.FuncCallExpr, agg *aggBinder) (ir.Expr, error) {
	if agg == nil {
		return nil, pgerr.New(pgerr.GroupingError, "grouping operations are not allowed here")
	}
	if len(n.Args) > 31 {
		return nil, pgerr.New(pgerr.TooManyArguments, "GROUPING must have fewer than 32 arguments")
	}
	call := ir.AggCall{Func: "grouping", Typ: sqltypes.TypeInt4}
	for _, arg := range n.Args {
		e, err := agg.bindFromRow(arg)
		if err != nil {
			return nil, err
		}
		g, ok := agg.groupCol(e)
		if !ok {
			return nil, pgerr.New(pgerr.GroupingError, "arguments to GROUPING must be grouping expressions of the associated query level")
		}
		call.Grouping = append(call.Grouping, g.(*ir.ColRef).Index)
		call.Args = append(call.Args, e)
	}
	if len(call.Args) > 0 {
		call.Arg = call.Args[0]
	}
	return agg.addAgg(call), nil
}

// groupingSyntax is how a GROUP BY element bound by groupingElement was
// written, for pg_get_viewdef (ir.QueryNotes.NoteGrouping).
func (a *aggBinder) groupingSyntax(node ast.ExprNode, fields *ast.FieldList) ir.GroupingItem {
	call, ok := node.(*ast.FuncCallExpr)
	kind := ir.GroupingExpr
	if ok {
		switch call.FnName.L {
		case parser.GroupingSetFunc:
			kind = ir.GroupingList
		case parser.RollupFunc:
			kind = ir.GroupingRollup
		case parser.CubeFunc:
			kind = ir.GroupingCube
		case parser.GroupingSetsFunc:
			kind = ir.GroupingSets
		}
	}
	if kind == ir.GroupingExpr {
		// Bound already: groupIndex finds its index.
		i, _ := a.groupIndex(node, fields)
		return ir.GroupingItem{Kind: kind, Index: i}
	}
	item := ir.GroupingItem{Kind: kind}
	for _, arg := range call.Args {
		item.Items = append(item.Items, a.groupingSyntax(arg, fields))
	}
	return item
}
