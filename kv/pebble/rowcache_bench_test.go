package pebble

import (
	"fmt"
	"math/rand"
	"testing"
)

// BenchmarkRowCacheLookup: random lookups over 100,000 cached rows of 300
// bytes, a gin benchmark's documents.
func BenchmarkRowCacheLookup(b *testing.B) {
	const n = 100000
	c, keys := benchRowCache(n)
	rng := rand.New(rand.NewSource(1))
	order := rng.Perm(n)
	b.ResetTimer()
	hits := 0
	for i := 0; i < b.N; i++ {
		if _, ok := c.lookup(keys[order[i%n]], 0); ok {
			hits++
		}
	}
	if hits != b.N {
		b.Fatalf("%d hits of %d", hits, b.N)
	}
}

// BenchmarkRowCacheLookupMany: the same rows looked up 200 at a time, as a
// gin scan's row get does, one by one (lookup) and together (lookupMany).
// ns/op is per key.
func BenchmarkRowCacheLookupMany(b *testing.B) {
	const n, batch = 100000, 200
	c, keys := benchRowCache(n)
	rng := rand.New(rand.NewSource(1))
	batches := make([][][]byte, 1000)
	for i := range batches {
		batches[i] = make([][]byte, batch)
		for j := range batches[i] {
			batches[i][j] = keys[rng.Intn(n)]
		}
	}
	vals, hit := make([][]byte, batch), make([]bool, batch)
	var sc lookupScratch
	b.Run("one_by_one", func(b *testing.B) {
		for i := 0; i < b.N; i += batch {
			for _, k := range batches[(i/batch)%len(batches)] {
				if _, ok := c.lookup(k, 0); !ok {
					b.Fatal("miss")
				}
			}
		}
	})
	b.Run("together", func(b *testing.B) {
		for i := 0; i < b.N; i += batch {
			c.lookupMany(batches[(i/batch)%len(batches)], 0, vals, hit, &sc)
			for j := range hit {
				if !hit[j] {
					b.Fatal("miss")
				}
			}
		}
	})
}

// benchRowCache returns a 128 MiB cache holding n rows of 300 bytes and
// their keys.
func benchRowCache(n int) (*rowCache, [][]byte) {
	c := newRowCache(128 << 20)
	keys := make([][]byte, n)
	v := make([]byte, 300)
	for i := range keys {
		keys[i] = []byte(fmt.Sprintf("\x0b\x00\x00\x00\x07docs\x00%08d", i))
		c.insert(keys[i], v, 0)
	}
	return c, keys
}
