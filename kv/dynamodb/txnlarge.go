package dynamodb

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

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
			b.resolveAll(cctx, id, writes, placed, r, stats)
			return nil
		}
		b.resolveAll(cctx, id, writes, placed, record{state: stateAborted}, stats)
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
	err = parallel(hbCtx, len(writes), s.concurrency, func(ctx context.Context, i int) error {
		return b.placeIntent(ctx, id, writes[i], &placed[i], stats)
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
	b.resolveAll(context.WithoutCancel(ctx), id, writes, placed, record{state: stateCommitted, cts: cts}, stats)
	return nil
}

// resolveAll resolves the placed intents of transaction id according to r
// and deletes the record when all of them are resolved.
func (b *txnBackend) resolveAll(ctx context.Context, id []byte, writes []kvtxn.Write, placed []atomic.Bool, r record, stats *kv.Stats) {
	s := b.s
	err := parallel(ctx, len(writes), s.concurrency, func(ctx context.Context, i int) error {
		if !placed[i].Load() {
			return nil
		}
		w := writes[i]
		p := b.points[keyString(w.Key)]
		st := stored{sort: w.Key.Sort, exists: p.exists, ts: p.ts, intent: &intent{txn: id, op: intentOpOf(w.Kind)}}
		if w.Kind == kvtxn.WritePut {
			v, err := intentValue(w.Key, w.Attrs)
			if err != nil {
				return err
			}
			st.intent.value = v
		}
		return s.resolveIntent(ctx, w.Key, st, r, stats)
	})
	if err == nil {
		s.deleteRecord(ctx, id, stats)
	}
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

// placeIntent puts transaction id's intent on w's key, conditional on the
// version the transaction saw and on no other intent. An intent of a
// finished transaction is cleared first; a live one is a conflict.
func (b *txnBackend) placeIntent(ctx context.Context, id []byte, w kvtxn.Write, placed *atomic.Bool, stats *kv.Stats) error {
	s := b.s
	p := b.points[keyString(w.Key)]
	for attempt := 0; ; attempt++ {
		names := map[string]string{"#txn": IntentTxnAttr, "#op": IntentOpAttr}
		values := map[string]types.AttributeValue{
			":txn": &types.AttributeValueMemberB{Value: id},
			":op":  numberValue(int64(intentOpOf(w.Kind))),
		}
		cond := "attribute_not_exists(#txn) AND " + b.versionCond(w.Key, names, values)
		update := "SET #txn = :txn, #op = :op"
		if w.Kind == kvtxn.WritePut {
			v, err := intentValue(w.Key, w.Attrs)
			if err != nil {
				return err
			}
			update += ", #new = :new"
			names["#new"], values[":new"] = IntentValueAttr, &types.AttributeValueMemberM{Value: v}
		}
		if !p.exists && p.ts == 0 {
			// No item: the intent creates a placeholder, marked as no
			// committed value.
			update += ", #del = :true"
			names["#del"], values[":true"] = TombstoneAttr, &types.AttributeValueMemberBOOL{Value: true}
		}
		start := time.Now()
		resp, err := s.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName:                           &s.table,
			Key:                                 keyAttrs(w.Key),
			UpdateExpression:                    &update,
			ConditionExpression:                 &cond,
			ExpressionAttributeNames:            names,
			ExpressionAttributeValues:           values,
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
			if derr == nil && st.intent != nil && string(st.intent.txn) == string(id) {
				placed.Store(true) // a retry of a request that had succeeded
				return nil
			}
			if derr != nil || st.intent == nil || attempt > 2 {
				return &kv.ConflictError{Key: w.Key, Reason: "another transaction wrote this key after this transaction's snapshot"}
			}
			if err := s.clearIntent(ctx, w.Key, st, stats); err != nil {
				return err
			}
		default:
			s.observe("place_intent", start, err, nil, stats)
			return s.classify(ctx, "place_intent", fmt.Errorf("dynamodb: placing an intent: %w", err))
		}
	}
}
