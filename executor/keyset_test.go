package executor

import (
	"math/rand/v2"
	"testing"
)

// TestKeySetAgreesWithAMap adds random keys, many of them repeated or
// prefixes of one another, to a keySet and to a map of copies: add reports
// a key as there exactly when the map has it, and the keys it keeps are
// the distinct ones in the order first added.
func TestKeySetAgreesWithAMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		n := rng.IntN(600)
		s := newKeySet(rng.IntN(n + 1))
		seen := map[string]bool{}
		var order []string
		for range n {
			k := make([]byte, rng.IntN(4))
			for i := range k {
				k[i] = byte('a' + rng.IntN(3))
			}
			had := s.add(k)
			if had != seen[string(k)] {
				t.Fatalf("round %d: add(%q) = %v, the map says %v", round, k, had, seen[string(k)])
			}
			if !had {
				seen[string(k)] = true
				order = append(order, string(k))
			}
		}
		if len(s.keys) != len(order) {
			t.Fatalf("round %d: %d keys kept, %d distinct", round, len(s.keys), len(order))
		}
		for i, k := range s.keys {
			if string(k) != order[i] {
				t.Fatalf("round %d: key %d is %q, want %q", round, i, k, order[i])
			}
		}
	}
}

// TestKeySetChainsCollidingHashes: keys whose hashes collide are told
// apart by their bytes (the chain through prev), here by filing every key
// under one hash.
func TestKeySetChainsCollidingHashes(t *testing.T) {
	s := newKeySet(4)
	keys := []string{"a", "b", "c", "b", "a", "d", "c"}
	want := []bool{false, false, false, true, true, false, true}
	for i, k := range keys {
		// Every key filed under hash 0: the set must compare bytes.
		if got := s.addHashed(0, []byte(k)); got != want[i] {
			t.Fatalf("add(%q) = %v, want %v", k, got, want[i])
		}
	}
	if len(s.keys) != 4 {
		t.Fatalf("%d keys kept, want 4", len(s.keys))
	}
}
