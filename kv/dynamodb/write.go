package dynamodb

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/zproxy/zproxy/kv"
)

// ErrConditionNotAtomic is returned for a non-atomic batch holding a
// conditional op: BatchWriteItem cannot check conditions.
var ErrConditionNotAtomic = errors.New("dynamodb: write conditions need an atomic batch")

// Write applies a batch. An atomic batch is one TransactWriteItems (at most
// 100 ops, else kv.ErrBatchTooLarge), a transaction of its own: it waits
// for no transaction's intents (it clears finished ones and conflicts with
// live ones), stamps its items with a commit timestamp and leaves
// tombstones for its deletes, so snapshot readers see it. A non-atomic
// batch, for bulk loads, goes out as BatchWriteItem requests of 25, in
// parallel, with unprocessed items retried; it is not isolated: its
// deletes leave no tombstone and its puts overwrite intents.
//
// DynamoDB rejects a request that touches one key twice, so ops on the same
// key are merged first, keeping the outcome of applying them in order: the
// last op decides what is written (a delete then a put of a key is the put).
// In an atomic batch the merged op keeps the condition of the key's first
// op, and a later op's condition is decided by the earlier ops (after a put
// the item exists, after a delete it does not); one that cannot hold fails
// the batch with a *kv.ConditionFailedError naming it, without a request —
// even if an earlier op's condition would also have failed.
func (s *Store) Write(ctx context.Context, b kv.Batch) error {
	if s.closed.Load() {
		return kv.ErrClosed
	}
	if len(b.Ops) == 0 {
		return nil
	}
	for _, op := range b.Ops {
		if err := checkKeySize(op.Key); err != nil {
			return err
		}
	}
	if b.Atomic {
		if len(b.Ops) > maxTransactItems {
			return kv.ErrBatchTooLarge
		}
		return s.transact(ctx, b)
	}
	for _, op := range b.Ops {
		if op.Cond != kv.CondNone {
			return ErrConditionNotAtomic
		}
	}
	return s.batchWrite(ctx, b)
}

// mergedOp is the net effect of a batch's ops on one key.
type mergedOp struct {
	kv.Op
	condIndex int // index in Batch.Ops of the op whose condition Op.Cond is
}

func mergeOps(ops []kv.Op) ([]mergedOp, error) {
	merged := make([]mergedOp, 0, len(ops))
	byKey := make(map[string]int, len(ops))
	for i, op := range ops {
		ks := keyString(op.Key)
		j, seen := byKey[ks]
		if !seen {
			byKey[ks] = len(merged)
			merged = append(merged, mergedOp{Op: op, condIndex: i})
			continue
		}
		exists := merged[j].Kind == kv.OpPut
		holds := true
		switch op.Cond {
		case kv.CondNotExists:
			holds = !exists
		case kv.CondExists:
			holds = exists
		case kv.CondAttrEquals:
			holds = exists && kv.SameValue(kv.Lookup(merged[j].Attrs, op.CondAttr.Name), op.CondAttr)
		}
		if !holds {
			return nil, &kv.ConditionFailedError{Index: i, Key: op.Key}
		}
		merged[j].Kind, merged[j].Attrs = op.Kind, op.Attrs
	}
	return merged, nil
}

// conditionExpression translates an op's condition into a DynamoDB
// ConditionExpression with its names and values. Every plain write also
// requires that no transaction holds an intent or a share lock on the item
// (the writer clears finished ones and retries, see transact), and a
// tombstone counts as no item.
func conditionExpression(op kv.Op) (*string, map[string]string, map[string]types.AttributeValue, error) {
	names := map[string]string{}
	cond := noBlockers(names)
	var values map[string]types.AttributeValue
	switch op.Cond {
	case kv.CondNotExists:
		cond += " AND (attribute_not_exists(#p) OR attribute_exists(#del))"
		names["#p"], names["#del"] = PartitionKeyAttr, TombstoneAttr
	case kv.CondExists:
		cond += " AND attribute_exists(#p) AND attribute_not_exists(#del)"
		names["#p"], names["#del"] = PartitionKeyAttr, TombstoneAttr
	case kv.CondAttrEquals:
		names["#del"], names["#c"] = TombstoneAttr, op.CondAttr.Name
		if op.CondAttr.Kind == kv.AttrNull {
			names["#p"] = PartitionKeyAttr
			cond += " AND attribute_exists(#p) AND attribute_not_exists(#del) AND attribute_not_exists(#c)"
			break
		}
		// Encode the expected value exactly as a stored one would be.
		item, err := encodeItem(op.Key, []kv.Attr{op.CondAttr})
		if err != nil {
			return nil, nil, nil, err
		}
		cond += " AND attribute_not_exists(#del) AND #c = :c"
		values = map[string]types.AttributeValue{":c": item[op.CondAttr.Name]}
	}
	return &cond, names, values, nil
}

// transact writes an atomic batch at a fresh commit timestamp (deletes
// leave tombstones). Cancellations for transaction conflicts or throttling
// are retried with backoff, and so are those caused by another
// transaction's intent, once it is cleared; a failed condition becomes a
// *kv.ConditionFailedError naming the first failing op. The SDK fills in a
// ClientRequestToken once per call, so its own retries of a transaction
// whose response was lost are idempotent rather than failing their own
// conditions.
func (s *Store) transact(ctx context.Context, b kv.Batch) error {
	merged, err := mergeOps(b.Ops)
	if err != nil {
		return err
	}
	for failures := 0; ; {
		ts := s.clock.next()
		items := make([]types.TransactWriteItem, len(merged))
		for i, op := range merged {
			cond, names, values, err := conditionExpression(op.Op)
			if err != nil {
				return err
			}
			var item map[string]types.AttributeValue
			switch op.Kind {
			case kv.OpPut:
				if item, err = putItem(op.Key, op.Attrs, ts); err != nil {
					return err
				}
			case kv.OpDelete:
				item = tombstoneItem(op.Key, ts, s.tombstoneTTL)
			default:
				return fmt.Errorf("dynamodb: op %d has unknown kind %d", op.condIndex, op.Kind)
			}
			items[i].Put = &types.Put{TableName: &s.table, Item: item, ConditionExpression: cond,
				ExpressionAttributeNames: names, ExpressionAttributeValues: values,
				ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}
		}
		start := time.Now()
		resp, err := s.client.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{
			TransactItems:          items,
			ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
		})
		if err == nil {
			s.observe("transact_write", start, nil, resp.ConsumedCapacity, b.Stats)
			b.Stats.AddWritten(len(items))
			return nil
		}
		s.observe("transact_write", start, err, nil, b.Stats)
		var canceled *types.TransactionCanceledException
		if !errors.As(err, &canceled) {
			return s.classify(ctx, "transact_write", fmt.Errorf("dynamodb: TransactWriteItems: %w", err))
		}
		retryable := false
		for i, r := range canceled.CancellationReasons {
			switch aws.ToString(r.Code) {
			case "ConditionalCheckFailed":
				if i >= len(merged) {
					return fmt.Errorf("dynamodb: TransactWriteItems reported a failed condition on item %d of %d: %w", i, len(merged), err)
				}
				st, derr := decodeStored(r.Item)
				if derr == nil && (st.intent != nil || len(st.sharers) > 0) {
					// A transaction's intent or share lock, not the
					// condition, stood in the way: clear it and try again.
					if _, err := s.clearBlockers(ctx, merged[i].Key, st, true, b.Stats); err != nil {
						return err
					}
					retryable = true
					failures-- // progress, not contention
					break
				}
				return &kv.ConditionFailedError{Index: merged[i].condIndex, Key: merged[i].Key}
			case "TransactionConflict", "ThrottlingError", "ProvisionedThroughputExceeded":
				retryable = true
			}
		}
		if !retryable {
			return fmt.Errorf("dynamodb: TransactWriteItems: %w", err)
		}
		failures++
		if failures >= s.maxAttempts {
			return &kv.UnavailableError{Op: "transact_write", Err: fmt.Errorf("dynamodb: TransactWriteItems still canceled after %d attempts: %w", failures, err)}
		}
		if failures > 0 {
			if err := s.backoff(ctx, failures); err != nil {
				return err
			}
		}
	}
}

// batchWrite applies a non-atomic batch in BatchWriteItem chunks of 25.
func (s *Store) batchWrite(ctx context.Context, b kv.Batch) error {
	// Only the last op on a key matters, and DynamoDB rejects a request
	// naming a key twice.
	last := make(map[string]int, len(b.Ops))
	for i, op := range b.Ops {
		last[keyString(op.Key)] = i
	}
	reqs := make([]types.WriteRequest, 0, len(last))
	ts := s.clock.next()
	for i, op := range b.Ops {
		if last[keyString(op.Key)] != i {
			continue
		}
		switch op.Kind {
		case kv.OpPut:
			item, err := putItem(op.Key, op.Attrs, ts)
			if err != nil {
				return err
			}
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: item}})
		case kv.OpDelete:
			reqs = append(reqs, types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: keyAttrs(op.Key)}})
		default:
			return fmt.Errorf("dynamodb: op %d has unknown kind %d", i, op.Kind)
		}
	}
	chunks := (len(reqs) + maxBatchWrite - 1) / maxBatchWrite
	return parallel(ctx, chunks, s.concurrency, func(ctx context.Context, c int) error {
		lo := c * maxBatchWrite
		return s.batchWriteChunk(ctx, reqs[lo:min(lo+maxBatchWrite, len(reqs))], b.Stats)
	})
}

func (s *Store) batchWriteChunk(ctx context.Context, pending []types.WriteRequest, stats *kv.Stats) error {
	for failures := 0; ; {
		start := time.Now()
		resp, err := s.client.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{
			RequestItems:           map[string][]types.WriteRequest{s.table: pending},
			ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
		})
		if err != nil {
			s.observe("batch_write", start, err, nil, stats)
			return s.classify(ctx, "batch_write", fmt.Errorf("dynamodb: BatchWriteItem: %w", err))
		}
		s.observe("batch_write", start, nil, resp.ConsumedCapacity, stats)
		unprocessed := resp.UnprocessedItems[s.table]
		stats.AddWritten(len(pending) - len(unprocessed))
		if len(unprocessed) == 0 {
			return nil
		}
		if len(unprocessed) < len(pending) {
			failures = 0 // progress: DynamoDB is taking writes
		}
		pending = unprocessed
		failures++
		if failures >= s.maxAttempts {
			return &kv.UnavailableError{Op: "batch_write", Err: fmt.Errorf("dynamodb: %d items still unprocessed after %d attempts", len(pending), failures)}
		}
		if err := s.backoff(ctx, failures); err != nil {
			return err
		}
	}
}
