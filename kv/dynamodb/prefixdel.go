package dynamodb

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/zproxy/zproxy/kv"
)

var _ kv.PrefixDeleter = (*Store)(nil)

// DeletePartitionPrefix implements kv.PrefixDeleter. DynamoDB cannot
// query partition keys by prefix, so it scans the whole table with a
// begins_with filter on the partition key, reading only the keys, and
// deletes what it finds with BatchWriteItem, 25 items a request, several
// requests at once: a full
// table scan (read capacity for every item of the table, however few
// match) and one write unit per item deleted. It is not atomic: a failure
// leaves some items, which a retry deletes.
func (s *Store) DeletePartitionPrefix(ctx context.Context, prefix []byte) error {
	var pending []types.WriteRequest
	return s.scanPrefix(ctx, prefix, true, func(items []map[string]types.AttributeValue) error {
		for _, item := range items {
			pending = append(pending, types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: map[string]types.AttributeValue{
				PartitionKeyAttr: item[PartitionKeyAttr], SortKeyAttr: item[SortKeyAttr]}}})
		}
		// Each page's deletes go out in BatchWriteItems of 25, several at
		// once, as a non-atomic batch's do (batchWrite).
		chunks := (len(pending) + maxBatchWrite - 1) / maxBatchWrite
		err := parallel(ctx, chunks, s.concurrency, func(ctx context.Context, c int) error {
			lo := c * maxBatchWrite
			return s.batchWriteChunk(ctx, pending[lo:min(lo+maxBatchWrite, len(pending))], nil)
		})
		pending = pending[:0]
		return err
	})
}

// scanPrefix scans the whole table for the items whose partition key
// begins with prefix, reading only their partition keys (and sort keys,
// withSort), and calls fn with each page's.
func (s *Store) scanPrefix(ctx context.Context, prefix []byte, withSort bool, fn func([]map[string]types.AttributeValue) error) error {
	in := &dynamodb.ScanInput{
		TableName:                aws.String(s.table),
		ConsistentRead:           aws.Bool(true),
		FilterExpression:         aws.String("begins_with(#p, :p)"),
		ProjectionExpression:     aws.String("#p"),
		ExpressionAttributeNames: map[string]string{"#p": PartitionKeyAttr},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":p": &types.AttributeValueMemberB{Value: frameKey(prefix)},
		},
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
	}
	if withSort {
		in.ProjectionExpression = aws.String("#p, #s")
		in.ExpressionAttributeNames["#s"] = SortKeyAttr
	}
	p := dynamodb.NewScanPaginator(s.client, in)
	for p.HasMorePages() {
		start := time.Now()
		page, err := p.NextPage(ctx)
		if err != nil {
			s.observe("scan", start, err, nil, nil)
			return s.classify(ctx, "scan", fmt.Errorf("dynamodb: Scan: %w", err))
		}
		var capacity []types.ConsumedCapacity
		if page.ConsumedCapacity != nil {
			capacity = []types.ConsumedCapacity{*page.ConsumedCapacity}
		}
		s.observe("scan", start, nil, capacity, nil)
		if err := fn(page.Items); err != nil {
			return err
		}
	}
	return nil
}
