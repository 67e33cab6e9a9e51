package ir

// Reshard is the placement an ALTER TABLE SET / RESET of shards and
// shard_columns moves a table's rows to: the executor copies them, as for a
// primary-key change (executor/rekey.go).
type Reshard struct {
	Shards, ShardColumns int
}
