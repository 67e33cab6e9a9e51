package dynamodb

import (
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/zproxy/zproxy/kv"
)

// TestPurgeDeletes: a transaction begun with kv.TxnOptions.PurgeDeletes
// leaves no tombstone of its deletes once committed, through
// TransactWriteItems (a few writes) and through intents (more than 100);
// one begun without leaves its tombstones, and its key reads as absent
// either way.
func TestPurgeDeletes(t *testing.T) {
	requireDynamo(t)
	s := openTest(t, testOptions(uniqueTable(t), endpoint))
	deleteTableOnCleanup(t, s)
	var ops []kv.Op
	for i := range 300 {
		ops = append(ops, putItemOp(intItem("p", fmt.Sprintf("k%03d", i), 1)))
	}
	if err := s.Write(bg, kv.Batch{Ops: ops}); err != nil {
		t.Fatal(err)
	}
	// raw reads a key's item as DynamoDB holds it: nil when there is none.
	raw := func(i int) map[string]bool {
		resp, err := s.client.GetItem(bg, &dynamodb.GetItemInput{TableName: &s.table, Key: keyAttrs(intItem("p", fmt.Sprintf("k%03d", i), 0).Key), ConsistentRead: aws.Bool(true)})
		if err != nil {
			t.Fatal(err)
		}
		if resp.Item == nil {
			return nil
		}
		out := map[string]bool{}
		for n := range resp.Item {
			out[n] = true
		}
		return out
	}
	deleteIn := func(purge bool, lo, hi int) {
		txn, err := s.Begin(bg, kv.TxnOptions{PurgeDeletes: purge})
		if err != nil {
			t.Fatal(err)
		}
		var del []kv.Op
		for i := lo; i < hi; i++ {
			del = append(del, kv.Op{Kind: kv.OpDelete, Key: intItem("p", fmt.Sprintf("k%03d", i), 0).Key})
		}
		// And a put, which stays.
		del = append(del, putItemOp(intItem("p", fmt.Sprintf("k%03d", 299), 2)))
		if err := txn.Write(bg, kv.Batch{Ops: del}); err != nil {
			t.Fatal(err)
		}
		if err := txn.Commit(bg); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name   string
		purge  bool
		lo, hi int
	}{
		{"small, purged", true, 0, 3},
		{"small, kept", false, 3, 6},
		{"large, purged", true, 10, 130},
		{"large, kept", false, 130, 250},
	} {
		t.Run(c.name, func(t *testing.T) {
			deleteIn(c.purge, c.lo, c.hi)
			for i := c.lo; i < c.hi; i++ {
				item := raw(i)
				if c.purge && item != nil {
					t.Fatalf("key %d still holds %v after a purging delete", i, item)
				}
				if !c.purge && !item[TombstoneAttr] {
					t.Fatalf("key %d holds %v after a delete, want a tombstone", i, item)
				}
			}
			got, err := s.Get(bg, kv.GetRequest{Keys: []kv.Key{intItem("p", fmt.Sprintf("k%03d", c.lo), 0).Key, intItem("p", "k299", 0).Key}, Consistent: true})
			if err != nil {
				t.Fatal(err)
			}
			if kv.Found(got[0]) || !kv.Found(got[1]) || kv.Lookup(got[1].Attrs, "v").I != 2 {
				t.Fatalf("after the commit: %v", got)
			}
		})
	}
}
