package session_test

import (
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// TestOrdinaryRoleLimits is what a hostile ordinary role found, each with
// PostgreSQL 15's answer: settings contexts, an operator's limits a
// session may not widen, role options refused for privilege before
// anything else, and other roles' activity hidden.
func TestOrdinaryRoleLimits(t *testing.T) {
	eng, admin := adminEngine(t, false)
	expectSQL(t, admin, "CREATE ROLE mallory LOGIN PASSWORD 'm'", pgerr.SuccessfulCompletion, "")
	expectSQL(t, admin, "CREATE ROLE other", pgerr.SuccessfulCompletion, "")
	expectSQL(t, admin, "CREATE TABLE secret (a INT PRIMARY KEY, b INT)", pgerr.SuccessfulCompletion, "")
	expectSQL(t, admin, "SELECT 'admin-secret-query'", pgerr.SuccessfulCompletion, "")
	m, _, err := connectAs(t, eng, "mallory", nil)
	if err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct{ sql, code, msg string }{
		// Settings contexts.
		{"SET temp_file_limit = 100", pgerr.InsufficientPrivilege.String(), `permission denied to set parameter "temp_file_limit"`},
		{"SET LOCAL temp_file_limit = 100", pgerr.InsufficientPrivilege.String(), `permission denied to set parameter "temp_file_limit"`},
		{"RESET temp_file_limit", pgerr.InsufficientPrivilege.String(), `permission denied to set parameter "temp_file_limit"`},
		{"SET temp_file_limit TO DEFAULT", pgerr.InsufficientPrivilege.String(), `permission denied to set parameter "temp_file_limit"`},
		{"SELECT set_config('temp_file_limit', '5', false)", pgerr.InsufficientPrivilege.String(), `permission denied to set parameter "temp_file_limit"`},
		{"RESET ALL", "", ""},
		{"SET server_version = '1'", pgerr.CantChangeRuntimeParam.String(), `parameter "server_version" cannot be changed`},
		{"RESET server_version", pgerr.CantChangeRuntimeParam.String(), `parameter "server_version" cannot be changed`},
		{"SET zproxy.work_mem = '1MB'", "", ""},
		{"ALTER SYSTEM SET temp_file_limit = 5", pgerr.InsufficientPrivilege.String(), `permission denied to set parameter "temp_file_limit"`},
		{"ALTER SYSTEM RESET ALL", pgerr.InsufficientPrivilege.String(), "permission denied to perform ALTER SYSTEM RESET ALL"},
		// The operator's --allow-full-scan=false is a ceiling.
		{"SET zproxy.allow_full_scan = on", pgerr.InsufficientPrivilege.String(), `permission denied to set parameter "zproxy.allow_full_scan"`},
		{"SET zproxy.allow_full_scan = off", "", ""},
		// Role options: privilege first.
		{"CREATE ROLE x CREATEDB", pgerr.InsufficientPrivilege.String(), "permission denied to create role"},
		{"CREATE ROLE x IN ROLE other", pgerr.InsufficientPrivilege.String(), "permission denied to create role"},
		{"CREATE ROLE x SUPERUSER", pgerr.InsufficientPrivilege.String(), "must be superuser to create superusers"},
		{"ALTER ROLE other CREATEROLE", pgerr.InsufficientPrivilege.String(), "permission denied"},
		{"ALTER ROLE mallory CREATEDB", pgerr.InsufficientPrivilege.String(), "permission denied"},
		{"ALTER ROLE admin NOSUPERUSER", pgerr.InsufficientPrivilege.String(), "must be superuser to alter superuser roles or change superuser attribute"},
		{"ALTER ROLE other CONNECTION LIMIT 3", pgerr.InsufficientPrivilege.String(), "permission denied"},
		{"GRANT other TO mallory", pgerr.InsufficientPrivilege.String(), `must have admin option on role "other"`},
		{"REVOKE other FROM mallory", pgerr.InsufficientPrivilege.String(), `must have admin option on role "other"`},
		{"GRANT pg_monitor TO mallory", pgerr.InsufficientPrivilege.String(), `must have admin option on role "pg_monitor"`},
		// Tuning functions over tables the role may not read.
		{"SELECT zproxy_hypothetical_index('CREATE INDEX ON secret (b)')", pgerr.InsufficientPrivilege.String(), "permission denied for table secret"},
	} {
		expectSQL(t, m, c.sql, stateOf(c.code), c.msg)
	}
	if rows := expectSQL(t, m, "SHOW temp_file_limit", pgerr.SuccessfulCompletion, ""); strings.Join(rows, ";") != "-1" {
		t.Errorf("temp_file_limit = %v", rows)
	}
	if rows := expectSQL(t, m, "SELECT name, context, vartype, coalesce(unit, '') FROM pg_settings WHERE name IN ('temp_file_limit', 'server_version', 'DateStyle', 'is_superuser') ORDER BY name", pgerr.SuccessfulCompletion, ""); strings.Join(rows, ";") != "DateStyle|user|string|;server_version|internal|string|;temp_file_limit|superuser|integer|kB" {
		t.Errorf("pg_settings: %v", rows)
	}

	// pg_stat_activity: another role's session shows no query text and
	// NULLs; the role's own session shows its own.
	rows := expectSQL(t, m, "SELECT usename, query, state IS NULL, backend_start IS NULL, query_start IS NULL FROM pg_stat_activity ORDER BY usename", pgerr.SuccessfulCompletion, "")
	if strings.Join(rows, ";") != "admin|<insufficient privilege>|t|t|t;mallory|SELECT usename, query, state IS NULL, backend_start IS NULL, query_start IS NULL FROM pg_stat_activity ORDER BY usename|f|f|f" {
		t.Errorf("pg_stat_activity as mallory: %v", rows)
	}
	if rows := expectSQL(t, m, "SELECT count(*) FROM zproxy_index_advice WHERE table_name = 'secret'", pgerr.SuccessfulCompletion, ""); strings.Join(rows, ";") != "0" {
		t.Errorf("advice over secret for mallory: %v", rows)
	}

	// Membership: predefined roles exist with PostgreSQL's OIDs; a member
	// of pg_read_all_stats (through pg_monitor) sees every session.
	if rows := expectSQL(t, m, "SELECT oid, rolname, rolcanlogin FROM pg_roles WHERE rolname IN ('pg_monitor', 'pg_read_all_stats', 'pg_read_all_data', 'pg_write_all_data', 'pg_signal_backend') ORDER BY oid", pgerr.SuccessfulCompletion, ""); strings.Join(rows, ";") != "3373|pg_monitor|f;3375|pg_read_all_stats|f;4200|pg_signal_backend|f;6181|pg_read_all_data|f;6182|pg_write_all_data|f" {
		t.Errorf("predefined roles: %v", rows)
	}
	expectSQL(t, admin, "GRANT pg_monitor TO mallory", pgerr.SuccessfulCompletion, "")
	expectSQL(t, admin, "GRANT other TO mallory WITH ADMIN OPTION", pgerr.SuccessfulCompletion, "")
	expectSQL(t, admin, "GRANT mallory TO other", pgerr.InvalidGrantOperation, `role "mallory" is a member of role "other"`)
	expectSQL(t, admin, "GRANT other TO other", pgerr.InvalidGrantOperation, `role "other" is a member of role "other"`)
	expectSQL(t, admin, "GRANT nosuch TO mallory", pgerr.UndefinedObject, `role "nosuch" does not exist`)
	expectSQL(t, m, "GRANT pg_monitor TO other", pgerr.InsufficientPrivilege, `must have admin option on role "pg_monitor"`)
	if rows := expectSQL(t, m, "SELECT r.rolname, m.rolname, a.admin_option FROM pg_auth_members a JOIN pg_roles r ON r.oid = a.roleid JOIN pg_roles m ON m.oid = a.member ORDER BY 1, 2", pgerr.SuccessfulCompletion, ""); strings.Join(rows, ";") != "other|mallory|t;pg_monitor|mallory|f;pg_read_all_settings|pg_monitor|f;pg_read_all_stats|pg_monitor|f;pg_stat_scan_tables|pg_monitor|f" {
		t.Errorf("pg_auth_members: %v", rows)
	}
	if rows := expectSQL(t, m, "SELECT pg_has_role('pg_read_all_stats', 'member'), pg_has_role('mallory', 'other', 'usage'), pg_has_role('pg_write_all_data', 'member')", pgerr.SuccessfulCompletion, ""); strings.Join(rows, ";") != "t|t|f" {
		t.Errorf("pg_has_role: %v", rows)
	}
	if rows := expectSQL(t, m, "SELECT query FROM pg_stat_activity WHERE usename = 'admin'", pgerr.SuccessfulCompletion, ""); strings.Join(rows, ";") != "GRANT nosuch TO mallory" {
		t.Errorf("pg_stat_activity for a member of pg_read_all_stats: %v", rows)
	}
	expectSQL(t, admin, "REVOKE pg_monitor FROM mallory", pgerr.SuccessfulCompletion, "")
	expectSQL(t, admin, "REVOKE ADMIN OPTION FOR other FROM mallory", pgerr.SuccessfulCompletion, "")
	expectSQL(t, m, "GRANT other TO mallory", pgerr.InsufficientPrivilege, `must have admin option on role "other"`)
	expectSQL(t, admin, "DROP ROLE other", pgerr.SuccessfulCompletion, "")
	if rows := expectSQL(t, m, "SELECT count(*) FROM pg_auth_members WHERE member = 'mallory'::regrole", pgerr.SuccessfulCompletion, ""); strings.Join(rows, ";") != "0" {
		t.Errorf("mallory's memberships after DROP ROLE other: %v", rows)
	}

	// The superuser may lift the ceiling and set superuser settings.
	expectSQL(t, admin, "SET zproxy.allow_full_scan = on", pgerr.SuccessfulCompletion, "")
	expectSQL(t, admin, "SET temp_file_limit = 100", pgerr.SuccessfulCompletion, "")
	expectSQL(t, admin, "DROP ROLE pg_monitor", pgerr.DependentObjectsStillExist, "cannot drop role pg_monitor because it is required by the database system")
	expectSQL(t, admin, "ALTER ROLE pg_read_all_data LOGIN", pgerr.ReservedName, `role name "pg_read_all_data" is reserved`)
	expectSQL(t, admin, "ALTER SYSTEM SET temp_file_limit = 5", pgerr.FeatureNotSupported, "ALTER SYSTEM is not supported")
	expectSQL(t, admin, "CREATE ROLE x CREATEDB", pgerr.FeatureNotSupported, "CREATEDB")
}
