package hostile

import (
	"context"
	"strings"
	"testing"
)

// TestOrdinaryRoleCannotWiden logs in through psql as an ordinary role
// and tries what a hostile tester tried, each answered as PostgreSQL 15
// answers: superuser-only settings, the operator's --allow-full-scan=false,
// ALTER SYSTEM, role options and memberships, other roles' sessions, and
// zproxy's tuning functions over a table the role may not read.
func TestOrdinaryRoleCannotWiden(t *testing.T) {
	s := start(t, "--users", "admin:adm1n-Secret", "--allow-full-scan=false")
	const adminPw, pw = "adm1n-Secret", "mall0ry-Passw0rd"
	admin := func(script string) string { return mustPsql(t, s, "admin", adminPw, "sslmode=disable", script) }
	admin(`
CREATE TABLE secret (id INT PRIMARY KEY, v INT);
CREATE ROLE mallory LOGIN PASSWORD 'mall0ry-Passw0rd';
CREATE ROLE other;
`)
	// An admin session that stays open, its last query in pg_stat_activity.
	held := s.connect(t, "admin", "sslmode=disable password="+adminPw)
	if _, err := held.Exec(context.Background(), "SELECT 'admin-private-text'"); err != nil {
		t.Fatal(err)
	}
	refused := func(script, code, msg string) {
		t.Helper()
		_, errOut, err := psql(t, s, "mallory", pw, "sslmode=disable", script)
		if err == nil || !strings.Contains(errOut, "ERROR:  "+code+": "+msg) {
			t.Errorf("%s as mallory: %v\n%s\nwant %s %s", strings.TrimSpace(script), err, errOut, code, msg)
		}
	}
	for _, c := range []struct{ sql, code, msg string }{
		{"SET temp_file_limit = '1GB';", "42501", `permission denied to set parameter "temp_file_limit"`},
		{"BEGIN; SET LOCAL temp_file_limit = 1;", "42501", `permission denied to set parameter "temp_file_limit"`},
		{"RESET temp_file_limit;", "42501", `permission denied to set parameter "temp_file_limit"`},
		{"SELECT set_config('temp_file_limit', '1', false);", "42501", `permission denied to set parameter "temp_file_limit"`},
		{"SET server_version = '99';", "55P02", `parameter "server_version" cannot be changed`},
		{"ALTER SYSTEM SET temp_file_limit = 1;", "42501", `permission denied to set parameter "temp_file_limit"`},
		{"SET zproxy.allow_full_scan = on;", "42501", `permission denied to set parameter "zproxy.allow_full_scan"`},
		{"CREATE ROLE x CREATEDB;", "42501", "permission denied to create role"},
		{"CREATE ROLE x IN ROLE other;", "42501", "permission denied to create role"},
		{"ALTER ROLE other CREATEROLE;", "42501", "permission denied"},
		{"ALTER ROLE admin NOSUPERUSER;", "42501", "must be superuser to alter superuser roles or change superuser attribute"},
		{"GRANT pg_read_all_stats TO mallory;", "42501", `must have admin option on role "pg_read_all_stats"`},
		{"REVOKE other FROM mallory;", "42501", `must have admin option on role "other"`},
		{"SELECT zproxy_hypothetical_index('CREATE INDEX ON secret (v)');", "42501", "permission denied for table secret"},
	} {
		refused(c.sql, c.code, c.msg)
	}
	mallory := func(script string) string { return mustPsql(t, s, "mallory", pw, "sslmode=disable", script) }
	if got := mallory("RESET ALL; SHOW temp_file_limit; SHOW zproxy.allow_full_scan;"); got != "RESET\n-1\noff\n" {
		t.Errorf("after RESET ALL: %q", got)
	}
	if got := mallory("SELECT context FROM pg_settings WHERE name = 'temp_file_limit';"); got != "superuser\n" {
		t.Errorf("temp_file_limit's context: %q", got)
	}
	if got := mallory("SELECT rolname FROM pg_roles WHERE oid IN (3373, 3375, 6181, 6182) AND NOT rolcanlogin ORDER BY oid;"); got != "pg_monitor\npg_read_all_stats\npg_read_all_data\npg_write_all_data\n" {
		t.Errorf("predefined roles: %q", got)
	}
	activity := "SELECT query, state IS NULL, backend_start IS NULL FROM pg_stat_activity WHERE usename = 'admin';"
	if got := mallory(activity); got != "<insufficient privilege>|t|t\n" {
		t.Errorf("mallory sees admin's session as %q", got)
	}
	// A member of pg_monitor reads every session, as in PostgreSQL.
	admin("GRANT pg_monitor TO mallory;")
	if got := mallory("SELECT pg_has_role('pg_read_all_stats', 'member');" + activity); got != "t\nSELECT 'admin-private-text'|f|f\n" {
		t.Errorf("a member of pg_monitor sees %q", got)
	}
	admin("REVOKE pg_monitor FROM mallory;")
	if got := mallory("SELECT count(*) FROM pg_auth_members WHERE member = 'mallory'::regrole;"); got != "0\n" {
		t.Errorf("mallory's memberships after REVOKE: %q", got)
	}
	// The superuser may still lift the ceiling for its session.
	admin("SET zproxy.allow_full_scan = on; SELECT count(*) FROM secret;")
}
