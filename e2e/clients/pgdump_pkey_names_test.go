package clients

import "testing"

// TestPgDumpPrimaryKeyNames loads a PostgreSQL 15 dump of tables whose
// primary keys have names of their own (testdata/pgdump/pkey_names.sql)
// and of a partitioned table with a row trigger into zproxy: the keys
// keep their names, the partitions list the trigger's copies, and a row
// written to a partition fires it, as on PostgreSQL.
func TestPgDumpPrimaryKeyNames(t *testing.T) {
	pgDumpIntoZproxy(t, "pkey_names", "pkey_names.sql", "pkey_names_check.sql")
}
