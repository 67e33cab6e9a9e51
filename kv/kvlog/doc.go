// Package kvlog is a kv.Store for tests that records every request it
// forwards to a real store, in a readable, deterministic text form, so a
// test can assert exactly which keys, ranges, seeks and writes a plan makes
// (the "fake store that logs every call" of Vitess's tests, but backed by a
// real store so results stay real).
//
// Flow: the code under test calls Get, Scan (and the iterator's Next, Seek,
// Close) and Write on a *Store; each call is recorded as an Entry and then
// forwarded unchanged to the wrapped store. A scan is one Entry that keeps
// counting the items its iterator returns and the targets it seeks to until
// it is closed, so concurrent shard streams cannot interleave the lines of
// one scan. Entries() and Lines() return what was recorded in call order;
// SortedLines() gives an order independent of goroutine scheduling.
//
// Partitions are rendered by Options.Partition (tests pass one that names
// tables and indexes, "readings/3"), keys as hex, and attributes as
// name=value. Options.Ignore drops requests that touch only partitions the
// test does not care about (the catalog).
package kvlog
