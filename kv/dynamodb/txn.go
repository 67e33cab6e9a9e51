package dynamodb

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/kv/kvtxn"
)

// Transactions (kv.Transactional); TRANSACTIONS.md has the design and the
// isolation argument. In short: a transaction has a snapshot timestamp S;
// it reads the latest committed versions (strongly consistent) and
// remembers what it read (keys with their versions, scanned ranges with a
// digest). A version newer than S, or young enough that a commit with an
// older timestamp might still have been landing when the transaction read
// something else, makes it re-read everything it read so far: if nothing
// changed, all its reads hold at one moment and S moves forward; if
// something did, it fails with a *kv.ConflictError. Commit writes with
// conditions on the versions read (and, for keys not read, on no version
// newer than S): first committer wins. Up to 100 writes commit in one
// TransactWriteItems; more go through intents and a transaction record.

var _ kv.Transactional = (*Store)(nil)

// Begin starts a transaction. It makes no request.
func (s *Store) Begin(ctx context.Context, opts kv.TxnOptions) (kv.Txn, error) {
	if s.closed.Load() {
		return nil, kv.ErrClosed
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if opts.Serializable {
		// Its transactions are snapshot isolation only: a reader leaves
		// no trace another proxy's commit could check against.
		return nil, kv.ErrSerializableUnsupported
	}
	if opts.Snapshot != "" {
		// DynamoDB keeps no old versions to share: nothing is ever
		// exported (kvtxn.Txn.ExportSnapshot).
		return nil, kv.ErrUnknownSnapshot
	}
	now := s.clock.next()
	b := &txnBackend{s: s, snap: now, checked: now, points: map[string]*point{}, pending: map[string]record{}, purge: opts.PurgeDeletes}
	return kvtxn.New(b, opts), nil
}

// LateCommits counts commits whose commit request took longer than the
// uncertainty window: their writes may have become visible too late for a
// concurrent reader's snapshot (TRANSACTIONS.md, "Isolation").
func (s *Store) LateCommits() int64 { return s.lateCommits.Load() }

// point is a key a transaction read and the version it saw, kept so that
// reading the key again returns the same version (repeatable reads) even
// after another transaction replaced it.
type point struct {
	key    kv.Key
	exists bool
	ts     int64
	attrs  []kv.Attr
}

// span is a range a transaction scanned: [lo, hi) of one partition (nil
// bounds are open), and a digest of the versions of the items in it.
type span struct {
	partition []byte
	lo, hi    []byte
	covered   bool // lo, hi describe something read
	sum       uint64
	n         int
}

func (sp *span) add(v view) {
	if !v.exists {
		return
	}
	sp.sum += itemHash(v.sort, v.ts)
	sp.n++
}

func itemHash(sort []byte, ts int64) uint64 {
	h := fnv.New64a()
	h.Write(sort)
	var b [8]byte
	for i := range b {
		b[i] = byte(ts >> (8 * i))
	}
	h.Write(b[:])
	return h.Sum64()
}

// txnBackend is a transaction's reads and commit (kvtxn.Backend).
type txnBackend struct {
	s       *Store
	snap    int64 // S: versions up to it are visible
	checked int64 // clock reading when the reads were last all validated
	points  map[string]*point
	spans   []*span
	pending map[string]record // pending records pushed (readMode.pending)
	// gen counts the moves of snap and checked: a page prefetched before
	// a move is read again (iterator.epoch), since it may miss a commit
	// the moved snapshot covers.
	gen uint64
	// purge removes the tombstones of the transaction's deletes after its
	// commit (kv.TxnOptions.PurgeDeletes).
	purge bool
}

func (b *txnBackend) mode(stats *kv.Stats) readMode {
	return readMode{snapshot: b.snap, stats: stats, pending: b.pending}
}

func (b *txnBackend) Get(ctx context.Context, req kv.GetRequest) ([]kv.Item, error) {
	out := make([]kv.Item, len(req.Keys))
	var fresh []kv.Key
	var at []int
	for i, k := range req.Keys {
		if p, seen := b.points[keyString(k)]; seen {
			if p.exists {
				out[i] = foundItem(k, p.attrs)
			}
			continue
		}
		fresh = append(fresh, k)
		at = append(at, i)
	}
	if len(fresh) == 0 {
		return out, nil
	}
	views, err := b.read(ctx, fresh, req.Stats)
	if err != nil {
		return nil, err
	}
	if err := b.check(ctx, views, len(fresh) > 1, req.Stats); err != nil {
		return nil, err
	}
	for j, v := range views {
		if v.exists {
			out[at[j]] = foundItem(fresh[j], v.attrs)
		}
	}
	return out, nil
}

// read reads keys (strongly consistent), resolves them for this
// transaction and records what it saw. Seeing a key again at another
// version than before is a conflict: the earlier read is no longer true.
func (b *txnBackend) read(ctx context.Context, keys []kv.Key, stats *kv.Stats) ([]view, error) {
	raw, err := b.s.getRaw(ctx, keys, true, stats)
	if err != nil {
		return nil, err
	}
	views := make([]view, len(keys))
	for i, item := range raw {
		if item != nil {
			st, err := decodeStored(item)
			if err != nil {
				return nil, err
			}
			if views[i], err = b.s.resolve(ctx, keys[i], st, b.mode(stats)); err != nil {
				return nil, err
			}
		}
		b.s.clock.observe(views[i].ts)
		ks := keyString(keys[i])
		if p, seen := b.points[ks]; seen {
			if p.exists != views[i].exists || p.ts != views[i].ts {
				return nil, &kv.ConflictError{Key: keys[i], Reason: "the key changed since this transaction read it"}
			}
			continue
		}
		b.points[ks] = &point{key: kv.Key{Partition: clone(keys[i].Partition), Sort: clone(keys[i].Sort)}, exists: views[i].exists, ts: views[i].ts, attrs: views[i].attrs}
	}
	return views, nil
}

func clone(b []byte) []byte { return append([]byte{}, b...) }

// check decides whether views, just read and recorded, can join the
// transaction's snapshot as they are. A version newer than the snapshot,
// or younger than the uncertainty window, could come from a commit that
// landed between this transaction's earlier reads and these: then
// everything read so far is read again, and if it is unchanged the
// snapshot moves up to the newest version (else a conflict). several
// says the views were not read at one instant (more than one item).
func (b *txnBackend) check(ctx context.Context, views []view, several bool, stats *kv.Stats) error {
	var newest int64
	for _, v := range views {
		newest = max(newest, v.ts)
	}
	if newest <= b.snap && newest <= b.checked-b.s.uncertainty.Microseconds() {
		return nil
	}
	if !several && len(b.points)+len(b.spans) <= 1 {
		// Nothing else was read: these views alone are consistent.
		b.snap = max(b.snap, newest)
		b.checked = b.s.clock.next()
		b.gen++
		return nil
	}
	return b.validate(ctx, newest, stats)
}

// validate re-reads everything the transaction read, at a snapshot of at
// least newest, and fails with a *kv.ConflictError if anything changed.
func (b *txnBackend) validate(ctx context.Context, newest int64, stats *kv.Stats) error {
	snap := max(b.snap, newest)
	start := b.s.clock.next()
	saved := b.snap
	b.snap = snap // push pending writers above the new snapshot
	keys := make([]kv.Key, 0, len(b.points))
	var want []*point
	for _, p := range b.points {
		keys = append(keys, p.key)
		want = append(want, p)
	}
	raw, err := b.s.getRaw(ctx, keys, true, stats)
	if err != nil {
		b.snap = saved
		return err
	}
	for i, item := range raw {
		var v view
		if item != nil {
			st, err := decodeStored(item)
			if err != nil {
				b.snap = saved
				return err
			}
			if v, err = b.s.resolve(ctx, keys[i], st, b.mode(stats)); err != nil {
				b.snap = saved
				return err
			}
		}
		if v.exists != want[i].exists || v.ts != want[i].ts {
			b.snap = saved
			return &kv.ConflictError{Key: keys[i], Reason: "a key this transaction read changed before it could move its snapshot"}
		}
	}
	for _, sp := range b.spans {
		if !sp.covered {
			continue
		}
		again := &span{}
		it := b.s.scan(ctx, kv.ScanRequest{Partition: sp.partition, Start: sp.lo, End: sp.hi, Consistent: true, Stats: stats}, b.mode(stats), func(p pageInfo) error {
			for _, v := range p.views {
				again.add(v)
			}
			return nil
		})
		for it.Next() {
		}
		err := it.Err()
		it.Close()
		if err != nil {
			b.snap = saved
			return err
		}
		if again.sum != sp.sum || again.n != sp.n {
			b.snap = saved
			return &kv.ConflictError{Key: kv.Key{Partition: sp.partition, Sort: sp.lo}, Reason: "a range this transaction read changed before it could move its snapshot"}
		}
	}
	b.checked = start
	b.gen++
	return nil
}

func (b *txnBackend) Scan(ctx context.Context, req kv.ScanRequest) kv.Iterator {
	req.Consistent = true
	var it *iterator
	var sp *span
	it = b.s.scan(ctx, req, b.mode(req.Stats), func(p pageInfo) error {
		if p.restart || sp == nil {
			sp = &span{partition: clone(req.Partition)}
			if req.Reverse {
				sp.hi = p.hi
			} else {
				sp.lo = p.lo
			}
			b.spans = append(b.spans, sp)
		}
		for _, v := range p.views {
			sp.add(v)
			b.s.clock.observe(v.ts)
		}
		switch {
		case p.done && req.Reverse:
			sp.lo, sp.covered = p.lo, true
		case p.done:
			sp.hi, sp.covered = p.hi, true
		case len(p.views) == 0:
		case req.Reverse:
			sp.lo, sp.covered = clone(p.views[len(p.views)-1].sort), true
		default:
			sp.hi, sp.covered = append(clone(p.views[len(p.views)-1].sort), 0), true
		}
		if err := b.check(ctx, p.views, true, req.Stats); err != nil {
			return err
		}
		it.mode = b.mode(req.Stats) // the snapshot may have moved
		return nil
	})
	it.epoch = func() uint64 { return b.gen }
	it.remode = func() readMode { return b.mode(req.Stats) }
	return it
}

func (b *txnBackend) Release() {}

// Commit writes the transaction: one TransactWriteItems when it fits,
// else intents and a transaction record.
var _ kvtxn.KeyChecker = (*txnBackend)(nil)

// CheckKey implements kvtxn.KeyChecker: the keys DynamoDB cannot store are
// refused when written, not at the commit.
func (b *txnBackend) CheckKey(k kv.Key) error { return checkKeySize(k) }

func (b *txnBackend) Commit(ctx context.Context, writes []kvtxn.Write, stats *kv.Stats) error {
	if b.s.closed.Load() {
		return kv.ErrClosed
	}
	for _, w := range writes {
		if err := checkKeySize(w.Key); err != nil {
			return err
		}
	}
	// A lock says nothing about whether its key exists; read the locked
	// keys this transaction has not read (and, for intents, every key).
	large := len(writes) > maxTransactItems
	var unread []kv.Key
	for _, w := range writes {
		if _, seen := b.points[keyString(w.Key)]; !seen && (large || w.Kind.IsLock()) {
			unread = append(unread, w.Key)
		}
	}
	if len(unread) > 0 {
		// These keys were not read, so their versions must be as of the
		// snapshot (first committer wins), not moved up to.
		views, err := b.read(ctx, unread, stats)
		if err != nil {
			return err
		}
		for i, v := range views {
			if v.ts > b.snap {
				return &kv.ConflictError{Key: unread[i], Reason: "another transaction wrote this key after this transaction's snapshot"}
			}
		}
	}
	if !large {
		_, size, err := b.transactItems(writes, 0)
		if err != nil {
			return err
		}
		if size <= maxTransactBytes {
			return b.commitSmall(ctx, writes, stats)
		}
	}
	return b.commitLarge(ctx, writes, stats)
}

// maxTransactBytes keeps a TransactWriteItems below DynamoDB's 4 MB, with
// room for expressions.
const maxTransactBytes = 3 << 20

// versionCond is the condition that the item under w.Key still holds the
// version the transaction saw, or, for a key it never read, no version
// newer than its snapshot.
func (b *txnBackend) versionCond(k kv.Key, names map[string]string, values map[string]types.AttributeValue) string {
	p, seen := b.points[keyString(k)]
	switch {
	case !seen:
		names["#ts"] = VersionAttr
		values[":snap"] = numberValue(b.snap)
		return "(attribute_not_exists(#ts) OR #ts <= :snap)"
	case p.ts > 0:
		names["#ts"] = VersionAttr
		values[":seen"] = numberValue(p.ts)
		return "#ts = :seen"
	case p.exists:
		names["#p"], names["#ts"], names["#del"] = PartitionKeyAttr, VersionAttr, TombstoneAttr
		return "attribute_exists(#p) AND attribute_not_exists(#ts) AND attribute_not_exists(#del)"
	default:
		names["#p"] = PartitionKeyAttr
		return "attribute_not_exists(#p)"
	}
}

// transactItems builds the TransactWriteItems of writes at commit
// timestamp ts, and estimates its size.
func (b *txnBackend) transactItems(writes []kvtxn.Write, ts int64) ([]types.TransactWriteItem, int, error) {
	items := make([]types.TransactWriteItem, len(writes))
	size := 0
	for i, w := range writes {
		names := map[string]string{}
		values := map[string]types.AttributeValue{}
		blockers := noIntent(names)
		if b.exclusive(w) {
			blockers = noBlockers(names)
		}
		cond := aws.String(blockers + " AND " + b.versionCond(w.Key, names, values))
		if len(values) == 0 {
			values = nil
		}
		old := types.ReturnValuesOnConditionCheckFailureAllOld
		p := b.points[keyString(w.Key)]
		switch {
		case w.Kind == kvtxn.WritePut:
			item, err := putItem(w.Key, w.Attrs, ts)
			if err != nil {
				return nil, 0, err
			}
			size += itemSize(item)
			items[i].Put = &types.Put{TableName: &b.s.table, Item: item, ConditionExpression: cond,
				ExpressionAttributeNames: names, ExpressionAttributeValues: values, ReturnValuesOnConditionCheckFailure: old}
		case w.Kind == kvtxn.WriteDelete:
			items[i].Put = &types.Put{TableName: &b.s.table, Item: tombstoneItem(w.Key, ts, b.s.tombstoneTTL), ConditionExpression: cond,
				ExpressionAttributeNames: names, ExpressionAttributeValues: values, ReturnValuesOnConditionCheckFailure: old}
		case w.Kind == kvtxn.WriteLockUpdate && p != nil && p.exists:
			// Joins the write set: the version moves to the commit
			// timestamp, so a concurrent writer of the key conflicts.
			names["#ts"] = VersionAttr
			if values == nil {
				values = map[string]types.AttributeValue{}
			}
			values[":cts"] = numberValue(ts)
			items[i].Update = &types.Update{TableName: &b.s.table, Key: keyAttrs(w.Key), UpdateExpression: aws.String("SET #ts = :cts"),
				ConditionExpression: cond, ExpressionAttributeNames: names, ExpressionAttributeValues: values, ReturnValuesOnConditionCheckFailure: old}
		default:
			// A share lock, or a lock of an absent key: check only.
			items[i].ConditionCheck = &types.ConditionCheck{TableName: &b.s.table, Key: keyAttrs(w.Key), ConditionExpression: cond,
				ExpressionAttributeNames: names, ExpressionAttributeValues: values, ReturnValuesOnConditionCheckFailure: old}
		}
		size += len(w.Key.Partition) + len(w.Key.Sort) + 64
	}
	return items, size, nil
}

// exclusive reports whether w's action in a small transaction excludes
// other transactions' share locks: a put, a delete, an update lock of an
// item (which moves its version); a share lock, and a lock of an absent
// key, are only checked.
func (b *txnBackend) exclusive(w kvtxn.Write) bool {
	switch w.Kind {
	case kvtxn.WritePut, kvtxn.WriteDelete:
		return true
	case kvtxn.WriteLockUpdate:
		p := b.points[keyString(w.Key)]
		return p != nil && p.exists
	}
	return false
}

// commitSmall commits in one TransactWriteItems. A failed version
// condition is a *kv.ConflictError; an intent in the way is cleared (or,
// when its transaction is alive, a conflict) and the request retried.
func (b *txnBackend) commitSmall(ctx context.Context, writes []kvtxn.Write, stats *kv.Stats) error {
	s := b.s
	for failures := 0; ; {
		s.clock.observe(b.snap)
		ts := s.clock.next()
		chosen := time.Now()
		items, _, err := b.transactItems(writes, ts)
		if err != nil {
			return err
		}
		start := time.Now()
		resp, err := s.client.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{
			TransactItems:          items,
			ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
		})
		if err == nil {
			s.observe("transact_write", start, nil, resp.ConsumedCapacity, stats)
			stats.AddWritten(len(items))
			if time.Since(chosen) > s.uncertainty {
				s.lateCommits.Add(1)
			}
			b.purgeTombstones(ctx, writes, ts, stats)
			return nil
		}
		s.observe("transact_write", start, err, nil, stats)
		var canceled *types.TransactionCanceledException
		if !errors.As(err, &canceled) {
			return s.classify(ctx, "transact_write", fmt.Errorf("dynamodb: TransactWriteItems: %w", err))
		}
		retry, contended := false, false
		for i, r := range canceled.CancellationReasons {
			switch aws.ToString(r.Code) {
			case "ConditionalCheckFailed":
				if i >= len(writes) {
					return fmt.Errorf("dynamodb: TransactWriteItems reported a failed condition on item %d of %d: %w", i, len(writes), err)
				}
				st, derr := decodeStored(r.Item)
				if derr != nil {
					return &kv.ConflictError{Key: writes[i].Key, Reason: "another transaction wrote this key after this transaction's snapshot"}
				}
				cleared, err := s.clearBlockers(ctx, writes[i].Key, st, b.exclusive(writes[i]), stats)
				if err != nil {
					return err
				}
				if !cleared {
					return &kv.ConflictError{Key: writes[i].Key, Reason: "another transaction wrote this key after this transaction's snapshot"}
				}
				retry = true
			case "TransactionConflict", "ThrottlingError", "ProvisionedThroughputExceeded":
				retry, contended = true, true
			}
		}
		if contended {
			failures++ // one per attempt, however many of its items met contention
		}
		if !retry {
			return fmt.Errorf("dynamodb: TransactWriteItems: %w", err)
		}
		if failures >= s.maxAttempts {
			return &kv.ConflictError{Reason: fmt.Sprintf("TransactWriteItems still canceled after %d attempts: %v", failures, err)}
		}
		if failures > 0 {
			if err := s.backoff(ctx, failures); err != nil {
				return err
			}
		}
	}
}
