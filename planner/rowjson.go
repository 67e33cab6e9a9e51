package planner

import (
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// Whole-row references as arguments of the json functions: row_to_json(t),
// to_json(t), to_jsonb(t), json_agg(t) and jsonb_agg(t), where t is a FROM
// item, read t's row as a json object of its visible columns. zproxy has
// no record type, so a whole-row reference is allowed there only, as the
// object PostgreSQL's composite_to_json prints: {"id":1,"name":"a"}.

// wholeRowFuncs are the functions whose argument may be a whole row.
var wholeRowFuncs = map[string]bool{"row_to_json": true, "to_json": true, "to_jsonb": true, "json_agg": true, "jsonb_agg": true}

// allowWholeRow lets the arguments of the function name be whole rows
// until the returned func restores the previous setting.
func (b *Binder) allowWholeRow(name string) func() {
	saved := b.wholeRowOK
	b.wholeRowOK = wholeRowFuncs[name]
	return func() { b.wholeRowOK = saved }
}

// wholeRow binds an unqualified name that is no column but a FROM item of
// sc as that item's row, as json; nil when it is no FROM item either.
// Elsewhere than in the json functions a whole row is 0A000.
func (b *Binder) wholeRow(sc *scope, cn *ast.ColumnName) (ir.Expr, error) {
	if cn.Table.O != "" {
		return nil, nil
	}
	exprs, cols, err := sc.star(cn.Name.O)
	if err != nil {
		return nil, nil
	}
	if !b.wholeRowOK {
		return b.wholeRowValue(sc, cn.Name.O)
	}
	names := make([]string, len(cols))
	types := make([]sqltypes.Type, len(cols))
	for i, c := range cols {
		names[i], types[i] = c.Name, c.Type
	}
	if it := sc.item(cn.Name.O); it != nil {
		if p := it.presentColumn(); p != nil {
			// The last argument says whether an outer join null-extended
			// the item: its whole row is NULL then (record.go).
			exprs = append(exprs, p)
		}
	}
	return &ir.Func{Name: ir.WholeRowFunc, Args: exprs, Typ: sqltypes.TypeJSON, Fn: func(ctx *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		if len(a) > len(names) {
			if a[len(names)].IsNull() {
				return sqltypes.Null, nil
			}
			a = a[:len(names)]
		}
		var st sqltypes.Style
		if ctx != nil {
			st = ctx.Fn.OutputStyle()
		}
		return sqltypes.RowToJSONStyled(names, types, a, st)
	}}, nil
}
