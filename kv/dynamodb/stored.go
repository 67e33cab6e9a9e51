package dynamodb

import (
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/zproxy/zproxy/kv"
)

// intentOp is what a transaction does to an item it holds an intent on.
type intentOp int

const (
	opPut        intentOp = 1
	opDelete     intentOp = 2
	opLockUpdate intentOp = 3 // the version moves to the commit timestamp, the value stays
	opLockShare  intentOp = 4 // nothing changes; the intent only keeps writers out
)

// noBlockers is the condition that neither another transaction's intent
// nor a share lock is on an item, with its names added to names: what
// every write requires (a share lock requires only the first, see
// noIntent).
func noBlockers(names map[string]string) string {
	names["#txn"], names["#shr"] = IntentTxnAttr, ShareLocksAttr
	return "attribute_not_exists(#txn) AND attribute_not_exists(#shr)"
}

// noIntent is the condition that no transaction's intent is on an item:
// what a share lock requires, as other share locks may be there.
func noIntent(names map[string]string) string {
	names["#txn"] = IntentTxnAttr
	return "attribute_not_exists(#txn)"
}

// intent is a transaction's pending write on an item, or, when shared, a
// large transaction's share lock: its id among the item's ShareLocksAttr.
type intent struct {
	txn    []byte
	op     intentOp
	value  map[string]types.AttributeValue // opPut: the new item's attributes, without keys
	shared bool
}

// stored is an item as the table holds it: the committed version (which
// stays in place while an intent is on the item) and the intent if any.
type stored struct {
	sort   []byte
	exists bool      // false for a tombstone and for a placeholder holding only an intent
	attrs  []kv.Attr // the committed user attributes
	ts     int64     // commit timestamp of the committed version; 0 when written without one
	intent *intent
	// sharers are the ids of the large transactions holding a share lock
	// on the item (ShareLocksAttr).
	sharers [][]byte
}

// holds reports whether transaction id's intent or share lock is on the
// item.
func (st stored) holds(id []byte) bool {
	if st.intent != nil && string(st.intent.txn) == string(id) {
		return true
	}
	for _, s := range st.sharers {
		if string(s) == string(id) {
			return true
		}
	}
	return false
}

// placeholder reports whether the item holds nothing but an intent: the key
// was absent (never written, or its tombstone expired) when the intent was
// placed.
func (st stored) placeholder() bool { return !st.exists && st.ts == 0 }

// view is what a read returns for one key: the latest committed version,
// or, for a reader that must not see a pending transaction, the version
// before it.
type view struct {
	sort   []byte
	exists bool
	attrs  []kv.Attr
	ts     int64
}

func decodeStored(item map[string]types.AttributeValue) (stored, error) {
	sort, attrs, err := decodeItem(item)
	if err != nil {
		return stored{}, err
	}
	st := stored{sort: sort, attrs: attrs, exists: true}
	if _, dead := item[TombstoneAttr]; dead {
		st.exists, st.attrs = false, nil
	}
	if st.ts, err = numberAttr(item, VersionAttr); err != nil {
		return stored{}, err
	}
	if shr, ok := item[ShareLocksAttr].(*types.AttributeValueMemberBS); ok {
		st.sharers = shr.Value
	}
	txn, ok := item[IntentTxnAttr].(*types.AttributeValueMemberB)
	if !ok {
		return st, nil
	}
	op, err := numberAttr(item, IntentOpAttr)
	if err != nil {
		return stored{}, err
	}
	st.intent = &intent{txn: txn.Value, op: intentOp(op)}
	if op == int64(opPut) {
		m, ok := item[IntentValueAttr].(*types.AttributeValueMemberM)
		if !ok {
			return stored{}, fmt.Errorf("dynamodb: intent of a put without %s", IntentValueAttr)
		}
		st.intent.value = m.Value
	}
	return st, nil
}

// numberAttr reads an N attribute holding an int64 (0 when absent).
func numberAttr(item map[string]types.AttributeValue, name string) (int64, error) {
	v, ok := item[name]
	if !ok {
		return 0, nil
	}
	n, ok := v.(*types.AttributeValueMemberN)
	if !ok {
		return 0, fmt.Errorf("dynamodb: attribute %s is %T, want N", name, v)
	}
	i, err := strconv.ParseInt(n.Value, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("dynamodb: attribute %s: %w", name, err)
	}
	return i, nil
}

func numberValue(i int64) *types.AttributeValueMemberN {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(i, 10)}
}

// committedView is the version an intent's transaction leaves once
// committed at ts.
func committedView(st stored, ts int64) (view, error) {
	v := view{sort: st.sort, exists: st.exists, attrs: st.attrs, ts: ts}
	switch st.intent.op {
	case opPut:
		_, attrs, err := decodeItem(st.intent.value)
		if err != nil {
			return view{}, err
		}
		v.exists, v.attrs = true, attrs
	case opDelete:
		v.exists, v.attrs = false, nil
	case opLockShare:
		v.ts = st.ts
	}
	return v, nil
}

func baseView(st stored) view {
	return view{sort: st.sort, exists: st.exists, attrs: st.attrs, ts: st.ts}
}

// putItem is the item a put of attrs at commit timestamp ts writes.
func putItem(k kv.Key, attrs []kv.Attr, ts int64) (map[string]types.AttributeValue, error) {
	item, err := encodeItem(k, attrs)
	if err != nil {
		return nil, err
	}
	item[VersionAttr] = numberValue(ts)
	return item, nil
}

// tombstoneItem is the item a delete at commit timestamp ts leaves: it
// remembers when the key was deleted, for readers whose snapshot is older,
// until DynamoDB's TTL removes it.
func tombstoneItem(k kv.Key, ts int64, ttl time.Duration) map[string]types.AttributeValue {
	item := keyAttrs(k)
	item[VersionAttr] = numberValue(ts)
	item[TombstoneAttr] = &types.AttributeValueMemberBOOL{Value: true}
	item[ExpiresAttr] = numberValue(time.Now().Add(ttl).Unix())
	return item
}

// clock hands out commit timestamps: microseconds since the Unix epoch,
// strictly increasing within the process and kept above every timestamp
// the process has seen (a hybrid logical clock), so a proxy's later
// snapshots include its earlier commits and its commits order after the
// versions they replace, whatever the skew between proxies' clocks.
type clock struct {
	mu   sync.Mutex
	last int64
	now  func() time.Time // time.Now, replaceable in tests
}

// next returns a timestamp greater than any returned or observed before.
func (c *clock) next() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.last = max(c.last+1, c.now().UnixMicro())
	return c.last
}

// observe makes later timestamps exceed ts.
func (c *clock) observe(ts int64) {
	c.mu.Lock()
	c.last = max(c.last, ts)
	c.mu.Unlock()
}
