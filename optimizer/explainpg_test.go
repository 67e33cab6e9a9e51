package optimizer_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// pgNodeTypes are the "Node Type" values PostgreSQL 15's EXPLAIN prints.
var pgNodeTypes = set("Result", "ProjectSet", "ModifyTable", "Append", "Merge Append", "Recursive Union",
	"BitmapAnd", "BitmapOr", "Nested Loop", "Merge Join", "Hash Join", "Seq Scan", "Sample Scan", "Gather",
	"Gather Merge", "Index Scan", "Index Only Scan", "Bitmap Index Scan", "Bitmap Heap Scan", "Tid Scan",
	"Tid Range Scan", "Subquery Scan", "Function Scan", "Table Function Scan", "Values Scan", "CTE Scan",
	"Named Tuplestore Scan", "WorkTable Scan", "Foreign Scan", "Custom Scan", "Materialize", "Memoize", "Sort",
	"Incremental Sort", "Group", "Aggregate", "WindowAgg", "Unique", "SetOp", "LockRows", "Limit", "Hash")

// pgKeys are the keys PostgreSQL 15's structured EXPLAIN puts on a plan
// node, and pgQueryKeys those beside "Plan"; zproxy's own keys start with
// "zproxy ".
var (
	pgKeys = set("Node Type", "Strategy", "Partial Mode", "Operation", "Parent Relationship", "Subplan Name",
		"Parallel Aware", "Async Capable", "Scan Direction", "Index Name", "Relation Name", "Schema", "Alias",
		"Function Name", "CTE Name", "Join Type", "Command", "Startup Cost", "Total Cost", "Plan Rows",
		"Plan Width", "Actual Startup Time", "Actual Total Time", "Actual Rows", "Actual Loops", "Output",
		"Inner Unique", "Hash Cond", "Merge Cond", "Join Filter", "Filter", "Index Cond", "Order By", "Recheck Cond",
		"Sort Key", "Group Key", "Grouping Sets", "Plans", "WAL Records", "WAL FPI", "WAL Bytes")
	pgQueryKeys = set("Plan", "Settings", "Planning", "Planning Time", "Triggers", "Execution Time")
)

func set(s ...string) map[string]bool {
	m := map[string]bool{}
	for _, x := range s {
		m[x] = true
	}
	return m
}

// goldenDocs returns the EXPLAIN documents of a golden plan file: what
// follows each "----" line up to the next blank line, without NOTICEs.
func goldenDocs(t *testing.T, file string) []string {
	t.Helper()
	docs, _ := goldenCases(t, file)
	return docs
}

// goldenCases returns goldenDocs and, for each, whether its statement
// asks for costs (no COSTS off).
func goldenCases(t *testing.T, file string) (docs []string, costs []bool) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(string(data), "\n----\n")
	for i, part := range parts[1:] {
		stmt := parts[i]
		if j := strings.LastIndex(stmt, "\n\n"); j >= 0 {
			stmt = stmt[j:]
		}
		costs = append(costs, !strings.Contains(strings.ToUpper(stmt), "COSTS OFF"))
		doc, _, _ := strings.Cut(part, "\n\n")
		for strings.HasPrefix(doc, "NOTICE: ") {
			_, doc, _ = strings.Cut(doc, "\n")
		}
		if i := strings.Index(doc, "\non execution: "); i >= 0 {
			doc = doc[:i]
		}
		docs = append(docs, doc)
	}
	if len(docs) == 0 {
		t.Fatalf("%s holds no plans", file)
	}
	return docs, costs
}

// nodeTypes walks a JSON plan node, parents first, checking its keys
// against PostgreSQL's, and returns the node types.
func nodeTypes(t *testing.T, where string, node map[string]any, costs bool) []string {
	t.Helper()
	typ, _ := node["Node Type"].(string)
	if !pgNodeTypes[typ] {
		t.Errorf("%s: node type %q is not PostgreSQL's", where, typ)
	}
	for _, k := range []string{"Parallel Aware", "Async Capable"} {
		if _, ok := node[k].(bool); !ok {
			t.Errorf("%s: %s node without the boolean %q", where, typ, k)
		}
	}
	for k := range node {
		if !pgKeys[k] && !strings.HasPrefix(k, "zproxy ") {
			t.Errorf("%s: %s node has key %q, neither PostgreSQL's nor zproxy's", where, typ, k)
		}
	}
	if costs {
		checkCosts(t, where, node)
	} else if _, ok := node["Total Cost"]; ok {
		t.Errorf("%s: %s node has costs under COSTS off", where, typ)
	}
	types := []string{typ}
	kids, _ := node["Plans"].([]any)
	for _, k := range kids {
		kid, ok := k.(map[string]any)
		if !ok {
			t.Fatalf("%s: a member of Plans is %T", where, k)
		}
		if _, ok := kid["Parent Relationship"].(string); !ok {
			t.Errorf("%s: %s node under %s without a Parent Relationship", where, kid["Node Type"], typ)
		}
		types = append(types, nodeTypes(t, where, kid, costs)...)
	}
	return types
}

// parseJSONPlan checks one EXPLAIN (FORMAT JSON) document's shape: an
// array of one object with "Plan" and PostgreSQL's keys beside it.
func parseJSONPlan(t *testing.T, where, doc string, costs bool) []string {
	t.Helper()
	var top []map[string]any
	if err := json.Unmarshal([]byte(doc), &top); err != nil || len(top) != 1 {
		t.Fatalf("%s: not a JSON array of one plan (%v):\n%s", where, err, doc)
	}
	for k := range top[0] {
		if !pgQueryKeys[k] && !strings.HasPrefix(k, "zproxy ") {
			t.Errorf("%s: key %q beside the plan", where, k)
		}
	}
	plan, ok := top[0]["Plan"].(map[string]any)
	if !ok {
		t.Fatalf("%s: no Plan object", where)
	}
	if _, ok := plan["Parent Relationship"]; ok {
		t.Errorf("%s: the top node has a Parent Relationship", where)
	}
	return nodeTypes(t, where, plan, costs)
}

// checkCosts checks that a node has PostgreSQL's four estimates, and that
// they compose as PostgreSQL's do: startup within total, rows whole, a
// Sort or Hash paying its input's run before its first row, a Limit at
// most its input's run.
func checkCosts(t *testing.T, where string, node map[string]any) {
	t.Helper()
	typ := node["Node Type"]
	nums := map[string]float64{}
	for _, k := range []string{"Startup Cost", "Total Cost", "Plan Rows", "Plan Width"} {
		v, ok := node[k].(float64)
		if !ok {
			t.Errorf("%s: %s node without %q", where, typ, k)
			return
		}
		nums[k] = v
	}
	if nums["Startup Cost"] > nums["Total Cost"] || nums["Startup Cost"] < 0 || nums["Plan Rows"] < 0 || nums["Plan Width"] < 0 {
		t.Errorf("%s: %s node's estimates do not hold together: %v", where, typ, nums)
	}
	kids, _ := node["Plans"].([]any)
	if len(kids) == 0 {
		return
	}
	outer := kids[0].(map[string]any)
	if outer["Parent Relationship"] != "Outer" {
		return
	}
	in, _ := outer["Total Cost"].(float64)
	switch typ {
	case "Sort", "Hash":
		if nums["Startup Cost"] < in {
			t.Errorf("%s: %s starts (%.2f) before its input ends (%.2f)", where, typ, nums["Startup Cost"], in)
		}
	case "Limit":
		if nums["Total Cost"] > in+0.005 {
			t.Errorf("%s: Limit costs %.2f, more than its input's %.2f", where, nums["Total Cost"], in)
		}
	}
}

// TestStructuredPlansHavePostgresShape checks every plan of the JSON and
// XML golden files against PostgreSQL 15's vocabulary: node types and keys
// (taken from the server's own EXPLAIN output), nesting, the XML namespace.
func TestStructuredPlansHavePostgresShape(t *testing.T) {
	docs, costs := goldenCases(t, "testdata/plans/json.golden")
	for i, doc := range docs {
		parseJSONPlan(t, fmt.Sprintf("json.golden plan %d", i+1), doc, costs[i])
	}
	for i, doc := range goldenDocs(t, "testdata/plans/xml.golden") {
		var root struct {
			XMLName xml.Name
			Query   struct {
				Plan struct {
					NodeType string `xml:"Node-Type"`
				}
			}
		}
		if err := xml.Unmarshal([]byte(doc), &root); err != nil {
			t.Errorf("xml.golden plan %d: %v", i+1, err)
			continue
		}
		if root.XMLName.Space != "http://www.postgresql.org/2009/explain" || root.XMLName.Local != "explain" ||
			!pgNodeTypes[root.Query.Plan.NodeType] {
			t.Errorf("xml.golden plan %d: root %v, top node %q", i+1, root.XMLName, root.Query.Plan.NodeType)
		}
	}
	for i, doc := range goldenDocs(t, "testdata/plans/yaml.golden") {
		if !strings.HasPrefix(doc, "- Plan: \n    Node Type: ") {
			t.Errorf("yaml.golden plan %d does not open as PostgreSQL's does:\n%s", i+1, doc)
		}
	}
}

// pev2Dir holds PEV2, the plan viewer of explain.dalibo.com, installed by
// scripts/install-client-deps.sh (nothing of it is committed).
const pev2Dir = "testdata/pev2"

// gridNode matches one node of PEV2's grid view: "#3 ├ Seq Scan".
var gridNode = regexp.MustCompile(`#(\d+) [└├│ ]*`)

// TestPEV2ReadsJSONPlans loads every plan of json.golden into PEV2's own
// plan view (its parser), in Node with jsdom, and checks that PEV2 takes
// each and lists the nodes the plan has, in order.
func TestPEV2ReadsJSONPlans(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		missing(t, "node is not on PATH")
	}
	if _, err := os.Stat(filepath.Join(pev2Dir, "node_modules/pev2/package.json")); err != nil {
		missing(t, "PEV2 is not installed in "+pev2Dir+"/node_modules (scripts/install-client-deps.sh)")
	}
	dir := t.TempDir()
	docs, costs := goldenCases(t, "testdata/plans/json.golden")
	want := map[string][]string{}
	var files []string
	for i, doc := range docs {
		f := filepath.Join(dir, fmt.Sprintf("plan%02d.json", i+1))
		if err := os.WriteFile(f, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
		want[f] = parseJSONPlan(t, filepath.Base(f), doc, costs[i])
	}
	cmd := exec.Command("node", append([]string{"check.mjs"}, files...)...)
	cmd.Dir = pev2Dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node check.mjs: %v\n%s", err, stderr.String())
	}
	seen := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var r struct {
			File    string
			Refused bool
			Errors  []string
			Text    string
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("node check.mjs printed %q", sc.Text())
		}
		seen++
		name := filepath.Base(r.File)
		if r.Refused || len(r.Errors) > 0 {
			t.Errorf("%s: PEV2 could not read the plan: %v", name, r.Errors)
			continue
		}
		// The grid lists each node as "#n" and its name; PEV2 renames a
		// few (an Aggregate by its strategy, a ModifyTable by its
		// operation, a join with its type), so only their count is held
		// to the plan's, and the name of the nodes PEV2 keeps.
		grid := r.Text
		if i := strings.Index(grid, "#1 "); i >= 0 {
			grid = grid[i:]
		}
		if j := strings.Index(grid, " none duration"); j >= 0 {
			grid = grid[:j]
		}
		numbers := gridNode.FindAllStringSubmatch(grid, -1)
		if len(numbers) != len(want[r.File]) {
			t.Errorf("%s: PEV2 shows %d nodes, the plan has %d (%v): %s", name, len(numbers), len(want[r.File]), want[r.File], grid)
			continue
		}
		for _, typ := range want[r.File] {
			if (typ == "Seq Scan" || typ == "Index Scan" || typ == "Index Only Scan" || typ == "Sort" || typ == "Limit" ||
				typ == "Result" || typ == "Hash" || typ == "Append" || typ == "Function Scan" || typ == "Values Scan") && !strings.Contains(grid, typ) {
				t.Errorf("%s: PEV2 shows no %s node: %s", name, typ, grid)
			}
		}
	}
	if seen != len(files) {
		t.Errorf("PEV2 answered for %d of %d plans:\n%s", seen, len(files), stderr.String())
	}
}

// missing skips a test whose tool is absent, but fails it in CI, where
// scripts/install-client-deps.sh installs it.
func missing(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s, and CI=true", why)
	}
	t.Skip(why)
}
