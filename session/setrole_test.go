package session_test

import (
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// TestSetRoleOrdinaryLogin is the privilege matrix of SET ROLE and SET
// SESSION AUTHORIZATION for a role that authenticated and is no
// superuser, each step with PostgreSQL 15's answer (checked by hand
// against it: set_role.slt runs as a superuser, which the oracle harness
// cannot log in as anyone else): it reaches only the roles it is a member
// of, never changes the session authorization to another role, and RESET
// ROLE brings it back to itself, not to anyone above it.
func TestSetRoleOrdinaryLogin(t *testing.T) {
	eng, admin := adminEngine(t, false)
	for _, q := range []string{
		"CREATE ROLE mallory LOGIN PASSWORD 'm'", "CREATE ROLE other", "CREATE ROLE grp", "CREATE ROLE boss SUPERUSER",
		"GRANT grp TO mallory", "CREATE TABLE secret (a INT PRIMARY KEY)", "CREATE TABLE shared (a INT PRIMARY KEY)",
		"GRANT SELECT ON shared TO grp", "GRANT grp TO other",
	} {
		expectSQL(t, admin, q, pgerr.SuccessfulCompletion, "")
	}
	m := login(t, eng, "mallory")
	denied := pgerr.InsufficientPrivilege.String()
	for _, c := range []struct{ sql, code, msg, want string }{
		{sql: "SET SESSION AUTHORIZATION other", code: denied, msg: `permission denied to set session authorization "other"`},
		{sql: "SET SESSION AUTHORIZATION boss", code: denied, msg: `permission denied to set session authorization "boss"`},
		{sql: "SET SESSION AUTHORIZATION admin", code: denied, msg: `permission denied to set session authorization "admin"`},
		{sql: "SELECT set_config('session_authorization', 'admin', false)", code: denied, msg: `permission denied to set session authorization "admin"`},
		{sql: "SET SESSION AUTHORIZATION mallory"}, // itself: allowed
		{sql: "SET SESSION AUTHORIZATION DEFAULT"},
		{sql: "SET SESSION AUTHORIZATION nosuch", code: pgerr.InvalidParameterValue.String(), msg: `role "nosuch" does not exist`},
		{sql: "SET ROLE other", code: denied, msg: `permission denied to set role "other"`},
		{sql: "SET ROLE boss", code: denied, msg: `permission denied to set role "boss"`},
		{sql: "SET ROLE admin", code: denied, msg: `permission denied to set role "admin"`},
		{sql: "SELECT set_config('role', 'boss', false)", code: denied, msg: `permission denied to set role "boss"`},
		{sql: "SELECT current_user, session_user, current_setting('is_superuser')", want: "mallory|mallory|off"},
		{sql: "SELECT count(*) FROM shared", want: "0"}, // inherited from grp
		{sql: "SET ROLE grp"},
		{sql: "SELECT current_user, session_user, current_setting('is_superuser')", want: "grp|mallory|off"},
		{sql: "SELECT count(*) FROM shared", want: "0"},
		{sql: "SELECT * FROM secret", code: denied, msg: "permission denied for table secret"},
		// From grp, whose member other is, mallory still reaches only her
		// own memberships: SET ROLE asks the session user.
		{sql: "SET ROLE other", code: denied, msg: `permission denied to set role "other"`},
		{sql: "RESET ROLE"},
		{sql: "SELECT current_user, session_user, current_setting('is_superuser')", want: "mallory|mallory|off"},
		{sql: "SELECT * FROM secret", code: denied, msg: "permission denied for table secret"},
		{sql: "BEGIN"},
		{sql: "SET LOCAL ROLE boss", code: denied, msg: `permission denied to set role "boss"`},
		{sql: "ROLLBACK"},
		{sql: "SET ROLE grp"},
		{sql: "DISCARD ALL"},
		{sql: "SELECT current_user, current_setting('is_superuser')", want: "mallory|off"},
		{sql: "CREATE ROLE x", code: denied, msg: "permission denied to create role"},
	} {
		rows := expectSQL(t, m, c.sql, stateOf(c.code), c.msg)
		if c.want != "" && strings.Join(rows, ";") != c.want {
			t.Errorf("%s: %v, want %s", c.sql, rows, c.want)
		}
	}
	// A superuser who authenticated may become anyone, and back.
	for _, c := range []struct{ sql, want string }{
		{"SET SESSION AUTHORIZATION mallory", ""},
		{"SELECT current_user, session_user, current_setting('is_superuser')", "mallory|mallory|off"},
		{"SET SESSION AUTHORIZATION other", ""},
		{"SELECT current_user, session_user", "other|other"},
		{"RESET SESSION AUTHORIZATION", ""},
		{"SELECT current_user, session_user, current_setting('is_superuser')", "admin|admin|on"},
	} {
		rows := expectSQL(t, admin, c.sql, pgerr.SuccessfulCompletion, "")
		if c.want != "" && strings.Join(rows, ";") != c.want {
			t.Errorf("%s: %v, want %s", c.sql, rows, c.want)
		}
	}
}

// TestSetRoleDroppedRole: a role taken by SET ROLE that is dropped
// meanwhile gives the session no privileges, in particular not a
// superuser's (zproxy's own sessions, which authenticate as no role, are
// superusers only as themselves).
func TestSetRoleDroppedRole(t *testing.T) {
	eng, admin := adminEngine(t, false)
	expectSQL(t, admin, "CREATE ROLE gone", pgerr.SuccessfulCompletion, "")
	expectSQL(t, admin, "CREATE TABLE tab (a INT PRIMARY KEY)", pgerr.SuccessfulCompletion, "")
	s := login(t, eng, "admin")
	expectSQL(t, s, "SET ROLE gone", pgerr.SuccessfulCompletion, "")
	expectSQL(t, admin, "DROP ROLE gone", pgerr.SuccessfulCompletion, "")
	expectSQL(t, s, "SELECT * FROM tab", pgerr.InsufficientPrivilege, "permission denied for table tab")
	expectSQL(t, s, "CREATE ROLE y", pgerr.InsufficientPrivilege, "permission denied to create role")
	expectSQL(t, s, "RESET ROLE", pgerr.SuccessfulCompletion, "")
	expectSQL(t, s, "SELECT * FROM tab", pgerr.SuccessfulCompletion, "")
}
