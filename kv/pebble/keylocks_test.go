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

	disjoint := make(chan struct{})
	go func() {
		b := lockSet{3, 4}
		b.lock(k)
		b.unlock(k)
		close(disjoint)
	}()
	select {
	case <-disjoint:
	case <-time.After(10 * time.Second):
		t.Fatal("a write with disjoint keys waited for another")
	}

	shared := make(chan struct{})
	go func() {
		c := lockSet{5, 2}
		c.lock(k)
		c.unlock(k)
		close(shared)
	}()
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
