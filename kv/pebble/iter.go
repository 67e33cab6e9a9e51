package pebble

import (
	"bytes"
	"fmt"
	"time"

	"github.com/cockroachdb/pebble"

	"github.com/zproxy/zproxy/kv"
)

// iterator is a kv.Iterator over a Pebble iterator bounded to the scan's key
// span, so it can never step into another partition.
//
// Item lifetime: Item().Key.Sort aliases Pebble's iterator memory and is
// valid only until the next Next or Seek, and so are Attrs: they are decoded
// without copying, into a slice the iterator reuses, with names, strings and
// bytes pointing into Pebble's value memory. Key.Partition is the request's
// own slice.
//
// Attributes are decoded when Item is first called for an item, not by Next,
// so an item skipped after Key (kv.KeyIterator) costs no decoding; a scan
// with a projection (kv.ScanRequest.Attrs) decodes only those attributes. A
// value that does not decode leaves Item's Attrs nil and ends the scan: Next
// then reports false and Err the error.
//
// The iterator is not safe for concurrent use (no kv.Iterator is). The scan
// is recorded on the Observer once, when the iterator is closed.
type iterator struct {
	s         *Store
	req       kv.ScanRequest
	pit       *pebble.Iterator // nil for an empty range, a failed open, or once closed
	lower     []byte
	upper     []byte
	prefixLen int
	seekBuf   []byte

	started    bool // the Pebble iterator has been positioned
	positioned bool // a Seek left it on the item the next Next returns
	exhausted  bool
	cur        kv.Item
	value      []byte // cur's encoded value, decoded into cur.Attrs by Item
	decoded    bool
	proj       *projection
	attrBuf    []kv.Attr // reused by every item
	err        error

	start  time.Time
	closed bool
	// rescannable says Rescan may move the iterator to another range: it
	// reads the store itself, not a transaction's snapshot (whose
	// buffered writes kvtxn merges into a new Scan of a range that has
	// any, so it must see each range's Scan).
	rescannable bool
	// track is the span of a serializable transaction's read set
	// (serial.go) this scan covers, moved as it reads; nil outside one.
	track *readSpan
	reads *readSet
}

func (it *iterator) Next() bool {
	it.cur = kv.Item{}
	if it.err != nil || it.exhausted || it.closed {
		return false
	}
	it.s.closeMu.RLock()
	defer it.s.closeMu.RUnlock()
	if it.pit == nil { // the store closed it
		it.err = kv.ErrClosed
		return false
	}
	var valid bool
	switch {
	case it.positioned:
		valid = it.pit.Valid()
	case !it.started && it.req.Reverse:
		valid = it.pit.Last()
	case !it.started:
		valid = it.pit.First()
	case it.req.Reverse:
		valid = it.pit.Prev()
	default:
		valid = it.pit.Next()
	}
	it.started, it.positioned = true, false
	if !valid {
		it.exhausted = true
		if err := it.pit.Error(); err != nil {
			it.err = fmt.Errorf("kv/pebble: scan: %w", err)
		} else if it.track != nil {
			it.reads.ranOut(it.track, it.req.Reverse)
		}
		return false
	}
	key, value := it.pit.Key(), it.pit.Value()
	if it.track != nil {
		it.reads.reached(it.track, key, it.req.Reverse)
	}
	// In place (cur was cleared above): an Item built and then copied
	// was a stall on every item, its fields stored one by one and read
	// back in wider loads.
	it.cur.Key.Partition, it.cur.Key.Sort = it.req.Partition, key[it.prefixLen:]
	it.value, it.decoded = value, false
	it.req.Stats.AddRead(1, len(key)+len(value))
	return true
}

var _ kv.KeyIterator = (*iterator)(nil)

// Key implements kv.KeyIterator.
func (it *iterator) Key() kv.Key { return it.cur.Key }

func (it *iterator) Item() kv.Item {
	if !it.decoded && it.cur.Key.Sort != nil {
		it.decoded = true
		if it.attrBuf == nil && it.proj != nil {
			// Room for the projection's attributes at once: grown one
			// attribute at a time, a row of six cost four allocations a
			// scan (a key lookup's tenth).
			it.attrBuf = make([]kv.Attr, 0, len(it.proj.names))
		}
		attrs, err := decodeValueAliased(it.attrBuf, it.value, it.proj)
		if err != nil {
			it.err = fmt.Errorf("kv/pebble: scan key %x: %w", it.cur.Key.Sort, err)
			it.exhausted = true
			return kv.Item{Key: it.cur.Key}
		}
		it.attrBuf = attrs
		it.cur.Attrs = attrs
	}
	return it.cur
}

var _ kv.ScalarIterator = (*iterator)(nil)

// Scalars implements kv.ScalarIterator for a scan that asked for its
// attributes by ID, every one with one, and an item in format 2. An item
// it cannot read so is left to Item, which decodes it (or reports its
// error) as it always did.
func (it *iterator) Scalars(dst []kv.Scalar) bool {
	if it.decoded || it.cur.Key.Sort == nil || it.proj == nil || it.proj.slots == nil {
		return false
	}
	return decodeV2Scalars(dst, it.value, it.proj)
}

// Seek maps onto SeekGE (forward) or SeekLT (reverse), clamped to the scan's
// bounds so a seek outside the range cannot leave it.
func (it *iterator) Seek(sort []byte) {
	it.cur = kv.Item{}
	if it.err != nil || it.closed {
		return
	}
	it.s.closeMu.RLock()
	defer it.s.closeMu.RUnlock()
	if it.pit == nil {
		return
	}
	it.seekBuf = append(append(it.seekBuf[:0], it.lower[:it.prefixLen]...), sort...)
	if it.req.Reverse {
		target := it.seekBuf
		if bytes.Compare(target, it.upper) > 0 {
			target = it.upper
		}
		it.pit.SeekLT(target)
	} else {
		target := it.seekBuf
		if bytes.Compare(target, it.lower) < 0 {
			target = it.lower
		}
		it.pit.SeekGE(target)
	}
	it.started, it.positioned, it.exhausted = true, true, false
}

var _ kv.Rescanner = (*iterator)(nil)

// Rescan implements kv.Rescanner with Pebble's SetBounds: the iterator
// keeps its view of the store, its level and sstable iterators and the
// blocks they hold, so the next range's first positioning starts from
// where the last range left them (sstable iterators step forward within
// their block when the bounds move forward) instead of building a new
// iterator and seeking every level from its index. The finished range is
// recorded on the Observer as the request it was.
func (it *iterator) Rescan(start, end []byte) bool {
	if !it.rescannable || it.err != nil || it.closed {
		return false
	}
	it.s.closeMu.RLock()
	defer it.s.closeMu.RUnlock()
	if it.pit == nil {
		return false
	}
	it.s.observe("scan", it.start, nil)
	it.start = time.Now()
	it.req.Start, it.req.End = start, end
	it.req.Stats.AddRequest()
	it.cur, it.value, it.decoded = kv.Item{}, nil, false
	it.started, it.positioned = false, false
	if start != nil && end != nil && bytes.Compare(start, end) >= 0 {
		it.exhausted = true // an empty range; Pebble wants lower <= upper
		return true
	}
	it.exhausted = false
	// The bounds are rebuilt in the iterator's own buffers: Pebble copies
	// them in SetBounds, and Seek clamps to them.
	it.lower = append(it.lower[:it.prefixLen], start...)
	if end != nil {
		it.upper = append(append(it.upper[:0], it.lower[:it.prefixLen]...), end...)
	} else {
		it.upper = kv.AppendPrefixEnd(it.upper[:0], it.lower[:it.prefixLen])
	}
	it.pit.SetBounds(it.lower, it.upper)
	return true
}

func (it *iterator) Err() error { return it.err }

func (it *iterator) Close() error {
	if it.closed {
		return nil
	}
	it.closed = true
	it.cur = kv.Item{}
	var err error
	it.s.closeMu.RLock()
	if it.pit != nil {
		it.s.itersMu.Lock()
		delete(it.s.iters, it)
		it.s.itersMu.Unlock()
		if err = it.closePebble(); err != nil {
			err = fmt.Errorf("kv/pebble: close iterator: %w", err)
		}
	}
	it.s.closeMu.RUnlock()
	observed := err
	if observed == nil {
		observed = it.err
	}
	it.s.observe("scan", it.start, observed)
	return err
}

// closePebble releases the Pebble iterator; the caller holds closeMu (shared
// from Close, exclusively from Store.Close).
func (it *iterator) closePebble() error {
	if it.pit == nil {
		return nil
	}
	err := it.pit.Close()
	it.pit = nil
	return err
}
