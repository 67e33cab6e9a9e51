package clients

import (
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// clientTarget is what a driver scenario of the protocol, cursor and COPY
// tests runs against: a fresh zproxy, or, when E2E_POSTGRES holds a
// connection string, that PostgreSQL, which checks that the scenario's
// expectations are PostgreSQL's. The scenarios create the tables they use
// (dropping a leftover of the same name first).
type clientTarget struct {
	host, port, user, dbname string
	postgres                 bool
}

func newClientTarget(t *testing.T) *clientTarget {
	t.Helper()
	if pg := os.Getenv("E2E_POSTGRES"); pg != "" {
		cfg, err := pgconn.ParseConfig(pg)
		if err != nil {
			t.Fatalf("E2E_POSTGRES: %v", err)
		}
		return &clientTarget{host: cfg.Host, port: strconv.Itoa(int(cfg.Port)), user: cfg.User, dbname: cfg.Database, postgres: true}
	}
	s := startServer(t)
	return &clientTarget{host: s.host, port: s.port, user: "zproxy", dbname: "zproxy"}
}

// dsn is a libpq-style connection string.
func (c *clientTarget) dsn() string {
	return fmt.Sprintf("host=%s port=%s user=%s dbname=%s sslmode=disable connect_timeout=10", c.host, c.port, c.user, c.dbname)
}

// args are the command-line arguments the client scripts take.
func (c *clientTarget) args() []string { return []string{c.host, c.port, c.user, c.dbname} }
