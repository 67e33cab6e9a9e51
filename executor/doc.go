// Package executor runs physical plans (package optimizer) against a
// kv.Store and applies writes with index maintenance.
//
// Reading. Build turns a plan tree into a tree of pull-based row iterators.
// The leaf is the scan of the access path: a point get (one batched Get), or
// one stream per shard — each reading its key ranges in order, following
// index entries to table rows in batches when the index does not cover the
// query, skipping out-of-box Z-order entries by seeking to BIGMIN — merged
// with a k-way merge when the plan needs key order, or interleaved as they
// arrive otherwise. Shard streams run in their own goroutines; a semaphore
// bounds how many store requests are in flight at once. Above the scan,
// Aggregate, Filter, Project, Distinct, Sort/TopN and Limit work row by row;
// Sort and Aggregate hold their input in memory (see MaxSortRows).
//
// Writing. Insert, Update and Delete turn each changed row into a row put or
// delete plus, for every index of the table (building or public), the
// removal of the row's old entry and the write of its new one, all in one
// atomic kv.Batch per statement when the backend allows that many ops, so
// an index is never out of step with its table.
//
// Every operator counts what it did in optimizer.NodeStats, which EXPLAIN
// ANALYZE prints and the session turns into metrics.
package executor
