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

// buffer is a persistent treap of Writes ordered by encoded key: a frozen
// root (see freeze) never changes, which gives savepoints (remember a
// root, restore it later) and iterators that see the buffer as it was when
// they opened. Changes after a freeze copy the nodes on their search path,
// O(log n) allocations; nodes created since the last freeze belong to the
// current generation and are changed in place, so a run of writes with no
// savepoint or scan in between costs one allocation per new key.
type buffer struct {
	root *node
	n    int    // number of keys
	gen  uint64 // generation of nodes that may be changed in place
}

// node is one key's net write. Its kv.Key is not kept (key encodes it),
// and a put's attributes are kept encoded (attrs.go): decoded when read.
type node struct {
	key         string // encodeKey(w.Key)
	kind        WriteKind
	val         []byte // a put's encoded attributes
	prio        uint32
	gen         uint64
	left, right *node
}

// attrs decodes a put's attributes into fresh ones the caller owns.
func (n *node) attrs() []kv.Attr { return decodeAttrs(n.val) }

// write is the node as a Write.
func (n *node) write() Write {
	w := Write{Key: decodeKey(n.key), Kind: n.kind}
	if n.kind == WritePut {
		w.Attrs = n.attrs()
	}
	return w
}

// freeze returns the buffer's current state; later changes leave it
// untouched.
func (b *buffer) freeze() buffer {
	frozen := *b
	b.gen++
	return frozen
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

func (b *buffer) get(key string) (*node, bool) {
	n := b.root
	for n != nil {
		switch {
		case key < n.key:
			n = n.left
		case key > n.key:
			n = n.right
		default:
			return n, true
		}
	}
	return nil, false
}

// set stores a write of kind (with attrs for a put) under key, replacing
// what was there.
func (b *buffer) set(key string, kind WriteKind, attrs []kv.Attr) {
	var val []byte
	if kind == WritePut {
		val = encodeAttrs(attrs)
	}
	b.setEncoded(key, kind, val)
}

// setEncoded is set with a put's attributes already encoded (val, which
// the buffer keeps and never changes).
func (b *buffer) setEncoded(key string, kind WriteKind, val []byte) {
	var added bool
	b.root = insert(b.root, key, kind, val, b.gen, &added)
	if added {
		b.n++
	}
}

// insert returns the subtree n with w stored under key. Nodes on the
// search path from older generations are copied; the current generation's
// are changed in place (nothing frozen refers to them), and so are the
// rotations, which only touch nodes on the path.
func insert(n *node, key string, kind WriteKind, val []byte, gen uint64, added *bool) *node {
	if n == nil {
		*added = true
		return &node{key: key, kind: kind, val: val, prio: rand.Uint32(), gen: gen}
	}
	c := n
	if n.gen != gen {
		cp := *n
		cp.gen = gen
		c = &cp
	}
	switch {
	case key < c.key:
		c.left = insert(c.left, key, kind, val, gen, added)
		if c.left.prio > c.prio {
			l := c.left
			c.left = l.right
			l.right = c
			return l
		}
	case key > c.key:
		c.right = insert(c.right, key, kind, val, gen, added)
		if c.right.prio > c.prio {
			r := c.right
			c.right = r.left
			r.left = c
			return r
		}
	default:
		c.kind, c.val = kind, val
	}
	return c
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
