// Package pgoracle connects zproxy's generators and oracle tests to the
// PostgreSQL 15 server they read facts from (catalog columns, types,
// settings): the one place that checks it is PostgreSQL 15.
package pgoracle

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
)

// Connect opens dsn and checks that the server is PostgreSQL 15,
// returning its version (SHOW server_version: "15.18 (Debian ...)").
func Connect(ctx context.Context, dsn string) (*pgx.Conn, string, error) {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return nil, "", err
	}
	var version string
	if err := conn.QueryRow(ctx, "SHOW server_version").Scan(&version); err != nil || !strings.HasPrefix(version, "15.") {
		conn.Close(ctx)
		return nil, "", fmt.Errorf("need PostgreSQL 15, got %q (%v)", version, err)
	}
	return conn, version, nil
}
