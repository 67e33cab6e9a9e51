package advisor

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/optimizer"
)

// minSpread is how many distinct values of the shard columns a table needs
// per shard before rows placed by them spread over the shards about as
// evenly as rows placed by their whole key.
const minSpread = 8

// shardColumns advises placing a table's rows by a leading prefix of its
// primary key (ALTER TABLE ... SET (shard_columns = (...))) when the table
// is spread over shards by its whole key and recorded reads bind that prefix
// by equality without binding the whole key: each such read scans every
// shard today, and would read only the shard of each bound prefix. The
// prefix is the shortest whose distinct values (from the statistics) are at
// least minSpread per shard, so writes still spread.
func (a *tableAdvisor) shardColumns() []Recommendation {
	t := a.t
	if t.Shards <= 1 || t.ShardColumns > 0 || len(t.PrimaryKey) < 2 {
		return nil
	}
	k, combos := 0, 1.0
	for k < len(t.PrimaryKey)-1 && combos < minSpread*float64(t.Shards) {
		combos *= math.Max(a.st.Distinct(t.PrimaryKey[k].Column), 1)
		k++
	}
	combos = math.Min(combos, a.st.Rows())
	if combos < minSpread*float64(t.Shards) {
		return nil // no prefix short of the whole key has values enough
	}
	type helped struct {
		id    int64
		calls int64
	}
	var hs []helped
	var calls, before, after float64
	for _, r := range a.w.reads {
		n, req := 0, 0.0
		for _, u := range r.uses {
			points, ok := leadingPoints(t, u, k)
			if !ok {
				continue
			}
			n++
			req += points
		}
		if n == 0 {
			continue
		}
		c := r.calls * float64(n)
		calls += c
		before += r.calls * req * float64(t.Shards)
		after += r.calls * req
		hs = append(hs, helped{r.stmt.QueryID, r.stmt.Calls})
	}
	if len(hs) == 0 {
		return nil
	}
	sort.SliceStable(hs, func(i, j int) bool { return hs[i].calls > hs[j].calls })
	rec := Recommendation{Table: t.Name, Kind: KindShards, RowsWritten: a.w.rowsWritten,
		RequestsBefore: before / calls, RequestsAfter: after / calls}
	for _, h := range hs {
		rec.Statements = append(rec.Statements, h.id)
		rec.Calls += h.calls
	}
	var names []string
	for _, kc := range t.PrimaryKey[:k] {
		names = append(names, quoteIdent(t.Columns[kc.Column].Name))
	}
	cols := strings.Join(names, ", ")
	rec.SQL = fmt.Sprintf("ALTER TABLE %s SET (shard_columns = (%s))", quoteIdent(t.Name), cols)
	rec.Reason = fmt.Sprintf("reads bind %s by equality but the rows of %s are placed on its %d shards by their whole key, so each reads every shard; "+
		"placed by (%s) (about %s distinct values), the rows of one value lie in one shard while writes still spread", cols, t.Name, t.Shards, cols, figure(combos))
	// Items read stay as they are: the same rows, from fewer shards.
	for _, r := range a.w.reads {
		for _, u := range r.uses {
			if _, ok := leadingPoints(t, u, k); ok {
				c := a.estimate(u, nil)
				rec.ItemsBefore += c.items * r.calls / calls
			}
		}
	}
	rec.ItemsAfter = rec.ItemsBefore
	return []Recommendation{rec}
}

// leadingPoints reports whether a read scanned t's primary key by a prefix
// binding at least its first k columns by equality (but not the whole key,
// whose point gets read one shard already), and how many combinations of
// values those k columns take: the key ranges it reads.
func leadingPoints(t *catalog.Table, u *optimizer.TableUse, k int) (float64, bool) {
	if u.Index != nil || u.Method != optimizer.RangeScan {
		return 0, false
	}
	points := 1.0
	eq := 0
	for _, kc := range t.PrimaryKey {
		n, ok := u.Bounds[kc.Column].Points()
		if !ok {
			break
		}
		if eq < k {
			points *= float64(n)
		}
		eq++
	}
	return points, eq >= k && eq < len(t.PrimaryKey)
}
