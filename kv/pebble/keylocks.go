package pebble

import (
	"hash/maphash"
	"sync"
)

// keyLocks are the write locks of keys, by a 64-bit hash of the key. A
// write takes every key of its batch at once, or waits until none of them
// is held, so two writes block each other only when they share a key (or,
// rarely, a hash), and never deadlock (nothing is held while waiting).
//
// They replace a fixed array of mutexes: a 500-row INSERT with two indexes
// writes 1,500 keys, which hashed onto 512 stripes took nearly all of them,
// so two loading connections ran one after the other, each through its own
// WAL sync, and never shared one.
type keyLocks struct {
	mu      sync.Mutex
	changed sync.Cond // signalled when keys are released
	held    map[uint64]struct{}
	// all: a bulk batch holds every key (lockAll); allWaiting: one waits
	// to, and new writers wait behind it so it is not starved.
	all        bool
	allWaiting int
}

func newKeyLocks() *keyLocks {
	k := &keyLocks{held: map[uint64]struct{}{}}
	k.changed.L = &k.mu
	return k
}

// lockSet is the hashes of a write's keys (duplicates allowed).
type lockSet []uint64

func (s *Store) keyHash(key []byte) uint64 { return maphash.Bytes(s.seed, key) }

func (ls *lockSet) add(h uint64) { *ls = append(*ls, h) }

// lock waits until no key of ls is held, then holds them all.
func (ls lockSet) lock(k *keyLocks) {
	k.mu.Lock()
	for k.all || k.allWaiting > 0 || k.anyHeld(ls) {
		k.changed.Wait()
	}
	for _, h := range ls {
		k.held[h] = struct{}{}
	}
	k.mu.Unlock()
}

func (ls lockSet) unlock(k *keyLocks) {
	k.mu.Lock()
	for _, h := range ls {
		delete(k.held, h)
	}
	k.mu.Unlock()
	k.changed.Broadcast()
}

func (k *keyLocks) anyHeld(ls lockSet) bool {
	for _, h := range ls {
		if _, ok := k.held[h]; ok {
			return true
		}
	}
	return false
}

// lockAll waits until no key is held, then holds every key until
// unlockAll: a bulk batch of millions of keys takes one lock instead of a
// map entry per key. Writers that come meanwhile wait for it.
func (k *keyLocks) lockAll() {
	k.mu.Lock()
	k.allWaiting++
	for k.all || len(k.held) > 0 {
		k.changed.Wait()
	}
	k.allWaiting--
	k.all = true
	k.mu.Unlock()
}

func (k *keyLocks) unlockAll() {
	k.mu.Lock()
	k.all = false
	k.mu.Unlock()
	k.changed.Broadcast()
}
