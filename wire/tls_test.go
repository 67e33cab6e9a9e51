package wire

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/zproxy/zproxy/internal/testcert"
)

var (
	testCertOnce sync.Once
	testCertPair *testcert.Pair
	testCertErr  error
)

// testCA returns a CA and a server certificate for localhost and
// 127.0.0.1, made once per test binary.
func testCA(t testing.TB) *testcert.Pair {
	t.Helper()
	testCertOnce.Do(func() { testCertPair, testCertErr = testcert.New() })
	if testCertErr != nil {
		t.Fatal(testCertErr)
	}
	return testCertPair
}

func testTLSConfig(t testing.TB) *tls.Config {
	return &tls.Config{Certificates: []tls.Certificate{testCA(t).Cert}, MinVersion: tls.VersionTLS12}
}

// TestTLSWithPgx connects over TLS in the sslmodes clients use, with SCRAM
// and channel binding.
func TestTLSWithPgx(t *testing.T) {
	ca := testCA(t)
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, ca.CAPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	ts := startServer(t, Config{Auth: AuthSCRAM, TLS: testTLSConfig(t)})
	ts.eng.addRole(t, "app", "s3cret", true, false)
	_, port, _ := net.SplitHostPort(ts.addr)
	for _, tc := range []struct{ name, conn string }{
		{"require", "sslmode=require"},
		{"verify-ca", "sslmode=verify-ca sslrootcert=" + caFile},
		{"verify-full", "host=localhost sslmode=verify-full sslrootcert=" + caFile},
		{"channel binding required", "sslmode=require channel_binding=require"},
		{"channel binding disabled", "sslmode=require channel_binding=disable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := fmt.Sprintf("host=127.0.0.1 port=%s user=app password=s3cret dbname=db connect_timeout=10 %s", port, tc.conn)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			conn, err := pgx.Connect(ctx, cs)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close(ctx)
			if conn.PgConn().Conn().(*tls.Conn) == nil {
				t.Fatal("not encrypted")
			}
			var n int64
			if err := conn.QueryRow(ctx, "SERIES 1").Scan(&n); err != nil || n != 1 {
				t.Errorf("query over TLS: %d, %v", n, err)
			}
			if got := conn.PgConn().ParameterStatus("is_superuser"); got != "off" {
				t.Errorf("is_superuser = %q", got)
			}
		})
	}
	// The wrong password fails over TLS as well.
	cs := fmt.Sprintf("host=127.0.0.1 port=%s user=app password=nope dbname=db sslmode=require", port)
	var pe *pgconn.PgError
	if _, err := pgx.Connect(context.Background(), cs); !errors.As(err, &pe) || pe.Code != "28P01" {
		t.Errorf("wrong password over TLS: %v", err)
	}
	// Without a certificate, sslmode=require cannot connect.
	plain := startServer(t, Config{})
	cs = fmt.Sprintf("postgres://app@%s/db?sslmode=require&connect_timeout=5", plain.addr)
	if _, err := pgx.Connect(context.Background(), cs); err == nil {
		t.Error("sslmode=require connected to a server without TLS")
	}
}

// TestTLSRequired: plain connections are refused with 28000 unless they
// come from loopback.
func TestTLSRequired(t *testing.T) {
	ip := nonLoopbackIP(t)
	ln, err := net.Listen("tcp", net.JoinHostPort(ip, "0"))
	if err != nil {
		t.Skipf("cannot listen on %s: %v", ip, err)
	}
	eng := newFakeEngine()
	srv := NewServer(Config{TLS: testTLSConfig(t), TLSRequired: true}, eng)
	go srv.Serve(ln)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	})
	addr := ln.Addr().String()
	_, err = pgx.Connect(context.Background(), "postgres://u@"+addr+"/db?sslmode=disable&connect_timeout=5")
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "28000" || pe.Severity != "FATAL" {
		t.Fatalf("plain connection: %v", err)
	}
	want := fmt.Sprintf(`no pg_hba.conf entry for host "%s", user "u", database "db", no encryption`, ip)
	if pe.Message != want {
		t.Errorf("message %q, want %q", pe.Message, want)
	}
	conn, err := pgx.Connect(context.Background(), "postgres://u@"+addr+"/db?sslmode=require&connect_timeout=5")
	if err != nil {
		t.Fatalf("TLS connection: %v", err)
	}
	conn.Close(context.Background())
	// Loopback may stay plain.
	lo := startServer(t, Config{TLS: testTLSConfig(t), TLSRequired: true})
	conn, err = pgx.Connect(context.Background(), "postgres://u@"+lo.addr+"/db?sslmode=disable&connect_timeout=5")
	if err != nil {
		t.Fatalf("plain connection from loopback: %v", err)
	}
	conn.Close(context.Background())
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
