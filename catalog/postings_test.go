package catalog

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
)

// decodeAll returns the keys of an encoded block.
func decodeAll(b []byte) ([][]byte, error) {
	blk, err := ParseBlock(b)
	if err != nil {
		return nil, err
	}
	return blk.AppendKeys(nil), nil
}

// TestBlocksRoundTrip: lists of primary keys of every size around a
// block's limits split into full blocks in order, and each block decodes
// to its keys.
func TestBlocksRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, MaxBlockPostings - 1, MaxBlockPostings, MaxBlockPostings + 1, 3*MaxBlockPostings + 7} {
		for _, long := range []bool{false, true} {
			t.Run(fmt.Sprintf("%d/long=%v", n, long), func(t *testing.T) {
				var pks [][]byte
				for i := range n {
					pk := AppendKeyValue(nil, sqltypes.NewInt(int64(i)), false)
					if long {
						// Text keys of about 1 KiB: blocks are cut by bytes.
						pk = AppendKeyValue(nil, sqltypes.NewText(fmt.Sprintf("%06d%s", i, bytes.Repeat([]byte{'x'}, 900+rng.IntN(200)))), false)
					}
					pks = append(pks, pk)
				}
				var got [][]byte
				blocks := Blocks(pks)
				for i, block := range blocks {
					size := 0
					for _, pk := range block {
						size += len(pk)
					}
					if len(block) == 0 || len(block) > MaxBlockPostings || (len(block) > 1 && size > maxBlockBytes) {
						t.Fatalf("block %d: %d keys of %d bytes", i, len(block), size)
					}
					if i < len(blocks)-1 && len(block) < MaxBlockPostings && size+len(blocks[i+1][0]) <= maxBlockBytes {
						t.Fatalf("block %d is not full: %d keys of %d bytes, and the next key fits", i, len(block), size)
					}
					keys, err := decodeAll(AppendBlock(nil, block))
					if err != nil {
						t.Fatal(err)
					}
					if !slices.EqualFunc(keys, block, bytes.Equal) {
						t.Fatalf("block %d decodes to other keys", i)
					}
					got = append(got, keys...)
				}
				if !slices.EqualFunc(got, pks, bytes.Equal) {
					t.Fatalf("the blocks hold %d keys, not the %d given in order", len(got), len(pks))
				}
			})
		}
	}
}

// TestParseBlockRejects: every truncation and every corruption of a
// block's count or ends fails to parse.
func TestParseBlockRejects(t *testing.T) {
	pks := [][]byte{{0x20, 1}, {0x20, 2, 3}, {0x40, 'a', 0, 1}}
	b := AppendBlock(nil, pks)
	for cut := 0; cut < len(b); cut++ {
		if _, err := decodeAll(b[:cut]); err == nil {
			t.Errorf("a block cut to %d of its %d bytes parses", cut, len(b))
		}
	}
	if _, err := decodeAll(append(bytes.Clone(b), 0)); err == nil {
		t.Error("a block with a byte after its keys parses")
	}
	for _, bad := range [][]byte{
		{0x00},                   // no key
		{0x01, 0x00, 0x00},       // an empty key
		{0x01, 0x05, 0x00, 0x20}, // a key longer than what is left
		{0x02, 0x02, 0x00, 0x01, 0x00, 0x20, 0x20}, // ends going back
		{0xff, 0xff, 0xff, 0xff},                   // a count that is not a uvarint
		{0x80, 0x00, 0x00, 0x00},                   // a count not in its shortest form
		{0x05},                                     // a count larger than the bytes
	} {
		if keys, err := decodeAll(bad); err == nil {
			t.Errorf("% x parses to %d keys", bad, len(keys))
		}
	}
}

// FuzzParseBlock: a block that parses encodes back to itself, and
// nothing panics.
func FuzzParseBlock(f *testing.F) {
	f.Add(AppendBlock(nil, [][]byte{{0x20, 1}, {0x20, 2}}))
	f.Add([]byte{0x00})
	f.Add([]byte{0x01, 0x01, 0x00, 0x20})
	f.Fuzz(func(t *testing.T, b []byte) {
		keys, err := decodeAll(b)
		if err != nil {
			return
		}
		if again := AppendBlock(nil, keys); !bytes.Equal(again, b) {
			t.Fatalf("% x decodes to keys that encode as % x", b, again)
		}
	})
}

// TestPostingKeys: a token's blocks, removals, added postings and stamp
// sort in that order within its range, each tells its kind and its primary key,
// and the attributes tell the same kind.
func TestPostingKeys(t *testing.T) {
	tbl := &Table{ID: 1, Name: "d", Columns: []Column{{Name: "id", Type: sqltypes.TypeInt8}, {Name: "k", Type: sqltypes.TypeText, NotNull: true}}}
	tbl.PrimaryKey = []KeyColumn{{Column: 0}, {Column: 1, Desc: true}}
	row := []sqltypes.Value{sqltypes.NewInt(7), sqltypes.NewText("zz")}
	pk := tbl.EncodePK(nil, row)
	tok := PartToken(0, KeyToken("color"))
	added := kv.Key{Partition: IndexPartition(2, 0), Sort: append(bytes.Clone(tok), pk...)}
	removal := RemovalKey(added, pk)
	block := BlockKey(tok, pk)
	stamp := StampKey(tok)
	if !(bytes.Compare(block, removal.Sort) < 0 && bytes.Compare(removal.Sort, added.Sort) < 0 && bytes.Compare(added.Sort, stamp) < 0) {
		t.Fatalf("order: block % x, removal % x, added % x, stamp % x", block, removal.Sort, added.Sort, stamp)
	}
	if kind, _ := SplitPosting(stamp, len(tok)); kind != PostingStamp || EntryKind([]kv.Attr{{Name: StampAttr, Kind: kv.AttrBool, I: 1}}) != PostingStamp {
		t.Errorf("the stamp % x is not told a stamp", stamp)
	}
	end := kv.PrefixEnd(tok)
	for _, c := range []struct {
		sort  []byte
		kind  PostingKind
		attrs []kv.Attr
	}{
		{added.Sort, PostingAdded, tbl.InvertedEntryAttrs(row)},
		{removal.Sort, PostingRemoved, tbl.RemovalAttrs(row)},
		{block, PostingBlock, []kv.Attr{{Name: BlockAttr, Kind: kv.AttrBytes, B: AppendBlock(nil, [][]byte{pk})}}},
	} {
		if !bytes.HasPrefix(c.sort, tok) || bytes.Compare(c.sort, end) >= 0 {
			t.Errorf("kind %d: % x is outside the token's range", c.kind, c.sort)
		}
		kind, got := SplitPosting(c.sort, len(tok))
		if kind != c.kind || !bytes.Equal(got, pk) {
			t.Errorf("SplitPosting(% x) = %d, % x; want %d, % x", c.sort, kind, got, c.kind, pk)
		}
		if k := EntryKind(c.attrs); k != c.kind {
			t.Errorf("EntryKind of kind %d's attributes = %d", c.kind, k)
		}
		if c.kind != PostingBlock {
			if got, err := tbl.PostingPrimaryKey(c.attrs); err != nil || !bytes.Equal(got, pk) {
				t.Errorf("PostingPrimaryKey of kind %d = % x, %v; want % x", c.kind, got, err, pk)
			}
		}
	}
}

// TestPrefixTokenEnd: under a lexeme prefix, the token ends after the
// lexeme's 0 byte, whatever kind of entry follows.
func TestPrefixTokenEnd(t *testing.T) {
	prefix := PartToken(0, LexemePrefixToken("sup"))
	tok := PartToken(0, LexemeToken("super"))
	pk := []byte{0x20, 1}
	for _, sort := range [][]byte{append(bytes.Clone(tok), pk...), BlockKey(tok, pk)} {
		if got := PrefixTokenEnd(sort, prefix); got != len(tok) {
			t.Errorf("PrefixTokenEnd(% x) = %d, want %d", sort, got, len(tok))
		}
	}
}
