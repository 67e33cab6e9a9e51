package clients

import "testing"

// TestPgDumpPartitions moves a database of partitioned tables (range,
// list and hash, a sub-partitioned partition, a default partition, an
// identity column, a primary key, a unique constraint, indexes of the
// partitioned table and of one partition; testdata/pgdump/partitions.sql)
// both ways: PostgreSQL 15's dump into zproxy, whose ALTER TABLE ONLY,
// CREATE INDEX ... ON ONLY and ALTER INDEX ... ATTACH PARTITION statements
// rebuild the tree, and zproxy's dump of that into PostgreSQL;
// testdata/pgdump/partitions_check.sql must answer alike on all three.
func TestPgDumpPartitions(t *testing.T) {
	pgDumpBothWays(t, "partitions", "partitions.sql", "partitions_check.sql")
}
