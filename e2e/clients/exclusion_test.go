package clients

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestPsqlDescribesExclusion: psql's \d shows an exclusion constraint
// among the table's indexes as PostgreSQL's does (EXCLUDE USING gist (...)),
// which psql reads from pg_index.indisexclusion and pg_get_constraintdef.
func TestPsqlDescribesExclusion(t *testing.T) {
	t.Parallel()
	psql := requireTool(t, "psql", "Debian package postgresql-client")
	c := newCatalogTarget(t)
	c.exec(t, `CREATE EXTENSION IF NOT EXISTS btree_gist`,
		`CREATE TABLE booking (id int PRIMARY KEY, room int, during tstzrange, EXCLUDE USING gist (room WITH =, during WITH &&))`)
	kind := "zproxy"
	if c.postgres {
		kind = "postgres"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, psql, "-X", "-v", "ON_ERROR_STOP=1", "-P", "pager=off",
		"-h", c.host, "-p", c.port, "-U", c.user, "-d", c.db, "-c", `\d booking`)
	cmd.Env = append(os.Environ(), "PGCONNECT_TIMEOUT=10", "COLUMNS=200", "PGTZ=UTC")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("psql: %v\n%s", err, out)
	}
	golden(t, filepath.Join("testdata", "psql", "d_booking_exclusion."+kind+".golden"), string(out))
}
