package executor

import (
	"bytes"
	"context"
	"slices"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/kv"
)

// Packing an inverted index: each token's posting list rewritten as
// blocks (catalog/postings.go), its added postings and removals folded in,
// as PostgreSQL's VACUUM merges a GIN index's pending list into its
// posting trees. An index build packs what it wrote, and VACUUM packs
// what writes added since.

// packBatchEntries is about how many entries one packing transaction
// rewrites: enough that a shard of small lists is a few transactions, few
// enough that a conflict with a writer redoes little.
const packBatchEntries = 4096

// packAttempts is how many times a batch is tried when writers keep
// winning its conflicts; after that its tokens are left for the next
// packing (the lists are exact either way).
const packAttempts = 4

// PackInverted packs the posting lists of inverted index ix of table t:
// every token with a removal, or with an added posting beside any other
// entry, is rewritten as blocks alone. A token of one added posting is
// left: a block of one would be no fewer items. Each batch of tokens is
// one transaction that reads the tokens' ranges again from its snapshot,
// so writers run on meanwhile; a batch whose keys a writer changed first
// is tried again. It returns how many entries it folded into blocks.
func (e *Executor) PackInverted(ctx context.Context, t *catalog.Table, ix *catalog.Index) (int64, error) {
	var folded int64
	for sh := 0; sh < max(ix.Shards, 1); sh++ {
		part := catalog.IndexPartition(ix.ID, sh)
		var batch [][]byte
		cost := 0
		flush := func() error {
			n, err := e.packTokens(ctx, part, batch)
			folded += n
			batch, cost = batch[:0], 0
			return err
		}
		err := e.eachTokenCount(ctx, t, part, func(tok []byte, c tokenCount) error {
			if c.removed == 0 && (c.added == 0 || c.added+c.blocks < 2) {
				return nil
			}
			batch = append(batch, bytes.Clone(tok))
			if cost += c.added + c.removed + c.blocks; cost >= packBatchEntries {
				return flush()
			}
			return nil
		})
		if err == nil && len(batch) > 0 {
			err = flush()
		}
		if err != nil {
			return folded, err
		}
	}
	return folded, nil
}

// tokenCount is how many entries of each kind a token has.
type tokenCount struct{ blocks, removed, added int }

// eachTokenCount walks a partition of an inverted index of t and calls f
// with each token (its key part first) and its entries' counts. An entry
// does not say where its token ends, so the walk finds it from the end: a
// block's first primary key is its value's, an added posting's or a
// removal's is in its attributes.
func (e *Executor) eachTokenCount(ctx context.Context, t *catalog.Table, part []byte, f func(tok []byte, c tokenCount) error) error {
	it := e.Store.Scan(ctx, kv.ScanRequest{Partition: part, Consistent: true})
	defer it.Close()
	var tok []byte
	var c tokenCount
	n := 0
	for it.Next() {
		if n++; n%cancelCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		item := it.Item()
		kind, tokenEnd, err := entryToken(t, item)
		if err != nil {
			return err
		}
		if !bytes.Equal(item.Key.Sort[:tokenEnd], tok) {
			if tok != nil {
				if err := f(tok, c); err != nil {
					return err
				}
			}
			tok, c = append(tok[:0], item.Key.Sort[:tokenEnd]...), tokenCount{}
		}
		switch kind {
		case catalog.PostingBlock:
			c.blocks++
		case catalog.PostingRemoved:
			c.removed++
		case catalog.PostingAdded:
			c.added++
		}
	}
	if err := it.Err(); err != nil {
		return ClassifyError(err)
	}
	if tok != nil {
		return f(tok, c)
	}
	return nil
}

// entryToken returns the kind of an entry of an inverted index of t and
// where its token ends in its sort key.
func entryToken(t *catalog.Table, item kv.Item) (catalog.PostingKind, int, error) {
	sort := item.Key.Sort
	kind := catalog.EntryKind(item.Attrs)
	var pk []byte
	marker := 0
	switch kind {
	case catalog.PostingStamp:
		marker = 1
	case catalog.PostingBlock:
		b, err := catalog.EntryBlock(item.Attrs)
		if err != nil {
			return 0, 0, pgerr.New(pgerr.IndexCorrupted, "%v", err)
		}
		pk, marker = b.Key(0), 1
	default:
		var err error
		if pk, err = t.PostingPrimaryKey(item.Attrs); err != nil {
			return 0, 0, pgerr.New(pgerr.IndexCorrupted, "inverted index entry without its row's key: %v", err)
		}
		if kind == catalog.PostingRemoved {
			marker = 1
		}
	}
	end := len(sort) - len(pk) - marker
	if end <= 0 || !bytes.HasSuffix(sort, pk) {
		return 0, 0, pgerr.New(pgerr.IndexCorrupted, "inverted index entry whose key does not end with its row's")
	}
	if got, _ := catalog.SplitPosting(sort, end); got != kind {
		return 0, 0, pgerr.New(pgerr.IndexCorrupted, "inverted index entry whose key and value disagree on its kind")
	}
	return kind, end, nil
}

// packTokens packs the lists of toks (tokens of one partition). A
// token whose list it finds empty is packed by a second transaction:
// the first removes the tombstones of what it deletes
// (kv.TxnOptions.PurgeDeletes), which is safe only where it also puts the
// token's stamp, and an empty list has no stamp (it would stay forever).
func (e *Executor) packTokens(ctx context.Context, part []byte, toks [][]byte) (int64, error) {
	var emptied [][]byte
	folded, err := e.packTxn(ctx, part, toks, &emptied)
	if err != nil || len(emptied) == 0 {
		return folded, err
	}
	n, err := e.packTxn(ctx, part, emptied, nil)
	return folded + n, err
}

// packTxn packs the lists of toks in one transaction, tried again when a
// writer wins a conflict on one of the keys it rewrites, and returns how
// many entries it folded. With emptied, it purges its deletes' tombstones
// and leaves the tokens whose lists are empty to the caller, in emptied.
func (e *Executor) packTxn(ctx context.Context, part []byte, toks [][]byte, emptied *[][]byte) (int64, error) {
	for attempt := 1; ; attempt++ {
		txn, err := e.BeginWith(ctx, kv.TxnOptions{PurgeDeletes: emptied != nil})
		if err != nil {
			return 0, err
		}
		var folded int64
		var empty [][]byte
		for _, tok := range toks {
			p, perr := packToken(ctx, txn.kv, part, tok)
			if err = perr; err != nil {
				break
			}
			if p.empty && emptied != nil {
				empty = append(empty, tok)
				continue
			}
			if len(p.ops) > 0 {
				if err = txnErr(txn.kv.Write(ctx, kv.Batch{Ops: p.ops})); err != nil {
					break
				}
			}
			folded += p.folded
		}
		if err == nil {
			err = txn.Commit(ctx, nil)
		} else {
			txn.Rollback()
		}
		if pgerr.CodeOf(err) == pgerr.SerializationFailure {
			if attempt < packAttempts {
				continue
			}
			return 0, nil
		}
		if err != nil {
			return 0, err
		}
		if emptied != nil {
			*emptied = append(*emptied, empty...)
		}
		return folded, nil
	}
}

// packing is what packToken makes of a token's list: the writes that
// rewrite it, how many added postings and removals they fold in, and
// whether the list is empty.
type packing struct {
	ops    []kv.Op
	folded int64
	empty  bool
}

// packToken returns the packing of token tok's entries as r reads them:
// blocks alone, and the token's stamp, or, for an empty list, nothing.
func packToken(ctx context.Context, r kv.ReadWriter, part, tok []byte) (packing, error) {
	it := r.Scan(ctx, kv.ScanRequest{Partition: part, Start: tok, End: kv.PrefixEnd(tok), Consistent: true})
	defer it.Close()
	var p packing
	var live [][]byte
	old := map[string][]byte{} // the blocks there are, by sort key
	removed := map[string]struct{}{}
	stamped := false
	for it.Next() {
		item := it.Item()
		sort := bytes.Clone(item.Key.Sort)
		kind, pk := catalog.SplitPosting(sort, len(tok))
		switch kind {
		case catalog.PostingBlock:
			b, err := catalog.EntryBlock(item.Attrs)
			if err != nil {
				return packing{}, pgerr.New(pgerr.IndexCorrupted, "%v", err)
			}
			raw := bytes.Clone(b.Bytes())
			old[string(sort)] = raw
			b, _ = catalog.ParseBlock(raw)
			live = b.AppendKeys(live)
		case catalog.PostingStamp:
			stamped = true
		case catalog.PostingRemoved:
			removed[string(pk)] = struct{}{}
			p.ops = append(p.ops, kv.Op{Kind: kv.OpDelete, Key: kv.Key{Partition: part, Sort: sort}})
		default:
			p.ops = append(p.ops, kv.Op{Kind: kv.OpDelete, Key: kv.Key{Partition: part, Sort: sort}})
		}
	}
	if err := it.Err(); err != nil {
		return packing{}, ClassifyError(err)
	}
	// The blocks' keys less the removed, then the added postings (which a
	// removal does not hide: a row that left the list and came back has
	// both).
	live = slices.DeleteFunc(live, func(pk []byte) bool { _, gone := removed[string(pk)]; return gone })
	for _, op := range p.ops {
		if kind, pk := catalog.SplitPosting(op.Key.Sort, len(tok)); kind == catalog.PostingAdded {
			live = append(live, pk)
		}
	}
	slices.SortFunc(live, bytes.Compare)
	live = slices.CompactFunc(live, bytes.Equal)
	p.folded, p.empty = int64(len(p.ops)), len(live) == 0
	for _, block := range catalog.Blocks(live) {
		sort := catalog.BlockKey(tok, block[0])
		value := catalog.AppendBlock(nil, block)
		if was, ok := old[string(sort)]; ok {
			delete(old, string(sort))
			if bytes.Equal(was, value) {
				continue
			}
		}
		p.ops = append(p.ops, kv.Op{Kind: kv.OpPut, Key: kv.Key{Partition: part, Sort: sort},
			Attrs: []kv.Attr{{Name: catalog.BlockAttr, Kind: kv.AttrBytes, B: value}}})
	}
	for sort := range old {
		p.ops = append(p.ops, kv.Op{Kind: kv.OpDelete, Key: kv.Key{Partition: part, Sort: []byte(sort)}})
	}
	stamp := kv.Key{Partition: part, Sort: catalog.StampKey(tok)}
	switch {
	case !p.empty:
		p.ops = append(p.ops, kv.Op{Kind: kv.OpPut, Key: stamp, Attrs: []kv.Attr{{Name: catalog.StampAttr, Kind: kv.AttrBool, I: 1}}})
	case stamped:
		p.ops = append(p.ops, kv.Op{Kind: kv.OpDelete, Key: stamp})
	}
	return p, nil
}

// checkInverted is Check's reading of inverted index ix: its lists are
// what its entries say (the blocks' keys less the removals', and the
// added postings), each posting counted as an entry; a posting whose row
// should not be on the list, or an added one whose attributes are stale,
// is orphaned. found gets the expected postings met.
func (e *Executor) checkInverted(ctx context.Context, t *catalog.Table, ix *catalog.Index, expected map[string]string, found map[string]bool, res *CheckResult) error {
	for sh := 0; sh < max(ix.Shards, 1); sh++ {
		part := catalog.IndexPartition(ix.ID, sh)
		blocked := map[string]bool{} // postings of blocks, by their added form's key
		removed := map[string]bool{}
		it := e.Store.Scan(ctx, kv.ScanRequest{Partition: part, Consistent: true})
		for it.Next() {
			item := it.Item()
			kind, end, err := entryToken(t, item)
			if err != nil {
				it.Close()
				return err
			}
			tok := item.Key.Sort[:end]
			posting := func(pk []byte) string { return string(part) + "\x00" + string(tok) + string(pk) }
			switch _, pk := catalog.SplitPosting(item.Key.Sort, end); kind {
			case catalog.PostingBlock:
				b, _ := catalog.EntryBlock(item.Attrs) // entryToken parsed it
				for i := range b.Len() {
					blocked[posting(b.Key(i))] = true
				}
			case catalog.PostingRemoved:
				removed[posting(pk)] = true
			case catalog.PostingStamp:
			default:
				k := posting(pk)
				delete(blocked, k) // a row that came back after a removal is on the list once
				res.meet(expected, found, k, item.Attrs)
			}
		}
		err := it.Err()
		it.Close()
		if err != nil {
			return ClassifyError(err)
		}
		for k := range blocked {
			if !removed[k] && !found[k] {
				res.meet(expected, found, k, nil)
			}
		}
	}
	return nil
}
