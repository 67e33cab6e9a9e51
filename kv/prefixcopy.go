package kv

import (
	"bytes"
	"context"
	"fmt"
	"strings"
)

// PartitionLister is a store that can list the partitions that begin
// with a prefix: CREATE DATABASE ... TEMPLATE copies a database's items,
// which all lie under its prefix (package kv/kvprefix). Both backends
// implement it.
type PartitionLister interface {
	// PartitionsWithPrefix returns every partition that begins with
	// prefix and may hold items, in no particular order (a partition
	// whose items were all deleted may be listed).
	PartitionsWithPrefix(ctx context.Context, prefix []byte) ([][]byte, error)
}

// copyBatchOps bounds a CopyPrefix write: far below what either backend
// refuses in one request or transaction, so a copy of any size goes
// through.
const copyBatchOps = 256

// CopyPrefix copies every item of every partition of store that begins
// with from to the same partition with from replaced by to, and returns
// how many items it wrote. Each partition is read consistently through
// the store (so DynamoDB's intents are read as their transactions
// decided) and written in non-atomic batches of copyBatchOps puts: the
// copy as a whole is not atomic, and the caller makes it invisible until
// it is complete (CREATE DATABASE publishes the database's registry item
// last). store must implement PartitionLister.
func CopyPrefix(ctx context.Context, store Store, from, to []byte) (int64, error) {
	pl, ok := store.(PartitionLister)
	if !ok {
		return 0, fmt.Errorf("kv: the %s store cannot list partitions", store.Capabilities().Name)
	}
	parts, err := pl.PartitionsWithPrefix(ctx, from)
	if err != nil {
		return 0, err
	}
	var n int64
	var ops []Op
	flush := func() error {
		if len(ops) == 0 {
			return nil
		}
		err := store.Write(ctx, Batch{Ops: ops})
		n += int64(len(ops))
		ops = ops[:0]
		return err
	}
	for _, p := range parts {
		if !bytes.HasPrefix(p, from) {
			continue
		}
		dst := append(bytes.Clone(to), p[len(from):]...)
		it := store.Scan(ctx, ScanRequest{Partition: p, Consistent: true})
		for it.Next() {
			item := it.Item()
			ops = append(ops, Op{Kind: OpPut, Key: Key{Partition: dst, Sort: bytes.Clone(item.Key.Sort)}, Attrs: CloneAttrs(item.Attrs)})
			if len(ops) == copyBatchOps {
				if err := flush(); err != nil {
					it.Close()
					return n, err
				}
			}
		}
		err := it.Err()
		it.Close()
		if err != nil {
			return n, err
		}
	}
	return n, flush()
}

// CloneAttrs returns a deep copy of attrs: an Iterator's items may be
// decoded in place, valid only until its next call.
func CloneAttrs(attrs []Attr) []Attr {
	out := make([]Attr, len(attrs))
	for i, a := range attrs {
		a.Name, a.S, a.B = strings.Clone(a.Name), strings.Clone(a.S), bytes.Clone(a.B)
		out[i] = a
	}
	return out
}
