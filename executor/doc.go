// Package executor runs physical plans (package optimizer) against a
// kv.Store and applies writes with index maintenance.
//
// Reading. Run builds one pull-based iterator per node of the plan tree.
// The leaves are the access paths: a point get (one batched Get), or one
// stream per shard read — each reading its key ranges in order (those its
// shard holds, when the plan's shard columns place each range; with one
// iterator moved from range to range where the store allows it,
// kv.Rescanner), following index
// entries to table rows in batches when the index does not cover the query,
// skipping out-of-box Z-order entries by seeking to BIGMIN (on a store with
// cheap seeks after stepping up to stepsBeforeSeek entries towards it, since
// the next in-box entry is often that close and a Next costs a fraction of
// a seek; on DynamoDB after sparseSeek misses in a row) — merged with a
// k-way merge when the plan needs key order, or interleaved as they arrive
// otherwise. A stream is resumable (it fills one batch at a time and keeps
// its place): a single shard, a small limit on an in-process store, or an
// aggregate computed inside the scan (scanagg.go, which feeds every item
// to the aggregates from one reused row), or a bare scan whose rows are
// pushed to the consumer (push.go: COPY TO, each row encoded from the one
// reused row as it is decoded) is read on the consumer's own goroutine; otherwise each shard runs in a goroutine of its own and a
// semaphore bounds how many store requests are in flight at once. Items
// are decoded into only the columns the plan reads (catalog.RowDecoder,
// whose attributes the scan names to the store: kv.ScanRequest.Attrs), a
// Z-order skip-scan judges an entry by its key before decoding its value
// (kv.KeyIterator), and a limited scan of a non-covering index looks rows
// up as soon as the
// entries read could meet the limit. Above them: joins (a
// lookup join reads the inner table for batches of outer rows, a hash join
// builds its right input, a nested loop keeps it, an Apply runs it per left
// row with that row as its outer row), aggregation (hashed, or streamed
// group by group when the input arrives in group order; each aggregate's
// accumulator is found by name in aggregators, filled from the init of its
// own file), windows (window functions proper in window_funcs.go, found
// by name the same way),
// set-returning functions (tablefunc.go), set operations, CTEs (a shared
// one is computed once), sorts (a top-n with a small limit as a bounded
// heap) and limits.
// Subplans inside expressions run through execCtx.RunSubplan. Operators
// that hold rows charge the statement's memory budget (zproxy.work_mem) and
// every loop looks at the statement's context periodically, so a cancel or
// a timeout stops any statement promptly.
//
// Writing. Write runs an Insert, Update or Delete plan: each changed row
// becomes a row put or delete plus, for every index of the table (building
// or public), the removal of the row's old entry and the write of its new
// one, all in one atomic kv.Batch per statement when the backend allows
// that many ops, so an index is never out of step with its table.
// BulkInsert (copy.go) is the same path for a stream of rows (COPY FROM),
// batch by batch, all of them atomic. A gin index's entries are added
// postings and removals beside the blocks of its lists (catalog/
// postings.go); PackInverted (ginpack.go) folds them into the blocks, for
// an index build, VACUUM and the automatic analysis.
//
// Every operator counts what it did in optimizer.NodeStats, which EXPLAIN
// ANALYZE prints and the session turns into metrics.
package executor
