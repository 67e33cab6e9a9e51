// Command sidebyside is zproxy's side-by-side benchmark harness: it loads the
// same generated readings data into a zproxy on the embedded store and into a
// stock PostgreSQL 15, creates the equivalent indexes in each, runs the same
// query classes through the wire with pgx and prints per class the median and
// p99 latency of each system, their ratio, zproxy's items read per row
// returned, and whether both returned the same rows. It also measures
// multi-row INSERT throughput into zproxy with 0, 1 and 2 indexes, mutable
// and immutable_rows.
//
// With -workload star it adds two dimension tables, sensors and regions,
// and runs instead the joins a dashboard sends (readings joined to both,
// grouped by region), reporting zproxy's items read per fact row and the
// plans both systems chose.
//
// With -workload triggers it measures instead the insert rate of a
// trigger-maintained table (an updated_at BEFORE ROW trigger and an audit
// AFTER ROW trigger writing a history table) against the same table
// without triggers, single-row and 1000-row INSERTs (triggers.go).
//
// Data flows generator → (multi-row INSERT over pgx) → both servers; query
// parameters come from the same seed, so each query runs with identical
// arguments against both, and each result is fingerprinted and compared.
// zproxy's read amplification comes from deltas of its /metrics counters
// around each class and from EXPLAIN ANALYZE of a few sample queries.
//
// It is not part of the test suite; scripts/bench-sidebyside.sh runs it
// (see bench/README.md).
package main
