// Package catalog owns zproxy's schema: tables, their columns and types,
// primary keys, shard counts and indexes, and stores it in the backing store
// itself so every proxy over the same store sees the same schema. It also
// owns the store layout of rows and index entries (keys.go), including which
// shard an item lies in: a hash of its key, or of the leading shard columns
// of its key (shards.go). A gin index holds each token's posting list as
// blocks of primary keys, with the postings and removals written since its
// last packing beside them (inverted.go, postings.go).
//
// Layout. The catalog lives in one partition of the store (CatalogPartition).
// Each table's descriptor (Table, as JSON) is one item keyed "t/<name>".
// Every change writes, in the same atomic batch, a new version marker
// "v/<version>" under the condition that it does not exist yet: two proxies
// racing on DDL cannot both claim a version, and the loser retries against
// the winner's schema. Table and index IDs are the version at which they were
// created, so they are unique without a separate counter.
//
// Reading. A Catalog caches the descriptors and the version it read them at;
// Snapshot re-reads only when the newest version marker differs (a one-item
// reverse scan). The planner binds each statement against one immutable
// Snapshot, so a statement sees one schema from start to finish.
//
// Statistics (stats.go, stats_collect.go). ANALYZE computes a table's
// TableStats with a StatsCollector (row count; per column null fraction,
// HyperLogLog distinct count, extremes, most common values and an
// equi-depth histogram from a reservoir sample) and stores them as "s/<table
// id>" in a catalog change, so every proxy loads them with its snapshot:
// Snapshot.Stats(tableID) and the selectivity methods of ColumnStats are
// the read API the optimizer and the index advisor use.
package catalog
