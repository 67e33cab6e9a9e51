package planner

import (
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// Column constraints of ALTER TABLE ... ADD COLUMN (UNIQUE, REFERENCES,
// CHECK after the column's type). The column is added first, as any ADD
// COLUMN is; then each constraint is added as ALTER TABLE ... ADD
// CONSTRAINT would add it, validating the rows the column now has (NULL
// or its default); if one fails, the statement's columns and constraints
// are removed again (executor.AlterTable).

// isColumnConstraint reports whether a column option of ADD COLUMN is a
// constraint bound by columnConstraints rather than part of the column.
func isColumnConstraint(opt *ast.ColumnOption) bool {
	switch opt.Tp {
	case ast.ColumnOptionUniqKey, ast.ColumnOptionReference, ast.ColumnOptionCheck:
		return true
	}
	return false
}

// columnConstraints binds the column constraints of at's ADD COLUMN
// actions against t with the new columns appended (their ordinals once
// added), named as PostgreSQL names them.
func (b *Binder) columnConstraints(t *catalog.Table, at *ir.AlterTable) ([]*ir.AddConstraint, error) {
	nt := t.Clone()
	var adds []*ir.AddConstraint
	for _, a := range at.Actions {
		if a.Kind != parser.AlterAddColumn || a.NewColumn == nil || nt.ColumnIndex(a.Column) >= 0 {
			continue // a column already there: the executor skips or refuses it
		}
		nt.Columns = append(nt.Columns, *a.NewColumn)
		sub := &Binder{snap: b.snap, stmt: &parser.Statement{Columns: map[string]*parser.ColumnExtras{}, Constraints: a.ColumnConstraints}}
		if a.Extras != nil {
			sub.stmt.Columns[a.Column] = a.Extras
			for _, c := range a.Extras.Checks {
				// (At no offset: PostgreSQL's ALTER TABLE gives the check's
				// errors no position.)
				ch, e, err := sub.newCheck(nt, parser.NamedCheck{Name: c.Name, SQL: c.SQL})
				if err != nil {
					return nil, err
				}
				nt.Checks = append(nt.Checks, ch)
				adds = append(adds, &ir.AddConstraint{Table: t.Name, Check: &ch, CheckExpr: e})
			}
		}
		cb := &constraintBuilder{b: sub, t: nt}
		for _, opt := range a.ColumnDef.Options {
			cb.column(a.Column, opt)
		}
		for _, u := range cb.unique {
			ix, err := sub.uniqueIndex(nt, u.name, u.cols, u.nnd, u.deferral)
			if err != nil {
				return nil, err
			}
			nt.Indexes = append(nt.Indexes, ix)
			adds = append(adds, &ir.AddConstraint{Table: t.Name, Unique: ix})
		}
		for _, f := range cb.fks {
			fk, err := sub.newForeignKey(nt, f.name, f.cols, f.ref)
			if err != nil {
				return nil, err
			}
			setDeferral(fk, f.deferral)
			add := &ir.AddConstraint{Table: t.Name, FK: fk, AutoIndex: sub.referencingIndex(nt, fk)}
			nt.ForeignKeys = append(nt.ForeignKeys, *fk)
			if add.AutoIndex != nil {
				nt.Indexes = append(nt.Indexes, add.AutoIndex)
			}
			adds = append(adds, add)
		}
	}
	return adds, nil
}
