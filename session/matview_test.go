package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/session"
)

// TestMatviewPrivileges: creating a materialized view needs SELECT on what
// its query reads and CREATE on public; reading it needs SELECT on the
// view alone; only its owner may refresh, alter or drop it, and REFRESH
// reads as the owner (a grant revoked from the owner fails the refresh),
// as in PostgreSQL.
func TestMatviewPrivileges(t *testing.T) {
	ctx := context.Background()
	eng, err := session.New(ctx, session.Config{Store: memStore(t), AllowFullScan: true})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	if _, err := eng.BootstrapUsers(ctx, map[string]string{"admin": "secret"}); err != nil {
		t.Fatal(err)
	}
	admin, _, err := connectAs(t, eng, "admin", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	ok, denied := pgerr.SuccessfulCompletion, pgerr.InsufficientPrivilege
	expectSQL(t, admin, "CREATE TABLE src (id INT PRIMARY KEY, secret TEXT)", ok, "")
	expectSQL(t, admin, "INSERT INTO src VALUES (1, 's'), (2, 't')", ok, "")
	expectSQL(t, admin, "CREATE ROLE bob LOGIN", ok, "")
	expectSQL(t, admin, "CREATE ROLE carol LOGIN", ok, "")
	bob, _, err := connectAs(t, eng, "bob", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer bob.Close()
	carol, _, err := connectAs(t, eng, "carol", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer carol.Close()

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
