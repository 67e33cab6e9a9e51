package planner

import (
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/ir"
)

// Writes to a view with INSTEAD OF triggers. An INSERT, UPDATE or DELETE
// on a view that has an INSTEAD OF row trigger for its event is bound
// against a stand-in table with the view's columns, in the view's order,
// whose descriptor carries the view's triggers and the view itself
// (catalog.Table.InsteadOf); an UPDATE's or DELETE's scan of the stand-in
// becomes the view's query. The executor then runs the triggers on each
// row instead of writing (executor/insteadof.go).

// insteadOfTarget returns the write through v when v has an INSTEAD OF
// trigger for the statement's event, else nil.
func (b *Binder) insteadOfTarget(v *catalog.View) *viewWrite {
	event := ""
	switch b.stmt.AST.(type) {
	case *ast.InsertStmt:
		event = "INSERT"
	case *ast.UpdateStmt:
		event = "UPDATE"
	case *ast.DeleteStmt:
		event = "DELETE"
	}
	if !v.InsteadOf(event) {
		return nil
	}
	stand := &catalog.Table{ID: v.ID, Name: v.Name, Owner: v.Owner, Triggers: v.Triggers, InsteadOf: v}
	w := &viewWrite{name: v.Name, base: stand, stand: stand, instead: v}
	for i, c := range v.Columns {
		stand.Columns = append(stand.Columns, catalog.Column{Name: c, Type: v.Types[i]})
		w.order = append(w.order, i)
	}
	return w
}

// finishInsteadOf completes a write bound against a view's INSTEAD OF
// stand-in: the target permission is the view's, and the scan of the
// stand-in becomes the view's rows.
func (b *Binder) finishInsteadOf(st ir.Statement, w *viewWrite) (ir.Statement, error) {
	if tp := w.perm; tp != nil {
		tp.Table, tp.View = nil, w.instead
	}
	var err error
	swap := func(r ir.Rel) ir.Rel {
		out, e := b.insteadScan(r, w)
		if e != nil {
			err = e
		}
		return out
	}
	switch s := st.(type) {
	case *ir.Insert:
		// The view has no unique keys: a conflict target fails to bind
		// (42P10), as in PostgreSQL, and DO NOTHING without one has
		// nothing to conflict with, so the trigger runs on every row.
		if s.OnConflict != nil && s.OnConflict.DoNothing {
			s.OnConflict = nil
		}
		if s.OnConflict != nil {
			return nil, unsupported("INSERT ... ON CONFLICT DO UPDATE on a view with INSTEAD OF triggers is not supported")
		}
	case *ir.Update:
		s.Source, s.Recheck = swap(s.Source), nil
	case *ir.Delete:
		s.Source, s.Recheck = swap(s.Source), nil
	}
	return st, err
}

// insteadScan replaces the scan of the stand-in in a write's source with
// the view's query.
func (b *Binder) insteadScan(r ir.Rel, w *viewWrite) (ir.Rel, error) {
	if n, ok := r.(*ir.Scan); ok {
		if n.Table != w.stand {
			return n, nil
		}
		return b.bindView(w.instead)
	}
	var err error
	out := ir.MapInputs(r, func(in ir.Rel) ir.Rel {
		x, e := b.insteadScan(in, w)
		if e != nil {
			err = e
		}
		return x
	})
	return out, err
}
