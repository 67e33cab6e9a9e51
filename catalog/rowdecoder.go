package catalog

import (
	"slices"
	"strings"
	"unsafe"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
)

// RowDecoder decodes stored items (rows or index entries) of one table
// into rows, converting only the columns a plan reads: the others stay
// NULL, so a scan that needs three columns of eight neither parses nor
// copies the other five. It also remembers which column the attribute at
// each position of the last item was, since the items of one scan almost
// always list their attributes in one order, and so skips the search by
// name. Attributes written with column IDs (kv.Attr.ID) are known by their
// ID, so a row is matched by one integer comparison per attribute. A
// RowDecoder is not safe for concurrent use.
type RowDecoder struct {
	t *Table
	// init is what a row starts as: each wanted column's value when the
	// item lacks its attribute (NULL, or Column.Missing for rows written
	// before the column was added), NULL for the others.
	init    []sqltypes.Value
	initErr error
	want    []bool
	// borrowed[c], after Borrow, says column c's values alias the item's
	// attribute rather than copy it (nil: none do).
	borrowed []bool
	// kinds[c] is column c's kind when its usual attribute converts
	// without attrValue's switches (direct), else KindNull: integers,
	// dates, floats, timestamps and text, most columns of most rows.
	kinds []sqltypes.Kind
	// names[i] and ids[i] are the attribute name and ID last seen at
	// position i, ords[i] its wanted column or -1. An attribute with an ID
	// is matched by it alone.
	names []string
	ids   []uint16
	ords  []int
	// The slices' memory for a narrow table, in the decoder's one
	// allocation: a scan makes its decoder at every execution, and five
	// allocations were a key lookup's tenth.
	initBuf  [smallTable]sqltypes.Value
	wantBuf  [smallTable]bool
	kindsBuf [smallTable]sqltypes.Kind
	namesBuf [smallTable + 4]string
	idsBuf   [smallTable + 4]uint16
	ordsBuf  [smallTable + 4]int
}

// smallTable is the widest table whose decoder needs no allocation but
// its own.
const smallTable = 8

// NewRowDecoder returns a decoder of t's items that fills the columns
// cols (ordinals of t.Columns).
func NewRowDecoder(t *Table, cols []int) *RowDecoder {
	d := &RowDecoder{t: t}
	if n := len(t.Columns); n <= smallTable {
		d.init, d.want, d.kinds, d.names, d.ids, d.ords = d.initBuf[:n], d.wantBuf[:n], d.kindsBuf[:n], d.namesBuf[:0], d.idsBuf[:0], d.ordsBuf[:0]
	} else {
		d.init, d.want, d.kinds = make([]sqltypes.Value, n), make([]bool, n), make([]sqltypes.Kind, n)
		// Room for every column and the version and a few retired attributes.
		d.names, d.ids, d.ords = make([]string, 0, n+4), make([]uint16, 0, n+4), make([]int, 0, n+4)
	}
	for i := range d.init {
		d.init[i] = sqltypes.Null
	}
	for _, c := range cols {
		if c < 0 || c >= len(t.Columns) {
			continue
		}
		d.want[c] = true
		switch k := t.Columns[c].Type.Kind(); k {
		case sqltypes.KindInt, sqltypes.KindDate, sqltypes.KindFloat, sqltypes.KindTimestamp, sqltypes.KindTimestampTZ:
			d.kinds[c] = k
		case sqltypes.KindText:
			if !t.Columns[c].Type.HasComposite() {
				d.kinds[c] = k
			}
		}
		if t.Columns[c].Missing != "" && d.initErr == nil {
			d.init[c], d.initErr = t.Columns[c].MissingValue()
		}
	}
	return d
}

// Borrow makes the decoder's values of the types whose stored form is
// their own bytes (text, varchar, char(n), citext, json, xml, bytea)
// alias the item's attributes instead of copying them. Such a value is
// then valid only as long as the attributes are (a scan's item: until its
// iterator moves on), so Borrow is for a consumer that is done with each
// row before the next item is read and keeps none of its values: a COPY
// TO whose rows the scan pushes to the connection, which then copies
// nothing per row to encode it.
func (d *RowDecoder) Borrow() {
	d.borrowed = make([]bool, len(d.t.Columns))
	for c, col := range d.t.Columns {
		if col.Type.HasComposite() {
			continue // parsed from its text (attrValue)
		}
		switch col.Type.Kind() {
		case sqltypes.KindText, sqltypes.KindBPChar, sqltypes.KindCitext, sqltypes.KindJSON, sqltypes.KindXML, sqltypes.KindBytes:
			d.borrowed[c] = true
		}
	}
}

// direct is attrValue's value of a for a column of kind k (RowDecoder.kinds)
// when a is of the kind such a column stores, and false otherwise. Text
// is copied: the item may be store memory.
func direct(a *kv.Attr, k sqltypes.Kind) (sqltypes.Value, bool) {
	switch {
	case k == sqltypes.KindNull:
	case a.Kind == kv.AttrInt && (k == sqltypes.KindInt || k == sqltypes.KindDate):
		return sqltypes.Value{K: k, I: a.I}, true
	case a.Kind == kv.AttrInt && (k == sqltypes.KindTimestamp || k == sqltypes.KindTimestampTZ):
		return sqltypes.Value{K: k, I: sqltypes.TimestampFromStored(a.I)}, true
	case a.Kind == kv.AttrFloat && k == sqltypes.KindFloat:
		return sqltypes.Value{K: k, F: a.F}, true
	case a.Kind == kv.AttrString && k == sqltypes.KindText:
		return sqltypes.Value{K: k, S: strings.Clone(a.S)}, true
	}
	return sqltypes.Value{}, false
}

// borrowedValue is attrValue's value of a for column c, which Borrow
// marked, when it may alias a, and false when it must be converted (and
// copied) as usual.
func (d *RowDecoder) borrowedValue(c int, a *kv.Attr) (sqltypes.Value, bool) {
	k := d.t.Columns[c].Type.Kind()
	switch {
	case a.Kind == kv.AttrString && k != sqltypes.KindBytes:
		return sqltypes.Value{K: k, S: a.S}, true
	case a.Kind == kv.AttrBytes && (k == sqltypes.KindBytes || k == sqltypes.KindText):
		if len(a.B) == 0 {
			return sqltypes.Value{K: k}, true
		}
		return sqltypes.Value{K: k, S: unsafe.String(&a.B[0], len(a.B))}, true
	}
	return sqltypes.Value{}, false
}

// AttrNames are the store attributes of the columns the decoder fills: all
// a scan must return of its items (kv.ScanRequest.Attrs), and their column
// IDs when withIDs is set (kv.ScanRequest.AttrIDs, for a store with
// kv.Capabilities.AttrIDs; 0 for a column without one). names is never
// nil, so a decoder of no column (count(*)) asks for no attribute.
func (d *RowDecoder) AttrNames(withIDs bool) (names []string, ids []uint16) {
	n := 0
	for _, want := range d.want {
		if want {
			n++
		}
	}
	names = make([]string, 0, n)
	if withIDs {
		ids = make([]uint16, 0, n)
	}
	for c, want := range d.want {
		if want {
			names = append(names, d.t.Columns[c].AttrName())
			if withIDs {
				ids = append(ids, d.t.Columns[c].ID)
			}
		}
	}
	return names, ids
}

// Decode fills row (len(t.Columns) values) from attrs. Values never alias
// attrs, which may be store memory that the next item overwrites.
func (d *RowDecoder) Decode(attrs []kv.Attr, row []sqltypes.Value) error {
	if d.initErr != nil {
		return d.initErr
	}
	copy(row, d.init)
	for i := range attrs {
		a := &attrs[i]
		var ord int
		if i < len(d.names) && d.ids[i] == a.ID && (a.ID != 0 || d.names[i] == a.Name) {
			ord = d.ords[i]
		} else {
			ord = d.resolve(i, a)
		}
		if ord < 0 {
			continue
		}
		if d.borrowed != nil && d.borrowed[ord] {
			if v, ok := d.borrowedValue(ord, a); ok {
				row[ord] = v
				continue
			}
		}
		if v, ok := direct(a, d.kinds[ord]); ok {
			row[ord] = v
			continue
		}
		v, err := attrValue(a, d.t.Columns[ord].Type)
		if err != nil {
			return err
		}
		row[ord] = v
	}
	return nil
}

// resolve finds the wanted column (or -1) of attribute a, at position i of
// its item, and remembers it for the next item. By ID when a has one and
// it is the column's (with its name: an ID is only trusted as the table's
// own), by name otherwise.
func (d *RowDecoder) resolve(i int, a *kv.Attr) int {
	ord := -1
	if a.ID != 0 {
		ord = d.t.columnByID(a.ID)
		if ord >= 0 && d.t.Columns[ord].AttrName() != a.Name {
			ord = -1
		}
	}
	if ord < 0 {
		ord = d.t.columnOrdinal(a.Name)
	}
	// The name is kept as the catalog's own string when it is a column's;
	// a.Name may be store memory.
	var name string
	if ord >= 0 {
		name = d.t.Columns[ord].AttrName()
		if !d.want[ord] {
			ord = -1
		}
	} else {
		name = strings.Clone(a.Name)
	}
	if i >= len(d.names) {
		d.names = slices.Grow(d.names, i+1-len(d.names))[:i+1]
		d.ids = slices.Grow(d.ids, i+1-len(d.ids))[:i+1]
		d.ords = slices.Grow(d.ords, i+1-len(d.ords))[:i+1]
	}
	d.names[i], d.ids[i], d.ords[i] = name, a.ID, ord
	return ord
}
