package pebble

import (
	"encoding/binary"

	"github.com/zproxy/zproxy/kv"
)

// Key layout: one Pebble key per item,
//
//	uvarint(len(partition)) ‖ partition ‖ sort
//
// The length prefix makes the partition self-delimiting, so partitions that
// are prefixes of one another ("a" and "ab") occupy disjoint key spans, and
// ("a", "bx") cannot collide with ("ab", "x"). Within a span, keys order by
// sort key bytewise, which is the order Scan needs. Spans of different
// partitions are ordered by length first; nothing depends on that order.
//
// A partition's span is [prefix, kv.PrefixEnd(prefix)). PrefixEnd is never
// nil here because a uvarint's last byte is below 0x80.

// appendPartitionPrefix appends the encoded partition to dst.
func appendPartitionPrefix(dst, partition []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(partition)))
	return append(dst, partition...)
}

// appendKey appends the Pebble key of k to dst.
func appendKey(dst []byte, k kv.Key) []byte {
	return append(appendPartitionPrefix(dst, k.Partition), k.Sort...)
}

// scanBounds returns the Pebble key range [lower, upper) of a scan request
// and the length of the partition prefix to strip from each key.
func scanBounds(req kv.ScanRequest) (lower, upper []byte, prefixLen int) {
	prefix := appendPartitionPrefix(nil, req.Partition)
	prefixLen = len(prefix)
	lower = append(prefix[:prefixLen:prefixLen], req.Start...)
	if req.End != nil {
		upper = append(prefix[:prefixLen:prefixLen], req.End...)
	} else {
		upper = kv.PrefixEnd(prefix)
	}
	return lower, upper, prefixLen
}
