package hostile

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// TestPrivilegesThroughPsql: a role sees only what it was granted, with
// PostgreSQL's 42501 and messages, and is_superuser says the truth.
func TestPrivilegesThroughPsql(t *testing.T) {
	s := start(t, "--users", "admin:adm1n-Secret")
	admin := func(script string) string { return mustPsql(t, s, "admin", "adm1n-Secret", "sslmode=disable", script) }
	denied := func(user, password, script, want string) {
		t.Helper()
		_, errOut, err := psql(t, s, user, password, "sslmode=disable", script)
		if err == nil || !strings.Contains(errOut, "ERROR:  42501: "+want) {
			t.Errorf("%s as %s: %v\n%s\nwant 42501 %s", strings.TrimSpace(script), user, err, errOut, want)
		}
	}
	admin(`
CREATE TABLE accounts (id INT PRIMARY KEY, owner TEXT, balance BIGINT);
INSERT INTO accounts VALUES (1, 'ann', 100), (2, 'bo', 50);
CREATE ROLE clerk LOGIN PASSWORD 'clerk-Passw0rd';
CREATE USER auditor PASSWORD 'audit-Passw0rd';
`)
	clerk := func(script string) string {
		return mustPsql(t, s, "clerk", "clerk-Passw0rd", "sslmode=disable", script)
	}
	if got := strings.TrimSpace(clerk("SHOW is_superuser;")); got != "off" {
		t.Errorf("clerk's is_superuser: %q", got)
	}
	denied("clerk", "clerk-Passw0rd", "SELECT * FROM accounts;", "permission denied for table accounts")
	denied("clerk", "clerk-Passw0rd", "CREATE TABLE mine (id INT PRIMARY KEY);", "permission denied for schema public")
	denied("clerk", "clerk-Passw0rd", "DROP TABLE accounts;", "must be owner of table accounts")
	denied("clerk", "clerk-Passw0rd", "CREATE ROLE other;", "permission denied to create role")

	admin("GRANT SELECT ON accounts TO clerk; GRANT SELECT ON ALL TABLES IN SCHEMA public TO auditor;")
	if got := clerk("SELECT owner FROM accounts ORDER BY id;"); got != "ann\nbo\n" {
		t.Errorf("clerk reads %q", got)
	}
	denied("clerk", "clerk-Passw0rd", "INSERT INTO accounts VALUES (3, 'cy', 0);", "permission denied for table accounts")
	denied("clerk", "clerk-Passw0rd", "UPDATE accounts SET balance = 0 WHERE id = 1;", "permission denied for table accounts")
	mustPsql(t, s, "auditor", "audit-Passw0rd", "sslmode=disable", "SELECT count(*) FROM accounts;")

	admin("GRANT UPDATE ON accounts TO clerk;")
	clerk("UPDATE accounts SET balance = balance + 1 WHERE id = 1;")
	admin("REVOKE ALL ON accounts FROM clerk;")
	denied("clerk", "clerk-Passw0rd", "SELECT * FROM accounts;", "permission denied for table accounts")

	// A role cannot be dropped while it holds privileges.
	_, errOut, err := psql(t, s, "admin", "adm1n-Secret", "sslmode=disable", "DROP ROLE auditor;")
	if err == nil || !strings.Contains(errOut, "2BP01") || !strings.Contains(errOut, "privileges for table accounts") {
		t.Errorf("DROP ROLE auditor: %v %s", err, errOut)
	}
	admin("REVOKE SELECT ON accounts FROM auditor; DROP ROLE auditor, clerk;")
}

// TestRolesSharedAcrossProxies: two proxies over one DynamoDB table agree
// on roles: one created through one logs in through the other. It needs
// DynamoDB Local (DYNAMODB_ENDPOINT).
func TestRolesSharedAcrossProxies(t *testing.T) {
	ep := os.Getenv("DYNAMODB_ENDPOINT")
	if ep == "" {
		t.Skip("DYNAMODB_ENDPOINT is not set (scripts/dynamodb-local.sh start)")
	}
	t.Setenv("AWS_ACCESS_KEY_ID", "local")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "local")
	t.Setenv("AWS_REGION", "us-east-1")
	table := fmt.Sprintf("hostile_roles_%d_%d", os.Getpid(), time.Now().UnixNano())
	args := []string{"--backend", "dynamodb", "--dynamodb-endpoint", ep, "--dynamodb-table", table, "--users", "admin:adm1n-Secret"}
	a, b := start(t, args...), start(t, args...)
	mustPsql(t, a, "admin", "adm1n-Secret", "sslmode=disable", `
CREATE TABLE shared (id INT PRIMARY KEY);
CREATE ROLE reader LOGIN PASSWORD 'reader-Passw0rd';
GRANT SELECT ON shared TO reader;
`)
	mustPsql(t, b, "reader", "reader-Passw0rd", "sslmode=disable", "SELECT * FROM shared;")
	_, errOut, err := psql(t, b, "reader", "reader-Passw0rd", "sslmode=disable", "INSERT INTO shared VALUES (1);")
	if err == nil || !strings.Contains(errOut, "42501") {
		t.Errorf("reader inserting through the other proxy: %v %s", err, errOut)
	}
}
