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

// Get reads req.Keys with BatchGetItem, 100 distinct keys per request,
// requests in parallel (at most Options.MaxConcurrency), retrying
// UnprocessedKeys with backoff. Results come back in key order. It reads
// the latest committed state: a tombstone is a missing item, and an item
// under a transaction's intent shows what that transaction's record says
// (resolve.go).
func (s *Store) Get(ctx context.Context, req kv.GetRequest) ([]kv.Item, error) {
	raw, err := s.getRaw(ctx, req.Keys, req.Consistent, req.Stats)
	if err != nil {
		return nil, err
	}
	out := make([]kv.Item, len(req.Keys))
	mode := readMode{stats: req.Stats, pending: map[string]record{}}
	for i, item := range raw {
		if item == nil {
			continue
		}
		st, err := decodeStored(item)
		if err != nil {
			return nil, err
		}
		v, err := s.resolve(ctx, req.Keys[i], st, mode)
		if err != nil {
			return nil, err
		}
		if v.exists {
			out[i] = foundItem(req.Keys[i], v.attrs)
		}
	}
	return out, nil
}

func foundItem(key kv.Key, attrs []kv.Attr) kv.Item {
	if key.Partition == nil {
		key.Partition = []byte{} // kv.Found tells found items by a non-nil partition
	}
	return kv.Item{Key: key, Attrs: attrs}
}

// getRaw reads keys and returns the stored items in key order, nil for
// keys without an item.
func (s *Store) getRaw(ctx context.Context, keys []kv.Key, consistent bool, stats *kv.Stats) ([]map[string]types.AttributeValue, error) {
	if s.closed.Load() {
		return nil, kv.ErrClosed
	}
	out := make([]map[string]types.AttributeValue, len(keys))
	if len(keys) == 0 {
		return out, nil
	}
	// BatchGetItem rejects duplicate keys; read each distinct key once and
	// fan the result out to every position that asked for it.
	positions := make(map[string][]int, len(keys))
	var distinct []kv.Key
	for i, k := range keys {
		ks := keyString(k)
		if _, seen := positions[ks]; !seen {
			distinct = append(distinct, k)
		}
		positions[ks] = append(positions[ks], i)
	}
	chunks := (len(distinct) + maxBatchGetKeys - 1) / maxBatchGetKeys
	err := parallel(ctx, chunks, s.concurrency, func(ctx context.Context, c int) error {
		lo := c * maxBatchGetKeys
		hi := min(lo+maxBatchGetKeys, len(distinct))
		return s.batchGet(ctx, distinct[lo:hi], consistent, stats, func(k kv.Key, item map[string]types.AttributeValue) {
			for _, i := range positions[keyString(k)] {
				out[i] = item
			}
		})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// batchGet reads up to 100 distinct keys, calling found for each that
// exists (from one goroutine at a time per chunk; positions are disjoint).
func (s *Store) batchGet(ctx context.Context, keys []kv.Key, consistent bool, stats *kv.Stats, found func(kv.Key, map[string]types.AttributeValue)) error {
	// Items come back keyed by their DynamoDB key; map them back to kv keys
	// by the framed bytes.
	byFramed := make(map[string]kv.Key, len(keys))
	pending := make([]map[string]types.AttributeValue, len(keys))
	for i, k := range keys {
		pending[i] = keyAttrs(k)
		byFramed[framedKeyString(pending[i])] = k
	}
	for failures := 0; ; {
		start := time.Now()
		resp, err := s.client.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{
			RequestItems: map[string]types.KeysAndAttributes{
				s.table: {Keys: pending, ConsistentRead: aws.Bool(consistent)},
			},
			ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
		}, readRetry)
		if err != nil {
			s.observe("batch_get", start, err, nil, stats)
			return s.classify(ctx, "batch_get", fmt.Errorf("dynamodb: BatchGetItem: %w", err))
		}
		s.observe("batch_get", start, nil, resp.ConsumedCapacity, stats)
		items := resp.Responses[s.table]
		bytes := 0
		for _, item := range items {
			bytes += itemSize(item)
			k, ok := byFramed[framedKeyString(item)]
			if !ok {
				return errors.New("dynamodb: BatchGetItem returned a key that was not asked for")
			}
			found(k, item)
		}
		stats.AddRead(len(items), bytes)
		pending = resp.UnprocessedKeys[s.table].Keys
		if len(pending) == 0 {
			return nil
		}
		if len(items) > 0 {
			// Progress (a response cut short at 16 MB) is not throttling:
			// go on without waiting.
			failures = 0
			continue
		}
		failures++
		if failures >= s.maxAttempts {
			return &kv.UnavailableError{Op: "batch_get", Err: fmt.Errorf("dynamodb: %d keys still unprocessed after %d attempts", len(pending), failures)}
		}
		if err := s.backoff(ctx, failures); err != nil {
			return err
		}
	}
}

// framedKeyString identifies a DynamoDB item by its key attributes.
func framedKeyString(item map[string]types.AttributeValue) string {
	var pk, sk []byte
	if v, ok := item[PartitionKeyAttr].(*types.AttributeValueMemberB); ok {
		pk = v.Value
	}
	if v, ok := item[SortKeyAttr].(*types.AttributeValueMemberB); ok {
		sk = v.Value
	}
	return keyString(kv.Key{Partition: pk, Sort: sk})
}
