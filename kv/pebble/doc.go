// Package pebble is the embedded kv.Store backend, over CockroachDB's Pebble
// LSM. It is zproxy's default store: no setup, one directory.
//
// Data flow: the executor's kv calls arrive here; each item becomes one
// Pebble key, uvarint(len(partition)) ‖ partition ‖ sort (keys.go), whose
// value is the item's attributes in a compact binary form (value.go). Get
// reads keys from one snapshot; Scan is a Pebble iterator whose LowerBound
// and UpperBound are the request's range inside the partition's key span,
// and whose Seek is SeekGE or SeekLT (Rescan moves it to another range
// with SetBounds, kv.Rescanner); Write turns a kv.Batch into Pebble
// batches committed with a WAL sync, after checking conditions while holding
// per-key locks (store.go documents the concurrency model). A batch's
// conditions are checked together (condread.go): an earlier op of the batch
// on the key decides, else the stored item, read by prefix seeks that the
// sstables' bloom filters answer for the absent keys a bulk INSERT checks.
//
// Transactions (txn.go) read a Pebble snapshot merged with their buffered
// writes and commit as one synced batch; first-committer-wins conflicts
// are found in memory, since this process owns the directory. Serializable
// ones (serial.go) also validate what they read against a bounded log of
// the keys committed since their snapshot.
//
// Caches (rowcache.go, rangecache.go): the values point gets read, and
// the whole ranges scans ask to keep (kv.ScanRequest.Reread: gin posting
// lists), are kept in memory under stamps every commit takes before it
// applies, so a reader still sees exactly its snapshot whichever of its
// items come from them.
//
// Every request is reported to the kv.Observer ("get", "scan", "write") and
// to the request's kv.Stats.
package pebble
