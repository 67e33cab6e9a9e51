package e2e

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestTempTablesGoneAfterCrash: a temporary table lives in the proxy's own
// store, a directory under the system's temporary directory; a proxy
// killed with rows in one leaves that directory behind, and the next start
// removes it, so nothing of a session's temporary tables outlives a crash.
func TestTempTablesGoneAfterCrash(t *testing.T) {
	requireZproxy(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // the zproxy processes inherit it
	dir := t.TempDir()
	s := startServer(t, dir)
	conn := s.Connect(t)
	mustExec(t, conn, "CREATE TEMP TABLE scratch (k INT PRIMARY KEY, v TEXT)")
	mustExec(t, conn, "INSERT INTO scratch SELECT g, 'row ' || g FROM generate_series(1, 1000) g")
	stores, err := filepath.Glob(filepath.Join(tmp, "zproxy-spill-*", "temp"))
	if err != nil || len(stores) != 1 {
		t.Fatalf("temporary stores under %s: %v, %v; want one", tmp, stores, err)
	}
	s.Kill()
	if _, err := os.Stat(stores[0]); err != nil {
		t.Fatalf("a killed proxy's temporary store should still be there until the next start: %v", err)
	}
	restarted := startServer(t, dir)
	conn = restarted.Connect(t)
	var pe *pgconn.PgError
	if _, err := conn.Exec(testCtx(t), "SELECT count(*) FROM scratch"); !errors.As(err, &pe) || pe.Code != "42P01" {
		t.Errorf("a temporary table outlived its proxy: %v", err)
	}
	if _, err := os.Stat(stores[0]); !os.IsNotExist(err) {
		t.Errorf("the killed proxy's temporary store %s is still there after the next start: %v", stores[0], err)
	}
}
