package session_test

import (
	"context"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/session"
)

// TestSchemaPrivileges checks schemas' privileges with PostgreSQL 15's
// SQLSTATEs and messages (checked with SET ROLE on PostgreSQL): USAGE to
// name a schema's relations, CREATE to create in it, ownership to drop it,
// the database's CREATE (superusers here) to create one; GRANT and
// nspacl; has_schema_privilege.
func TestSchemaPrivileges(t *testing.T) {
	eng, err := session.New(context.Background(), session.Config{Store: memStore(t), AllowFullScan: true})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	if _, err := eng.BootstrapUsers(context.Background(), map[string]string{"admin": "secret"}); err != nil {
		t.Fatal(err)
	}
	admin := login(t, eng, "admin")
	ok := pgerr.SuccessfulCompletion
	denied := pgerr.InsufficientPrivilege
	for _, sql := range []string{"CREATE ROLE bob LOGIN", "CREATE SCHEMA s", "CREATE TABLE s.t (a int PRIMARY KEY)"} {
		expectSQL(t, admin, sql, ok, "")
	}
	bob := login(t, eng, "bob")
	expectSQL(t, bob, "SELECT * FROM s.t", denied, "permission denied for schema s")
	expectSQL(t, bob, "CREATE TABLE s.x (a int)", denied, "permission denied for schema s")
	expectSQL(t, bob, "DROP SCHEMA s", denied, "must be owner of schema s")
	expectSQL(t, bob, "CREATE SCHEMA b", denied, "permission denied for database postgres")
	if rows := expectSQL(t, bob, "SELECT has_schema_privilege('s', 'USAGE')", ok, ""); len(rows) != 1 || rows[0] != "f" {
		t.Errorf("has_schema_privilege before GRANT: %v", rows)
	}
	expectSQL(t, admin, "GRANT USAGE ON SCHEMA s TO bob", ok, "")
	if rows := expectSQL(t, admin, "SELECT nspacl FROM pg_namespace WHERE nspname = 's'", ok, ""); len(rows) != 1 || rows[0] != "{admin=UC/admin,bob=U/admin}" {
		t.Errorf("nspacl: %v", rows)
	}
	expectSQL(t, bob, "SELECT * FROM s.t", denied, "permission denied for table t")
	if rows := expectSQL(t, bob, "SELECT has_schema_privilege('s', 'USAGE'), has_schema_privilege('s', 'CREATE')", ok, ""); len(rows) != 1 || rows[0] != "t|f" {
		t.Errorf("has_schema_privilege after GRANT USAGE: %v", rows)
	}
	expectSQL(t, admin, "GRANT CREATE ON SCHEMA s TO bob", ok, "")
	expectSQL(t, bob, "CREATE TABLE s.x (a int)", ok, "")
	expectSQL(t, bob, "INSERT INTO s.x VALUES (1)", ok, "")
	expectSQL(t, admin, "REVOKE USAGE ON SCHEMA s FROM bob", ok, "")
	expectSQL(t, bob, "SELECT * FROM s.x", denied, "permission denied for schema s")
	expectSQL(t, admin, "ALTER SCHEMA s OWNER TO bob", ok, "")
	expectSQL(t, bob, "SELECT * FROM s.x", ok, "")
	expectSQL(t, bob, "COMMENT ON SCHEMA s IS 'mine'", ok, "")
}
