// Package kvsplit is one kv.Store over two: a main store and a local one,
// each request going to the store that owns its partitions.
//
// It is for temporary tables. CREATE TEMP TABLE keeps the table's rows,
// index entries, sequence state and its session's private catalog in a
// proxy-local store (an embedded Pebble in a temporary directory), while
// everything else stays in the main store (Pebble or DynamoDB, possibly
// shared by many proxies). The executor reads and writes through one
// kv.Store, and a statement or a transaction may touch both kinds of table,
// so New gives it a store that routes each request by partition: a
// predicate, isLocal, says which partitions are local.
//
// Routing: Get splits its keys between the stores when they are of both
// kinds and merges the answers back in request order; a request of one
// kind goes straight through. Scan reads one partition, so it goes to one
// store, and its iterator is that store's own (a kv.KeyIterator stays one).
// Write splits a mixed non-atomic batch in two; a mixed atomic batch runs
// as a split transaction, so that it still applies all or nothing with its
// conditions checked.
//
// The split store offers what both stores offer: kv.Transactional when both
// are, kv.BulkWriter when both are (a bulk batch stays on the side of its
// first ops), and kv.Compacter when main is (local partitions are compacted
// when local is one too). Capabilities are main's: the planner plans for
// the main store, the local one being faster at everything.
//
// A split transaction begins main's transaction at once and local's only
// when it first reads or writes a local partition, since most transactions
// never touch a temporary table. (Local's snapshot is then taken later
// than main's, which nobody can tell, since only the session itself writes
// its temporary tables.) Its savepoints pair the two transactions'
// savepoints; rolling back to one taken before the local transaction began
// abandons the local transaction, to be begun again if needed.
//
// Commit order: main commits first, then local. Main's commit is the one
// that can fail for reasons beyond the proxy (a conflict with another
// transaction, possibly of another proxy; an unreachable store): if it
// fails, local's transaction is rolled back and nothing of the transaction
// is applied. Local's commit cannot realistically conflict, since the
// temporary tables are private to one session and no other transaction
// writes them, so once main has committed local's commit succeeds but for
// a local I/O failure (a full disk), which would leave main's writes
// applied without local's. Committing in the other order would be worse:
// a main conflict, the common failure, would come after local's writes
// were already applied, with nothing to undo them.
//
// Ownership: Close closes the local store (the split store owns it) and
// not the main store, which belongs to whoever opened it; after Close the
// split store refuses every request with kv.ErrClosed.
package kvsplit
