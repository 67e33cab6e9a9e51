package catalog

import (
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/zorder"
)

// Encoder forms the store keys and attributes of many rows of one table and
// of their index entries, for a writer that forms a batch of them at once
// (a statement's write set, a COPY's batch). Each result is byte for byte
// what the Table method of the same name returns (RowKey, RowAttrs,
// EntryKeyPK, EntryAttrs); what differs is the work per row: what the
// layout derives from (each index's entry columns and Z-order schema, the
// partition key of each shard) is computed once per Encoder rather than
// once per row and entry, and keys and attribute lists are cut from
// arenas, a few large allocations a batch instead of several a row.
//
// An Encoder is made from one descriptor and lives no longer than the
// statement or batch that made it, which wrote with that descriptor
// throughout anyway: no catalog change can make what it holds stale (a new
// descriptor is a new Encoder). It is not safe for concurrent use.
//
// The keys and attribute lists it returns are cut with capacity equal to
// length, so appending to one copies it rather than overwrite its
// neighbour; partition keys are shared between the items of one shard and
// must not be changed (no writer does). Reset reuses the arenas.
type Encoder struct {
	t        *Table
	layouts  []encoderLayout
	rowParts [][]byte // by shard, filled as met
	scratch  []byte
	codes    []uint64
	keys     []byte    // the key arena's current chunk
	attrs    []kv.Attr // the attribute arena's current chunk
	keyChunk int
	attrRow  int // attributes a row and all its entries may need
	rowsHint int
}

// encoderLayout is what an Encoder keeps of one index.
type encoderLayout struct {
	ix    *Index
	zs    *zorder.Schema // Z-order indexes only
	cols  []int          // EntryColumns
	parts [][]byte       // by shard, filled as met
}

// NewEncoder returns an Encoder for t's rows; rows is about how many rows
// one batch forms (it sizes the arenas; any number may be formed).
func (t *Table) NewEncoder(rows int) *Encoder {
	rows = min(max(rows, 16), 4096)
	e := &Encoder{t: t, rowsHint: rows, attrRow: len(t.Columns) + 2}
	for _, ix := range t.Indexes {
		l := e.layout(ix)
		e.attrRow += len(l.cols) + 1
	}
	// Most key values encode in 9 bytes or so (EncodePK's estimate); a
	// row's key and each entry's carry the primary key.
	perRow := 10 * len(t.PrimaryKey) * (1 + len(t.Indexes))
	for _, ix := range t.Indexes {
		perRow += 10 * len(ix.Columns)
	}
	e.keyChunk = min(max(rows*perRow, 4096), 1<<20)
	return e
}

// layout returns ix's layout, made the first time ix is met (an index the
// descriptor does not list, such as one being built from a copy, too).
func (e *Encoder) layout(ix *Index) *encoderLayout {
	for i := range e.layouts {
		if e.layouts[i].ix == ix {
			return &e.layouts[i]
		}
	}
	l := encoderLayout{ix: ix, cols: e.t.EntryColumns(ix), parts: make([][]byte, max(ix.Shards, 1))}
	if ix.Kind == KindZOrder {
		l.zs = e.t.ZSchema(ix)
		if len(ix.Columns) > len(e.codes) {
			e.codes = make([]uint64, len(ix.Columns))
		}
	}
	e.layouts = append(e.layouts, l)
	return &e.layouts[len(e.layouts)-1]
}

// Reset makes the arenas' memory reusable: every key and attribute list
// returned so far may be overwritten, so the caller must hold none (a
// kv.Bulk's Add, which retains nothing of its ops, is such a consumer).
func (e *Encoder) Reset() {
	e.keys = e.keys[:0]
	e.attrs = e.attrs[:0]
}

// cut copies b into the key arena and returns the copy.
func (e *Encoder) cut(b []byte) []byte {
	if len(b) > e.keyChunk/4 {
		return append(make([]byte, 0, len(b)), b...)
	}
	if cap(e.keys)-len(e.keys) < len(b) {
		e.keys = make([]byte, 0, e.keyChunk)
	}
	n := len(e.keys)
	e.keys = append(e.keys, b...)
	return e.keys[n : n+len(b) : n+len(b)]
}

// attrSpace returns an empty attribute list with room for n attributes
// at the arena's end; done then takes what was appended to it.
func (e *Encoder) attrSpace(n int) []kv.Attr {
	if cap(e.attrs)-len(e.attrs) < n {
		e.attrs = make([]kv.Attr, 0, max(n, e.rowsHint*e.attrRow))
	}
	return e.attrs[len(e.attrs):len(e.attrs)]
}

// done moves the arena's end past a, filled from attrSpace. An a that
// outgrew the room attrSpace gave (append moved it) is its own memory and
// is returned as it is, the arena untouched.
func (e *Encoder) done(a []kv.Attr) []kv.Attr {
	n := len(e.attrs)
	if len(a) == 0 || n+len(a) > cap(e.attrs) || &e.attrs[:n+1][n] != &a[0] {
		return a[:len(a):len(a)]
	}
	e.attrs = e.attrs[:n+len(a)]
	return e.attrs[n : n+len(a) : n+len(a)]
}

// RowKey is Table.RowKey.
func (e *Encoder) RowKey(row []sqltypes.Value) kv.Key {
	e.scratch = e.t.EncodePK(e.scratch[:0], row)
	pk := e.cut(e.scratch)
	return kv.Key{Partition: e.rowPartition(e.t.RowShard(pk)), Sort: pk}
}

func (e *Encoder) rowPartition(shard int) []byte {
	if e.rowParts == nil {
		e.rowParts = make([][]byte, max(e.t.Shards, 1))
	}
	if shard >= len(e.rowParts) {
		return e.t.Partition(shard)
	}
	if e.rowParts[shard] == nil {
		e.rowParts[shard] = e.t.Partition(shard)
	}
	return e.rowParts[shard]
}

// RowAttrs is Table.RowAttrs.
func (e *Encoder) RowAttrs(row []sqltypes.Value, version int64) []kv.Attr {
	attrs := e.attrSpace(len(row) + 2)
	for i, v := range row {
		attrs = e.t.appendAttr(attrs, i, v)
	}
	attrs = e.t.appendExpiry(attrs, row)
	return e.done(append(attrs, kv.Attr{Name: VersionAttr, ID: VersionAttrID, Kind: kv.AttrInt, I: version}))
}

// EntryKeyPK is Table.EntryKeyPK (for a btree or Z-order index).
func (e *Encoder) EntryKeyPK(ix *Index, row []sqltypes.Value, pk []byte) kv.Key {
	l := e.layout(ix)
	var codes []uint64
	if l.zs != nil {
		codes = e.codes[:len(ix.Columns)]
	}
	sort, shard := e.t.appendEntrySort(e.scratch[:0], ix, l.zs, codes, row, pk)
	e.scratch = sort
	var part []byte
	if shard < len(l.parts) {
		if l.parts[shard] == nil {
			l.parts[shard] = IndexPartition(ix.ID, shard)
		}
		part = l.parts[shard]
	} else {
		part = IndexPartition(ix.ID, shard)
	}
	return kv.Key{Partition: part, Sort: e.cut(sort)}
}

// EntryAttrs is Table.EntryAttrs.
func (e *Encoder) EntryAttrs(ix *Index, row []sqltypes.Value) []kv.Attr {
	l := e.layout(ix)
	attrs := e.attrSpace(len(l.cols) + 1)
	for _, c := range l.cols {
		attrs = e.t.appendAttr(attrs, c, row[c])
	}
	return e.done(e.t.appendExpiry(attrs, row))
}

// EntryColumns is Table.EntryColumns, computed once.
func (e *Encoder) EntryColumns(ix *Index) []int { return e.layout(ix).cols }
