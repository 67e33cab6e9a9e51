package pebble

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/cockroachdb/pebble"

	"github.com/zproxy/zproxy/kv"
)

// Bulk batches (kv.BulkWriter): one atomic batch of any size, taken piece
// by piece. COPY used to keep its rows' writes as kv.Ops until the end:
// 190 MB of input held 2 GB of Ops, attributes and strings, which the
// collector at --gc-percent 400 let grow to 4 GB of RSS. A bulk batch
// encodes each op at once into the form Pebble commits (a batch entry:
// kind, key, value), in chunks outside the Go heap (allocOffHeap), so it
// costs about the ops' encoded size, and the garbage that forming rows
// leaves behind is collected against a small heap.
//
// A chunk entry is a condition byte followed by a Pebble batch entry:
//
//	cond ‖ kind ‖ uvarint(len(key)) ‖ key [‖ uvarint(len(value)) ‖ value]
//
// Commit checks the conditions and copies the entries, less their
// condition bytes, into one Pebble batch representation, freeing each
// chunk once copied, so a commit holds at most one chunk more than the
// batch it commits.
//
// Conditioned keys are also entered, as they are added, in an
// open-addressing table (condTable, also off the heap: 8 bytes a slot), so
// a key repeated within the batch fails at once, as a stream of INSERTs
// would, and Commit need not look for repetitions.

// bulkChunkSize is the size of a chunk of encoded ops (an op larger than
// that gets a chunk of its own).
const bulkChunkSize = 4 << 20

// chunkOffsetBits is how many bits of an entry's location are its offset
// in its chunk; the others number the chunk.
const chunkOffsetBits = 22

type bulk struct {
	s      *Store
	chunks [][]byte // filled to len; nil once freed
	used   int64    // bytes of entries in chunks
	n      int      // ops added
	conds  condTable
	key    []byte // reused encoding buffers
	val    []byte
	done   bool
}

var _ kv.BulkWriter = (*Store)(nil)

// NewBulk implements kv.BulkWriter.
func (s *Store) NewBulk() kv.Bulk { return &bulk{s: s} }

// errBulkOp rejects ops a bulk batch does not take.
var errBulkOp = errors.New("kv/pebble: a bulk batch takes puts and deletes with no condition or CondNotExists")

// Add implements kv.Bulk.
func (b *bulk) Add(ops []kv.Op) error {
	if b.done {
		return errors.New("kv/pebble: bulk batch is over")
	}
	for i := range ops {
		op := &ops[i]
		if op.Cond != kv.CondNone && op.Cond != kv.CondNotExists {
			return errBulkOp
		}
		b.key = appendKey(b.key[:0], op.Key)
		var kind pebble.InternalKeyKind
		size := 2 + binary.MaxVarintLen32 + len(b.key)
		switch op.Kind {
		case kv.OpPut:
			kind = pebble.InternalKeyKindSet
			var err error
			if b.val, err = appendValue(b.val[:0], op.Attrs); err != nil {
				return err
			}
			size += binary.MaxVarintLen32 + len(b.val)
		case kv.OpDelete:
			kind = pebble.InternalKeyKindDelete
		default:
			return errBulkOp
		}
		loc := b.reserve(size)
		c := b.chunks[len(b.chunks)-1]
		start := len(c)
		c = append(c, byte(op.Cond), byte(kind))
		c = binary.AppendUvarint(c, uint64(len(b.key)))
		c = append(c, b.key...)
		if kind == pebble.InternalKeyKindSet {
			c = binary.AppendUvarint(c, uint64(len(b.val)))
			c = append(c, b.val...)
		}
		b.chunks[len(b.chunks)-1] = c
		b.used += int64(len(c) - start)
		if op.Cond == kv.CondNotExists && !b.conds.insert(b, loc, b.s.keyHash(b.key)) {
			// Not added: the caller may add it again, changed.
			b.chunks[len(b.chunks)-1] = c[:start]
			b.used -= int64(len(c) - start)
			return &kv.ConditionFailedError{Index: b.n, Key: op.Key}
		}
		b.n++
	}
	return nil
}

// reserve makes room for an entry of up to size bytes in the last chunk
// and returns the entry's location.
func (b *bulk) reserve(size int) uint64 {
	if len(b.chunks) > 0 {
		c := b.chunks[len(b.chunks)-1]
		if cap(c)-len(c) >= size {
			return uint64(len(b.chunks)-1)<<chunkOffsetBits | uint64(len(c))
		}
	}
	b.chunks = append(b.chunks, allocOffHeap(max(size, bulkChunkSize))[:0])
	return uint64(len(b.chunks)-1) << chunkOffsetBits
}

// entry decodes the entry at a location: its condition, kind, key and
// value, and where the next one starts.
func (b *bulk) entry(loc uint64) (cond kv.Condition, kind pebble.InternalKeyKind, key, val []byte, next int) {
	c := b.chunks[loc>>chunkOffsetBits]
	p := int(loc & (1<<chunkOffsetBits - 1))
	return decodeEntry(c, p)
}

func decodeEntry(c []byte, p int) (cond kv.Condition, kind pebble.InternalKeyKind, key, val []byte, next int) {
	cond, kind = kv.Condition(c[p]), pebble.InternalKeyKind(c[p+1])
	p += 2
	n, w := binary.Uvarint(c[p:])
	p += w
	key = c[p : p+int(n)]
	p += int(n)
	if kind == pebble.InternalKeyKindSet {
		n, w = binary.Uvarint(c[p:])
		p += w
		val = c[p : p+int(n)]
		p += int(n)
	}
	return cond, kind, key, val, p
}

// each calls fn for every entry in order, with its op number, until fn
// returns false.
func (b *bulk) each(fn func(i int, cond kv.Condition, kind pebble.InternalKeyKind, key, val []byte) bool) {
	i := 0
	for _, c := range b.chunks {
		for p := 0; p < len(c); {
			cond, kind, key, val, next := decodeEntry(c, p)
			if !fn(i, cond, kind, key, val) {
				return
			}
			i++
			p = next
		}
	}
}

// Size implements kv.Bulk: the chunks and the condition table.
func (b *bulk) Size() int64 {
	var n int64
	for _, c := range b.chunks {
		n += int64(cap(c))
	}
	return n + int64(len(b.conds.slots))*8
}

// FirstStored implements kv.Bulk.
func (b *bulk) FirstStored(ctx context.Context) (int, error) {
	if b.done {
		return -1, errors.New("kv/pebble: bulk batch is over")
	}
	s := b.s
	s.closeMu.RLock()
	defer s.closeMu.RUnlock()
	if s.closed {
		return -1, kv.ErrClosed
	}
	return b.firstStored()
}

// firstStored finds the first CondNotExists op whose key is stored.
func (b *bulk) firstStored() (int, error) {
	iter, err := b.s.db.NewIter(&pebble.IterOptions{UseL6Filters: true})
	if err != nil {
		return -1, fmt.Errorf("kv/pebble: condition check: %w", err)
	}
	defer iter.Close()
	first := -1
	b.each(func(i int, cond kv.Condition, _ pebble.InternalKeyKind, key, _ []byte) bool {
		if cond == kv.CondNotExists && iter.SeekPrefixGE(key) {
			first = i
			return false
		}
		return true
	})
	if first < 0 {
		if err := iter.Error(); err != nil {
			return -1, fmt.Errorf("kv/pebble: condition check: %w", err)
		}
	}
	return first, nil
}

// Commit implements kv.Bulk. It holds every key lock at once
// (keyLocks.lockAll) from the condition check to the commit: taking a
// lock per key, as Write does, would cost a map entry per key.
func (b *bulk) Commit(ctx context.Context, stats *kv.Stats) (err error) {
	if b.done {
		return errors.New("kv/pebble: bulk batch is over")
	}
	s := b.s
	s.closeMu.RLock()
	defer s.closeMu.RUnlock()
	if s.closed {
		b.Close()
		return kv.ErrClosed
	}
	if err := ctx.Err(); err != nil {
		b.Close()
		return err // nothing written
	}
	if b.n == 0 {
		b.Close()
		return nil
	}
	start := time.Now()
	defer func() { s.observe("write", start, err) }()
	s.locks.lockAll()
	defer s.locks.unlockAll()
	first, err := b.firstStored()
	if err != nil {
		b.Close()
		return err
	}
	if first >= 0 {
		op, _ := b.Op(first)
		return &kv.ConditionFailedError{Index: first, Key: op.Key}
	}
	defer b.Close()
	// The batch's representation: a 12-byte header (sequence number,
	// filled in by the commit, and count), then the entries.
	repr := make([]byte, 12, 12+b.used-int64(b.n))
	binary.LittleEndian.PutUint32(repr[8:], uint32(b.n))
	for ci, c := range b.chunks {
		for p := 0; p < len(c); {
			_, _, _, _, next := decodeEntry(c, p)
			repr = append(repr, c[p+1:next]...)
			p = next
		}
		freeOffHeap(c)
		b.chunks[ci] = nil
	}
	b.conds.free()
	batch := s.db.NewBatch()
	defer batch.Close()
	if err := batch.SetRepr(repr); err != nil {
		return fmt.Errorf("kv/pebble: bulk batch: %w", err)
	}
	if err := batch.Commit(pebble.Sync); err != nil {
		return fmt.Errorf("kv/pebble: commit: %w", err)
	}
	if s.liveWriters.Load() > 0 {
		s.recordBatch(batch)
	}
	stats.AddRequest()
	stats.AddWritten(b.n)
	return nil
}

// Op implements kv.Bulk.
func (b *bulk) Op(i int) (kv.Op, bool) {
	var op kv.Op
	found := false
	b.each(func(j int, cond kv.Condition, kind pebble.InternalKeyKind, key, val []byte) bool {
		if j < i {
			return true
		}
		op.Key, op.Cond = decodeKey(key), cond
		if kind == pebble.InternalKeyKindDelete {
			op.Kind = kv.OpDelete
		} else {
			attrs, err := decodeValue(val)
			if err != nil {
				return false
			}
			op.Attrs = attrs
		}
		found = true
		return false
	})
	return op, found
}

// Close implements kv.Bulk.
func (b *bulk) Close() {
	if b.done {
		return
	}
	b.done = true
	for i, c := range b.chunks {
		freeOffHeap(c)
		b.chunks[i] = nil
	}
	b.chunks = nil
	b.conds.free()
}

// decodeKey is the kv.Key of a Pebble key (appendKey's inverse).
func decodeKey(k []byte) kv.Key {
	n, w := binary.Uvarint(k)
	return kv.Key{Partition: bytes.Clone(k[w : w+int(n)]), Sort: bytes.Clone(k[w+int(n):])}
}

// condTable is a set of the batch's conditioned keys: open addressing
// with linear probing over 8-byte slots, each an entry's location plus
// one (0 is empty) in its low 40 bits and the top 24 bits of its key's
// hash above them, so most probes of another key end without reading
// the entry.
type condTable struct {
	slots []uint64 // off the heap; a power of two in length
	n     int
}

const (
	condLocBits = 40
	condLocMask = 1<<condLocBits - 1
)

// insert adds the key at loc (hash h) and reports whether it was new; an
// equal key present already leaves the table unchanged.
func (t *condTable) insert(b *bulk, loc, h uint64) bool {
	if (t.n+1)*4 > len(t.slots)*3 {
		t.grow(b)
	}
	_, _, key, _, _ := b.entry(loc)
	tag := h >> condLocBits
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			t.slots[i] = tag<<condLocBits | (loc + 1)
			t.n++
			return true
		}
		if s>>condLocBits == tag {
			if _, _, k, _, _ := b.entry(s&condLocMask - 1); bytes.Equal(k, key) {
				return false
			}
		}
	}
}

// grow doubles the table (from 64K slots), re-entering every key.
func (t *condTable) grow(b *bulk) {
	old := t.slots
	size := max(1<<16, 2*len(old))
	raw := allocOffHeap(size * 8)
	t.slots = unsafeSlots(raw)
	t.n = 0
	mask := uint64(size - 1)
	for _, s := range old {
		if s == 0 {
			continue
		}
		_, _, key, _, _ := b.entry(s&condLocMask - 1)
		h := b.s.keyHash(key)
		for i := h & mask; ; i = (i + 1) & mask {
			if t.slots[i] == 0 {
				t.slots[i] = s
				t.n++
				break
			}
		}
	}
	freeSlots(old)
}

func (t *condTable) free() {
	freeSlots(t.slots)
	t.slots, t.n = nil, 0
}
