// Package optimizer turns a bound statement (package planner) into a
// physical plan: a tree of operators whose leaf is the chosen access path.
//
// Flow: planner.Select → extract per-column bounds from the WHERE conjuncts
// (points, ranges, IN lists, ORs on one column, LIKE prefixes) → build one
// candidate per access path (primary key, each public btree index, each
// public Z-order index, full scan) → choose by the ordered rules of
// DESIGN.md (hint; point get; longest prefix with tie-breaks covering →
// delivers ORDER BY → fewer shards; Z-order when its estimated fraction of
// the search space beats the best prefix path; full scan, guarded by a
// setting) → wrap the access path in Filter/Aggregate/Project/Sort/Limit
// operators, pushing ORDER BY and LIMIT into the scan when the path already
// yields the requested order.
//
// The optimizer plans with parameter values known (the session plans at
// execution), so key ranges and Z-order boxes are concrete. It produces
// plans as data; package executor runs them; Explain renders them. It reads
// kv.Capabilities to pick Z-order skip-scan (cheap seeks) or budgeted range
// sets (one request per range), never the backend's name.
package optimizer
