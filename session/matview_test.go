package session_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
)

// TestMatviewPrivileges: creating a materialized view needs SELECT on what
// its query reads and CREATE on public; reading it needs SELECT on the
// view alone; only its owner may refresh, alter or drop it, and REFRESH
// reads as the owner (a grant revoked from the owner fails the refresh),
// as in PostgreSQL.
func TestMatviewPrivileges(t *testing.T) {
	eng, admin := adminEngine(t, true)
	ok, denied := pgerr.SuccessfulCompletion, pgerr.InsufficientPrivilege
	expectSQL(t, admin, "CREATE TABLE src (id INT PRIMARY KEY, secret TEXT)", ok, "")
	expectSQL(t, admin, "INSERT INTO src VALUES (1, 's'), (2, 't')", ok, "")
	expectSQL(t, admin, "CREATE ROLE bob LOGIN", ok, "")
	expectSQL(t, admin, "CREATE ROLE carol LOGIN", ok, "")
	bob, carol := login(t, eng, "bob"), login(t, eng, "carol")

	expectSQL(t, bob, "CREATE MATERIALIZED VIEW m AS SELECT 1 AS a", denied, "permission denied for schema public")
	expectSQL(t, admin, "GRANT CREATE ON SCHEMA public TO bob", ok, "")
	expectSQL(t, bob, "CREATE MATERIALIZED VIEW m AS SELECT id FROM src", denied, "permission denied for table src")
	expectSQL(t, admin, "GRANT SELECT ON src TO bob", ok, "")
	expectSQL(t, bob, "CREATE MATERIALIZED VIEW m AS SELECT id, secret FROM src", ok, "")
	if got := expectSQL(t, bob, "SELECT matviewowner FROM pg_matviews WHERE matviewname = 'm'", ok, ""); strings.Join(got, ",") != "bob" {
		t.Errorf("m's owner: %v, want bob", got)
	}

	// Reading the view needs SELECT on it, not on src.
	expectSQL(t, carol, "SELECT id FROM m", denied, "permission denied for materialized view m")
	expectSQL(t, bob, "GRANT SELECT ON m TO carol", ok, "")
	if got := expectSQL(t, carol, "SELECT id FROM m ORDER BY id", ok, ""); strings.Join(got, ",") != "1,2" {
		t.Errorf("carol reads %v", got)
	}
	expectSQL(t, carol, "SELECT * FROM src", denied, "permission denied for table src")

	// Only the owner refreshes, alters or drops it; a superuser may too.
	expectSQL(t, carol, "REFRESH MATERIALIZED VIEW m", denied, "must be owner of materialized view m")
	expectSQL(t, carol, "ALTER MATERIALIZED VIEW m RENAME TO m2", denied, "must be owner of materialized view m")
	expectSQL(t, carol, "DROP MATERIALIZED VIEW m", denied, "must be owner of materialized view m")
	expectSQL(t, admin, "INSERT INTO src VALUES (3, 'u')", ok, "")
	expectSQL(t, bob, "REFRESH MATERIALIZED VIEW m", ok, "")
	if got := expectSQL(t, carol, "SELECT count(*) FROM m", ok, ""); strings.Join(got, ",") != "3" {
		t.Errorf("after REFRESH carol counts %v", got)
	}

	// REFRESH runs the query as the owner, whoever asks.
	expectSQL(t, admin, "REVOKE SELECT ON src FROM bob", ok, "")
	expectSQL(t, bob, "REFRESH MATERIALIZED VIEW m", denied, "permission denied for table src")
	expectSQL(t, admin, "REFRESH MATERIALIZED VIEW m", denied, "permission denied for table src")
	expectSQL(t, admin, "GRANT SELECT (id, secret) ON src TO bob", ok, "")
	expectSQL(t, admin, "REFRESH MATERIALIZED VIEW m", ok, "")
	expectSQL(t, bob, "DROP MATERIALIZED VIEW m", ok, "")
}

// TestMatviewRefreshIsolation: while a REFRESH is open, another session
// (on Pebble) or another proxy (over one DynamoDB Local table) reads the
// view's old rows, never an empty or half-filled view; after the commit it
// reads the new ones; a rolled-back refresh leaves the old rows.
func TestMatviewRefreshIsolation(t *testing.T) {
	for _, backend := range []string{"pebble", "dynamodb"} {
		t.Run(backend, func(t *testing.T) {
			ctx := context.Background()
			ea, eb, _ := ddlProxies(t, backend)
			a, b := openSession(t, ea), openSession(t, eb)
			mustRun(t, a, `CREATE TABLE src (k INT PRIMARY KEY, v INT)`)
			mustRun(t, a, `INSERT INTO src SELECT g, g FROM generate_series(1, 50) g`)
			mustRun(t, a, `CREATE MATERIALIZED VIEW total AS SELECT count(*) AS n, sum(v) AS s FROM src`)
			mustRun(t, a, `CREATE MATERIALIZED VIEW rows_of AS SELECT k, v FROM src`)
			untilRows(t, func() ([]string, error) {
				return runSQL(ctx, b, `SELECT (SELECT n FROM total), (SELECT count(*) FROM rows_of)`)
			}, "50|50")
			mustRun(t, a, `INSERT INTO src SELECT g, g FROM generate_series(51, 80) g`)

			for _, sql := range []string{`BEGIN`, `REFRESH MATERIALIZED VIEW total`, `REFRESH MATERIALIZED VIEW rows_of`} {
				mustRun(t, a, sql)
			}
			if got := rowsOf(t, a, `SELECT (SELECT n FROM total), (SELECT count(*) FROM rows_of)`); strings.Join(got, ",") != "80|80" {
				t.Errorf("the refreshing block reads %v", got)
			}
			if got := rowsOf(t, b, `SELECT (SELECT n FROM total), (SELECT count(*) FROM rows_of)`); strings.Join(got, ",") != "50|50" {
				t.Errorf("another session read an open refresh: %v", got)
			}
			mustRun(t, a, `ROLLBACK`)
			time.Sleep(2 * catalog.SharedStaleness)
			if got := rowsOf(t, b, `SELECT (SELECT n FROM total), (SELECT count(*) FROM rows_of)`); strings.Join(got, ",") != "50|50" {
				t.Errorf("after ROLLBACK: %v", got)
			}

			mustRun(t, a, `REFRESH MATERIALIZED VIEW rows_of`)
			mustRun(t, a, `REFRESH MATERIALIZED VIEW total`)
			untilRows(t, func() ([]string, error) {
				return runSQL(ctx, b, `SELECT (SELECT n FROM total), (SELECT count(*) FROM rows_of), (SELECT sum(v) FROM rows_of)`)
			}, "80|80|3240")
		})
	}
}
