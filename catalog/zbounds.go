package catalog

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"

	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/zorder"
)

// Z-order data bounds. A Z-order index created with Index.Bounds keeps, in
// one catalog-partition item ("z/<index id>"), a code interval per attribute
// that holds the code of every entry ever written to it. A query box clips
// its unbounded and half-bounded attributes to them, so a (lat, lon, ts) box
// with ts unbounded spans the timestamps the data has, not the whole 64-bit
// code space.
//
// Safety: a box clipped to the bounds misses no committed row, because
// every writer widens the bounds before its write commits, with a
// conditional update of the item (WidenZBounds), and the bounds never
// narrow, so any copy of them that holds a code proves the current one
// does too. A reader reads the item when its statement starts (a
// consistent read); a row committed before that is inside what it reads.
// An item that does not exist clips nothing. Bounds are widened in coarse,
// power-of-two aligned cells with a sixteenth of the span as slack, so writes
// rarely have to touch the item (monotonic timestamps widen it O(log n)
// times). Narrowing them (after deletes) would need every writer to have
// seen the narrower item first; no statement does it yet.

const zboundsPrefix = "z/"

// Attributes of the bounds item.
const (
	zboundsLoAttr      = "lo"
	zboundsHiAttr      = "hi"
	zboundsVersionAttr = "v"
)

// ZBounds are a Z-order index's data bounds: Lo[d] <= code <= Hi[d] for
// every entry's code of attribute d.
type ZBounds struct {
	Lo, Hi  []uint64
	version int64
}

// Contains reports whether the bounds hold the codes [lo, hi] of every
// attribute.
func (b *ZBounds) Contains(lo, hi []uint64) bool {
	if b == nil || len(b.Lo) != len(lo) {
		return false
	}
	for d := range lo {
		if lo[d] < b.Lo[d] || hi[d] > b.Hi[d] {
			return false
		}
	}
	return true
}

// Clip narrows every attribute of box to the bounds.
func (b *ZBounds) Clip(box zorder.Box) {
	for d := range b.Lo {
		box.Narrow(d, zorder.Interval{Lo: b.Lo[d], Hi: b.Hi[d]})
	}
}

// ZBoundsKey is the store key of an index's bounds item.
func ZBoundsKey(indexID uint64) kv.Key {
	if IsTempID(indexID) {
		// A temporary index's bounds live with its entries, in the
		// proxy's own store (temp.go).
		return kv.Key{Partition: TempBoundsPartition, Sort: binary.BigEndian.AppendUint64([]byte(zboundsPrefix), indexID)}
	}
	return kv.Key{Partition: CatalogPartition, Sort: binary.BigEndian.AppendUint64([]byte(zboundsPrefix), indexID)}
}

// ReadZBounds reads an index's bounds (consistently); nil when the index
// keeps none yet.
func ReadZBounds(ctx context.Context, r kv.Store, ix *Index) (*ZBounds, error) {
	items, err := r.Get(ctx, kv.GetRequest{Keys: []kv.Key{ZBoundsKey(ix.ID)}, Consistent: true})
	if err != nil {
		return nil, err
	}
	if len(items) == 0 || !kv.Found(items[0]) {
		return nil, nil
	}
	return decodeZBounds(items[0], len(ix.Columns))
}

func decodeZBounds(it kv.Item, dims int) (*ZBounds, error) {
	b := &ZBounds{}
	for _, a := range it.Attrs {
		switch a.Name {
		case zboundsLoAttr:
			b.Lo = decodeCodes(a.B)
		case zboundsHiAttr:
			b.Hi = decodeCodes(a.B)
		case zboundsVersionAttr:
			b.version = a.I
		}
	}
	if len(b.Lo) != dims || len(b.Hi) != dims {
		return nil, fmt.Errorf("catalog: corrupt Z-order bounds item %q", it.Key.Sort)
	}
	return b, nil
}

func decodeCodes(p []byte) []uint64 {
	out := make([]uint64, len(p)/8)
	for i := range out {
		out[i] = binary.BigEndian.Uint64(p[8*i:])
	}
	return out
}

func encodeCodes(c []uint64) []byte {
	out := make([]byte, 0, 8*len(c))
	for _, v := range c {
		out = binary.BigEndian.AppendUint64(out, v)
	}
	return out
}

// WidenZBounds makes the stored bounds of ix hold the codes [lo, hi] of
// every attribute (a conditional write, retried when another writer widened
// them first) and returns the bounds now stored. cached, when it holds the
// codes already, proves the stored ones do and nothing is read.
func WidenZBounds(ctx context.Context, store kv.Store, ix *Index, s *zorder.Schema, lo, hi []uint64, cached *ZBounds) (*ZBounds, error) {
	if cached.Contains(lo, hi) {
		return cached, nil
	}
	for attempt := 0; ; attempt++ {
		cur, err := ReadZBounds(ctx, store, ix)
		if err != nil {
			return nil, err
		}
		if cur.Contains(lo, hi) {
			return cur, nil
		}
		next := &ZBounds{Lo: make([]uint64, len(lo)), Hi: make([]uint64, len(hi))}
		op := kv.Op{Kind: kv.OpPut, Key: ZBoundsKey(ix.ID)}
		for d := range lo {
			a, b := lo[d], hi[d]
			if cur != nil {
				a, b = min(a, cur.Lo[d]), max(b, cur.Hi[d])
			}
			next.Lo[d], next.Hi[d] = widenCell(a, b, s.Attr(d).Width)
		}
		if cur == nil {
			op.Cond = kv.CondNotExists
			next.version = 1
		} else {
			op.Cond, op.CondAttr = kv.CondAttrEquals, kv.Attr{Name: zboundsVersionAttr, Kind: kv.AttrInt, I: cur.version}
			next.version = cur.version + 1
		}
		op.Attrs = []kv.Attr{{Name: zboundsLoAttr, Kind: kv.AttrBytes, B: encodeCodes(next.Lo)},
			{Name: zboundsHiAttr, Kind: kv.AttrBytes, B: encodeCodes(next.Hi)},
			{Name: zboundsVersionAttr, Kind: kv.AttrInt, I: next.version}}
		err = store.Write(ctx, kv.Batch{Ops: []kv.Op{op}, Atomic: true})
		var cf *kv.ConditionFailedError
		if errors.As(err, &cf) && attempt < 100 {
			continue // another writer widened them first: merge with theirs
		}
		if err != nil {
			return nil, err
		}
		return next, nil
	}
}

// widenCell pads [a, b] (codes of a width-bit attribute) by a sixteenth of its
// span, at least 2^(width/2), and rounds it outward to cells of the largest
// power of two not above the padding.
func widenCell(a, b uint64, width int) (uint64, uint64) {
	top := uint64(math.MaxUint64)
	if width < 64 {
		top = 1<<uint(width) - 1
	}
	pad := max((b-a)/16, uint64(1)<<uint(width/2))
	cell := uint64(1) << uint(63-bits.LeadingZeros64(pad))
	lo := uint64(0)
	if a > pad {
		lo = (a - pad) &^ (cell - 1)
	}
	hi := top
	if b <= top-pad {
		if h := (b + pad) | (cell - 1); h <= top && h >= b {
			hi = h
		}
	}
	return lo, hi
}
