package catalog

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/zorder"
)

// Store layout of table rows and index entries (ARCHITECTURE.md, "Store layout"):
//
//	row:          partition 'T' ‖ table id (8 bytes BE) ‖ shard (2 bytes BE:
//	              a hash of the key or of its shard columns, shards.go)
//	              sort      tuple(primary key columns, DESC inverted)
//	btree entry:  partition 'I' ‖ index id ‖ shard
//	              sort      tuple(index columns) ‖ tuple(primary key columns)
//	unique entry: partition 'I' ‖ index id ‖ hash(sort) % shards
//	              sort      tuple(index columns)   (no NULL among them; else
//	                        as a btree entry, so NULLs never collide)
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

// SequenceKey is the key of a sequence's state item: its own partition,
// holding, as PostgreSQL's sequence relation does, the last value handed
// out (SequenceLastAttr), whether it was (SequenceCalledAttr: false after
// CREATE or setval(s, v, false), when v itself is next) and VersionAttr,
// which every change increments so that claims of value blocks by several
// proxies are conditional writes.
func SequenceKey(seqID uint64) kv.Key {
	return kv.Key{Partition: partition(seqTag, seqID, 0), Sort: []byte("s")}
}

// Attributes of a sequence's state item.
const (
	SequenceLastAttr   = ReservedPrefix + "last"
	SequenceCalledAttr = ReservedPrefix + "called"
)

// Partition returns the partition key of shard of the table's rows.
func (t *Table) Partition(shard int) []byte {
	return partition(rowTag, t.StoreID(), shard)
}

// PartitionLen is the length of every partition key (Table.Partition,
// IndexPartition).
const PartitionLen = 11

// AppendPartition appends Partition(shard) to b, for a caller that has
// room for it (a key lookup keeps its row's partition in its scan).
func (t *Table) AppendPartition(b []byte, shard int) []byte {
	return appendPartition(b, rowTag, t.StoreID(), shard)
}

// IndexPartition returns the partition key of shard of an index.
func IndexPartition(indexID uint64, shard int) []byte {
	return partition(indexTag, indexID, shard)
}

// AppendIndexPartition appends IndexPartition(indexID, shard) to b, as
// AppendPartition does a table's.
func AppendIndexPartition(b []byte, indexID uint64, shard int) []byte {
	return appendPartition(b, indexTag, indexID, shard)
}

func partition(tag byte, id uint64, shard int) []byte {
	return appendPartition(make([]byte, 0, PartitionLen), tag, id, shard)
}

func appendPartition(b []byte, tag byte, id uint64, shard int) []byte {
	b = append(b, tag)
	b = binary.BigEndian.AppendUint64(b, id)
	return binary.BigEndian.AppendUint16(b, uint16(shard))
}

// AppendKeyValue appends the order-preserving tuple encoding of one value.
// Values that compare equal encode equal: -0.0 is folded onto +0.0, numeric
// 1.0 and 1.00 share a key, an interval keys by its span (so '1 mon' and
// '30 days' collide, as they do in a PostgreSQL unique index), char(n)
// without its trailing blanks, a timetz by its UTC time and then its zone
// (PostgreSQL's order: '12:00+02' and '11:00+01' are distinct and the one
// further east sorts first). json, jsonb and arrays have no key encoding
// (CheckKeyType refuses them as key columns); if one reaches here anyway it
// is keyed by its text, which keeps equality but not order.
func AppendKeyValue(b []byte, v sqltypes.Value, desc bool) []byte {
	switch v.K {
	case sqltypes.KindNumeric:
		return zorder.AppendDecimal(b, decimalKey(v.Numeric()), desc)
	case sqltypes.KindInterval:
		hi, lo := sqltypes.IntervalSpan(v.Interval())
		return zorder.AppendInt128(b, hi, lo, desc)
	case sqltypes.KindBPChar:
		return zorder.AppendString(b, strings.TrimRight(v.S, " "), desc)
	case sqltypes.KindTimeTZ:
		t := v.TimeTZ()
		return zorder.AppendInt(zorder.AppendInt(b, t.UTCMicros(), desc), -int64(t.Offset), desc)
	case sqltypes.KindCitext:
		// citext keys by its lower case, so 'Ab' and 'aB' collide in a
		// unique index and sort together, as citext's btree compares them;
		// the value as written is in the row's attribute.
		return zorder.AppendString(b, sqltypes.CitextFold(v.S), desc)
	case sqltypes.KindRange:
		return appendRangeKey(b, v.Range(), desc)
	case sqltypes.KindMultirange:
		// Range by range, each after a marker; a terminator below the
		// marker makes a multirange sort before its extensions.
		for _, r := range v.Multirange().Ranges {
			b = appendRangeKey(zorder.AppendInt(b, 1, desc), r, desc)
		}
		return zorder.AppendInt(b, 0, desc)
	case sqltypes.KindJSON, sqltypes.KindJSONB, sqltypes.KindArray, sqltypes.KindHstore, sqltypes.KindTSVector, sqltypes.KindTSQuery:
		return zorder.AppendString(b, sqltypes.FormatText(v), desc)
	case sqltypes.KindBit:
		// The bytes, then the length: bit_cmp's order (bytes over the
		// shorter string's, then the shorter first), since the pad bits
		// are zero and a shorter byte string holds fewer bits.
		return zorder.AppendInt(zorder.AppendString(b, v.S, desc), v.I, desc)
	case sqltypes.KindNull:
		return zorder.AppendNull(b, desc)
	case sqltypes.KindFloat:
		f := v.F
		if f == 0 {
			f = 0
		}
		return zorder.AppendFloat(b, f, desc)
	case sqltypes.KindEnum:
		// An enum keys by its label's sort order, which never changes
		// (sqltypes/enum.go): index order is declaration order.
		return zorder.AppendFloat(b, v.F, desc)
	case sqltypes.KindBool:
		return zorder.AppendBool(b, v.I != 0, desc)
	case sqltypes.KindText, sqltypes.KindBytes, sqltypes.KindUUID, sqltypes.KindMacAddr, sqltypes.KindXML, sqltypes.KindGeometry:
		return zorder.AppendString(b, v.S, desc)
	case sqltypes.KindLtree:
		// An ltree's dotted text in byte order is ltree_cmp's order
		// (sqltypes/ltree.go), so the index serves <, = and the key
		// ranges of <@ (optimizer/bounds.go: ltreeBound).
		return zorder.AppendString(b, v.S, desc)
	case sqltypes.KindInet:
		// An inet's S is its order-preserving form (family, network
		// part, mask length, address: network_cmp's order), the same
		// for inet and cidr, which compare alike.
		return zorder.AppendString(b, v.S, desc)
	case sqltypes.KindLSN, sqltypes.KindXID8:
		// Unsigned: flipping the sign bit makes the signed order of the
		// encoding the unsigned order of the numbers.
		return zorder.AppendInt(b, v.I^math.MinInt64, desc)
	case sqltypes.KindTimestamp, sqltypes.KindTimestampTZ:
		// Keyed by the stored count from 1970 (sqltypes.StoredTimestamp);
		// from its last value before +infinity's on (the last thirty
		// years), past it.
		if s, ok := sqltypes.StoredTimestamp(v.I); ok {
			return zorder.AppendInt(b, s, desc)
		}
		return zorder.AppendIntPastMax(b, uint64(v.I-(sqltypes.MaxStoredTimestamp-sqltypes.PGEpochMicros)), desc)
	default: // ints, timestamps, dates
		return zorder.AppendInt(b, v.I, desc)
	}
}

// appendRangeKey appends a range's key in PostgreSQL's btree order for
// ranges (range_cmp): the empty range first, then by lower bound, then by
// upper bound. Each bound is a marker and, when finite, its value's key
// and a flag, so that an infinite lower bound sorts first, an infinite
// upper bound last, an inclusive lower bound before an exclusive one of
// the same value, and an exclusive upper bound before an inclusive one.
// Every part is itself order-preserving and prefix-free, so the whole is.
func appendRangeKey(b []byte, r *sqltypes.RangeValue, desc bool) []byte {
	if r.Empty {
		return zorder.AppendInt(b, 0, desc)
	}
	b = zorder.AppendInt(b, 1, desc)
	if r.LowerInf {
		b = zorder.AppendInt(b, 0, desc)
	} else {
		b = AppendKeyValue(zorder.AppendInt(b, 1, desc), r.Lower, desc)
		b = zorder.AppendBool(b, !r.LowerInc, desc)
	}
	if r.UpperInf {
		return zorder.AppendInt(b, 1, desc)
	}
	b = AppendKeyValue(zorder.AppendInt(b, 0, desc), r.Upper, desc)
	return zorder.AppendBool(b, r.UpperInc, desc)
}

// EncodePK appends the sort key of row (a full table row) to b.
func (t *Table) EncodePK(b []byte, row []sqltypes.Value) []byte {
	if b == nil {
		// Most key values encode in 9 bytes: one allocation, not one
		// per column.
		b = make([]byte, 0, 10*len(t.PrimaryKey))
	}
	for _, k := range t.PrimaryKey {
		b = AppendKeyValue(b, row[k.Column], k.Desc)
	}
	return b
}

// ShardOf hashes the bytes that place an item (by default its encoded
// primary key; see shards.go) onto one of shards: hash(key) % shards.
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
	return kv.Key{Partition: t.Partition(t.RowShard(pk)), Sort: pk}
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
		attrs = t.appendAttr(attrs, i, v)
	}
	attrs = t.appendExpiry(attrs, row)
	return append(attrs, kv.Attr{Name: VersionAttr, ID: VersionAttrID, Kind: kv.AttrInt, I: version})
}

// appendAttr appends column i's value: nothing for NULL, except in a
// column with a Missing value, where an absent attribute means "written
// before the column existed" and NULL needs an explicit null attribute.
func (t *Table) appendAttr(attrs []kv.Attr, i int, v sqltypes.Value) []kv.Attr {
	c := &t.Columns[i]
	if v.IsNull() {
		if c.Missing == "" {
			return attrs
		}
		return append(attrs, kv.Attr{Name: c.AttrName(), ID: c.ID, Kind: kv.AttrNull})
	}
	a := ValueAttr(c.AttrName(), v)
	a.ID = c.ID
	return append(attrs, a)
}

// RowVersion returns the version attribute of a stored row (an AttrNull for
// a row written without one).
//
// The result owns its memory: a store's scan may hand out attributes whose
// names and bytes point into a buffer that its next item overwrites, and a
// version is kept (as a write condition) long after the scan moved on.
func RowVersion(attrs []kv.Attr) kv.Attr {
	v := kv.Lookup(attrs, VersionAttr)
	v.Name = VersionAttr
	v.S = strings.Clone(v.S)
	v.B = bytes.Clone(v.B)
	return v
}

// ValueAttr converts one value into a named store attribute. Timestamps and
// dates are stored as integers (µs and days since the Unix epoch; ±infinity
// as the extreme int64s), uuids as their canonical text, so other tools
// reading the store see plain values.
//
// A numeric is stored as a number (DynamoDB N) when that is lossless: an
// integer in int64 range, or a value whose text is exactly the shortest
// text of the nearest float64 (1.5, 0.25) so reading it back as a float
// gives the same digits. Others (1.50 with its scale, 30-digit values,
// NaN and infinities) are stored as their text. Intervals are stored as
// ISO 8601 text ('P1Y2M3DT4H'), char(n) padded, json verbatim, jsonb in
// its normal text form and arrays in PostgreSQL's array text form: strings
// that other tools can read and that load back exactly. (A DynamoDB map or
// list would lose numeric precision, key order and SQL NULL elements.)
func ValueAttr(name string, v sqltypes.Value) kv.Attr {
	a := kv.Attr{Name: name}
	switch v.K {
	case sqltypes.KindNumeric:
		return numericAttr(a, v)
	case sqltypes.KindInterval:
		a.Kind, a.S = kv.AttrString, string(sqltypes.AppendIntervalISO(nil, v.Interval()))
	case sqltypes.KindBPChar, sqltypes.KindJSON:
		a.Kind, a.S = kv.AttrString, v.S
	case sqltypes.KindJSONB, sqltypes.KindArray, sqltypes.KindTimeTZ, sqltypes.KindHstore, sqltypes.KindBit, sqltypes.KindRange, sqltypes.KindMultirange, sqltypes.KindTSVector, sqltypes.KindTSQuery:
		a.Kind, a.S = kv.AttrString, sqltypes.FormatText(v)
	case sqltypes.KindCitext:
		a.Kind, a.S = kv.AttrString, v.S
	case sqltypes.KindEnum:
		a.Kind, a.F = kv.AttrFloat, v.F // the sort order: labels may be renamed
	case sqltypes.KindNull:
		a.Kind = kv.AttrNull
	case sqltypes.KindTimestamp, sqltypes.KindTimestampTZ:
		// µs since 1970 (sqltypes.StoredTimestamp); the last thirty
		// years, past that count, as µs since 2000 in decimal text.
		if s, ok := sqltypes.StoredTimestamp(v.I); ok {
			a.Kind, a.I = kv.AttrInt, s
		} else {
			a.Kind, a.S = kv.AttrString, strconv.FormatInt(v.I, 10)
		}
	case sqltypes.KindBool:
		a.Kind, a.I = kv.AttrBool, v.I
	case sqltypes.KindFloat:
		a.Kind, a.F = kv.AttrFloat, v.F
	case sqltypes.KindText, sqltypes.KindXML, sqltypes.KindJSONPath, sqltypes.KindLtree, sqltypes.KindLquery, sqltypes.KindLtxtquery:
		a.Kind, a.S = kv.AttrString, v.S
	case sqltypes.KindUUID, sqltypes.KindInet, sqltypes.KindMacAddr, sqltypes.KindGeo:
		// Stored as their text, readable in the store and exact (a
		// geometric value's floats print in their shortest exact form).
		a.Kind, a.S = kv.AttrString, sqltypes.FormatText(v)
	case sqltypes.KindBytes, sqltypes.KindGeometry:
		// A geometry is its EWKB, as PostGIS stores and sends it.
		a.Kind, a.B = kv.AttrBytes, []byte(v.S)
	default:
		a.Kind, a.I = kv.AttrInt, v.I
	}
	return a
}

// AttrValue converts a stored attribute back into a value of type t.
func AttrValue(a kv.Attr, t sqltypes.Type) (sqltypes.Value, error) { return attrValue(&a, t, false) }

// attrValue is AttrValue for decoders, which hold the attribute in place:
// an attribute is a large struct to copy for every column of every row.
// With owned the attribute's strings are the caller's, never rewritten (a
// get's items, kv.Store.Get), and values keep them rather than copies.
func attrValue(a *kv.Attr, t sqltypes.Type, owned bool) (sqltypes.Value, error) {
	switch a.Kind {
	case kv.AttrNull:
		return sqltypes.Null, nil
	case kv.AttrBool:
		return sqltypes.NewBool(a.I != 0), nil
	case kv.AttrInt:
		switch t.Kind() {
		case sqltypes.KindNumeric:
			return sqltypes.NumericFromInt(a.I), nil
		case sqltypes.KindFloat:
			return sqltypes.NewFloat(float64(a.I)), nil
		case sqltypes.KindTimestamp, sqltypes.KindTimestampTZ:
			return sqltypes.Value{K: t.Kind(), I: sqltypes.TimestampFromStored(a.I)}, nil
		case sqltypes.KindInt, sqltypes.KindDate, sqltypes.KindBool, sqltypes.KindTime, sqltypes.KindMoney,
			sqltypes.KindLSN, sqltypes.KindXID, sqltypes.KindXID8, sqltypes.KindTID:
			return sqltypes.Value{K: t.Kind(), I: a.I}, nil
		}
	case kv.AttrFloat:
		switch t.Kind() {
		case sqltypes.KindNumeric:
			// The inverse of numericAttr: the float's shortest text.
			return sqltypes.ParseNumeric(strconv.FormatFloat(a.F, 'f', -1, 64))
		case sqltypes.KindFloat:
			return sqltypes.NewFloat(a.F), nil
		case sqltypes.KindEnum:
			return sqltypes.DecodeEnum(t, a.F)
		case sqltypes.KindTimestamp, sqltypes.KindTimestampTZ:
			if a.F == math.Trunc(a.F) {
				return sqltypes.Value{K: t.Kind(), I: sqltypes.TimestampFromStored(int64(a.F))}, nil
			}
		case sqltypes.KindInt, sqltypes.KindDate, sqltypes.KindTime:
			if a.F == math.Trunc(a.F) {
				return sqltypes.Value{K: t.Kind(), I: int64(a.F)}, nil
			}
		}
	case kv.AttrString:
		if t.HasComposite() {
			// A composite column or an array of composites: its text
			// (sqltypes.ParseStoredRecord).
			return sqltypes.ParseStoredRecord(t, ownString(a.S, owned))
		}
		switch t.Kind() {
		case sqltypes.KindText:
			// Scanned attributes may alias store memory (kv.Iterator).
			return sqltypes.NewText(ownString(a.S, owned)), nil
		case sqltypes.KindUUID, sqltypes.KindNumeric, sqltypes.KindInterval, sqltypes.KindTimeTZ, sqltypes.KindBit, sqltypes.KindInet, sqltypes.KindMacAddr, sqltypes.KindGeo:
			// Parsed without the type's modifiers: what was stored fits them.
			return sqltypes.ParseText(storedType(t), a.S)
		case sqltypes.KindJSONB:
			// Its normal text, parsed when an operator needs the tree
			// (a row's decode is often only for ->> of a key or two).
			return sqltypes.NewStoredJSONB(ownString(a.S, owned)), nil
		case sqltypes.KindArray, sqltypes.KindHstore, sqltypes.KindRange, sqltypes.KindMultirange, sqltypes.KindTSVector, sqltypes.KindTSQuery:
			// Parsed documents and arrays keep substrings of their text,
			// which must not alias store memory.
			return sqltypes.ParseText(storedType(t), ownString(a.S, owned))
		case sqltypes.KindCitext:
			return sqltypes.NewCitext(ownString(a.S, owned)), nil
		case sqltypes.KindBPChar:
			return sqltypes.NewBPChar(ownString(a.S, owned)), nil
		case sqltypes.KindJSON:
			return sqltypes.NewJSON(ownString(a.S, owned)), nil
		case sqltypes.KindXML:
			return sqltypes.NewXML(ownString(a.S, owned)), nil
		case sqltypes.KindJSONPath:
			// The canonical text; the tree is parsed when evaluated.
			return sqltypes.Value{K: sqltypes.KindJSONPath, S: ownString(a.S, owned)}, nil
		case sqltypes.KindLtree, sqltypes.KindLquery, sqltypes.KindLtxtquery:
			// The canonical text, as stored.
			return sqltypes.Value{K: t.Kind(), S: ownString(a.S, owned)}, nil
		case sqltypes.KindTimestamp, sqltypes.KindTimestampTZ:
			// Past the stored count (ValueAttr): µs since 2000.
			if us, err := strconv.ParseInt(a.S, 10, 64); err == nil {
				return sqltypes.Value{K: t.Kind(), I: us}, nil
			}
		}
	case kv.AttrBytes:
		switch t.Kind() {
		case sqltypes.KindBytes:
			return sqltypes.NewBytes(a.B), nil
		case sqltypes.KindText:
			return sqltypes.NewText(string(a.B)), nil
		case sqltypes.KindGeometry:
			return sqltypes.StoredGeometry(t, a.B), nil
		}
	}
	return sqltypes.Null, fmt.Errorf("catalog: stored attribute %q (kind %d) does not fit column type %s", a.Name, a.Kind, t)
}

// ownString is s, or its copy when s may be store memory that the next
// item overwrites (kv.Iterator) rather than the caller's own.
func ownString(s string, owned bool) string {
	if owned {
		return s
	}
	return strings.Clone(s)
}

// DecodeRow fills row (len(t.Columns)) from an item's attributes; columns
// without an attribute are NULL. Attributes not in the table are ignored
// (key attributes of some backends, dropped columns).
func (t *Table) DecodeRow(attrs []kv.Attr, row []sqltypes.Value) error {
	for i := range row {
		row[i] = sqltypes.Null
		if t.Columns[i].Missing != "" {
			v, err := t.Columns[i].MissingValue()
			if err != nil {
				return err
			}
			row[i] = v
		}
	}
	for j := range attrs {
		a := &attrs[j]
		i := t.columnOrdinal(a.Name)
		if i < 0 {
			continue
		}
		v, err := attrValue(a, t.Columns[i].Type, false)
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
		if t.Columns[i].AttrName() == name {
			return i
		}
	}
	return -1
}

// columnByID returns the ordinal of the column with ID id, or -1.
func (t *Table) columnByID(id uint16) int {
	for i := range t.Columns {
		if t.Columns[i].ID == id {
			return i
		}
	}
	return -1
}

// EntryColumns lists the table columns an index entry stores: key columns,
// included and stored columns, and primary-key columns, each once, in increasing
// column ID. That is the order of the entry's attributes (EntryAttrs), so
// that a store which lays out attributes with increasing IDs by a table of
// them (kv/pebble's value format 2) does so for entries as it does for
// rows, and a scan that needs a few of an entry's columns (a covering
// Z-order box scan) jumps to them instead of reading every attribute's
// name.
func (t *Table) EntryColumns(ix *Index) []int {
	// Every write calls this for every entry: a linear search of a few
	// columns, where a map cost three allocations a call, and an insertion
	// in ID order.
	out := make([]int, 0, len(ix.Columns)+len(ix.Include)+len(ix.Stored)+len(t.PrimaryKey))
	add := func(c int) {
		at := len(out)
		for i, o := range out {
			if o == c {
				return
			}
			if at == len(out) && t.Columns[o].ID > t.Columns[c].ID {
				at = i
			}
		}
		out = slices.Insert(out, at, c)
	}
	for _, k := range ix.Columns {
		if k.Column >= 0 {
			add(k.Column)
		}
	}
	for _, c := range ix.Include {
		add(c)
	}
	for _, c := range ix.Stored {
		add(c)
	}
	for _, c := range ix.ExprColumns {
		add(c)
	}
	for _, k := range t.PrimaryKey {
		add(k.Column)
	}
	return out
}

// EntryKey returns the store key of row's entry in index ix (row is the
// entry row of an index with expressions: indexexpr.go).
func (t *Table) EntryKey(ix *Index, row []sqltypes.Value) kv.Key {
	return t.EntryKeyPK(ix, row, t.EncodePK(nil, row))
}

// EntryKeyPK is EntryKey for a row whose encoded primary key the caller
// already has (writers compute it once for the row and all its entries).
func (t *Table) EntryKeyPK(ix *Index, row []sqltypes.Value, pk []byte) kv.Key {
	var zs *zorder.Schema
	var codes []uint64
	var sort []byte
	switch {
	case ix.Kind == KindZOrder:
		zs = t.ZSchema(ix)
		codes = make([]uint64, len(ix.Columns))
		sort = make([]byte, 0, zs.AddrLen()+len(pk))
	case !t.UniqueKeyed(ix, row):
		sort = make([]byte, 0, 10*len(ix.Columns)+len(pk))
	}
	sort, shard := t.appendEntrySort(sort, ix, zs, codes, row, pk)
	return kv.Key{Partition: IndexPartition(ix.ID, shard), Sort: sort}
}

// appendEntrySort appends the sort key of row's entry in ix to dst and
// returns it with the entry's shard: the Z-address or the encoded index
// columns, then pk unless the entry is unique-keyed. zs is ix's Z-order
// schema and codes a scratch slice of len(ix.Columns) (Z-order indexes
// only). EntryKeyPK and Encoder.EntryKeyPK both form keys here, so the two
// write the same bytes.
func (t *Table) appendEntrySort(dst []byte, ix *Index, zs *zorder.Schema, codes []uint64, row []sqltypes.Value, pk []byte) ([]byte, int) {
	if ix.Kind == KindZOrder {
		for i := range ix.Columns {
			codes[i] = ZCode(zs.Attr(i), t.KeyValue(ix, i, row))
		}
		dst = append(zs.AppendAddress(dst, codes), pk...)
		return dst, ix.entryShard(dst, pk)
	}
	for i, k := range ix.Columns {
		dst = AppendKeyValue(dst, t.KeyValue(ix, i, row), k.Desc)
	}
	if t.UniqueKeyed(ix, row) {
		return dst, ix.uniqueShard(dst)
	}
	dst = append(dst, pk...)
	return dst, ix.entryShard(dst, pk)
}

// EntryAttrs returns the attributes of row's entry in index ix.
func (t *Table) EntryAttrs(ix *Index, row []sqltypes.Value) []kv.Attr {
	cols := t.EntryColumns(ix)
	attrs := make([]kv.Attr, 0, len(cols))
	for _, c := range cols {
		attrs = t.appendAttr(attrs, c, row[c])
	}
	return t.appendExpiry(attrs, row)
}

// ZType maps a SQL type onto its Z-order attribute type. Numeric and
// interval use float codes (of the value, and of the interval's span in
// µs): rounding to the nearest float64 never reverses two values, so the
// codes of every value in [a, b] lie in [code(a), code(b)] and the box
// keeps every row; values that round together cost reads the residual
// filter drops. char(n) uses its text without trailing blanks.
func ZType(t sqltypes.Type) zorder.Type {
	switch t.Kind() {
	case sqltypes.KindFloat, sqltypes.KindNumeric, sqltypes.KindInterval, sqltypes.KindEnum:
		return zorder.TypeFloat
	case sqltypes.KindBPChar, sqltypes.KindCitext, sqltypes.KindBit, sqltypes.KindLtree:
		return zorder.TypeBytes
	case sqltypes.KindTimestamp, sqltypes.KindTimestampTZ:
		return zorder.TypeTimestamp
	case sqltypes.KindDate:
		return zorder.TypeDate
	case sqltypes.KindBool:
		return zorder.TypeBool
	case sqltypes.KindText, sqltypes.KindBytes, sqltypes.KindUUID, sqltypes.KindInet, sqltypes.KindMacAddr:
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

// PrepareZSchemas computes the Z-order schema of each of t's Z-order
// indexes from t as it is now and keeps it with the index, as reading a
// descriptor from the store does. It is for a descriptor a catalog change
// made rather than read, which then writes many entries: CreateIndex
// builds its new index from the descriptor it committed, whose new index
// has no schema yet and would otherwise make one for every row it
// indexes. Every schema is recomputed, not only missing ones (a Clone
// copies its source's), so none can be stale against t; t must be one no
// snapshot holds and that nothing changes afterwards, as a committed
// change's descriptor is.
func (t *Table) PrepareZSchemas() {
	for _, ix := range t.Indexes {
		if ix.Kind == KindZOrder {
			ix.zschema = t.buildZSchema(ix)
		}
	}
}

func (t *Table) buildZSchema(ix *Index) *zorder.Schema {
	s, err := t.NewZSchema(ix)
	if err != nil {
		// Descriptors are validated when bound (planner), so a stored one
		// always makes a schema.
		panic(err)
	}
	return s
}

// NewZSchema builds the Z-order schema of a Z-order index, reporting
// widths or leads it cannot lay out.
func (t *Table) NewZSchema(ix *Index) (*zorder.Schema, error) {
	attrs := make([]zorder.Attr, len(ix.Columns))
	for i, k := range ix.Columns {
		typ := t.KeyType(k)
		w := k.Width
		if w == 0 {
			// Narrow integers need only their own width; wider codes would
			// add address bits that no value can set.
			switch typ.ID {
			case sqltypes.Int2:
				w = 16
			case sqltypes.Int4:
				w = 32
			}
		}
		attrs[i] = zorder.Attr{Name: t.KeyName(k), Type: ZType(typ), Width: w, Nullable: !t.KeyNotNull(k), Lead: k.Lead}
	}
	return zorder.NewSchema(attrs...)
}

// LeadsOption is the value of a Z-order index's WITH (leads = ...) option
// that lays it out as it is ("17,18,22"), or "" when every lead is 0 (the
// default layout).
func (ix *Index) LeadsOption() string {
	var parts []string
	led := false
	for _, k := range ix.Columns {
		parts = append(parts, strconv.Itoa(k.Lead))
		led = led || k.Lead != 0
	}
	if !led {
		return ""
	}
	return strings.Join(parts, ",")
}

// AlignLeadsToStats is AlignLeadsToExtremes with the extremes ANALYZE saw,
// for a hypothetical index, which reads no rows.
func (t *Table) AlignLeadsToStats(ix *Index, st *TableStats) bool {
	if st == nil {
		return false
	}
	return t.AlignLeadsToExtremes(ix, func(col int) (lo, hi sqltypes.Value, ok bool) {
		cs := st.Column(&t.Columns[col])
		if cs == nil || cs.Min.K == sqltypes.KindNull || cs.Max.K == sqltypes.KindNull {
			return lo, hi, false
		}
		return cs.Min, cs.Max, true
	})
}

// AlignLeadsToExtremes is AlignLeads with each attribute's span given by
// its column's smallest and largest values. It reports false, leaving ix
// as it was, when extremes lacks those of some column.
func (t *Table) AlignLeadsToExtremes(ix *Index, extremes func(col int) (lo, hi sqltypes.Value, ok bool)) bool {
	zs := t.ZSchema(ix)
	lo, hi := make([]uint64, len(ix.Columns)), make([]uint64, len(ix.Columns))
	for d, k := range ix.Columns {
		l, h, ok := extremes(k.Column)
		if !ok {
			return false
		}
		lo[d], hi[d] = ZCode(zs.Attr(d), l), ZCode(zs.Attr(d), h)
	}
	t.AlignLeads(ix, lo, hi)
	return true
}

// AlignLeads sets the leads of a Z-order index's attributes to the data
// whose codes per attribute lie in [lo[d], hi[d]] (zorder.Attr.DataLead):
// each attribute then leads with the top bits its data leaves unused, so
// the bits its values vary in interleave from the same round as the other
// attributes'. A box that is a cube in the data is a cube in address space,
// which ranges and a skip-scan cover far more tightly. Values outside the
// span stay exact; they only lie apart from the rest in address space.
// (Codes and widths do not depend on leads, so ix's schema as it is gives
// them.)
func (t *Table) AlignLeads(ix *Index, lo, hi []uint64) {
	s := t.ZSchema(ix)
	for d := range ix.Columns {
		ix.Columns[d].Lead = s.Attr(d).DataLead(lo[d], hi[d])
	}
	ix.zschema = nil
}

// ZCode returns the Z-order code of v for attribute a.
func ZCode(a zorder.Attr, v sqltypes.Value) uint64 {
	switch v.K {
	case sqltypes.KindNull:
		return a.Null()
	case sqltypes.KindFloat, sqltypes.KindEnum:
		return a.Float(v.F)
	case sqltypes.KindBool:
		return a.Bool(v.I != 0)
	case sqltypes.KindText, sqltypes.KindBytes, sqltypes.KindUUID, sqltypes.KindInet, sqltypes.KindMacAddr, sqltypes.KindLtree:
		return a.String(v.S)
	case sqltypes.KindNumeric:
		return a.Float(v.AsFloat())
	case sqltypes.KindInterval:
		return a.Float(intervalFloat(v.Interval()))
	case sqltypes.KindBPChar:
		return a.String(strings.TrimRight(v.S, " "))
	case sqltypes.KindCitext:
		return a.String(sqltypes.CitextFold(v.S))
	case sqltypes.KindBit:
		return a.String(v.S) // lossy: bit strings differing in length share a code
	case sqltypes.KindTimeTZ:
		return a.Int(v.TimeTZ().UTCMicros())
	case sqltypes.KindLSN, sqltypes.KindXID8:
		return a.Int(v.I ^ math.MinInt64) // unsigned order, as AppendKeyValue
	case sqltypes.KindTimestamp, sqltypes.KindTimestampTZ:
		s, _ := sqltypes.StoredTimestamp(v.I) // stored codes count from 1970
		return a.Int(s)
	}
	return a.Int(v.I)
}

// ZAbove is the code interval of x >= v (inclusive) or x > v for a value
// of any kind: the optimizer's box bound. The lossy codes (numeric,
// interval, timetz: by its UTC time only) always keep v's own code, since
// values just above v may share it.
func ZAbove(a zorder.Attr, v sqltypes.Value, inclusive bool) zorder.Interval {
	switch v.K {
	case sqltypes.KindFloat, sqltypes.KindEnum:
		return a.FloatAbove(v.F, inclusive)
	case sqltypes.KindNumeric:
		return a.FloatAbove(v.AsFloat(), true)
	case sqltypes.KindInterval:
		return a.FloatAbove(intervalFloat(v.Interval()), true)
	case sqltypes.KindTimeTZ:
		return a.IntAbove(v.TimeTZ().UTCMicros(), true)
	case sqltypes.KindText, sqltypes.KindBytes, sqltypes.KindUUID, sqltypes.KindInet, sqltypes.KindMacAddr, sqltypes.KindLtree:
		return a.StringAbove(v.S, inclusive)
	case sqltypes.KindBPChar:
		return a.StringAbove(strings.TrimRight(v.S, " "), inclusive)
	case sqltypes.KindCitext:
		return a.StringAbove(sqltypes.CitextFold(v.S), inclusive)
	case sqltypes.KindBit:
		return a.StringAbove(v.S, true) // longer strings of v's bytes share its code
	case sqltypes.KindBool:
		if v.I != 0 || !inclusive {
			return a.BoolEq(true)
		}
		return a.NotNull()
	case sqltypes.KindLSN, sqltypes.KindXID8:
		return a.IntAbove(v.I^math.MinInt64, inclusive)
	case sqltypes.KindTimestamp, sqltypes.KindTimestampTZ:
		s, ok := sqltypes.StoredTimestamp(v.I) // clamped: keep the last code
		return a.IntAbove(s, inclusive || !ok)
	}
	return a.IntAbove(v.I, inclusive)
}

// ZBelow is the code interval of x <= v (inclusive) or x < v.
func ZBelow(a zorder.Attr, v sqltypes.Value, inclusive bool) zorder.Interval {
	switch v.K {
	case sqltypes.KindFloat, sqltypes.KindEnum:
		return a.FloatBelow(v.F, inclusive)
	case sqltypes.KindNumeric:
		return a.FloatBelow(v.AsFloat(), true)
	case sqltypes.KindInterval:
		return a.FloatBelow(intervalFloat(v.Interval()), true)
	case sqltypes.KindTimeTZ:
		return a.IntBelow(v.TimeTZ().UTCMicros(), true)
	case sqltypes.KindText, sqltypes.KindBytes, sqltypes.KindUUID, sqltypes.KindInet, sqltypes.KindMacAddr, sqltypes.KindLtree:
		return a.StringBelow(v.S, inclusive)
	case sqltypes.KindBPChar:
		return a.StringBelow(strings.TrimRight(v.S, " "), inclusive)
	case sqltypes.KindCitext:
		return a.StringBelow(sqltypes.CitextFold(v.S), inclusive)
	case sqltypes.KindBit:
		return a.StringBelow(v.S, true)
	case sqltypes.KindBool:
		if v.I == 0 || !inclusive {
			return a.BoolEq(false)
		}
		return a.NotNull()
	case sqltypes.KindLSN, sqltypes.KindXID8:
		return a.IntBelow(v.I^math.MinInt64, inclusive)
	case sqltypes.KindTimestamp, sqltypes.KindTimestampTZ:
		s, ok := sqltypes.StoredTimestamp(v.I)
		return a.IntBelow(s, inclusive || !ok)
	}
	return a.IntBelow(v.I, inclusive)
}

// intervalFloat is an interval's comparison span in µs, rounded to the
// nearest float64 (monotone in the span).
func intervalFloat(iv sqltypes.IntervalValue) float64 {
	hi, lo := sqltypes.IntervalSpan(iv)
	// hi·2^64 + lo; the two parts add with one rounding each, and lo's
	// rounding cannot reorder spans that hi already separates.
	return float64(hi)*0x1p64 + float64(lo)
}

// decimalKey is the zorder form of a numeric: normalized digits and the
// exponent of 0.d1d2….
func decimalKey(d *apd.Decimal) zorder.Decimal {
	switch d.Form {
	case apd.NaN, apd.NaNSignaling:
		return zorder.Decimal{Class: zorder.DecimalNaN}
	case apd.Infinite:
		if d.Negative {
			return zorder.Decimal{Class: zorder.DecimalNegInf}
		}
		return zorder.Decimal{Class: zorder.DecimalPosInf}
	}
	if d.IsZero() {
		return zorder.Decimal{Class: zorder.DecimalZero}
	}
	digits := strings.TrimRight(d.Coeff.String(), "0")
	trimmed := len(d.Coeff.String()) - len(digits)
	// value = digits × 10^(Exponent+trimmed) = 0.digits × 10^(that+len).
	exp := int64(d.Exponent) + int64(trimmed) + int64(len(digits))
	k := zorder.Decimal{Class: zorder.DecimalPos, Exp: int32(exp), Digits: []byte(digits)}
	if d.Negative {
		k.Class = zorder.DecimalNeg
	}
	return k
}

// numericAttr stores a numeric as a number when lossless (see ValueAttr).
func numericAttr(a kv.Attr, v sqltypes.Value) kv.Attr {
	d := v.Numeric()
	text := sqltypes.FormatText(v)
	if d.Form == apd.Finite {
		if d.Exponent == 0 {
			if i, err := strconv.ParseInt(text, 10, 64); err == nil {
				a.Kind, a.I = kv.AttrInt, i
				return a
			}
		}
		if f, err := strconv.ParseFloat(text, 64); err == nil && strconv.FormatFloat(f, 'f', -1, 64) == text {
			a.Kind, a.F = kv.AttrFloat, f
			return a
		}
	}
	a.Kind, a.S = kv.AttrString, text
	return a
}

// storedType is t without the modifiers stored values already satisfy.
func storedType(t sqltypes.Type) sqltypes.Type {
	switch t.ID {
	case sqltypes.Numeric:
		return sqltypes.TypeNumeric
	case sqltypes.Interval:
		return sqltypes.TypeInterval
	}
	return t
}

// compositeKeyError refuses a composite column (or an array of one) as a
// key: a key of its record text would change when ALTER TYPE ... ADD
// ATTRIBUTE lengthens the text, and would not sort as record_cmp does.
func compositeKeyError(t sqltypes.Type) error {
	return pgerr.New(pgerr.FeatureNotSupported, "columns of composite type %s cannot be key or index columns", t)
}

// CheckKeyEncodable refuses, for a primary key or an index, a type whose
// values have no key encoding at all (hstore); the types CheckKeyType
// refuses for unique constraints have one and stay allowed there.
func CheckKeyEncodable(t sqltypes.Type) error {
	if t.HasComposite() {
		return compositeKeyError(t)
	}
	switch t.ID {
	case sqltypes.Hstore, sqltypes.TSVector, sqltypes.TSQuery:
		return pgerr.New(pgerr.FeatureNotSupported, "%s columns cannot be key or index columns", t)
	case sqltypes.Geometry, sqltypes.Geography:
		// PostGIS's btree operator class orders by a Hilbert curve of the
		// boxes; zproxy has neither it nor a spatial index yet.
		return pgerr.New(pgerr.FeatureNotSupported, "%s columns cannot be key or index columns", sqltypes.Type{ID: t.ID})
	}
	if t.ID == sqltypes.XML || t.ID == sqltypes.Lquery || t.ID == sqltypes.Ltxtquery || sqltypes.IsGeo(t.ID) || t.ID == sqltypes.Box2D {
		return CheckKeyType(t, KindBTree) // no btree operator class: PostgreSQL's 42704
	}
	return nil
}

// CheckKeyType reports whether a column of type t can be a unique
// constraint's column (kind KindBTree) or a Z-order index attribute (kind
// KindZOrder). json has no ordering at all (PostgreSQL: no default btree
// operator class, 42704); jsonb and arrays have no order-preserving key
// encoding in zproxy (0A000). A primary key or plain index column needs
// only CheckKeyEncodable.
func CheckKeyType(t sqltypes.Type, kind IndexKind) error {
	method := "btree"
	if kind == KindZOrder {
		method = "zorder"
	}
	if t.HasComposite() {
		return compositeKeyError(t)
	}
	switch t.ID {
	case sqltypes.JSON:
		return pgerr.New(pgerr.UndefinedObject, "data type json has no default operator class for access method %q", method).
			WithHint("You must specify an operator class for the index or define a default operator class for the data type.")
	case sqltypes.JSONB:
		return pgerr.New(pgerr.FeatureNotSupported, "jsonb columns cannot be key or index columns")
	case sqltypes.Array:
		return pgerr.New(pgerr.FeatureNotSupported, "array columns (%s) cannot be key or index columns", t)
	case sqltypes.Hstore:
		// PostgreSQL has btree and hash operator classes for hstore, whose
		// order it calls not useful; zproxy has no key encoding for it.
		return pgerr.New(pgerr.FeatureNotSupported, "hstore columns cannot be key or index columns")
	case sqltypes.XML, sqltypes.JSONPath, sqltypes.Lquery, sqltypes.Ltxtquery, sqltypes.GeoPoint, sqltypes.GeoLSeg, sqltypes.GeoBox, sqltypes.GeoLine, sqltypes.GeoPath, sqltypes.GeoPolygon, sqltypes.GeoCircle, sqltypes.Box2D:
		return pgerr.New(pgerr.UndefinedObject, "data type %s has no default operator class for access method %q", t, method).
			WithHint("You must specify an operator class for the index or define a default operator class for the data type.")
	case sqltypes.TSVector, sqltypes.TSQuery:
		// PostgreSQL's btree order of tsvector and tsquery (by stored
		// size first) has no key encoding in zproxy.
		return pgerr.New(pgerr.FeatureNotSupported, "%s columns cannot be key or index columns", t)
	}
	if (t.IsRange() || t.IsMultirange()) && kind == KindZOrder {
		// A range has a btree order but no point on a Z-order axis.
		return pgerr.New(pgerr.FeatureNotSupported, "range columns (%s) cannot be Z-order index attributes", t)
	}
	return nil
}
