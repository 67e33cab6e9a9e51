package planner

import (
	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// bindAnalyze resolves ANALYZE's tables. VACUUM is accepted only with
// ANALYZE: the stores reclaim space and compact by themselves, so the
// statement's other work has nothing to act on, and a VACUUM that silently
// did nothing would mislead; FULL and FREEZE, which rewrite rows, are
// refused likewise.
func bindAnalyze(snap *catalog.Snapshot, st *parser.AnalyzeStatement) (ir.Statement, error) {
	if st.Vacuum && (st.Full || st.Freeze) {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "VACUUM FULL and VACUUM FREEZE are not supported: the stores reclaim space and compact by themselves").
			WithHint("Use ANALYZE to gather statistics.")
	}
	if st.Vacuum && !st.Analyze {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "VACUUM without ANALYZE is not supported: the stores reclaim space and compact by themselves").
			WithHint("Use ANALYZE (or VACUUM ANALYZE) to gather statistics.")
	}
	a := &ir.Analyze{Vacuum: st.Vacuum, Verbose: st.Verbose}
	if len(st.Tables) == 0 {
		a.Tables = snap.Tables()
		return a, nil
	}
	seen := map[string]bool{}
	for _, target := range st.Tables {
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
