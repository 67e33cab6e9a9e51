package executor

import (
	"bytes"
	"context"
	"hash/maphash"

	"github.com/zproxy/zproxy/kv"
)

// storedBefore returns the error a multi-row write reports when one of its
// rows repeats a unique key of an earlier row (dup, found when w held upto
// ops): PostgreSQL inserts row by row and fails at the first row that
// collides, so if an earlier row's key is already stored (a not-exists
// condition among w.ops[:upto] that the store fails), that row's
// violation is the one reported. The store's conditions are checked only
// when the write commits, which a repeated key prevents, so they are read
// here, in one batched get; this runs only on the way to an error. A table
// with a TTL keeps dup: its stored rows may have expired, which the insert
// path decides otherwise (upsert). op is the index in w.ops of the stored
// key reported, or -1 when dup is.
func (ec *execCtx) storedBefore(ctx context.Context, rw kv.ReadWriter, w *writeSet, upto int, dup error, stats *kv.Stats) (op int, err error) {
	if w.t.TTL != nil {
		return -1, dup
	}
	var keys []kv.Key
	var ops []int
	for i := range w.ops[:upto] {
		if w.ops[i].Cond == kv.CondNotExists {
			keys, ops = append(keys, w.ops[i].Key), append(ops, i)
		}
	}
	if len(keys) == 0 {
		return -1, dup
	}
	items, err := rw.Get(ctx, kv.GetRequest{Keys: keys, Consistent: true, Stats: stats})
	if err != nil {
		return -1, ClassifyError(err)
	}
	for i, it := range items {
		if kv.Found(it) {
			return ops[i], finishWrite(w.t, &conflictError{op: w.ops[ops[i]], t: w.t})
		}
	}
	return -1, dup
}

// keySet is the set of row keys a multi-row INSERT has written so far, to
// find a row repeating an earlier row's key before the store sees the
// batch. It refers to the keys (cut from the write set's Encoder, which
// keeps them for the statement) instead of copying each into a map key:
// a map[string] entry is an allocation a row. Keys are found by a 64-bit
// hash and confirmed on their bytes; keys whose hashes collide are chained.
type keySet struct {
	seed  maphash.Seed
	first map[uint64]int32 // hash → the latest key with it, an index into keys
	keys  [][]byte
	prev  []int32 // prev[i]: the key before keys[i] with its hash, or -1
}

// newKeySet makes a keySet with room for n keys.
func newKeySet(n int) *keySet {
	return &keySet{seed: maphash.MakeSeed(), first: make(map[uint64]int32, n), keys: make([][]byte, 0, n), prev: make([]int32, 0, n)}
}

// add adds k, which must stay unchanged while the set is used, and
// reports whether it was there already (then the set is unchanged).
func (s *keySet) add(k []byte) bool { return s.addHashed(maphash.Bytes(s.seed, k), k) }

// addHashed is add of k, whose hash is h.
func (s *keySet) addHashed(h uint64, k []byte) bool {
	last, ok := s.first[h]
	if ok {
		for i := last; i >= 0; i = s.prev[i] {
			if bytes.Equal(s.keys[i], k) {
				return true
			}
		}
	} else {
		last = -1
	}
	s.first[h] = int32(len(s.keys))
	s.keys, s.prev = append(s.keys, k), append(s.prev, last)
	return false
}
