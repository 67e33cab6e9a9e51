// Package kvtxn is the backend-neutral half of kv transactions (kv.Txn):
// the write buffer, the merge of buffered writes into snapshot reads,
// condition checks against the transaction's view, and savepoints. A
// backend supplies the other half, a Backend: reads at a snapshot and an
// atomic, conflict-checked commit of the net writes.
//
// The buffer is a persistent treap keyed by (partition, sort): every write
// produces a new root and keeps the old one, so a savepoint is a remembered
// root, RollbackTo restores it, and a Scan iterates the root it opened with,
// never meeting writes the transaction makes while the scan is open (the
// Halloween problem of an UPDATE that scans the rows it rewrites).
//
// Puts of fresh batches (kv.Batch.Fresh: loads into a table new to the
// transaction) bypass the treap into an append-only run (run.go), sorted
// and merged with the treap at commit, folded into it when something
// reads, locks or otherwise writes one of its partitions first.
package kvtxn
