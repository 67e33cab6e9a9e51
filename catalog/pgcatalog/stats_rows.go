package pgcatalog

import (
	"time"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The statistics ANALYZE gathers (catalog.TableStats), shown as
// PostgreSQL shows its own: pg_stats per column, pg_stat_user_tables per
// table, pg_class.reltuples (pg_rows.go). zproxy counts no scans or tuple
// operations per table, so those counters of pg_stat_user_tables read 0.

func init() {
	generate("pg_catalog.pg_stats", statsRows)
	generate("pg_catalog.pg_stat_all_tables", func(e *Env) []row {
		var out []row
		for _, r := range tableStatRows(e) {
			out = append(out, r)
		}
		return out
	})
	generate("pg_catalog.pg_stat_user_tables", func(e *Env) []row {
		var out []row
		for _, r := range tableStatRows(e) {
			u := pgStatUserTablesRow(*r) // the same columns
			out = append(out, &u)
		}
		return out
	})
}

// statsRows are pg_stats: one row per analyzed column of the tables the
// user may read (PostgreSQL hides the others too).
func statsRows(e *Env) []row {
	var out []row
	super := e.Sess == nil || e.Sess.IsSuperuser()
	for _, t := range e.Snap.Tables() {
		ts := e.Snap.Stats(t.ID)
		if ts == nil || !super && !e.Snap.Allowed(e.user(), t, catalog.PrivSelect) {
			continue
		}
		for i := range t.Columns {
			c := &t.Columns[i]
			cs := ts.Column(c)
			if c.Hidden || cs == nil {
				continue
			}
			r := &pgStatsRow{Schemaname: nameV("public"), Tablename: nameV(t.Name), Attname: nameV(c.Name),
				Inherited: boolV(false), NullFrac: floatV(cs.NullFrac), AvgWidth: intV(int64(cs.AvgWidth)),
				NDistinct: floatV(cs.NDistinct(ts.Rows)), MostCommonVals: anyArray(c.Type, cs.MCV),
				HistogramBounds: anyArray(c.Type, cs.Histogram), Correlation: nullV}
			if len(cs.MCVFreq) > 0 {
				freqs := make([]sqltypes.Value, len(cs.MCVFreq))
				for i, f := range cs.MCVFreq {
					freqs[i] = sqltypes.NewFloat(float64(float32(f)))
				}
				r.MostCommonFreqs = sqltypes.NewArray1(sqltypes.TypeFloat4, freqs)
			}
			out = append(out, r)
		}
	}
	return out
}

// anyArray renders values as the text of an array of their type, as
// PostgreSQL prints an anyarray column (NULL for none).
func anyArray(t sqltypes.Type, vals []sqltypes.Value) sqltypes.Value {
	if len(vals) == 0 {
		return sqltypes.Null
	}
	return sqltypes.NewText(sqltypes.FormatText(sqltypes.NewArray1(t, vals)))
}

// tableStatRows are pg_stat_user_tables (and pg_stat_all_tables, whose
// system tables zproxy's catalogs compute rather than store).
func tableStatRows(e *Env) []*pgStatAllTablesRow {
	var out []*pgStatAllTablesRow
	for _, o := range e.objects().list {
		if o.kind != 'r' && o.kind != 'm' || o.table == nil || o.table.Virtual != nil {
			continue
		}
		r := &pgStatAllTablesRow{Relid: oidV(o.oid), Schemaname: nameV("public"), Relname: nameV(o.name)}
		if ts := e.Snap.Stats(o.table.ID); ts != nil {
			r.NLiveTup = intV(int64(ts.Rows))
			r.LastAnalyze = timeV(ts.LastAnalyze)
			r.LastAutoanalyze = timeV(ts.LastAutoAnalyze)
			r.AnalyzeCount = intV(ts.AnalyzeCount)
			r.AutoanalyzeCount = intV(ts.AutoAnalyzeCount)
		}
		out = append(out, r)
	}
	return out
}

func timeV(t *time.Time) sqltypes.Value {
	if t == nil {
		return sqltypes.Null
	}
	return sqltypes.NewTimestampTZ(sqltypes.TimestampFromTime(*t))
}

// reltuples is pg_class.reltuples of a table or index: the rows counted
// by the last analysis, -1 before any (PostgreSQL's "never analyzed").
func reltuples(snap *catalog.Snapshot, t *catalog.Table) float64 {
	if ts := snap.Stats(t.ID); ts != nil {
		return ts.Rows
	}
	return -1
}
