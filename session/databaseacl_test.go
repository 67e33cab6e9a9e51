package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/wire"
)

// TestDatabasePrivileges checks GRANT and REVOKE ON DATABASE where
// PostgreSQL enforces them: CONNECT when a session starts (42501 with
// PostgreSQL's detail), CREATE for CREATE SCHEMA, TEMPORARY for a
// session's first temporary table; PUBLIC holds CONNECT and TEMPORARY
// until revoked.
func TestDatabasePrivileges(t *testing.T) {
	eng, admin := adminEngine(t, true)
	mustExec(t, admin, "CREATE ROLE acl24_u LOGIN")
	mustExec(t, admin, "CREATE ROLE acl24_v LOGIN")
	mustExec(t, admin, "CREATE DATABASE acl24_db")
	open := func(user, db string) (wire.Session, error) {
		sess, err := eng.NewSession(context.Background(), wire.SessionParams{User: user, Database: db, Authenticated: true, Notice: func(*pgerr.Error) {}})
		if err == nil {
			t.Cleanup(sess.Close)
		}
		return sess, err
	}
	if _, err := open("acl24_u", "acl24_db"); err != nil {
		t.Fatalf("PUBLIC may connect by default: %v", err)
	}
	mustExec(t, admin, "REVOKE CONNECT, TEMP ON DATABASE acl24_db FROM PUBLIC")
	mustExec(t, admin, "GRANT CONNECT ON DATABASE acl24_db TO acl24_v")
	_, err := open("acl24_u", "acl24_db")
	if pe := pgerr.As(err); pe == nil || pe.Code != pgerr.InsufficientPrivilege || pe.Message != `permission denied for database "acl24_db"` ||
		pe.Detail != "User does not have CONNECT privilege." {
		t.Fatalf("connecting without CONNECT: %v", err)
	}
	v, err := open("acl24_v", "acl24_db")
	if err != nil {
		t.Fatalf("connecting with CONNECT: %v", err)
	}
	expectSQL(t, v, "CREATE TEMP TABLE tt (a int)", pgerr.InsufficientPrivilege, `permission denied to create temporary tables in database "acl24_db"`)
	expectSQL(t, v, "CREATE SCHEMA s", pgerr.InsufficientPrivilege, "permission denied for database acl24_db")
	mustExec(t, admin, "GRANT CREATE, TEMPORARY ON DATABASE acl24_db TO acl24_v")
	mustExec(t, v, "CREATE TEMP TABLE tt (a int)")
	mustExec(t, v, "CREATE SCHEMA s")
	expectSQL(t, v, "CREATE SCHEMA s2 AUTHORIZATION acl24_u", pgerr.InsufficientPrivilege, `must be member of role "acl24_u"`)
	got := strings.Join(mustExec(t, admin, "SELECT datacl::text FROM pg_database WHERE datname = 'acl24_db'"), ";")
	if want := "{admin=CTc/admin,acl24_v=CTc/admin}"; got != want {
		t.Errorf("datacl = %s, want %s", got, want)
	}
	got = strings.Join(mustExec(t, admin, "SELECT has_database_privilege('acl24_u', 'acl24_db', 'CONNECT'), has_database_privilege('acl24_v', 'acl24_db', 'TEMP'), has_database_privilege('acl24_u', 'postgres', 'CONNECT')"), ";")
	if got != "f|t|t" {
		t.Errorf("has_database_privilege = %s", got)
	}
	// A non-owner grants nothing.
	expectSQL(t, v, "GRANT CONNECT ON DATABASE acl24_db TO acl24_u", pgerr.SuccessfulCompletion, "")
	if _, err := open("acl24_u", "acl24_db"); err == nil {
		t.Errorf("a non-owner's GRANT gave CONNECT")
	}
	expectSQL(t, admin, "GRANT SELECT ON DATABASE acl24_db TO acl24_u", pgerr.InvalidGrantOperation, "invalid privilege type SELECT for database")
	expectSQL(t, admin, "GRANT CONNECT ON DATABASE nosuch TO acl24_u", pgerr.UndefinedDatabase, `database "nosuch" does not exist`)
}
