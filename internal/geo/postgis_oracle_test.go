package geo

import (
	"context"
	"os"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/zproxy/zproxy/e2e/harness"
)

// postGISConn connects the tests that compare this package with PostGIS
// to a database with PostGIS: the one GEO_POSTGIS_DSN names
// ('host=... dbname=...'), else a PostgreSQL 15 cluster of its own (the
// e2e harness's, which the test command installs with PostGIS). Without
// either the test is skipped, but not under CI. The connection closes,
// and the cluster stops, when the test ends.
func postGISConn(t *testing.T) *pgconn.PgConn {
	t.Helper()
	ctx := context.Background()
	dsn := os.Getenv("GEO_POSTGIS_DSN")
	if dsn == "" {
		dsn = harness.ThrowawayPostgres(t, "")
	}
	conn, err := pgconn.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	if _, err := conn.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS postgis").ReadAll(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("PostGIS (Debian's postgresql-15-postgis-3, which the test command installs): %v", err)
		}
		t.Skipf("PostGIS is not installed for PostgreSQL 15: %v", err)
	}
	return conn
}
