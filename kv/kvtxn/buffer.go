package kvtxn

import (
	"encoding/binary"
	"math/rand/v2"
	"strings"

	"github.com/zproxy/zproxy/kv"
)

// WriteKind is what a transaction does to one key.
type WriteKind uint8

// Write kinds, from weakest to strongest lock: a put or delete supersedes a
// lock, and LockUpdate supersedes LockShare.
const (
	WriteLockShare  WriteKind = iota + 1 // kv.LockShare: read, must not change until commit
	WriteLockUpdate                      // kv.LockUpdate: in the write set, value unchanged
	WritePut
	WriteDelete
)

// IsLock reports whether k is a lock rather than a change of value.
func (k WriteKind) IsLock() bool { return k == WriteLockShare || k == WriteLockUpdate }

// Write is the net effect of a transaction on one key, as Commit receives
// it: the last put or delete, or the strongest lock when the key is only
// locked.
type Write struct {
	Key   kv.Key
	Kind  WriteKind
	Attrs []kv.Attr // WritePut only
}

// buffer is a persistent (immutable, path-copying) treap of Writes ordered
// by encoded key. Every change returns a new root and leaves older roots
// intact, which gives savepoints (remember a root, restore it later) and
// iterators that see the buffer as it was when they opened, both for free.
// Each change allocates O(log n) nodes.
type buffer struct {
	root *node
	n    int // number of keys
}

type node struct {
	key         string // encodeKey(w.Key)
	w           Write
	prio        uint32
	left, right *node
}

// encodeKey orders keys by partition, then sort key: uvarint(len(partition))
// ‖ partition ‖ sort, the same layout kv/pebble uses, so a partition's keys
// are contiguous and sort bytewise within it.
func encodeKey(k kv.Key) string {
	var b strings.Builder
	b.Grow(binary.MaxVarintLen64 + len(k.Partition) + len(k.Sort))
	var l [binary.MaxVarintLen64]byte
	b.Write(l[:binary.PutUvarint(l[:], uint64(len(k.Partition)))])
	b.Write(k.Partition)
	b.Write(k.Sort)
	return b.String()
}

// partitionPrefix is the encoded prefix of every key in partition p.
func partitionPrefix(p []byte) string {
	return encodeKey(kv.Key{Partition: p})
}

func (b *buffer) get(key string) (Write, bool) {
	n := b.root
	for n != nil {
		switch {
		case key < n.key:
			n = n.left
		case key > n.key:
			n = n.right
		default:
			return n.w, true
		}
	}
	return Write{}, false
}

// set stores w under key, replacing what was there.
func (b *buffer) set(key string, w Write) {
	var added bool
	b.root = insert(b.root, key, w, &added)
	if added {
		b.n++
	}
}

// insert returns a copy of the subtree n with w stored under key. Every node
// on the search path is copied; the rotations only touch those copies.
func insert(n *node, key string, w Write, added *bool) *node {
	if n == nil {
		*added = true
		return &node{key: key, w: w, prio: rand.Uint32()}
	}
	c := *n
	switch {
	case key < n.key:
		c.left = insert(n.left, key, w, added)
		if c.left.prio > c.prio {
			l := c.left // a fresh copy: safe to modify
			c.left = l.right
			l.right = &c
			return l
		}
	case key > n.key:
		c.right = insert(n.right, key, w, added)
		if c.right.prio > c.prio {
			r := c.right
			c.right = r.left
			r.left = &c
			return r
		}
	default:
		c.w = w
	}
	return &c
}

// ceil returns the node with the smallest key >= key (> key when strict).
func ceil(n *node, key string, strict bool) *node {
	var best *node
	for n != nil {
		if n.key > key || (!strict && n.key == key) {
			best = n
			n = n.left
		} else {
			n = n.right
		}
	}
	return best
}

// floor returns the node with the largest key < key.
func floor(n *node, key string) *node {
	var best *node
	for n != nil {
		if n.key < key {
			best = n
			n = n.right
		} else {
			n = n.left
		}
	}
	return best
}

// each calls fn for every node in key order.
func each(n *node, fn func(*node)) {
	for n != nil {
		each(n.left, fn)
		fn(n)
		n = n.right
	}
}

// anyIn reports whether some key lies in [lo, hi) (hi "" is unbounded).
func anyIn(root *node, lo, hi string) bool {
	n := ceil(root, lo, false)
	return n != nil && (hi == "" || n.key < hi)
}
