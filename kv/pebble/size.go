package pebble

import (
	"context"
	"fmt"
	"time"

	"github.com/zproxy/zproxy/kv"
)

var _ kv.SizeEstimator = (*Store)(nil)

// PartitionBytes implements kv.SizeEstimator with Pebble's
// EstimateDiskUsage over each partition's key span. The estimate counts
// sstables only, so the memtable is flushed first when a batch was
// committed since the last such flush: what was just written counts, and
// a tool asking for every table's size in turn flushes once.
func (s *Store) PartitionBytes(ctx context.Context, partitions [][]byte) (n int64, err error) {
	s.closeMu.RLock()
	defer s.closeMu.RUnlock()
	if err := s.usable(ctx); err != nil {
		return 0, err
	}
	start := time.Now()
	defer func() { s.observe("size", start, err) }()
	if s.unflushed.Swap(false) {
		if err := s.db.Flush(); err != nil {
			s.unflushed.Store(true)
			return 0, fmt.Errorf("kv/pebble: flush: %w", err)
		}
	}
	for _, p := range partitions {
		prefix := appendPartitionPrefix(nil, p)
		b, err := s.db.EstimateDiskUsage(prefix, kv.PrefixEnd(prefix))
		if err != nil {
			return 0, fmt.Errorf("kv/pebble: disk usage of %x: %w", p, err)
		}
		n += int64(b)
	}
	return n, nil
}
