package catalog_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/zproxy/zproxy/catalog"
	zpebble "github.com/zproxy/zproxy/kv/pebble"
)

// TestLargeObjectPages checks the page layer against a byte slice: random
// writes (some past the end, leaving holes), truncations (shorter and
// longer) and reads, each read compared with the slice, every page at
// most LOBlockSize bytes and the size the slice's length.
func TestLargeObjectPages(t *testing.T) {
	ctx := context.Background()
	store, err := zpebble.Open(t.Name(), zpebble.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	const oid = 77
	if err := catalog.CreateLargeObject(ctx, store, catalog.LargeObject{OID: oid, Owner: "u"}); err != nil {
		t.Fatal(err)
	}
	if err := catalog.CreateLargeObject(ctx, store, catalog.LargeObject{OID: oid, Owner: "u"}); err != catalog.ErrLargeObjectExists {
		t.Fatalf("second create: %v, want ErrLargeObjectExists", err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var model []byte
	for step := 0; step < 400; step++ {
		switch op := rng.IntN(4); op {
		case 0, 1: // write
			off := int64(rng.IntN(3 * catalog.LOBlockSize))
			data := make([]byte, rng.IntN(2*catalog.LOBlockSize)+1)
			for i := range data {
				data[i] = byte(rng.IntN(255) + 1)
			}
			if err := catalog.WriteLargeObject(ctx, store, oid, off, data); err != nil {
				t.Fatal(err)
			}
			if end := off + int64(len(data)); end > int64(len(model)) {
				model = append(model, make([]byte, end-int64(len(model)))...)
			}
			copy(model[off:], data)
		case 2: // truncate
			size := int64(rng.IntN(4 * catalog.LOBlockSize))
			if err := catalog.TruncateLargeObject(ctx, store, oid, size); err != nil {
				t.Fatal(err)
			}
			if size < int64(len(model)) {
				model = model[:size]
			} else {
				model = append(model, make([]byte, size-int64(len(model)))...)
			}
		case 3: // read
			off := int64(rng.IntN(5 * catalog.LOBlockSize))
			n := int64(rng.IntN(3 * catalog.LOBlockSize))
			got, err := catalog.ReadLargeObject(ctx, store, oid, off, n)
			if err != nil {
				t.Fatal(err)
			}
			var want []byte
			if off < int64(len(model)) {
				want = model[off:min(off+n, int64(len(model)))]
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("step %d: read(%d, %d) = %d bytes, want %d", step, off, n, len(got), len(want))
			}
		}
		size, err := catalog.LargeObjectSize(ctx, store, oid)
		if err != nil {
			t.Fatal(err)
		}
		if size != int64(len(model)) {
			t.Fatalf("step %d: size %d, want %d", step, size, len(model))
		}
		pages, err := catalog.LargeObjectPages(ctx, store, oid, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pages {
			if len(p.Data) > catalog.LOBlockSize {
				t.Fatalf("step %d: page %d holds %d bytes", step, p.PageNo, len(p.Data))
			}
		}
	}
	if err := catalog.DeleteLargeObject(ctx, store, oid); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := catalog.LargeObjectMeta(ctx, store, oid); ok || err != nil {
		t.Fatalf("after delete: ok %v, err %v", ok, err)
	}
	if pages, _ := catalog.LargeObjectPages(ctx, store, oid, 0); len(pages) != 0 {
		t.Fatalf("after delete: %d pages left", len(pages))
	}
}

// TestLargeObjectGrant follows PostgreSQL's aclupdate: the owner's entry
// made explicit first, new grantees last, empty entries dropped.
func TestLargeObjectGrant(t *testing.T) {
	lo := catalog.LargeObject{OID: 1, Owner: "o"}
	steps := []struct {
		role   string
		privs  catalog.Privilege
		revoke bool
		want   []string
	}{
		{"a", catalog.PrivSelect, false, []string{"o=rw/o", "a=r/o"}},
		{catalog.PublicRole, catalog.PrivUpdate, false, []string{"o=rw/o", "a=r/o", "=w/o"}},
		{"a", catalog.PrivUpdate, false, []string{"o=rw/o", "a=rw/o", "=w/o"}},
		{"a", catalog.PrivSelect | catalog.PrivUpdate, true, []string{"o=rw/o", "=w/o"}},
		{"b", catalog.PrivSelect, true, []string{"o=rw/o", "=w/o"}},
	}
	for i, s := range steps {
		lo.Grant(s.role, s.privs, s.revoke)
		if got := lo.ACL(); !slices.Equal(got, s.want) {
			t.Errorf("step %d: ACL %q, want %q", i, got, s.want)
		}
	}
}
