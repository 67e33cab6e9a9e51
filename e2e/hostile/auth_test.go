package hostile

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

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
	s.connect(t, "anyone", "sslmode=disable")
}
