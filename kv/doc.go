// Package kv is zproxy's storage contract: items addressed by a partition key
// and a sort key, the model DynamoDB, Bigtable and Spanner share.
//
// The executor is the only caller. It reads with Get (a batch of exact keys)
// and Scan (one partition, a half-open [Start, End) range of sort keys, in
// either direction, streamed through an Iterator that can also Seek forward
// for Z-order skip-scans), and writes with Write (a Batch of puts and deletes,
// optionally conditional, applied atomically when the backend's Capabilities
// allow a batch that size).
//
// An item's value is a list of named, typed attributes (Attr) rather than an
// opaque blob, so a backend like DynamoDB can store each column as an
// ordinary typed attribute other tools can read; the embedded backend packs
// the same attributes into bytes. A scan may name the attributes it reads
// (ScanRequest.Attrs) and a backend may then return only those; an iterator
// that can give an item's key before decoding its value (KeyIterator) lets a
// caller that skips items by key, as a Z-order skip-scan does, skip their
// decoding too.
//
// A scan that will likely be read again whole (a gin index's posting list)
// says so (ScanRequest.Reread); a backend may keep the range in memory, and
// an iterator over items held so can hand over all their keys at once
// (KeyLister) for a caller that intersects several lists.
//
// Transactions (Transactional, Txn): Begin returns a Txn whose Get and Scan
// read a snapshot merged with the transaction's own buffered writes, whose
// Write buffers (checking conditions at once) and whose Commit applies
// everything atomically whatever its size, or fails with a *ConflictError
// when another transaction committed a write to one of its keys first
// (snapshot isolation, first committer wins). Locks (Txn.Lock) serve
// SELECT ... FOR SHARE / FOR UPDATE, savepoints serve SAVEPOINT. The
// backend-neutral half lives in kv/kvtxn.
//
// Backends live in subpackages (kv/pebble, kv/dynamodb). They report their
// limits through Capabilities so the executor and optimizer adapt (batch
// splitting, range budgets) without knowing which backend they run on, and
// report requests, timings and consumed capacity to an Observer and to the
// per-statement Stats.
package kv
