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

// Reading items that carry an intent. What a reader sees depends on the
// intent's transaction record:
//
//   - committed at cts: the intent's new value, at version cts;
//   - aborted, or no record (records are deleted only after their intents
//     are resolved, so a missing record means an aborted transaction whose
//     clean-up stopped half-way): the committed value in place;
//   - pending: the committed value in place. A transaction reader first
//     pushes the record to its snapshot, so the writer can only commit
//     after it and the reader is right to ignore the intent; a plain
//     (read-committed) reader needs no push. A pending record whose owner
//     stopped heartbeating for Options.TxnTimeout is aborted by the reader
//     (conditional on the heartbeat it saw), so an abandoned transaction
//     never blocks anyone for longer than that.
//
// A reader that meets the intent of a transaction finished more than
// resolveAfter ago cleans it up (rolls it forward or removes it), so the
// intents of a crashed proxy disappear as they are read; younger ones are
// left to their owner.
const resolveAfter = 2 * time.Second

// readMode is how a read treats pending transactions.
type readMode struct {
	// snapshot, when non-zero, is the reading transaction's snapshot,
	// pushed into pending writers.
	snapshot int64
	stats    *kv.Stats
	// pending, when set, remembers the pending records met (and pushed)
	// by this request or transaction, so the many intents of one
	// transaction cost one record read and one push, not one each.
	pending map[string]record
}

// resolve returns the view a reader in mode gets of st under key.
func (s *Store) resolve(ctx context.Context, key kv.Key, st stored, mode readMode) (view, error) {
	if st.intent == nil {
		return baseView(st), nil
	}
	r, err := s.settle(ctx, st.intent.txn, mode)
	if err != nil {
		return view{}, err
	}
	switch r.state {
	case stateCommitted:
		s.maybeResolve(ctx, key, st, r, mode.stats)
		return committedView(st, r.cts)
	case statePending:
		return baseView(st), nil
	default:
		s.maybeResolve(ctx, key, st, r, mode.stats)
		return baseView(st), nil
	}
}

// settle reads the record of txn and, when it is pending, pushes it (a
// transaction reader) or aborts it when it expired. The record it returns
// is committed, aborted ("" counts as aborted) or pending and safe to
// ignore for this reader.
func (s *Store) settle(ctx context.Context, txn []byte, mode readMode) (r record, err error) {
	if r, ok := mode.pending[string(txn)]; ok && (mode.snapshot == 0 || r.push >= mode.snapshot) {
		return r, nil
	}
	defer func() {
		if err == nil && r.state == statePending && mode.pending != nil {
			mode.pending[string(txn)] = r
		}
	}()
	r, err = s.getRecord(ctx, txn, mode.stats)
	if err != nil || r.state != statePending {
		return r, err
	}
	if s.expired(r) {
		if r, err = s.abortRecord(ctx, txn, r.hb, mode.stats); err != nil || r.state != statePending {
			return r, err
		}
		// The owner heartbeated meanwhile: it is alive after all.
	}
	if mode.snapshot == 0 || r.push >= mode.snapshot {
		return r, nil
	}
	return s.push(ctx, txn, mode.snapshot, mode.stats)
}

// expired reports whether a pending record's owner stopped heartbeating.
func (s *Store) expired(r record) bool {
	return s.clock.now().UnixMicro()-r.hb > s.txnTimeout.Microseconds()
}

// maybeResolve cleans up the intent of a finished transaction when it is
// old enough that its owner is probably gone. Failures are ignored: it is
// an optimisation, and the next reader tries again.
func (s *Store) maybeResolve(ctx context.Context, key kv.Key, st stored, r record, stats *kv.Stats) {
	if r.state == stateCommitted && s.clock.now().UnixMicro()-r.cts < resolveAfter.Microseconds() {
		return
	}
	if r.state != stateCommitted && s.clock.now().UnixMicro()-r.hb < resolveAfter.Microseconds() {
		return
	}
	s.resolveIntent(ctx, key, st, r, stats)
}

// resolveIntent replaces st's intent by its outcome: the new version when
// r is committed, the old one otherwise. It is conditional on the intent
// still being there, so any number of proxies may resolve one intent.
func (s *Store) resolveIntent(ctx context.Context, key kv.Key, st stored, r record, stats *kv.Stats) error {
	a := s.resolution(key, st, r)
	start := time.Now()
	var err error
	var capacity *types.ConsumedCapacity
	total := types.ReturnConsumedCapacityTotal
	switch {
	case a.Put != nil:
		var out *dynamodb.PutItemOutput
		out, err = s.client.PutItem(ctx, &dynamodb.PutItemInput{TableName: a.Put.TableName, Item: a.Put.Item, ConditionExpression: a.Put.ConditionExpression,
			ExpressionAttributeNames: a.Put.ExpressionAttributeNames, ExpressionAttributeValues: a.Put.ExpressionAttributeValues, ReturnConsumedCapacity: total})
		if out != nil {
			capacity = out.ConsumedCapacity
		}
	case a.Delete != nil:
		var out *dynamodb.DeleteItemOutput
		out, err = s.client.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: a.Delete.TableName, Key: a.Delete.Key, ConditionExpression: a.Delete.ConditionExpression,
			ExpressionAttributeNames: a.Delete.ExpressionAttributeNames, ExpressionAttributeValues: a.Delete.ExpressionAttributeValues, ReturnConsumedCapacity: total})
		if out != nil {
			capacity = out.ConsumedCapacity
		}
	default:
		var out *dynamodb.UpdateItemOutput
		out, err = s.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: a.Update.TableName, Key: a.Update.Key, UpdateExpression: a.Update.UpdateExpression,
			ConditionExpression: a.Update.ConditionExpression, ExpressionAttributeNames: a.Update.ExpressionAttributeNames,
			ExpressionAttributeValues: a.Update.ExpressionAttributeValues, ReturnConsumedCapacity: total})
		if out != nil {
			capacity = out.ConsumedCapacity
		}
	}
	var gone *types.ConditionalCheckFailedException
	if errors.As(err, &gone) {
		err = nil // someone else resolved it
	}
	s.observe("resolve_intent", start, err, capacityOf(capacity), stats)
	if err != nil {
		return s.classify(ctx, "resolve_intent", fmt.Errorf("dynamodb: resolving an intent: %w", err))
	}
	return nil
}

// resolution is the write that replaces st's intent by its outcome under
// r, conditional on the intent still being there: a Put of the new version
// or of a tombstone, a Delete of a placeholder that leaves nothing, or an
// Update removing the intent's attributes. resolveIntent sends it alone;
// a large transaction's owner sends up to maxTransactItems of them in one
// TransactWriteItems.
func (s *Store) resolution(key kv.Key, st stored, r record) types.TransactWriteItem {
	if st.intent.shared {
		// A share lock leaves the item as it was, whatever the outcome:
		// only the transaction's id leaves the set (the last one out
		// removes the attribute).
		update := "DELETE #shr :ids"
		return types.TransactWriteItem{Update: &types.Update{TableName: &s.table, Key: keyAttrs(key), UpdateExpression: &update,
			ConditionExpression:       aws.String("contains(#shr, :txn)"),
			ExpressionAttributeNames:  map[string]string{"#shr": ShareLocksAttr},
			ExpressionAttributeValues: map[string]types.AttributeValue{":txn": &types.AttributeValueMemberB{Value: st.intent.txn}, ":ids": &types.AttributeValueMemberBS{Value: [][]byte{st.intent.txn}}}}}
	}
	names := map[string]string{"#txn": IntentTxnAttr}
	values := map[string]types.AttributeValue{":txn": &types.AttributeValueMemberB{Value: st.intent.txn}}
	cond := aws.String("#txn = :txn")
	committed := r.state == stateCommitted
	switch {
	case committed && st.intent.op == opPut:
		item := keyAttrs(key)
		for n, v := range st.intent.value {
			item[n] = v
		}
		item[VersionAttr] = numberValue(r.cts)
		return types.TransactWriteItem{Put: &types.Put{TableName: &s.table, Item: item, ConditionExpression: cond,
			ExpressionAttributeNames: names, ExpressionAttributeValues: values}}
	case committed && (st.intent.op == opDelete || (st.intent.op == opLockUpdate && !st.exists)):
		return types.TransactWriteItem{Put: &types.Put{TableName: &s.table, Item: tombstoneItem(key, r.cts, s.tombstoneTTL),
			ConditionExpression: cond, ExpressionAttributeNames: names, ExpressionAttributeValues: values}}
	case st.placeholder():
		// Nothing was there before the intent, and the outcome leaves
		// nothing either (an aborted transaction, or a share lock).
		return types.TransactWriteItem{Delete: &types.Delete{TableName: &s.table, Key: keyAttrs(key), ConditionExpression: cond,
			ExpressionAttributeNames: names, ExpressionAttributeValues: values}}
	default:
		// Keep the committed value; a committed update lock moves its
		// version.
		update := "REMOVE #txn, #op, #new"
		names["#op"], names["#new"] = IntentOpAttr, IntentValueAttr
		if committed && st.intent.op == opLockUpdate {
			update = "SET #ts = :cts " + update
			names["#ts"] = VersionAttr
			values[":cts"] = numberValue(r.cts)
		}
		return types.TransactWriteItem{Update: &types.Update{TableName: &s.table, Key: keyAttrs(key), UpdateExpression: &update,
			ConditionExpression: cond, ExpressionAttributeNames: names, ExpressionAttributeValues: values}}
	}
}

// clearBlockers makes way for a writer (exclusive) or a share lock
// (not exclusive) that found st in its path: an intent is cleared
// (clearIntent), and, for a writer, so are the share locks of finished
// transactions (clearSharers). It reports false when nothing stood in the
// way, so that the condition failed on the version (a conflict the caller
// reports), and returns a *kv.ConflictError when a transaction in the way
// is alive.
func (s *Store) clearBlockers(ctx context.Context, key kv.Key, st stored, exclusive bool, stats *kv.Stats) (bool, error) {
	switch {
	case st.intent != nil:
		return true, s.clearIntent(ctx, key, st, stats)
	case exclusive && len(st.sharers) > 0:
		return true, s.clearSharers(ctx, key, st, stats)
	}
	return false, nil
}

// clearSharers removes from the item under key the share locks of the
// finished transactions among st.sharers (aborting those expired); a live
// one is a conflict: the writer loses, as against an intent.
func (s *Store) clearSharers(ctx context.Context, key kv.Key, st stored, stats *kv.Stats) error {
	for _, id := range st.sharers {
		r, err := s.settle(ctx, id, readMode{stats: stats})
		if err != nil {
			return err
		}
		if r.state == statePending {
			return &kv.ConflictError{Key: key, Reason: "another transaction holds a share lock on this key"}
		}
		lock := stored{sort: st.sort, exists: st.exists, ts: st.ts, intent: &intent{txn: id, op: opLockShare, shared: true}}
		if err := s.resolveIntent(ctx, key, lock, r, stats); err != nil {
			return err
		}
	}
	return nil
}

// clearIntent makes way for a writer that found st's intent in its path:
// it settles the intent's transaction (aborting it if expired) and
// resolves the intent when the transaction is finished. It returns a
// *kv.ConflictError when the transaction is alive: the writer loses (no
// waiting, so no deadlocks).
func (s *Store) clearIntent(ctx context.Context, key kv.Key, st stored, stats *kv.Stats) error {
	r, err := s.settle(ctx, st.intent.txn, readMode{stats: stats})
	if err != nil {
		return err
	}
	if r.state == statePending {
		return &kv.ConflictError{Key: key, Reason: "another transaction is committing a write to this key"}
	}
	return s.resolveIntent(ctx, key, st, r, stats)
}
