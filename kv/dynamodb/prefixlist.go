package dynamodb

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/zproxy/zproxy/kv"
)

var _ kv.PartitionLister = (*Store)(nil)

// PartitionsWithPrefix implements kv.PartitionLister. As
// DeletePartitionPrefix, it scans the whole table with a begins_with
// filter on the partition key, reading only that key: read capacity for
// every item of the table.
func (s *Store) PartitionsWithPrefix(ctx context.Context, prefix []byte) ([][]byte, error) {
	seen := map[string]bool{}
	var out [][]byte
	err := s.scanPrefix(ctx, prefix, false, func(items []map[string]types.AttributeValue) error {
		for _, item := range items {
			b, ok := item[PartitionKeyAttr].(*types.AttributeValueMemberB)
			if !ok {
				continue
			}
			part, err := unframeKey(b.Value)
			if err != nil {
				return err
			}
			if !seen[string(part)] {
				seen[string(part)] = true
				out = append(out, part)
			}
		}
		return nil
	})
	return out, err
}
