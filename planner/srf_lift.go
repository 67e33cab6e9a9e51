package planner

import (
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// selectListSRFs are the set-returning functions the executor computes by
// name (package executor, newTableFunc) rather than through a builtins
// SetFunc; in a select list they are ProjectSet calls like the others
// (srf.go).
var selectListSRFs = map[string]bool{"unnest": true, "_pg_expandarray": true, "generate_subscripts": true,
	"regexp_matches": true, "regexp_split_to_table": true}

// bindRowsFrom binds zp_rows_from(f1(...), f2(...)): the functions' rows
// zipped, their columns side by side.
func (b *Binder) bindRowsFrom(f *ast.FuncCallExpr, alias string, names []ast.CIStr, ordinality bool, sc *scope, left *lateralEnv) (*fromPart, error) {
	argScope := lateralArgScope(sc, left)
	tf := &ir.TableFunc{Name: "rows from"}
	for _, a := range f.Args {
		call, ok := a.(*ast.FuncCallExpr)
		if !ok {
			return nil, pgerr.New(pgerr.SyntaxError, "ROWS FROM takes function calls")
		}
		args := make([]ir.Expr, len(call.Args))
		for i, x := range call.Args {
			e, err := b.bindExpr(argScope, x)
			if err != nil {
				return nil, err
			}
			args[i] = e
		}
		part, err := b.tableFunc(call.FnName.L, args)
		if err != nil {
			return nil, err
		}
		tf.Args = append(tf.Args, part.Args...)
		tf.Cols = append(tf.Cols, part.Cols...)
		tf.Parts = append(tf.Parts, ir.TableFuncPart{Name: part.Name, Args: len(part.Args), NCols: len(part.Cols), Fn: part.Fn})
	}
	if ordinality {
		tf.Ordinality = true
		tf.Cols = append(tf.Cols, ir.Column{Name: "ordinality", Type: sqltypes.TypeInt8, Col: -1})
	}
	cols, err := renameColumns(tf.Cols, names, "table \""+alias+"\"")
	if err != nil {
		return nil, err
	}
	tf.Cols = cols
	return &fromPart{rel: tf, items: []*fromItem{{alias: alias, cols: cols}}}, nil
}
