package planner

import (
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// tableFunc types a set-returning function called in FROM. The executor
// computes its rows (package executor, tableFuncs).
func (b *Binder) tableFunc(name string, args []Expr) (*TableFunc, error) {
	if tf, ok, err := b.jsonTableFunc(name, args); ok {
		return tf, err
	}
	tf := &TableFunc{Name: name, Args: args}
	col := func(n string, t sqltypes.Type) { tf.Cols = append(tf.Cols, Column{Name: n, Type: t, Col: -1}) }
	switch name {
	case "generate_series":
		if len(args) < 2 || len(args) > 3 {
			return nil, pgerr.New(pgerr.UndefinedFunction, "function generate_series with %d arguments does not exist", len(args))
		}
		// Integer series: the widest argument type, as PostgreSQL picks
		// generate_series(int4...) or generate_series(int8...).
		typ := sqltypes.TypeInt4
		for _, a := range args {
			b.inferParam(a, sqltypes.TypeInt4)
		}
		for i, a := range args {
			switch t := a.Type(); {
			case t.ID == sqltypes.Unknown:
				x, err := b.coerceTo(a, sqltypes.TypeInt4, false)
				if err != nil {
					return nil, err
				}
				args[i] = x
			case t.Kind() == sqltypes.KindInt:
				if t.ID == sqltypes.Int8 {
					typ = sqltypes.TypeInt8
				}
			case t.Kind() == sqltypes.KindFloat:
				return nil, pgerr.New(pgerr.UndefinedFunction, "function generate_series(%s) does not exist", typeList(args)).
					WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
			default:
				return nil, pgerr.New(pgerr.FeatureNotSupported, "generate_series over %s is not supported yet", t)
			}
		}
		col(name, typ)
		return tf, nil
	}
	return nil, pgerr.New(pgerr.UndefinedFunction, "function %s(%s) does not exist", name, typeList(args)).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}

func typeList(args []Expr) string {
	s := ""
	for i, a := range args {
		if i > 0 {
			s += ", "
		}
		s += a.Type().String()
	}
	return s
}
