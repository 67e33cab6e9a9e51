package planner

import (
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// jsonTableFuncs are the json set-returning functions: the document type
// they take and the columns they return (package executor computes them).
var jsonTableFuncs = map[string]struct {
	doc  sqltypes.Type
	cols []Column
}{}

func init() {
	for _, doc := range []sqltypes.Type{sqltypes.TypeJSON, sqltypes.TypeJSONB} {
		p := doc.String()
		col := func(n string, t sqltypes.Type) Column { return Column{Name: n, Type: t, Col: -1} }
		add := func(name string, cols ...Column) {
			jsonTableFuncs[name] = struct {
				doc  sqltypes.Type
				cols []Column
			}{doc, cols}
		}
		add(p+"_each", col("key", sqltypes.TypeText), col("value", doc))
		add(p+"_each_text", col("key", sqltypes.TypeText), col("value", sqltypes.TypeText))
		add(p+"_array_elements", col("value", doc))
		add(p+"_array_elements_text", col("value", sqltypes.TypeText))
		add(p+"_object_keys", col(p+"_object_keys", sqltypes.TypeText))
	}
}

// IsJSONTableFunc reports whether name is one of the json set-returning
// functions.
func IsJSONTableFunc(name string) bool { _, ok := jsonTableFuncs[name]; return ok }

// hasOutColumns reports whether a set-returning function names its
// columns itself (OUT parameters), so that an alias does not rename them.
func hasOutColumns(name string) bool {
	return IsJSONTableFunc(name) && !strings.HasSuffix(name, "_object_keys")
}

// jsonTableFunc types a json set-returning function; ok is false for other
// names.
func (b *Binder) jsonTableFunc(name string, args []Expr) (*TableFunc, bool, error) {
	f, ok := jsonTableFuncs[name]
	if !ok {
		return nil, false, nil
	}
	if len(args) != 1 {
		return nil, true, pgerr.New(pgerr.UndefinedFunction, "function %s(%s) does not exist", name, typeList(args)).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	b.inferParam(args[0], f.doc)
	if t := args[0].Type(); t.ID != f.doc.ID {
		if t.ID != sqltypes.Unknown {
			return nil, true, pgerr.New(pgerr.UndefinedFunction, "function %s(%s) does not exist", name, strings.TrimSpace(t.String())).
				WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
		}
		x, err := b.coerceTo(args[0], f.doc, false)
		if err != nil {
			return nil, true, err
		}
		args[0] = x
	}
	return &TableFunc{Name: name, Args: args, Cols: append([]Column(nil), f.cols...)}, true, nil
}
