package dynamodb

import (
	"errors"
	"fmt"
	"os/exec"
	"testing"
	"time"

	"github.com/zproxy/zproxy/kv"
)

// TestUnreachableEndpoint: nothing listens on the port; Open fails quickly
// with an UnavailableError.
func TestUnreachableEndpoint(t *testing.T) {
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	opts := testOptions("zproxy-unreachable", fmt.Sprintf("http://127.0.0.1:%d", port))
	opts.MaxAttempts = 3
	start := time.Now()
	_, err = Open(bg, opts)
	var unavailable *kv.UnavailableError
	if !errors.As(err, &unavailable) {
		t.Fatalf("Open against a closed port: err = %v, want *kv.UnavailableError", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Open took %v to give up, want a few hundred ms", d)
	}
}

// TestOutageDuringQuery stops DynamoDB Local while a scan is between pages,
// then starts it again: the scan fails with an UnavailableError, so do
// other requests while it is down, and the same Store works once it is back.
// It runs its own in-memory instance through scripts/dynamodb-local.sh; the
// restarted emulator has lost the table, so the test recreates it (as
// another proxy starting would) and writes the items again through the
// Store that saw the outage.
func TestOutageDuringQuery(t *testing.T) {
	requireDynamo(t)
	t.Parallel()
	if err := exec.Command(scriptPath, "check").Run(); err != nil {
		t.Skip("needs DynamoDB Local installed by scripts/dynamodb-local.sh install")
	}
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	local := func(verb string) {
		t.Helper()
		defer func(t0 time.Time) { t.Logf("%s took %v", verb, time.Since(t0)) }(time.Now())
		if out, err := localCommand(port, "", verb); err != nil {
			t.Fatalf("dynamodb-local.sh %s: %v\n%s", verb, err, out)
		}
	}
	local("start")
	t.Cleanup(func() { localCommand(port, "", "stop") })

	opts := testOptions("zproxy-outage", fmt.Sprintf("http://127.0.0.1:%d", port))
	opts.MaxAttempts = 3
	opts.MaxBackoff = 50 * time.Millisecond
	opts.DialTimeout = time.Second
	s := openTest(t, opts)
	const n, size = 60, 20 << 10 // 1.2 MB: the scan needs two pages
	var ops []kv.Op
	for i := range n {
		ops = append(ops, putOp(key("p", fmt.Sprintf("%04d", i)), kv.Attr{Name: "v", Kind: kv.AttrBytes, B: make([]byte, size)}))
	}
	t0 := time.Now()
	mustWrite(t, s, kv.Batch{Ops: ops})
	t.Logf("write took %v", time.Since(t0))

	it := s.Scan(bg, kv.ScanRequest{Partition: []byte("p")})
	if !it.Next() {
		t.Fatalf("first item: %v", it.Err())
	}
	local("stop")
	start := time.Now()
	read := 1
	for it.Next() {
		read++
	}
	err = it.Err()
	it.Close()
	var unavailable *kv.UnavailableError
	if !errors.As(err, &unavailable) || unavailable.Op != "query" {
		t.Fatalf("scan across the outage: read %d items, err = %v; want *kv.UnavailableError in query", read, err)
	}
	if read >= n {
		t.Fatalf("scan read all %d items from one page; the test needs several pages", read)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the failing scan took %v, want well under 10s", d)
	}
	if _, err := s.Get(bg, kv.GetRequest{Keys: []kv.Key{key("p", "0001")}}); !errors.As(err, &unavailable) {
		t.Errorf("Get while down: err = %v, want *kv.UnavailableError", err)
	}
	if err := s.Write(bg, kv.Batch{Atomic: true, Ops: []kv.Op{putOp(key("p", "x"))}}); !errors.As(err, &unavailable) {
		t.Errorf("Write while down: err = %v, want *kv.UnavailableError", err)
	}

	local("start")
	openTest(t, opts) // recreates the table
	mustWrite(t, s, kv.Batch{Ops: ops})
	if keys := scanKeys(t, s.Scan(bg, kv.ScanRequest{Partition: []byte("p")})); len(keys) != n {
		t.Errorf("scan after the restart: %d items, want %d", len(keys), n)
	}
	mustWrite(t, s, kv.Batch{Atomic: true, Ops: []kv.Op{putOp(key("p", "x"), intAttr("v", 1))}})
	items, err := s.Get(bg, kv.GetRequest{Keys: []kv.Key{key("p", "x")}})
	if err != nil || !kv.Found(items[0]) {
		t.Errorf("Get after the restart: %+v, %v", items, err)
	}
}
