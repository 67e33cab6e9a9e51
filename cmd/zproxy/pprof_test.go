package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestPprofHandlers(t *testing.T) {
	mux := http.NewServeMux()
	registerPprof(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	tests := []struct {
		path string
		want string // a fragment of the body
	}{
		{"/debug/pprof/", "goroutine"},
		{"/debug/pprof/goroutine?debug=1", "goroutine profile:"},
		{"/debug/pprof/heap?debug=1", "heap profile:"},
		{"/debug/pprof/cmdline", ""},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			resp, err := http.Get(srv.URL + tt.path)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status %d: %s", resp.StatusCode, body)
			}
			if !strings.Contains(string(body), tt.want) {
				t.Fatalf("body lacks %q:\n%.300s", tt.want, body)
			}
		})
	}
}
