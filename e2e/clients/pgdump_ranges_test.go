package clients

import "testing"

// TestPgDumpRangeTypes moves a database with user-defined range types
// (CREATE TYPE ... AS RANGE over float8 and text, their multiranges)
// used by a table's columns and indexes (testdata/pgdump/range_types.sql)
// both ways: PostgreSQL 15's dump into zproxy, and zproxy's dump of that,
// whose CREATE TYPE ... AS RANGE pg_dump writes from zproxy's pg_type and
// pg_range, into PostgreSQL; testdata/pgdump/range_types_check.sql must
// answer alike on all three.
func TestPgDumpRangeTypes(t *testing.T) {
	pgDumpBothWays(t, "rangetypes", "range_types.sql", "range_types_check.sql")
}
