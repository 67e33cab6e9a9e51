package catalog_test

import (
	"context"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/zproxy/zproxy/catalog"
	zpebble "github.com/zproxy/zproxy/kv/pebble"
	"github.com/zproxy/zproxy/zorder"
)

// Writers widening one index's bounds at once, each from its own stale
// cache, leave bounds that hold every code any of them asked for.
func TestWidenZBoundsConcurrent(t *testing.T) {
	ctx := context.Background()
	store, err := zpebble.Open(t.Name(), zpebble.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	s, err := zorder.NewSchema(zorder.Attr{Type: zorder.TypeInt, Width: 32}, zorder.Attr{Type: zorder.TypeInt, Width: 64})
	if err != nil {
		t.Fatal(err)
	}
	ix := &catalog.Index{ID: 42, Kind: catalog.KindZOrder, Columns: []catalog.KeyColumn{{Column: 0}, {Column: 1}}, Bounds: true}
	var mu sync.Mutex
	var asked [][2]uint64
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			var cached *catalog.ZBounds
			for i := 0; i < 200; i++ {
				c := []uint64{rng.Uint64N(1 << 32), rng.Uint64()}
				if i%3 == 0 {
					c[1] = uint64(1<<40 + w*1000 + i) // a slowly growing "timestamp"
				}
				b, err := catalog.WidenZBounds(ctx, store, ix, s, c, c, cached)
				if err != nil {
					t.Error(err)
					return
				}
				if !b.Contains(c, c) {
					t.Errorf("returned bounds %v..%v miss %v", b.Lo, b.Hi, c)
				}
				cached = b
				mu.Lock()
				asked = append(asked, [2]uint64{c[0], c[1]})
				mu.Unlock()
			}
		}(w)
	}
	wg.Wait()
	b, err := catalog.ReadZBounds(ctx, store, ix)
	if err != nil || b == nil {
		t.Fatalf("bounds %v, %v", b, err)
	}
	for _, c := range asked {
		if !b.Contains(c[:], c[:]) {
			t.Fatalf("stored bounds %v..%v miss %v", b.Lo, b.Hi, c)
		}
	}
	if b.Hi[0] >= 1<<32 {
		t.Errorf("32-bit attribute widened past its code space: %x", b.Hi[0])
	}
}
