package session

import (
	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/planner"
)

// PL/pgSQL variables of composite types: DECLARE r addr (or
// addr%ROWTYPE) is a record variable whose fields are the type's, as a
// table's %ROWTYPE is, so r.f reads and assigns a field; RETURN r in a
// function returning the type returns the record of its fields.

// compositeNamed is the composite type named name, nil if none.
func compositeNamed(snap *catalog.Snapshot, name string) *sqltypes.CompositeType {
	u, ok := snap.UserType(name)
	if !ok {
		return nil
	}
	return u.Composite
}

// declareComposite makes v a record variable of composite type c, its
// fields NULL.
func declareComposite(v *plVar, c *sqltypes.CompositeType) {
	v.record, v.typ = true, sqltypes.CompositeOf(c)
	for i, f := range c.Fields {
		v.cols = append(v.cols, ir.Column{Name: f.Name, Type: f.Type, Col: i})
		v.row = append(v.row, sqltypes.Null)
	}
}

// compositeReturn is RETURN expr of a function returning a named
// composite type: a record variable's fields, or the expression's record
// converted to the type. ok is false for another function.
func (x *plExec) compositeReturn(expr string) (sqltypes.Value, bool, error) {
	want := x.fn.Result
	if !want.IsNamedComposite() {
		return sqltypes.Null, false, nil
	}
	if v, field := x.lookup(expr); v != nil && v.record && field == "" {
		if v.row == nil {
			return sqltypes.Null, true, nil
		}
		rec := sqltypes.NewRecordOf(append([]sqltypes.Value(nil), v.row...), planner.ColumnTypes(v.cols))
		out, err := x.convert(rec, sqltypes.AnonymousRecord(planner.ColumnNames(v.cols), planner.ColumnTypes(v.cols)), want)
		return out, true, err
	}
	val, t, err := x.eval(expr)
	if err != nil {
		return sqltypes.Null, true, err
	}
	out, err := x.convert(val, t, want)
	return out, true, err
}

// compositeFieldVars adds the fields of v, a variable of a named
// composite type (a parameter p addr), as variables qualified by its name,
// so p.street reads the field as PostgreSQL's PL/pgSQL resolves it.
func compositeFieldVars(v *plVar, vars []planner.Variable, vals []func() sqltypes.Value, sig func(qual, name string, t sqltypes.Type)) ([]planner.Variable, []func() sqltypes.Value) {
	if !v.typ.IsNamedComposite() {
		return vars, vals
	}
	for i, f := range v.typ.Composite.Fields {
		i := i
		vars = append(vars, planner.Variable{Name: f.Name, Qualifier: v.name, Type: f.Type, Field: true})
		vals = append(vals, func() sqltypes.Value {
			val := v.base().val // an alias reads its parameter's
			if val.IsNull() || val.K != sqltypes.KindArray {
				return sqltypes.Null
			}
			if elems := val.Array().Elems; i < len(elems) {
				return elems[i]
			}
			return sqltypes.Null
		})
		sig(v.name, f.Name, f.Type)
	}
	return vars, vals
}

// assignCompositeRow is SELECT ... INTO r of a variable of a composite
// type: the row's columns go to the type's fields in order, each cast to
// the field's type (missing ones NULL), the fields keeping their names.
func (x *plExec) assignCompositeRow(v *plVar, row []sqltypes.Value, cols []ir.Column) error {
	for i, c := range v.cols {
		val := sqltypes.Null
		if row != nil && i < len(row) {
			cv, err := x.convert(row[i], cols[i].Type, c.Type)
			if err != nil {
				return err
			}
			val = cv
		}
		v.row[i] = val
	}
	return nil
}
