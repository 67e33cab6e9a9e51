package dynamodb

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/kv/kvtxn"
)

// commitLarge commits a transaction too large for one TransactWriteItems
// (TRANSACTIONS.md, "Large transactions"):
//
//  1. create the transaction record, pending;
//  2. place an intent on every key (conditional UpdateItems in parallel,
//     each checking the version the transaction saw and that no other
//     intent is there), heartbeating the record meanwhile;
//  3. commit the record: the commit point;
//  4. resolve the intents into committed versions and delete the record.
//
// A failure before the commit point aborts the record and removes the
// intents placed. A crash anywhere leaves intents that readers resolve
// through the record (an expired pending record is aborted by the first
// proxy that needs the keys).
func (b *txnBackend) commitLarge(ctx context.Context, writes []kvtxn.Write, stats *kv.Stats) (err error) {
	s := b.s
	news := make([]map[string]types.AttributeValue, len(writes))
	for i, w := range writes {
		if w.Kind == kvtxn.WritePut {
			v, err := intentValue(w.Key, w.Attrs)
			if err != nil {
				return err
			}
			news[i] = v
		}
	}
	groups := intentGroups(writes, news)
	id := newTxnID()
	if err := s.createRecord(ctx, id, stats); err != nil {
		return err
	}
	placed := make([]atomic.Bool, len(writes))
	abort := func(cause error) error {
		// Best effort: whatever is left, readers clean up once the record
		// is aborted (or expires, if even that fails).
		cctx := context.WithoutCancel(ctx)
		r, aerr := s.abortRecord(cctx, id, 0, stats)
		switch {
		case aerr != nil:
			return cause
		case r.state == stateCommitted:
			// The commit whose answer was lost had landed: the
			// transaction is committed after all.
			stats.AddWritten(len(writes))
			b.resolveAll(cctx, id, writes, news, groups, placed, r, stats)
			return nil
		}
		b.resolveAll(cctx, id, writes, news, groups, placed, record{state: stateAborted}, stats)
		return cause
	}

	hbCtx, stopHeartbeat := context.WithCancelCause(ctx)
	hbDone := make(chan struct{})
	go func() {
		defer close(hbDone)
		t := time.NewTicker(s.txnTimeout / 4)
		defer t.Stop()
		for {
			select {
			case <-hbCtx.Done():
				return
			case <-t.C:
				alive, err := s.heartbeat(hbCtx, id, stats)
				if err == nil && !alive {
					stopHeartbeat(&kv.ConflictError{Reason: "the transaction was aborted by another proxy, which found it expired"})
					return
				}
			}
		}
	}()
	err = parallel(hbCtx, len(groups), s.concurrency, func(ctx context.Context, g int) error {
		lo, hi := groups[g].lo, groups[g].hi
		if hi-lo == 1 {
			return b.placeIntent(ctx, id, writes[lo], news[lo], &placed[lo], stats)
		}
		return b.placeIntentGroup(ctx, id, writes[lo:hi], news[lo:hi], placed[lo:hi], stats)
	})
	if err != nil {
		if cause := context.Cause(hbCtx); cause != nil && !errors.Is(cause, context.Canceled) {
			err = cause
		}
		stopHeartbeat(nil)
		<-hbDone
		return abort(err)
	}
	if s.testHook != nil {
		if err := s.testHook("intents placed"); err != nil {
			stopHeartbeat(nil)
			<-hbDone
			return err // a simulated crash: no clean-up
		}
	}
	start := time.Now()
	cts, err := s.commitRecord(ctx, id, b.snap, stats)
	stopHeartbeat(nil)
	<-hbDone
	if err != nil {
		return abort(err)
	}
	if s.testHook != nil {
		if err := s.testHook("committed"); err != nil {
			return err
		}
	}
	if time.Since(start) > s.uncertainty {
		s.lateCommits.Add(1)
	}
	stats.AddWritten(len(writes))
	// Committed. Resolving is an optimisation from here on: readers do it
	// for intents left behind, and the record stays until all are gone.
	b.resolveAll(context.WithoutCancel(ctx), id, writes, news, groups, placed, record{state: stateCommitted, cts: cts}, stats)
	b.purgeTombstones(ctx, writes, cts, stats)
	return nil
}

// intentSpan is a group of writes, [lo, hi), whose intents are placed by one
// TransactWriteItems and resolved by another.
type intentSpan struct{ lo, hi int }

// intentGroups splits writes into spans of at most maxTransactItems keys
// and about maxTransactBytes, news[i] being write i's new item. One request
// per group instead of one per key is what makes a large transaction's
// cost a few requests per hundred keys; a transactional write costs twice
// the write capacity of a single-item one, which TRANSACTIONS.md weighs.
func intentGroups(writes []kvtxn.Write, news []map[string]types.AttributeValue) []intentSpan {
	var groups []intentSpan
	lo, size := 0, 0
	for i, w := range writes {
		n := len(w.Key.Partition) + len(w.Key.Sort) + 128
		if news[i] != nil {
			n += itemSize(news[i])
		}
		if i > lo && (i-lo == maxTransactItems || size+n > maxTransactBytes) {
			groups = append(groups, intentSpan{lo, i})
			lo, size = i, 0
		}
		size += n
	}
	if lo < len(writes) {
		groups = append(groups, intentSpan{lo, len(writes)})
	}
	return groups
}

// resolveAll resolves the placed intents of transaction id according to r,
// a group per request, and deletes the record when all of them are
// resolved.
func (b *txnBackend) resolveAll(ctx context.Context, id []byte, writes []kvtxn.Write, news []map[string]types.AttributeValue, groups []intentSpan, placed []atomic.Bool, r record, stats *kv.Stats) {
	s := b.s
	err := parallel(ctx, len(groups), s.concurrency, func(ctx context.Context, g int) error {
		var keys []kv.Key
		var sts []stored
		for i := groups[g].lo; i < groups[g].hi; i++ {
			if !placed[i].Load() {
				continue
			}
			w := writes[i]
			p := b.points[keyString(w.Key)]
			keys = append(keys, w.Key)
			sts = append(sts, stored{sort: w.Key.Sort, exists: p.exists, ts: p.ts, intent: &intent{txn: id, op: intentOpOf(w.Kind), value: news[i], shared: b.sharedLock(w)}})
		}
		return s.resolveGroup(ctx, keys, sts, r, stats)
	})
	if err == nil {
		s.deleteRecord(ctx, id, stats)
	}
}

// resolveGroup resolves the intents sts on keys, all of one transaction,
// with one TransactWriteItems. When that is canceled (another proxy
// resolved one of them, or a concurrent request touched one) each is
// resolved on its own, which tolerates intents already gone.
func (s *Store) resolveGroup(ctx context.Context, keys []kv.Key, sts []stored, r record, stats *kv.Stats) error {
	switch len(keys) {
	case 0:
		return nil
	case 1:
		return s.resolveIntent(ctx, keys[0], sts[0], r, stats)
	}
	items := make([]types.TransactWriteItem, len(keys))
	for i := range keys {
		items[i] = s.resolution(keys[i], sts[i], r)
	}
	start := time.Now()
	resp, err := s.client.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: items, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	if err == nil {
		s.observe("resolve_intents", start, nil, resp.ConsumedCapacity, stats)
		return nil
	}
	s.observe("resolve_intents", start, err, nil, stats)
	var canceled *types.TransactionCanceledException
	if !errors.As(err, &canceled) {
		return s.classify(ctx, "resolve_intents", fmt.Errorf("dynamodb: resolving intents: %w", err))
	}
	return parallel(ctx, len(keys), s.concurrency, func(ctx context.Context, i int) error {
		return s.resolveIntent(ctx, keys[i], sts[i], r, stats)
	})
}

func intentOpOf(k kvtxn.WriteKind) intentOp {
	switch k {
	case kvtxn.WritePut:
		return opPut
	case kvtxn.WriteDelete:
		return opDelete
	case kvtxn.WriteLockUpdate:
		return opLockUpdate
	}
	return opLockShare
}

// intentValue is the map attribute holding a put's new item.
func intentValue(k kv.Key, attrs []kv.Attr) (map[string]types.AttributeValue, error) {
	item, err := encodeItem(k, attrs)
	if err != nil {
		return nil, err
	}
	delete(item, PartitionKeyAttr)
	delete(item, SortKeyAttr)
	return item, nil
}

// sharedLock reports whether w is a share lock that a large transaction
// takes by adding its id to the item's ShareLocksAttr, compatible with
// other share locks, rather than by an intent: a share lock of a key that
// holds an item (or a tombstone). A share lock of a key with no item
// stays an intent on a placeholder, which its resolution deletes.
func (b *txnBackend) sharedLock(w kvtxn.Write) bool {
	if w.Kind != kvtxn.WriteLockShare {
		return false
	}
	p := b.points[keyString(w.Key)]
	return p != nil && (p.exists || p.ts > 0)
}

// intentUpdate is the conditional update placing transaction id's intent
// on w's key (newItem, for a put, being the new item): conditional on the
// version the transaction saw and on no other transaction's intent or
// share lock being there. A key with no item gets a placeholder, marked
// as holding no committed value. A shared lock (sharedLock) adds id to the
// item's share locks instead, conditional on the version and on no intent.
func (b *txnBackend) intentUpdate(id []byte, w kvtxn.Write, newItem map[string]types.AttributeValue) *types.Update {
	p := b.points[keyString(w.Key)]
	if b.sharedLock(w) {
		names := map[string]string{"#shr": ShareLocksAttr}
		values := map[string]types.AttributeValue{":ids": &types.AttributeValueMemberBS{Value: [][]byte{id}}}
		cond := noIntent(names) + " AND " + b.versionCond(w.Key, names, values)
		return &types.Update{TableName: &b.s.table, Key: keyAttrs(w.Key), UpdateExpression: aws.String("ADD #shr :ids"), ConditionExpression: &cond,
			ExpressionAttributeNames: names, ExpressionAttributeValues: values,
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}
	}
	names := map[string]string{"#op": IntentOpAttr}
	values := map[string]types.AttributeValue{
		":txn": &types.AttributeValueMemberB{Value: id},
		":op":  numberValue(int64(intentOpOf(w.Kind))),
	}
	cond := noBlockers(names) + " AND " + b.versionCond(w.Key, names, values)
	update := "SET #txn = :txn, #op = :op"
	if w.Kind == kvtxn.WritePut {
		update += ", #new = :new"
		names["#new"], values[":new"] = IntentValueAttr, &types.AttributeValueMemberM{Value: newItem}
	}
	if !p.exists && p.ts == 0 {
		update += ", #del = :true"
		names["#del"], values[":true"] = TombstoneAttr, &types.AttributeValueMemberBOOL{Value: true}
	}
	return &types.Update{TableName: &b.s.table, Key: keyAttrs(w.Key), UpdateExpression: &update, ConditionExpression: &cond,
		ExpressionAttributeNames: names, ExpressionAttributeValues: values,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}
}

// placeIntent puts transaction id's intent on w's key alone. An intent of
// a finished transaction is cleared first; a live one is a conflict.
func (b *txnBackend) placeIntent(ctx context.Context, id []byte, w kvtxn.Write, newItem map[string]types.AttributeValue, placed *atomic.Bool, stats *kv.Stats) error {
	s := b.s
	for attempt := 0; ; attempt++ {
		u := b.intentUpdate(id, w, newItem)
		start := time.Now()
		resp, err := s.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName:                           u.TableName,
			Key:                                 u.Key,
			UpdateExpression:                    u.UpdateExpression,
			ConditionExpression:                 u.ConditionExpression,
			ExpressionAttributeNames:            u.ExpressionAttributeNames,
			ExpressionAttributeValues:           u.ExpressionAttributeValues,
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
			ReturnConsumedCapacity:              types.ReturnConsumedCapacityTotal,
		})
		var failed *types.ConditionalCheckFailedException
		switch {
		case err == nil:
			s.observe("place_intent", start, nil, capacityOf(resp.ConsumedCapacity), stats)
			placed.Store(true)
			return nil
		case errors.As(err, &failed):
			s.observe("place_intent", start, nil, nil, stats)
			st, derr := decodeStored(failed.Item)
			if derr == nil && st.holds(id) {
				placed.Store(true) // a retry of a request that had succeeded
				return nil
			}
			if derr != nil || attempt > 2 {
				return &kv.ConflictError{Key: w.Key, Reason: "another transaction wrote this key after this transaction's snapshot"}
			}
			cleared, err := s.clearBlockers(ctx, w.Key, st, !b.sharedLock(w), stats)
			if err != nil {
				return err
			}
			if !cleared {
				return &kv.ConflictError{Key: w.Key, Reason: "another transaction wrote this key after this transaction's snapshot"}
			}
		default:
			s.observe("place_intent", start, err, nil, stats)
			return s.classify(ctx, "place_intent", fmt.Errorf("dynamodb: placing an intent: %w", err))
		}
	}
}

// placeIntentGroup places transaction id's intents on a group of keys with
// one TransactWriteItems: all of them or none. When it is canceled, each
// failed condition is looked at as placeIntent does (an intent of a
// finished transaction is cleared and the group retried; a live one, or a
// version newer than the transaction saw, is a conflict), and DynamoDB's
// own transaction conflicts and throttling are retried with backoff.
func (b *txnBackend) placeIntentGroup(ctx context.Context, id []byte, ws []kvtxn.Write, news []map[string]types.AttributeValue, placed []atomic.Bool, stats *kv.Stats) error {
	s := b.s
	items := make([]types.TransactWriteItem, len(ws))
	for i, w := range ws {
		items[i].Update = b.intentUpdate(id, w, news[i])
	}
	clears := make([]int, len(ws)) // intents cleared per key, as placeIntent's attempts
	for failures := 0; ; {
		start := time.Now()
		resp, err := s.client.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: items, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
		if err == nil {
			s.observe("place_intents", start, nil, resp.ConsumedCapacity, stats)
			for i := range placed {
				placed[i].Store(true)
			}
			return nil
		}
		s.observe("place_intents", start, err, nil, stats)
		var canceled *types.TransactionCanceledException
		if !errors.As(err, &canceled) {
			return s.classify(ctx, "place_intents", fmt.Errorf("dynamodb: placing intents: %w", err))
		}
		own, retry, contended := 0, false, false
		for i, r := range canceled.CancellationReasons {
			switch aws.ToString(r.Code) {
			case "ConditionalCheckFailed":
				if i >= len(ws) {
					return fmt.Errorf("dynamodb: TransactWriteItems reported a failed condition on item %d of %d: %w", i, len(ws), err)
				}
				st, derr := decodeStored(r.Item)
				switch {
				case derr == nil && st.holds(id):
					// An earlier attempt whose answer was lost had
					// landed; the abort path must clear these.
					placed[i].Store(true)
					own++
				case derr != nil || clears[i] > 2:
					return &kv.ConflictError{Key: ws[i].Key, Reason: "another transaction wrote this key after this transaction's snapshot"}
				default:
					cleared, err := s.clearBlockers(ctx, ws[i].Key, st, !b.sharedLock(ws[i]), stats)
					if err != nil {
						return err
					}
					if !cleared {
						return &kv.ConflictError{Key: ws[i].Key, Reason: "another transaction wrote this key after this transaction's snapshot"}
					}
					clears[i]++
					retry = true
				}
			case "TransactionConflict", "ThrottlingError", "ProvisionedThroughputExceeded":
				retry, contended = true, true
			}
		}
		if contended {
			failures++ // one per attempt, however many of its items met contention
		}
		switch {
		case own == len(ws):
			return nil
		case own > 0:
			// Placed once, then partly cleared: another proxy found
			// this transaction expired and aborted it.
			return &kv.ConflictError{Reason: "the transaction was aborted by another proxy, which found it expired"}
		case !retry:
			return fmt.Errorf("dynamodb: placing intents: %w", err)
		case failures >= s.maxAttempts:
			return &kv.ConflictError{Reason: fmt.Sprintf("TransactWriteItems placing intents still canceled after %d attempts: %v", failures, err)}
		}
		if failures > 0 {
			if err := s.backoff(ctx, failures); err != nil {
				return err
			}
		}
	}
}
