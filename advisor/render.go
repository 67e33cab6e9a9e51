package advisor

import (
	"fmt"
	"strings"
)

// Render writes recommendations as text, one block each: the statement to
// run, then what it does for which statements. queries maps query IDs to
// their normalised text (IDs without text print as numbers).
func Render(recs []Recommendation, queries map[int64]string) string {
	if len(recs) == 0 {
		return "no recommendations: every recorded read is served as well as an index would serve it\n"
	}
	var b strings.Builder
	for i, r := range recs {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s (%s on %s)\n", r.SQL, r.Kind, r.Table)
		fmt.Fprintf(&b, "  why: %s\n", r.Reason)
		if len(r.Statements) > 0 {
			fmt.Fprintf(&b, "  helps %d statement%s, %d call%s:\n", len(r.Statements), plural(len(r.Statements)), r.Calls, plural(int(r.Calls)))
			for _, id := range r.Statements {
				if q, ok := queries[id]; ok {
					fmt.Fprintf(&b, "    %s\n", q)
				} else {
					fmt.Fprintf(&b, "    queryid %d\n", id)
				}
			}
			fmt.Fprintf(&b, "  per call: items read %s -> %s, store requests %s -> %s\n",
				figure(r.ItemsBefore), figure(r.ItemsAfter), figure(r.RequestsBefore), figure(r.RequestsAfter))
		}
		switch {
		case r.WriteItems > 0:
			fmt.Fprintf(&b, "  write cost: %s more item%s per row written (%d rows written)\n", figure(r.WriteItems), plural(int(r.WriteItems)), r.RowsWritten)
		case r.WriteItems < 0:
			fmt.Fprintf(&b, "  write saving: %s item%s per row written (%d rows written)\n", figure(-r.WriteItems), plural(int(-r.WriteItems)), r.RowsWritten)
		}
	}
	return b.String()
}

// figure prints an estimate with the precision it deserves.
func figure(f float64) string {
	switch {
	case f >= 100:
		return fmt.Sprintf("%.0f", f)
	case f >= 10:
		return fmt.Sprintf("%.1f", f)
	}
	return fmt.Sprintf("%.2f", f)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
