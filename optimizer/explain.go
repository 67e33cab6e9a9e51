package optimizer

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// NodeStats is what one operator did during EXPLAIN ANALYZE.
type NodeStats struct {
	Rows      int64         // rows the operator returned
	ItemsRead int64         // store items read (scans)
	Requests  int64         // store requests (scans)
	Capacity  float64       // capacity units consumed (DynamoDB)
	Time      time.Duration // wall time inside the operator, children included
}

// maxShownRanges is how many key ranges EXPLAIN prints before "...".
const maxShownRanges = 3

// Explain renders a plan as text lines, one operator per line with its
// details indented below, as EXPLAIN returns them. With stats (EXPLAIN
// ANALYZE) each operator also shows what it did.
func Explain(p *Plan, stats map[Node]*NodeStats) []string {
	var lines []string
	var walk func(n Node, depth int)
	walk = func(n Node, depth int) {
		// PostgreSQL's layout: children start with "->" and their details
		// line up under the operator name.
		indent := strings.Repeat("      ", depth)
		head := indent
		if depth > 0 {
			head = strings.Repeat("      ", depth-1) + "  ->  "
		}
		lines = append(lines, head+describe(n)+analyzed(stats[n]))
		for _, d := range details(n) {
			lines = append(lines, indent+"      "+d)
		}
		for _, c := range n.Children() {
			walk(c, depth+1)
		}
	}
	walk(p.Root, 0)
	return lines
}

func analyzed(s *NodeStats) string {
	if s == nil {
		return ""
	}
	out := fmt.Sprintf("  (actual rows=%d time=%.3fms", s.Rows, float64(s.Time.Microseconds())/1000)
	if s.Requests > 0 || s.ItemsRead > 0 {
		out += fmt.Sprintf(" items read=%d store requests=%d", s.ItemsRead, s.Requests)
	}
	if s.Capacity > 0 {
		out += fmt.Sprintf(" capacity=%.1f", s.Capacity)
	}
	return out + ")"
}

func describe(n Node) string {
	switch x := n.(type) {
	case *Scan:
		via := "primary key"
		if x.Index != nil {
			via = fmt.Sprintf("%s index %s", x.Index.Kind, x.Index.Name)
		}
		s := fmt.Sprintf("Scan %s via %s: %s", x.Table.Name, via, x.Method)
		if x.Reverse {
			s += " (reverse)"
		}
		return s
	case *Limit:
		switch {
		case x.Count < 0:
			return fmt.Sprintf("Offset %d", x.Offset)
		case x.Offset == 0:
			return fmt.Sprintf("Limit %d", x.Count)
		}
		return fmt.Sprintf("Limit %d offset %d", x.Count, x.Offset)
	case *Sort:
		if x.Limit > 0 {
			return fmt.Sprintf("TopN %d", x.Limit)
		}
		return "Sort"
	case *Rowset:
		return fmt.Sprintf("Rowset %s (%d rows from the catalog)", x.View, len(x.Rows))
	}
	return n.Name()
}

func details(n Node) []string {
	d := []string{}
	switch x := n.(type) {
	case *Scan:
		d = append(d, "why: "+x.Reason)
		for _, r := range x.Rejected {
			d = append(d, fmt.Sprintf("rejected: %s (%s)", r.Path, r.Reason))
		}
		if x.Hint != "" {
			d = append(d, "hint: "+x.Hint)
		}
		total := x.Table.Shards
		if x.Index != nil {
			total = x.Index.Shards
		}
		d = append(d, fmt.Sprintf("shards: %d of %d", len(x.Shards), total))
		if x.Method == PointGet {
			d = append(d, fmt.Sprintf("keys: %d%s", len(x.Points), shownList(x.described())))
		} else {
			d = append(d, fmt.Sprintf("key ranges: %d%s", len(x.Ranges), shownRanges(x)))
		}
		if x.ZSchema != nil {
			d = append(d, fmt.Sprintf("z-order: %d attributes, %d-bit addresses", x.ZSchema.Dims(), x.ZSchema.Bits()))
		}
		d = append(d, fmt.Sprintf("estimate: %.3g of the search space", x.Estimate))
		if x.Lookup {
			d = append(d, "lookup: table rows fetched by primary key (index does not cover)")
		} else if x.Index != nil {
			d = append(d, "covering: yes")
		}
		if x.Ordered {
			d = append(d, "order: yields ORDER BY (k-way merge of shards)")
		}
		if x.Limit > 0 {
			d = append(d, fmt.Sprintf("stops after: %d rows", x.Limit))
		}
		if x.Residual != nil {
			d = append(d, "residual filter: "+x.Residual.String())
		}
	case *Filter:
		d = append(d, "filter: "+x.Pred.String())
	case *Aggregate:
		var gs, as []string
		for _, g := range x.GroupBy {
			gs = append(gs, g.String())
		}
		for _, a := range x.Aggs {
			if a.Arg == nil {
				as = append(as, string(a.Func))
			} else {
				as = append(as, fmt.Sprintf("%s(%s)", a.Func, a.Arg))
			}
		}
		if len(gs) > 0 {
			d = append(d, "group by: "+strings.Join(gs, ", "))
		}
		d = append(d, "aggregates: "+strings.Join(as, ", "))
	case *Project:
		var ps []string
		for _, e := range x.Exprs {
			ps = append(ps, e.String())
		}
		d = append(d, "output: "+strings.Join(ps, ", "))
	case *Sort:
		var ks []string
		for _, k := range x.Keys {
			s := fmt.Sprintf("#%d", k.Col+1)
			if k.Desc {
				s += " DESC"
			}
			ks = append(ks, s)
		}
		d = append(d, "sort key: "+strings.Join(ks, ", "))
	}
	return d
}

// described returns the SQL descriptions of a scan's points or ranges.
func (x *Scan) described() []string {
	if x.describe == nil {
		return make([]string, len(x.Ranges))
	}
	return x.describe()
}

// shownList prints the first few descriptions: " {a = 1} {a = 2} ...".
func shownList(items []string) string {
	var b strings.Builder
	for i, it := range items {
		if i == maxShownRanges {
			b.WriteString(" ...")
			break
		}
		b.WriteString(" {" + it + "}")
	}
	return b.String()
}

// shownRanges prints a scan's first few ranges: in SQL terms for the primary
// key and btree indexes, as shortened Z-addresses for Z-order indexes.
func shownRanges(x *Scan) string {
	if x.ZSchema == nil {
		shown := x.described()
		for i := range shown {
			if shown[i] == "" {
				shown[i] = "whole index"
				if x.Index == nil {
					shown[i] = "whole table"
				}
			}
		}
		return shownList(shown)
	}
	var b strings.Builder
	for i, r := range x.Ranges {
		if i == maxShownRanges {
			b.WriteString(" ...")
			break
		}
		// Show each address up to just past where the two differ.
		n := 6
		for n < len(r.Start) && n < len(r.End) && r.Start[n-2] == r.End[n-2] {
			n++
		}
		b.WriteString(" [" + shortAddr(r.Start, n, "min") + ", " + shortAddr(r.End, n, "max") + ")")
	}
	return b.String()
}

// shortAddr prints the first show bytes of a Z-address.
func shortAddr(a []byte, show int, empty string) string {
	if len(a) == 0 {
		return empty
	}
	if len(a) <= show {
		return "0x" + hex.EncodeToString(a)
	}
	return "0x" + hex.EncodeToString(a[:show]) + "…"
}

// ExplainJSON renders the plan as a JSON document with the same content.
func ExplainJSON(p *Plan, stats map[Node]*NodeStats) string {
	var conv func(n Node) map[string]any
	conv = func(n Node) map[string]any {
		m := map[string]any{"operator": describe(n), "details": details(n)}
		if s := stats[n]; s != nil {
			m["actual"] = map[string]any{"rows": s.Rows, "time_ms": float64(s.Time.Microseconds()) / 1000,
				"items_read": s.ItemsRead, "store_requests": s.Requests, "capacity": s.Capacity}
		}
		if x, ok := n.(*Scan); ok {
			m["table"] = x.Table.Name
			m["method"] = string(x.Method)
			if x.Index != nil {
				m["index"] = x.Index.Name
				m["index_kind"] = string(x.Index.Kind)
			} else {
				m["index"] = "primary"
			}
			m["shards"] = x.Shards
			m["key_ranges"] = len(x.Ranges)
			m["estimate"] = x.Estimate
		}
		var kids []any
		for _, c := range n.Children() {
			kids = append(kids, conv(c))
		}
		if len(kids) > 0 {
			m["inputs"] = kids
		}
		return m
	}
	out, _ := json.MarshalIndent([]any{map[string]any{"Plan": conv(p.Root)}}, "", "  ")
	return string(out)
}
