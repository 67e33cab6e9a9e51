package dynamodb

import (
	"context"
	crand "crypto/rand"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/zproxy/zproxy/kv"
)

// Transaction records. A large transaction (one that does not fit one
// TransactWriteItems) has a record item, written before its intents, whose
// state decides the fate of all of them: pending, then committed (with the
// commit timestamp) or aborted. The commit point is the one conditional
// write that turns a pending record into a committed one.
//
// A record's partition key is recordTag ‖ id, so records spread over the
// table's partitions and never collide with kv keys (which all start with
// keyFrame). Its attributes:
//
//	st    S  "pending", "committed" or "aborted"
//	hb    N  the owner's last heartbeat (clock microseconds)
//	cts   N  the commit timestamp, once committed
//	push  N  readers' floor for the commit timestamp: the transaction may
//	         only commit above it (see push)
const recordTag = 0x01

const (
	statePending   = "pending"
	stateCommitted = "committed"
	stateAborted   = "aborted"
)

// record is a transaction record as read.
type record struct {
	state string // "" when the record does not exist
	hb    int64
	cts   int64
	push  int64
}

func recordKey(id []byte) map[string]types.AttributeValue {
	pk := append([]byte{recordTag}, id...)
	return map[string]types.AttributeValue{
		PartitionKeyAttr: &types.AttributeValueMemberB{Value: pk},
		SortKeyAttr:      &types.AttributeValueMemberB{Value: []byte{recordTag}},
	}
}

func newTxnID() []byte {
	id := make([]byte, 16)
	crand.Read(id)
	return id
}

func decodeRecord(item map[string]types.AttributeValue) (record, error) {
	if len(item) == 0 {
		return record{}, nil
	}
	var r record
	st, ok := item["st"].(*types.AttributeValueMemberS)
	if !ok {
		return record{}, errors.New("dynamodb: transaction record without a state")
	}
	r.state = st.Value
	var err error
	for name, dst := range map[string]*int64{"hb": &r.hb, "cts": &r.cts, "push": &r.push} {
		if *dst, err = numberAttr(item, name); err != nil {
			return record{}, err
		}
	}
	return r, nil
}

// recordCache remembers the records of finished transactions (committed
// or aborted records never change), so readers meeting many intents of one
// transaction read its record once.
type recordCache struct {
	mu sync.Mutex
	m  map[string]record
}

const recordCacheMax = 10_000

func (c *recordCache) get(id []byte) (record, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.m[string(id)]
	return r, ok
}

func (c *recordCache) put(id []byte, r record) {
	if r.state != stateCommitted && r.state != stateAborted {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= recordCacheMax {
		c.m = map[string]record{} // crude, but finished records are cheap to read again
	}
	c.m[string(id)] = r
}

// getRecord reads a record, from the cache when it is final.
func (s *Store) getRecord(ctx context.Context, id []byte, stats *kv.Stats) (record, error) {
	if r, ok := s.records.get(id); ok {
		return r, nil
	}
	start := time.Now()
	resp, err := s.client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:              &s.table,
		Key:                    recordKey(id),
		ConsistentRead:         aws.Bool(true),
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
	}, readRetry)
	if err != nil {
		s.observe("get_record", start, err, nil, stats)
		return record{}, s.classify(ctx, "get_record", fmt.Errorf("dynamodb: reading a transaction record: %w", err))
	}
	s.observe("get_record", start, nil, capacityOf(resp.ConsumedCapacity), stats)
	r, err := decodeRecord(resp.Item)
	if err != nil {
		return record{}, err
	}
	s.records.put(id, r)
	return r, nil
}

func capacityOf(c *types.ConsumedCapacity) []types.ConsumedCapacity {
	if c == nil {
		return nil
	}
	return []types.ConsumedCapacity{*c}
}

// updateRecord applies a conditional update to a record. When the
// condition fails it returns the record as it is (and ok false).
func (s *Store) updateRecord(ctx context.Context, op string, id []byte, update, cond string, values map[string]types.AttributeValue, stats *kv.Stats) (r record, ok bool, err error) {
	start := time.Now()
	in := &dynamodb.UpdateItemInput{
		TableName:                           &s.table,
		Key:                                 recordKey(id),
		UpdateExpression:                    &update,
		ExpressionAttributeValues:           values,
		ReturnValues:                        types.ReturnValueAllNew,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
		ReturnConsumedCapacity:              types.ReturnConsumedCapacityTotal,
	}
	if cond != "" {
		in.ConditionExpression = &cond
	}
	resp, err := s.client.UpdateItem(ctx, in)
	var failed *types.ConditionalCheckFailedException
	switch {
	case errors.As(err, &failed):
		s.observe(op, start, nil, nil, stats)
		r, err := decodeRecord(failed.Item)
		if err == nil {
			s.records.put(id, r)
		}
		return r, false, err
	case err != nil:
		s.observe(op, start, err, nil, stats)
		return record{}, false, s.classify(ctx, op, fmt.Errorf("dynamodb: updating a transaction record: %w", err))
	}
	s.observe(op, start, nil, capacityOf(resp.ConsumedCapacity), stats)
	r, err = decodeRecord(resp.Attributes)
	if err == nil {
		s.records.put(id, r)
	}
	return r, true, err
}

// createRecord writes a new pending record.
func (s *Store) createRecord(ctx context.Context, id []byte, stats *kv.Stats) error {
	item := recordKey(id)
	item["st"] = &types.AttributeValueMemberS{Value: statePending}
	item["hb"] = numberValue(s.clock.next())
	start := time.Now()
	resp, err := s.client.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:                &s.table,
		Item:                     item,
		ConditionExpression:      aws.String("attribute_not_exists(#p)"),
		ExpressionAttributeNames: map[string]string{"#p": PartitionKeyAttr},
		ReturnConsumedCapacity:   types.ReturnConsumedCapacityTotal,
	})
	if err != nil {
		s.observe("put_record", start, err, nil, stats)
		return s.classify(ctx, "put_record", fmt.Errorf("dynamodb: creating a transaction record: %w", err))
	}
	s.observe("put_record", start, nil, capacityOf(resp.ConsumedCapacity), stats)
	return nil
}

// heartbeat tells readers the owner of a pending record is alive. It
// reports false when the record is no longer pending (a reader aborted it).
func (s *Store) heartbeat(ctx context.Context, id []byte, stats *kv.Stats) (bool, error) {
	_, ok, err := s.updateRecord(ctx, "heartbeat", id, "SET hb = :hb", "st = :pending",
		map[string]types.AttributeValue{":hb": numberValue(s.clock.next()), ":pending": &types.AttributeValueMemberS{Value: statePending}}, stats)
	return ok, err
}

// commitRecord is the commit point of a large transaction: the record
// turns from pending to committed at a timestamp above every reader's
// push. It returns the commit timestamp, or a *kv.ConflictError when a
// reader aborted the transaction.
func (s *Store) commitRecord(ctx context.Context, id []byte, minTS int64, stats *kv.Stats) (int64, error) {
	for {
		s.clock.observe(minTS)
		cts := s.clock.next()
		r, ok, err := s.updateRecord(ctx, "commit_record", id, "SET st = :committed, cts = :cts",
			"st = :pending AND (attribute_not_exists(push) OR push < :cts)",
			map[string]types.AttributeValue{
				":committed": &types.AttributeValueMemberS{Value: stateCommitted},
				":pending":   &types.AttributeValueMemberS{Value: statePending},
				":cts":       numberValue(cts),
			}, stats)
		switch {
		case err != nil:
			return 0, err
		case ok:
			return cts, nil
		case r.state == statePending:
			minTS = r.push // a reader pushed past cts: commit above it
		default:
			return 0, &kv.ConflictError{Reason: "the transaction was aborted by another proxy, which found it expired"}
		}
	}
}

// abortRecord aborts a pending record (an owner giving up, or a reader
// that found it expired: then only if its heartbeat is still hb). It
// returns the record's state afterwards.
func (s *Store) abortRecord(ctx context.Context, id []byte, hb int64, stats *kv.Stats) (record, error) {
	cond := "st = :pending"
	values := map[string]types.AttributeValue{
		":aborted": &types.AttributeValueMemberS{Value: stateAborted},
		":pending": &types.AttributeValueMemberS{Value: statePending},
	}
	if hb != 0 {
		cond += " AND hb = :hb"
		values[":hb"] = numberValue(hb)
	}
	r, _, err := s.updateRecord(ctx, "abort_record", id, "SET st = :aborted", cond, values, stats)
	return r, err
}

// push makes a pending transaction commit, if ever, above ts: a reader
// whose snapshot is ts then rightly ignores its intents. It returns the
// record afterwards (pending, or final if it finished meanwhile).
func (s *Store) push(ctx context.Context, id []byte, ts int64, stats *kv.Stats) (record, error) {
	r, _, err := s.updateRecord(ctx, "push_record", id, "SET push = :ts",
		"st = :pending AND (attribute_not_exists(push) OR push < :ts)",
		map[string]types.AttributeValue{":ts": numberValue(ts), ":pending": &types.AttributeValueMemberS{Value: statePending}}, stats)
	return r, err
}

// deleteRecord removes a finished transaction's record once none of its
// intents remains.
func (s *Store) deleteRecord(ctx context.Context, id []byte, stats *kv.Stats) error {
	start := time.Now()
	resp, err := s.client.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName:              &s.table,
		Key:                    recordKey(id),
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
	})
	if err != nil {
		s.observe("delete_record", start, err, nil, stats)
		return s.classify(ctx, "delete_record", fmt.Errorf("dynamodb: deleting a transaction record: %w", err))
	}
	s.observe("delete_record", start, nil, capacityOf(resp.ConsumedCapacity), stats)
	return nil
}
