package kvtxn

import (
	"bytes"

	"github.com/zproxy/zproxy/kv"
)

// mergeIter merges a transaction's buffered writes (a frozen buffer root)
// into a snapshot scan: a buffered put replaces or adds an item, a buffered
// delete hides one, a lock changes nothing. Both inputs are in the scan's
// order; the buffer is walked by searching the treap from the last key
// returned, O(log n) a step, so Seek needs no bookkeeping.
type mergeIter struct {
	base      kv.Iterator
	root      *node
	req       kv.ScanRequest
	prefixLen int
	lo, hi    string // the scan's encoded range [lo, hi)

	baseItem   kv.Item
	baseValid  bool
	baseNeeded bool // baseItem was consumed (or never read): call base.Next
	baseDone   bool

	buf     *node // next buffered write to consider; nil when none is left
	bufInit bool  // buf has been positioned

	cur kv.Item
	err error
}

// positionBuf positions buf at the first buffered key of the range in scan
// order, or at the first one at or after (before, in reverse) sort.
func (m *mergeIter) positionBuf(from string, haveFrom bool) {
	m.bufInit = true
	if m.req.Reverse {
		bound := m.hi
		if haveFrom && from < bound {
			bound = from
		}
		m.buf = floor(m.root, bound)
	} else {
		bound := m.lo
		if haveFrom && from > bound {
			bound = from
		}
		m.buf = ceil(m.root, bound, false)
	}
	m.clipBuf()
}

// clipBuf drops buf when it left the range.
func (m *mergeIter) clipBuf() {
	if m.buf != nil && (m.buf.key < m.lo || m.buf.key >= m.hi) {
		m.buf = nil
	}
}

// advanceBuf moves buf past its current key in scan order.
func (m *mergeIter) advanceBuf() {
	if m.req.Reverse {
		m.buf = floor(m.root, m.buf.key)
	} else {
		m.buf = ceil(m.root, m.buf.key, true)
	}
	m.clipBuf()
}

func (m *mergeIter) Next() bool {
	m.cur = kv.Item{}
	if m.err != nil {
		return false
	}
	if !m.bufInit {
		m.positionBuf("", false)
	}
	for {
		if m.baseNeeded && !m.baseDone {
			m.baseValid = m.base.Next()
			m.baseNeeded = false
			if m.baseValid {
				m.baseItem = m.base.Item()
			} else {
				m.baseDone = true
				if err := m.base.Err(); err != nil {
					m.err = err
					return false
				}
			}
		}
		haveBase := m.baseValid && !m.baseDone
		// Skip locks: they do not change what is read.
		for m.buf != nil && m.buf.kind.IsLock() {
			m.advanceBuf()
		}
		if m.buf == nil && !haveBase {
			return false
		}
		c := 0 // <0: the base item comes first in scan order; >0: the buffered one
		switch {
		case m.buf == nil:
			c = -1
		case !haveBase:
			c = 1
		default:
			c = bytes.Compare(m.baseItem.Key.Sort, []byte(m.buf.key[m.prefixLen:]))
			if m.req.Reverse {
				c = -c
			}
		}
		if c < 0 {
			m.cur = m.baseItem
			m.baseNeeded = true
			return true
		}
		if c == 0 {
			m.baseNeeded = true // shadowed by the buffered write
		}
		n := m.buf
		m.advanceBuf()
		if n.kind == WritePut {
			m.cur = kv.Item{Key: kv.Key{Partition: m.req.Partition, Sort: []byte(n.key[m.prefixLen:])}, Attrs: n.attrs()}
			return true
		}
		// A buffered delete: nothing to return for this key.
	}
}

func (m *mergeIter) Item() kv.Item { return m.cur }

// Seek repositions both inputs.
func (m *mergeIter) Seek(sort []byte) {
	m.cur = kv.Item{}
	if m.err != nil {
		return
	}
	m.base.Seek(sort)
	m.baseNeeded, m.baseValid, m.baseDone = true, false, false
	m.positionBuf(m.lo[:m.prefixLen]+string(sort), true)
}

func (m *mergeIter) Err() error { return m.err }

// Prefetch forwards to the snapshot scan: the buffered writes are merged
// in as Next reaches its items, whenever they were read.
func (m *mergeIter) Prefetch() bool { return kv.Prefetch(m.base) }

func (m *mergeIter) Close() error {
	m.cur = kv.Item{}
	return m.base.Close()
}
