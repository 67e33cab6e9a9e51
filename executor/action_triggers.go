package executor

import (
	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// Triggers of the rows referential actions change. PostgreSQL runs an ON
// DELETE CASCADE, SET NULL or SET DEFAULT (and ON UPDATE's) as a query on
// the referencing table for each referenced row that goes (or changes its
// key), whether or not any row references it, so that table's triggers
// fire for the rows the query deletes or updates: its BEFORE STATEMENT
// triggers once a statement (before_stmt_triggers_fired), its BEFORE ROW
// triggers as each row is changed (one returning NULL leaves that row
// alone), and its AFTER ROW and AFTER STATEMENT triggers from the
// after-trigger queue of the statement that caused the action, behind
// that statement's own (the action's query does not fire them itself):
// the query's rows, then its statement event, which a later query of the
// same table and event moves behind its own rows
// (cancel_prior_stmt_triggers), so that it fires once, last, with every
// row in its transition tables. applyAction fires the BEFORE ones and
// queues the AFTER ones in execCtx.actionEvents; the write that caused
// them fires the queue when its own AFTER triggers are done
// (fireActionEvents).

// stmtTrigger names the statement triggers of one table, event and
// timing.
type stmtTrigger struct {
	table         uint64
	event, timing string
}

// actionEvent is one entry of the queue of AFTER triggers that referential
// actions left: a row an action changed, for the AFTER ROW triggers of
// its table (leaf: the partition holding it, when the referencing table
// is partitioned), or, with stmt set, the AFTER STATEMENT triggers of a
// referencing table and event (a moved entry is left with neither).
type actionEvent struct {
	leaf  *catalog.Table
	event string
	set   map[int]ir.Expr
	c     change
	stmt  *actionStmt
}

// actionStmt is a referencing table's AFTER STATEMENT firing for an
// action's event, with the rows of every action of the statement on it.
type actionStmt struct {
	root    *catalog.Table
	event   string
	changes []change
	at      int // its entry in the queue
}

// actionBeforeStatement fires the referencing table's BEFORE STATEMENT
// triggers for an action's event, unless the statement has fired them.
func (ec *execCtx) actionBeforeStatement(root *catalog.Table, event string) error {
	if len(root.Triggers) == 0 || ec.stmtFired[stmtTrigger{table: root.ID, event: event, timing: "BEFORE"}] {
		return nil
	}
	return ec.fireStatement(root, event, "BEFORE")
}

// queueActionRow queues the AFTER ROW triggers' event of a row an action
// changed in leaf, when leaf has triggers.
func (ec *execCtx) queueActionRow(leaf *catalog.Table, event string, set map[int]ir.Expr, c change) {
	if len(leaf.Triggers) > 0 {
		ec.actionEvents = append(ec.actionEvents, actionEvent{leaf: leaf, event: event, set: set, c: c})
	}
}

// queueActionStatement queues, or moves to the end of the queue, the
// referencing table's AFTER STATEMENT event for one action's query,
// adding the rows it changed.
func (ec *execCtx) queueActionStatement(root *catalog.Table, event string, changes []change) {
	if len(root.Triggers) == 0 {
		return
	}
	k := stmtTrigger{table: root.ID, event: event, timing: "AFTER"}
	st := ec.actionStmts[k]
	if st == nil {
		if ec.actionStmts == nil {
			ec.actionStmts = map[stmtTrigger]*actionStmt{}
		}
		st = &actionStmt{root: root, event: event}
		ec.actionStmts[k] = st
	} else {
		ec.actionEvents[st.at].stmt = nil
	}
	st.changes = append(st.changes, changes...)
	st.at = len(ec.actionEvents)
	ec.actionEvents = append(ec.actionEvents, actionEvent{stmt: st})
}

// deferStatementToActions reports whether t's AFTER STATEMENT triggers
// for event must wait for the queued statement event of referential
// actions on t with that event (a table referencing itself), giving it
// changes, ahead of the actions' rows: PostgreSQL fires them once, after
// the last of those rows, with every row in the transition tables.
func (ec *execCtx) deferStatementToActions(t *catalog.Table, event string, changes []change) bool {
	st := ec.actionStmts[stmtTrigger{table: t.ID, event: event, timing: "AFTER"}]
	if st == nil {
		return false
	}
	st.changes = append(append([]change(nil), changes...), st.changes...)
	return true
}

// fireActionEvents fires the queue of AFTER triggers referential actions
// left, in order: each row's AFTER ROW triggers, each statement event's
// AFTER STATEMENT triggers, unless the statement fired those itself.
func (ec *execCtx) fireActionEvents() error {
	events := ec.actionEvents
	ec.actionEvents, ec.actionStmts = nil, nil
	for _, e := range events {
		switch {
		case e.stmt != nil:
			st := e.stmt
			if ec.stmtFired[stmtTrigger{table: st.root.ID, event: st.event, timing: "AFTER"}] {
				continue
			}
			if err := ec.fireStatement(st.root, st.event, "AFTER", st.changes...); err != nil {
				return err
			}
		case e.leaf != nil:
			if err := ec.fireAfter(e.leaf, e.event, e.set, []change{e.c}); err != nil {
				return err
			}
		}
	}
	return nil
}

// fkColumnsSet is the SET of an action's UPDATE of the referencing
// columns, for UPDATE OF triggers.
func fkColumnsSet(fk *catalog.ForeignKey) map[int]ir.Expr {
	set := make(map[int]ir.Expr, len(fk.Columns))
	for _, c := range fk.Columns {
		set[c] = nil
	}
	return set
}

// actionEventOf is the event of an action's query on the referencing
// table: a DELETE for ON DELETE CASCADE (newParent nil), else an UPDATE.
func actionEventOf(action catalog.FKAction, newParent []sqltypes.Value) string {
	if action == catalog.Cascade && newParent == nil {
		return "DELETE"
	}
	return "UPDATE"
}
