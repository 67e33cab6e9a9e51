package geo

import (
	"context"
	"os"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// postGISConn connects the tests that compare this package with PostGIS
// to the database GEO_POSTGIS_DSN names ('host=... dbname=...'), skipping
// them when it is not set; the connection closes when the test ends.
func postGISConn(t *testing.T) *pgconn.PgConn {
	t.Helper()
	dsn := os.Getenv("GEO_POSTGIS_DSN")
	if dsn == "" {
		t.Skip("GEO_POSTGIS_DSN is not set")
	}
	conn, err := pgconn.Connect(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}
