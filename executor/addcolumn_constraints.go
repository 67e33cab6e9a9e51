package executor

import (
	"context"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// alterWithColumnConstraints runs an ALTER TABLE whose ADD COLUMN actions
// carry column constraints: the actions first, then each constraint as ADD
// CONSTRAINT adds it (validated against the rows, which hold the new
// column's NULL or default). If a constraint fails, the constraints added
// before it and the columns the statement added go again, so the
// statement leaves nothing behind, as PostgreSQL's would.
func (e *Executor) alterWithColumnConstraints(ctx context.Context, cat *catalog.Catalog, at *ir.AlterTable, notice func(*pgerr.Error)) error {
	plain := *at
	plain.Constraints = nil
	before, err := e.currentTable(ctx, cat, at.Table)
	if err != nil {
		return e.AlterTable(ctx, cat, &plain, builtins.Context{}, notice) // it reports the missing table
	}
	if err := e.AlterTable(ctx, cat, &plain, builtins.Context{}, notice); err != nil {
		return err
	}
	var added []string
	for _, a := range at.Actions {
		if a.Kind == parser.AlterAddColumn && before.ColumnIndex(a.Column) < 0 {
			added = append(added, a.Column)
		}
	}
	for i, add := range at.Constraints {
		if err := e.addConstraint(ctx, cat, add, builtins.Context{}, notice); err != nil {
			e.undoColumnConstraints(context.WithoutCancel(ctx), cat, at.Table, at.Constraints[:i], added)
			return err
		}
	}
	return nil
}

// undoColumnConstraints removes the constraints done (newest first) and
// then the columns added.
func (e *Executor) undoColumnConstraints(ctx context.Context, cat *catalog.Catalog, table string, done []*ir.AddConstraint, added []string) {
	quiet := func(*pgerr.Error) {}
	for i := len(done) - 1; i >= 0; i-- {
		add := done[i]
		switch {
		case add.Unique != nil:
			_ = e.dropConstraint(ctx, cat, &ir.DropConstraint{Table: table, Name: add.Unique.Name, IfExists: true, Cascade: true}, quiet)
		case add.FK != nil:
			_ = e.dropConstraint(ctx, cat, &ir.DropConstraint{Table: table, Name: add.FK.Name, IfExists: true}, quiet)
			if add.AutoIndex != nil {
				_ = e.DropIndex(ctx, cat, &ir.DropIndex{Name: add.AutoIndex.Name, IfExists: true}, quiet)
			}
		case add.Check != nil:
			_ = e.dropConstraint(ctx, cat, &ir.DropConstraint{Table: table, Name: add.Check.Name, IfExists: true}, quiet)
		}
	}
	if len(added) == 0 {
		return
	}
	drop := &ir.AlterTable{Table: table}
	for _, c := range added {
		drop.Actions = append(drop.Actions, ir.AlterAction{AlterAction: parser.AlterAction{Kind: parser.AlterDropColumn, Column: c, IfExists: true, Cascade: true}})
	}
	_ = e.AlterTable(ctx, cat, drop, builtins.Context{}, quiet)
}
