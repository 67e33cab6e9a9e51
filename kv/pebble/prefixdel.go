package pebble

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/cockroachdb/pebble"

	"github.com/zproxy/zproxy/kv"
)

var _ kv.PrefixDeleter = (*Store)(nil)

// DeletePartitionPrefix implements kv.PrefixDeleter with range deletions.
// A key is uvarint(len(partition)) ‖ partition ‖ sort, so the partitions
// that begin with prefix lie in one half-open span per partition length:
// [uvarint(n) ‖ prefix, PrefixEnd(uvarint(n) ‖ prefix)). The lengths
// present are found by seeking from one length's span to the next, and
// one batch of range deletions, committed durably, removes every span.
func (s *Store) DeletePartitionPrefix(ctx context.Context, prefix []byte) (err error) {
	s.closeMu.RLock()
	defer s.closeMu.RUnlock()
	if err := s.usable(ctx); err != nil {
		return err
	}
	start := time.Now()
	defer func() { s.observe("delete_range", start, err) }()
	batch := s.db.NewBatch()
	defer batch.Close()
	if err := s.prefixSpans(prefix, func(_ *pebble.Iterator, lo []byte, _ int) error {
		return batch.DeleteRange(lo, kv.PrefixEnd(lo), nil)
	}); err != nil {
		return fmt.Errorf("kv/pebble: delete prefix: %w", err)
	}
	if batch.Empty() {
		return nil
	}
	if err := s.commitBatch(batch, pebble.Sync); err != nil {
		return fmt.Errorf("kv/pebble: delete prefix: %w", err)
	}
	s.unflushed.Store(true)
	return nil
}

// prefixSpans calls fn with the start lo = uvarint(n) ‖ prefix of each
// span of keys whose n-byte partition begins with prefix, for every
// partition length n present (see DeletePartitionPrefix), and an
// iterator fn may move within the span (w is the length of uvarint(n)).
func (s *Store) prefixSpans(prefix []byte, fn func(it *pebble.Iterator, lo []byte, w int) error) error {
	it, err := s.db.NewIter(nil)
	if err != nil {
		return err
	}
	defer it.Close()
	var pos []byte
	for it.SeekGE(pos); it.Valid(); it.SeekGE(pos) {
		n, w := binary.Uvarint(it.Key())
		if w <= 0 {
			break // not a key of this layout; nothing after it is either
		}
		length := bytes.Clone(it.Key()[:w])
		if n >= uint64(len(prefix)) {
			if err := fn(it, append(bytes.Clone(length), prefix...), w); err != nil {
				return err
			}
		}
		if pos = kv.PrefixEnd(length); pos == nil {
			break
		}
	}
	return it.Error()
}
