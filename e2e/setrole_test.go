package e2e

import (
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestSetSessionAuthorizationOverTheWire: SET SESSION AUTHORIZATION and SET
// ROLE as a client sees them, with PostgreSQL's answers (E2E_POSTGRES runs
// it there): the ParameterStatus messages for session_authorization and
// is_superuser, and a statement prepared before SET ROLE that answers as
// the new current role when run after it (the extended protocol's cached
// statements).
func TestSetSessionAuthorizationOverTheWire(t *testing.T) {
	tg := newTarget(t)
	conn := tg.Connect(t, pgx.QueryExecModeCacheStatement)
	ctx := testCtx(t)
	for _, q := range []string{"DROP TABLE IF EXISTS role_e2e_t", "DROP ROLE IF EXISTS role_e2e", "CREATE ROLE role_e2e",
		"CREATE TABLE role_e2e_t (a int PRIMARY KEY)"} {
		mustExec(t, conn, q)
	}
	t.Cleanup(func() {
		c := tg.Connect(t, pgx.QueryExecModeSimpleProtocol)
		mustExec(t, c, "DROP TABLE IF EXISTS role_e2e_t")
		mustExec(t, c, "DROP ROLE IF EXISTS role_e2e")
	})
	pg := conn.PgConn()
	login := pg.ParameterStatus("session_authorization")
	if pg.ParameterStatus("is_superuser") != "on" || login == "" {
		t.Fatalf("at startup: is_superuser %q, session_authorization %q", pg.ParameterStatus("is_superuser"), login)
	}
	var who string
	const whoami = "SELECT current_user::text || '/' || session_user::text"
	if err := conn.QueryRow(ctx, whoami).Scan(&who); err != nil || who != login+"/"+login {
		t.Fatalf("before: %q, %v", who, err)
	}

	mustExec(t, conn, "SET SESSION AUTHORIZATION role_e2e")
	if got := pg.ParameterStatus("session_authorization"); got != "role_e2e" {
		t.Errorf("session_authorization reported %q, want role_e2e", got)
	}
	if got := pg.ParameterStatus("is_superuser"); got != "off" {
		t.Errorf("is_superuser reported %q, want off", got)
	}
	// The statement cached above runs again under the new users.
	if err := conn.QueryRow(ctx, whoami).Scan(&who); err != nil || who != "role_e2e/role_e2e" {
		t.Errorf("after SET SESSION AUTHORIZATION: %q, %v", who, err)
	}
	var n int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM role_e2e_t WHERE a > $1", 0).Scan(&n); err == nil {
		t.Errorf("role_e2e read role_e2e_t")
	}

	mustExec(t, conn, "RESET SESSION AUTHORIZATION")
	if got := pg.ParameterStatus("session_authorization"); got != login {
		t.Errorf("session_authorization reported %q after RESET, want %q", got, login)
	}
	if got := pg.ParameterStatus("is_superuser"); got != "on" {
		t.Errorf("is_superuser reported %q after RESET, want on", got)
	}
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM role_e2e_t WHERE a > $1", 0).Scan(&n); err != nil {
		t.Errorf("the superuser again: %v", err)
	}

	// SET ROLE changes is_superuser, not session_authorization.
	mustExec(t, conn, "SET ROLE role_e2e")
	if got := pg.ParameterStatus("is_superuser"); got != "off" {
		t.Errorf("is_superuser reported %q under SET ROLE, want off", got)
	}
	if got := pg.ParameterStatus("session_authorization"); got != login {
		t.Errorf("session_authorization reported %q under SET ROLE, want %q", got, login)
	}
	if err := conn.QueryRow(ctx, whoami).Scan(&who); err != nil || who != "role_e2e/"+login {
		t.Errorf("under SET ROLE: %q, %v", who, err)
	}
	mustExec(t, conn, "RESET ROLE")
	if got := pg.ParameterStatus("is_superuser"); got != "on" {
		t.Errorf("is_superuser reported %q after RESET ROLE, want on", got)
	}
}
