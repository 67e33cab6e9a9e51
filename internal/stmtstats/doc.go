// Package stmtstats keeps statement statistics in the proxy's memory, per
// normalised statement, as PostgreSQL's pg_stat_statements does: calls,
// planning and execution times (total, min, max, mean, standard deviation),
// rows, and zproxy's own figures: items read, store requests, DynamoDB
// capacity, the access paths chosen and full scans.
//
// The store is bounded (Max entries, PostgreSQL's pg_stat_statements.max):
// when a new statement finds it full, the least-used 5% are evicted, usage
// being calls decayed at each eviction, so a statement run often long ago
// gives way to one run often now. Each entry also keeps a small random
// sample of its executions' workload records (opaque here: the optimizer's
// account of what each table read bound), which the index advisor reads;
// keeping them opaque lets the catalogs, below the optimizer, list
// statements.
//
// The session records each completed statement (session/stmtstats.go);
// pg_stat_statements (catalog/pgcatalog) and the Prometheus collector of
// the top statements (internal/metrics) read snapshots.
package stmtstats
