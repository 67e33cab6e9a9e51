package planner

import (
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// tableFunc binds the function of a FROM item, its arguments already
// bound: a set-returning function yields its rows (the executor calls the
// overload's SetFunc), any other function one row holding its value, as
// PostgreSQL allows (FROM upper('x') AS u).
func (b *Binder) tableFunc(name string, args []Expr) (Rel, error) {
	defer b.srfAt(srfPlace{from: true})()
	e, err := b.bindFunc(name, args)
	if err != nil {
		return nil, err
	}
	if f, ok := e.(*fromSet); ok {
		tf := &TableFunc{Name: name, Args: f.args, Fn: f.res.Overload}
		for _, c := range f.res.ResultColumns(name) {
			tf.Cols = append(tf.Cols, Column{Name: c.Name, Type: c.Type, Col: -1})
		}
		return tf, nil
	}
	e = b.finishUnknown(e)
	return &Values{Rows: [][]Expr{{e}}, Cols: []Column{{Name: name, Type: e.Type(), Col: -1}}}, nil
}

// withOrdinality adds WITH ORDINALITY's bigint column counting the rows
// of a FROM function from 1.
func withOrdinality(r Rel) Rel {
	col := Column{Name: "ordinality", Type: sqltypes.TypeInt8, Col: -1}
	switch n := r.(type) {
	case *TableFunc:
		n.Ordinality = true
		n.Cols = append(n.Cols, col)
	case *Values:
		n.Rows[0] = append(n.Rows[0], &Const{V: sqltypes.NewInt(1), Typ: sqltypes.TypeInt8})
		n.Cols = append(n.Cols, col)
	}
	return r
}
