package executor

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
)

// Unique indexes. A row's entry in a unique index is keyed by the index
// values alone when none is NULL (catalog.Table.UniqueKeyed), and its put
// carries the store's not-exists condition in the same atomic batch or
// transaction as the row: two rows with one value, written by one proxy or
// by two at once, cannot both succeed, with no read before the write.
//
// Within one statement the write set keeps one op per unique entry: an
// entry one row leaves and another takes becomes a single unconditional
// put (the leaving row's version condition guards it), and two rows taking
// one entry fail the statement before anything is written. Uniqueness is
// thus checked at the end of each statement, as PostgreSQL does for a
// DEFERRABLE constraint: UPDATE t SET u = u + 1 succeeds whatever order
// the rows are visited in (PostgreSQL's immediate check may fail it).

// deleteEntry adds the removal of an index entry; unique says the entry is
// unique-keyed.
func (w *writeSet) deleteEntry(ix *catalog.Index, k kv.Key, unique bool) {
	if unique {
		ks := string(k.Partition) + "\x00" + string(k.Sort)
		if i, ok := w.uniq[ks]; ok {
			// A row of this statement took the entry this row leaves: its
			// put replaces the entry.
			w.ops[i].Cond = kv.CondNone
			return
		}
		w.trackUnique(ks)
	}
	w.ops = append(w.ops, kv.Op{Kind: kv.OpDelete, Key: k})
}

// putEntry adds the write of an index entry; unique says the entry is
// unique-keyed and new to the row, so it must not exist yet.
func (w *writeSet) putEntry(ix *catalog.Index, k kv.Key, attrs []kv.Attr, unique bool) {
	op := kv.Op{Kind: kv.OpPut, Key: k, Attrs: attrs}
	if unique {
		ks := string(k.Partition) + "\x00" + string(k.Sort)
		if i, ok := w.uniq[ks]; ok {
			if w.ops[i].Kind == kv.OpDelete {
				w.ops[i] = op // the entry a row of this statement leaves
				return
			}
			if w.dup == nil {
				w.dup, w.dupAt = uniqueViolation(w.t, ix, attrs), len(w.ops)
			}
			return
		}
		w.trackUnique(ks)
		op.Cond = kv.CondNotExists
	}
	w.ops = append(w.ops, op)
}

// Row keys a statement moves rows between (UPDATE t SET id = id + 1) get
// the same treatment: a key one row leaves and another takes becomes one
// put, guarded by the leaving row's version, so the statement succeeds
// whatever order its rows are visited in, and the batch writes each key
// once.

// rowKeyString is the write set's name of a row key (uniq).
func rowKeyString(k kv.Key) string { return string(k.Partition) + "\x00" + string(k.Sort) }

// leaveRowKey turns the put of a row of this statement that took key k
// (which a row moving away at version v leaves) into the replacement of
// that row; false when no row took it.
func (w *writeSet) leaveRowKey(k kv.Key, v kv.Attr) bool {
	i, ok := w.uniq[rowKeyString(k)]
	if !ok || w.ops[i].Kind != kv.OpPut {
		return false
	}
	w.ops[i] = replaceRow(w.ops[i], v)
	return true
}

// takeRowKey turns the delete of a row of this statement that left put's
// key into put, replacing that row; false when no row left it.
func (w *writeSet) takeRowKey(put kv.Op) bool {
	i, ok := w.uniq[rowKeyString(put.Key)]
	if !ok || w.ops[i].Kind != kv.OpDelete {
		return false
	}
	w.ops[i] = replaceRow(put, w.ops[i].CondAttr)
	return true
}

// replaceRow is put made the replacement of the row stored at its key at
// version v: conditional on v, and its version the next.
func replaceRow(put kv.Op, v kv.Attr) kv.Op {
	put.Cond, put.CondAttr = kv.CondAttrEquals, v
	next := int64(1)
	if v.Kind == kv.AttrInt {
		next = v.I + 1
	}
	attrs := slices.Clone(put.Attrs)
	for j := range attrs {
		if attrs[j].Name == catalog.VersionAttr {
			attrs[j].I = next
		}
	}
	put.Attrs = attrs
	return put
}

func (w *writeSet) trackUnique(ks string) {
	if w.uniq == nil {
		w.uniq = map[string]int{}
	}
	w.uniq[ks] = len(w.ops)
}

// indexOfOp returns the index of t whose entry op writes, or nil for a
// row op.
func indexOfOp(t *catalog.Table, op kv.Op) *catalog.Index {
	id, ok := catalog.IndexIDOf(op.Key.Partition)
	if !ok {
		return nil
	}
	for _, ix := range t.Indexes {
		if ix.ID == id {
			return ix
		}
	}
	return nil
}

// uniqueViolation is PostgreSQL's 23505 for a unique index, from the
// attributes of the entry that collided (which hold its key columns and
// the columns its expressions read).
func uniqueViolation(t *catalog.Table, ix *catalog.Index, attrs []kv.Attr) error {
	row := make([]sqltypes.Value, len(t.Columns))
	_ = t.DecodeRow(attrs, row)
	return pgerr.New(pgerr.UniqueViolation, "duplicate key value violates unique constraint %q", ix.Name).
		WithValues(indexKeyDetail(t, ix, row, "Key %s already exists."))
}

// keyCols lists the column ordinals of a key.
func keyCols(keys []catalog.KeyColumn) []int {
	out := make([]int, len(keys))
	for i, k := range keys {
		out[i] = k.Column
	}
	return out
}

// keyPart is one value of a key DETAIL: its name (a column's, or an
// index expression's text), type and value, and the columns a role must
// be able to read to see it.
type keyPart struct {
	name string
	typ  sqltypes.Type
	val  sqltypes.Value
	cols []int
}

// keyDetail renders a key DETAIL ("Key (a, b)=(1, x) already exists.",
// NULL as null) for the first %s of format, as PostgreSQL's
// BuildIndexValueDescription does: only to a role that may read every key
// column (for others there is no DETAIL).
func keyDetail(t *catalog.Table, cols []int, row []sqltypes.Value, format string, args ...any) func(pgerr.ColumnVisibility, any) string {
	parts := make([]keyPart, len(cols))
	for i, c := range cols {
		parts[i] = keyPart{name: t.Columns[c].Name, typ: t.Columns[c].Type, val: row[c], cols: []int{c}}
	}
	return partsDetail(t, parts, format, args...)
}

// indexKeyDetail is keyDetail for the key of index ix in row (a table
// row): an expression key is named by its text and shown with its value
// (Key (lower(email))=(x)); none when the expressions cannot be computed.
func indexKeyDetail(t *catalog.Table, ix *catalog.Index, row []sqltypes.Value, format string, args ...any) func(pgerr.ColumnVisibility, any) string {
	erow, err := ir.IndexKeyRow(t, ix, row)
	if err != nil {
		return func(pgerr.ColumnVisibility, any) string { return "" }
	}
	parts := make([]keyPart, len(ix.Columns))
	for i, k := range ix.Columns {
		cols := []int{k.Column}
		if k.Column < 0 {
			cols = ix.ExprColumns
		}
		parts[i] = keyPart{name: t.KeyName(k), typ: t.KeyType(k), val: t.KeyValue(ix, i, erow), cols: cols}
	}
	return partsDetail(t, parts, format, args...)
}

func partsDetail(t *catalog.Table, parts []keyPart, format string, args ...any) func(pgerr.ColumnVisibility, any) string {
	return func(vis pgerr.ColumnVisibility, style any) string {
		st, _ := style.(sqltypes.Style)
		var names, text strings.Builder
		for i, p := range parts {
			for _, c := range p.cols {
				if vis != nil && vis(t.ID, c) < pgerr.Readable {
					return ""
				}
			}
			if i > 0 {
				names.WriteString(", ")
				text.WriteString(", ")
			}
			names.WriteString(p.name)
			text.WriteString(valueText(p.typ, p.val, 0, st))
		}
		key := "(" + names.String() + ")=(" + text.String() + ")"
		return fmt.Sprintf(format, append([]any{key}, args...)...)
	}
}

// maxDetailValue is how many bytes of each value PostgreSQL's "Failing row
// contains" shows.
const maxDetailValue = 64

// rowDetail renders "Failing row contains (...)." as PostgreSQL's
// ExecBuildSlotValueDescription does: every visible column, NULL as null,
// each value cut to 64 bytes (then "..."); to a role that may not read
// every column, only the columns it may read or that the statement wrote,
// named ("(a, c) = (1, x)"), and nothing when there are none.
func rowDetail(t *catalog.Table, row []sqltypes.Value) func(pgerr.ColumnVisibility, any) string {
	row = append([]sqltypes.Value(nil), row[:len(t.Columns)]...)
	return func(vis pgerr.ColumnVisibility, style any) string {
		st, _ := style.(sqltypes.Style)
		var names, vals strings.Builder
		all, n := true, 0
		for i, c := range t.Columns {
			if c.Hidden {
				continue
			}
			if vis != nil && vis(t.ID, i) == pgerr.Hidden {
				all = false
				continue
			}
			if n > 0 {
				names.WriteString(", ")
				vals.WriteString(", ")
			}
			n++
			names.WriteString(c.Name)
			vals.WriteString(valueText(c.Type, row[i], maxDetailValue, st))
		}
		switch {
		case n == 0:
			return ""
		case all:
			return "Failing row contains (" + vals.String() + ")."
		}
		return "Failing row contains (" + names.String() + ") = (" + vals.String() + ")."
	}
}

// valueText is the output text of a value of type t in the session's
// output settings st (null for NULL), cut to limit bytes at a character
// boundary and followed by "..." when limit > 0.
func valueText(t sqltypes.Type, v sqltypes.Value, limit int, st sqltypes.Style) string {
	if v.IsNull() {
		return "null"
	}
	s := string(sqltypes.AppendTextStyled(nil, t, v, st))
	if limit > 0 && len(s) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	return s
}

// arbiters are the unique keys an upsert's proposed rows conflict on (nil
// standing for the primary key).
type arbiters struct {
	t    *catalog.Table
	keys []*catalog.Index
}

func newArbiters(t *catalog.Table, keys []*catalog.Index) *arbiters {
	if len(keys) == 0 {
		keys = []*catalog.Index{nil}
	}
	return &arbiters{t: t, keys: keys}
}

// key is the store key that holds row's value of arbiter ix: its row key,
// or its unique index entry; false when the row cannot conflict on ix (a
// NULL among the key's values).
func (a *arbiters) key(ix *catalog.Index, row []sqltypes.Value) (string, kv.Key, bool) {
	var k kv.Key
	if ix == nil {
		k = a.t.RowKey(row)
	} else {
		// A row outside a partial index, or whose expression fails (its
		// write fails the statement), holds no key of it.
		erow, in, err := ir.IndexRow(a.t, ix, row)
		if err != nil || !in || !a.t.UniqueKeyed(ix, erow) {
			return "", k, false
		}
		k = a.t.UniqueKey(ix, erow)
	}
	return string(k.Partition) + "\x00" + string(k.Sort), k, true
}

// find returns the row that holds one of row's arbiter keys in cur, and
// that key's unique index (nil: the primary key).
func (a *arbiters) find(cur map[string]current, row []sqltypes.Value) (current, *catalog.Index, bool) {
	for _, ix := range a.keys {
		if ks, _, ok := a.key(ix, row); ok {
			if c, found := cur[ks]; found {
				return c, ix, true
			}
		}
	}
	return current{}, nil, false
}

// allUniqueKeys lists every unique key of t: the primary key (nil) and its
// unique indexes, built or building (writers maintain both).
func allUniqueKeys(t *catalog.Table) []*catalog.Index {
	out := []*catalog.Index{nil}
	for _, ix := range t.Indexes {
		if ix.Unique {
			out = append(out, ix)
		}
	}
	return out
}

// record notes that c now holds its arbiter keys (a row the statement
// inserts).
func (a *arbiters) record(cur map[string]current, c current) {
	for _, ix := range a.keys {
		if ks, _, ok := a.key(ix, c.row); ok {
			cur[ks] = c
		}
	}
}

// covers reports whether op writes an arbiter key: its failed not-exists
// condition is then a row that appeared since the upsert read, not a
// violation of another unique key.
func (a *arbiters) covers(op kv.Op) bool {
	ix := indexOfOp(a.t, op)
	for _, k := range a.keys {
		if k == ix {
			return true
		}
	}
	return false
}

// readArbiters reads the rows that hold the proposed rows' arbiter keys
// now: the unique entries first (they hold their rows' primary keys), then
// in one batch the rows, by primary key.
func (ec *execCtx) readArbiters(ctx context.Context, a *arbiters, rows [][]sqltypes.Value, stats *kv.Stats) (map[string]current, error) {
	t := a.t
	var entries, rowKeys []kv.Key
	var entryNames, rowNames []string
	seen := map[string]bool{}
	for _, row := range rows {
		for _, ix := range a.keys {
			ks, k, ok := a.key(ix, row)
			if !ok || seen[ks] {
				continue
			}
			seen[ks] = true
			if ix == nil {
				rowKeys, rowNames = append(rowKeys, k), append(rowNames, ks)
			} else {
				entries, entryNames = append(entries, k), append(entryNames, ks)
			}
		}
	}
	if len(entries) > 0 {
		items, err := ec.kv.Get(ctx, kv.GetRequest{Keys: entries, Consistent: true, Stats: stats})
		if err != nil {
			return nil, ClassifyError(err)
		}
		for i, it := range items {
			if kv.Found(it) {
				row := make([]sqltypes.Value, len(t.Columns))
				if err := t.DecodeRow(it.Attrs, row); err != nil {
					return nil, err
				}
				rowKeys, rowNames = append(rowKeys, t.RowKey(row)), append(rowNames, entryNames[i])
			}
		}
	}
	cur, err := ec.readCurrent(ctx, t, rowKeys, stats)
	if err != nil {
		return nil, err
	}
	out := make(map[string]current, len(cur))
	for i, k := range rowKeys {
		if c, ok := cur[string(k.Sort)]; ok {
			out[rowNames[i]] = c
		}
	}
	return out, nil
}

// uniqueChunk indexes one chunk of the existing rows of a building unique
// index (see backfill) with this process's writers held off. Two rows
// with one value fail the build with PostgreSQL's 23505 "could not create
// unique index"; so does a row whose value a writer has meanwhile given
// another row (writers maintain the building index, and their entries'
// not-exists conditions find the rows backfilled before them).
//
// Other proxies' writers are not held off, so each entry goes out in an
// atomic batch with a rewrite of its row conditional on the version read:
// if the row changed since, the batch fails and the chunk is read again,
// and no entry is ever written for a row version that is gone (which would
// block its value for good). An entry the row's writer already wrote is
// left as it is.
// maxChunkRetries bounds how often one chunk of a unique build is read
// again because rows in it changed meanwhile.
const maxChunkRetries = 100

func (e *Executor) uniqueChunk(ctx context.Context, t *catalog.Table, ix *catalog.Index, shard int, after []byte) (int, []byte, error) {
	e.Gate.Lock()
	defer e.Gate.Unlock()
	for attempt := 0; ; attempt++ {
		n, last, err := e.uniqueChunkOnce(ctx, t, ix, shard, after)
		var cf *kv.ConditionFailedError
		if errors.As(err, &cf) && attempt < maxChunkRetries {
			continue
		}
		return n, last, err
	}
}

func (e *Executor) uniqueChunkOnce(ctx context.Context, t *catalog.Table, ix *catalog.Index, shard int, after []byte) (int, []byte, error) {
	var start []byte
	if after != nil {
		start = append(append([]byte(nil), after...), 0)
	}
	type pending struct {
		row     []sqltypes.Value
		rowKey  kv.Key
		attrs   []kv.Attr
		version kv.Attr
		entry   kv.Key
		unique  bool
	}
	it := e.Store.Scan(ctx, kv.ScanRequest{Partition: t.Partition(shard), Start: start, Limit: backfillChunk, Consistent: true})
	var rows []pending
	var last []byte
	read := 0
	for read < backfillChunk && it.Next() {
		read++
		item := it.Item()
		p := pending{row: make([]sqltypes.Value, len(t.Columns))}
		if err := t.DecodeRow(item.Attrs, p.row); err != nil {
			it.Close()
			return 0, nil, err
		}
		p.rowKey = kv.Key{Partition: append([]byte(nil), item.Key.Partition...), Sort: append([]byte(nil), item.Key.Sort...)}
		p.attrs = t.RowAttrs(p.row, 0)
		p.version = copyAttr(catalog.RowVersion(item.Attrs))
		p.attrs[len(p.attrs)-1] = p.version
		last = append(last[:0], item.Key.Sort...)
		erow, in, err := ir.IndexRow(t, ix, p.row)
		if err != nil {
			it.Close()
			return 0, nil, err
		}
		if !in {
			continue // outside the partial index
		}
		p.entry = t.EntryKey(ix, erow)
		p.unique = t.UniqueKeyed(ix, erow)
		rows = append(rows, p)
	}
	err := it.Err()
	it.Close()
	if err != nil {
		return 0, nil, ClassifyError(err)
	}
	// Entries that exist already: this row's (written by its writer) or
	// another row's (a duplicate).
	keys := make([]kv.Key, len(rows))
	seen := map[string]int{}
	for i, p := range rows {
		keys[i] = p.entry
		if !p.unique {
			continue
		}
		ks := string(p.entry.Partition) + "\x00" + string(p.entry.Sort)
		if _, dup := seen[ks]; dup {
			return 0, nil, duplicateValues(t, ix, p.row)
		}
		seen[ks] = i
	}
	items, err := e.Store.Get(ctx, kv.GetRequest{Keys: keys, Consistent: true})
	if err != nil {
		return 0, nil, ClassifyError(err)
	}
	var ops []kv.Op
	flush := func() error {
		if len(ops) == 0 {
			return nil
		}
		err := e.Store.Write(ctx, kv.Batch{Ops: ops, Atomic: true})
		ops = ops[:0]
		var cf *kv.ConditionFailedError
		if errors.As(err, &cf) {
			return err // a row changed or a value was taken: read the chunk again
		}
		return ClassifyError(err)
	}
	batch := e.Caps.MaxAtomicOps
	if batch <= 0 {
		batch = 2 * backfillChunk
	}
	for i, p := range rows {
		if kv.Found(items[i]) {
			other := make([]sqltypes.Value, len(t.Columns))
			if err := t.DecodeRow(items[i].Attrs, other); err != nil {
				return 0, nil, err
			}
			if string(t.EncodePK(nil, other)) != string(p.rowKey.Sort) {
				return 0, nil, duplicateValues(t, ix, p.row)
			}
			continue // its writer indexed it
		}
		entry := kv.Op{Kind: kv.OpPut, Key: p.entry, Attrs: t.EntryAttrs(ix, p.row)}
		if p.unique {
			entry.Cond = kv.CondNotExists
		}
		ops = append(ops,
			kv.Op{Kind: kv.OpPut, Key: p.rowKey, Attrs: p.attrs, Cond: kv.CondAttrEquals, CondAttr: p.version},
			entry)
		if len(ops)+2 > batch {
			if err := flush(); err != nil {
				return 0, nil, err
			}
		}
	}
	if err := flush(); err != nil {
		return 0, nil, err
	}
	return read, last, nil
}

// duplicateValues is PostgreSQL's error for a unique index that existing
// rows violate.
func duplicateValues(t *catalog.Table, ix *catalog.Index, row []sqltypes.Value) error {
	return pgerr.New(pgerr.UniqueViolation, "could not create unique index %q", ix.Name).
		WithValues(indexKeyDetail(t, ix, row, "Key %s is duplicated."))
}
