// Command dynamodb measures what Z-order box queries cost on DynamoDB
// (DynamoDB Local): zproxy's budgeted Z-address ranges against the two
// things a DynamoDB user would otherwise do, one Query over [zmin, zmax]
// per index shard with a FilterExpression, and a filtered full-table Scan.
//
// Flow: start zproxy on the DynamoDB backend, create the readings table and
// its Z-order index through SQL, load the generated rows with multi-row
// INSERTs over a few pgx connections, then read zproxy's catalog straight
// from the DynamoDB table (kv/dynamodb + catalog) to learn the index id and
// Z-order schema. For every query box it runs
//
//	(a) the SQL through zproxy, costs from EXPLAIN ANALYZE (cross-checked
//	    against the /metrics deltas of the plain run),
//	(b) the naive Query per index shard with aws-sdk-go-v2, keys built with
//	    catalog.IndexPartition, Table.ZSchema and zorder.Schema.Encode,
//	(c) a Scan of the whole table with a FilterExpression,
//	(d) optionally, zproxy's own range decomposition of the box clipped to
//	    the index's data bounds at other budgets, issued directly (no
//	    BIGMIN restart), to show what a budget buys,
//
// checks that every method returns the same primary keys, and prints one
// Markdown table per box class (report.go). Loading statements that fail
// with a serialization failure are retried. scripts/bench-dynamodb.sh
// starts DynamoDB Local and runs it; it is not part of `make test`.
//
// With -offline it needs neither: it generates the same rows and boxes in
// memory and counts the index entries each budget's ranges hold and a
// skip-scan reads, under zproxy's encoding and a data-aligned one, and which
// budget the optimizer's cost model would choose at several request
// weights (offline.go).
package main
