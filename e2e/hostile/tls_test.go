package hostile

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/zproxy/zproxy/e2e/harness"
	"github.com/zproxy/zproxy/internal/testcert"
)

// certs are PEM files of a test CA and a server certificate it signed for
// localhost and 127.0.0.1.
type certs struct{ ca, cert, key string }

func makeCerts(t *testing.T) certs {
	t.Helper()
	pair, err := testcert.New()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	c := certs{ca: filepath.Join(dir, "ca.pem"), cert: filepath.Join(dir, "server.pem"), key: filepath.Join(dir, "server.key")}
	for path, data := range map[string][]byte{c.ca: pair.CAPEM, c.cert: pair.CertPEM, c.key: pair.KeyPEM} {
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// TestTLS: with --tls-cert and --tls-key, clients that ask for TLS get it,
// in every sslmode they use, with SCRAM (and channel binding where the
// client does it) inside.
func TestTLS(t *testing.T) {
	c := makeCerts(t)
	s := start(t, "--tls-cert", c.cert, "--tls-key", c.key, "--users", "app:tls-Passw0rd")
	_, port := s.hostPort()

	t.Run("psql", func(t *testing.T) {
		for _, mode := range []string{"sslmode=require", "host=localhost sslmode=verify-full sslrootcert=" + c.ca} {
			out := mustPsql(t, s, "app", "tls-Passw0rd", mode, `\conninfo`)
			if !strings.Contains(out, "SSL connection") {
				t.Errorf("%s: %s", mode, out)
			}
		}
	})

	t.Run("pgx", func(t *testing.T) {
		for _, mode := range []string{"sslmode=require", "sslmode=verify-full sslrootcert=" + c.ca + " channel_binding=require"} {
			conn, err := pgx.Connect(context.Background(), fmt.Sprintf("host=localhost port=%s user=app password=tls-Passw0rd dbname=zproxy %s", port, mode))
			if err != nil {
				t.Fatalf("%s: %v", mode, err)
			}
			if _, ok := conn.PgConn().Conn().(*tls.Conn); !ok {
				t.Errorf("%s: not encrypted", mode)
			}
			conn.Close(context.Background())
		}
	})

	t.Run("psycopg2", func(t *testing.T) {
		python := "/usr/bin/python3"
		if err := exec.Command(python, "-c", "import psycopg2").Run(); err != nil {
			skipOrFail(t, "psycopg2 is not importable by /usr/bin/python3")
		}
		script := `
import sys, psycopg2
c = psycopg2.connect(host="localhost", port=sys.argv[1], user="app", password="tls-Passw0rd", dbname="zproxy", sslmode="verify-full", sslrootcert=sys.argv[2])
assert c.info.ssl_in_use
cur = c.cursor()
cur.execute("SELECT 41 + 1")
assert cur.fetchone()[0] == 42
print("PASS")
`
		runClient(t, python, "-c", script, port, c.ca)
	})

	t.Run("JDBC", func(t *testing.T) {
		const jar = "/usr/share/java/postgresql.jar"
		javac, java := requireTool(t, "javac"), requireTool(t, "java")
		if _, err := os.Stat(jar); err != nil {
			skipOrFail(t, jar+" is missing (Debian package libpostgresql-jdbc-java)")
		}
		classes := t.TempDir()
		if out, err := exec.Command(javac, "-d", classes, "-cp", jar, "testdata/TlsClient.java").CombinedOutput(); err != nil {
			t.Fatalf("javac: %v\n%s", err, out)
		}
		url := fmt.Sprintf("jdbc:postgresql://localhost:%s/zproxy?sslmode=verify-full&sslrootcert=%s", port, c.ca)
		runClient(t, java, "-cp", classes+":"+jar, "TlsClient", url, "app", "tls-Passw0rd")
	})

	t.Run("no certificate, no TLS", func(t *testing.T) {
		plain := start(t)
		if _, _, err := psql(t, plain, "zproxy", "", "sslmode=require", "SELECT 1;"); err == nil {
			t.Error("sslmode=require connected to a server without a certificate")
		}
	})
}

// TestTLSRequired: --tls-required refuses unencrypted connections with
// 28000 unless they come from loopback.
func TestTLSRequired(t *testing.T) {
	ip := nonLoopbackIP(t)
	c := makeCerts(t)
	s := start(t, "--listen", "0.0.0.0:0", "--tls-cert", c.cert, "--tls-key", c.key, "--tls-required", "--users", "app:tls-Passw0rd")
	_, port := s.hostPort()
	at := func(host, mode string) error {
		conn, err := pgx.Connect(context.Background(), fmt.Sprintf("host=%s port=%s user=app password=tls-Passw0rd dbname=zproxy connect_timeout=10 %s", host, port, mode))
		if err == nil {
			conn.Close(context.Background())
		}
		return err
	}
	err := at(ip, "sslmode=disable")
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "28000" || !strings.Contains(pe.Message, "no encryption") {
		t.Fatalf("plain connection from %s: %v", ip, err)
	}
	if err := at(ip, "sslmode=require"); err != nil {
		t.Errorf("TLS connection from %s: %v", ip, err)
	}
	if err := at("127.0.0.1", "sslmode=disable"); err != nil {
		t.Errorf("plain connection from loopback: %v", err)
	}
}

// nonLoopbackIP returns an IPv4 address of this machine that is not
// loopback, or skips the test.
func nonLoopbackIP(t *testing.T) string {
	ip, ok := testcert.NonLoopbackIPv4()
	if !ok {
		t.Skip("no non-loopback IPv4 address")
	}
	return ip
}

// runClient runs a client program for a minute at most and fails the test
// unless it prints PASS.
func runClient(t *testing.T, name string, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = harness.CleanEnv()
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "PASS") {
		t.Fatalf("%s: %v\n%s", filepath.Base(name), err, out)
	}
}

// skipOrFail skips a test whose client is missing, or fails it in CI.
func skipOrFail(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s, and CI=true", why)
	}
	t.Skip(why)
}
