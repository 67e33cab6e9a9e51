package hostile

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
)

// TestSCRAM: password authentication is SCRAM-SHA-256, so the password never
// crosses the wire; psql logs in with it; only verifiers are stored.
func TestSCRAM(t *testing.T) {
	s := start(t, "--users", "admin:adm1n-Secret")
	c := dialRaw(t, s)
	c.startup("admin")
	msg := c.next()
	sasl, ok := msg.(*pgproto3.AuthenticationSASL)
	if !ok || !slices.Equal(sasl.AuthMechanisms, []string{"SCRAM-SHA-256"}) {
		t.Fatalf("authentication request %#v, want SASL with SCRAM-SHA-256", msg)
	}

	if out := mustPsql(t, s, "admin", "adm1n-Secret", "sslmode=disable", "SHOW is_superuser;"); strings.TrimSpace(out) != "on" {
		t.Errorf("admin's is_superuser: %q", out)
	}
	_, errOut, err := psql(t, s, "admin", "wrong", "sslmode=disable", "SELECT 1;")
	if err == nil || !strings.Contains(errOut, `password authentication failed for user "admin"`) {
		t.Errorf("wrong password: %v %s", err, errOut)
	}
	_, errOut, err = psql(t, s, "nobody", "adm1n-Secret", "sslmode=disable", "SELECT 1;")
	if err == nil || !strings.Contains(errOut, `password authentication failed for user "nobody"`) {
		t.Errorf("unknown user: %v %s", err, errOut)
	}

	// A role created in SQL logs in; so does one given the verifier psql's
	// \password computes (PostgreSQL's own, for the password "pencil").
	mustPsql(t, s, "admin", "adm1n-Secret", "sslmode=disable", `
CREATE ROLE app LOGIN PASSWORD 'app-Passw0rd';
`)
	if _, errOut, err := psql(t, s, "admin", "adm1n-Secret", "sslmode=disable", "CREATE ROLE pg_verifier LOGIN;"); err == nil || !strings.Contains(errOut, "42939") {
		t.Errorf("a reserved role name: %v %s", err, errOut)
	}
	mustPsql(t, s, "admin", "adm1n-Secret", "sslmode=disable", `
CREATE ROLE tool LOGIN;
ALTER ROLE tool PASSWORD 'SCRAM-SHA-256$4096:qvbIXgnyR6V6Qbcce70P+w==$3yzUR7ELTH8LcvldrTzqji6Rv7KYu1ocsK0cqxJlXIg=:Zc0l5y5+l2VsgiojgzhxL+vhnSw5NSkSHrHl77rpHLM=';
CREATE ROLE locked NOLOGIN PASSWORD 'locked-Passw0rd';
`)
	mustPsql(t, s, "app", "app-Passw0rd", "sslmode=disable", "SELECT 1;")
	mustPsql(t, s, "tool", "pencil", "sslmode=disable", "SELECT 1;")
	if _, errOut, err := psql(t, s, "locked", "locked-Passw0rd", "sslmode=disable", "SELECT 1;"); err == nil || !strings.Contains(errOut, `role "locked" is not permitted to log in`) {
		t.Errorf("NOLOGIN role: %v %s", err, errOut)
	}

	// Nothing in the store holds a password.
	if err := s.Terminate(30 * time.Second); err != nil {
		t.Fatal(err)
	}
	for _, pw := range []string{"adm1n-Secret", "app-Passw0rd", "locked-Passw0rd"} {
		filepath.WalkDir(s.dataDir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(path)
			if err == nil && bytes.Contains(data, []byte(pw)) {
				t.Errorf("%s holds the password %q", path, pw)
			}
			return nil
		})
	}
	if strings.Contains(s.Log(), "adm1n-Secret") {
		t.Error("the log holds a password")
	}
}

// TestTrustOnlyOnLoopback: without users or an explicit --auth trust,
// zproxy refuses to listen beyond loopback.
func TestTrustOnlyOnLoopback(t *testing.T) {
	_, err := tryStart(t, "--listen", "0.0.0.0:0")
	if err == nil || !strings.Contains(err.Error(), "not a loopback address") {
		t.Fatalf("trust on 0.0.0.0: %v", err)
	}
	s := start(t, "--listen", "0.0.0.0:0", "--auth", "trust")
	s.connect(t, "zproxy", "sslmode=disable")
	// Trust lets a role in without a password, not a name that is no
	// role (PostgreSQL: 28000 whatever the method).
	_, err = pgx.Connect(context.Background(), s.connString("anyone", "sslmode=disable"))
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "28000" || pe.Message != `role "anyone" does not exist` {
		t.Fatalf("trust, a name that is no role: %v", err)
	}
}

// TestHBAFile: --hba-file chooses the method per connection by
// pg_hba.conf's rules, first match first: a password for admin, trust for
// the members of a group (granted after start: membership is read at each
// connection), reject for everyone else, and no rule at all for the
// other database.
func TestHBAFile(t *testing.T) {
	hba := filepath.Join(t.TempDir(), "pg_hba.conf")
	if err := os.WriteFile(hba, []byte(`# TYPE  DATABASE  USER      ADDRESS        METHOD
host    zproxy    admin     127.0.0.1/32   scram-sha-256
host    zproxy    +readers  127.0.0.1/32   trust
host    zproxy    all       127.0.0.1/32   reject
`), 0o600); err != nil {
		t.Fatal(err)
	}
	s := start(t, "--users", "admin:adm1n-Secret", "--hba-file", hba)
	mustPsql(t, s, "admin", "adm1n-Secret", "sslmode=disable", "CREATE ROLE readers NOLOGIN; CREATE ROLE bob LOGIN; CREATE ROLE carol LOGIN; GRANT readers TO bob;")
	if out := mustPsql(t, s, "bob", "", "sslmode=disable", "SELECT current_user;"); strings.TrimSpace(out) != "bob" {
		t.Errorf("bob, trusted as a member of readers: %q", out)
	}
	fails := func(user, dbname, code, msg string) {
		t.Helper()
		_, err := pgx.Connect(context.Background(), strings.Replace(s.connString(user, "sslmode=disable"), "dbname=zproxy", "dbname="+dbname, 1))
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != code || pe.Message != msg {
			t.Errorf("%s to %s: %v, want %s %s", user, dbname, err, code, msg)
		}
	}
	fails("carol", "zproxy", "28000", `pg_hba.conf rejects connection for host "127.0.0.1", user "carol", database "zproxy", no encryption`)
	fails("zproxy", "zproxy", "28000", `pg_hba.conf rejects connection for host "127.0.0.1", user "zproxy", database "zproxy", no encryption`)
	fails("admin", "zproxy", "28P01", `password authentication failed for user "admin"`)
	fails("bob", "other", "28000", `no pg_hba.conf entry for host "127.0.0.1", user "bob", database "other", no encryption`)
	if _, err := tryStart(t, "--hba-file", hba, "--auth", "trust"); err == nil || !strings.Contains(err.Error(), "--auth with --hba-file") {
		t.Errorf("--auth with --hba-file: %v", err)
	}
}
