package pgcatalog

import (
	"slices"

	"github.com/zproxy/zproxy/catalog"
	. "github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// ViewUpdatability reports whether view v is automatically updatable as
// PostgreSQL's view_query_is_auto_updatable decides, the relation it
// writes through (a *catalog.Table or *catalog.View), and for each view
// column the index of the source column it shows (-1 for an expression).
// Package planner sets it (it parses the view's query); nil leaves every
// view not automatically updatable.
var ViewUpdatability func(snap *catalog.Snapshot, v *catalog.View) (base any, cols []int, ok bool)

// The events pg_relation_is_updatable reports, as 1 << CmdType.
const (
	eventUpdate = 1 << 2
	eventInsert = 1 << 3
	eventDelete = 1 << 4
	allEvents   = eventUpdate | eventInsert | eventDelete
)

// insteadEvents are the events view v has INSTEAD OF row triggers for
// (zproxy has no rules, PostgreSQL's other way to make a view writable).
func insteadEvents(v *catalog.View) int {
	events := 0
	for _, t := range v.Triggers {
		if t.Timing != "INSTEAD OF" || !t.Row {
			continue
		}
		for _, ev := range t.Events {
			switch ev {
			case "INSERT":
				events |= eventInsert
			case "UPDATE":
				events |= eventUpdate
			case "DELETE":
				events |= eventDelete
			}
		}
	}
	return events
}

// relationUpdatable is PostgreSQL 15's relation_is_updatable: the events
// relation o supports, through INSTEAD OF triggers (with triggers) or as
// an automatically updatable view, limited to the view columns in include
// (0-based; nil: all). outer are the views being checked around it.
func (e *Env) relationUpdatable(o *object, outer []uint32, triggers bool, include []int) int {
	switch {
	case o == nil || slices.Contains(outer, o.oid):
		return 0
	case o.isTable() && o.table != nil && !o.table.IsMatview():
		return allEvents
	case o.view == nil:
		return 0
	}
	events := 0
	if triggers {
		events = insteadEvents(o.view)
	}
	if events == allEvents || ViewUpdatability == nil || e.Snap == nil {
		return events
	}
	base, cols, ok := ViewUpdatability(e.Snap, o.view)
	if !ok {
		return events
	}
	var updatable []int // the base's columns behind the updatable view columns asked about
	for i, c := range cols {
		if c >= 0 && (include == nil || slices.Contains(include, i)) {
			updatable = append(updatable, c)
		}
	}
	auto := allEvents
	if len(updatable) == 0 {
		auto = eventDelete // no column to insert or update: DELETE may still go through
	}
	if v, ok := base.(*catalog.View); ok {
		// A view over a view: the inner one must support them too, for
		// the columns this one writes.
		auto &= e.relationUpdatable(e.objects().byOID[ObjectOID(v.ID, 0)], append(outer, o.oid), triggers, updatable)
	}
	return events | auto
}

func registerUpdatable() {
	Register("pg_relation_is_updatable", fn("", []Param{T(sqltypes.TypeRegClass), boolP}, sqltypes.TypeInt4, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		e, err := needEnv(ctx)
		if err != nil {
			return sqltypes.Null, err
		}
		return intV(int64(e.relationUpdatable(e.objects().byOID[uint32(a[0].I)], nil, a[1].Bool(), nil))), nil
	}))
	Register("pg_column_is_updatable", fn("", []Param{T(sqltypes.TypeRegClass), int2P, boolP}, sqltypes.TypeBool, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		e, err := needEnv(ctx)
		if err != nil {
			return sqltypes.Null, err
		}
		if a[1].I <= 0 {
			return boolV(false), nil // system columns are never updatable
		}
		return boolV(e.columnUpdatable(e.objects().byOID[uint32(a[0].I)], int(a[1].I), a[2].Bool())), nil
	}))
}

// columnUpdatable is pg_column_is_updatable: the relation supports UPDATE
// and DELETE for column attnum.
func (e *Env) columnUpdatable(o *object, attnum int, triggers bool) bool {
	const required = eventUpdate | eventDelete
	return e.relationUpdatable(o, nil, triggers, []int{attnum - 1})&required == required
}
