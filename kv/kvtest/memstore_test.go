package kvtest

import (
	"bytes"
	"context"
	"errors"
	"math"
	"slices"
	"sync"
	"testing"

	"github.com/zproxy/zproxy/kv"
)

// memStore is the simplest store that honours the contract: a map under a
// mutex, with scans that sort a snapshot of the partition. It checks the
// suite itself against an implementation obviously right by inspection, and
// its MaxAtomicOps exercises the ErrBatchTooLarge path that Pebble (no
// limit) never takes.
type memStore struct {
	mu     sync.Mutex
	parts  map[string]map[string][]kv.Attr
	closed bool
}

const memMaxAtomicOps = 25

func newMemStore() *memStore { return &memStore{parts: map[string]map[string][]kv.Attr{}} }

func (m *memStore) Capabilities() kv.Capabilities {
	return kv.Capabilities{Name: "mem", MaxAtomicOps: memMaxAtomicOps, CheapSeek: true}
}

func (m *memStore) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	return nil
}

func cloneAttrs(attrs []kv.Attr) []kv.Attr {
	out := make([]kv.Attr, len(attrs))
	for i, a := range attrs {
		a.B = bytes.Clone(a.B)
		out[i] = a
	}
	return out
}

func (m *memStore) Get(_ context.Context, req kv.GetRequest) ([]kv.Item, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, kv.ErrClosed
	}
	req.Stats.AddRequest()
	out := make([]kv.Item, len(req.Keys))
	for i, k := range req.Keys {
		if attrs, ok := m.parts[string(k.Partition)][string(k.Sort)]; ok {
			out[i] = kv.Item{Key: k, Attrs: cloneAttrs(attrs)}
			req.Stats.AddRead(1, len(k.Sort)+1)
		}
	}
	return out, nil
}

func (m *memStore) Write(_ context.Context, b kv.Batch) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return kv.ErrClosed
	}
	if b.Atomic && len(b.Ops) > memMaxAtomicOps {
		return kv.ErrBatchTooLarge
	}
	// Conditions see the batch's own earlier ops.
	earlier := map[string]kv.Op{}
	for i, op := range b.Ops {
		k := string(op.Key.Partition) + "\x00" + string(op.Key.Sort)
		prior, seen := earlier[k]
		earlier[k] = op
		if op.Cond == kv.CondNone {
			continue
		}
		if !b.Atomic {
			return errors.New("mem: condition in a non-atomic batch")
		}
		cur, exists := m.parts[string(op.Key.Partition)][string(op.Key.Sort)]
		if seen {
			cur, exists = prior.Attrs, prior.Kind == kv.OpPut
		}
		holds := exists == (op.Cond != kv.CondNotExists)
		if op.Cond == kv.CondAttrEquals && exists {
			holds = kv.SameValue(kv.Lookup(cur, op.CondAttr.Name), op.CondAttr)
		}
		if !holds {
			return &kv.ConditionFailedError{Index: i, Key: op.Key}
		}
	}
	for _, op := range b.Ops {
		p := m.parts[string(op.Key.Partition)]
		if p == nil {
			p = map[string][]kv.Attr{}
			m.parts[string(op.Key.Partition)] = p
		}
		if op.Kind == kv.OpDelete {
			delete(p, string(op.Key.Sort))
		} else {
			p[string(op.Key.Sort)] = cloneAttrs(op.Attrs)
		}
	}
	b.Stats.AddRequest()
	b.Stats.AddWritten(len(b.Ops))
	return nil
}

func (m *memStore) Scan(_ context.Context, req kv.ScanRequest) kv.Iterator {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return &memIter{err: kv.ErrClosed}
	}
	req.Stats.AddRequest()
	var items []kv.Item
	for sk, attrs := range m.parts[string(req.Partition)] {
		items = append(items, kv.Item{Key: kv.Key{Partition: req.Partition, Sort: []byte(sk)}, Attrs: cloneAttrs(attrs)})
	}
	slices.SortFunc(items, func(a, b kv.Item) int { return bytes.Compare(a.Key.Sort, b.Key.Sort) })
	return &memIter{req: req, items: items, pos: -1}
}

type memIter struct {
	req   kv.ScanRequest
	items []kv.Item // the whole partition, ascending
	pos   int       // index of the current item; -1 before the first Next
	lo    []byte    // effective bounds after Seek
	hi    []byte
	seek  bool
	err   error
}

func (it *memIter) inRange(k []byte) bool {
	lo, hi := it.req.Start, it.req.End
	if it.lo != nil && (lo == nil || bytes.Compare(it.lo, lo) > 0) {
		lo = it.lo
	}
	if it.hi != nil && (hi == nil || bytes.Compare(it.hi, hi) < 0) {
		hi = it.hi
	}
	return (lo == nil || bytes.Compare(k, lo) >= 0) && (hi == nil || bytes.Compare(k, hi) < 0)
}

func (it *memIter) Next() bool {
	if it.err != nil {
		return false
	}
	if it.req.Reverse {
		if it.pos == -1 || it.seek {
			it.pos = len(it.items)
			it.seek = false
		}
		for it.pos--; it.pos >= 0; it.pos-- {
			if it.inRange(it.items[it.pos].Key.Sort) {
				it.req.Stats.AddRead(1, 1)
				return true
			}
		}
		return false
	}
	if it.seek {
		it.pos = -1
		it.seek = false
	}
	for it.pos++; it.pos < len(it.items); it.pos++ {
		if it.inRange(it.items[it.pos].Key.Sort) {
			it.req.Stats.AddRead(1, 1)
			return true
		}
	}
	return false
}

func (it *memIter) Item() kv.Item { return it.items[it.pos] }

func (it *memIter) Seek(sort []byte) {
	if it.req.Reverse {
		it.hi = bytes.Clone(sort)
	} else {
		it.lo = bytes.Clone(sort)
	}
	it.seek = true
}

func (it *memIter) Err() error   { return it.err }
func (it *memIter) Close() error { return nil }

func TestSuiteAgainstMemStore(t *testing.T) {
	RunWith(t, func(t *testing.T) kv.Store { return newMemStore() }, Options{LargeBytes: 1 << 20, LargeValueBytes: 16 << 10, Parallel: true})
}

func TestAttrEqual(t *testing.T) {
	nan := kv.Attr{Name: "f", Kind: kv.AttrFloat, F: math.NaN()}
	zero := kv.Attr{Name: "f", Kind: kv.AttrFloat, F: 0}
	negZero := kv.Attr{Name: "f", Kind: kv.AttrFloat, F: math.Copysign(0, -1)}
	cases := []struct {
		a, b kv.Attr
		want bool
	}{
		{nan, nan, true},
		{nan, zero, false},
		{zero, negZero, false},
		{zero, zero, true},
		{kv.Attr{Name: "b", Kind: kv.AttrBytes}, kv.Attr{Name: "b", Kind: kv.AttrBytes, B: []byte{}}, true},
		{kv.Attr{Name: "b", Kind: kv.AttrBytes, B: []byte{0}}, kv.Attr{Name: "b", Kind: kv.AttrBytes, B: []byte{}}, false},
		{kv.Attr{Name: "i", Kind: kv.AttrInt, I: 2}, kv.Attr{Name: "i", Kind: kv.AttrFloat, F: 2}, false},
		{kv.Attr{Name: "i", Kind: kv.AttrInt, I: 2}, kv.Attr{Name: "j", Kind: kv.AttrInt, I: 2}, false},
		{kv.Attr{Name: "t", Kind: kv.AttrBool, I: 1}, kv.Attr{Name: "t", Kind: kv.AttrBool, I: 1}, true},
		{kv.Attr{Name: "t", Kind: kv.AttrBool, I: 1}, kv.Attr{Name: "t", Kind: kv.AttrBool, I: 0}, false},
		{kv.Attr{Name: "s", Kind: kv.AttrString, S: "a\x00"}, kv.Attr{Name: "s", Kind: kv.AttrString, S: "a"}, false},
		{kv.Attr{Name: "n", Kind: kv.AttrNull}, kv.Attr{Name: "n", Kind: kv.AttrNull, I: 5}, true},
	}
	for i, c := range cases {
		if got := AttrEqual(c.a, c.b); got != c.want {
			t.Errorf("case %d: AttrEqual(%s, %s) = %v", i, FormatAttrs([]kv.Attr{c.a}), FormatAttrs([]kv.Attr{c.b}), got)
		}
	}
	a := []kv.Attr{{Name: "x", Kind: kv.AttrInt, I: 1}, {Name: "y", Kind: kv.AttrString, S: "s"}}
	if !AttrsEqual(a, []kv.Attr{a[1], a[0]}) {
		t.Error("AttrsEqual depends on order")
	}
	if AttrsEqual(a, a[:1]) || AttrsEqual(a, []kv.Attr{a[0], {Name: "y", Kind: kv.AttrString, S: "t"}}) {
		t.Error("AttrsEqual accepted different lists")
	}
}
