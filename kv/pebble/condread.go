package pebble

import (
	"bytes"
	"errors"

	"github.com/cockroachdb/pebble"

	"github.com/zproxy/zproxy/kv"
)

// condIterAfter is how many of one commit's condition reads use db.Get
// before the rest share one iterator.
const condIterAfter = 8

// condReader reads the items one commit's conditions name. Each db.Get
// builds an iterator stack of its own over the memtables and every sstable
// that may hold the key (in race-enabled builds Pebble also records each
// sstable iterator's stack for its leak check), so a batch of many
// conditional puts (a bulk copy, ALTER TABLE ADD PRIMARY KEY, a large
// INSERT) spends most of its time opening iterators; past condIterAfter
// reads one iterator, sought to each key, serves the rest. Both see the
// latest committed state, which the commit's key locks keep still for the
// keys read.
type condReader struct {
	gets int
	iter *pebble.Iterator
}

// get tells whether key exists and, when withAttrs, its attributes.
func (r *condReader) get(db *pebble.DB, key []byte, withAttrs bool) (exists bool, attrs []kv.Attr, err error) {
	var value []byte
	if r.iter == nil && r.gets < condIterAfter {
		r.gets++
		v, closer, err := db.Get(key)
		if errors.Is(err, pebble.ErrNotFound) {
			return false, nil, nil
		}
		if err != nil {
			return false, nil, err
		}
		defer closer.Close()
		value = v
	} else {
		if r.iter == nil {
			if r.iter, err = db.NewIter(nil); err != nil {
				return false, nil, err
			}
		}
		if !r.iter.SeekGE(key) || !bytes.Equal(r.iter.Key(), key) {
			return false, nil, r.iter.Error()
		}
		if !withAttrs {
			return true, nil, nil
		}
		if value, err = r.iter.ValueAndErr(); err != nil {
			return false, nil, err
		}
	}
	if withAttrs {
		attrs, err = decodeValue(value)
	}
	return true, attrs, err
}

// close releases the iterator, if one was opened.
func (r *condReader) close() {
	if r.iter != nil {
		_ = r.iter.Close()
		r.iter = nil
	}
}
