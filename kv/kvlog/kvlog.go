package kvlog

import (
	"context"
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/zproxy/zproxy/kv"
)

// Options configures a Store.
type Options struct {
	// Partition renders a partition key; nil renders it as hex.
	Partition func(partition []byte) string
	// Ignore, when set, drops requests whose every partition it accepts
	// (they are forwarded but not recorded).
	Ignore func(partition []byte) bool
}

// Op names the kind of a recorded request.
type Op string

// Recorded request kinds.
const (
	OpGet   Op = "get"
	OpScan  Op = "scan"
	OpWrite Op = "write"
	// Transactions: gets, scans and writes inside one are recorded with
	// their Entry.Txn set.
	OpBegin    Op = "begin"
	OpLock     Op = "lock"
	OpCommit   Op = "commit"
	OpRollback Op = "rollback"
)

// Entry is one recorded request.
type Entry struct {
	Op Op
	// Txn numbers the transaction the request belongs to (1 for the first
	// Begin), 0 outside transactions.
	Txn int
	// Partitions are the rendered partitions the request touched, in the
	// order they first appear in it.
	Partitions []string

	// Get: the keys asked for and whether each was found.
	Keys  []kv.Key
	Found []bool

	// Scan: the request, the seek targets in order, and how many items
	// the iterator returned.
	Scan  kv.ScanRequest
	Seeks [][]byte
	Items int
	// Closed reports whether the scan's iterator was closed.
	Closed bool

	// Write: the batch.
	Batch kv.Batch

	// Begin: the options. Lock: the keys (Keys) and mode. Commit: the
	// error Commit returned.
	TxnOptions kv.TxnOptions
	LockMode   kv.LockMode
	Err        error
}

// Store records requests and forwards them to an inner store. It is safe
// for concurrent use.
type Store struct {
	inner kv.Store
	opts  Options

	mu      sync.Mutex
	entries []*Entry
	txns    int // transactions begun
}

var _ kv.Store = (*Store)(nil)

// New wraps inner.
func New(inner kv.Store, opts Options) *Store {
	return &Store{inner: inner, opts: opts}
}

// Inner returns the wrapped store.
func (s *Store) Inner() kv.Store { return s.inner }

func (s *Store) ignored(parts [][]byte) bool {
	if s.opts.Ignore == nil {
		return false
	}
	for _, p := range parts {
		if !s.opts.Ignore(p) {
			return false
		}
	}
	return true
}

func (s *Store) record(parts [][]byte, e *Entry) bool {
	if s.ignored(parts) {
		return false
	}
	seen := map[string]bool{}
	for _, p := range parts {
		name := s.partitionName(p)
		if !seen[name] {
			seen[name] = true
			e.Partitions = append(e.Partitions, name)
		}
	}
	s.mu.Lock()
	s.entries = append(s.entries, e)
	s.mu.Unlock()
	return true
}

func (s *Store) partitionName(p []byte) string {
	if s.opts.Partition != nil {
		return s.opts.Partition(p)
	}
	return hexKey(p)
}

// Get implements kv.Store.
func (s *Store) Get(ctx context.Context, req kv.GetRequest) ([]kv.Item, error) {
	return s.get(ctx, req, 0, s.inner.Get)
}

func (s *Store) get(ctx context.Context, req kv.GetRequest, txn int, forward func(context.Context, kv.GetRequest) ([]kv.Item, error)) ([]kv.Item, error) {
	parts := make([][]byte, len(req.Keys))
	keys := make([]kv.Key, len(req.Keys))
	for i, k := range req.Keys {
		parts[i] = k.Partition
		keys[i] = cloneKey(k)
	}
	e := &Entry{Op: OpGet, Txn: txn, Keys: keys}
	items, err := forward(ctx, req)
	if err == nil {
		e.Found = make([]bool, len(items))
		for i, it := range items {
			e.Found[i] = kv.Found(it)
		}
	}
	s.record(parts, e)
	return items, err
}

// Scan implements kv.Store.
func (s *Store) Scan(ctx context.Context, req kv.ScanRequest) kv.Iterator {
	return s.scan(ctx, req, 0, s.inner.Scan)
}

func (s *Store) scan(ctx context.Context, req kv.ScanRequest, txn int, forward func(context.Context, kv.ScanRequest) kv.Iterator) kv.Iterator {
	rec := req
	rec.Partition, rec.Start, rec.End = clone(req.Partition), clone(req.Start), clone(req.End)
	rec.Stats = nil
	e := &Entry{Op: OpScan, Txn: txn, Scan: rec}
	it := forward(ctx, req)
	if !s.record([][]byte{req.Partition}, e) {
		return it
	}
	return &iterator{inner: it, store: s, entry: e}
}

// Write implements kv.Store.
func (s *Store) Write(ctx context.Context, b kv.Batch) error {
	return s.write(ctx, b, 0, s.inner.Write)
}

func (s *Store) write(ctx context.Context, b kv.Batch, txn int, forward func(context.Context, kv.Batch) error) error {
	rec := kv.Batch{Atomic: b.Atomic, Ops: make([]kv.Op, len(b.Ops))}
	parts := make([][]byte, len(b.Ops))
	for i, op := range b.Ops {
		rec.Ops[i] = kv.Op{Kind: op.Kind, Cond: op.Cond, CondAttr: op.CondAttr, Key: cloneKey(op.Key),
			Attrs: append([]kv.Attr(nil), op.Attrs...)}
		parts[i] = op.Key.Partition
	}
	s.record(parts, &Entry{Op: OpWrite, Txn: txn, Batch: rec})
	return forward(ctx, b)
}

// Capabilities implements kv.Store; it reports the inner store's.
func (s *Store) Capabilities() kv.Capabilities { return s.inner.Capabilities() }

// Close implements kv.Store; it closes the inner store.
func (s *Store) Close() error { return s.inner.Close() }

// Reset forgets everything recorded so far.
func (s *Store) Reset() {
	s.mu.Lock()
	s.entries = nil
	s.mu.Unlock()
}

// Entries returns copies of the recorded entries in call order.
func (s *Store) Entries() []Entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Entry, len(s.entries))
	for i, e := range s.entries {
		out[i] = *e
		out[i].Seeks = append([][]byte(nil), e.Seeks...)
	}
	return out
}

// Lines renders the recorded entries in call order, one string each (a
// get or a write spans several lines joined by "\n").
func (s *Store) Lines() []string {
	entries := s.Entries()
	out := make([]string, len(entries))
	for i := range entries {
		out[i] = s.Format(&entries[i])
	}
	return out
}

// SortedLines is Lines sorted, for comparing requests that shard streams
// issue concurrently.
func (s *Store) SortedLines() []string {
	l := s.Lines()
	sort.Strings(l)
	return l
}

// String renders the log, one entry per line (sorted).
func (s *Store) String() string { return strings.Join(s.SortedLines(), "\n") }

// Format renders one entry (requests inside a transaction start with
// "txnN "):
//
//	get readings/3 0x0102 found
//	scan readings/0 [0x01, 0x02) reverse limit=10: 7 items, 2 seeks 0x0180 0x01c0
//	write atomic
//	  put readings/3 0x0102 if-not-exists {sensor_id=1 note="a"}
//	  delete by_note/3 0x41
func (s *Store) Format(e *Entry) string {
	var b strings.Builder
	switch e.Op {
	case OpBegin:
		b.WriteString("begin")
		if e.TxnOptions.ReadOnly {
			b.WriteString(" read-only")
		}
		if e.TxnOptions.Serializable {
			b.WriteString(" serializable")
		}
	case OpLock:
		if e.LockMode == kv.LockShare {
			b.WriteString("lock share")
		} else {
			b.WriteString("lock update")
		}
		for _, k := range e.Keys {
			b.WriteString(" " + s.partitionName(k.Partition) + " " + hexKey(k.Sort))
		}
	case OpCommit:
		b.WriteString("commit")
		if e.Err != nil {
			b.WriteString(" failed")
		}
	case OpRollback:
		b.WriteString("rollback")
	case OpGet:
		for i, k := range e.Keys {
			if i > 0 {
				b.WriteByte('\n')
			}
			fmt.Fprintf(&b, "get %s %s", s.partitionName(k.Partition), hexKey(k.Sort))
			if e.Found != nil {
				if e.Found[i] {
					b.WriteString(" found")
				} else {
					b.WriteString(" missing")
				}
			}
		}
	case OpScan:
		r := e.Scan
		fmt.Fprintf(&b, "scan %s [%s, %s)", s.partitionName(r.Partition), hexKey(r.Start), hexEnd(r.End))
		if r.Reverse {
			b.WriteString(" reverse")
		}
		if r.Limit > 0 {
			fmt.Fprintf(&b, " limit=%d", r.Limit)
		}
		fmt.Fprintf(&b, ": %d item%s", e.Items, plural(e.Items))
		if len(e.Seeks) > 0 {
			fmt.Fprintf(&b, ", %d seek%s", len(e.Seeks), plural(len(e.Seeks)))
			for _, k := range e.Seeks {
				b.WriteString(" " + hexKey(k))
			}
		}
	case OpWrite:
		if e.Batch.Atomic {
			b.WriteString("write atomic")
		} else {
			b.WriteString("write")
		}
		for _, op := range e.Batch.Ops {
			b.WriteString("\n  ")
			b.WriteString(s.FormatOp(op))
		}
	}
	if e.Txn == 0 {
		return b.String()
	}
	// Every request line (not a write's op lines) names the transaction.
	lines := strings.Split(b.String(), "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "  ") {
			lines[i] = fmt.Sprintf("txn%d %s", e.Txn, l)
		}
	}
	return strings.Join(lines, "\n")
}

// FormatOp renders one write op as Format does inside a write.
func (s *Store) FormatOp(op kv.Op) string {
	var b strings.Builder
	if op.Kind == kv.OpDelete {
		b.WriteString("delete ")
	} else {
		b.WriteString("put ")
	}
	b.WriteString(s.partitionName(op.Key.Partition) + " " + hexKey(op.Key.Sort))
	switch op.Cond {
	case kv.CondNotExists:
		b.WriteString(" if-not-exists")
	case kv.CondExists:
		b.WriteString(" if-exists")
	case kv.CondAttrEquals:
		b.WriteString(" if " + FormatAttrs([]kv.Attr{op.CondAttr}))
	}
	if op.Kind == kv.OpPut {
		b.WriteString(" " + FormatAttrs(op.Attrs))
	}
	return b.String()
}

// FormatAttrs renders attributes as {name=value ...} in their given order.
func FormatAttrs(attrs []kv.Attr) string {
	parts := make([]string, len(attrs))
	for i, a := range attrs {
		var v string
		switch a.Kind {
		case kv.AttrNull:
			v = "NULL"
		case kv.AttrBool:
			v = strconv.FormatBool(a.I != 0)
		case kv.AttrInt:
			v = strconv.FormatInt(a.I, 10)
		case kv.AttrFloat:
			v = strconv.FormatFloat(a.F, 'g', -1, 64)
		case kv.AttrString:
			v = strconv.Quote(a.S)
		case kv.AttrBytes:
			v = hexKey(a.B)
		}
		parts[i] = a.Name + "=" + v
	}
	return "{" + strings.Join(parts, " ") + "}"
}

// iterator counts the items and seeks of one scan into its Entry.
type iterator struct {
	inner kv.Iterator
	store *Store
	entry *Entry
}

func (it *iterator) Next() bool {
	ok := it.inner.Next()
	if ok {
		it.store.mu.Lock()
		it.entry.Items++
		it.store.mu.Unlock()
	}
	return ok
}

func (it *iterator) Item() kv.Item { return it.inner.Item() }

func (it *iterator) Seek(sort []byte) {
	it.store.mu.Lock()
	it.entry.Seeks = append(it.entry.Seeks, clone(sort))
	it.store.mu.Unlock()
	it.inner.Seek(sort)
}

func (it *iterator) Err() error { return it.inner.Err() }

func (it *iterator) Close() error {
	it.store.mu.Lock()
	it.entry.Closed = true
	it.store.mu.Unlock()
	return it.inner.Close()
}

func cloneKey(k kv.Key) kv.Key {
	return kv.Key{Partition: clone(k.Partition), Sort: clone(k.Sort)}
}

func clone(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte{}, b...)
}

func hexKey(k []byte) string {
	if len(k) == 0 {
		return "-inf"
	}
	return "0x" + hex.EncodeToString(k)
}

func hexEnd(k []byte) string {
	if k == nil {
		return "+inf"
	}
	return hexKey(k)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
