package executor

import (
	"bytes"
	"context"
	"slices"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/optimizer"
)

// invertedGet runs an inverted index scan (optimizer/inverted.go): it
// reads the posting list of every token the query names, from every shard
// of the index, combines them as the query says, and gets the rows of the
// primary keys that remain, as a point get does; the scan's filter then
// rechecks each row.
func (s *scanRows) invertedGet(ctx context.Context) error {
	n := s.node
	lists := map[string]map[string]struct{}{}
	for _, tok := range n.Inverted.Tokens() {
		list, err := s.postings(ctx, n.Index, tok)
		if err != nil {
			return err
		}
		lists[string(tok)] = list
	}
	keys := combine(n.Inverted, lists)
	points := make([][]byte, 0, len(keys))
	for k := range keys {
		points = append(points, []byte(k))
	}
	slices.SortFunc(points, bytes.Compare)
	get := *n
	get.Method, get.Index, get.Lookup, get.Points, get.Inverted = optimizer.PointGet, nil, false, points, nil
	s.node = &get
	if len(points) == 0 {
		return nil
	}
	return s.pointGet(ctx)
}

// postings reads the entries of one token in every shard of ix and returns
// the encoded primary keys they name.
func (s *scanRows) postings(ctx context.Context, ix *catalog.Index, tok []byte) (map[string]struct{}, error) {
	out := map[string]struct{}{}
	end := kv.PrefixEnd(tok)
	for _, sh := range s.node.Shards {
		it := s.ec.kv.Scan(ctx, kv.ScanRequest{Partition: catalog.IndexPartition(ix.ID, sh), Start: tok, End: end, Stats: &s.stats})
		n := 0
		for it.Next() {
			if n++; n%cancelCheckEvery == 0 {
				if err := ctx.Err(); err != nil {
					it.Close()
					return nil, err
				}
			}
			out[string(catalog.InvertedPrimaryKey(it.Item().Key.Sort, tok))] = struct{}{}
		}
		err := it.Err()
		it.Close()
		if err != nil {
			return nil, ClassifyError(err)
		}
	}
	return out, nil
}

// combine evaluates an inverted query over the posting lists of its
// tokens: the primary keys in every list of an AND, in any of an OR.
func combine(q *optimizer.InvertedQuery, lists map[string]map[string]struct{}) map[string]struct{} {
	if q.Token != nil {
		return lists[string(q.Token)]
	}
	if !q.And {
		out := map[string]struct{}{}
		for _, k := range q.Kids {
			for pk := range combine(k, lists) {
				out[pk] = struct{}{}
			}
		}
		return out
	}
	// AND: start from the smallest list and keep what every other has.
	sets := make([]map[string]struct{}, len(q.Kids))
	for i, k := range q.Kids {
		sets[i] = combine(k, lists)
	}
	slices.SortFunc(sets, func(a, b map[string]struct{}) int { return len(a) - len(b) })
	out := map[string]struct{}{}
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
