package pebble

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"

	"github.com/cockroachdb/pebble"

	"github.com/zproxy/zproxy/kv"
)

var _ kv.PartitionLister = (*Store)(nil)

// PartitionsWithPrefix implements kv.PartitionLister. A key is
// uvarint(len(partition)) ‖ partition ‖ sort, so the partitions of one
// length that begin with prefix lie in one span (prefixSpans): within
// it, each partition is found by one seek past the previous one's keys.
func (s *Store) PartitionsWithPrefix(ctx context.Context, prefix []byte) ([][]byte, error) {
	s.closeMu.RLock()
	defer s.closeMu.RUnlock()
	if err := s.usable(ctx); err != nil {
		return nil, err
	}
	var out [][]byte
	err := s.prefixSpans(prefix, func(it *pebble.Iterator, lo []byte, w int) error {
		n, _ := binary.Uvarint(lo)
		end := w + int(n)
		for it.SeekGE(lo); it.Valid() && bytes.HasPrefix(it.Key(), lo) && len(it.Key()) >= end; {
			out = append(out, bytes.Clone(it.Key()[w:end]))
			next := kv.PrefixEnd(it.Key()[:end])
			if next == nil {
				break
			}
			it.SeekGE(next)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("kv/pebble: list partitions: %w", err)
	}
	return out, nil
}
