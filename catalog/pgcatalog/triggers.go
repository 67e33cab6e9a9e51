package pgcatalog

import (
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Triggers in the catalogs: pg_trigger's rows and pg_get_triggerdef, as
// PostgreSQL 15 shows them.

// pg_trigger.tgtype's bits.
const (
	tgRow      = 1 << 0
	tgBefore   = 1 << 1
	tgInsert   = 1 << 2
	tgDelete   = 1 << 3
	tgUpdate   = 1 << 4
	tgTruncate = 1 << 5
	tgInstead  = 1 << 6
)

// triggerRel is a relation with triggers: a table or a view.
type triggerRel struct {
	oid      uint32
	name     string // its catalog name ("schema.name" outside public)
	triggers []*catalog.Trigger
	table    *catalog.Table // nil for a view
}

// triggerRels are the snapshot's relations that have triggers.
func triggerRels(snap *catalog.Snapshot) []triggerRel {
	var out []triggerRel
	for _, t := range snap.Tables() {
		// A partition's clones of its partitioned tables' row triggers
		// are pg_trigger rows of its own, as in PostgreSQL.
		if t = snap.WithClonedTriggers(t); len(t.Triggers) > 0 {
			out = append(out, triggerRel{oid: ObjectOID(t.ID, 0), name: t.Name, triggers: t.Triggers, table: t})
		}
	}
	for _, v := range snap.Views() {
		if len(v.Triggers) > 0 {
			out = append(out, triggerRel{oid: ObjectOID(v.ID, 0), name: v.Name, triggers: v.Triggers})
		}
	}
	return out
}

// relationOID is the OID of the table or view of that name (0: none).
func relationOID(snap *catalog.Snapshot, name string) uint32 {
	if t, err := snap.Table(name); err == nil {
		return ObjectOID(t.ID, 0)
	}
	if v, ok := snap.StoredView(name); ok {
		return ObjectOID(v.ID, 0)
	}
	return 0
}

func init() {
	generate("pg_catalog.pg_trigger", func(e *Env) []row {
		if e.Snap == nil {
			return nil
		}
		var out []row
		for _, rel := range triggerRels(e.Snap) {
			for _, tg := range rel.triggers {
				var attnums []int64
				if t := rel.table; t != nil {
					for _, c := range tg.Columns {
						if i := t.ColumnIndex(c); i >= 0 {
							attnums = append(attnums, int64(attnum(t, i)))
						}
					}
				}
				var args []byte
				for _, a := range tg.Args {
					args = append(append(args, a...), 0)
				}
				enabled := byte('O')
				if tg.Disabled {
					enabled = 'D'
				}
				var constrRel uint32
				if tg.ConstrTable != "" {
					constrRel = relationOID(e.Snap, tg.ConstrTable)
				}
				r := &pgTriggerRow{Oid: oidV(tg.OID), Tgrelid: oidV(rel.oid), Tgparentid: oidV(tg.ParentOID), Tgname: nameV(tg.Name),
					Tgfoid: oidV(tg.Function), Tgtype: intV(int64(triggerType(tg))), Tgenabled: charV(enabled), Tgisinternal: boolV(false),
					Tgconstrrelid: oidV(constrRel), Tgconstrindid: oidV(0), Tgconstraint: oidV(tg.ConstraintOID), Tgdeferrable: boolV(tg.Deferrable),
					Tginitdeferred: boolV(tg.InitiallyDeferred), Tgnargs: intV(int64(len(tg.Args))), Tgattr: vector(sqltypes.TypeInt2Vector, attnums),
					Tgargs: sqltypes.NewBytes(args), Tgqual: sqltypes.Null, Tgoldtable: sqltypes.Null, Tgnewtable: sqltypes.Null}
				if tg.When != "" {
					r.Tgqual = textV(tg.When)
				}
				if tg.OldTable != "" {
					r.Tgoldtable = nameV(tg.OldTable)
				}
				if tg.NewTable != "" {
					r.Tgnewtable = nameV(tg.NewTable)
				}
				out = append(out, r)
			}
		}
		return out
	})
}

// triggerType is pg_trigger.tgtype.
func triggerType(tg *catalog.Trigger) int {
	n := 0
	if tg.Row {
		n |= tgRow
	}
	switch tg.Timing {
	case "BEFORE":
		n |= tgBefore
	case "INSTEAD OF":
		n |= tgInstead
	}
	for _, e := range tg.Events {
		n |= map[string]int{"INSERT": tgInsert, "DELETE": tgDelete, "UPDATE": tgUpdate, "TRUNCATE": tgTruncate}[e]
	}
	return n
}

// qualifiedName is a relation's name as pg_get_triggerdef prints it:
// schema-qualified when qualified is set or it is outside public.
func qualifiedName(name string, qualified bool) string {
	sc, n := catalog.SplitName(name)
	if qualified || sc != catalog.PublicSchema {
		return sqltypes.QuoteIdent(sc) + "." + sqltypes.QuoteIdent(n)
	}
	return sqltypes.QuoteIdent(n)
}

// triggerDef is pg_get_triggerdef of the trigger of that OID (pretty:
// its relation unqualified), as ruleutils.c's pg_get_triggerdef_worker
// prints it.
func (e *Env) triggerDef(oid uint32, pretty bool) (string, bool) {
	if e == nil || e.Snap == nil {
		return "", false
	}
	for _, rel := range triggerRels(e.Snap) {
		for _, tg := range rel.triggers {
			if tg.OID != oid {
				continue
			}
			var sb strings.Builder
			sb.WriteString("CREATE ")
			if tg.Constraint {
				sb.WriteString("CONSTRAINT ")
			}
			sb.WriteString("TRIGGER " + sqltypes.QuoteIdent(tg.Name) + " " + tg.Timing + " ")
			for i, ev := range tg.Events {
				if i > 0 {
					sb.WriteString(" OR ")
				}
				sb.WriteString(ev)
				if ev == "UPDATE" && len(tg.Columns) > 0 {
					cols := make([]string, len(tg.Columns))
					for j, c := range tg.Columns {
						cols[j] = sqltypes.QuoteIdent(c)
					}
					sb.WriteString(" OF " + strings.Join(cols, ", "))
				}
			}
			sb.WriteString(" ON " + qualifiedName(rel.name, !pretty) + " ")
			if tg.Constraint {
				if tg.ConstrTable != "" {
					sb.WriteString("FROM " + qualifiedName(tg.ConstrTable, false) + " ")
				}
				if !tg.Deferrable {
					sb.WriteString("NOT ")
				}
				sb.WriteString("DEFERRABLE INITIALLY ")
				if tg.InitiallyDeferred {
					sb.WriteString("DEFERRED ")
				} else {
					sb.WriteString("IMMEDIATE ")
				}
			}
			if tg.OldTable != "" || tg.NewTable != "" {
				sb.WriteString("REFERENCING ")
				if tg.OldTable != "" {
					sb.WriteString("OLD TABLE AS " + sqltypes.QuoteIdent(tg.OldTable) + " ")
				}
				if tg.NewTable != "" {
					sb.WriteString("NEW TABLE AS " + sqltypes.QuoteIdent(tg.NewTable) + " ")
				}
			}
			sb.WriteString("FOR EACH ")
			if tg.Row {
				sb.WriteString("ROW ")
			} else {
				sb.WriteString("STATEMENT ")
			}
			if tg.When != "" {
				if pretty {
					sb.WriteString("WHEN (" + tg.When + ") ")
				} else {
					sb.WriteString("WHEN ((" + tg.When + ")) ")
				}
			}
			name := "???"
			if f, ok := e.Snap.FunctionByOID(tg.Function); ok {
				name = e.functionName(f)
			}
			args := make([]string, len(tg.Args))
			for i, a := range tg.Args {
				args[i] = "'" + strings.ReplaceAll(a, "'", "''") + "'"
			}
			sb.WriteString("EXECUTE FUNCTION " + name + "(" + strings.Join(args, ", ") + ")")
			return sb.String(), true
		}
	}
	return "", false
}

// triggerConstraintRows are the pg_constraint rows (contype 't') of a
// table's constraint triggers.
func triggerConstraintRows(t *catalog.Table, rel uint32) []row {
	var out []row
	for _, tg := range t.Triggers {
		if tg.Constraint {
			r := constraintRow(tg.ConstraintOID, tg.Name, 't', rel, 0, nil, "")
			r.Condeferrable, r.Condeferred, r.Connoinherit = boolV(tg.Deferrable), boolV(tg.InitiallyDeferred), boolV(true)
			out = append(out, r)
		}
	}
	return out
}

// triggerConstraintDef is pg_get_constraintdef of a constraint trigger's
// constraint.
func (e *Env) triggerConstraintDef(oid uint32) (string, bool) {
	if e == nil || e.Snap == nil {
		return "", false
	}
	for _, t := range e.Snap.Tables() {
		for _, tg := range t.Triggers {
			if tg.Constraint && tg.ConstraintOID == oid {
				switch {
				case tg.InitiallyDeferred:
					return "TRIGGER DEFERRABLE INITIALLY DEFERRED", true
				case tg.Deferrable:
					return "TRIGGER DEFERRABLE", true
				}
				return "TRIGGER", true
			}
		}
	}
	return "", false
}
