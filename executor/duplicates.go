package executor

import (
	"context"

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
