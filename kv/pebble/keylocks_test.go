package pebble

import (
	"testing"
	"time"
)

// TestKeyLocks: writes with disjoint keys hold their locks at the same
// time; a write sharing a key waits for the holder, then proceeds.
func TestKeyLocks(t *testing.T) {
	k := newKeyLocks()
	a := lockSet{1, 2, 2} // duplicates are allowed
	a.lock(k)

	disjoint := lockAndRelease(k, lockSet{3, 4})
	select {
	case <-disjoint:
	case <-time.After(10 * time.Second):
		t.Fatal("a write with disjoint keys waited for another")
	}

	shared := lockAndRelease(k, lockSet{5, 2})
	select {
	case <-shared:
		t.Fatal("a write sharing key 2 did not wait for its holder")
	case <-time.After(50 * time.Millisecond):
	}
	a.unlock(k)
	select {
	case <-shared:
	case <-time.After(10 * time.Second):
		t.Fatal("the waiting write never proceeded after the unlock")
	}
	if len(k.held) != 0 {
		t.Fatalf("%d keys still held", len(k.held))
	}
}

// lockAndRelease takes ls in a goroutine, releases it, and closes the
// returned channel.
func lockAndRelease(k *keyLocks, ls lockSet) chan struct{} {
	done := make(chan struct{})
	go func() {
		ls.lock(k)
		ls.unlock(k)
		close(done)
	}()
	return done
}
