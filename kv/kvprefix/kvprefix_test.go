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
