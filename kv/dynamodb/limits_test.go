package dynamodb

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/zproxy/zproxy/kv"
)

// A read whose response is cut short, the connection lost in the middle of
// its body, is sent again: the scan and the get succeed. Without the
// retry they fail with the SDK's "deserialization failed, unexpected EOF"
// (which a loaded DynamoDB Local sometimes sends, and a real network can).
func TestReadCutShortIsRetried(t *testing.T) {
	requireDynamo(t)
	t.Parallel()
	target, err := url.Parse(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(target)
	var cut atomic.Int64 // reads left to cut short
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		op := r.Header.Get("X-Amz-Target")
		read := strings.HasSuffix(op, ".Query") || strings.HasSuffix(op, ".BatchGetItem")
		if !read || cut.Add(-1) < 0 {
			rp.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		rp.ServeHTTP(rec, r)
		body := rec.Body.Bytes()
		conn, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close()
		var head bytes.Buffer
		fmt.Fprintf(&head, "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n",
			rec.Code, http.StatusText(rec.Code), rec.Header().Get("Content-Type"), len(body))
		conn.Write(append(head.Bytes(), body[:len(body)/2]...))
	}))
	t.Cleanup(srv.Close)

	s := openTest(t, testOptions(uniqueTable(t), srv.URL))
	deleteTableOnCleanup(t, s)
	var ops []kv.Op
	for i := range 20 {
		ops = append(ops, putOp(key("c", fmt.Sprintf("%02d", i)), kv.Attr{Name: "v", Kind: kv.AttrBytes, B: bytes.Repeat([]byte("x"), 200)}))
	}
	mustWrite(t, s, kv.Batch{Ops: ops})

	cut.Store(1)
	if keys := scanKeys(t, s.Scan(bg, kv.ScanRequest{Partition: []byte("c"), Consistent: true})); len(keys) != 20 {
		t.Fatalf("scan read %d items, want 20", len(keys))
	}
	if n := cut.Load(); n >= 0 {
		t.Fatalf("no Query was cut short (%d left)", n)
	}
	cut.Store(1)
	items, err := s.Get(bg, kv.GetRequest{Keys: []kv.Key{key("c", "03"), key("c", "07")}, Consistent: true})
	if err != nil {
		t.Fatalf("get after a response cut short: %v", err)
	}
	if len(items) != 2 {
		t.Fatalf("get: %d items, want 2", len(items))
	}
	if n := cut.Load(); n >= 0 {
		t.Fatalf("no BatchGetItem was cut short (%d left)", n)
	}
}

// Keys past DynamoDB's limits (framed: a sort key of 1,024 bytes, a
// partition key of 2,048) are refused with a *kv.KeyTooLongError before any
// request, by a batch's Write and by a transaction's Write; the longest
// keys that fit are stored.
func TestKeyTooLong(t *testing.T) {
	requireDynamo(t)
	t.Parallel()
	s := openTest(t, testOptions(uniqueTable(t), endpoint))
	deleteTableOnCleanup(t, s)
	fits := kv.Key{Partition: bytes.Repeat([]byte("p"), maxPartitionKey-1), Sort: bytes.Repeat([]byte("s"), maxSortKey-1)}
	mustWrite(t, s, kv.Batch{Ops: []kv.Op{putOp(fits)}})
	for _, k := range []kv.Key{
		{Partition: []byte("p"), Sort: bytes.Repeat([]byte("s"), maxSortKey)},
		{Partition: bytes.Repeat([]byte("p"), maxPartitionKey), Sort: []byte("s")},
	} {
		var tl *kv.KeyTooLongError
		for _, atomic := range []bool{false, true} {
			if err := s.Write(bg, kv.Batch{Atomic: atomic, Ops: []kv.Op{putOp(k)}}); !errors.As(err, &tl) {
				t.Fatalf("Write (atomic %v) of a %d/%d-byte key: %v, want *kv.KeyTooLongError", atomic, len(k.Partition), len(k.Sort), err)
			}
		}
		txn, err := s.Begin(bg, kv.TxnOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if err := txn.Write(bg, kv.Batch{Ops: []kv.Op{putOp(k)}}); !errors.As(err, &tl) {
			t.Fatalf("txn Write of a %d/%d-byte key: %v, want *kv.KeyTooLongError", len(k.Partition), len(k.Sort), err)
		}
		txn.Rollback()
	}
}
