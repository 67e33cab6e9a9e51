package executor

import (
	"context"
	"slices"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/optimizer"
	"github.com/zproxy/zproxy/parser"
)

// Triggers. A table's triggers are in its descriptor (catalog.Trigger);
// the writes fire them through small hooks (fireBefore, fireAfter,
// fireStatement), each handing a TriggerCall to the session's routine
// runner (builtins.Routines), which runs the trigger function in the
// statement's transaction: the trigger's writes commit with the
// statement's, on both stores.

// TriggerCall is one firing of a trigger.
type TriggerCall struct {
	Trigger *catalog.Trigger
	Table   *catalog.Table
	// Event is INSERT, UPDATE, DELETE or TRUNCATE; Timing BEFORE, AFTER
	// or INSTEAD OF.
	Event, Timing string
	// New and Old are the row's new and old versions (ROW triggers).
	New, Old []sqltypes.Value
	// OldTable and NewTable are the statement's transition tables' rows,
	// when the trigger names them (REFERENCING).
	OldTable, NewTable [][]sqltypes.Value
	// Ctx is the context of a deferred constraint trigger's firing (at
	// COMMIT or SET CONSTRAINTS ... IMMEDIATE, after its statement ended,
	// with the write gate held); nil for one fired by its statement.
	Ctx context.Context
}

// ChangeTrigger applies a trigger statement to its table's descriptor.
func (e *Executor) ChangeTrigger(ctx context.Context, cat *catalog.Catalog, x *ir.TriggerChange, notice func(*pgerr.Error)) error {
	return updateWithNotices(ctx, cat, func(s *catalog.Snapshot, version uint64) (catalog.Change, []*pgerr.Error, error) {
		return triggerChange(s, version, x)
	}, notice)
}

func triggerChange(s *catalog.Snapshot, version uint64, x *ir.TriggerChange) (catalog.Change, []*pgerr.Error, error) {
	// The trigger's relation: a table, or a view.
	var (
		name string
		tgs  *[]*catalog.Trigger
		put  func() catalog.Change
		temp bool
	)
	if x.View {
		cur, ok := s.StoredView(x.Table)
		if !ok {
			return catalog.Change{}, nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", x.Table)
		}
		v := *cur
		v.Triggers = cloneTriggers(cur.Triggers)
		name, tgs = v.Name, &v.Triggers
		put = func() catalog.Change { return catalog.Change{PutViews: []*catalog.View{&v}} }
	} else {
		cur, err := s.Table(x.Table)
		if err != nil {
			return catalog.Change{}, nil, err
		}
		t := cur.Clone()
		name, tgs, temp = t.Name, &t.Triggers, t.Temp
		put = func() catalog.Change { return catalog.Change{Put: []*catalog.Table{t}} }
		if err := partitionTriggerChange(s, t, x); err != nil {
			return catalog.Change{}, nil, err
		}
	}
	tg, at := catalog.FindTrigger(*tgs, x.Name)
	switch x.Action {
	case parser.TriggerCreate:
		if x.Function == nil {
			return catalog.Change{}, nil, pgerr.New(pgerr.UndefinedFunction, "function %s() does not exist", x.TriggerStatement.Function)
		}
		// (A temporary table's catalog holds no functions: the binder
		// found the function in the session's whole schema.)
		if fn, ok := s.FunctionByOID(x.Function.OID); !temp && (!ok || !fn.Trigger) {
			return catalog.Change{}, nil, pgerr.New(pgerr.UndefinedFunction, "function %s() does not exist", x.TriggerStatement.Function)
		}
		nt := &catalog.Trigger{Name: x.Name, Function: x.Function.OID, Args: x.Args, Timing: x.Timing, Columns: x.Columns, Row: x.Row, When: x.When,
			OID: pgcatalog.ObjectOID(catalog.ObjectID(version, 0), 0), OldTable: x.OldTable, NewTable: x.NewTable,
			Constraint: x.Constraint, ConstrTable: x.ConstrTable, Deferrable: x.Deferrable, InitiallyDeferred: x.InitiallyDeferred}
		if x.Constraint {
			nt.ConstraintOID = pgcatalog.ObjectOID(catalog.ObjectID(version, 0), 1)
		}
		// pg_trigger's order of events: INSERT, DELETE, UPDATE, TRUNCATE.
		for _, ev := range []string{"INSERT", "DELETE", "UPDATE", "TRUNCATE"} {
			if slices.Contains(x.Events, ev) {
				nt.Events = append(nt.Events, ev)
			}
		}
		if tg != nil {
			if !x.Replace {
				return catalog.Change{}, nil, pgerr.New(pgerr.DuplicateObject, "trigger \"%s\" for relation \"%s\" already exists", x.Name, name)
			}
			if tg.Constraint {
				return catalog.Change{}, nil, pgerr.New(pgerr.DuplicateObject, "trigger \"%s\" for relation \"%s\" is a constraint trigger", x.Name, name)
			}
			nt.OID = tg.OID
			(*tgs)[at] = nt
		} else {
			*tgs = append(*tgs, nt)
		}
	case parser.TriggerDrop:
		if tg == nil {
			if x.MissingOK {
				return catalog.Change{}, []*pgerr.Error{pgerr.Notice("trigger \"%s\" for relation \"%s\" does not exist, skipping", x.Name, name)}, errSkip
			}
			return catalog.Change{}, nil, pgerr.New(pgerr.UndefinedObject, "trigger \"%s\" for table \"%s\" does not exist", x.Name, name)
		}
		*tgs = slices.Delete(*tgs, at, at+1)
	case parser.TriggerRename:
		if tg == nil {
			return catalog.Change{}, nil, pgerr.New(pgerr.UndefinedObject, "trigger \"%s\" for table \"%s\" does not exist", x.Name, name)
		}
		if other, _ := catalog.FindTrigger(*tgs, x.NewName); other != nil {
			return catalog.Change{}, nil, pgerr.New(pgerr.DuplicateObject, "trigger \"%s\" for relation \"%s\" already exists", x.NewName, name)
		}
		tg.Name = x.NewName
	case parser.TriggerEnable:
		if x.Name == "" {
			for _, g := range *tgs {
				g.Disabled = !x.Enable
			}
			break
		}
		if tg == nil {
			return catalog.Change{}, nil, pgerr.New(pgerr.UndefinedObject, "trigger \"%s\" for table \"%s\" does not exist", x.Name, name)
		}
		tg.Disabled = !x.Enable
	}
	return put(), nil, nil
}

// partitionTriggerChange applies to a partition tree what PostgreSQL's
// clones of a partitioned table's row triggers (catalog.ClonedTriggers)
// make of a trigger statement on t: a trigger's name is taken on a
// partition by the clones it has, and on a partitioned table by its
// partitions' own triggers (42710); ENABLE | DISABLE TRIGGER ALL | USER
// of a partition enables or disables its clones too (t.DisabledClones).
func partitionTriggerChange(s *catalog.Snapshot, t *catalog.Table, x *ir.TriggerChange) error {
	switch x.Action {
	case parser.TriggerCreate:
		if x.Row && (x.OldTable != "" || x.NewTable != "") {
			switch {
			case t.IsPartitioned():
				return pgerr.New(pgerr.FeatureNotSupported, "\"%s\" is a partitioned table", t.BareName()).
					WithDetail("ROW triggers with transition tables are not supported on partitioned tables.")
			case t.IsPartition():
				return pgerr.New(pgerr.FeatureNotSupported, "ROW triggers with transition tables are not supported on partitions")
			}
		}
		if tg, _ := catalog.FindTrigger(t.Triggers, x.Name); tg != nil {
			return nil // OR REPLACE of its own, or its 42710
		}
		if tg, _ := catalog.FindTrigger(s.ClonedTriggers(t), x.Name); tg != nil {
			return pgerr.New(pgerr.DuplicateObject, "trigger \"%s\" for relation \"%s\" already exists", x.Name, t.BareName())
		}
		if !x.Row || !t.IsPartitioned() {
			return nil
		}
		var walk func(p *catalog.Table) error
		walk = func(p *catalog.Table) error {
			for _, c := range s.Children(p) {
				if tg, _ := catalog.FindTrigger(c.Triggers, x.Name); tg != nil {
					return pgerr.New(pgerr.DuplicateObject, "trigger \"%s\" for relation \"%s\" already exists", x.Name, c.BareName())
				}
				if err := walk(c); err != nil {
					return err
				}
			}
			return nil
		}
		return walk(t)
	case parser.TriggerEnable:
		if x.Name != "" || !t.IsPartition() {
			return nil
		}
		t.DisabledClones = nil
		if !x.Enable {
			for _, tg := range s.ClonedTriggers(t) {
				t.DisabledClones = append(t.DisabledClones, tg.Name)
			}
		}
	}
	return nil
}

// cloneTriggers copies a relation's triggers for a change to them.
func cloneTriggers(tgs []*catalog.Trigger) []*catalog.Trigger {
	out := make([]*catalog.Trigger, len(tgs))
	for i, tg := range tgs {
		c := *tg
		out[i] = &c
	}
	return out
}

// fire runs one trigger; for a BEFORE ROW trigger it returns the row to
// write (nil: skip the row).
func (ec *execCtx) fire(tg *catalog.Trigger, t *catalog.Table, event, timing string, old, new []sqltypes.Value) ([]sqltypes.Value, error) {
	return ec.fireCall(&TriggerCall{Trigger: tg, Table: t, Event: event, Timing: timing, New: new, Old: old})
}

// fireCall runs one firing of a trigger (see fire).
func (ec *execCtx) fireCall(call *TriggerCall) ([]sqltypes.Value, error) {
	if ec.txn == nil {
		return nil, pgerr.New(pgerr.InternalError, "executor: trigger %s fired outside a transaction", call.Trigger.Name)
	}
	rows, err := builtins.RoutineCall(&ec.eval.Fn, call, nil)
	if err != nil {
		return nil, err
	}
	row, ok, err := rows.Next()
	if err != nil || !ok {
		return nil, err
	}
	return row, nil
}

// updateOf reports whether an UPDATE OF trigger's columns are among the
// ones set (set nil: any).
func updateOf(tg *catalog.Trigger, t *catalog.Table, set map[int]ir.Expr) bool {
	if len(tg.Columns) == 0 || set == nil {
		return true
	}
	for _, c := range tg.Columns {
		if _, ok := set[t.ColumnIndex(c)]; ok {
			return true
		}
	}
	return false
}

// fireBefore runs the BEFORE ROW triggers of event on a row, in name
// order: it returns the row to write (each trigger's result feeds the
// next) or nil to skip it.
func (ec *execCtx) fireBefore(t *catalog.Table, event string, set map[int]ir.Expr, old, new []sqltypes.Value) ([]sqltypes.Value, error) {
	return ec.fireRow(t, "BEFORE", event, set, old, new)
}

// fireRow runs the BEFORE or INSTEAD OF row triggers of event on a row,
// in name order: it returns the row the triggers leave (each trigger's
// result feeds the next) or nil when one returned NULL.
func (ec *execCtx) fireRow(t *catalog.Table, timing, event string, set map[int]ir.Expr, old, new []sqltypes.Value) ([]sqltypes.Value, error) {
	if len(t.Triggers) == 0 {
		if event == "DELETE" {
			return old, nil
		}
		return new, nil
	}
	row := new
	if event == "DELETE" {
		row = old
	}
	for _, tg := range sortedTriggers(t) {
		if !tg.Fires(timing, event, true) || event == "UPDATE" && !updateOf(tg, t, set) {
			continue
		}
		next := new
		if event != "DELETE" {
			next = row
		}
		out, err := ec.fire(tg, t, event, timing, old, next)
		if err != nil {
			return nil, err
		}
		if out == nil {
			return nil, nil
		}
		if event != "DELETE" {
			if err := ec.castRow(t, out); err != nil {
				return nil, err
			}
		}
		row = out[:len(t.Columns):len(t.Columns)]
	}
	return row, nil
}

// fireAfter runs the AFTER ROW triggers of event on the rows a statement
// changed, row by row and each row's triggers in name order (the order of
// PostgreSQL's after-trigger queue). A deferred constraint trigger waits
// for COMMIT in the transaction (deferTrigger).
func (ec *execCtx) fireAfter(t *catalog.Table, event string, set map[int]ir.Expr, changes []change) error {
	return ec.fireAfterOf(t, []string{event}, set, changes)
}

// fireAfterOf is fireAfter for changes of several events (INSERT ... ON
// CONFLICT DO UPDATE's inserts and updates): events[i] is changes[i]'s,
// or events[0] every change's; each event's transition tables hold its
// changes.
func (ec *execCtx) fireAfterOf(t *catalog.Table, events []string, set map[int]ir.Expr, changes []change) error {
	type fired struct {
		tgs              []*catalog.Trigger
		oldRows, newRows [][]sqltypes.Value
	}
	byEvent := map[string]*fired{}
	for _, event := range events {
		if byEvent[event] != nil {
			continue
		}
		f := &fired{}
		byEvent[event] = f
		for _, tg := range sortedTriggers(t) {
			if tg.Fires("AFTER", event, true) && (event != "UPDATE" || updateOf(tg, t, set)) {
				f.tgs = append(f.tgs, tg)
				if tg.OldTable != "" || tg.NewTable != "" {
					f.oldRows, f.newRows = transitionRows(changesOfEvent(changes, events, event))
				}
			}
		}
	}
	for i, c := range changes {
		event := events[0]
		if len(events) > 1 {
			event = events[i]
		}
		f := byEvent[event]
		for _, tg := range f.tgs {
			call := &TriggerCall{Trigger: tg, Table: t, Event: event, Timing: "AFTER", New: c.new, Old: c.old}
			withTransitions(call, f.oldRows, f.newRows)
			if tg.Constraint && ec.txn != nil && ec.txn.defersTrigger(tg) {
				ec.deferTrigger(call)
				continue
			}
			if _, err := ec.fireCall(call); err != nil {
				return err
			}
		}
	}
	return nil
}

// changesOfEvent are the changes of event (events as fireAfterOf's).
func changesOfEvent(changes []change, events []string, event string) []change {
	if len(events) == 1 {
		return changes
	}
	var out []change
	for i, c := range changes {
		if events[i] == event {
			out = append(out, c)
		}
	}
	return out
}

// afterUpsert fires INSERT ... ON CONFLICT's AFTER triggers: the row
// triggers of each row's event in row order, then the statement triggers,
// UPDATE's before INSERT's, as PostgreSQL fires them.
func (ec *execCtx) afterUpsert(t *catalog.Table, ins *optimizer.Insert, changes []change, events []string) error {
	var set map[int]ir.Expr
	if ins.OnConflict != nil {
		set = ins.OnConflict.Set
	}
	if len(changes) > 0 {
		if err := ec.fireAfterOf(t, events, set, changes); err != nil {
			return err
		}
	}
	return ec.afterUpsertStatement(t, ins, changes, events)
}

// afterUpsertStatement fires INSERT ... ON CONFLICT's AFTER STATEMENT
// triggers, UPDATE's before INSERT's.
func (ec *execCtx) afterUpsertStatement(t *catalog.Table, ins *optimizer.Insert, changes []change, events []string) error {
	if ins.OnConflict != nil && !ins.OnConflict.DoNothing {
		if err := ec.fireStatement(t, "UPDATE", "AFTER", changesOfEvent(changes, events, "UPDATE")...); err != nil {
			return err
		}
	}
	return ec.fireStatement(t, "INSERT", "AFTER", changesOfEvent(changes, events, "INSERT")...)
}

// hasTransitionTable reports whether an enabled trigger of the table for
// event has a transition table.
func hasTransitionTable(t *catalog.Table, event string) bool {
	for _, tg := range t.Triggers {
		if !tg.Disabled && tg.HasEvent(event) && (tg.OldTable != "" || tg.NewTable != "") {
			return true
		}
	}
	return false
}

// transitionRows are a statement's transition tables: the old and the
// new versions of the rows it changed.
func transitionRows(changes []change) (old, new [][]sqltypes.Value) {
	for _, c := range changes {
		if c.old != nil {
			old = append(old, c.old)
		}
		if c.new != nil {
			new = append(new, c.new)
		}
	}
	return old, new
}

// withTransitions gives a firing the transition tables its trigger names.
func withTransitions(call *TriggerCall, old, new [][]sqltypes.Value) {
	if call.Trigger.OldTable != "" {
		call.OldTable = nonNil(old)
	}
	if call.Trigger.NewTable != "" {
		call.NewTable = nonNil(new)
	}
}

func nonNil(rows [][]sqltypes.Value) [][]sqltypes.Value {
	if rows == nil {
		return [][]sqltypes.Value{}
	}
	return rows
}

// deferTrigger queues a deferred constraint trigger's firing in the
// transaction: it runs at COMMIT (or SET CONSTRAINTS ... IMMEDIATE) on
// the rows as they were when it was queued, as PostgreSQL's deferred
// after-trigger events do.
func (ec *execCtx) deferTrigger(call *TriggerCall) {
	ec.txn.deferConstraint(call.Trigger.Name, func(ctx context.Context) error {
		c := *call
		c.Ctx = ctx
		_, err := ec.fireCall(&c)
		return err
	})
}

// fireStatement runs the FOR EACH STATEMENT triggers of event at timing;
// changes are an AFTER statement's rows (its transition tables).
func (ec *execCtx) fireStatement(t *catalog.Table, event, timing string, changes ...change) error {
	if ec.inHeir {
		return nil
	}
	if timing == "AFTER" && ec.deferStatementToActions(t, event, changes) {
		return nil
	}
	if ec.stmtFired == nil {
		ec.stmtFired = map[stmtTrigger]bool{}
	}
	ec.stmtFired[stmtTrigger{table: t.ID, event: event, timing: timing}] = true
	if ec.merging != nil && ec.merging.ID == t.ID {
		if timing == "AFTER" {
			ec.mergeChanges[event] = append(ec.mergeChanges[event], changes...)
		}
		return nil
	}
	var oldRows, newRows [][]sqltypes.Value
	done := false
	for _, tg := range sortedTriggers(t) {
		if !tg.Fires(timing, event, false) {
			continue
		}
		call := &TriggerCall{Trigger: tg, Table: t, Event: event, Timing: timing}
		if (tg.OldTable != "" || tg.NewTable != "") && !done {
			oldRows, newRows = transitionRows(changes)
			done = true
		}
		withTransitions(call, oldRows, newRows)
		if _, err := ec.fireCall(call); err != nil {
			return err
		}
	}
	return nil
}

// sortedTriggers are the table's triggers in name order, the order
// PostgreSQL fires triggers of one kind in.
func sortedTriggers(t *catalog.Table) []*catalog.Trigger {
	if len(t.Triggers) < 2 {
		return t.Triggers
	}
	out := slices.Clone(t.Triggers)
	slices.SortFunc(out, func(a, b *catalog.Trigger) int {
		switch {
		case a.Name < b.Name:
			return -1
		case a.Name > b.Name:
			return 1
		}
		return 0
	})
	return out
}

// beforeStatement fires a write's BEFORE STATEMENT triggers (INSERT ...
// ON CONFLICT DO UPDATE's: INSERT's, then UPDATE's).
func (ec *execCtx) beforeStatement(t *catalog.Table, event string, doUpdate bool) error {
	if len(t.Triggers) == 0 {
		return nil
	}
	if err := ec.fireStatement(t, event, "BEFORE"); err != nil || !doUpdate {
		return err
	}
	return ec.fireStatement(t, "UPDATE", "BEFORE")
}

// changesOf are inserted rows as changes.
func changesOf(rows [][]sqltypes.Value) []change {
	changes := make([]change, len(rows))
	for i, r := range rows {
		changes[i] = change{new: r}
	}
	return changes
}

// afterInsert fires an INSERT's AFTER ROW and AFTER STATEMENT triggers
// (of a leaf of the partitioned table the statement writes, none: the
// statement fires them, fireLeafAfter).
func (ec *execCtx) afterInsert(t *catalog.Table, rows [][]sqltypes.Value) error {
	if len(t.Triggers) == 0 || ec.routedLeaf(t) {
		return nil
	}
	changes := changesOf(rows)
	if err := ec.fireAfter(t, "INSERT", nil, changes); err != nil {
		return err
	}
	return ec.fireStatement(t, "INSERT", "AFTER", changes...)
}

// afterModify fires an UPDATE's or DELETE's AFTER ROW triggers on the
// rows it changed (ec.changed) and its AFTER STATEMENT triggers.
func (ec *execCtx) afterModify(t *catalog.Table, event string, set map[int]ir.Expr, res WriteResult, err error) (WriteResult, error) {
	changed, evs := ec.changed, ec.leafEvents
	ec.changed, ec.leafEvents = nil, nil
	if err != nil {
		return res, err
	}
	if ps := ec.cons.PartitionsOf(); ps != nil && ps.Root.ID == t.ID {
		// The rows changed in the leaves fire the leaves' row triggers.
		if err := ec.fireLeafAfter(evs, set); err != nil {
			return WriteResult{}, err
		}
	} else if len(t.Triggers) == 0 {
		return res, nil
	} else if err := ec.fireAfter(t, event, set, changed); err != nil {
		return WriteResult{}, err
	}
	if err := ec.fireStatement(t, event, "AFTER", changed...); err != nil {
		return WriteResult{}, err
	}
	return res, nil
}

// FireTruncate fires the FOR EACH STATEMENT TRUNCATE triggers at timing
// (BEFORE, AFTER) of the tables TRUNCATE empties (named, and with cascade
// those referencing them, as Truncate finds them in snapshot s), in the
// transaction opts.Txn.
func (e *Executor) FireTruncate(ctx context.Context, s *catalog.Snapshot, named []*catalog.Table, cascade bool, timing string, opts RunOptions) error {
	tables, err := TruncatedTables(s, named, cascade)
	if err != nil {
		return err
	}
	ec := e.newExecCtx(ctx, nil, opts)
	defer ec.finish()
	for _, t := range tables {
		if err := ec.fireStatement(t, "TRUNCATE", timing); err != nil {
			return err
		}
	}
	return nil
}

// TruncatedTables are the tables TRUNCATE empties: those named, and with
// cascade those referencing them, in the order PostgreSQL lists them.
func TruncatedTables(s *catalog.Snapshot, named []*catalog.Table, cascade bool) ([]*catalog.Table, error) {
	return truncatedWith(s, named, cascade)
}

// upsertBefore fires a proposed row's BEFORE INSERT triggers for INSERT
// ... ON CONFLICT and reads the rows its arbiter keys meet into cur (rows
// the statement recorded there win); it returns the row to decide, or
// nil when a trigger skipped it.
func (ec *execCtx) upsertBefore(ctx context.Context, arb *arbiters, cur map[string]current, row []sqltypes.Value, stats *kv.Stats) ([]sqltypes.Value, error) {
	var err error
	if ps := ec.cons.PartitionsOf(); ps != nil && ec.routedLeaf(arb.t) {
		row, err = ec.fireLeafBefore(ps, arb.t, "INSERT", nil, nil, row)
	} else {
		row, err = ec.fireBefore(arb.t, "INSERT", nil, nil, row)
	}
	if err != nil || row == nil {
		return nil, err
	}
	if err := ec.checkConstraints(arb.t, row); err != nil {
		return nil, err
	}
	read, err := ec.readArbiters(ctx, arb, [][]sqltypes.Value{row}, stats)
	if err != nil {
		return nil, err
	}
	for k, c := range read {
		if _, ok := cur[k]; !ok {
			cur[k] = c
		}
	}
	return row, nil
}

// Row triggers of a partitioned table fire, as PostgreSQL's, in the leaf
// each row is routed to (its clones there, catalog.ClonedTriggers, which
// the write's partition set carries): a BEFORE ROW trigger after the row
// is routed, with the leaf as TG_TABLE_NAME, and an UPDATE that moves a
// row fires DELETE's triggers in the leaf it leaves and INSERT's in the
// one it enters. The partitioned table's statement triggers fire around
// the statement, and the leaves' own statement triggers not at all.

// leafEvent is one change a write through a partitioned table made in
// one of its leaves: event is the change's, from its input row (for the
// order of the AFTER ROW triggers).
type leafEvent struct {
	leaf  *catalog.Table
	event string
	c     change
	from  int
}

// routedLeaf reports whether t is a member of the partitioned table the
// statement writes, written because the statement's rows route to it.
func (ec *execCtx) routedLeaf(t *catalog.Table) bool {
	ps := ec.cons.PartitionsOf()
	if ps == nil || ps.Root.ID == t.ID {
		return false
	}
	return slices.ContainsFunc(ps.Members, func(m *catalog.Table) bool { return m.ID == t.ID })
}

// fireLeafBefore runs the BEFORE ROW triggers of leaf, a row's partition
// in ps, on the row; the row they leave must still belong to the leaf
// (PostgreSQL's partition check after them, 23514).
func (ec *execCtx) fireLeafBefore(ps *catalog.PartitionSet, leaf *catalog.Table, event string, set map[int]ir.Expr, old, new []sqltypes.Value) ([]sqltypes.Value, error) {
	row, err := ec.fireBefore(leaf, event, set, old, new)
	if err != nil || row == nil || event == "DELETE" || len(leaf.Triggers) == 0 {
		return row, err
	}
	if !ps.Holds(leaf, row) {
		return nil, partitionViolation(leaf, row)
	}
	return row, nil
}

// fireLeafAfter runs the AFTER ROW triggers of the changes a write made
// in the leaves of a partitioned table, in the order of evs, ordered as
// the statement's rows (PostgreSQL's after-trigger queue).
func (ec *execCtx) fireLeafAfter(evs []leafEvent, set map[int]ir.Expr) error {
	for _, e := range evs {
		if len(e.leaf.Triggers) == 0 {
			continue
		}
		if err := ec.fireAfter(e.leaf, e.event, set, []change{e.c}); err != nil {
			return err
		}
	}
	return nil
}

// leafChanges are the changes of evs of event (any: "").
func leafChanges(evs []leafEvent, event string) []change {
	var out []change
	for _, e := range evs {
		if event == "" || e.event == event {
			out = append(out, e.c)
		}
	}
	return out
}
