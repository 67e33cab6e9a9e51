package planner

import (
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// A set-returning function in the select list (SELECT generate_series(1,
// n) FROM t, SELECT jsonb_array_elements(doc) ->> 'id' FROM t) gives each
// row of the query below the select list as many rows as the function
// returns, none when it returns none. That is the lateral join of those
// rows with the function called in FROM, which is how it is planned: the
// select list reads the function's column. PostgreSQL runs several such
// functions in lockstep; zproxy takes one (more are 0A000).

// srfCall is a set-returning function met in the select list: its table
// function, with arguments over the select list's input row.
type srfCall struct {
	tf *TableFunc
}

// srfRef stands for the function's value until lateralSRFs builds the
// join that computes it (as a windowRef stands for a window's).
type srfRef struct{ windowRef }

// isSetReturning reports whether name is a set-returning function zproxy
// has.
func isSetReturning(name string) bool { return name == "generate_series" || IsJSONTableFunc(name) }

// bindSRF binds a set-returning function called in an expression: allowed
// in the select list only.
func (b *Binder) bindSRF(n *ast.FuncCallExpr, agg *aggBinder) (Expr, error) {
	lv := b.level
	if lv == nil || !lv.srfOK {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "set-returning functions are not allowed here").
			WithHint("Call %s in the select list or in FROM.", n.FnName.L)
	}
	if len(lv.srfs) > 0 {
		return nil, unsupported("more than one set-returning function in the select list is not supported; call them in FROM")
	}
	// The arguments are read on the select list's input row (the
	// aggregated row when the query aggregates); they hold no other
	// set-returning function.
	saved := b.level
	b.level = nil
	defer func() { b.level = saved }()
	args := make([]Expr, len(n.Args))
	for i, a := range n.Args {
		var err error
		if lv.agg != nil {
			args[i], err = lv.agg.bind(a)
		} else {
			args[i], err = b.bindExpr(lv.sc, a)
		}
		if err != nil {
			return nil, err
		}
	}
	tf, err := b.tableFunc(n.FnName.L, args)
	if err != nil {
		return nil, err
	}
	if len(tf.Cols) != 1 {
		return nil, unsupported("%s returning a record is not supported in the select list; call it in FROM", n.FnName.L)
	}
	lv.srfs = append(lv.srfs, srfCall{tf: tf})
	return &srfRef{windowRef{i: len(lv.srfs) - 1, name: n.FnName.L, typ: tf.Cols[0].Type}}, nil
}

// fixSRFs applies fix (the window fixer) to the functions' arguments.
func (lv *selectLevel) fixSRFs(fix func(Expr) Expr) {
	for _, c := range lv.srfs {
		for i := range c.tf.Args {
			c.tf.Args[i] = fix(c.tf.Args[i])
		}
	}
}

// lateralSRFs joins rel laterally with the select list's set-returning
// function and points the select list's references at its column.
func (lv *selectLevel) lateralSRFs(rel Rel, exprs []Expr) Rel {
	base := len(rel.Columns())
	tf := lv.srfs[0].tf
	// The function reads rel's row as its outer row.
	for i, a := range tf.Args {
		tf.Args[i] = MapExpr(a, func(x Expr) Expr {
			switch r := x.(type) {
			case *ColRef:
				return &OuterRef{Depth: 1, Index: r.Index, Name: r.Name, Typ: r.Typ}
			case *OuterRef:
				return &OuterRef{Depth: r.Depth + 1, Index: r.Index, Name: r.Name, Typ: r.Typ}
			}
			return nil
		})
	}
	j := NewJoin(InnerJoin, rel, tf, nil)
	j.Lateral = true
	for i := range exprs {
		exprs[i] = MapExpr(exprs[i], func(x Expr) Expr {
			if r, ok := x.(*srfRef); ok {
				return &ColRef{Index: base + r.i, Name: r.name, Typ: r.typ}
			}
			return nil
		})
	}
	return j
}
