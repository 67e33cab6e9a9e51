package planner

import (
	"strconv"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// A WITH RECURSIVE query's SEARCH and CYCLE clauses, bound as PostgreSQL's
// rewriteSearchAndCycle rewrites them: the non-recursive term gets the new
// columns from its own row (no previous value), the recursive term from
// its row and the previous round's values, which its work table carries;
// CYCLE also stops extending a row already marked as a cycle. The columns
// come after the query's own, SEARCH's first (ir/searchcycle.go).

// searchCycleOf returns the clauses written for WITH query c (its encoded
// name numbers them: parser.AliasFlags.SearchCycle).
func (b *Binder) searchCycleOf(c *ast.CommonTableExpression) *parser.SearchCycle {
	_, flags, _ := parser.SplitAlias(c.Name.O)
	if b.stmt == nil || flags.SearchCycle < 1 || flags.SearchCycle > len(b.stmt.SearchCycles) {
		return nil
	}
	return &b.stmt.SearchCycles[flags.SearchCycle-1]
}

// searchCycleError is PostgreSQL's 42601 for a malformed clause, at it.
func searchCycleError(sc *parser.SearchCycle, format string, args ...any) error {
	return pgerr.New(pgerr.SyntaxError, format, args...).WithPosition(sc.Pos)
}

// searchCycleColumns checks sc against the query's columns and returns
// the columns it adds, with the mark constants of CYCLE.
func searchCycleColumns(sc *parser.SearchCycle, cols []ir.Column) ([]ir.Column, *ir.Const, *ir.Const, error) {
	has := func(n string) bool {
		for _, c := range cols {
			if c.Name == n {
				return true
			}
		}
		return false
	}
	var extra []ir.Column
	if sc.Search {
		for _, n := range sc.SearchBy {
			if !has(n) {
				return nil, nil, nil, searchCycleError(sc, "search column \"%s\" not in WITH query column list", n)
			}
		}
		if has(sc.SearchSet) {
			return nil, nil, nil, searchCycleError(sc, "search sequence column name \"%s\" already used in WITH query column list", sc.SearchSet)
		}
		t := ir.RecordArrayType
		if sc.Breadth {
			t = sqltypes.Type{ID: sqltypes.Record}
		}
		extra = append(extra, ir.Column{Name: sc.SearchSet, Type: t, Col: -1})
	}
	var mark, def *ir.Const
	if sc.Cycle {
		for _, n := range sc.CycleCols {
			if !has(n) {
				return nil, nil, nil, searchCycleError(sc, "cycle column \"%s\" not in WITH query column list", n)
			}
		}
		switch {
		case has(sc.CycleSet):
			return nil, nil, nil, searchCycleError(sc, "cycle mark column name \"%s\" already used in WITH query column list", sc.CycleSet)
		case has(sc.CyclePath):
			return nil, nil, nil, searchCycleError(sc, "cycle path column name \"%s\" already used in WITH query column list", sc.CyclePath)
		case sc.CycleSet == sc.CyclePath:
			return nil, nil, nil, searchCycleError(sc, "cycle mark column name and cycle path column name are the same")
		case sc.Search && (sc.SearchSet == sc.CycleSet || sc.SearchSet == sc.CyclePath):
			return nil, nil, nil, searchCycleError(sc, "search sequence column name and cycle mark column name are the same")
		}
		var err error
		if mark, def, err = cycleMarks(sc); err != nil {
			return nil, nil, nil, err
		}
		extra = append(extra, ir.Column{Name: sc.CycleSet, Type: mark.Typ, Col: -1}, ir.Column{Name: sc.CyclePath, Type: ir.RecordArrayType, Col: -1})
	}
	return extra, mark, def, nil
}

// cycleMarks are CYCLE's TO and DEFAULT constants (TRUE and FALSE
// without them), of their common type: text for two strings, integer
// for two integers, boolean for two booleans.
func cycleMarks(sc *parser.SearchCycle) (*ir.Const, *ir.Const, error) {
	if sc.Mark == nil {
		return &ir.Const{V: sqltypes.NewBool(true), Typ: sqltypes.TypeBool}, &ir.Const{V: sqltypes.NewBool(false), Typ: sqltypes.TypeBool}, nil
	}
	conv := func(v *parser.SearchCycleValue) (sqltypes.Value, sqltypes.Type, bool) {
		switch {
		case v.String:
			return sqltypes.NewText(v.Text), sqltypes.TypeText, true
		case v.Text == "true" || v.Text == "false":
			return sqltypes.NewBool(v.Text == "true"), sqltypes.TypeBool, true
		}
		n, err := strconv.ParseInt(v.Text, 10, 32)
		return sqltypes.NewInt(n), sqltypes.TypeInt4, err == nil
	}
	mv, mt, ok1 := conv(sc.Mark)
	dv, dt, ok2 := conv(sc.Default)
	if !ok1 || !ok2 {
		return nil, nil, pgerr.New(pgerr.FeatureNotSupported, "a cycle mark value other than a string, integer or boolean constant is not supported").WithPosition(sc.Pos)
	}
	if mt != dt {
		return nil, nil, pgerr.New(pgerr.DatatypeMismatch, "CYCLE types %s and %s cannot be matched", mt, dt).WithPosition(sc.Pos)
	}
	return &ir.Const{V: mv, Typ: mt}, &ir.Const{V: dv, Typ: dt}, nil
}

// searchCycleExprs are the added columns' expressions over a row whose
// query columns are cols (their positions) and whose previous values, in
// the recursive term, stand at prev (nil in the non-recursive term).
func searchCycleExprs(sc *parser.SearchCycle, cols []ir.Column, prev []int, mark, def *ir.Const) []ir.Expr {
	refs := func(names []string) []ir.Expr {
		var out []ir.Expr
		for _, n := range names {
			for i, c := range cols {
				if c.Name == n {
					out = append(out, &ir.ColRef{Index: i, Name: n, Typ: c.Type})
					break
				}
			}
		}
		return out
	}
	at := func(j int, t sqltypes.Type) ir.Expr {
		if prev == nil {
			return &ir.Const{V: sqltypes.Null, Typ: t}
		}
		return &ir.ColRef{Index: prev[j], Typ: t}
	}
	var out []ir.Expr
	j := 0
	if sc.Search {
		if sc.Breadth {
			out = append(out, &ir.SearchBreadth{Prev: at(j, sqltypes.Type{ID: sqltypes.Record}), Fields: refs(sc.SearchBy)})
		} else {
			out = append(out, &ir.SearchDepth{Prev: at(j, ir.RecordArrayType), Fields: refs(sc.SearchBy)})
		}
		j++
	}
	if sc.Cycle {
		path := at(j+1, ir.RecordArrayType)
		out = append(out, &ir.CycleMark{Path: path, Fields: refs(sc.CycleCols), Mark: mark, Default: def},
			&ir.SearchDepth{Prev: path, Fields: refs(sc.CycleCols)})
	}
	return out
}

// bindSearchCycle adds sc's columns to the two terms of a recursive WITH
// query of n columns cols (extra: the added ones, which the work table
// already has).
func bindSearchCycle(sc *parser.SearchCycle, cte *ir.CTE, cols, extra []ir.Column, anchor, recursive ir.Rel, mark, def *ir.Const) (ir.Rel, ir.Rel, error) {
	n := len(cols)
	project := func(in ir.Rel, prev []int) ir.Rel {
		exprs := make([]ir.Expr, 0, n+len(extra))
		for i, c := range cols {
			exprs = append(exprs, &ir.ColRef{Index: i, Name: c.Name, Typ: c.Type})
		}
		exprs = append(exprs, searchCycleExprs(sc, cols, prev, mark, def)...)
		out := append(append([]ir.Column(nil), in.Columns()[:n]...), extra...)
		return &ir.Project{Input: in, Exprs: exprs, Cols: out}
	}
	markAt := -1
	if sc.Cycle {
		markAt = n
		if sc.Search {
			markAt++
		}
	}
	carried, pos, ok := carryPrevious(recursive, cte, n, len(extra), markAt, def)
	if !ok {
		return nil, nil, pgerr.New(pgerr.FeatureNotSupported, "SEARCH and CYCLE are supported only over a recursive term that reads its WITH query in its FROM clause").WithPosition(sc.Pos)
	}
	return project(anchor, nil), project(carried, pos), nil
}

// carryPrevious makes the recursive term rel also return the work table's
// added columns (the previous round's values), after its own, and
// returns where they stand. With markAt >= 0 (CYCLE), rows whose previous
// mark is not the default are not extended.
func carryPrevious(rel ir.Rel, cte *ir.CTE, n, extra, markAt int, def *ir.Const) (ir.Rel, []int, bool) {
	p, ok := rel.(*ir.Project)
	if !ok {
		return nil, nil, false
	}
	var from []int
	input := p.Input
	if inner, pos, ok := carryPrevious(p.Input, cte, n, extra, markAt, def); ok {
		input, from = inner, pos
	} else if off, ok := workTableOffset(p.Input, cte); ok {
		for j := 0; j < extra; j++ {
			from = append(from, off+n+j)
		}
		if markAt >= 0 {
			m := &ir.ColRef{Index: off + markAt, Typ: def.Typ}
			input = &ir.Filter{Input: input, Pred: &ir.Binary{Op: ir.OpEq, L: m, R: def, Typ: sqltypes.TypeBool}}
		}
	} else {
		return nil, nil, false
	}
	inCols := input.Columns()
	exprs := append([]ir.Expr(nil), p.Exprs...)
	cols := append([]ir.Column(nil), p.Cols...)
	var out []int
	for _, f := range from {
		out = append(out, len(exprs))
		exprs = append(exprs, &ir.ColRef{Index: f, Name: inCols[f].Name, Typ: inCols[f].Type})
		cols = append(cols, inCols[f])
	}
	return &ir.Project{Input: input, Exprs: exprs, Cols: cols}, out, true
}

// workTableOffset finds where the work table of cte's columns start in
// the rows of rel (its FROM clause, filtered).
func workTableOffset(rel ir.Rel, cte *ir.CTE) (int, bool) {
	switch x := rel.(type) {
	case *ir.WorkTable:
		return 0, x.CTE == cte
	case *ir.Filter:
		return workTableOffset(x.Input, cte)
	case *ir.Join:
		if off, ok := workTableOffset(x.Left, cte); ok {
			return off, true
		}
		if x.Kind == ir.SemiJoin || x.Kind == ir.AntiJoin {
			return 0, false
		}
		if off, ok := workTableOffset(x.Right, cte); ok {
			return len(x.Left.Columns()) + off, true
		}
	}
	return 0, false
}
