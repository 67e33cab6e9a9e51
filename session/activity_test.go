package session_test

import (
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// TestActivityHidesOtherRolesQueries: as in PostgreSQL 15, pg_stat_activity
// shows a role that is not a superuser the statement text of its own
// sessions only, so an idle superuser's last ALTER ROLE ... PASSWORD is not
// there for every role to read; a superuser sees every session's text.
func TestActivityHidesOtherRolesQueries(t *testing.T) {
	eng, admin := adminEngine(t, true)
	expectSQL(t, admin, "CREATE ROLE clerk LOGIN", pgerr.SuccessfulCompletion, "")
	expectSQL(t, admin, "ALTER ROLE clerk PASSWORD 'clerk-Passw0rd'", pgerr.SuccessfulCompletion, "")
	clerk, _, err := connectAs(t, eng, "clerk", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer clerk.Close()

	rows := expectSQL(t, clerk, "SELECT usename, query, state IS NULL, query_start IS NULL FROM pg_stat_activity ORDER BY pid", pgerr.SuccessfulCompletion, "")
	if got := strings.Join(rows, "\n"); got != "admin|<insufficient privilege>|t|t\nclerk|SELECT usename, query, state IS NULL, query_start IS NULL FROM pg_stat_activity ORDER BY pid|f|f" {
		t.Errorf("pg_stat_activity as clerk:\n%s", got)
	}
	rows = expectSQL(t, admin, "SELECT usename, query FROM pg_stat_activity WHERE usename = 'clerk'", pgerr.SuccessfulCompletion, "")
	if len(rows) != 1 || strings.Contains(rows[0], "insufficient") {
		t.Errorf("pg_stat_activity as admin: %v", rows)
	}
}
