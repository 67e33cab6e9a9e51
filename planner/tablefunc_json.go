package planner

import (
	"strings"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// hasOutColumns reports whether a set-returning function names its
// columns itself (OUT parameters), so that an alias does not rename them.
func hasOutColumns(name string) bool {
	return ir.IsJSONTableFunc(name) && !strings.HasSuffix(name, "_object_keys")
}

// jsonTableFunc types a json set-returning function; ok is false for other
// names.
func (b *Binder) jsonTableFunc(name string, args []ir.Expr) (*ir.TableFunc, bool, error) {
	f, ok := ir.JSONTableFuncs[name]
	if !ok {
		return nil, false, nil
	}
	if len(args) != 1 {
		return nil, true, noFunction(name, args)
	}
	b.inferParam(args[0], f.Doc)
	if t := args[0].Type(); t.ID != f.Doc.ID {
		if t.ID != sqltypes.Unknown {
			return nil, true, noFunction(name, args)
		}
		x, err := b.coerceTo(args[0], f.Doc, false)
		if err != nil {
			return nil, true, err
		}
		args[0] = x
	}
	return &ir.TableFunc{Name: name, Args: args, Cols: append([]ir.Column(nil), f.Cols...)}, true, nil
}
