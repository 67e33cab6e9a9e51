package catalog

import (
	"encoding/binary"
	"errors"
	"slices"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
)

// Posting blocks. A token's posting list is held in up to four kinds of
// entries, all in the token's key range [part ‖ token, PrefixEnd(part ‖
// token)) of a shard, in this order:
//
//	part ‖ token ‖ 0x01 ‖ first primary key   a block: up to
//	                                          MaxBlockPostings primary keys
//	                                          in key order, in attribute
//	                                          BlockAttr
//	part ‖ token ‖ 0x02 ‖ primary key         a removal: the row left the
//	                                          list, which a block may still
//	                                          name
//	part ‖ token ‖ primary key                a posting added since the
//	                                          token was last packed
//	part ‖ token ‖ 0xff                       the stamp of the last packing
//
// The list is (the blocks' keys less the removals') plus the added
// postings. A write adds a posting or, when a row loses the token, deletes
// it and puts a removal (it does not know whether a block holds the row,
// and a blind write costs no read). Packing (the executor's PackInverted:
// an index build, VACUUM) rewrites a token's list as blocks alone in one
// transaction, so a list of 10,000 rows is some 40 items, where it was
// 10,000: on DynamoDB a query pays for items, and on Pebble for each step
// of its iterator. This is PostgreSQL's GIN again: its posting trees, and
// the pending list of fast updates that VACUUM merges into them.
//
// Every packing of a token puts its stamp, last in its range: a reader of
// a snapshot older than the packing that reads the range meets it, as it
// would the tombstones DynamoDB keeps of deleted items, which the packing
// removes (kv.TxnOptions.PurgeDeletes).
//
// A primary key's first byte is a value's tag (zorder's, 0x10 up to 0x60,
// or their complements for DESC columns; a key column is never NULL), so
// the markers 0x01, 0x02 and 0xff never begin one and the kinds cannot be
// confused.
const (
	postingBlock   byte = 0x01
	postingRemoval byte = 0x02
	postingStamp   byte = 0xff
)

// PostingKind is what an entry of an inverted index holds.
type PostingKind uint8

const (
	// PostingAdded is one row's posting, added since the token was packed.
	PostingAdded PostingKind = iota
	// PostingBlock is a block of postings (Block).
	PostingBlock
	// PostingRemoved says a row left the token's list.
	PostingRemoved
	// PostingStamp is the stamp of the token's last packing.
	PostingStamp
)

// BlockAttr is the attribute holding a block's primary keys, and
// RemovalAttr the one marking a removal: what tells a reader that does not
// know where the tokens end (a packing walking a whole index) which kind
// an entry is.
const (
	BlockAttr   = ReservedPrefix + "postings"
	RemovalAttr = ReservedPrefix + "removed"
	StampAttr   = ReservedPrefix + "packed"
)

// MaxBlockPostings is how many rows a block names at most, and
// maxBlockBytes how large its keys may be together: a block of 256 small
// keys is a few KiB (a DynamoDB read unit is 4 KiB), one of long text keys
// stays far below DynamoDB's item limit of 400 KiB, and every offset in
// it fits in 16 bits.
const (
	MaxBlockPostings = 256
	maxBlockBytes    = 60 << 10
)

// SplitPosting returns the kind of an entry whose sort key is sort and
// whose token ends at tokenEnd, and the primary key it names (a block's:
// its first).
func SplitPosting(sort []byte, tokenEnd int) (PostingKind, []byte) {
	rest := sort[tokenEnd:]
	if len(rest) > 0 {
		switch rest[0] {
		case postingBlock:
			return PostingBlock, rest[1:]
		case postingRemoval:
			return PostingRemoved, rest[1:]
		case postingStamp:
			return PostingStamp, nil
		}
	}
	return PostingAdded, rest
}

// PrefixTokenEnd returns where the token ends in the sort key of an entry
// read under a prefix token (LexemePrefixToken): after the first 0 byte
// following the prefix; len(sort) when there is none.
func PrefixTokenEnd(sort, prefix []byte) int {
	for i := len(prefix); i < len(sort); i++ {
		if sort[i] == 0 {
			return i + 1
		}
	}
	return len(sort)
}

// RemovalKey returns the key of the removal of the posting whose entry
// key is added and whose row's encoded primary key is pk (added ends
// with it).
func RemovalKey(added kv.Key, pk []byte) kv.Key {
	tokenEnd := len(added.Sort) - len(pk)
	sort := make([]byte, 0, len(added.Sort)+1)
	sort = append(append(append(sort, added.Sort[:tokenEnd]...), postingRemoval), pk...)
	return kv.Key{Partition: added.Partition, Sort: sort}
}

// BlockKey returns the sort key of a block of token tok (with its key
// part, PartToken) whose first primary key is first.
func BlockKey(tok, first []byte) []byte {
	sort := make([]byte, 0, len(tok)+1+len(first))
	return append(append(append(sort, tok...), postingBlock), first...)
}

// StampKey returns the sort key of the stamp of token tok (with its key
// part).
func StampKey(tok []byte) []byte {
	return append(append(make([]byte, 0, len(tok)+1), tok...), postingStamp)
}

// AppendBlock appends the encoding of a block of primary keys (in key
// order, at most maxBlockBytes of them, as Blocks makes them): their count
// as a uvarint, the end of each key in the keys' bytes as a 16-bit little-
// endian number, then the keys' bytes. The ends let a search read a
// block's keys where they lie, decoding nothing (Block).
func AppendBlock(b []byte, pks [][]byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(pks)))
	end := 0
	for _, pk := range pks {
		end += len(pk)
		b = binary.LittleEndian.AppendUint16(b, uint16(end))
	}
	for _, pk := range pks {
		b = append(b, pk...)
	}
	return b
}

// Blocks splits a sorted list of primary keys into blocks: at most
// MaxBlockPostings keys and maxBlockBytes of them each, every block but
// the last full.
func Blocks(pks [][]byte) [][][]byte {
	var out [][][]byte
	for len(pks) > 0 {
		n, size := 0, 0
		for n < len(pks) && n < MaxBlockPostings && (n == 0 || size+len(pks[n]) <= maxBlockBytes) {
			size += len(pks[n])
			n++
		}
		out = append(out, pks[:n:n])
		pks = pks[n:]
	}
	return out
}

// errCorruptBlock reports a block that does not decode.
var errCorruptBlock = errors.New("inverted index: corrupt posting block")

// Block is an encoded block of primary keys (AppendBlock), read in place.
type Block struct {
	raw  []byte // the encoding
	ends []byte // n 16-bit ends
	keys []byte
	n    int
}

// ParseBlock checks an encoded block and returns it: at least one key,
// each non-empty, their ends within the keys' bytes, which they fill. The
// block aliases b.
func ParseBlock(b []byte) (Block, error) {
	n, w := binary.Uvarint(b)
	if w <= 0 || n == 0 || n > uint64(len(b))/3 || (w > 1 && b[w-1] == 0) {
		return Block{}, errCorruptBlock
	}
	blk := Block{raw: b, ends: b[w : w+2*int(n)], keys: b[w+2*int(n):], n: int(n)}
	prev := 0
	for i := range blk.n {
		end := int(binary.LittleEndian.Uint16(blk.ends[2*i:]))
		if end <= prev {
			return Block{}, errCorruptBlock
		}
		prev = end
	}
	if prev != len(blk.keys) {
		return Block{}, errCorruptBlock
	}
	return blk, nil
}

// Bytes returns the block's encoding.
func (b Block) Bytes() []byte { return b.raw }

// Len is how many keys the block holds.
func (b Block) Len() int { return b.n }

// Key returns key i, aliasing the block.
func (b Block) Key(i int) []byte {
	start := 0
	if i > 0 {
		start = int(binary.LittleEndian.Uint16(b.ends[2*i-2:]))
	}
	end := int(binary.LittleEndian.Uint16(b.ends[2*i:]))
	return b.keys[start:end:end]
}

// AppendKeys appends the block's keys to dst, in order, each aliasing the
// block.
func (b Block) AppendKeys(dst [][]byte) [][]byte {
	dst = slices.Grow(dst, b.n)
	for i := range b.n {
		dst = append(dst, b.Key(i))
	}
	return dst
}

// EntryBlock returns the block a block entry's attributes hold, aliasing
// them.
func EntryBlock(attrs []kv.Attr) (Block, error) {
	for i := range attrs {
		if attrs[i].Name == BlockAttr && attrs[i].Kind == kv.AttrBytes {
			return ParseBlock(attrs[i].B)
		}
	}
	return Block{}, errCorruptBlock
}

// RemovalAttrs returns the attributes of a removal of row's posting: its
// primary key columns, as an added posting's (InvertedEntryAttrs) but
// without the row's expiry, since a removal must outlive the row until a
// packing drops it from the blocks, and with RemovalAttr.
func (t *Table) RemovalAttrs(row []sqltypes.Value) []kv.Attr {
	attrs := make([]kv.Attr, 0, len(t.PrimaryKey)+1)
	for _, k := range t.PrimaryKey {
		attrs = t.appendAttr(attrs, k.Column, row[k.Column])
	}
	return append(attrs, kv.Attr{Name: RemovalAttr, Kind: kv.AttrBool, I: 1})
}

// EntryKind returns the kind of an inverted index's entry by its
// attributes.
func EntryKind(attrs []kv.Attr) PostingKind {
	for i := range attrs {
		switch attrs[i].Name {
		case BlockAttr:
			return PostingBlock
		case RemovalAttr:
			return PostingRemoved
		case StampAttr:
			return PostingStamp
		}
	}
	return PostingAdded
}

// PostingPrimaryKey returns the encoded primary key an added posting or a
// removal names, from its attributes: what tells a reader that does not
// know the token (a packing walking a whole index) where the token ends.
func (t *Table) PostingPrimaryKey(attrs []kv.Attr) ([]byte, error) {
	row := make([]sqltypes.Value, len(t.Columns))
	if err := t.DecodeRow(attrs, row); err != nil {
		return nil, err
	}
	for _, k := range t.PrimaryKey {
		if row[k.Column].IsNull() {
			return nil, errCorruptBlock
		}
	}
	return t.EncodePK(nil, row), nil
}
