package kv

import (
	"bytes"
	"context"
	"errors"
	"math"
	"strconv"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// Key addresses one item. Partition groups items that can be range-scanned
// together; Sort orders items within a partition (bytewise, unsigned).
type Key struct {
	Partition []byte
	Sort      []byte
}

// AttrKind is the type of an attribute value, chosen to map one-to-one onto
// DynamoDB's scalar types (N carries both Int and Float).
type AttrKind uint8

// Attribute kinds.
const (
	AttrNull AttrKind = iota
	AttrBool
	AttrInt
	AttrFloat
	AttrString
	AttrBytes
)

// Attr is one named attribute of an item's value. Exactly one of I, F, S, B
// is meaningful, as Kind says (AttrBool uses I: 0 or 1).
//
// ID, when not 0, is a number that stands for Name in every item of the
// writer's kind (a table's column id): a store whose Capabilities.AttrIDs
// is set keeps it beside the name, and matches a request's AttrIDs against
// it instead of comparing names. Stores without it ignore it; names always
// stay the attribute's identity.
type Attr struct {
	Name string
	Kind AttrKind
	ID   uint16 // in Kind's padding: an Attr is no larger for it
	I    int64
	F    float64
	S    string
	B    []byte
}

// Item is a key and its attributes.
type Item struct {
	Key   Key
	Attrs []Attr
}

// Condition guards one write in a batch.
type Condition uint8

// Conditions. A failed condition fails the whole batch with a
// *ConditionFailedError and writes nothing.
const (
	CondNone      Condition = iota
	CondNotExists           // the item must not exist (INSERT uniqueness)
	CondExists              // the item must exist
	// CondAttrEquals is compare-and-set: the item must exist and its
	// attribute named Op.CondAttr.Name must equal Op.CondAttr (kind and
	// value; an absent attribute equals an AttrNull). UPDATE and DELETE use
	// it on a row version so a concurrent change is never overwritten.
	CondAttrEquals
)

// OpKind is a put or a delete.
type OpKind uint8

// Write operation kinds.
const (
	OpPut OpKind = iota
	OpDelete
)

// Op is one write in a Batch.
type Op struct {
	Kind  OpKind
	Key   Key
	Attrs []Attr // for OpPut
	Cond  Condition
	// CondAttr is the expected attribute of a CondAttrEquals condition.
	CondAttr Attr
}

// SameValue reports whether two attributes hold the same value: the same
// kind and an equal value (floats by bit pattern). Names are not compared.
func SameValue(a, b Attr) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case AttrNull:
		return true
	case AttrBool, AttrInt:
		return a.I == b.I
	case AttrFloat:
		return math.Float64bits(a.F) == math.Float64bits(b.F)
	case AttrString:
		return a.S == b.S
	case AttrBytes:
		return bytes.Equal(a.B, b.B)
	}
	return false
}

// Lookup returns the attribute named name, or an AttrNull if there is none.
func Lookup(attrs []Attr, name string) Attr {
	for _, a := range attrs {
		if a.Name == name {
			return a
		}
	}
	return Attr{Name: name, Kind: AttrNull}
}

// Batch is a list of writes. When Atomic is set, all ops apply or none do,
// and the batch must not exceed Capabilities.MaxAtomicOps (the caller
// splits); conditions are only allowed in atomic batches, and each is
// checked against the store as the batch's earlier ops leave it (two puts
// of one new key with CondNotExists: the second fails). A non-atomic batch
// may be of any size and is applied in backend-sized chunks, each durable
// before Write returns.
type Batch struct {
	Ops    []Op
	Atomic bool
	Stats  *Stats // optional, per-statement accounting
	// Fresh says that the transaction's snapshot holds no key of any op
	// (their partitions were created by the transaction itself), so
	// Txn.Write decides the conditions from the transaction's own writes
	// alone, without reading the snapshot. Store.Write ignores it: a
	// plain write has no snapshot of its own to rule out.
	Fresh bool
}

// GetRequest reads a set of exact keys.
type GetRequest struct {
	Keys []Key
	// Consistent asks for a strongly consistent read where the backend
	// offers a choice (DynamoDB); the embedded store always is.
	Consistent bool
	Stats      *Stats
	// Attrs, when non-nil, names the attributes the caller reads, as
	// ScanRequest.Attrs does: a backend may leave the others out.
	Attrs []string
	// AttrIDs, when non-nil, gives the ID of each of Attrs (0 where it has
	// none), as ScanRequest.AttrIDs does.
	AttrIDs []uint16
}

// ScanRequest reads the items of one partition whose sort keys lie in the
// half-open range [Start, End). A nil Start is the beginning of the
// partition; a nil End is its end.
type ScanRequest struct {
	Partition []byte
	Start     []byte
	End       []byte
	// Reverse returns items in descending sort-key order.
	Reverse bool
	// Limit, when positive, is a hint that the caller will stop after that
	// many items; backends use it to size pages. Iterators may return more.
	Limit      int
	Consistent bool
	Stats      *Stats
	// Attrs, when non-nil, names the attributes the caller reads: a backend
	// may leave the others out of the items it returns (kv/pebble decodes
	// nothing else). nil returns every attribute.
	Attrs []string
	// AttrIDs, when non-nil, has one entry per Attrs entry: its ID (Attr.ID),
	// or 0 for an attribute written without one. A store with
	// Capabilities.AttrIDs finds the attributes of items written with IDs
	// by them alone, never comparing names; others ignore it.
	AttrIDs []uint16
	// Reread says the caller will likely scan this exact range again
	// soon, whole and forward (a gin index's posting list for a token): a
	// backend may keep the range's items in memory for the next scan
	// (kv/pebble's range cache), reading a range it keeps whole at once.
	Reread bool
}

// Iterator streams the items of a Scan. Use it as:
//
//	for it.Next() { item := it.Item() ... }
//	if err := it.Err(); err != nil { ... }
//	it.Close()
//
// The Item returned, its key and its Attrs (their slices, strings and bytes
// included), is valid until the next call to Next or Seek: backends may
// decode in place. Copy what you keep.
type Iterator interface {
	Next() bool
	Item() Item
	// Seek repositions the iterator within the request's range. Forward, the
	// next call to Next returns the first item with sort key >= sort; in
	// reverse, the first item with sort key < sort (sort is then an
	// exclusive upper bound, like ScanRequest.End). Seeking against the scan
	// direction is not allowed. Backends that read in pages restart their
	// request at sort.
	Seek(sort []byte)
	Err() error
	Close() error
}

// FailedIterator returns an Iterator that yields nothing and reports err:
// a Scan that failed before it started (a closed store, a transaction
// already over).
func FailedIterator(err error) Iterator { return failedIterator{err} }

type failedIterator struct{ err error }

func (e failedIterator) Next() bool   { return false }
func (e failedIterator) Item() Item   { return Item{} }
func (e failedIterator) Seek([]byte)  {}
func (e failedIterator) Err() error   { return e.err }
func (e failedIterator) Close() error { return nil }

// KeyIterator is an Iterator that gives the current item's key without its
// attributes, which its Item then decodes, so a caller that skips items by
// their key alone (a Z-order skip-scan skips the entries outside its box)
// never pays for their values. kv/pebble's iterators are KeyIterators.
type KeyIterator interface {
	Iterator
	// Key is Item().Key, valid as long as Item's.
	Key() Key
}

// KeyList is the sort keys of a scan's items, in order, held in memory:
// read-only, valid as long as the caller keeps them.
type KeyList interface {
	Len() int
	At(i int) []byte
	// Seek returns the first position after from whose key, less its
	// first skip bytes, is not below key; Len() when there is none. It
	// gallops from from (1, 2, 4, ... entries ahead, then a binary
	// search), so a short step costs a comparison or two: an intersection
	// of lists seeks each a little way many times, and one call a seek,
	// rather than one an entry compared, keeps the search in the list's
	// own package.
	Seek(from, skip int, key []byte) int
}

// KeyLister is an Iterator whose items are held in memory (kv/pebble's
// range cache keeps the ranges a scan asks to keep, ScanRequest.Reread):
// it can give the sort keys of all its items at once, so a caller that
// intersects several lists (a gin index's zig-zag) searches them instead
// of stepping an iterator through each. Wrappers forward it; false means
// the iterator cannot (its items are not held, or a transaction merges
// its own writes into them).
type KeyLister interface {
	SortKeys() (KeyList, bool)
}

// ListSortKeys returns it's KeyList when it is a KeyLister that has one.
func ListSortKeys(it Iterator) (KeyList, bool) {
	if l, ok := it.(KeyLister); ok {
		return l.SortKeys()
	}
	return nil, false
}

// ScalarIterator is an Iterator that can read the current item's requested
// attributes (ScanRequest.Attrs with AttrIDs) into the caller's slots
// without building an Attr for each: no name, no string header, no 80-byte
// struct a column, and the caller's decoder knows each slot's column
// without matching the attribute to it. A scan's per-row decode is then one
// walk of the value, not a decode into attributes and another of those
// into values. kv/pebble's iterators are ScalarIterators for values in its
// format 2 (written with IDs).
type ScalarIterator interface {
	KeyIterator
	// Scalars fills dst, one slot per attribute of the request (in its
	// Attrs order; len(dst) == len(Attrs)), with the current item's
	// attributes: a slot whose attribute the item lacks has Present
	// false. It reports false, leaving dst undefined, when the item cannot
	// be read so (a value without IDs, an attribute whose ID does not go
	// with the requested name, a value that does not decode); the caller
	// then reads Item as before, which gives the same attributes or the
	// error. The slots' B aliases the store's memory, valid until the
	// iterator moves.
	Scalars(dst []Scalar) bool
}

// Scalar is one attribute as ScalarIterator reads it: Attr without its
// name, ID and S (a String's bytes are in B, as a Bytes' are).
type Scalar struct {
	Kind    AttrKind
	Present bool
	I       int64
	F       float64
	B       []byte
}

// Attr returns s as the attribute named name with ID id, its String or
// Bytes payload aliasing s.B (an empty Bytes is non-nil, as an Attr's is).
func (s *Scalar) Attr(name string, id uint16) Attr {
	a := Attr{Name: name, Kind: s.Kind, ID: id, I: s.I, F: s.F}
	switch s.Kind {
	case AttrString:
		if len(s.B) > 0 {
			a.S = unsafe.String(&s.B[0], len(s.B))
		}
	case AttrBytes:
		a.B = s.B[:len(s.B):len(s.B)]
		if a.B == nil {
			a.B = []byte{}
		}
	}
	return a
}

// Rescanner is an Iterator that can be moved onto another range of its
// request's partition instead of being closed and replaced by a new Scan:
// a caller reading ranges one after another (a Z-order scan's ranges)
// keeps one iterator for all of them. kv/pebble's iterators keep their
// Pebble iterator, which then need not be built again nor sought from the
// top of every level: ranges in scan order move its sstable iterators
// forward within the blocks they hold.
type Rescanner interface {
	Iterator
	// Rescan makes the iterator yield what a new Scan of its request with
	// Start and End replaced by start and end would (the same partition,
	// direction, attributes and Stats), read from the view of the store it
	// read so far or a later one. It reports false, changing nothing,
	// when it cannot (an iterator that failed, was closed, or reads a
	// transaction's snapshot, whose buffered writes a new Scan would
	// merge in); the caller then closes it and opens a new Scan.
	Rescan(start, end []byte) bool
}

// Prefetcher is an Iterator that can start its first request before its
// first Next: a caller reading ranges one after another in key order opens
// the next few ranges' iterators early and calls Prefetch on each, so their
// round trips overlap the reading of the current range (Capabilities.
// ScanFanout says how many). A prefetched iterator yields exactly what it
// would have yielded unprefetched: only the request is sent early; whatever
// the page's items need beyond it (resolving a transaction's intents, its
// read bookkeeping) happens on the caller's goroutine when Next or Seek
// first reaches the page, and a transaction's page that an intervening read
// made stale is read again. Prefetch costs one page of memory until the
// iterator is read or closed; Close cancels a request still in flight.
type Prefetcher interface {
	Iterator
	// Prefetch starts reading the iterator's first page, at most once;
	// after Next or Seek it does nothing. It reports false when the
	// iterator cannot prefetch (a wrapper of one that cannot).
	Prefetch() bool
}

// Prefetch starts it's first page early when it is a Prefetcher and
// reports whether it is: what a wrapping iterator's Prefetch does.
func Prefetch(it Iterator) bool {
	p, ok := it.(Prefetcher)
	return ok && p.Prefetch()
}

// Capabilities describes what a backend can do; the optimizer and executor
// read it instead of asking which backend they run on.
type Capabilities struct {
	// Name identifies the backend in metrics and EXPLAIN ("pebble", "dynamodb").
	Name string
	// MaxAtomicOps is the most ops an atomic Batch may hold (0: unlimited).
	MaxAtomicOps int
	// MaxGetKeys is the most keys one store request reads (0: unlimited);
	// Get accepts any number and splits internally.
	MaxGetKeys int
	// CheapSeek is true when Seek on an open iterator costs about as much as
	// Next (an embedded LSM), false when each Seek is a new round trip
	// (DynamoDB). The optimizer uses it to pick Z-order skip-scan versus a
	// budgeted set of ranges.
	CheapSeek bool
	// RequestLatency is a rough cost of one store request, for the planner.
	RequestLatency time.Duration
	// Exclusive is true when this process is the store's only client (an
	// embedded store locks its directory): what it caches of the store,
	// such as the catalog, changes only through its own writes. A shared
	// store (DynamoDB, where many proxies serve one table) is false.
	Exclusive bool
	// Isolation is the isolation level of the backend's transactions
	// (IsolationSnapshot), as SHOW transaction_isolation reports it; empty
	// when the backend has no transactions.
	Isolation string
	// ReadUnitBytes is the item size a read capacity unit pays for, on a
	// store that charges reads by size (DynamoDB: 4096 bytes for a
	// strongly consistent read, half a unit eventually consistent); 0 for
	// a store that charges nothing. EXPLAIN estimates a statement's
	// capacity with it.
	ReadUnitBytes int
	// WriteUnitBytes is the item size a write capacity unit pays for
	// (DynamoDB: 1024 bytes; a transactional write pays twice); 0 for a
	// store that charges nothing.
	WriteUnitBytes int
	// KeepsVersions is true when a transaction can read its snapshot's
	// version of a key after another transaction replaced it (Pebble). A
	// backend without old versions (DynamoDB) answers such a read with a
	// *ConflictError (40001) instead: it never returns a mix of old and
	// new, but a long read-only transaction over changing data may fail.
	// Keys the transaction already read are kept either way.
	KeepsVersions bool
	// ScanFanout is how many ranges of one scan's shard the executor reads
	// at once on a store whose iterators prefetch (Prefetcher): the
	// current range and up to ScanFanout-1 after it, each one page at a
	// time. The optimizer divides a range's request latency by it. 0 or 1:
	// ranges are read one after another.
	ScanFanout int
	// AttrIDs is true when the store keeps attributes' IDs (Attr.ID) and
	// uses a request's AttrIDs to pick them out (kv/pebble's value format
	// 2); false when items are named attributes only (DynamoDB).
	AttrIDs bool
	// Serializable is true when the store's transactions can be begun
	// serializable (TxnOptions.Serializable): besides snapshot isolation's
	// first-committer-wins, such a transaction's commit fails with a
	// *ConflictError (ReadWrite) when a transaction that committed after
	// its snapshot wrote a key it read, so that write skew is impossible.
	// A store without it refuses such a Begin with
	// ErrSerializableUnsupported.
	Serializable bool
}

// Store is a sorted key-value store.
type Store interface {
	// Get returns the items that exist among req.Keys, in the same order as
	// the keys, with nil Attrs (and a nil Key.Partition) for keys that are
	// missing. Use Found to test. The items' attributes are the caller's:
	// unlike a Scan's (Iterator), their strings and bytes are never
	// rewritten, so values may keep them without a copy.
	Get(ctx context.Context, req GetRequest) ([]Item, error)
	// Scan opens an iterator over a partition's sort-key range.
	Scan(ctx context.Context, req ScanRequest) Iterator
	// Write applies a batch. See Batch for atomicity.
	Write(ctx context.Context, b Batch) error
	// Capabilities reports the backend's limits.
	Capabilities() Capabilities
	// Close releases the store. Writes acknowledged before Close are durable.
	Close() error
}

// Snapshotter is implemented by stores that can read from one point in
// time without a transaction (Pebble). A statement outside a transaction
// block that reads the store more than once reads through one, as
// PostgreSQL's statement snapshot: it never sees part of a transaction
// that commits while it runs.
type Snapshotter interface {
	// Snapshot returns a view of the store as it is now; nil (and no
	// error) when this store cannot take one (a wrapper over a store
	// without snapshots).
	Snapshot(ctx context.Context) (Snapshot, error)
}

// Snapshot is a Snapshotter's view of its store at one point in time. Its
// Get and Scan read that state whatever commits later, as Store's do
// otherwise; they may be called concurrently. Release ends the view (and
// the store's old versions it keeps); it is called once, after its
// iterators are closed.
type Snapshot interface {
	Get(ctx context.Context, req GetRequest) ([]Item, error)
	Scan(ctx context.Context, req ScanRequest) Iterator
	Release()
}

// BulkWriter is implemented by stores whose atomic batches have no size
// limit (Capabilities.MaxAtomicOps 0) and that can take one such batch
// piece by piece: a COPY of millions of rows, all or nothing, without
// holding millions of Ops (a few hundred bytes each, plus their
// attributes) until the end.
type BulkWriter interface {
	// NewBulk starts an atomic batch. Its memory is the ops' encoded size
	// (Bulk.Size), kept off the Go heap where the platform allows, so the
	// collector's target does not grow with it.
	NewBulk() Bulk
}

// Bulk is one atomic batch under construction (BulkWriter). Its ops are
// numbered in the order added, from 0, over every Add.
type Bulk interface {
	// Add encodes ops into the batch; nothing of them is retained. Only
	// puts and deletes with CondNone or CondNotExists are allowed. A
	// CondNotExists put whose key an earlier conditioned op of the batch
	// has fails at once with a *ConditionFailedError naming it: the ops
	// before it are in the batch, it and those after it are not (the
	// caller may change them and add them again). One whose key is
	// stored is found by Commit (or FirstStored).
	Add(ops []Op) error
	// Size is the memory the batch holds, in bytes.
	Size() int64
	// FirstStored returns the first conditioned op added so far whose
	// key is stored, or -1: the op that Commit would fail on.
	FirstStored(ctx context.Context) (int, error)
	// Op decodes op i (for an error's message), false if there is none.
	Op(i int) (Op, bool)
	// Commit checks the conditions against the store and applies every
	// op atomically and durably, or nothing: a *ConditionFailedError
	// names the first op whose condition failed (Op still reads the ops
	// then); after any other outcome the Bulk is released.
	Commit(ctx context.Context, stats *Stats) error
	// Close releases the batch without writing it; after Commit it does
	// nothing.
	Close()
}

// ExpiresAttr names an attribute a put may carry: the Unix time in seconds
// (AttrInt) after which the backend may delete the item on its own, at no
// write cost (DynamoDB's TTL). Until it does, the item reads as any other,
// without this attribute on backends that act on it: filtering expired
// items is the caller's business. Backends without such a feature store
// it as an ordinary attribute.
const ExpiresAttr = "\x00expires"

// ReadWriter is what a statement reads and writes through: a Store (each
// request on its own) or a Txn (a snapshot with the transaction's writes).
// Both satisfy it, so the executor's operators need not know which.
type ReadWriter interface {
	Get(ctx context.Context, req GetRequest) ([]Item, error)
	Scan(ctx context.Context, req ScanRequest) Iterator
	Write(ctx context.Context, b Batch) error
}

var (
	_ ReadWriter = Store(nil)
	_ ReadWriter = Txn(nil)
)

// Found reports whether an item returned by Get exists.
func Found(it Item) bool { return it.Key.Partition != nil }

// Observer receives one call per store request, for metrics. Backends call
// it if set; it must be safe for concurrent use.
type Observer interface {
	// ObserveRequest records one request of kind op ("get", "scan", "write",
	// "batch_get", "query", "transact_write", ...).
	ObserveRequest(backend, op string, d time.Duration, err error)
	// ObserveCapacity records capacity units consumed (DynamoDB).
	ObserveCapacity(op string, units float64)
}

// Stats accumulates what a statement cost the store. Backends add to it with
// the Add methods; all fields are safe for concurrent use.
type Stats struct {
	Requests      atomic.Int64
	ItemsRead     atomic.Int64
	ItemsWritten  atomic.Int64
	BytesRead     atomic.Int64
	capacityMilli atomic.Int64 // read+write capacity units × 1000
	// OpsWritten and BytesWritten count the puts and deletes a statement
	// hands to the store or to its transaction, and their bytes (Op.Size),
	// when it hands them, so a write inside a transaction block counts
	// before COMMIT: EXPLAIN (ANALYZE, WAL) shows them.
	OpsWritten   atomic.Int64
	BytesWritten atomic.Int64
}

// AddWriteOps records ops handed to the store for writing.
func (s *Stats) AddWriteOps(ops []Op) {
	if s == nil || len(ops) == 0 {
		return
	}
	n := int64(0)
	for i := range ops {
		n += int64(ops[i].Size())
	}
	s.OpsWritten.Add(int64(len(ops)))
	s.BytesWritten.Add(n)
}

// Size is the bytes an op writes: its key's, and for a put each
// attribute's name and value (8 bytes a number, 1 a boolean), as a store
// that charges by item size counts them.
func (op *Op) Size() int {
	n := len(op.Key.Partition) + len(op.Key.Sort)
	for i := range op.Attrs {
		a := &op.Attrs[i]
		n += len(a.Name)
		switch a.Kind {
		case AttrBool:
			n++
		case AttrInt, AttrFloat:
			n += 8
		default:
			n += len(a.S) + len(a.B)
		}
	}
	return n
}

// AddCapacity records consumed capacity units (DynamoDB RCU/WCU).
func (s *Stats) AddCapacity(units float64) {
	if s != nil {
		s.capacityMilli.Add(int64(units * 1000))
	}
}

// Capacity returns the capacity units recorded.
func (s *Stats) Capacity() float64 {
	if s == nil {
		return 0
	}
	return float64(s.capacityMilli.Load()) / 1000
}

// AddRequest records one store request.
func (s *Stats) AddRequest() {
	if s != nil {
		s.Requests.Add(1)
	}
}

// AddRead records n items (and bytes) read.
func (s *Stats) AddRead(n, bytes int) {
	if s != nil {
		s.ItemsRead.Add(int64(n))
		s.BytesRead.Add(int64(bytes))
	}
}

// AddWritten records n items written.
func (s *Stats) AddWritten(n int) {
	if s != nil {
		s.ItemsWritten.Add(int64(n))
	}
}

// ErrBatchTooLarge is returned for an atomic batch over MaxAtomicOps.
var ErrBatchTooLarge = errors.New("kv: atomic batch exceeds the backend's limit")

// ErrClosed is returned by operations on a closed store.
var ErrClosed = errors.New("kv: store is closed")

// ConditionFailedError reports the first op of a batch whose condition did
// not hold. Nothing of the batch was written.
type ConditionFailedError struct {
	Index int // index into Batch.Ops
	Key   Key
}

func (e *ConditionFailedError) Error() string {
	return "kv: write condition failed"
}

// UnavailableError wraps a failure to reach the store (network, throttling
// after retries). The executor maps it to a SQLSTATE the client can retry.
type UnavailableError struct {
	Op  string
	Err error
}

func (e *UnavailableError) Error() string {
	return "kv: store unavailable during " + e.Op + ": " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *UnavailableError) Unwrap() error { return e.Err }

// SQLState implements pgerr.SQLStater: a store that cannot be reached is a
// connection failure (08006) the client may retry.
func (e *UnavailableError) SQLState() string { return pgerr.ConnectionFailure.String() }

// PrefixEnd returns the smallest key greater than every key with prefix p,
// or nil if there is none (p is all 0xff): the exclusive end of a prefix
// range.
func PrefixEnd(p []byte) []byte {
	end := append([]byte(nil), p...)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] < 0xff {
			end[i]++
			return end[:i+1]
		}
	}
	return nil
}

// AppendPrefixEnd appends PrefixEnd(p) to dst, or returns nil as
// PrefixEnd does when p has no end: a caller with room of its own (a key
// lookup's instance) makes no allocation.
func AppendPrefixEnd(dst, p []byte) []byte {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] < 0xff {
			dst = append(dst, p[:i+1]...)
			dst[len(dst)-1]++
			return dst
		}
	}
	return nil
}

// Isolation levels a backend reports in Capabilities.Isolation, named as
// PostgreSQL's transaction_isolation setting names them.
const (
	// IsolationSnapshot is snapshot isolation: every read of a transaction
	// sees the committed state as of one point (its snapshot) plus the
	// transaction's own writes, and of two concurrent transactions writing
	// the same key only the first to commit succeeds (the other gets a
	// *ConflictError). PostgreSQL calls this level "repeatable read".
	IsolationSnapshot = "repeatable read"
)

// TxnOptions configures Transactional.Begin.
type TxnOptions struct {
	// ReadOnly promises no writes and no locks: such a transaction needs no
	// conflict tracking and its Commit does nothing, so it is cheap. Write
	// and Lock fail with ErrReadOnly.
	ReadOnly bool
	// Stats, when set, is charged for the requests Commit and Rollback make
	// (the reads and writes of the transaction are charged to their own
	// request's Stats).
	Stats *Stats
	// Snapshot, when set, is the name another open transaction of the same
	// store exported its snapshot under (SnapshotExporter): the new
	// transaction reads that snapshot instead of taking its own
	// (PostgreSQL's SET TRANSACTION SNAPSHOT, which pg_dump -j's workers
	// send). Begin fails with ErrUnknownSnapshot if no open transaction
	// exported that name, and with ErrSnapshotReadOnly when a read-write
	// transaction asks for a read-only one's snapshot (whose writes the
	// store did not track, so conflicts with them would go unseen).
	Snapshot string
	// Serializable asks for a serializable transaction: its reads (the keys
	// of its Gets and the spans its scans covered) are kept, and Commit
	// fails with a *ConflictError whose ReadWrite is set if a transaction
	// that committed after the snapshot wrote inside them. Only a store
	// whose Capabilities.Serializable is set offers it; others fail Begin
	// with ErrSerializableUnsupported. A transaction that commits no write
	// and no lock is not checked: it read one snapshot, and the committed
	// serializable transactions are equivalent to running one at a time in
	// commit order, so what it read is the state between two of them.
	Serializable bool
	// PurgeDeletes says no reader needs the traces of this transaction's
	// deletes once it has committed: a backend whose deletes leave
	// tombstones for readers of older snapshots (DynamoDB) removes them
	// after the commit, best effort (one still there expires as any
	// other). The caller guarantees what makes that safe: a reader of an
	// older snapshot that would read one of the deleted keys reads, in
	// the same scan, a key the transaction put, and so fails or moves its
	// snapshot past the commit as it would have on the tombstone
	// (executor/ginpack.go's packing, which puts a token's stamp with every
	// rewrite of its list). Backends without tombstones ignore it.
	PurgeDeletes bool
}

// ErrSerializableUnsupported is Begin's error for TxnOptions.Serializable
// on a store whose transactions are snapshot isolation only.
var ErrSerializableUnsupported = errors.New("kv: the store has no serializable transactions")

// SnapshotExporter is a Txn whose snapshot other transactions of its store
// can begin on (TxnOptions.Snapshot), as long as it is open: PostgreSQL's
// pg_export_snapshot. A store without the capability (DynamoDB keeps no
// old versions to share) returns ErrSnapshotsUnsupported.
type SnapshotExporter interface {
	ExportSnapshot() (string, error)
}

// ExportSnapshot exports t's snapshot if its store can share it.
func ExportSnapshot(t Txn) (string, error) {
	if e, ok := t.(SnapshotExporter); ok {
		return e.ExportSnapshot()
	}
	return "", ErrSnapshotsUnsupported
}

// Errors of snapshot sharing (SnapshotExporter, TxnOptions.Snapshot).
var (
	ErrUnknownSnapshot      = errors.New("kv: no open transaction exported this snapshot")
	ErrSnapshotReadOnly     = errors.New("kv: a read-write transaction cannot begin on a read-only transaction's snapshot")
	ErrSnapshotsUnsupported = errors.New("kv: the store cannot share a transaction's snapshot")
)

// LockMode is the strength of a locking read (SELECT ... FOR SHARE / FOR
// UPDATE), see Txn.Lock.
type LockMode uint8

// Lock modes.
const (
	// LockShare (FOR SHARE, FOR KEY SHARE): the keys must not change between
	// the transaction's snapshot and its commit; the commit fails with a
	// *ConflictError if another transaction changed one. Concurrent share
	// locks never conflict with each other.
	LockShare LockMode = iota + 1
	// LockUpdate (FOR UPDATE, FOR NO KEY UPDATE): LockShare, and the keys
	// join the transaction's write set as if rewritten unchanged, so a
	// concurrent transaction writing or update-locking one of them conflicts
	// with this one (first committer wins).
	LockUpdate
)

// Savepoint identifies a point in a transaction's writes, for RollbackTo
// and Release.
type Savepoint int

// Transactional is implemented by stores that offer transactions. Both
// backends do; the executor asserts it with
//
//	txnStore, ok := store.(kv.Transactional)
//
// Compacter is a store whose deleted items keep taking space until it
// compacts their key spans (an LSM tree's tombstones and shadowed
// versions), and which can be told to do that now: VACUUM. A store that
// frees what is deleted at once (DynamoDB) has nothing to compact and does
// not implement it.
type Compacter interface {
	// CompactPartitions rewrites the stored spans of the partitions, so
	// the space of their deleted and overwritten items is given back.
	CompactPartitions(ctx context.Context, partitions [][]byte) error
}

// SizeEstimator is a store that can say how many bytes it holds for
// partitions: the size of their key spans in its files (an LSM tree's
// sstables, compressed, with deleted items it has not compacted yet).
// pg_relation_size and its kin answer from it; a store that cannot
// measure (DynamoDB reports only its whole table's size, every six hours)
// does not implement it.
type SizeEstimator interface {
	// PartitionBytes returns the bytes stored for the partitions.
	PartitionBytes(ctx context.Context, partitions [][]byte) (int64, error)
}

type Transactional interface {
	Store
	// Begin starts a transaction. Its snapshot is taken by Begin (the
	// DynamoDB backend may move it forward, see Capabilities.Isolation and
	// kv/dynamodb/TRANSACTIONS.md), and it holds resources (a Pebble
	// snapshot, a DynamoDB transaction record once it grows large) until
	// Commit or Rollback: always call one of them.
	Begin(ctx context.Context, opts TxnOptions) (Txn, error)
}

// Txn is a transaction: reads from a snapshot merged with the
// transaction's own buffered writes, writes buffered until Commit, which
// applies all of them or none whatever their number. A Txn is not safe for
// concurrent use.
//
// Errors: a write-write conflict (first committer wins) or a snapshot the
// backend can no longer serve is a *ConflictError (SQLSTATE 40001), from
// any method; a failed write condition is a *ConditionFailedError from
// Write, naming the op (an INSERT's CondNotExists: 23505). After any error
// from Commit the transaction is over and nothing of it is applied. Other
// errors leave the transaction usable, but a caller that cannot tell what
// an error did should roll back.
type Txn interface {
	// Get reads exact keys, as Store.Get, from the snapshot with the
	// transaction's writes applied.
	Get(ctx context.Context, req GetRequest) ([]Item, error)
	// Scan reads a range, as Store.Scan, from the snapshot with the
	// transaction's writes applied, merged in key order (Reverse and Seek
	// included). The iterator sees the writes made before Scan was called,
	// not those made while it is open, so a statement that writes the rows
	// it scans never meets its own writes.
	Scan(ctx context.Context, req ScanRequest) Iterator
	// Write buffers a batch. Conditions are checked now, in op order,
	// against the snapshot with the transaction's writes applied; a failed
	// one returns a *ConditionFailedError and buffers no op of the batch.
	// Batch.Atomic is ignored (the whole transaction is atomic), and so is
	// MaxAtomicOps: a transaction may hold any number of writes. Conflicts
	// with concurrent transactions are found at the latest by Commit.
	Write(ctx context.Context, b Batch) error
	// Lock takes locking reads' locks on keys (see LockMode). Locking an
	// absent key guards its absence the same way. Keys the transaction
	// writes need no lock.
	Lock(ctx context.Context, keys []Key, mode LockMode) error
	// Savepoint marks the current writes and locks. Savepoints nest.
	Savepoint() Savepoint
	// RollbackTo discards the writes and locks made after sp. sp and the
	// savepoints before it stay valid; later ones are released.
	RollbackTo(sp Savepoint) error
	// Release forgets sp and every later savepoint, keeping their writes.
	Release(sp Savepoint) error
	// Commit applies the writes atomically and durably, or returns an error
	// and applies none. A *ConflictError means another transaction won.
	Commit(ctx context.Context) error
	// Rollback abandons the transaction. It is safe to call after Commit
	// (doing nothing) and more than once.
	Rollback() error
}

// KeyTooLongError reports a key longer than the store holds: DynamoDB's
// sort keys of 1024 bytes and partition keys of 2048, which an index over
// long values (text, a numeric of thousands of digits) can exceed. It is
// SQLSTATE 54000, as PostgreSQL's index row size limit is.
type KeyTooLongError struct {
	// Part is "sort" or "partition"; Len the key's length and Max the
	// store's limit, in bytes, as the store counts them.
	Part     string
	Len, Max int
}

func (e *KeyTooLongError) Error() string {
	return "index row or primary key too large for the store: its " + e.Part + " key is " + strconv.Itoa(e.Len) +
		" bytes, the store's maximum is " + strconv.Itoa(e.Max)
}

// SQLState implements pgerr.SQLStater.
func (e *KeyTooLongError) SQLState() string { return pgerr.ProgramLimitExceeded.String() }

// ErrTxnDone is returned by a transaction's methods after Commit or
// Rollback.
var ErrTxnDone = errors.New("kv: transaction has already been committed or rolled back")

// ErrReadOnly is returned by Write and Lock in a read-only transaction.
var ErrReadOnly = errors.New("kv: write in a read-only transaction")

// ConflictError reports that a transaction cannot commit (or go on reading)
// without breaking its isolation: another transaction committed a write to
// Key after this one's snapshot (first committer wins), or holds it locked,
// or the backend can no longer serve the snapshot. Nothing of the
// transaction is applied; the client may retry it (SQLSTATE 40001).
type ConflictError struct {
	Key    Key
	Reason string // for the error message; never parse it
	// ReadWrite says the conflict is a serializable transaction's
	// (TxnOptions.Serializable): another transaction committed a write
	// to Key, which this one had read, after this one's snapshot.
	ReadWrite bool
}

// SQLState implements pgerr.SQLStater: the client may retry (40001).
func (e *ConflictError) SQLState() string { return pgerr.SerializationFailure.String() }

func (e *ConflictError) Error() string {
	if e.ReadWrite {
		msg := "kv: could not serialize access due to read/write dependencies among transactions"
		if e.Reason != "" {
			msg += ": " + e.Reason
		}
		return msg
	}
	if e.Reason == "" {
		return "kv: could not serialize access due to concurrent update"
	}
	return "kv: could not serialize access due to concurrent update: " + e.Reason
}

// readCostKey carries a statement's consumed read capacity in a context.
type readCostKey struct{}

// WithReadCost returns ctx carrying the read capacity a statement has
// consumed so far (thousandths of a unit, updated as its reads complete),
// so a store that queues requests for a capacity budget can tell a
// statement's first small reads from the later pages of a large one.
func WithReadCost(ctx context.Context, used *atomic.Int64) context.Context {
	return context.WithValue(ctx, readCostKey{}, used)
}

// ReadCostOf returns the read capacity WithReadCost put in ctx, nil if none.
func ReadCostOf(ctx context.Context) *atomic.Int64 {
	used, _ := ctx.Value(readCostKey{}).(*atomic.Int64)
	return used
}

// WithBulkReads returns ctx marking its reads as bulk work of no
// statement (ANALYZE's sampling, automatic analyses), which a store that
// queues requests for a capacity budget queues behind point reads.
func WithBulkReads(ctx context.Context) context.Context {
	var past atomic.Int64
	past.Store(math.MaxInt64 / 2) // far past any statement's consumption
	return WithReadCost(ctx, &past)
}

// PrefixDeleter is a store that can delete every item whose partition
// begins with a prefix, however many partitions that is: DROP DATABASE
// removes a database's items, which all lie under its prefix (package
// kv/kvprefix). Both backends implement it.
type PrefixDeleter interface {
	// DeletePartitionPrefix deletes every item of every partition that
	// begins with prefix. It is not atomic on every backend (DynamoDB
	// deletes in batches): a failure may leave some items, and a retry
	// deletes the rest.
	DeletePartitionPrefix(ctx context.Context, prefix []byte) error
}
