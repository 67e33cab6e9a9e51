package planner

import (
	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// bindAnalyze resolves the tables of ANALYZE and VACUUM. VACUUM gives
// back the space of the tables' deleted rows and index entries (on a store
// that keeps it until it compacts: kv.Compacter); FULL and FREEZE ask for
// nothing more, since the compaction rewrites what it keeps and zproxy has
// no transaction IDs to freeze. The system catalogs are computed, not
// stored: naming one is accepted and has nothing to do.
func bindAnalyze(snap *catalog.Snapshot, st *parser.AnalyzeStatement) (ir.Statement, error) {
	a := &ir.Analyze{Vacuum: st.Vacuum, Analyze: !st.Vacuum || st.Analyze, Verbose: st.Verbose}
	if len(st.Tables) == 0 {
		a.Tables = snap.Tables()
		return a, nil
	}
	seen := map[string]bool{}
	for _, target := range st.Tables {
		if target.Schema != "" {
			if _, ok := pgcatalog.Lookup(snap, target.Schema, target.Name); !ok {
				return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", target.Name).WithPosition(target.Pos)
			}
			continue
		}
		t, err := snap.Table(target.Name)
		if err != nil {
			if _, isView := snap.StoredView(target.Name); isView || snap.HasRelation(target.Name) {
				a.Warnings = append(a.Warnings, &pgerr.Error{Code: pgerr.Warning, Severity: "WARNING",
					Message: "skipping \"" + target.Name + "\" --- cannot analyze non-tables or special system tables"})
				continue
			}
			return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", target.Name).WithPosition(target.Pos)
		}
		for _, c := range target.Columns {
			if t.ColumnIndex(c) < 0 {
				return nil, pgerr.New(pgerr.UndefinedColumn, "column %q of relation %q does not exist", c, t.Name)
			}
		}
		// Every column is analyzed even when some are named: the figures
		// of the others only get fresher.
		if !seen[t.Name] {
			seen[t.Name] = true
			a.Tables = append(a.Tables, t)
		}
	}
	return a, nil
}
