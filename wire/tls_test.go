package wire

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// testCA is a certificate authority and a server certificate it signed for
// localhost and 127.0.0.1, made once per test binary.
type testCA struct {
	caPEM  []byte
	server tls.Certificate
}

var theTestCA *testCA

func newTestCA(t testing.TB) *testCA {
	t.Helper()
	if theTestCA != nil {
		return theTestCA
	}
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "zproxy test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, _ := x509.ParseCertificate(caDER)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "localhost"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, KeyUsage: x509.KeyUsageDigitalSignature}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, caCert, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	theTestCA = &testCA{
		caPEM:  pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}),
		server: tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key},
	}
	return theTestCA
}

func testTLSConfig(t testing.TB) *tls.Config {
	return &tls.Config{Certificates: []tls.Certificate{newTestCA(t).server}, MinVersion: tls.VersionTLS12}
}

// TestTLSWithPgx connects over TLS in the sslmodes clients use, with SCRAM
// and channel binding.
func TestTLSWithPgx(t *testing.T) {
	ca := newTestCA(t)
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, ca.caPEM, 0o600); err != nil {
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
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Skip(err)
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil {
			return n.IP.String()
		}
	}
	t.Skip("no non-loopback IPv4 address")
	return ""
}
