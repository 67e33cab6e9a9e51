package main

import (
	"crypto/tls"
	"crypto/x509"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/zproxy/zproxy/internal/testcert"
)

// TestTLSSniffer: one listener serves plain HTTP (Prometheus's scrape)
// and HTTPS (the console), and a handler sees which (Request.TLS).
func TestTLSSniffer(t *testing.T) {
	pair, err := testcert.New()
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sn := newTLSSniffer(ln, &tls.Config{Certificates: []tls.Certificate{pair.Cert}, MinVersion: tls.VersionTLS12})
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.TLS != nil {
			io.WriteString(w, "tls")
		} else {
			io.WriteString(w, "plain")
		}
	}), ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(sn)
	defer srv.Close()

	// A client that sends nothing holds up no other.
	idle, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()

	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(pair.CAPEM)
	secure := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}}}
	plain := &http.Client{Timeout: 10 * time.Second}
	for _, tc := range []struct {
		client *http.Client
		url    string
		want   string
	}{
		{plain, "http://" + ln.Addr().String() + "/metrics", "plain"},
		{secure, "https://" + ln.Addr().String() + "/console/", "tls"},
		{plain, "http://" + ln.Addr().String() + "/metrics", "plain"},
	} {
		resp, err := tc.client.Get(tc.url)
		if err != nil {
			t.Fatalf("%s: %v", tc.url, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(body) != tc.want {
			t.Errorf("%s: %q, want %q", tc.url, body, tc.want)
		}
	}
}
