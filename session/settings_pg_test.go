package session_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/session"
	"github.com/zproxy/zproxy/wire"
)

// TestSettingsMatchPostgres compares zproxy's pg_settings rows with
// PostgreSQL 15's for every setting both have (testdata/pg15_settings.txt,
// which names the psql command that regenerates it): context, vartype,
// unit, bounds and enum values.
func TestSettingsMatchPostgres(t *testing.T) {
	data, err := os.ReadFile("testdata/pg15_settings.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, _, _ := strings.Cut(line, "|")
		want[name] = line
	}
	eng, err := session.New(context.Background(), session.Config{Store: memStore(t), AllowFullScan: true})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	// A superuser (the bootstrap session of a store without roles) sees
	// every row, as PostgreSQL's superuser does.
	sess, err := eng.NewSession(context.Background(), wire.SessionParams{User: "admin", Database: "postgres"})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := runSQL(context.Background(), sess, "SELECT name, context, vartype, coalesce(unit, ''), coalesce(min_val, ''), coalesce(max_val, ''), coalesce(array_to_string(enumvals, ','), '') FROM pg_settings")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, got := range rows {
		name, _, _ := strings.Cut(got, "|")
		w, ok := want[name]
		if !ok {
			continue
		}
		seen[name] = true
		if got != w {
			t.Errorf("pg_settings row:\n got %s\nwant %s", got, w)
		}
	}
	for name := range want {
		if !seen[name] {
			t.Errorf("pg_settings lacks %s", name)
		}
	}
}

// TestServerParameters checks the server's parameters, which sessions read
// but may not set, as PostgreSQL 15 answers for them: the value (zproxy's
// own where it has one), the refusal of SET by context, and the
// superuser-only ones hidden from an ordinary role (42501 for SHOW, no
// pg_settings row) and shown to a member of pg_read_all_settings.
func TestServerParameters(t *testing.T) {
	eng, err := session.New(context.Background(), session.Config{Store: memStore(t), AllowFullScan: true})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	admin, err := eng.NewSession(context.Background(), wire.SessionParams{User: "admin", Database: "postgres",
		ServerSettings: map[string]string{"server_version": "15.7 (zproxy)", "port": "6543", "max_connections": "42"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ sql, want string }{
		{"SHOW server_version_num", "150007"},
		{"SHOW server_version", "15.7 (zproxy)"},
		{"SHOW port", "6543"},
		{"SHOW max_connections", "42"},
		{"SHOW shared_buffers", "128MB"},
		{"SHOW block_size", "8192"},
		{"SHOW lc_collate", "C"},
		{"SHOW wal_level", "replica"},
		{"SELECT current_setting('server_version_num')::int / 10000", "15"},
		{"SELECT setting || '|' || unit || '|' || source FROM pg_settings WHERE name = 'shared_buffers'", "16384|8kB|default"},
		{"SELECT setting || '|' || context || '|' || source FROM pg_settings WHERE name = 'port'", "6543|postmaster|command line"},
		{"SELECT count(*) FROM pg_settings WHERE name IN ('data_directory', 'config_file')", "2"},
	} {
		rows := expectSQL(t, admin, c.sql, pgerr.SuccessfulCompletion, "")
		if strings.Join(rows, ";") != c.want {
			t.Errorf("%s: got %v, want %s", c.sql, rows, c.want)
		}
	}
	for _, c := range []struct{ sql, msg string }{
		{"SET port = 1", `parameter "port" cannot be changed without restarting the server`},
		{"SET block_size = 1", `parameter "block_size" cannot be changed`},
		{"SET max_wal_size = '2GB'", `parameter "max_wal_size" cannot be changed now`},
		{"SET log_connections = on", `parameter "log_connections" cannot be set after connection start`},
		{"SELECT set_config('shared_buffers', '1GB', false)", `parameter "shared_buffers" cannot be changed without restarting the server`},
	} {
		expectSQL(t, admin, c.sql, pgerr.CantChangeRuntimeParam, c.msg)
	}
	expectSQL(t, admin, "CREATE ROLE admin SUPERUSER LOGIN", pgerr.SuccessfulCompletion, "")
	expectSQL(t, admin, "CREATE ROLE plain LOGIN", pgerr.SuccessfulCompletion, "")
	expectSQL(t, admin, "CREATE ROLE reader LOGIN", pgerr.SuccessfulCompletion, "")
	expectSQL(t, admin, "GRANT pg_read_all_settings TO reader", pgerr.SuccessfulCompletion, "")
	plain, _, err := connectAs(t, eng, "plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	expectSQL(t, plain, "SHOW data_directory", pgerr.InsufficientPrivilege, `must be superuser or have privileges of pg_read_all_settings to examine "data_directory"`)
	if rows := expectSQL(t, plain, "SELECT count(*) FROM pg_settings WHERE name IN ('data_directory', 'config_file')", pgerr.SuccessfulCompletion, ""); strings.Join(rows, ";") != "0" {
		t.Errorf("an ordinary role sees superuser-only settings in pg_settings: %v", rows)
	}
	if rows := expectSQL(t, plain, "SHOW port", pgerr.SuccessfulCompletion, ""); strings.Join(rows, ";") != "5432" {
		t.Errorf("SHOW port without a wire server: %v, want PostgreSQL's default 5432", rows)
	}
	reader, _, err := connectAs(t, eng, "reader", nil)
	if err != nil {
		t.Fatal(err)
	}
	expectSQL(t, reader, "SHOW data_directory", pgerr.SuccessfulCompletion, "")
}
