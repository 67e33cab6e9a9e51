package pebble

import (
	"fmt"
	"math/rand"
	"testing"
)

// BenchmarkRowCacheLookup: random lookups over 100,000 cached rows of 300
// bytes, a gin benchmark's documents.
func BenchmarkRowCacheLookup(b *testing.B) {
	c := newRowCache(128 << 20)
	const n = 100000
	keys := make([][]byte, n)
	v := make([]byte, 300)
	for i := range keys {
		keys[i] = []byte(fmt.Sprintf("\x0b\x00\x00\x00\x07docs\x00%08d", i))
		c.insert(keys[i], v, 0)
	}
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
