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

func init() {
	generate("pg_catalog.pg_trigger", func(e *Env) []row {
		if e.Snap == nil {
			return nil
		}
		var out []row
		for _, t := range e.Snap.Tables() {
			for _, tg := range t.Triggers {
				var attnums []int64
				for _, c := range tg.Columns {
					if i := t.ColumnIndex(c); i >= 0 {
						attnums = append(attnums, int64(attnum(t, i)))
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
				r := &pgTriggerRow{Oid: oidV(tg.OID), Tgrelid: oidV(ObjectOID(t.ID, 0)), Tgparentid: oidV(0), Tgname: nameV(tg.Name),
					Tgfoid: oidV(tg.Function), Tgtype: intV(int64(triggerType(tg))), Tgenabled: charV(enabled), Tgisinternal: boolV(false),
					Tgconstrrelid: oidV(0), Tgconstrindid: oidV(0), Tgconstraint: oidV(0), Tgdeferrable: boolV(false), Tginitdeferred: boolV(false),
					Tgnargs: intV(int64(len(tg.Args))), Tgattr: vector(sqltypes.TypeInt2Vector, attnums), Tgargs: sqltypes.NewBytes(args),
					Tgqual: sqltypes.Null, Tgoldtable: sqltypes.Null, Tgnewtable: sqltypes.Null}
				if tg.When != "" {
					r.Tgqual = textV(tg.When)
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

// triggerDef is pg_get_triggerdef of the trigger of that OID (pretty:
// its table unqualified).
func (e *Env) triggerDef(oid uint32, pretty bool) (string, bool) {
	if e == nil || e.Snap == nil {
		return "", false
	}
	for _, t := range e.Snap.Tables() {
		for _, tg := range t.Triggers {
			if tg.OID != oid {
				continue
			}
			var sb strings.Builder
			sb.WriteString("CREATE TRIGGER " + sqltypes.QuoteIdent(tg.Name) + " " + tg.Timing + " ")
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
			table := qualifiedTable(t, !pretty)
			sb.WriteString(" ON " + table + " FOR EACH ")
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
				name = sqltypes.QuoteIdent(f.Name)
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
