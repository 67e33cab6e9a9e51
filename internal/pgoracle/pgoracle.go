// Package pgoracle connects zproxy's generators and oracle tests to the
// PostgreSQL 15 server they read facts from (catalog columns, types,
// settings): the one place that checks it is PostgreSQL 15.
package pgoracle

import (
	"context"
	"fmt"
	"go/format"
	"log"
	"os"
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

// ConnectArgs is Connect for a generator run as `go run gen/<tool>.go
// <connection string>`: it reads the connection string from the command
// line and ends the program with the usage or the error.
func ConnectArgs(ctx context.Context, tool string) (*pgx.Conn, string) {
	if len(os.Args) != 2 {
		log.Fatalf("usage: go run %s <PostgreSQL 15 connection string>", tool)
	}
	conn, version, err := Connect(ctx, os.Args[1])
	if err != nil {
		log.Fatal(err)
	}
	return conn, version
}

// WriteGo writes a generator's Go source to standard output, gofmt'd; a
// source that does not parse ends the program.
func WriteGo(src string) {
	out, err := format.Source([]byte(src))
	if err != nil {
		log.Fatal(err)
	}
	if _, err := os.Stdout.Write(out); err != nil {
		log.Fatal(err)
	}
}
