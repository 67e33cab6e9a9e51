// Package optimizer turns a bound statement (package planner) into a
// physical plan: a tree of operators whose leaves are the access paths
// chosen for each table.
//
// Flow: ir.Rel (the logical plan) → the ordered logical rules
// (rules.go: decorrelate EXISTS/IN into semi and anti joins, push predicates
// down and simplify outer joins) → the physical build (physical.go), which
// walks the tree with a request from each parent (the columns it reads, the
// order it wants, a limit) and, for each table read, extracts per-column
// bounds from its conjuncts and chooses the access path by the ordered
// rules of ARCHITECTURE.md, kept as one table in access_rules.go (hint;
// point get; with the table's statistics, the least estimated cost in items
// read and store requests; without them, longest prefix with tie-breaks
// covering → delivers ORDER BY → fewer shards, or Z-order when its
// estimated fraction of the search space beats the best prefix path; full
// scan, guarded by a setting), the shards each key range lies in
// (shards.go: one, when equalities bind the placement's shard columns), and
// for each join its method (joinplan.go:
// Apply for LATERAL, lookup join when the join keys bind a key prefix of
// the inner table, hash join, nested loop). Subqueries become SubPlan
// expressions. Bounds come from comparisons with statement constants (now()
// included) and from truncations of timestamp columns (derived_bounds.go);
// an aggregation whose groups are runs of an ordered input streams
// (streamagg.go).
//
// The optimizer plans with parameter values known (the session plans at
// execution), so key ranges and Z-order boxes are concrete; a scan that
// reads an outer row is planned again when it opens (Scan.Resolve). It
// produces plans as data; package executor runs them; Explain (text)
// and ExplainStructured (PostgreSQL's JSON, YAML and XML) render one walk
// over each node's Describe. It reads
// kv.Capabilities to pick Z-order skip-scan (cheap seeks) or budgeted range
// sets (one request per range), never the backend's name; a range set's
// budget is the one whose cover costs least, priced by the rows it reads
// (its addresses inside the index's data bounds, access_rules.go). Each Scan also
// records what its read bound (TableUse, workload.go) for the index
// advisor.
//
// Tests: testdata/access holds data-driven cases that need no store and no
// session (DDL bound into an in-memory snapshot, then each query's chosen
// paths, key ranges, residual filters and rejections, or its whole plan;
// TestAccessPaths, -rewrite to regenerate); testdata/plans holds the golden
// plans of whole statements through a session on Pebble (TestGoldenPlans,
// -update).
package optimizer
