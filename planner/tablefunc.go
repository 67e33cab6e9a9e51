package planner

import (
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// tableFunc types a function called in FROM, its arguments already bound:
// a set-returning function of the registry (the executor calls the
// overload's SetFunc), one the executor computes by name (unnest, the json
// functions, ...), or any other function, one row holding its value, as
// PostgreSQL allows (FROM upper('x') AS u).
func (b *Binder) tableFunc(name string, args []ir.Expr) (*ir.TableFunc, error) {
	if tf, ok, err := b.jsonTableFunc(name, args); ok {
		return tf, err
	}
	tf := &ir.TableFunc{Name: name, Args: args}
	col := func(n string, t sqltypes.Type) { tf.Cols = append(tf.Cols, ir.Column{Name: n, Type: t, Col: -1}) }
	if e, ok := b.populateRecord(name, args); ok {
		// json[b]_populate_record in FROM: a column per field.
		tf.Name, tf.Args = ir.ScalarRowTableFunc, []ir.Expr{e}
		for _, f := range e.Type().Composite.Fields {
			col(f.Name, f.Type)
		}
		return tf, nil
	}
	if tf, ok := b.populateRecordset(name, args); ok {
		return tf, nil
	}
	user := b.snap != nil && len(b.snap.Functions(name)) > 0
	if builtins.ReturnsSet(name) || user {
		// A set-returning function of the registry (builtins.SetFunc) or
		// a user-defined function: resolved as any function, then
		// unwrapped from its fromSet.
		defer b.srfAt(srfPlace{from: true})()
		b.lastRoutine = nil
		e, err := b.bindFunc(name, args)
		if err != nil {
			return nil, err
		}
		f, ok := e.(*fromSet)
		if !ok && user {
			// A user-defined scalar function in FROM: a relation of one
			// row.
			tf.Name, tf.Args = ir.ScalarTableFunc, []ir.Expr{e}
			if t := e.Type(); t.IsNamedComposite() {
				// A composite result: a column per field.
				tf.Name = ir.ScalarRowTableFunc
				for _, f := range t.Composite.Fields {
					col(f.Name, f.Type)
				}
				return tf, nil
			}
			if out, ok := outColumnName(b.lastRoutine); ok {
				col(out, e.Type())
				b.outNamed = tf
				return tf, nil
			}
			col(name, e.Type())
			return tf, nil
		}
		if !ok {
			return nil, pgerr.New(pgerr.InternalError, "function %s in FROM is not set-returning", name)
		}
		tf.Args, tf.Fn = f.args, f.res.Overload
		for _, c := range f.res.ResultColumns(name) {
			col(c.Name, c.Type)
		}
		return tf, nil
	}
	switch name {
	case "unnest":
		if len(args) == 1 && args[0].Type().ID == sqltypes.TSVector {
			tf.Fn = &builtins.TSVectorUnnest
			for _, c := range builtins.TSVectorUnnest.Set.Columns {
				col(c.Name, c.Type)
			}
			return tf, nil
		}
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
		if len(args) != 2 && len(args) != 3 {
			return nil, pgerr.New(pgerr.UndefinedFunction, "function generate_subscripts with %d arguments does not exist", len(args))
		}
		if len(args) == 3 {
			// generate_subscripts(array, dim, reverse)
			r, err := b.coerceTo(args[2], sqltypes.TypeBool, false)
			if err != nil {
				return nil, err
			}
			args[2] = r
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
		tf.Name, tf.Args = ir.ScalarTableFunc, []ir.Expr{e}
		if t := e.Type(); t.ID == sqltypes.Record && t.Composite != nil && len(t.Composite.Fields) > 0 {
			// A function with OUT parameters (pg_sequence_parameters,
			// pg_identify_object): a column per parameter.
			tf.Name = ir.ScalarRowTableFunc
			for _, f := range t.Composite.Fields {
				col(f.Name, f.Type)
			}
			return tf, nil
		}
		col(name, e.Type())
		return tf, nil
	}
	return nil, pgerr.New(pgerr.UndefinedFunction, "function %s(%s) does not exist", name, typeList(args)).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}

func typeList(args []ir.Expr) string {
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteString(", ")
		}
		if na, ok := a.(*namedArg); ok {
			// As PostgreSQL's func_signature_string: the name given.
			b.WriteString(na.Name + " => ")
		}
		b.WriteString(a.Type().UnmodifiedName())
	}
	return b.String()
}

func exprTypes(args []ir.Expr) []sqltypes.Type {
	ts := make([]sqltypes.Type, len(args))
	for i, a := range args {
		ts[i] = a.Type()
	}
	return ts
}

// noFunction is builtins.NoFunction for a call's bound arguments, which
// names those given by name as the call did.
func noFunction(name string, args []ir.Expr) error {
	return builtins.NoFunctionSignature(name, typeList(args))
}

// outColumnName is the name of the one OUT parameter of user function fn
// (which returns one value), if it has one: it names fn's column in FROM
// (PostgreSQL's chooseScalarFunctionAlias).
func outColumnName(fn *catalog.Function) (string, bool) {
	if fn != nil {
		if outs := fn.Outputs(); len(outs) == 1 && outs[0].Name != "" {
			return outs[0].Name, true
		}
	}
	return "", false
}
