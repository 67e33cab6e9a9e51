package optimizer

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/zorder"
)

// ExplainDoc is what a structured EXPLAIN (FORMAT JSON, YAML or XML) shows
// beside the plan: the options that shape it and the statement's totals.
type ExplainDoc struct {
	Format  string // "json", "yaml" or "xml"
	Analyze bool
	// Buffers (with Analyze) adds PostgreSQL's buffer keys to each node,
	// mapped from what zproxy counts: store items read as "Shared Read
	// Blocks", spilled bytes in 8 kB blocks as temp blocks; each node's
	// counts include its inputs', as PostgreSQL's do.
	Buffers bool
	Verbose bool // adds each node's "Output"
	Costs   bool // "Startup Cost", "Total Cost", "Plan Rows", "Plan Width" (cost.go)
	// WAL (with Analyze) adds PostgreSQL's "WAL Records", "WAL FPI" and
	// "WAL Bytes" to each node: the items the statement wrote to the
	// store (or its transaction) and their bytes, a node's including its
	// inputs', as PostgreSQL accumulates them; FPI is always 0.
	WAL     bool
	Timing  bool // "Actual Startup Time", "Actual Total Time"
	Summary bool // "Planning Time", and "Execution Time" with Analyze
	// Settings lists the planner settings that differ from their defaults
	// (SETTINGS on); nil leaves the group out.
	Settings [][2]string
	Planning time.Duration
	// The statement's totals under ANALYZE.
	Execution     time.Duration
	ItemsRead     int64
	StoreRequests int64
	Capacity      float64
	Backend       string
	// QueryText, when set, lays the document out as auto_explain logs a
	// plan: "Query Text" and "Plan" at the top, in one object (JSON),
	// mapping (YAML) or <explain> element (XML), no "Query" wrapper.
	QueryText string
	// PlanCache is, for EXPLAIN EXECUTE, how the prepared statement's
	// plan cache planned it: "generic" or "custom" ("zproxy Plan Cache").
	PlanCache string
}

// ExplainStructured renders the plan in PostgreSQL's structured EXPLAIN
// layout, so that plan viewers (pgAdmin, DBeaver, PEV2, depesz) read it:
// PostgreSQL's node types, keys and nesting, with what zproxy knows beyond
// PostgreSQL's vocabulary (access path, key ranges, items read, store
// requests) as extra node keys whose names start with "zproxy ".
func ExplainStructured(p *Plan, stats map[Node]*NodeStats, doc ExplainDoc) string {
	root := pgTree(p, false)
	q := []pgProp{{key: "Plan", group: root.props(nil, stats, doc)}}
	if doc.Settings != nil {
		set := []pgProp{}
		for _, kv := range doc.Settings {
			set = append(set, pgText(kv[0], kv[1]))
		}
		q = append(q, pgProp{key: "Settings", group: set})
	}
	if doc.Summary {
		q = append(q, pgFloat("Planning Time", ms(doc.Planning), 3))
	}
	if doc.PlanCache != "" {
		q = append(q, pgText("zproxy Plan Cache", doc.PlanCache))
	}
	if doc.Analyze {
		if doc.QueryText == "" { // auto_explain lists triggers only when asked
			q = append(q, pgProp{key: "Triggers", array: true, elem: "Trigger"})
		}
		if doc.Summary {
			q = append(q, pgFloat("Execution Time", ms(doc.Execution), 3))
		}
		q = append(q, pgInt("zproxy Items Read", doc.ItemsRead), pgInt("zproxy Store Requests", doc.StoreRequests))
		if doc.Capacity > 0 {
			q = append(q, pgFloat("zproxy Capacity Units", doc.Capacity, 1))
		}
		if doc.Backend != "" {
			q = append(q, pgText("zproxy Backend", doc.Backend))
		}
	}
	w := &pgWriter{format: doc.Format}
	if doc.QueryText != "" {
		return w.autoExplain(append([]pgProp{pgText("Query Text", doc.QueryText)}, q...))
	}
	w.begin()
	w.open("Query", "", true)
	for _, pr := range q {
		w.prop(pr)
	}
	w.close("Query", "", true)
	w.end()
	return w.b.String()
}

// autoExplain writes props as auto_explain's document: JSON's top-level
// array becomes an object (auto_explain replaces the brackets), YAML's
// list item a mapping, and XML keeps <explain> around them.
func (w *pgWriter) autoExplain(props []pgProp) string {
	switch w.format {
	case "json":
		w.b.WriteString("{")
		w.stack = append(w.stack, false)
		w.indent++
		for _, pr := range props {
			w.prop(pr)
		}
		w.b.WriteString("\n}")
	case "yaml":
		w.stack = append(w.stack, false)
		for _, pr := range props {
			w.prop(pr)
		}
	default:
		w.begin()
		for _, pr := range props {
			w.prop(pr)
		}
		w.end()
	}
	return w.b.String()
}

// inclusiveStats sums what n and every node under it did: store items
// read, bytes spilled, and items and bytes written (WAL).
func (n *pgNode) inclusiveStats(stats map[Node]*NodeStats) NodeStats {
	var sum NodeStats
	key := n.node
	if n.statsOf != nil {
		key = n.statsOf
	}
	if st := stats[key]; st != nil && key != nil {
		sum.ItemsRead, sum.SpilledBytes, sum.WALRecords, sum.WALBytes = st.ItemsRead, st.SpilledBytes, st.WALRecords, st.WALBytes
	}
	if n.statsOf != nil {
		return sum // a drawn-in node's figures are its input's, counted once
	}
	if _, ok := n.node.(Write); ok && stats[n.node] != nil {
		return sum // a write's figures are its statement's, its inputs' included
	}
	for _, k := range n.kids {
		s := k.inclusiveStats(stats)
		sum.ItemsRead += s.ItemsRead
		sum.SpilledBytes += s.SpilledBytes
		sum.WALRecords += s.WALRecords
		sum.WALBytes += s.WALBytes
	}
	return sum
}

// pgTree is the plan as PostgreSQL's nodes; for its shape only (PlanShape)
// no expression of it is rendered.
func pgTree(p *Plan, shape bool) *pgNode {
	var root *pgNode
	var stack []*pgNode
	costs := p.Costs()
	describe := Node.Describe
	if shape {
		describe = describeShape
	}
	walkDescriptions(p, describe, func(s explainStep) {
		n := pgShape(s.node, s.desc, shape)
		n.label = s.label
		n.node = s.node
		n.cost = costs[s.node]
		if n.cost != nil {
			n.innerCost = n.cost.Inner
		}
		stack = stack[:s.depth]
		if s.depth == 0 {
			root = n
		} else {
			parent := stack[s.depth-1]
			parent.kids = append(parent.kids, n)
		}
		stack = append(stack, n)
	})
	drawIn(root)
	return root
}

// shapeKeys are the keys a plan's shape keeps (PlanShape): those naming
// operators, relations, indexes, access paths, shards and estimates.
// Conditions, key ranges, outputs, sort and group keys are left out: they
// hold the statement's constants, which pg_stat_statements never keeps.
var shapeKeys = map[string]bool{
	"Node Type": true, "Strategy": true, "Operation": true, "Parent Relationship": true, "Subplan Name": true,
	"Join Type": true, "Command": true, "Scan Direction": true, "Index Name": true, "Relation Name": true,
	"Alias": true, "CTE Name": true, "Function Name": true, "Total Cost": true, "Plan Rows": true,
	"zproxy Access Method": true, "zproxy Shards": true, "zproxy Z-order": true, "zproxy Covering": true,
	"zproxy Lookup": true, "zproxy Top N": true,
}

// PlanShape is the plan as a one-line EXPLAIN (FORMAT JSON) document of
// its shape: PostgreSQL's node types and nesting with the shapeKeys only,
// so that it holds no constant of the statement and can be kept beside a
// normalised statement (pg_stat_statements' plan column, which the console
// draws as a tree).
func PlanShape(p *Plan) string {
	var b strings.Builder
	b.WriteString(`[{"Plan":`)
	writeShape(&b, pgTree(p, true).props(nil, nil, ExplainDoc{Format: "json", Costs: true}))
	b.WriteString("}]")
	return b.String()
}

func writeShape(b *strings.Builder, props []pgProp) {
	b.WriteByte('{')
	first := true
	sep := func(key string) {
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.WriteString(jsonString(key) + ":")
	}
	for _, pr := range props {
		switch {
		case pr.key == "Plans":
			sep(pr.key)
			b.WriteByte('[')
			for i, it := range pr.items {
				if i > 0 {
					b.WriteByte(',')
				}
				writeShape(b, it)
			}
			b.WriteByte(']')
		case !shapeKeys[pr.key] || pr.list != nil || pr.group != nil || pr.array:
		case pr.numeric:
			sep(pr.key)
			b.WriteString(pr.value)
		default:
			sep(pr.key)
			b.WriteString(jsonString(pr.value))
		}
	}
	b.WriteByte('}')
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

// pgNode is one plan node in PostgreSQL's vocabulary. Most stand for one
// zproxy operator; a Hash under a Hash Join and the inner index scan of a
// lookup join are drawn in (node nil) because PostgreSQL's plans have them.
type pgNode struct {
	typ   string   // Node Type
	head  []pgProp // keys before "Parent Relationship": Strategy, Operation
	scan  []pgProp // keys between "Async Capable" and the costs
	cost  *NodeCost
	attrs []pgProp // keys after the actuals: conditions, sort keys, zproxy facts
	desc  Description
	node  Node
	label string // "SubPlan 1", "CTE name": a subplan's name
	// member says the inputs are an Append's or SetOp's members.
	member bool
	kids   []*pgNode
	// analyzed copies its figures from another node (a Hash from its
	// input); noStats leaves a drawn-in node without actual figures.
	statsOf Node
	noStats bool
	// innerCost is a lookup join's per-loop cost of its inner reads, for
	// the drawn-in index scan.
	innerCost *NodeCost
	// shape leaves the operator's expressions unrendered (PlanShape).
	shape bool
}

// props are the node's keys in PostgreSQL's order.
func (n *pgNode) props(relationship []pgProp, stats map[Node]*NodeStats, doc ExplainDoc) []pgProp {
	out := []pgProp{pgText("Node Type", n.typ)}
	out = append(out, n.head...)
	out = append(out, relationship...)
	out = append(out, pgBool("Parallel Aware", false), pgBool("Async Capable", false))
	for _, pr := range n.scan {
		out = append(out, pr)
		if doc.Verbose && pr.key == "Relation Name" {
			out = append(out, pgText("Schema", "public")) // zproxy has the one schema
		}
	}
	if doc.Costs && n.cost != nil {
		out = append(out, pgFloat("Startup Cost", n.cost.Startup, 2), pgFloat("Total Cost", n.cost.Total, 2),
			pgInt("Plan Rows", int64(n.cost.Rows)), pgInt("Plan Width", int64(n.cost.Width)))
	}
	var st *NodeStats
	if doc.Analyze && !n.noStats {
		key := n.node
		if n.statsOf != nil {
			key = n.statsOf
		}
		st = stats[key]
		if st == nil {
			st = &NodeStats{} // never executed, as PostgreSQL shows it
		}
		loops := st.Loops
		if loops < 1 {
			loops = 1
		}
		if doc.Timing {
			out = append(out, pgFloat("Actual Startup Time", ms(st.Startup)/float64(loops), 3),
				pgFloat("Actual Total Time", ms(st.Time)/float64(loops), 3))
		}
		out = append(out, pgInt("Actual Rows", int64(float64(st.Rows)/float64(loops)+0.5)), pgInt("Actual Loops", st.Loops))
	}
	if doc.Verbose && n.node != nil {
		var cols []string
		if pr, ok := n.node.(*Project); ok {
			for _, e := range pr.Exprs {
				cols = append(cols, e.String())
			}
		} else {
			for _, c := range n.node.Columns() {
				cols = append(cols, c.Name)
			}
		}
		out = append(out, pgList("Output", cols))
	}
	out = append(out, n.attrs...)
	if (doc.Buffers || doc.WAL) && doc.Analyze && !n.noStats {
		sum := n.inclusiveStats(stats)
		if doc.Buffers {
			temp := (sum.SpilledBytes + 8191) / 8192
			out = append(out, pgInt("Shared Hit Blocks", 0), pgInt("Shared Read Blocks", sum.ItemsRead), pgInt("Shared Dirtied Blocks", 0),
				pgInt("Shared Written Blocks", 0), pgInt("Local Hit Blocks", 0), pgInt("Local Read Blocks", 0),
				pgInt("Local Dirtied Blocks", 0), pgInt("Local Written Blocks", 0), pgInt("Temp Read Blocks", temp), pgInt("Temp Written Blocks", temp))
		}
		if doc.WAL {
			out = append(out, pgInt("WAL Records", sum.WALRecords), pgInt("WAL FPI", 0), pgInt("WAL Bytes", sum.WALBytes))
		}
	}
	if n.node != nil {
		out = append(out, pgText("zproxy Operator", n.desc.Head))
		out = append(out, zproxyAttrs(n.desc)...)
	}
	if x, ok := n.node.(*Scan); ok && doc.Verbose && x.ZSchema != nil {
		out = append(out, zorderProps(x, st)...)
	}
	if st != nil && n.node != nil && (st.ItemsRead > 0 || st.Requests > 0) {
		out = append(out, pgInt("zproxy Items Read", st.ItemsRead), pgInt("zproxy Store Requests", st.Requests))
	}
	if st != nil && st.Capacity > 0 {
		out = append(out, pgFloat("zproxy Capacity Units", st.Capacity, 1))
	}
	if st != nil && st.TopNBatches > 0 {
		out = append(out, pgInt("zproxy Top-N Batches", st.TopNBatches), pgInt("zproxy Top-N Cells", st.TopNCells),
			pgInt("zproxy Top-N Ranges", st.TopNRanges))
	}
	if st != nil && st.Rings > 0 {
		out = append(out, pgInt("zproxy Nearest Rings", st.Rings), pgInt("zproxy Nearest Ranges", st.RingRanges))
	}
	if st != nil && st.Squares > 0 {
		out = append(out, pgInt("zproxy Nearest Squares", st.Squares), pgInt("zproxy Nearest Decoded", st.SquareDecoded))
	}
	if st != nil && st.Batches > 0 {
		out = append(out, pgInt("zproxy Nearest Batches", st.Batches), pgInt("zproxy Nearest Cells", st.BatchCells),
			pgInt("zproxy Nearest Ranges", st.BatchRanges))
	}
	if st != nil && st.HeldRows > 0 {
		out = append(out, pgInt("zproxy Rows In Held Cells", st.HeldRows))
	}
	if st != nil && st.SpilledRows > 0 {
		out = append(out, pgInt("zproxy Spilled Rows", st.SpilledRows), pgInt("zproxy Spilled Bytes", st.SpilledBytes))
	}
	if len(n.kids) > 0 {
		plans := pgProp{key: "Plans", array: true, elem: "Plan"}
		inputs := 0
		for _, k := range n.kids {
			var rel []pgProp
			switch {
			case k.label != "":
				kind := "SubPlan"
				if !strings.HasPrefix(k.label, "SubPlan") {
					kind = "InitPlan"
				}
				rel = []pgProp{pgText("Parent Relationship", kind), pgText("Subplan Name", k.label)}
			case n.member:
				rel = []pgProp{pgText("Parent Relationship", "Member")}
			default:
				rel = []pgProp{pgText("Parent Relationship", [...]string{"Outer", "Inner"}[min(inputs, 1)])}
				inputs++
			}
			plans.items = append(plans.items, k.props(rel, stats, doc))
		}
		out = append(out, plans)
	}
	return out
}

// zorderProps are what a picture of a Z-order read needs, shown with
// VERBOSE: each attribute's width and lead (which fix how its bits
// interleave), the query box and the data's bounds (the box's extent) as
// codes, in decimal text since codes run to 2^64, and as the values they
// stand for; and every Z-address range in hex, with the items read in it
// under ANALYZE. The console draws its picture from these.
func zorderProps(x *Scan, st *NodeStats) []pgProp {
	attrs := pgProp{key: "zproxy Z-order Attributes", array: true, elem: "Attribute"}
	for d, a := range x.ZSchema.Attrs() {
		item := []pgProp{pgText("Name", a.Name), pgText("Type", a.Type.String()),
			pgInt("Bits", int64(a.Width)), pgInt("Lead", int64(a.Lead))}
		item = append(item, codeProps("Box", a, x.ZBox[d])...)
		if x.ZData != nil {
			item = append(item, codeProps("Data", a, x.ZData[d])...)
		}
		attrs.items = append(attrs.items, item)
	}
	ranges := pgProp{key: "zproxy Z-order Ranges", array: true, elem: "Range"}
	for i, r := range x.Ranges {
		item := []pgProp{pgText("Start", hex.EncodeToString(r.Start)), pgText("End", hex.EncodeToString(r.End))}
		if st != nil {
			var items int64
			if i < len(st.RangeItems) {
				items = st.RangeItems[i]
			}
			item = append(item, pgInt("Items Read", items))
		}
		ranges.items = append(ranges.items, item)
	}
	return []pgProp{attrs, ranges}
}

// codeProps are one attribute's interval of a box: its codes and values.
func codeProps(what string, a zorder.Attr, iv zorder.Interval) []pgProp {
	return []pgProp{
		pgText(what+" Low", strconv.FormatUint(iv.Lo, 10)), pgText(what+" High", strconv.FormatUint(iv.Hi, 10)),
		pgText(what+" Low Value", a.ValueText(iv.Lo)), pgText(what+" High Value", a.ValueText(iv.Hi)),
	}
}

// zproxyRenames gives some of the text format's detail keys the names the
// structured formats show them under.
var zproxyRenames = map[string]string{"why": "Access Path", "rejected": "Rejected Candidates"}

// pgNative are the text format's detail keys that the structured formats
// already show under a PostgreSQL key.
var pgNative = map[string]bool{"filter": true, "residual filter": true, "one-time filter": true, "join filter": true, "sort key": true,
	"group by": true, "hash keys": true, "merge keys": true, "output": true, "hash key": true, "group key": true}

// zproxyAttrs are the operator's details the PostgreSQL keys do not carry,
// as "zproxy Title Case" keys; a detail given more than once (rejected
// candidates, maintained indexes) becomes a list.
func zproxyAttrs(d Description) []pgProp {
	var out []pgProp
	at := map[string]int{}
	for _, a := range d.Attrs {
		if pgNative[a.Key] {
			continue
		}
		name := zproxyRenames[a.Key]
		if name == "" {
			name = titleCase(a.Key)
		}
		key := "zproxy " + name
		if i, ok := at[key]; ok {
			if out[i].list == nil {
				out[i] = pgList(key, []string{out[i].value})
			}
			out[i].list = append(out[i].list, a.Value)
			continue
		}
		at[key] = len(out)
		if a.Key == "rejected" || a.Key == "maintains" {
			out = append(out, pgList(key, []string{a.Value}))
			continue
		}
		out = append(out, pgText(key, a.Value))
	}
	return out
}

func titleCase(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		r := []rune(w)
		r[0] = unicode.ToUpper(r[0])
		words[i] = string(r)
	}
	return strings.Join(words, " ")
}

// joinType is PostgreSQL's "Join Type" of a join kind.
func joinType(k ir.JoinKind) string {
	return [...]string{"Inner", "Left", "Right", "Full", "Semi", "Anti"}[k]
}

// cond spells a condition as PostgreSQL's EXPLAIN does, in parentheses
// (which an expression's own spelling may already have).
func cond(e ir.Expr) string {
	s := e.String()
	if strings.HasPrefix(s, "(") {
		depth := 0
		for i, c := range s {
			switch c {
			case '(':
				depth++
			case ')':
				depth--
			}
			if depth == 0 {
				if i == len(s)-1 {
					return s
				}
				break
			}
		}
	}
	return "(" + s + ")"
}

// equalities spells hash or merge keys as one condition.
func equalities(l, r []ir.Expr) string {
	parts := make([]string, len(l))
	for i := range l {
		parts[i] = l[i].String() + " = " + r[i].String()
	}
	if len(parts) == 1 {
		return "(" + parts[0] + ")"
	}
	return "((" + strings.Join(parts, ") AND (") + "))"
}

// relation is the "Relation Name" and "Alias" of a table read.
func relation(table, alias string) []pgProp {
	if alias == "" {
		alias = table
	}
	return []pgProp{pgText("Relation Name", table), pgText("Alias", alias)}
}

// pgShape maps an operator onto the PostgreSQL node that does its job.
// For a shape it renders none of the operator's expressions: their keys
// (conditions, sort and group keys) are not the shape's.
func pgShape(node Node, d Description, shape bool) *pgNode {
	n := &pgNode{desc: d, shape: shape}
	switch x := node.(type) {
	case *Scan:
		n.typ = "Seq Scan"
		index := x.Table.Name + "_pkey"
		if x.Table.PKeyName != "" {
			index = x.Table.PKeyName
		}
		if x.Index != nil {
			index = x.Index.Name
		}
		if x.Index != nil || x.Method != FullScan || x.Dynamic {
			// Every read by key is an index scan: the table is its primary
			// key's index; a secondary index that covers needs no table read.
			n.typ = "Index Scan"
			if x.Index != nil && !x.Lookup {
				n.typ = "Index Only Scan"
			}
			dir := "Forward"
			if x.Reverse {
				dir = "Backward"
			}
			n.scan = append(n.scan, pgText("Scan Direction", dir), pgText("Index Name", index))
		}
		n.scan = append(n.scan, relation(x.Table.Name, x.Alias)...)
		if c := ""; !shape {
			if c = indexCond(x); c != "" {
				n.attrs = append(n.attrs, pgText("Index Cond", c))
			}
		}
		if x.Nearest != nil && !shape {
			// PostgreSQL's index-ordered kNN scan shows its distance so.
			n.attrs = append(n.attrs, pgText("Order By", cond(x.Nearest.Dist)))
		}
		if _, ok := x.Residual.(*ir.Const); ok {
			// A filter no row passes: false (planScan makes it so).
			n.attrs = append(n.attrs, pgText("One-Time Filter", "false"))
		} else if x.Residual != nil && !shape {
			n.attrs = append(n.attrs, pgText("Filter", cond(x.Residual)))
		} else if x.Dynamic && x.spec.Filter != nil && !shape {
			n.attrs = append(n.attrs, pgText("Filter", cond(x.spec.Filter)))
		}
		n.attrs = append(n.attrs, pgText("zproxy Access Method", string(x.Method)))
		if x.Dynamic {
			n.attrs = append(n.attrs, pgText("zproxy Access Path", "chosen when the scan opens"))
		}
	case *Rowset:
		// PostgreSQL reads its catalogs with sequential scans.
		n.typ = "Seq Scan"
		name := x.View
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			name = name[i+1:] // pg_catalog.pg_class: the schema goes unsaid
		}
		n.scan = relation(name, "")
	case *Values:
		n.typ = "Values Scan"
		n.scan = []pgProp{pgText("Alias", "*VALUES*")}
		if len(x.Rows) == 1 && len(x.Rows[0]) == 0 {
			n.typ, n.scan = "Result", nil
		}
	case *TableFunc:
		n.typ = "Function Scan"
		n.scan = []pgProp{pgText("Function Name", x.Name), pgText("Alias", x.Name)}
	case *ProjectSet:
		n.typ = "ProjectSet"
	case *Filter:
		// PostgreSQL filters inside the node below, or in a Result.
		n.typ = "Result"
		if !shape {
			n.attrs = []pgProp{pgText("Filter", cond(x.Pred))}
		}
	case *Project:
		n.typ = "Result"
	case *Aggregate:
		n.typ = "Aggregate"
		strategy := "Plain"
		switch {
		case x.GroupingSets != nil:
			strategy = "Mixed"
		case len(x.StreamOrder) > 0:
			strategy = "Sorted"
		case len(x.GroupBy) > 0:
			strategy = "Hashed"
		}
		if x.GroupingSets != nil && !shape {
			// All sets are hashed, but the empty set, which PostgreSQL
			// computes beside them: its Mixed strategy.
			strategy = "Hashed"
			sets := pgProp{key: "Grouping Sets", array: true, elem: "Grouping Set"}
			for _, set := range x.GroupingSets {
				label, keys := "Hash Key", make([]string, len(set))
				for i, g := range set {
					keys[i] = x.GroupBy[g].String()
				}
				if len(set) == 0 {
					label, strategy = "Group Key", "Mixed"
				}
				nested := pgList(label, keys)
				nested.nested = true
				sets.items = append(sets.items, []pgProp{{key: label + "s", array: true, members: []pgProp{nested}}})
			}
			n.attrs = []pgProp{sets}
		}
		n.head = []pgProp{pgText("Strategy", strategy), pgText("Partial Mode", "Simple")}
		if len(x.GroupBy) > 0 && x.GroupingSets == nil && !shape {
			keys := make([]string, len(x.GroupBy))
			for i, g := range x.GroupBy {
				keys[i] = g.String()
			}
			n.attrs = []pgProp{pgList("Group Key", keys)}
		}
	case *Window:
		n.typ = "WindowAgg"
	case *Sort:
		n.typ = "Sort"
		if !shape {
			n.attrs = []pgProp{pgList("Sort Key", sortKeyNames(x.Keys, x.Input.Columns()))}
		}
		if x.Limit > 0 {
			n.attrs = append(n.attrs, pgInt("zproxy Top N", int64(x.Limit)))
		}
	case *Distinct:
		cols := x.Input.Columns()
		if len(x.On) > 0 {
			// DISTINCT ON: PostgreSQL's Unique keeps each group's first row.
			n.typ = "Unique"
			break
		}
		// zproxy remembers the rows seen, as PostgreSQL's HashAggregate.
		n.typ = "Aggregate"
		n.head = []pgProp{pgText("Strategy", "Hashed"), pgText("Partial Mode", "Simple")}
		keys := make([]string, len(cols))
		for i, c := range cols {
			keys[i] = c.Name
		}
		n.attrs = []pgProp{pgList("Group Key", keys)}
	case *Limit:
		n.typ = "Limit"
	case *LockRows:
		n.typ = "LockRows"
	case *SetOp:
		if x.Op == ir.Union && x.All {
			n.typ, n.member = "Append", true
			break
		}
		n.typ = "SetOp"
		command := titleCase(strings.ToLower(x.Op.String()))
		if x.All {
			command += " All"
		}
		n.head = []pgProp{pgText("Strategy", "Hashed")}
		n.scan = []pgProp{pgText("Command", command)}
	case *CTEScan:
		n.typ = "CTE Scan"
		n.scan = []pgProp{pgText("CTE Name", x.CTE.Name), pgText("Alias", x.CTE.Name)}
	case *RecursiveUnion:
		n.typ = "Recursive Union"
	case *WorkTable:
		n.typ = "WorkTable Scan"
	case *HashJoin:
		n.join("Hash Join", x.Kind, x.Residual, func() pgProp { return pgText("Hash Cond", equalities(x.LeftKeys, x.RightKeys)) })
	case *MergeJoin:
		n.join("Merge Join", x.Kind, x.Residual, func() pgProp { return pgText("Merge Cond", equalities(x.LeftKeys, x.RightKeys)) })
	case *LookupJoin:
		n.join("Nested Loop", x.Kind, x.Residual)
	case *NestedLoop:
		n.join("Nested Loop", x.Kind, x.Pred)
	case *Apply:
		// A nested loop whose inner side is re-run with each outer row.
		n.join("Nested Loop", x.Kind, x.Pred)
	case *Insert:
		n.modify("Insert", x.Table.Name)
	case *Update:
		n.modify("Update", x.Table.Name)
	case *Delete:
		n.modify("Delete", x.Table.Name)
	case *Merge:
		n.modify("Merge", x.Table.Name)
	default:
		n.typ = "Result"
	}
	return n
}

// join makes n a join node of PostgreSQL's: its type, Join Type, the
// condition its method applies (Hash Cond, Merge Cond) and Join Filter.
func (n *pgNode) join(typ string, kind ir.JoinKind, filter ir.Expr, conds ...func() pgProp) {
	n.typ = typ
	n.scan = []pgProp{pgText("Join Type", joinType(kind))}
	n.attrs = []pgProp{pgBool("Inner Unique", false)}
	if n.shape {
		return
	}
	for _, c := range conds {
		n.attrs = append(n.attrs, c())
	}
	if filter != nil {
		n.attrs = append(n.attrs, pgText("Join Filter", cond(filter)))
	}
}

// modify makes n the ModifyTable node of a write.
func (n *pgNode) modify(operation, table string) {
	n.typ = "ModifyTable"
	n.head = []pgProp{pgText("Operation", operation)}
	n.scan = relation(table, "")
}

// indexCond spells what bounds a key read as PostgreSQL's "Index Cond":
// the SQL of its keys or key ranges, ORed ("" for a full read, a Z-order
// box, whose ranges are addresses, or more ranges than are worth a line).
func indexCond(x *Scan) string {
	if x.Dynamic || x.ZSchema != nil || x.Method == FullScan {
		return ""
	}
	conds := append([]string(nil), x.described()...) // the text format shows them too
	if len(conds) == 0 || len(conds) > 8 {
		return ""
	}
	for i, c := range conds {
		if c == "" {
			return ""
		}
		// A range's bounds are listed with commas: PostgreSQL ANDs them.
		if parts := splitTop(c); len(parts) > 1 {
			conds[i] = "(" + strings.Join(parts, ") AND (") + ")"
		}
	}
	if len(conds) == 1 {
		return "(" + conds[0] + ")"
	}
	return "((" + strings.Join(conds, ") OR (") + "))"
}

// splitTop splits s at the ", " outside parentheses and quotes.
func splitTop(s string) []string {
	var parts []string
	depth, quoted, start := 0, false, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\'':
			quoted = !quoted
		case quoted:
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == ',' && depth == 0 && strings.HasPrefix(s[i:], ", "):
			parts = append(parts, s[start:i])
			start = i + 2
		}
	}
	return append(parts, s[start:])
}

// drawIn adds the nodes PostgreSQL's plans have and zproxy's operators do
// within themselves: the Hash that a Hash Join builds from its inner input,
// and a lookup join's inner index scan.
func drawIn(n *pgNode) {
	for _, k := range n.kids {
		drawIn(k)
	}
	switch x := n.node.(type) {
	case *HashJoin:
		for i, k := range n.kids {
			if k.node == x.Right && k.label == "" {
				// PostgreSQL's Hash costs its input's run, all before its
				// first row.
				var hc *NodeCost
				if k.cost != nil {
					hc = &NodeCost{Startup: k.cost.Total, Total: k.cost.Total, Rows: k.cost.Rows, Width: k.cost.Width}
				}
				n.kids[i] = &pgNode{typ: "Hash", kids: []*pgNode{k}, statsOf: x.Right, cost: hc, shape: n.shape}
			}
		}
	case *LookupJoin:
		typ := "Index Scan"
		index := x.Table.Name + "_pkey"
		if x.Table.PKeyName != "" {
			index = x.Table.PKeyName
		}
		if x.Index != nil {
			index = x.Index.Name
			if !x.Lookup {
				typ = "Index Only Scan"
			}
		}
		inner := &pgNode{typ: typ, noStats: true, cost: n.innerCost, shape: n.shape,
			scan: append([]pgProp{pgText("Scan Direction", "Forward"), pgText("Index Name", index)}, relation(x.Table.Name, x.Alias)...)}
		if !n.shape {
			keys := make([]string, len(x.KeyExprs))
			for i, e := range x.KeyExprs {
				keys[i] = x.Table.Columns[x.KeyCols[i].Column].Name + " = " + e.String()
			}
			inner.attrs = []pgProp{pgText("Index Cond", "("+strings.Join(keys, " AND ")+")")}
			if x.InnerFilter != nil {
				inner.attrs = append(inner.attrs, pgText("Filter", cond(x.InnerFilter)))
			}
		}
		inner.attrs = append(inner.attrs, pgText("zproxy Note", "read by the lookup join above in batches of outer rows; its figures are the join's"))
		// The inner side goes right after the outer input, before subplans.
		at := 0
		for at < len(n.kids) && n.kids[at].label == "" {
			at++
		}
		n.kids = append(n.kids[:at], append([]*pgNode{inner}, n.kids[at:]...)...)
	}
}

// pgProp is one key of a structured EXPLAIN: a scalar (value, with numeric
// saying it goes unquoted), a list of strings (nested: a list inside an
// array, as grouping sets' keys), an object (group), or an array of
// objects (array, items) or of other members.
type pgProp struct {
	key     string
	value   string
	numeric bool
	list    []string
	nested  bool
	group   []pgProp
	array   bool
	elem    string // the element name of an array's objects in XML
	items   [][]pgProp
	members []pgProp
}

func pgText(k, v string) pgProp { return pgProp{key: k, value: v} }
func pgInt(k string, v int64) pgProp {
	return pgProp{key: k, value: fmt.Sprint(v), numeric: true}
}
func pgFloat(k string, v float64, digits int) pgProp {
	return pgProp{key: k, value: fmt.Sprintf("%.*f", digits, v), numeric: true}
}
func pgBool(k string, v bool) pgProp { return pgProp{key: k, value: fmt.Sprint(v), numeric: true} }
func pgList(k string, v []string) pgProp {
	if v == nil {
		v = []string{}
	}
	return pgProp{key: k, list: v}
}

// pgWriter lays out groups and properties as PostgreSQL's EXPLAIN does in
// each structured format (explain_format.c): two spaces an indent level,
// JSON lines ended before the next item so commas fall right, YAML's first
// key of an unlabeled group on the "- " line, XML tags with every
// character outside [A-Za-z0-9-_.] turned into "-".
type pgWriter struct {
	format string
	b      strings.Builder
	indent int
	// stack holds, per open group, whether something was written in it
	// (JSON: the next item needs a comma; YAML: the next starts a line).
	stack []bool
}

func (w *pgWriter) spaces(n int) { w.b.WriteString(strings.Repeat(" ", n)) }

func (w *pgWriter) begin() {
	switch w.format {
	case "xml":
		w.b.WriteString("<explain xmlns=\"http://www.postgresql.org/2009/explain\">\n")
		w.indent++
	case "json":
		w.b.WriteString("[")
		w.stack = append(w.stack, false)
		w.indent++
	case "yaml":
		w.stack = append(w.stack, false)
	}
}

func (w *pgWriter) end() {
	switch w.format {
	case "xml":
		w.indent--
		w.b.WriteString("</explain>")
	case "json":
		w.indent--
		w.b.WriteString("\n]")
		w.stack = w.stack[:len(w.stack)-1]
	case "yaml":
		w.stack = w.stack[:len(w.stack)-1]
	}
}

// jsonLine ends the previous line of a JSON group, with a comma when the
// group already has an item.
func (w *pgWriter) jsonLine() {
	top := len(w.stack) - 1
	if w.stack[top] {
		w.b.WriteByte(',')
	}
	w.stack[top] = true
	w.b.WriteByte('\n')
}

// yamlLine starts a YAML line, except for the first key of an unlabeled
// group, which follows its "- ".
func (w *pgWriter) yamlLine() {
	top := len(w.stack) - 1
	if !w.stack[top] {
		w.stack[top] = true
		return
	}
	w.b.WriteByte('\n')
	w.spaces(2 * w.indent)
}

func (w *pgWriter) xmlTag(name string, closing, whitespace bool) {
	if whitespace {
		w.spaces(2 * w.indent)
	}
	w.b.WriteByte('<')
	if closing {
		w.b.WriteByte('/')
	}
	for _, c := range name {
		if c < 128 && (unicode.IsLetter(c) || unicode.IsDigit(c) || c == '-' || c == '_' || c == '.') {
			w.b.WriteRune(c)
		} else {
			w.b.WriteByte('-')
		}
	}
	w.b.WriteByte('>')
	if whitespace {
		w.b.WriteByte('\n')
	}
}

// open starts a group: an object (labeled) or an array (not), named label
// inside its parent object ("" inside an array).
func (w *pgWriter) open(objtype, label string, labeled bool) {
	switch w.format {
	case "xml":
		w.xmlTag(objtype, false, true)
		w.indent++
	case "json":
		w.jsonLine()
		w.spaces(2 * w.indent)
		if label != "" {
			w.b.WriteString(jsonString(label) + ": ")
		}
		w.b.WriteByte(map[bool]byte{true: '{', false: '['}[labeled])
		w.stack = append(w.stack, false)
		w.indent++
	case "yaml":
		w.yamlLine()
		if label != "" {
			w.b.WriteString(label + ": ")
			w.stack = append(w.stack, true)
		} else {
			w.b.WriteString("- ")
			w.stack = append(w.stack, false)
		}
		w.indent++
	}
}

func (w *pgWriter) close(objtype, label string, labeled bool) {
	switch w.format {
	case "xml":
		w.indent--
		w.xmlTag(objtype, true, true)
	case "json":
		w.indent--
		w.b.WriteByte('\n')
		w.spaces(2 * w.indent)
		w.b.WriteByte(map[bool]byte{true: '}', false: ']'}[labeled])
		w.stack = w.stack[:len(w.stack)-1]
	case "yaml":
		w.indent--
		w.stack = w.stack[:len(w.stack)-1]
	}
}

func (w *pgWriter) prop(p pgProp) {
	switch {
	case p.group != nil:
		w.open(p.key, p.key, true)
		for _, m := range p.group {
			w.prop(m)
		}
		w.close(p.key, p.key, true)
	case p.array:
		w.open(p.key, p.key, false)
		for _, it := range p.items {
			w.open(p.elem, "", true)
			for _, m := range it {
				w.prop(m)
			}
			w.close(p.elem, "", true)
		}
		for _, m := range p.members {
			w.prop(m)
		}
		w.close(p.key, p.key, false)
	case p.list != nil && p.nested:
		w.nestedList(p.key, p.list)
	case p.list != nil:
		w.list(p.key, p.list)
	default:
		w.scalar(p.key, p.value, p.numeric)
	}
}

func (w *pgWriter) scalar(key, value string, numeric bool) {
	switch w.format {
	case "xml":
		w.spaces(2 * w.indent)
		w.xmlTag(key, false, false)
		w.b.WriteString(xmlEscape(value))
		w.xmlTag(key, true, false)
		w.b.WriteByte('\n')
	case "json":
		w.jsonLine()
		w.spaces(2 * w.indent)
		w.b.WriteString(jsonString(key) + ": ")
		if !numeric {
			value = jsonString(value)
		}
		w.b.WriteString(value)
	case "yaml":
		w.yamlLine()
		w.b.WriteString(key + ": ")
		if !numeric {
			value = jsonString(value) // PostgreSQL quotes every YAML string as JSON
		}
		w.b.WriteString(value)
	}
}

func (w *pgWriter) list(key string, items []string) {
	switch w.format {
	case "xml":
		w.xmlTag(key, false, true)
		for _, it := range items {
			w.spaces(2*w.indent + 2)
			w.b.WriteString("<Item>" + xmlEscape(it) + "</Item>\n")
		}
		w.xmlTag(key, true, true)
	case "json":
		w.jsonLine()
		w.spaces(2 * w.indent)
		quoted := make([]string, len(items))
		for i, it := range items {
			quoted[i] = jsonString(it)
		}
		w.b.WriteString(jsonString(key) + ": [" + strings.Join(quoted, ", ") + "]")
	case "yaml":
		w.yamlLine()
		w.b.WriteString(key + ": ")
		for _, it := range items {
			w.b.WriteByte('\n')
			w.spaces(2*w.indent + 2)
			w.b.WriteString("- " + jsonString(it))
		}
	}
}

// nestedList writes a list that is a member of an array: in JSON and YAML
// an unlabeled inline list, in XML a labeled one.
func (w *pgWriter) nestedList(key string, items []string) {
	quoted := make([]string, len(items))
	for i, it := range items {
		quoted[i] = jsonString(it)
	}
	switch w.format {
	case "xml":
		w.list(key, items)
	case "json":
		w.jsonLine()
		w.spaces(2 * w.indent)
		w.b.WriteString("[" + strings.Join(quoted, ", ") + "]")
	case "yaml":
		w.yamlLine()
		w.b.WriteString("- [" + strings.Join(quoted, ", ") + "]")
	}
}

// jsonString quotes s as PostgreSQL's escape_json does.
func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range s {
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if c < 0x20 {
				fmt.Fprintf(&b, `\u%04x`, c)
			} else {
				b.WriteRune(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// xmlEscape escapes s as PostgreSQL's escape_xml does.
func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\r", "&#x0d;").Replace(s)
}
