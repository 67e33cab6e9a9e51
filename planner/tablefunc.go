package planner

import (
	"github.com/zproxy/zproxy/internal/builtins"
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
	case "unnest":
		return b.unnestFunc(tf, args)
	case "_pg_expandarray":
		return b.expandArrayFunc(tf, args)
	case "regexp_matches", "regexp_split_to_table":
		if len(args) < 2 || len(args) > 3 {
			return nil, pgerr.New(pgerr.UndefinedFunction, "function %s with %d arguments does not exist", name, len(args))
		}
		for i := range args {
			b.inferParam(args[i], sqltypes.TypeText)
			x, err := b.coerceTo(args[i], sqltypes.TypeText, false)
			if err != nil {
				return nil, err
			}
			args[i] = x
		}
		if name == "regexp_matches" {
			col(name, sqltypes.ArrayOf(sqltypes.TypeText))
		} else {
			col(name, sqltypes.TypeText)
		}
		return tf, nil
	case "generate_subscripts":
		if len(args) != 2 {
			return nil, pgerr.New(pgerr.UndefinedFunction, "function generate_subscripts with %d arguments does not exist", len(args))
		}
		if _, ok := arrayElem(args[0].Type()); !ok {
			return nil, pgerr.New(pgerr.UndefinedFunction, "function generate_subscripts(%s) does not exist", typeList(args))
		}
		x, err := b.coerceTo(args[1], sqltypes.TypeInt4, false)
		if err != nil {
			return nil, err
		}
		args[1] = x
		col(name, sqltypes.TypeInt4)
		return tf, nil
	}
	if builtins.Exists(name) {
		// A scalar function in FROM is a relation of one row.
		e, err := b.bindFunc(name, args)
		if err != nil {
			return nil, err
		}
		tf.Name, tf.Args = ScalarTableFunc, []Expr{e}
		col(name, e.Type())
		return tf, nil
	}
	return nil, pgerr.New(pgerr.UndefinedFunction, "function %s(%s) does not exist", name, typeList(args)).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}

// ScalarTableFunc is the TableFunc name of a scalar function called in
// FROM: its one argument is the call, its one row the value.
const ScalarTableFunc = "scalar"

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
