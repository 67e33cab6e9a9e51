package kvprefix_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/kv/dynamodb"
	"github.com/zproxy/zproxy/kv/kvprefix"
	"github.com/zproxy/zproxy/kv/kvtest"
	"github.com/zproxy/zproxy/kv/pebble"
)

func openPebble(t *testing.T) *pebble.Store {
	t.Helper()
	s, err := pebble.Open("db", pebble.Options{InMemory: true, CacheSize: 8 << 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestConformance runs the store suite through a database's view.
func TestConformance(t *testing.T) {
	kvtest.RunWith(t, func(t *testing.T) kv.Store {
		return kvprefix.New(openPebble(t), kvprefix.Prefix(7))
	}, kvtest.Options{LargeBytes: 1 << 20, TransferDuration: 300 * 1e6})
}

// TestDatabasesApart: one partition name in two views and unprefixed is
// three items; Shared reaches the unprefixed one; DeletePartitionPrefix
// removes one database's items and nothing else.
func TestDatabasesApart(t *testing.T) {
	testDatabasesApart(t, openPebble(t))
}

// TestDatabasesApartDynamoDB is TestDatabasesApart on DynamoDB Local.
func TestDatabasesApartDynamoDB(t *testing.T) {
	ep := os.Getenv("DYNAMODB_ENDPOINT")
	if ep == "" {
		t.Skip("needs DynamoDB Local (DYNAMODB_ENDPOINT)")
	}
	s, err := dynamodb.Open(context.Background(), dynamodb.Options{Table: fmt.Sprintf("kvprefix_%d", os.Getpid()), Endpoint: ep, Region: "us-east-1",
		Credentials: credentials.NewStaticCredentialsProvider("test", "test", "")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	testDatabasesApart(t, s)
}

// rawStore is a store that deletes by partition prefix.
type rawStore interface {
	kv.Store
	kv.PrefixDeleter
}

func testDatabasesApart(t *testing.T, raw rawStore) {
	ctx := context.Background()
	a, b := kvprefix.New(raw, kvprefix.Prefix(1)), kvprefix.New(raw, kvprefix.Prefix(2))
	put := func(s kv.Store, p, v string) {
		t.Helper()
		op := kv.Op{Kind: kv.OpPut, Key: kv.Key{Partition: []byte(p), Sort: []byte("k")}, Attrs: []kv.Attr{{Name: "v", Kind: kv.AttrString, S: v}}}
		if err := s.Write(ctx, kv.Batch{Ops: []kv.Op{op}, Atomic: true}); err != nil {
			t.Fatal(err)
		}
	}
	get := func(s kv.Store, p string) string {
		t.Helper()
		items, err := s.Get(ctx, kv.GetRequest{Keys: []kv.Key{{Partition: []byte(p), Sort: []byte("k")}}})
		if err != nil {
			t.Fatal(err)
		}
		if !kv.Found(items[0]) {
			return "-"
		}
		if string(items[0].Key.Partition) != p {
			t.Errorf("item's partition %q, asked %q", items[0].Key.Partition, p)
		}
		return kv.Lookup(items[0].Attrs, "v").S
	}
	put(raw, "T1", "raw")
	put(a, "T1", "a")
	put(b, "T1", "b")
	put(a, "T1-longer-partition", "a2")
	put(a, string(kvprefix.Shared([]byte("C/shared"))), "shared")
	if got := [...]string{get(raw, "T1"), get(a, "T1"), get(b, "T1"), get(raw, "C/shared"), get(b, string(kvprefix.Shared([]byte("C/shared"))))}; got != [...]string{"raw", "a", "b", "shared", "shared"} {
		t.Fatalf("items %v", got)
	}
	it := a.Scan(ctx, kv.ScanRequest{Partition: []byte("T1")})
	if !it.Next() || string(it.Item().Key.Partition) != "T1" || it.Next() {
		t.Errorf("scan through a view: %v", it.Err())
	}
	it.Close()
	if err := raw.DeletePartitionPrefix(ctx, kvprefix.Prefix(1)); err != nil {
		t.Fatal(err)
	}
	if got := [...]string{get(raw, "T1"), get(a, "T1"), get(a, "T1-longer-partition"), get(b, "T1"), get(raw, "C/shared")}; got != [...]string{"raw", "-", "-", "b", "shared"} {
		t.Fatalf("after deleting database 1: %v", got)
	}
}

// TestRescanThroughView: a database view's iterator moves to another range
// as its store's does, and yields that range of the view's own partition.
func TestRescanThroughView(t *testing.T) {
	ctx := context.Background()
	raw := openPebble(t)
	a, b := kvprefix.New(raw, kvprefix.Prefix(1)), kvprefix.New(raw, kvprefix.Prefix(2))
	for i, s := range []kv.Store{a, b, raw} {
		var ops []kv.Op
		for k := 0; k < 10; k++ {
			ops = append(ops, kv.Op{Kind: kv.OpPut, Key: kv.Key{Partition: []byte("p"), Sort: []byte{byte('a' + k)}},
				Attrs: []kv.Attr{{Name: "v", Kind: kv.AttrInt, I: int64(100*i + k)}}})
		}
		if err := s.Write(ctx, kv.Batch{Ops: ops}); err != nil {
			t.Fatal(err)
		}
	}
	it := b.Scan(ctx, kv.ScanRequest{Partition: []byte("p"), Start: []byte("b"), End: []byte("d")})
	defer it.Close()
	read := func() (out []string) {
		for it.Next() {
			item := it.Item()
			out = append(out, fmt.Sprintf("%s/%s=%d", item.Key.Partition, item.Key.Sort, item.Attrs[0].I))
		}
		return out
	}
	if got := fmt.Sprint(read()); got != "[p/b=101 p/c=102]" {
		t.Fatalf("first range: %s", got)
	}
	r, ok := it.(kv.Rescanner)
	if !ok || !r.Rescan([]byte("g"), nil) {
		t.Fatalf("a view's iterator (%T) did not rescan", it)
	}
	if got := fmt.Sprint(read()); got != "[p/g=106 p/h=107 p/i=108 p/j=109]" {
		t.Fatalf("second range: %s", got)
	}
}
