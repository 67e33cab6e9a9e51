package pebble

import (
	"math/rand/v2"
	"testing"
)

// TestRowIndexMatchesMap runs random puts, deletions and lookups on a
// rowIndex and on a Go map and compares every answer and, after each
// step, every entry. The hashes are drawn from a few values of their top
// bits, so runs are long, wrap around the end of the slots and are cut by
// deletions in their middle; hash 0 shares its slot with hash 1, as the
// index stores both as 1.
func TestRowIndexMatchesMap(t *testing.T) {
	for seed := uint64(1); seed <= 40; seed++ {
		rng := rand.New(rand.NewPCG(seed, seed))
		var x rowIndex
		want := map[uint64]rowSlot{}
		draw := func() uint64 {
			if rng.IntN(50) == 0 {
				return uint64(rng.IntN(2)) // 0 and 1 are one hash
			}
			top := uint64(rng.IntN(4)) << 62
			if rng.IntN(3) == 0 {
				top = 0xfc00_0000_0000_0000 // near the last slot: runs wrap
			}
			return top | uint64(rng.IntN(300))<<8
		}
		for step := 0; step < 3000; step++ {
			h := draw()
			key := indexHash(h)
			switch op := rng.IntN(10); {
			case op < 5:
				s := rowSlot{off: uint32(step), klen: uint32(rng.IntN(9)), validFrom: uint64(step)}
				x.put(h, s)
				want[key] = s
			case op < 8:
				_, had := want[key]
				if got := x.del(h); got != had {
					t.Fatalf("seed %d step %d: del(%x) = %v, want %v", seed, step, h, got, had)
				}
				delete(want, key)
			default:
				got, ok := x.get(h)
				w, had := want[key]
				if ok != had || got != w {
					t.Fatalf("seed %d step %d: get(%x) = %v %v, want %v %v", seed, step, h, got, ok, w, had)
				}
			}
			if x.n != len(want) {
				t.Fatalf("seed %d step %d: %d entries, want %d", seed, step, x.n, len(want))
			}
			if step%97 == 0 {
				for k, w := range want {
					if got, ok := x.get(k); !ok || got != w {
						t.Fatalf("seed %d step %d: entry %x lost: %v %v, want %v", seed, step, k, got, ok, w)
					}
				}
			}
		}
	}
}

// BenchmarkRowIndexGet looks up random hashes of an index of a million
// entries, as a large row cache's shards hold them together.
func BenchmarkRowIndexGet(b *testing.B) {
	var x rowIndex
	rng := rand.New(rand.NewPCG(1, 2))
	hs := make([]uint64, 1<<20)
	for i := range hs {
		hs[i] = rng.Uint64()
		x.put(hs[i], rowSlot{off: uint32(i)})
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, ok := x.get(hs[(i*7919)&(len(hs)-1)]); !ok {
			b.Fatal("lost")
		}
	}
}
