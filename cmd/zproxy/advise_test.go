package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
	zpebble "github.com/zproxy/zproxy/kv/pebble"
	"github.com/zproxy/zproxy/session"
	"github.com/zproxy/zproxy/wire"
)

// TestAdviseCommand serves an engine over the wire, runs a workload that
// looks rows up by an unindexed column, and asks `zproxy advise` for the
// recorded workload and for a file of statements.
func TestAdviseCommand(t *testing.T) {
	ctx := context.Background()
	store, err := zpebble.Open(t.Name(), zpebble.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	eng, err := session.New(ctx, session.Config{Store: store, AllowFullScan: true})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	srv := wire.NewServer(wire.Config{Auth: wire.AuthTrust}, eng)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	defer func() {
		sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()
	sess, err := eng.NewSession(ctx, wire.SessionParams{User: "postgres", Notice: func(*pgerr.Error) {}})
	if err != nil {
		t.Fatal(err)
	}
	execSQL(t, sess, `CREATE TABLE t (id INT PRIMARY KEY, v TEXT, w INT);
		INSERT INTO t SELECT g, 'v' || g, g % 10 FROM generate_series(1, 500) g`)
	for _, v := range []string{"v1", "v2", "v3"} {
		execSQL(t, sess, "SELECT * FROM t WHERE v = '"+v+"'")
	}
	url := "postgres://zproxy@" + ln.Addr().String() + "/postgres?sslmode=disable"

	var out, errOut bytes.Buffer
	if code := run(ctx, []string{"advise", "--url", url}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	for _, want := range []string{"CREATE INDEX t_v_idx ON t (v) (btree on t)", "helps 1 statement, 3 calls:", "SELECT * FROM t WHERE v = $1",
		"per call: items read 500 -> "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("advice lacks %q:\n%s", want, out.String())
		}
	}

	file := filepath.Join(t.TempDir(), "stmts.sql")
	os.WriteFile(file, []byte("SELECT id FROM t WHERE w = 3;\nSELECT * FROM nosuch;\n-- a comment\nSELECT id FROM t WHERE w = 4 AND v > 'x'"), 0o644)
	out.Reset()
	errOut.Reset()
	if code := run(ctx, []string{"advise", "--url", url, "--file", file}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "ON t (w") || strings.Contains(out.String(), "(v)") {
		t.Errorf("advice for the file:\n%s", out.String())
	}
	if !strings.Contains(errOut.String(), `skipped "SELECT * FROM nosuch"`) {
		t.Errorf("stderr: %s", errOut.String())
	}
	// The file's statements were planned, not run: the proxy's workload
	// has none of them.
	out.Reset()
	run(ctx, []string{"advise", "--url", url}, &out, &errOut)
	if strings.Contains(out.String(), "w = $1") {
		t.Errorf("the file's statements entered the proxy's workload:\n%s", out.String())
	}
}
