package pebble

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/cockroachdb/pebble"

	"github.com/zproxy/zproxy/kv"
)

// Bulk batches (kv.BulkWriter): one atomic batch of any size, taken piece
// by piece. COPY used to keep its rows' writes as kv.Ops until the end:
// 190 MB of input held 2 GB of Ops, attributes and strings, which the
// collector at --gc-percent 400 let grow to 4 GB of RSS. A bulk batch
// encodes each op at once into the form Pebble commits (a batch entry:
// kind, key, value) in a chunk outside the Go heap (allocOffHeap); a full
// chunk goes to an unlinked temporary file (in the data directory, whose
// disk holds the rows anyway; Pebble ignores names it does not know), so
// while the rows stream in
// the batch holds one chunk and its key table in memory, and the garbage
// that forming rows leaves behind is collected against a small heap.
//
// A chunk entry is a condition byte followed by a Pebble batch entry:
//
//	cond ‖ kind ‖ uvarint(len(key)) ‖ key [‖ uvarint(len(value)) ‖ value]
//
// Commit checks the conditions and reads the chunks back, copying the
// entries, less their condition bytes, into one Pebble batch
// representation: the batch is in memory only while it commits, as any
// Pebble batch must be.
//
// Conditioned keys are also entered, as they are added, in an
// open-addressing table (condTable, also off the heap: 8 bytes a slot), so
// a key repeated within the batch fails at once, as a stream of INSERTs
// would, and Commit need not look for repetitions.

// bulkChunkSize is the size of a chunk of encoded ops (an op larger than
// that gets a chunk of its own).
const bulkChunkSize = 4 << 20

// chunkOffsetBits is how many bits of an entry's location are its offset
// in its chunk; the others number the chunk. Offsets stay below
// bulkChunkSize (a larger op is alone at offset 0).
const chunkOffsetBits = 22

type bulk struct {
	s *Store
	// cur is the chunk being filled (off the heap); chunks before it are
	// in file, spilt[i] being chunk i's place there.
	cur     []byte
	spilt   []spiltChunk
	file    *os.File
	fileLen int64
	// rbuf holds the spilt chunk rchunk (-1: none) read back.
	rbuf   []byte
	rchunk int

	used  int64 // bytes of entries
	n     int   // ops added
	conds condTable
	key   []byte // reused encoding buffers
	val   []byte
	done  bool
}

type spiltChunk struct {
	off int64
	n   int
}

var _ kv.BulkWriter = (*Store)(nil)

// NewBulk implements kv.BulkWriter.
func (s *Store) NewBulk() kv.Bulk { return &bulk{s: s, rchunk: -1} }

// errBulkOp rejects ops a bulk batch does not take.
var errBulkOp = errors.New("kv/pebble: a bulk batch takes puts and deletes with no condition or CondNotExists")

var errBulkOver = errors.New("kv/pebble: bulk batch is over")

// Add implements kv.Bulk.
func (b *bulk) Add(ops []kv.Op) error {
	if b.done {
		return errBulkOver
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
		loc, err := b.reserve(size)
		if err != nil {
			return err
		}
		c := b.cur
		start := len(c)
		c = append(c, byte(op.Cond), byte(kind))
		c = binary.AppendUvarint(c, uint64(len(b.key)))
		c = append(c, b.key...)
		if kind == pebble.InternalKeyKindSet {
			c = binary.AppendUvarint(c, uint64(len(b.val)))
			c = append(c, b.val...)
		}
		b.cur = c
		b.used += int64(len(c) - start)
		if op.Cond == kv.CondNotExists {
			fresh, err := b.conds.insert(b, loc, b.s.keyHash(b.key))
			if err != nil {
				return err
			}
			if !fresh {
				// Not added: the caller may add it again, changed.
				b.cur = c[:start]
				b.used -= int64(len(c) - start)
				return &kv.ConditionFailedError{Index: b.n, Key: op.Key}
			}
		}
		b.n++
	}
	return nil
}

// reserve makes room for an entry of up to size bytes in the current
// chunk, spilling a full one, and returns the entry's location.
func (b *bulk) reserve(size int) (uint64, error) {
	if b.cur != nil && len(b.cur)+size <= min(cap(b.cur), bulkChunkSize) {
		return uint64(len(b.spilt))<<chunkOffsetBits | uint64(len(b.cur)), nil
	}
	if len(b.cur) > 0 {
		if err := b.spill(); err != nil {
			return 0, err
		}
	}
	if cap(b.cur) < size || b.cur == nil {
		freeOffHeap(b.cur)
		b.cur = allocOffHeap(max(size, bulkChunkSize))[:0]
	}
	return uint64(len(b.spilt)) << chunkOffsetBits, nil
}

// spill writes the current chunk to the file and empties it.
func (b *bulk) spill() error {
	if b.file == nil {
		f, err := os.CreateTemp(b.s.tempDir, "zproxy-bulk-*")
		if err != nil {
			return fmt.Errorf("kv/pebble: bulk batch: %w", err)
		}
		// Unlinked at once: the space goes back when the file closes,
		// whatever becomes of the process.
		_ = os.Remove(f.Name())
		b.file = f
	}
	if _, err := b.file.WriteAt(b.cur, b.fileLen); err != nil {
		return fmt.Errorf("kv/pebble: bulk batch: %w", err)
	}
	b.spilt = append(b.spilt, spiltChunk{off: b.fileLen, n: len(b.cur)})
	b.fileLen += int64(len(b.cur))
	b.cur = b.cur[:0]
	return nil
}

// chunk returns chunk i's bytes (a spilt one read back into rbuf).
func (b *bulk) chunk(i int) ([]byte, error) {
	if i == len(b.spilt) {
		return b.cur, nil
	}
	if b.rchunk == i {
		return b.rbuf, nil
	}
	sc := b.spilt[i]
	if cap(b.rbuf) < sc.n {
		freeOffHeap(b.rbuf)
		b.rbuf = allocOffHeap(max(sc.n, bulkChunkSize))[:0]
	}
	b.rbuf = b.rbuf[:sc.n]
	b.rchunk = -1
	if _, err := b.file.ReadAt(b.rbuf, sc.off); err != nil {
		return nil, fmt.Errorf("kv/pebble: bulk batch: %w", err)
	}
	b.rchunk = i
	return b.rbuf, nil
}

// keyAt returns the key of the entry at loc (a spilt one read back from
// the file alone).
func (b *bulk) keyAt(loc uint64) ([]byte, error) {
	i, p := int(loc>>chunkOffsetBits), int(loc&(1<<chunkOffsetBits-1))
	if i == len(b.spilt) || i == b.rchunk {
		c, err := b.chunk(i)
		if err != nil {
			return nil, err
		}
		_, _, key, _, _ := decodeEntry(c, p)
		return key, nil
	}
	sc := b.spilt[i]
	var hdr [2 + binary.MaxVarintLen64]byte
	n := min(len(hdr), sc.n-p)
	if _, err := b.file.ReadAt(hdr[:n], sc.off+int64(p)); err != nil {
		return nil, fmt.Errorf("kv/pebble: bulk batch: %w", err)
	}
	l, w := binary.Uvarint(hdr[2:n])
	key := make([]byte, l)
	if _, err := b.file.ReadAt(key, sc.off+int64(p+2+w)); err != nil {
		return nil, fmt.Errorf("kv/pebble: bulk batch: %w", err)
	}
	return key, nil
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

// each calls fn for every entry in order, with its op number and
// location, until fn returns false. The slices are valid during the call.
func (b *bulk) each(fn func(i int, loc uint64, cond kv.Condition, kind pebble.InternalKeyKind, key, val []byte) bool) error {
	i := 0
	for ci := 0; ci <= len(b.spilt); ci++ {
		c, err := b.chunk(ci)
		if err != nil {
			return err
		}
		for p := 0; p < len(c); {
			cond, kind, key, val, next := decodeEntry(c, p)
			if !fn(i, uint64(ci)<<chunkOffsetBits|uint64(p), cond, kind, key, val) {
				return nil
			}
			i++
			p = next
		}
	}
	return nil
}

// Size implements kv.Bulk: the encoded ops, which Commit holds in memory
// at once, and the condition table.
func (b *bulk) Size() int64 {
	return b.used + int64(len(b.conds.slots))*8
}

// FirstStored implements kv.Bulk.
func (b *bulk) FirstStored(ctx context.Context) (int, error) {
	if b.done {
		return -1, errBulkOver
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
	err = b.each(func(i int, _ uint64, cond kv.Condition, _ pebble.InternalKeyKind, key, _ []byte) bool {
		if cond == kv.CondNotExists && iter.SeekPrefixGE(key) {
			first = i
			return false
		}
		return true
	})
	if err != nil {
		return -1, err
	}
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
		return errBulkOver
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
	b.conds.free()
	repr, err := b.repr()
	if err != nil {
		return err
	}
	if err := s.commitRepr(repr, s.liveWriters.Load() > 0); err != nil {
		return err
	}
	s.unflushed.Store(true)
	stats.AddRequest()
	stats.AddWritten(b.n)
	return nil
}

// repr returns the Pebble batch representation of the entries, in one
// allocation of its exact size, and releases the chunks: a 12-byte header
// (sequence number, filled in by the commit, and count), then the
// entries less their condition bytes.
func (b *bulk) repr() ([]byte, error) {
	repr := make([]byte, 12, 12+b.used-int64(b.n))
	binary.LittleEndian.PutUint32(repr[8:], uint32(b.n))
	for ci := 0; ci <= len(b.spilt); ci++ {
		c, err := b.chunk(ci)
		if err != nil {
			return nil, err
		}
		for p := 0; p < len(c); {
			_, _, _, _, next := decodeEntry(c, p)
			repr = append(repr, c[p+1:next]...)
			p = next
		}
	}
	b.release()
	return repr, nil
}

// Op implements kv.Bulk.
func (b *bulk) Op(i int) (kv.Op, bool) {
	var op kv.Op
	found := false
	_ = b.each(func(j int, _ uint64, cond kv.Condition, kind pebble.InternalKeyKind, key, val []byte) bool {
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
	b.release()
}

// release frees the chunks, the file and the table.
func (b *bulk) release() {
	freeOffHeap(b.cur)
	freeOffHeap(b.rbuf)
	b.cur, b.rbuf, b.rchunk, b.spilt = nil, nil, -1, nil
	if b.file != nil {
		_ = b.file.Close()
		_ = os.Remove(b.file.Name()) // where an open file cannot be removed
		b.file = nil
	}
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
// hash above them, so a probe of another key almost never reads the
// entry (from the file, once spilt).
type condTable struct {
	slots []uint64 // off the heap; a power of two in length
	n     int
}

const (
	condLocBits = 40
	condLocMask = 1<<condLocBits - 1
)

// insert adds the key at loc (hash h), which the caller has just added,
// and reports whether it was new; an equal key present already leaves the
// table unchanged.
func (t *condTable) insert(b *bulk, loc, h uint64) (bool, error) {
	if (t.n+1)*4 > len(t.slots)*3 {
		if err := t.grow(b, loc); err != nil {
			return false, err
		}
	}
	var key []byte // read on the first tag match
	tag := h >> condLocBits
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			t.slots[i] = tag<<condLocBits | (loc + 1)
			t.n++
			return true, nil
		}
		if s>>condLocBits != tag {
			continue
		}
		if key == nil {
			k, err := b.keyAt(loc)
			if err != nil {
				return false, err
			}
			key = bytes.Clone(k)
		}
		k, err := b.keyAt(s&condLocMask - 1)
		if err != nil {
			return false, err
		}
		if bytes.Equal(k, key) {
			return false, nil
		}
	}
}

// grow doubles the table (from 64K slots), re-entering the conditioned
// keys of the entries before upto in one pass over the chunks.
func (t *condTable) grow(b *bulk, upto uint64) error {
	size := max(1<<16, 2*len(t.slots))
	t.free()
	t.slots = unsafeSlots(allocOffHeap(size * 8))
	mask := uint64(size - 1)
	return b.each(func(_ int, loc uint64, cond kv.Condition, _ pebble.InternalKeyKind, key, _ []byte) bool {
		if loc >= upto {
			return false
		}
		if cond != kv.CondNotExists {
			return true
		}
		h := b.s.keyHash(key)
		for i := h & mask; ; i = (i + 1) & mask {
			if t.slots[i] == 0 {
				t.slots[i] = h>>condLocBits<<condLocBits | (loc + 1)
				t.n++
				return true
			}
		}
	})
}

func (t *condTable) free() {
	freeSlots(t.slots)
	t.slots, t.n = nil, 0
}
