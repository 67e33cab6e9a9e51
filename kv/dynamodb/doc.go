// Package dynamodb is the kv.Store backend on Amazon DynamoDB (or DynamoDB
// Local, or another compatible service), through aws-sdk-go-v2.
//
// # Table
//
// All of zproxy lives in one table (Options.Table) with a binary partition
// key "~pk" (HASH) and a binary sort key "~sk" (RANGE), on-demand billing.
// Open creates it when missing and waits until it is active; an existing
// table with another key schema is a start-up error. Both key attributes
// hold the kv key with one leading 0x00 byte (DynamoDB forbids empty binary
// keys; kv allows them), which keeps the bytewise order, so kv sort-key
// ranges map directly onto sort-key conditions. Usable key lengths are
// therefore 2047 (partition) and 1023 (sort) bytes.
//
// # Items
//
// Each kv.Attr is an ordinary, typed attribute under its own name, so other
// DynamoDB tools see the columns:
//
//	AttrNull   NULL
//	AttrBool   BOOL
//	AttrInt    N  (strconv.FormatInt)
//	AttrFloat  N  (shortest text that round-trips)
//	AttrString S  (empty strings allowed)
//	AttrBytes  B  (empty allowed)
//
// A float N cannot hold — NaN, ±Inf, -0, and magnitudes outside DynamoDB's
// [1e-130, 1e126) — is stored as S ("NaN", "Infinity", "-Infinity", "-0",
// "1e+300"). DynamoDB normalises numbers and does not remember whether an N
// was an int or a float (2.0 comes back as "2"), so an item lists in the
// string-set attribute "~float" the names of its floats that are integral
// or stored as S; those read back as AttrFloat. Any other N reads back as
// AttrInt when its text has no '.', 'e' or 'E' and fits an int64, else as
// AttrFloat — the rule for numbers other tools wrote, which the row decoder
// coerces by column type. S must be UTF-8, so a string that is not is
// stored as B and listed in "~text". Attribute names starting with "~" are
// reserved for zproxy and rejected on write. Decoded attributes come back
// sorted by name: DynamoDB keeps no order. DynamoDB's size limits apply: a
// key past its 2,048-byte partition or 1,024-byte sort key is refused with a
// *kv.KeyTooLongError before any request; 400 KB per item (names and
// values) and 4 MB per transaction surface as its ValidationException.
//
// # Requests
//
//   - Get: BatchGetItem, 100 distinct keys per request, requests in parallel
//     (Options.MaxConcurrency), UnprocessedKeys retried with backoff, results
//     in key order.
//   - Scan: Query on one partition with one sort-key condition (see
//     Store.Scan for how half-open ranges map onto it), ScanIndexForward
//     false in reverse, one page per round trip fetched when Next needs it
//     (items are streamed, not collected), the Limit hint sizing the first
//     page. Seek within the current page is free; beyond it the Query
//     restarts at the new bound — the executor's "restart at BIGMIN" when a
//     Z-order range turns sparse. An iterator is a kv.Prefetcher: Prefetch
//     sends its first Query on a goroutine of its own, so the executor reads
//     up to MaxConcurrency ranges of a scan at once (Capabilities.
//     ScanFanout); the page is resolved when Next reaches it, and a
//     transaction's is read again if its snapshot moved meanwhile.
//   - Write: an atomic batch is one TransactWriteItems (≤100 actions; a
//     condition is attribute_not_exists / attribute_exists on "~pk"; a
//     cancellation for a failed condition is a *kv.ConditionFailedError, for
//     a conflict or throttling it is retried); a non-atomic batch is
//     BatchWriteItem chunks of 25 with UnprocessedItems retried. Ops on the
//     same key are merged first (see Store.Write).
//   - Transactions (Begin): TRANSACTIONS.md. Reads as above, strongly
//     consistent, validated; a commit of up to 100 writes is one
//     TransactWriteItems, a larger one places intents (UpdateItem per key)
//     under a transaction record and resolves them (PutItem per key).
//
// # Versions, tombstones, intents
//
// Every item zproxy writes carries its commit timestamp in "~ts"; an
// atomic or transactional delete leaves a tombstone ("~del", expiring
// through DynamoDB's TTL on "~exp", which Open enables) so snapshot readers
// can tell a recent delete from an old absence (a transaction begun with
// kv.TxnOptions.PurgeDeletes removes its own after its commit, purge.go);
// a large transaction's
// pending write is an intent ("~txn", "~op", "~new") next to the committed
// value. Get and Scan hide tombstones and show what an intent's
// transaction record decides; writes clear finished transactions' intents
// in their way and conflict with live ones (*kv.ConflictError).
//
// # Errors, retries, accounting
//
// The SDK's standard retryer (Options.MaxAttempts, Options.MaxBackoff, no
// client-side retry quota) retries throttling, 5xx and connection errors.
// What is still failing afterwards — and zproxy's own retries of unprocessed
// items and conflicting transactions once exhausted — is returned as
// *kv.UnavailableError; validation errors are returned as they are. Every
// request asks for ReturnConsumedCapacity TOTAL and reports its duration,
// error and capacity to the Observer (ops "query", "batch_get",
// "transact_write", "batch_write", "purge_tombstone", and for large
// transactions "place_intents", "resolve_intents" and the records' ops) and to the
// statement's kv.Stats.
// Credentials come from the SDK's default chain unless Options.Credentials
// is set; nothing here logs them.
//
// # DynamoDB Local
//
// With Options.Endpoint set, the response CRC32 check is off (DynamoDB Local
// leaves the header out of some responses). DynamoDB Local 3.x accepts only
// access key ids made of letters and digits, and keeps one database per
// key and region unless started with -sharedDb, as
// scripts/dynamodb-local.sh does. The tests start it through that script on
// a free port, or use DYNAMODB_ENDPOINT.
package dynamodb
