package dynamodb

import (
	"context"
	"errors"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/kv/kvtxn"
)

// purgeTombstones removes the tombstones a committed transaction's deletes
// left (at commit timestamp cts) when it asked for that
// (kv.TxnOptions.PurgeDeletes): each key's item is deleted outright if it
// is still that tombstone and carries no intent, so a key written again
// since, or under another transaction's intent, is left alone. Best
// effort: a tombstone left behind expires as any other (TombstoneTTL), so
// errors are only counted in the request metrics.
func (b *txnBackend) purgeTombstones(ctx context.Context, writes []kvtxn.Write, cts int64, stats *kv.Stats) {
	if !b.purge {
		return
	}
	var keys []kv.Key
	for _, w := range writes {
		if w.Kind == kvtxn.WriteDelete {
			keys = append(keys, w.Key)
		}
	}
	s := b.s
	ctx = context.WithoutCancel(ctx)
	names := map[string]string{"#del": TombstoneAttr, "#ts": VersionAttr}
	cond := "#del = :true AND #ts = :cts AND " + noBlockers(names)
	values := map[string]types.AttributeValue{":true": &types.AttributeValueMemberBOOL{Value: true}, ":cts": numberValue(cts)}
	_ = parallel(ctx, len(keys), s.concurrency, func(ctx context.Context, i int) error {
		start := time.Now()
		resp, err := s.client.DeleteItem(ctx, &dynamodb.DeleteItemInput{
			TableName:                 &s.table,
			Key:                       keyAttrs(keys[i]),
			ConditionExpression:       &cond,
			ExpressionAttributeNames:  names,
			ExpressionAttributeValues: values,
			ReturnConsumedCapacity:    types.ReturnConsumedCapacityTotal,
		})
		var failed *types.ConditionalCheckFailedException
		if errors.As(err, &failed) {
			err = nil // written again since, or under an intent or a lock: not ours to remove
		}
		var consumed []types.ConsumedCapacity
		if resp != nil && resp.ConsumedCapacity != nil {
			consumed = []types.ConsumedCapacity{*resp.ConsumedCapacity}
		}
		s.observe("purge_tombstone", start, err, consumed, stats)
		return nil
	})
}
