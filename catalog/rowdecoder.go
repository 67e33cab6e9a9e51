package catalog

import (
	"errors"
	"slices"
	"strings"

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
	// kinds[c] is column c's kind when its usual attribute converts
	// without attrValue's switches (direct), else KindNull: integers,
	// dates, floats and timestamps, most columns of most rows.
	kinds []sqltypes.Kind
	// names[i] and ids[i] are the attribute name and ID last seen at
	// position i, ords[i] its wanted column or -1. An attribute with an ID
	// is matched by it alone.
	names []string
	ids   []uint16
	ords  []int
	// last[c] is the copy Decode made of text column c's last value: the
	// next row's value, when equal, is that string rather than another
	// copy. An index scan reads its entries in key order, so a leading
	// text column repeats row after row (every row of a secondary-index
	// equality has the one value), and one copy serves them all.
	last []string
	// cols are the wanted columns in increasing ordinal: AttrNames's
	// order, the slots of DecodeScalars.
	cols []int
	// The slices' memory for a narrow table, in the decoder's one
	// allocation: a scan makes its decoder at every execution, and five
	// allocations were a key lookup's tenth.
	initBuf  [smallTable]sqltypes.Value
	wantBuf  [smallTable]bool
	kindsBuf [smallTable]sqltypes.Kind
	namesBuf [smallTable + 4]string
	idsBuf   [smallTable + 4]uint16
	ordsBuf  [smallTable + 4]int
	lastBuf  [smallTable]string
	colsBuf  [smallTable]int
	// attrNamesBuf and attrIDsBuf hold what AttrNames returns for a
	// narrow table.
	attrNamesBuf [smallTable]string
	attrIDsBuf   [smallTable]uint16
}

// smallTable is the widest table whose decoder needs no allocation but
// its own.
const smallTable = 8

// NewRowDecoder returns a decoder of t's items that fills the columns
// cols (ordinals of t.Columns).
func NewRowDecoder(t *Table, cols []int) *RowDecoder {
	d := &RowDecoder{}
	d.Init(t, cols)
	return d
}

// Init makes d a decoder of t's items that fills the columns cols, as
// NewRowDecoder does, for a caller that keeps its decoder in a struct of
// its own (an executor's scan stream, made every execution of a key
// lookup): the decoder costs no allocation of its own. d must not be
// copied after Init, as its slices may point into it.
func (d *RowDecoder) Init(t *Table, cols []int) {
	*d = RowDecoder{t: t}
	if n := len(t.Columns); n <= smallTable {
		d.init, d.want, d.kinds, d.names, d.ids, d.ords = d.initBuf[:n], d.wantBuf[:n], d.kindsBuf[:n], d.namesBuf[:0], d.idsBuf[:0], d.ordsBuf[:0]
		d.last, d.cols = d.lastBuf[:n], d.colsBuf[:0]
	} else {
		d.init, d.want, d.kinds = make([]sqltypes.Value, n), make([]bool, n), make([]sqltypes.Kind, n)
		d.last = make([]string, n)
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
		}
		if t.Columns[c].Missing != "" && d.initErr == nil {
			d.init[c], d.initErr = t.Columns[c].MissingValue()
		}
	}
	for c, want := range d.want {
		if want {
			d.cols = append(d.cols, c)
		}
	}
}

// AttrNames are the store attributes of the columns the decoder fills: all
// a scan must return of its items (kv.ScanRequest.Attrs), and their column
// IDs when withIDs is set (kv.ScanRequest.AttrIDs, for a store with
// kv.Capabilities.AttrIDs; 0 for a column without one). names is never
// nil, so a decoder of no column (count(*)) asks for no attribute.
func (d *RowDecoder) AttrNames(withIDs bool) (names []string, ids []uint16) {
	// A narrow table's in the decoder's own memory: what a scan asks its
	// store for lives as long as the decoder.
	n := len(d.cols)
	names = d.attrNamesBuf[:0]
	if n > smallTable {
		names = make([]string, 0, n)
	}
	if withIDs {
		ids = d.attrIDsBuf[:0]
		if n > smallTable {
			ids = make([]uint16, 0, n)
		}
	}
	for _, c := range d.cols {
		names = append(names, d.t.Columns[c].AttrName())
		if withIDs {
			ids = append(ids, d.t.Columns[c].ID)
		}
	}
	return names, ids
}

// Columns are the columns the decoder fills, in increasing ordinal: the
// order of AttrNames, and of DecodeScalars's slots. The caller must not
// change them.
func (d *RowDecoder) Columns() []int { return d.cols }

// Decode fills row (len(t.Columns) values) from attrs. Values never alias
// attrs, which may be store memory that the next item overwrites; a text
// value equal to the column's in the item decoded before is that item's
// copy (RowDecoder.last), not a new one.
func (d *RowDecoder) Decode(attrs []kv.Attr, row []sqltypes.Value) error {
	return d.decode(attrs, row, decodeCopy)
}

// DecodeOwned is Decode for attributes that are the caller's own, never
// rewritten: a get's items (kv.Store.Get). Values keep the attributes'
// strings rather than copies of them, sparing an allocation a string
// column a row (a gin scan's batched get of a hundred documents).
func (d *RowDecoder) DecodeOwned(attrs []kv.Attr, row []sqltypes.Value) error {
	return d.decode(attrs, row, decodeOwned)
}

// DecodeAliasing is Decode for a consumer done with the row before the
// store's memory under attrs moves on (COPY TO, encoding each row as it is
// read): a text column's value is then the attribute's own string, not a
// copy of it, sparing an allocation a row.
func (d *RowDecoder) DecodeAliasing(attrs []kv.Attr, row []sqltypes.Value) error {
	return d.decode(attrs, row, decodeAlias)
}

// decodeMode is what a decoded value may share of its attribute.
type decodeMode uint8

const (
	decodeCopy  decodeMode = iota // nothing: the attributes are store memory
	decodeAlias                   // a text column's string, for a row used at once
	decodeOwned                   // every string: the attributes are the caller's
)

func (d *RowDecoder) decode(attrs []kv.Attr, row []sqltypes.Value, mode decodeMode) error {
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
		if ord >= 0 && d.kinds[ord] != sqltypes.KindNull && setDirect(&row[ord], a.Kind, a.I, a.F, d.kinds[ord]) {
			continue
		}
		if ord < 0 {
			continue
		}
		v, err := d.value(ord, a, mode)
		if err != nil {
			return err
		}
		row[ord] = v
	}
	return nil
}

// value is column ord's value of its attribute a, sharing what mode lets
// it of a's strings.
func (d *RowDecoder) value(ord int, a *kv.Attr, mode decodeMode) (sqltypes.Value, error) {
	typ := d.t.Columns[ord].Type
	if mode != decodeOwned && a.Kind == kv.AttrString && typ.Kind() == sqltypes.KindText && !typ.HasComposite() {
		switch {
		case mode == decodeAlias:
			return sqltypes.NewText(a.S), nil
		case a.S != d.last[ord]:
			d.last[ord] = strings.Clone(a.S)
		}
		return sqltypes.NewText(d.last[ord]), nil
	}
	return attrValue(a, typ, mode == decodeOwned)
}

// DecodeScalars is Decode of an item read by kv.ScalarIterator.Scalars
// for the decoder's AttrNames(true): sc[j] is the attribute of the j-th
// column AttrNames lists. A scan's row is then one walk of the stored
// value: no attribute to build, none to match to its column.
func (d *RowDecoder) DecodeScalars(sc []kv.Scalar, row []sqltypes.Value) error {
	return d.decodeScalars(sc, row, decodeCopy)
}

// DecodeScalarsAliasing is DecodeScalars for DecodeAliasing's consumer.
func (d *RowDecoder) DecodeScalarsAliasing(sc []kv.Scalar, row []sqltypes.Value) error {
	return d.decodeScalars(sc, row, decodeAlias)
}

func (d *RowDecoder) decodeScalars(sc []kv.Scalar, row []sqltypes.Value, mode decodeMode) error {
	if d.initErr != nil {
		return d.initErr
	}
	if len(sc) != len(d.cols) {
		return errScalarSlots
	}
	copy(row, d.init)
	for j := range sc {
		s := &sc[j]
		if !s.Present {
			continue // the item lacks the attribute: the column's initial value
		}
		ord := d.cols[j]
		if k := d.kinds[ord]; k != sqltypes.KindNull && setDirect(&row[ord], s.Kind, s.I, s.F, k) {
			continue
		}
		c := &d.t.Columns[ord]
		a := s.Attr(c.AttrName(), c.ID)
		v, err := d.value(ord, &a, mode)
		if err != nil {
			return err
		}
		row[ord] = v
	}
	return nil
}

// errScalarSlots is a caller's slots that are not the decoder's columns.
var errScalarSlots = errors.New("catalog: scalar slots do not match the decoder's columns")

// setDirect sets *v to attrValue's value of an attribute of kind kind
// (payload i or f) for a column of kind k (RowDecoder.kinds) when the
// attribute is of the kind such a column stores, and reports false
// otherwise. It writes *v in place: a Value built and then copied was
// stored field by field and read back whole, a stall on every column of
// every row.
func setDirect(v *sqltypes.Value, kind kv.AttrKind, i int64, f float64, k sqltypes.Kind) bool {
	switch {
	case kind == kv.AttrInt && (k == sqltypes.KindInt || k == sqltypes.KindDate):
		*v = sqltypes.Value{K: k, I: i}
	case kind == kv.AttrInt && (k == sqltypes.KindTimestamp || k == sqltypes.KindTimestampTZ):
		*v = sqltypes.Value{K: k, I: sqltypes.TimestampFromStored(i)}
	case kind == kv.AttrFloat && k == sqltypes.KindFloat:
		*v = sqltypes.Value{K: k, F: f}
	default:
		return false
	}
	return true
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
