package catalog

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/zorder"
)

// Store layout of table rows and index entries (ARCHITECTURE.md, "Store layout"):
//
//	row:          partition 'T' ‖ table id (8 bytes BE) ‖ shard (2 bytes BE)
//	              sort      tuple(primary key columns, DESC inverted)
//	btree entry:  partition 'I' ‖ index id ‖ shard
//	              sort      tuple(index columns) ‖ tuple(primary key columns)
//	Z-order entry: partition 'I' ‖ index id ‖ shard
//	              sort      Z-address ‖ tuple(primary key columns)
//
// A row's value holds every non-NULL column as an attribute named after the
// column. An index entry's value holds its key columns, included columns and
// primary key columns the same way, so covered reads and residual filters
// never decode key bytes (Z-addresses are lossy).
const (
	rowTag   = 'T'
	indexTag = 'I'
	seqTag   = 'S'
)

// SequencePartition is the partition of a sequence's state item (one item,
// sort key "s", attribute SequenceAttr the next value not yet handed out).
func SequencePartition(seqID uint64) []byte {
	return partition(seqTag, seqID, 0)
}

// SequenceAttr names the attribute holding a sequence's next value.
const SequenceAttr = ReservedPrefix + "next"

// TablePartition returns the partition key of shard of table t.
func TablePartition(tableID uint64, shard int) []byte {
	return partition(rowTag, tableID, shard)
}

// IndexPartition returns the partition key of shard of an index.
func IndexPartition(indexID uint64, shard int) []byte {
	return partition(indexTag, indexID, shard)
}

func partition(tag byte, id uint64, shard int) []byte {
	b := make([]byte, 0, 11)
	b = append(b, tag)
	b = binary.BigEndian.AppendUint64(b, id)
	return binary.BigEndian.AppendUint16(b, uint16(shard))
}

// AppendKeyValue appends the order-preserving tuple encoding of one value.
// -0.0 is folded onto +0.0 because SQL equality treats them as equal.
func AppendKeyValue(b []byte, v sqltypes.Value, desc bool) []byte {
	switch v.K {
	case sqltypes.KindNull:
		return zorder.AppendNull(b, desc)
	case sqltypes.KindFloat:
		f := v.F
		if f == 0 {
			f = 0
		}
		return zorder.AppendFloat(b, f, desc)
	case sqltypes.KindBool:
		return zorder.AppendBool(b, v.I != 0, desc)
	case sqltypes.KindText, sqltypes.KindBytes, sqltypes.KindUUID:
		return zorder.AppendString(b, v.S, desc)
	default: // ints, timestamps, dates
		return zorder.AppendInt(b, v.I, desc)
	}
}

// EncodePK appends the sort key of row (a full table row) to b.
func (t *Table) EncodePK(b []byte, row []sqltypes.Value) []byte {
	for _, k := range t.PrimaryKey {
		b = AppendKeyValue(b, row[k.Column], k.Desc)
	}
	return b
}

// ShardOf places an item by its encoded primary key: hash(pk) % shards.
func ShardOf(pk []byte, shards int) int {
	if shards <= 1 {
		return 0
	}
	h := uint64(14695981039346656037)
	for _, c := range pk {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return int(h % uint64(shards))
}

// RowKey returns the store key of a table row.
func (t *Table) RowKey(row []sqltypes.Value) kv.Key {
	pk := t.EncodePK(nil, row)
	return kv.Key{Partition: TablePartition(t.ID, ShardOf(pk, t.Shards)), Sort: pk}
}

// VersionAttr is the attribute holding a row's version: 1 when inserted,
// one more at every update. Writes that replace or delete a row are
// conditional on the version they read (compare-and-set), so a concurrent
// change is never overwritten. Column names starting with ReservedPrefix
// are refused, so no column can collide with it.
const VersionAttr = ReservedPrefix + "version"

// ReservedPrefix starts the attribute names zproxy keeps for itself.
const ReservedPrefix = "zproxy:"

// RowAttrs converts a table row into store attributes (NULLs omitted),
// with its version.
func (t *Table) RowAttrs(row []sqltypes.Value, version int64) []kv.Attr {
	attrs := make([]kv.Attr, 0, len(row)+1)
	for i, v := range row {
		if v.IsNull() {
			continue
		}
		attrs = append(attrs, ValueAttr(t.Columns[i].Name, v))
	}
	return append(attrs, kv.Attr{Name: VersionAttr, Kind: kv.AttrInt, I: version})
}

// RowVersion returns the version attribute of a stored row (an AttrNull for
// a row written without one).
func RowVersion(attrs []kv.Attr) kv.Attr { return kv.Lookup(attrs, VersionAttr) }

// ValueAttr converts one value into a named store attribute. Timestamps and
// dates are stored as integers (µs and days since the Unix epoch), uuids as
// their canonical text, so other tools reading the store see plain values.
func ValueAttr(name string, v sqltypes.Value) kv.Attr {
	a := kv.Attr{Name: name}
	switch v.K {
	case sqltypes.KindNull:
		a.Kind = kv.AttrNull
	case sqltypes.KindBool:
		a.Kind, a.I = kv.AttrBool, v.I
	case sqltypes.KindFloat:
		a.Kind, a.F = kv.AttrFloat, v.F
	case sqltypes.KindText:
		a.Kind, a.S = kv.AttrString, v.S
	case sqltypes.KindUUID:
		a.Kind, a.S = kv.AttrString, sqltypes.FormatText(v)
	case sqltypes.KindBytes:
		a.Kind, a.B = kv.AttrBytes, []byte(v.S)
	default:
		a.Kind, a.I = kv.AttrInt, v.I
	}
	return a
}

// AttrValue converts a stored attribute back into a value of type t.
func AttrValue(a kv.Attr, t sqltypes.Type) (sqltypes.Value, error) {
	switch a.Kind {
	case kv.AttrNull:
		return sqltypes.Null, nil
	case kv.AttrBool:
		return sqltypes.NewBool(a.I != 0), nil
	case kv.AttrInt:
		switch t.Kind() {
		case sqltypes.KindFloat:
			return sqltypes.NewFloat(float64(a.I)), nil
		case sqltypes.KindInt, sqltypes.KindTimestamp, sqltypes.KindTimestampTZ, sqltypes.KindDate, sqltypes.KindBool:
			return sqltypes.Value{K: t.Kind(), I: a.I}, nil
		}
	case kv.AttrFloat:
		switch t.Kind() {
		case sqltypes.KindFloat:
			return sqltypes.NewFloat(a.F), nil
		case sqltypes.KindInt, sqltypes.KindTimestamp, sqltypes.KindTimestampTZ, sqltypes.KindDate:
			if a.F == math.Trunc(a.F) {
				return sqltypes.Value{K: t.Kind(), I: int64(a.F)}, nil
			}
		}
	case kv.AttrString:
		switch t.Kind() {
		case sqltypes.KindText:
			// Scanned attributes may alias store memory (kv.Iterator).
			return sqltypes.NewText(strings.Clone(a.S)), nil
		case sqltypes.KindUUID:
			return sqltypes.ParseText(t, a.S)
		}
	case kv.AttrBytes:
		switch t.Kind() {
		case sqltypes.KindBytes:
			return sqltypes.NewBytes(a.B), nil
		case sqltypes.KindText:
			return sqltypes.NewText(string(a.B)), nil
		}
	}
	return sqltypes.Null, fmt.Errorf("catalog: stored attribute %q (kind %d) does not fit column type %s", a.Name, a.Kind, t)
}

// DecodeRow fills row (len(t.Columns)) from an item's attributes; columns
// without an attribute are NULL. Attributes not in the table are ignored
// (key attributes of some backends, dropped columns).
func (t *Table) DecodeRow(attrs []kv.Attr, row []sqltypes.Value) error {
	for i := range row {
		row[i] = sqltypes.Null
	}
	for _, a := range attrs {
		i := t.columnOrdinal(a.Name)
		if i < 0 {
			continue
		}
		v, err := AttrValue(a, t.Columns[i].Type)
		if err != nil {
			return err
		}
		row[i] = v
	}
	return nil
}

func (t *Table) columnOrdinal(name string) int {
	// Tables are narrow; a linear scan beats a map for typical widths.
	for i := range t.Columns {
		if t.Columns[i].Name == name {
			return i
		}
	}
	return -1
}

// EntryColumns lists the table columns an index entry stores: key columns,
// included columns, then primary-key columns not already present.
func (t *Table) EntryColumns(ix *Index) []int {
	seen := map[int]bool{}
	var out []int
	add := func(c int) {
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	for _, k := range ix.Columns {
		add(k.Column)
	}
	for _, c := range ix.Include {
		add(c)
	}
	for _, k := range t.PrimaryKey {
		add(k.Column)
	}
	return out
}

// EntryKey returns the store key of row's entry in index ix.
func (t *Table) EntryKey(ix *Index, row []sqltypes.Value) kv.Key {
	return t.EntryKeyPK(ix, row, t.EncodePK(nil, row))
}

// EntryKeyPK is EntryKey for a row whose encoded primary key the caller
// already has (writers compute it once for the row and all its entries).
func (t *Table) EntryKeyPK(ix *Index, row []sqltypes.Value, pk []byte) kv.Key {
	var sort []byte
	switch ix.Kind {
	case KindZOrder:
		s := t.ZSchema(ix)
		codes := make([]uint64, len(ix.Columns))
		for i, k := range ix.Columns {
			codes[i] = ZCode(s.Attr(i), row[k.Column])
		}
		sort = s.AppendAddress(make([]byte, 0, s.AddrLen()+len(pk)), codes)
	default:
		for _, k := range ix.Columns {
			sort = AppendKeyValue(sort, row[k.Column], k.Desc)
		}
	}
	sort = append(sort, pk...)
	return kv.Key{Partition: IndexPartition(ix.ID, ShardOf(pk, ix.Shards)), Sort: sort}
}

// EntryAttrs returns the attributes of row's entry in index ix.
func (t *Table) EntryAttrs(ix *Index, row []sqltypes.Value) []kv.Attr {
	cols := t.EntryColumns(ix)
	attrs := make([]kv.Attr, 0, len(cols))
	for _, c := range cols {
		if !row[c].IsNull() {
			attrs = append(attrs, ValueAttr(t.Columns[c].Name, row[c]))
		}
	}
	return attrs
}

// ZType maps a SQL type onto its Z-order attribute type.
func ZType(t sqltypes.Type) zorder.Type {
	switch t.Kind() {
	case sqltypes.KindFloat:
		return zorder.TypeFloat
	case sqltypes.KindTimestamp, sqltypes.KindTimestampTZ:
		return zorder.TypeTimestamp
	case sqltypes.KindDate:
		return zorder.TypeDate
	case sqltypes.KindBool:
		return zorder.TypeBool
	case sqltypes.KindText, sqltypes.KindBytes, sqltypes.KindUUID:
		return zorder.TypeBytes
	}
	return zorder.TypeInt
}

// ZSchema returns the Z-order schema of a Z-order index.
func (t *Table) ZSchema(ix *Index) *zorder.Schema {
	if ix.zschema != nil {
		return ix.zschema
	}
	return t.buildZSchema(ix)
}

func (t *Table) buildZSchema(ix *Index) *zorder.Schema {
	attrs := make([]zorder.Attr, len(ix.Columns))
	for i, k := range ix.Columns {
		c := t.Columns[k.Column]
		w := k.Width
		if w == 0 {
			// Narrow integers need only their own width; wider codes would
			// add address bits that no value can set.
			switch c.Type.ID {
			case sqltypes.Int2:
				w = 16
			case sqltypes.Int4:
				w = 32
			}
		}
		attrs[i] = zorder.Attr{Name: c.Name, Type: ZType(c.Type), Width: w, Nullable: !c.NotNull}
	}
	return zorder.MustSchema(attrs...)
}

// ZCode returns the Z-order code of v for attribute a.
func ZCode(a zorder.Attr, v sqltypes.Value) uint64 {
	switch v.K {
	case sqltypes.KindNull:
		return a.Null()
	case sqltypes.KindFloat:
		return a.Float(v.F)
	case sqltypes.KindBool:
		return a.Bool(v.I != 0)
	case sqltypes.KindText, sqltypes.KindBytes, sqltypes.KindUUID:
		return a.String(v.S)
	}
	return a.Int(v.I)
}
