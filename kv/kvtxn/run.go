package kvtxn

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"hash/maphash"
	"slices"
	"strings"
	"unsafe"

	"github.com/zproxy/zproxy/kv"
)

// run holds the puts of fresh batches (kv.Batch.Fresh: a table new to
// the transaction, as a COPY or INSERT into a table the block created
// fills it) outside the treap. A treap insert allocates a path of nodes
// per key and costs O(log n) comparisons of long keys, and each node is
// an object the collector scans; the run appends each put, key and
// encoded attributes, to large byte chunks and indexes it by a hash of its
// key, neither holding pointers. The commit sorts the run once and merges
// it with the treap; a read, lock or other write that touches one of the
// run's partitions first folds the run into the treap, so everything else
// reads the treap as before.
//
// The transaction's state is the treap with the run's unfolded entries
// (ents[folded:]) applied on top, in order: every run entry is newer than
// every treap write to its key, since a write to the run's partitions
// other than a fresh put folds first. Entries are only appended, and the
// chunks' bytes never change once written, so a savepoint is the
// treap's frozen root with the run's length and fold point (rolling back
// truncates the run), and slices and strings may alias the chunks.
type run struct {
	chunks [][]byte
	ents   []runEnt
	folded int                 // ents[:folded] are in the treap
	index  map[uint64]int32    // key hash → last entry with that hash
	parts  map[string]struct{} // partitions of the unfolded entries (raw)
	seed   maphash.Seed
}

// runEnt is one put: its encoded key and encoded attributes, adjacent in
// chunks[chunk] at off, and the previous entry with the same key hash.
type runEnt struct {
	chunk, off, klen, vlen uint32
	prev                   int32 // -1: none
}

// runChunkSize is the size of a run's chunks (one larger put gets a chunk
// of its own size).
const runChunkSize = 1 << 20

// pending returns the number of unfolded entries.
func (r *run) pending() int { return len(r.ents) - r.folded }

// key is entry i's encoded key.
func (r *run) key(i int) []byte {
	e := &r.ents[i]
	return r.chunks[e.chunk][e.off : e.off+e.klen : e.off+e.klen]
}

// keyString is key as a string sharing the chunk's (immutable) memory.
func (r *run) keyString(i int) string {
	k := r.key(i)
	return unsafe.String(&k[0], len(k))
}

// val is entry i's encoded attributes.
func (r *run) val(i int) []byte {
	e := &r.ents[i]
	lo := e.off + e.klen
	return r.chunks[e.chunk][lo : lo+e.vlen : lo+e.vlen]
}

func (r *run) hash(key []byte) uint64 { return maphash.Bytes(r.seed, key) }

// add appends a put of attrs under k and returns its entry.
func (r *run) add(k kv.Key, attrs []kv.Attr) int {
	if r.index == nil {
		r.index = map[uint64]int32{}
		r.parts = map[string]struct{}{}
		r.seed = maphash.MakeSeed()
	}
	// need bounds what is appended, so the chunk never moves.
	need := binary.MaxVarintLen64 + len(k.Partition) + len(k.Sort) + attrsSize(attrs)
	if n := len(r.chunks); n == 0 || cap(r.chunks[n-1])-len(r.chunks[n-1]) < need {
		r.chunks = append(r.chunks, make([]byte, 0, max(runChunkSize, need)))
	}
	ci := len(r.chunks) - 1
	c := r.chunks[ci]
	off := len(c)
	c = binary.AppendUvarint(c, uint64(len(k.Partition)))
	c = append(c, k.Partition...)
	c = append(c, k.Sort...)
	klen := len(c) - off
	c = appendAttrs(c, attrs)
	r.chunks[ci] = c
	i := len(r.ents)
	e := runEnt{chunk: uint32(ci), off: uint32(off), klen: uint32(klen), vlen: uint32(len(c) - off - klen), prev: -1}
	h := r.hash(c[off : off+klen])
	if p, ok := r.index[h]; ok {
		e.prev = p
	}
	r.ents = append(r.ents, e)
	r.index[h] = int32(i)
	if _, ok := r.parts[string(k.Partition)]; !ok {
		r.parts[string(k.Partition)] = struct{}{}
	}
	return i
}

// putBefore reports whether an unfolded entry before i puts i's key.
func (r *run) putBefore(i int) bool {
	key := r.key(i)
	for j := r.ents[i].prev; j >= 0 && int(j) >= r.folded; j = r.ents[j].prev {
		if bytes.Equal(r.key(int(j)), key) {
			return true
		}
	}
	return false
}

// truncate drops the entries from n on (the latest ones, so each is its
// hash's head when its turn comes).
func (r *run) truncate(n int) {
	for i := len(r.ents) - 1; i >= n; i-- {
		h := r.hash(r.key(i))
		if p := r.ents[i].prev; p >= 0 {
			r.index[h] = p
		} else {
			delete(r.index, h)
		}
	}
	r.ents = r.ents[:n]
}

// rollback restores the run as a savepoint recorded it: n entries, the
// first folded of them in the treap.
func (r *run) rollback(n, folded int) {
	r.truncate(n)
	r.folded = folded
	clear(r.parts)
	for i := folded; i < n; i++ {
		if p, _ := r.split(i); !r.touches(p) {
			r.parts[string(p)] = struct{}{}
		}
	}
}

// touches reports whether partition p has unfolded entries.
func (r *run) touches(p []byte) bool {
	if r.pending() == 0 {
		return false
	}
	_, ok := r.parts[string(p)]
	return ok
}

// sorted returns the unfolded entries in key order, one per key (the
// last put of each).
//
// Keys of one partition share their first bytes (the encoded partition),
// which a plain comparison scans every time: each entry is sorted on its
// partition's rank and the first 16 bytes of its sort key instead (8 hold
// only a readings row's sensor id, or an index entry's leading text), and
// only ties compare the rest. Partitions rank by their encoded prefix,
// which orders their keys as the treap orders them (the prefix starts
// with its length, a uvarint: no prefix is another's prefix).
func (r *run) sorted() []int32 {
	type sortEnt struct {
		abbr [2]uint64
		part uint32
		idx  int32
	}
	ranks := map[string]uint32{}
	for p := range r.parts {
		ranks[p] = 0
	}
	// parts is cleared by a fold only; an entry's partition is always there.
	byPrefix := make([]string, 0, len(ranks))
	for p := range ranks {
		byPrefix = append(byPrefix, p)
	}
	slices.SortFunc(byPrefix, func(a, b string) int { return strings.Compare(partitionPrefix([]byte(a)), partitionPrefix([]byte(b))) })
	for i, p := range byPrefix {
		ranks[p] = uint32(i)
	}
	ents := make([]sortEnt, 0, r.pending())
	for i := r.folded; i < len(r.ents); i++ {
		p, sort := r.split(i)
		var a [16]byte
		copy(a[:], sort)
		ents = append(ents, sortEnt{abbr: [2]uint64{binary.BigEndian.Uint64(a[:8]), binary.BigEndian.Uint64(a[8:])},
			part: ranks[string(p)], idx: int32(i)})
	}
	slices.SortFunc(ents, func(a, b sortEnt) int {
		switch {
		case a.part != b.part:
			return cmp.Compare(a.part, b.part)
		case a.abbr[0] != b.abbr[0]:
			return cmp.Compare(a.abbr[0], b.abbr[0])
		case a.abbr[1] != b.abbr[1]:
			return cmp.Compare(a.abbr[1], b.abbr[1])
		}
		// Equal in their first 16 bytes (or shorter, zero-padded).
		_, sa := r.split(int(a.idx))
		_, sb := r.split(int(b.idx))
		if c := bytes.Compare(sa, sb); c != 0 {
			return c
		}
		return cmp.Compare(a.idx, b.idx)
	})
	out := make([]int32, 0, len(ents))
	for j, e := range ents {
		if j+1 < len(ents) && ents[j+1].part == e.part && ents[j+1].abbr == e.abbr && bytes.Equal(r.key(int(e.idx)), r.key(int(ents[j+1].idx))) {
			continue // a later put of the key follows
		}
		out = append(out, e.idx)
	}
	return out
}

// split is entry i's raw partition and sort key.
func (r *run) split(i int) (partition, sort []byte) {
	k := r.key(i)
	l, w := binary.Uvarint(k)
	return k[w : w+int(l) : w+int(l)], k[w+int(l):]
}

// write is entry i as a Write whose key and attributes alias the run's
// memory, the attributes decoded into scratch's.
func (r *run) write(i int, scratch []kv.Attr) Write {
	p, sort := r.split(i)
	return Write{Key: kv.Key{Partition: p, Sort: sort}, Kind: WritePut, Attrs: decodeAttrsAliased(scratch, r.val(i))}
}
