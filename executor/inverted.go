package executor

import (
	"bytes"
	"context"
	"encoding/binary"
	"slices"
	"sort"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/optimizer"
)

// pkSet is a set of encoded primary keys.
type pkSet = map[string]struct{}

// invertedGet runs an inverted index scan (optimizer/inverted.go): it
// evaluates the query's posting lists into the primary keys of the rows
// that may match and gets those rows, as a point get does; the scan's
// filter then rechecks each row.
func (s *scanRows) invertedGet(ctx context.Context) error {
	n := s.node
	var points [][]byte
	if q := n.Inverted; unionOfTokens(q) {
		// A token or an OR of tokens (an array's &&, a tsquery's a | b,
		// ?|): every list's keys go straight into one buffer, sorted and
		// rid of repeats there, not through sets of strings a key.
		var kb keyBuffer
		err := eachToken(q, func(tok []byte, prefix bool) error {
			return s.eachPosting(ctx, n.Index, tok, prefix, kb.add)
		})
		if err != nil {
			return err
		}
		points = kb.keys()
		// A shard's list is in key order; the shards' and the tokens'
		// lists are not, and a row may be on several of the lists.
		slices.SortFunc(points, bytes.Compare)
		points = slices.CompactFunc(points, bytes.Equal)
	} else {
		keys, err := s.evalInverted(ctx, n.Inverted)
		if err != nil {
			return err
		}
		// The keys are copied into one buffer, each point capped at its end.
		size := 0
		for k := range keys {
			size += len(k)
		}
		buf := make([]byte, 0, size)
		points = make([][]byte, 0, len(keys))
		for k := range keys {
			buf = append(buf, k...)
			points = append(points, buf[len(buf)-len(k):len(buf):len(buf)])
		}
		slices.SortFunc(points, bytes.Compare)
	}
	get := *n
	get.Method, get.Index, get.Lookup, get.Points, get.Inverted = optimizer.PointGet, nil, false, points, nil
	s.node = &get
	if len(points) == 0 {
		return nil
	}
	return s.pointGet(ctx)
}

// keyBuffer gathers primary keys into one buffer, not an allocation a
// key.
type keyBuffer struct {
	buf  []byte
	ends []int
}

// add copies pk in.
func (b *keyBuffer) add(pk []byte) {
	b.buf = append(b.buf, pk...)
	b.ends = append(b.ends, len(b.buf))
}

// keys returns the keys added, in order, each capped at its end.
func (b *keyBuffer) keys() [][]byte {
	out := make([][]byte, len(b.ends))
	start := 0
	for i, end := range b.ends {
		out[i] = b.buf[start:end:end]
		start = end
	}
	return out
}

// unionOfTokens reports whether q is a token or an OR of tokens and such
// ORs: the rows it names are the union of its tokens' posting lists.
func unionOfTokens(q *optimizer.InvertedQuery) bool {
	if q.Token != nil {
		return true
	}
	if q.And {
		return false
	}
	for _, k := range q.Kids {
		if !unionOfTokens(k) {
			return false
		}
	}
	return true
}

// eachToken calls f with each token of q, a unionOfTokens query.
func eachToken(q *optimizer.InvertedQuery, f func(tok []byte, prefix bool) error) error {
	if q.Token != nil {
		return f(q.Token, q.Prefix)
	}
	for _, k := range q.Kids {
		if err := eachToken(k, f); err != nil {
			return err
		}
	}
	return nil
}

// evalInverted returns the primary keys an inverted query names: a
// token's posting list, the union of an OR's, the intersection of an
// AND's. An AND of several tokens on a store with cheap seeks is a zig-zag
// over their posting lists (zigzag), which reads about as many entries as
// the shortest list holds, not all of every list.
func (s *scanRows) evalInverted(ctx context.Context, q *optimizer.InvertedQuery) (pkSet, error) {
	ix := s.node.Index
	if q.Token != nil {
		return s.postings(ctx, ix, q.Token, q.Prefix)
	}
	if !q.And {
		out := pkSet{}
		for _, k := range q.Kids {
			set, err := s.evalInverted(ctx, k)
			if err != nil {
				return nil, err
			}
			for pk := range set {
				out[pk] = struct{}{}
			}
		}
		return out, nil
	}
	var toks [][]byte
	var sets []pkSet
	for _, k := range q.Kids {
		if k.Token != nil && !k.Prefix && s.ec.ex.Caps.CheapSeek {
			toks = append(toks, k.Token)
			continue
		}
		set, err := s.evalInverted(ctx, k)
		if err != nil {
			return nil, err
		}
		sets = append(sets, set)
	}
	switch len(toks) {
	case 0:
	case 1:
		set, err := s.postings(ctx, ix, toks[0], false)
		if err != nil {
			return nil, err
		}
		sets = append(sets, set)
	default:
		set := pkSet{}
		for _, sh := range s.node.Shards {
			if err := s.zigzag(ctx, catalog.IndexPartition(ix.ID, sh), toks, set); err != nil {
				return nil, err
			}
		}
		sets = append(sets, set)
	}
	return intersect(sets), nil
}

// postings reads the entries of one token (of every token beginning with
// tok, for a prefix) in every shard of ix and returns the encoded primary
// keys they name.
func (s *scanRows) postings(ctx context.Context, ix *catalog.Index, tok []byte, prefix bool) (pkSet, error) {
	out := pkSet{}
	err := s.eachPosting(ctx, ix, tok, prefix, func(pk []byte) { out[string(pk)] = struct{}{} })
	if err != nil {
		return nil, err
	}
	return out, nil
}

// eachPosting calls add with the encoded primary key of each row on the
// posting list of one token (of every token beginning with tok, for a
// prefix) in every shard of ix, shard by shard. pk is valid only during
// the call. The keys of a shard's added postings come in key order, and
// so do those of its blocks, but not the two together.
func (s *scanRows) eachPosting(ctx context.Context, ix *catalog.Index, tok []byte, prefix bool, add func(pk []byte)) error {
	end := kv.PrefixEnd(tok)
	var g postingGroup
	for _, sh := range s.node.Shards {
		// Reread: a token's list is read again by the next query naming
		// it, and a store may keep it (kv/pebble's range cache).
		it := s.ec.kv.Scan(ctx, kv.ScanRequest{Partition: catalog.IndexPartition(ix.ID, sh), Start: tok, End: end, Stats: &s.stats, Reread: true})
		err := g.read(ctx, it, tok, prefix, add)
		it.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// postingGroup reads the entries of a token's key range as catalog/
// postings.go lays them out (its blocks, then its removals, then the
// postings added since it was packed, then its packing's stamp) and gives
// the primary keys on the list: the blocks' less the removals', and the
// added ones.
type postingGroup struct {
	tok     []byte   // the token whose entries are being read
	blocked [][]byte // its blocks' keys, not yet given
	removed map[string]struct{}
}

// read gives the list of every token in it's range (one, or for a prefix
// each token beginning with tok) to add.
func (g *postingGroup) read(ctx context.Context, it kv.Iterator, tok []byte, prefix bool, add func(pk []byte)) error {
	key := entryKey(it)
	g.tok = g.tok[:0]
	n := 0
	for it.Next() {
		if n++; n%cancelCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		sort := key()
		tokenEnd := len(tok)
		if prefix {
			tokenEnd = catalog.PrefixTokenEnd(sort, tok)
			if !bytes.Equal(sort[:tokenEnd], g.tok) {
				g.flush(add)
				g.tok = append(g.tok[:0], sort[:tokenEnd]...)
			}
		}
		kind, pk := catalog.SplitPosting(sort, tokenEnd)
		switch kind {
		case catalog.PostingBlock:
			// The block outlives the iterator's step: its keys are given
			// once the removals after it are read.
			b, err := ownBlock(it)
			if err != nil {
				return err
			}
			g.blocked = b.AppendKeys(g.blocked)
		case catalog.PostingRemoved:
			if g.removed == nil {
				g.removed = map[string]struct{}{}
			}
			g.removed[string(pk)] = struct{}{}
		case catalog.PostingStamp:
		default:
			if len(g.blocked) > 0 {
				g.flush(add)
			}
			add(pk)
		}
	}
	if err := it.Err(); err != nil {
		return ClassifyError(err)
	}
	g.flush(add)
	return nil
}

// flush gives the blocks' keys the removals spare, and forgets both.
func (g *postingGroup) flush(add func(pk []byte)) {
	for _, pk := range g.blocked {
		if _, gone := g.removed[string(pk)]; !gone {
			add(pk)
		}
	}
	g.blocked = g.blocked[:0]
	clear(g.removed)
}

// ownBlock returns the block it stands at, in a copy of its own.
func ownBlock(it kv.Iterator) (catalog.Block, error) {
	b, err := catalog.EntryBlock(it.Item().Attrs)
	if err == nil {
		b, err = catalog.ParseBlock(bytes.Clone(b.Bytes()))
	}
	if err != nil {
		return catalog.Block{}, pgerr.New(pgerr.IndexCorrupted, "%v", err)
	}
	return b, nil
}

// sortedPostings returns the posting list of token tok that it reads (a
// scan of the token's range in one partition; started: standing at its
// first item), in key order. A list of blocks alone (a packed one) is read
// in place, its keys never copied out; one with removals or added
// postings is the blocks' keys less the removals', merged with the added
// postings'.
func sortedPostings(ctx context.Context, it kv.Iterator, tok []byte, started bool) (memList, error) {
	key := entryKey(it)
	var blocks blockKeys
	var removed map[string]struct{}
	var added keyBuffer
	for n := 0; started || it.Next(); n++ {
		started = false
		if n%cancelCheckEvery == cancelCheckEvery-1 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		kind, pk := catalog.SplitPosting(key(), len(tok))
		switch kind {
		case catalog.PostingBlock:
			b, err := ownBlock(it)
			if err != nil {
				return nil, err
			}
			blocks.add(b)
		case catalog.PostingRemoved:
			if removed == nil {
				removed = map[string]struct{}{}
			}
			removed[string(pk)] = struct{}{}
		case catalog.PostingAdded:
			added.add(pk)
		}
	}
	if err := it.Err(); err != nil {
		return nil, ClassifyError(err)
	}
	if len(removed) == 0 && len(added.ends) == 0 {
		return &blocks, nil
	}
	var blocked [][]byte
	for _, b := range blocks.blocks {
		blocked = b.AppendKeys(blocked)
	}
	if len(removed) > 0 {
		blocked = slices.DeleteFunc(blocked, func(pk []byte) bool { _, gone := removed[string(pk)]; return gone })
	}
	// Two runs in key order (a packing writes a token's blocks from one
	// sorted list; the added postings are read in key order), on both of
	// which a row added again after a removal is.
	return flatKeys(mergeRuns(blocked, added.keys())), nil
}

// memList is a posting list held in memory, in key order.
type memList interface {
	Len() int
	At(i int) []byte
}

// flatKeys is a memList of keys one by one.
type flatKeys [][]byte

func (l flatKeys) Len() int        { return len(l) }
func (l flatKeys) At(i int) []byte { return l[i] }

// blockKeys is a memList of a packed list's blocks, read in place: key i
// is found by a search of the blocks' first positions, unless it is in
// the block the last one was in (a walk or a short gallop).
type blockKeys struct {
	blocks []catalog.Block
	starts []int // the position of each block's first key
	n      int
	last   int // the block of the last key asked for
}

func (l *blockKeys) add(b catalog.Block) {
	l.blocks = append(l.blocks, b)
	l.starts = append(l.starts, l.n)
	l.n += b.Len()
}

func (l *blockKeys) Len() int { return l.n }

func (l *blockKeys) At(i int) []byte {
	b := l.last
	if i < l.starts[b] || i >= l.starts[b]+l.blocks[b].Len() {
		b, _ = slices.BinarySearch(l.starts, i+1)
		b--
		l.last = b
	}
	return l.blocks[b].Key(i - l.starts[b])
}

// mergeRuns merges two lists of keys, each in key order and without
// repeats, into one.
func mergeRuns(a, b [][]byte) [][]byte {
	if len(b) == 0 {
		return a
	}
	if len(a) == 0 {
		return b
	}
	out := make([][]byte, 0, len(a)+len(b))
	for len(a) > 0 || len(b) > 0 {
		var next []byte
		switch {
		case len(b) == 0 || len(a) > 0 && bytes.Compare(a[0], b[0]) <= 0:
			next, a = a[0], a[1:]
		default:
			next, b = b[0], b[1:]
		}
		if n := len(out); n == 0 || !bytes.Equal(out[n-1], next) {
			out = append(out, next)
		}
	}
	return out
}

// Seek returns the first position at or after from whose key is not
// below key (Len() when there is none): gallop, with whole blocks passed
// over by their last keys and the block searched read directly.
func (l *blockKeys) Seek(from int, key []byte) int {
	if from >= l.n {
		return l.n
	}
	l.At(from) // l.last is from's block
	b, j := l.last, from-l.starts[l.last]
	if last := l.blocks[b]; bytes.Compare(last.Key(last.Len()-1), key) < 0 {
		// The first later block whose last key is not below key.
		lo, hi := b+1, len(l.blocks)
		for lo < hi {
			mid := int(uint(lo+hi) >> 1)
			if m := l.blocks[mid]; bytes.Compare(m.Key(m.Len()-1), key) < 0 {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		if lo == len(l.blocks) {
			return l.n
		}
		b, j = lo, 0
		l.last = b
	}
	return l.starts[b] + gallop(blockList{l.blocks[b]}, j, key)
}

// blockList is a memList of one block's keys.
type blockList struct{ catalog.Block }

func (b blockList) At(i int) []byte { return b.Key(i) }

// intersectPacked adds to out the primary keys on every posting list of
// toks that its read (started[i]: its[i] stands at its first item
// already), reading each list whole: the zig-zag for lists held in
// blocks, which it would otherwise step through entry by entry. Each list
// in turn keeps the keys of the shortest found on it, each galloped to
// from where the last one was found.
func intersectPacked(ctx context.Context, its []kv.Iterator, toks [][]byte, started []bool, out pkSet) error {
	lists := make([]memList, len(toks))
	for i, tok := range toks {
		l, err := sortedPostings(ctx, its[i], tok, started[i])
		if err != nil {
			return err
		}
		lists[i] = l
	}
	slices.SortFunc(lists, func(a, b memList) int { return a.Len() - b.Len() })
	var keep [][]byte
	if bl, ok := lists[0].(*blockKeys); ok {
		for _, blk := range bl.blocks {
			keep = blk.AppendKeys(keep)
		}
	} else {
		keep = lists[0].(flatKeys)
	}
	for _, l := range lists[1:] {
		keep = keepOn(keep, l)
	}
	for _, pk := range keep {
		out[string(pk)] = struct{}{}
	}
	return nil
}

// mergeRatio is how many times longer than the keys looked for a packed
// list must be for keepOn to gallop through it rather than walk it: a walk
// compares each of its keys once, a gallop a few for each key looked for
// (bench/README.md, issue 28 round nine). A list with removals or added
// postings, merged into one slice, is always galloped through.
const mergeRatio = 8

// keepOn returns the keys of keep (in key order) that are on l, in keep's
// memory.
func keepOn(keep [][]byte, l memList) [][]byte {
	kept := keep[:0]
	at, n := 0, l.Len()
	if bl, ok := l.(*blockKeys); ok && n < mergeRatio*len(keep) {
		// A walk of both, block by block.
		i := 0
		for _, blk := range bl.blocks {
			for j := 0; j < blk.Len() && i < len(keep); {
				switch c := comparePKs(blk.Key(j), keep[i]); {
				case c < 0:
					j++
				case c > 0:
					i++
				default:
					kept = append(kept, keep[i])
					i, j = i+1, j+1
				}
			}
		}
		return kept
	}
	for _, pk := range keep {
		if at = seekList(l, at, pk); at == n {
			break
		}
		if bytes.Equal(l.At(at), pk) {
			kept = append(kept, pk)
		}
	}
	return kept
}

// comparePKs is bytes.Compare, eight bytes at a time while both keys
// have them: encoded primary keys are short (an integer's is 9 bytes), and
// a walk of two lists compares one pair a step, where the call into
// bytes.Compare's assembly costs more than the comparison.
func comparePKs(a, b []byte) int {
	for len(a) >= 8 && len(b) >= 8 {
		x, y := binary.BigEndian.Uint64(a), binary.BigEndian.Uint64(b)
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
		a, b = a[8:], b[8:]
	}
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return len(a) - len(b)
}

// seekList is l's Seek when it has one, else gallop.
func seekList(l memList, from int, key []byte) int {
	if b, ok := l.(*blockKeys); ok {
		return b.Seek(from, key)
	}
	return gallop(l, from, key)
}

// gallop returns the first position at or after from whose key is not
// below key (len(l) when there is none), l in key order: 1, 2, 4, ...
// keys ahead, then a binary search, so a short step costs a comparison or
// two.
func gallop(l memList, from int, key []byte) int {
	lo, step, n := from, 1, l.Len()
	for lo+step < n && bytes.Compare(l.At(lo+step), key) < 0 {
		lo += step
		step *= 2
	}
	hi := min(lo+step, n)
	// The first in [lo, hi) not below key.
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if bytes.Compare(l.At(mid), key) < 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// packed reports whether a token's key range begins with a block or a
// removal (catalog/postings.go), which sort before its added postings:
// its entries are then not each a posting, as a zig-zag reads them.
func packed(first, tok []byte) bool {
	kind, _ := catalog.SplitPosting(first, len(tok))
	return kind != catalog.PostingAdded
}

// zigzagSteps is how many entries a list behind in a zig-zag steps
// through (Next) before it seeks instead. A seek starts again from the top
// of Pebble's iterator stack (every level, the sstable's index, a search
// of the block), where a step reads the next entry of the block in hand:
// a dense list behind a sparse one (a jsonb path's value on a fifth of the
// rows beside one on a fiftieth) is a few entries behind, and the sparse
// one behind the dense one is nearly always one entry behind. Of 0, 4, 8
// and 16 steps, 8 took the least CPU in BenchmarkDocs/jsonb_nested (see
// bench/README.md, issue 28 round three).
const zigzagSteps = 8

// zigzag adds to out the primary keys in every posting list of toks
// within one partition of the index. A token's entries are ordered by
// primary key, so the lists are read in step: each stands at its smallest
// key not below the largest any other stands at, stepping (or, when that
// is more than zigzagSteps entries away, seeking) past the keys another
// list lacks; a key all lists stand at is in every one.
func (s *scanRows) zigzag(ctx context.Context, partition []byte, toks [][]byte, out pkSet) error {
	its := make([]kv.Iterator, len(toks))
	keys := make([]func() []byte, len(toks))
	for i, tok := range toks {
		its[i] = s.ec.kv.Scan(ctx, kv.ScanRequest{Partition: partition, Start: tok, End: kv.PrefixEnd(tok), Stats: &s.stats, Reread: true})
		keys[i] = entryKey(its[i])
	}
	defer func() {
		for _, it := range its {
			it.Close()
		}
	}()
	if lists, ok := keyLists(its); ok {
		for i, l := range lists {
			if l.Len() > 0 && packed(l.At(0), toks[i]) {
				return intersectPacked(ctx, its, toks, make([]bool, len(its)), out)
			}
		}
		return s.leapfrog(ctx, lists, toks, out)
	}
	cur := make([][]byte, len(toks))
	// next moves list i to its next entry; false when it has none.
	next := func(i int) (bool, error) {
		if !its[i].Next() {
			return false, ClassifyError(its[i].Err())
		}
		cur[i] = append(cur[i][:0], catalog.InvertedPrimaryKey(keys[i](), toks[i])...)
		return true, nil
	}
	for i := range its {
		if ok, err := next(i); !ok {
			return err
		}
		if packed(keys[i](), toks[i]) {
			started := make([]bool, len(its))
			for j := range i + 1 {
				started[j] = true
			}
			return intersectPacked(ctx, its, toks, started, out)
		}
	}
	var hi, seek []byte
	for steps := 1; ; steps++ {
		if steps%cancelCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		hi = append(hi[:0], cur[0]...)
		for _, c := range cur[1:] {
			if bytes.Compare(c, hi) > 0 {
				hi = append(hi[:0], c...)
			}
		}
		behind := false
		for i := range its {
			if bytes.Equal(cur[i], hi) {
				continue
			}
			behind = true
			reached := false
			for range zigzagSteps {
				if ok, err := next(i); !ok {
					return err
				}
				if bytes.Compare(cur[i], hi) >= 0 {
					reached = true
					break
				}
			}
			if reached {
				continue
			}
			seek = append(append(seek[:0], toks[i]...), hi...)
			its[i].Seek(seek)
			if ok, err := next(i); !ok {
				return err
			}
		}
		if behind {
			continue
		}
		out[string(hi)] = struct{}{}
		if ok, err := next(0); !ok {
			return err
		}
	}
}

// entryKey returns a function giving the sort key of it's current item,
// through kv.KeyIterator when it is one: a posting is all key, and
// Item would decode its value (nothing the scan uses) for every entry.
func entryKey(it kv.Iterator) func() []byte {
	if k, ok := it.(kv.KeyIterator); ok {
		return func() []byte { return k.Key().Sort }
	}
	return func() []byte { return it.Item().Key.Sort }
}

// intersect returns the keys in every set (starting from the smallest).
func intersect(sets []pkSet) pkSet {
	if len(sets) == 1 {
		return sets[0]
	}
	slices.SortFunc(sets, func(a, b pkSet) int { return len(a) - len(b) })
	out := pkSet{}
	for pk := range sets[0] {
		in := true
		for _, other := range sets[1:] {
			if _, ok := other[pk]; !ok {
				in = false
				break
			}
		}
		if in {
			out[pk] = struct{}{}
		}
	}
	return out
}

// keyLists returns the sort keys of every iterator of its when all of
// them hold their items in memory (kv.KeyLister: kv/pebble's range cache
// keeps posting lists, kv.ScanRequest.Reread).
func keyLists(its []kv.Iterator) ([]kv.KeyList, bool) {
	lists := make([]kv.KeyList, len(its))
	for i, it := range its {
		l, ok := kv.ListSortKeys(it)
		if !ok {
			return nil, false
		}
		lists[i] = l
	}
	return lists, true
}

// leapfrog is zigzag over posting lists held in memory, as Veldhuizen's
// leapfrog join: the lists stand in the order of their keys, and in turn
// the one at the least key gallops (1, 2, 4, ... entries, then a binary
// search) to its first key not below the greatest, which it then holds;
// when the least key is the greatest, every list stands at it and it is
// the intersection's. A short list beside a long one costs about its
// length times the log of the ratio, with one comparison a turn, and no
// iterator is stepped. Each entry a list lands on counts as an item read.
func (s *scanRows) leapfrog(ctx context.Context, lists []kv.KeyList, toks [][]byte, out pkSet) error {
	for _, l := range lists {
		if l.Len() == 0 {
			return nil
		}
	}
	k := len(lists)
	pos := make([]int, k)
	key := func(i int) []byte { return catalog.InvertedPrimaryKey(lists[i].At(pos[i]), toks[i]) }
	order := make([]int, k) // the lists by their keys, least first
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return bytes.Compare(key(order[a]), key(order[b])) < 0 })
	landed := k
	defer func() { s.stats.AddRead(landed, 0) }()
	hi := key(order[k-1])
	for turn, p := 1, 0; ; turn, p = turn+1, (p+1)%k {
		if turn%cancelCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		i, l := order[p], lists[order[p]]
		if lo := key(i); bytes.Equal(lo, hi) {
			out[string(lo)] = struct{}{}
			pos[i]++
		} else {
			// A list's keys are its token and then the row's primary key.
			pos[i] = l.Seek(pos[i], len(toks[i]), hi)
		}
		if pos[i] == l.Len() {
			return nil
		}
		landed++
		hi = key(i)
	}
}
