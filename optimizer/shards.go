package optimizer

import (
	"sort"
	"strings"

	"github.com/zproxy/zproxy/catalog"
)

// Shard selection. Items are placed on shards by a hash of their key, or,
// with shard columns (catalog/shards.go), of its leading shard columns: a
// path whose equalities bind those columns finds each of its key ranges in
// one shard, so it reads that shard only (each range in its own), while a
// path that leaves them unbound reads every shard.

// shardsPerRange is how many shards a prefix path over keyCols binding
// eqLen leading columns by equality reads per key range: one when they
// bind the placement's shard columns, else all of them.
func shardsPerRange(t *catalog.Table, ix *catalog.Index, eqLen int) int {
	shards, leading := t.ShardPlacement(ix)
	if leading > 0 && eqLen >= leading {
		return 1
	}
	return shards
}

// scanShards returns the shards a scan reads, ascending, and a note saying
// how its shard columns chose them (empty for placements without shard
// columns): a point get reads the shard of each key; a range scan whose
// equalities bind the shard columns the shard of each range's prefix (the
// range is marked with it); any other path every shard.
func scanShards(t *catalog.Table, best *candidate, scan *Scan) ([]int, string) {
	total, leading := t.ShardPlacement(best.index)
	var note string
	if names := t.ShardColumnNames(best.index); names != nil {
		note = "shard_columns " + strings.Join(names, ", ")
	}
	seen := map[int]bool{}
	switch {
	case scan.Method == PointGet:
		for _, p := range scan.Points {
			seen[t.PrefixShard(best.index, p)] = true
		}
		if note != "" {
			note += " bound"
		}
	case scan.Method == RangeScan && leading > 0 && best.eqLen >= leading:
		for i := range scan.Ranges {
			r := &scan.Ranges[i]
			r.OneShard, r.Shard = true, t.PrefixShard(best.index, r.prefix)
			seen[r.Shard] = true
		}
		note += " bound"
	default:
		if note != "" {
			note += " not bound by equality"
		}
		all := make([]int, max(total, 1))
		for sh := range all {
			all[sh] = sh
		}
		return all, note
	}
	out := make([]int, 0, len(seen))
	for sh := range seen {
		out = append(out, sh)
	}
	sort.Ints(out)
	return out, note
}

// ShardRanges returns the key ranges a scan reads in one of its shards:
// every range, except those its shard columns place in another shard.
func (s *Scan) ShardRanges(shard int) []KeyRange {
	kept := 0
	for _, r := range s.Ranges {
		if !r.OneShard || r.Shard == shard {
			kept++
		}
	}
	switch kept {
	case len(s.Ranges):
		// The plan's own ranges, which readers leave as they are: a key
		// prefix's one range in its shard needs no slice of its own.
		return s.Ranges
	case 0:
		return nil
	}
	out := make([]KeyRange, 0, kept)
	for _, r := range s.Ranges {
		if !r.OneShard || r.Shard == shard {
			out = append(out, r)
		}
	}
	return out
}
