package session_test

import (
	"context"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/session"
)

// TestWriteCTEPrivileges: a data-modifying WITH query needs the privileges
// of its statement, also under a SELECT, and a read-only transaction
// refuses it.
func TestWriteCTEPrivileges(t *testing.T) {
	eng, err := session.New(context.Background(), session.Config{Store: memStore(t), AllowFullScan: true})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	if _, err := eng.BootstrapUsers(context.Background(), map[string]string{"admin": "secret"}); err != nil {
		t.Fatal(err)
	}
	admin, _, err := connectAs(t, eng, "admin", nil)
	if err != nil {
		t.Fatal(err)
	}
	expectSQL(t, admin, "CREATE TABLE t (a INT PRIMARY KEY)", pgerr.SuccessfulCompletion, "")
	expectSQL(t, admin, "CREATE TABLE log (a INT PRIMARY KEY)", pgerr.SuccessfulCompletion, "")
	expectSQL(t, admin, "INSERT INTO t VALUES (1), (2)", pgerr.SuccessfulCompletion, "")
	expectSQL(t, admin, "CREATE USER bob", pgerr.SuccessfulCompletion, "")
	expectSQL(t, admin, "GRANT SELECT ON t TO bob", pgerr.SuccessfulCompletion, "")
	expectSQL(t, admin, "GRANT SELECT, INSERT ON log TO bob", pgerr.SuccessfulCompletion, "")
	bob, _, err := connectAs(t, eng, "bob", nil)
	if err != nil {
		t.Fatal(err)
	}
	expectSQL(t, bob, "WITH d AS (DELETE FROM t RETURNING a) SELECT * FROM d", pgerr.InsufficientPrivilege, "permission denied for table t")
	expectSQL(t, bob, "WITH d AS (DELETE FROM t RETURNING a) INSERT INTO log SELECT a FROM d", pgerr.InsufficientPrivilege, "permission denied for table t")
	if rows := expectSQL(t, bob, "WITH i AS (INSERT INTO log SELECT a FROM t RETURNING a) SELECT count(*) FROM i", pgerr.SuccessfulCompletion, ""); len(rows) != 1 || rows[0] != "2" {
		t.Errorf("bob's insert through WITH returned %v", rows)
	}
	if rows := expectSQL(t, admin, "SELECT count(*) FROM t", pgerr.SuccessfulCompletion, ""); len(rows) != 1 || rows[0] != "2" {
		t.Errorf("a refused DELETE through WITH deleted rows: %v", rows)
	}
	expectSQL(t, bob, "BEGIN READ ONLY", pgerr.SuccessfulCompletion, "")
	expectSQL(t, bob, "WITH i AS (INSERT INTO log VALUES (9) RETURNING a) SELECT * FROM i", pgerr.ReadOnlySQLTransaction, "read-only transaction")
	expectSQL(t, bob, "ROLLBACK", pgerr.SuccessfulCompletion, "")
}
