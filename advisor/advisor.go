package advisor

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/geo"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/optimizer"
	"github.com/zproxy/zproxy/zorder"
)

// Sample is one execution's workload record, as the session keeps it in
// the statement statistics: the table reads of its plan and, for a write,
// the table written and the rows it wrote.
type Sample struct {
	Uses    []*optimizer.TableUse
	Written *catalog.Table
	Rows    int64
}

// Statement is one normalised statement of the workload.
type Statement struct {
	QueryID int64
	Query   string
	Calls   int64
	// ItemsRead and Requests are totals over the calls (measured).
	ItemsRead, Requests int64
	Samples             []*Sample
}

// Input is what Advise reads.
type Input struct {
	// Tables are the schema's tables.
	Tables     []*catalog.Table
	Statements []Statement
	// Stats returns a table's statistics.
	Stats func(t *catalog.Table) (Statistics, error)
	Caps  kv.Capabilities
	// MaxPerTable caps the new indexes recommended per table (default 3).
	MaxPerTable int
}

// Kinds of recommendation.
const (
	KindBTree     = "btree"
	KindZOrder    = "zorder"
	KindGist      = "gist"
	KindShards    = "shards"
	KindUnused    = "unused"
	KindDuplicate = "duplicate"
)

// Recommendation is one piece of advice.
type Recommendation struct {
	Table string
	Kind  string
	// SQL is the statement that applies it (CREATE INDEX, DROP INDEX), or
	// for shards the clause to create the table or index with.
	SQL string
	// Statements are the query IDs of the statements it helps, most
	// calls first; Calls their executions.
	Statements []int64
	Calls      int64
	// Estimated items read and store requests per execution of the
	// helped statements, before and after (zero for drops).
	ItemsBefore, ItemsAfter       float64
	RequestsBefore, RequestsAfter float64
	// WriteItems is the items each row written to the table costs more
	// (negative: saves), and RowsWritten the rows the workload wrote.
	WriteItems  float64
	RowsWritten int64
	// Reason says why, in a sentence or two.
	Reason string
}

// minCoveredRows is how many rows a read must fetch through an index per
// call before INCLUDE columns that spare those fetches are recommended.
const minCoveredRows = 10

// minGain is how many times fewer items (plus requests) a new index must
// make its statements read to be recommended. Under 2, so that INCLUDE
// columns sparing a non-covering index's row fetches (which at best halve
// its reads) can qualify.
const minGain = 1.8

// Advise recommends indexes for the workload, per table in name order.
func Advise(in Input) ([]Recommendation, error) {
	if in.MaxPerTable <= 0 {
		in.MaxPerTable = 3
	}
	tables := append([]*catalog.Table(nil), in.Tables...)
	sort.Slice(tables, func(i, j int) bool { return tables[i].Name < tables[j].Name })
	names := map[string]bool{} // relation names taken: index names must differ
	for _, t := range tables {
		names[t.Name] = true
		for _, ix := range t.Indexes {
			names[ix.Name] = true
		}
	}
	var out []Recommendation
	for _, t := range tables {
		if t.Virtual != nil {
			continue
		}
		w := workloadOf(t, in.Statements)
		if len(w.reads) == 0 && w.rowsWritten == 0 {
			continue
		}
		st, err := in.Stats(t)
		if err != nil {
			return nil, err
		}
		a := &tableAdvisor{t: t, st: st, caps: in.Caps, w: w, names: names}
		out = append(out, a.newIndexes(in.MaxPerTable)...)
		out = append(out, a.drops()...)
		out = append(out, a.shards()...)
		out = append(out, a.shardColumns()...)
	}
	return out, nil
}

// read is one statement's reads of a table: its samples' uses of it.
type read struct {
	stmt  *Statement
	uses  []*optimizer.TableUse
	calls float64 // calls per sampled use: each use stands for this many reads
}

// workload is a table's share of the workload.
type workload struct {
	reads       []read
	rowsWritten int64
	writeCalls  int64
}

func workloadOf(t *catalog.Table, stmts []Statement) workload {
	var w workload
	for i := range stmts {
		s := &stmts[i]
		if len(s.Samples) == 0 {
			continue
		}
		var uses []*optimizer.TableUse
		var written, writes int64
		for _, sm := range s.Samples {
			for _, u := range sm.Uses {
				if u.Table.ID == t.ID && !u.Correlated {
					uses = append(uses, u)
				}
			}
			if sm.Written != nil && sm.Written.ID == t.ID {
				written += sm.Rows
				writes++
			}
		}
		if writes > 0 {
			// Scale the sampled rows to every call.
			w.rowsWritten += int64(float64(written) / float64(len(s.Samples)) * float64(s.Calls))
			w.writeCalls += s.Calls
		}
		if len(uses) > 0 {
			w.reads = append(w.reads, read{stmt: s, uses: uses, calls: float64(s.Calls) / float64(len(s.Samples))})
		}
	}
	return w
}

// tableAdvisor advises on one table.
type tableAdvisor struct {
	t    *catalog.Table
	st   Statistics
	caps kv.Capabilities
	w    workload
	// names are the relation names in use, recommended ones included.
	names map[string]bool
}

// cost is an access's estimated items read and store requests.
type cost struct{ items, requests float64 }

func (c cost) total() float64 { return c.items + c.requests }

// overcover is how many items a Z-order read takes per row in its box, by
// the attributes the box bounds (measured on the embedded store: 1.31 for
// 2-D and 2.55 for 3-D boxes; issue 16), times 1.5 for each attribute the
// index has that the box leaves unbound (the seeds' n^((a-b)/a): every
// unbound attribute dilutes the others' bits).
func overcover(bound, unbound int) float64 {
	base := []float64{1, 1, 1.3, 2.5, 4, 6, 8, 10, 12}[min(bound, 8)]
	return base * math.Pow(1.5, float64(unbound))
}

// estimate is what one read costs through ix (nil: the primary key).
func (a *tableAdvisor) estimate(u *optimizer.TableUse, ix *catalog.Index) cost {
	t := a.t
	n := math.Max(a.st.Rows(), 1)
	shards := float64(t.Shards)
	if ix != nil {
		shards = float64(ix.Shards)
	}
	shards = math.Max(shards, 1)
	sel := func(col int) float64 { return a.st.Selectivity(col, u.Bounds[col]) }
	covering := ix == nil || t.Covers(ix, u.Needed)
	if ix != nil && ix.Gist != nil {
		return a.estimateGist(u, ix, n, shards)
	}
	if ix != nil && ix.Kind == catalog.KindZOrder {
		f, bound := 1.0, 0
		for _, k := range ix.Columns {
			if set, ok := u.Bounds[k.Column]; ok && set != nil {
				f *= sel(k.Column)
				bound++
			}
		}
		if bound == 0 {
			return a.fullScan(u, ix, covering)
		}
		matches := n * f
		items := matches * overcover(bound, len(ix.Columns)-bound)
		ranges := float64(8)
		if !a.caps.CheapSeek {
			ranges = 64
		}
		c := cost{items: items, requests: shards*ranges + items/1000}
		if !covering {
			c.items += matches
			c.requests += math.Ceil(matches / 100)
		}
		return c
	}
	keyCols := t.PrimaryKey
	if ix != nil {
		// Entries are ordered by the index key, then by the primary-key
		// columns the key lacks.
		keyCols = append([]catalog.KeyColumn(nil), ix.Columns...)
		for _, k := range t.PrimaryKey {
			if !hasColumn(ix.Columns, k.Column) {
				keyCols = append(keyCols, k)
			}
		}
	}
	f, points, bound, eq := 1.0, 1.0, 0, 0
	for _, k := range keyCols {
		set, ok := u.Bounds[k.Column]
		if !ok || set == nil {
			break
		}
		f *= sel(k.Column)
		bound++
		if np, isPoints := set.Points(); isPoints {
			points *= float64(np)
			eq++
			continue
		}
		break // a range ends the usable prefix
	}
	if _, leading := t.ShardPlacement(ix); leading > 0 && eq >= leading {
		shards = 1 // each key range lies in the shard of its bound prefix
	}
	if bound == 0 {
		return a.fullScan(u, ix, covering)
	}
	entries := n * f
	if ix == nil && bound == len(t.PrimaryKey) && f > 0 {
		// A point get reads the rows it names.
		return cost{items: math.Min(points, n), requests: math.Ceil(points / 100)}
	}
	if u.Limit > 0 && len(u.Order) == 0 {
		entries = math.Min(entries, float64(u.Limit))
	}
	c := cost{items: math.Max(entries, 0), requests: shards * points}
	if !covering {
		c.items += entries
		c.requests += math.Ceil(entries / 100)
	}
	return c
}

// spatialSelectivity is the share of a table's rows a spatial predicate
// against a constant is taken to keep: PostgreSQL's areasel, its default
// for geometric overlap (zproxy keeps no statistics of shapes).
const spatialSelectivity = 0.005

// estimateGist is what one read costs through a gist index: the rows of
// its box (spatialSelectivity of the table) with the over-cover of a 2-D
// box, or for ORDER BY col <-> constant LIMIT k a few rings of about k
// rows each; a read that neither bounds the column nor orders by distance
// to it reads the whole index.
func (a *tableAdvisor) estimateGist(u *optimizer.TableUse, ix *catalog.Index, n, shards float64) cost {
	col := ix.Gist.Column
	var matches float64
	switch {
	case slices.Contains(u.Spatial, col):
		matches = n * spatialSelectivity
	case u.Nearest == col && u.NearestK > 0:
		matches = math.Min(n, float64(4*u.NearestK))
	default:
		return a.fullScan(u, ix, false)
	}
	items := matches * overcover(2, 0)
	c := cost{items: items, requests: shards*8 + items/1000}
	if !a.t.Covers(ix, u.Needed) {
		c.items += matches
		c.requests += math.Ceil(matches / 100)
	}
	return c
}

func (a *tableAdvisor) fullScan(u *optimizer.TableUse, ix *catalog.Index, covering bool) cost {
	n := math.Max(a.st.Rows(), 1)
	shards := float64(max(a.t.Shards, 1))
	items := n
	if u.Limit > 0 && len(u.Order) == 0 {
		items = math.Min(n, float64(u.Limit)/math.Max(a.matchFraction(u), 1e-9))
	}
	c := cost{items: items, requests: shards + items/1000}
	if ix != nil && !covering {
		c.items *= 2
		c.requests += math.Ceil(items / 100)
	}
	return c
}

// matchFraction is the fraction of the table's rows a read's bounds keep.
func (a *tableAdvisor) matchFraction(u *optimizer.TableUse) float64 {
	f := 1.0
	for col, set := range u.Bounds {
		f *= a.st.Selectivity(col, set)
	}
	return f
}

// best is the cheapest way a read can go with the given indexes (the
// primary key included), as the cost-based rules would choose it.
func (a *tableAdvisor) best(u *optimizer.TableUse, ixs []*catalog.Index) cost {
	c := a.estimate(u, nil)
	for _, ix := range ixs {
		if x := a.estimate(u, ix); x.total() < c.total() {
			c = x
		}
	}
	return c
}

// publicIndexes are the table's indexes queries may use, of columns and
// every row: the advisor's cost model has no expression or predicate (an
// expression or partial index is neither priced nor proposed for
// dropping).
func (a *tableAdvisor) publicIndexes() []*catalog.Index {
	var out []*catalog.Index
	for _, ix := range a.t.Indexes {
		if ix.State == catalog.StatePublic && ix.Plain() {
			out = append(out, ix)
		}
	}
	return out
}

// candidates proposes indexes from the reads' bound columns: a btree per
// read (equalities, most often bound first, then its most selective range,
// INCLUDE-ing the few columns that make it covering) and a Z-order index
// per set of columns reads bound together by ranges, and the unions of two
// such sets.
func (a *tableAdvisor) candidates() []*catalog.Index {
	t := a.t
	eqFreq := map[int]float64{}
	rangeFreq := map[int]float64{}
	for _, r := range a.w.reads {
		for _, u := range r.uses {
			for col, set := range u.Bounds {
				if set == nil {
					continue
				}
				if _, ok := set.Points(); ok {
					eqFreq[col] += r.calls
				} else {
					rangeFreq[col] += r.calls
				}
			}
		}
	}
	seen := map[string]bool{}
	var out []*catalog.Index
	add := func(ix *catalog.Index) {
		if k := indexKey(ix); !seen[k] {
			seen[k] = true
			out = append(out, ix)
		}
	}
	var zsets [][]int
	for _, r := range a.w.reads {
		for _, u := range r.uses {
			var eq, rng []int
			for col, set := range u.Bounds {
				if set == nil || t.Columns[col].Hidden {
					continue
				}
				if _, ok := set.Points(); ok {
					eq = append(eq, col)
				} else {
					rng = append(rng, col)
				}
			}
			sort.Slice(eq, func(i, j int) bool { return before(eqFreq, eq[i], eq[j]) })
			sort.Slice(rng, func(i, j int) bool {
				si, sj := a.st.Selectivity(rng[i], u.Bounds[rng[i]]), a.st.Selectivity(rng[j], u.Bounds[rng[j]])
				return si < sj || si == sj && rng[i] < rng[j]
			})
			if len(eq) > 0 || len(rng) > 0 {
				cols := append([]int(nil), eq...)
				if len(rng) > 0 {
					cols = append(cols, rng[0])
				}
				ix := &catalog.Index{Kind: catalog.KindBTree, Shards: t.Shards, State: catalog.StatePublic}
				for _, c := range cols {
					ix.Columns = append(ix.Columns, catalog.KeyColumn{Column: c})
				}
				if !pkServes(t, ix) {
					add(ix)
				}
				// Covering pays when the read fetches enough rows per call
				// to outweigh entries that carry the columns.
				if inc := a.includeFor(ix, u); len(inc) > 0 && !pkServes(t, ix) && a.estimate(u, ix).items >= 2*minCoveredRows {
					cov := *ix
					cov.Include = inc
					add(&cov)
				}
			}
			var z []int
			for _, c := range append(append([]int(nil), rng...), eq...) {
				if zorderable(t.Columns[c].Type) {
					z = append(z, c)
				}
			}
			if len(rng) > 0 && len(z) >= 2 && len(z) <= 4 {
				zsets = append(zsets, z)
			}
		}
	}
	for _, r := range a.w.reads {
		for _, u := range r.uses {
			cols := append([]int(nil), u.Spatial...)
			if u.Nearest >= 0 && u.NearestK > 0 {
				cols = append(cols, u.Nearest)
			}
			for _, c := range cols {
				if ix := a.gistCandidate(c); ix != nil {
					add(ix)
				}
			}
		}
	}
	freq := func(c int) float64 { return eqFreq[c] + rangeFreq[c] }
	mkZ := func(cols []int) {
		cols = append([]int(nil), cols...)
		sort.Slice(cols, func(i, j int) bool {
			return before(map[int]float64{cols[i]: freq(cols[i]), cols[j]: freq(cols[j])}, cols[i], cols[j])
		})
		ix := &catalog.Index{Kind: catalog.KindZOrder, Shards: t.Shards, State: catalog.StatePublic}
		for _, c := range cols {
			ix.Columns = append(ix.Columns, catalog.KeyColumn{Column: c, Width: a.width(c)})
		}
		a.zLeads(ix)
		add(ix)
	}
	for i, z := range zsets {
		mkZ(z)
		for _, z2 := range zsets[:i] {
			if u := union(z, z2); len(u) <= 4 {
				mkZ(u)
			}
		}
	}
	return out
}

// gistCandidate is a gist index over column col, as CREATE INDEX ...
// USING gist would make it (planner/gist.go: a Z-order index over points,
// an XZ index over other geometries and over boxes, polygons and
// circles), or nil when the column has one or is
// of a type zproxy cannot index so.
func (a *tableAdvisor) gistCandidate(col int) *catalog.Index {
	typ := a.t.Columns[col].Type
	if _, planar := builtins.PlanarTypeOf(typ); !planar && !xzShapes[typ.ID] || typ.ID == sqltypes.Array {
		return nil
	}
	for _, ix := range a.t.Indexes {
		if ix.Gist != nil && ix.Gist.Column == col {
			return nil
		}
	}
	kind, xz := catalog.KindZOrder, (*zorder.XZ2)(nil)
	if k, _, _, _ := typ.GeomTypmodParts(); typ.ID == sqltypes.Geometry && k != geo.Point || xzShapes[typ.ID] {
		kind, xz = catalog.KindBTree, &zorder.XZ2{}
	}
	ix := &catalog.Index{Kind: kind, Shards: a.t.Shards, State: catalog.StatePublic,
		Columns: []catalog.KeyColumn{{Column: col}}, ExprColumns: []int{col}, Gist: &catalog.GistKey{Column: col, XZ: xz}}
	if ix.CoversByDefault() {
		a.t.CoverRows(ix) // as CREATE INDEX makes it: its reads fetch no rows
	}
	return ix
}

// xzShapes are PostgreSQL's shapes whose gist index is an XZ index over
// their boxes (planner/gist.go), answering && and <@ predicates and
// ORDER BY col <-> point LIMIT k.
var xzShapes = map[sqltypes.TypeID]bool{sqltypes.GeoBox: true, sqltypes.GeoPolygon: true, sqltypes.GeoCircle: true}

// hasColumn reports whether col is among keys.
func hasColumn(keys []catalog.KeyColumn, col int) bool {
	for _, k := range keys {
		if k.Column == col {
			return true
		}
	}
	return false
}

// pkServes reports whether the primary key already orders the table by a
// btree's columns: they are its leading columns, in any order (a read
// bounding them all is a prefix read of the table itself).
func pkServes(t *catalog.Table, ix *catalog.Index) bool {
	if len(ix.Columns) > len(t.PrimaryKey) {
		return false
	}
	for _, k := range ix.Columns {
		if !hasColumn(t.PrimaryKey[:len(ix.Columns)], k.Column) {
			return false
		}
	}
	return true
}

// before orders columns by how often they are bound, then by ordinal.
func before(freq map[int]float64, a, b int) bool {
	if freq[a] != freq[b] {
		return freq[a] > freq[b]
	}
	return a < b
}

func union(a, b []int) []int {
	out := append([]int(nil), a...)
	for _, c := range b {
		dup := false
		for _, x := range out {
			dup = dup || x == c
		}
		if !dup {
			out = append(out, c)
		}
	}
	return out
}

// includeFor lists the columns a read needs beyond ix's key and the
// primary key, when they are few enough (three) to carry in the index.
func (a *tableAdvisor) includeFor(ix *catalog.Index, u *optimizer.TableUse) []int {
	var inc []int
	for _, c := range u.Needed {
		if a.t.IsPKColumn(c) || a.t.Columns[c].Hidden {
			continue
		}
		in := false
		for _, k := range ix.Columns {
			in = in || k.Column == c
		}
		if !in {
			inc = append(inc, c)
		}
	}
	if len(inc) > 3 {
		return nil
	}
	return inc
}

// zorderable reports whether a Z-order attribute of type t keeps its
// values apart well: numbers, times, dates (text keeps only a prefix).
func zorderable(t sqltypes.Type) bool {
	switch t.Kind() {
	case sqltypes.KindInt, sqltypes.KindFloat, sqltypes.KindTimestamp, sqltypes.KindTimestampTZ, sqltypes.KindDate:
		return true
	}
	return false
}

// zLeads lays a Z-order candidate out for the data and the workload
// (catalog.KeyColumn.Lead). Aligned to the data (CREATE INDEX ... WITH
// (align = 'data')), every attribute's varying bits start interleaving in
// the same round, which suits boxes that bound every attribute about
// equally: a cube of the data is then a cube of the address space. A box
// that leaves an attribute open, or bounds it loosely, wants that
// attribute's bits later, after the bits that split the box in the others
// (otherwise the open attribute turns the box into a slab again). So each
// attribute's lead is its data-aligned lead less the bits by which the
// workload's reads, on average over their calls, bound it less tightly
// than the most tightly bound attribute (a read bounding a column to a
// fraction f of its rows fixes log2(1/f) bits of it; an unbounded column,
// none). Without both ends of every attribute's data, or without reads,
// the candidate keeps the default layout.
func (a *tableAdvisor) zLeads(ix *catalog.Index) {
	dims := len(ix.Columns)
	aligned := &catalog.Index{Kind: ix.Kind, Columns: slices.Clone(ix.Columns)}
	if !a.t.AlignLeadsToExtremes(aligned, a.st.Bounds) {
		return
	}
	fixed := make([]float64, dims)
	calls := 0.0
	for _, r := range a.w.reads {
		for _, u := range r.uses {
			bits := make([]float64, dims)
			bounded := false
			for d, k := range ix.Columns {
				if set, ok := u.Bounds[k.Column]; ok && set != nil {
					bits[d] = math.Log2(1 / math.Max(a.st.Selectivity(k.Column, set), 1e-12))
					bounded = true
				}
			}
			if !bounded {
				continue
			}
			for d := range bits {
				fixed[d] += r.calls * bits[d]
			}
			calls += r.calls
		}
	}
	if calls == 0 {
		return
	}
	most := 0.0
	for d := range fixed {
		fixed[d] /= calls
		most = math.Max(most, fixed[d])
	}
	for d := range ix.Columns {
		ix.Columns[d].Lead = max(0, aligned.Columns[d].Lead-int(math.Round(most-fixed[d])))
	}
}

// width is the Z-order width for an integer column whose values need
// fewer bits than its type (0: the default): the integer codes clamp, so
// the width must hold the largest magnitude, plus the sign.
func (a *tableAdvisor) width(col int) int {
	c := a.t.Columns[col]
	if c.Type.Kind() != sqltypes.KindInt {
		return 0
	}
	lo, hi, ok := a.st.Bounds(col)
	if !ok {
		return 0
	}
	m := max(abs(lo.I), abs(hi.I))
	bits := 1
	for m>>uint(bits-1) > 0 && bits < 64 {
		bits++
	}
	bits++ // headroom: values written later may be twice as large
	def := map[sqltypes.TypeID]int{sqltypes.Int2: 16, sqltypes.Int4: 32}[c.Type.ID]
	if def == 0 {
		def = 64
	}
	if bits+8 > def {
		return 0
	}
	return (bits + 7) / 8 * 8
}

func abs(i int64) int64 {
	if i < 0 {
		return -i
	}
	return i
}

// indexKey identifies an index's shape (kind, key, include).
func indexKey(ix *catalog.Index) string {
	var b strings.Builder
	b.WriteString(string(ix.Kind))
	for _, k := range ix.Columns {
		fmt.Fprintf(&b, " %d/%v/%d", k.Column, k.Desc, k.Width)
	}
	inc := append([]int(nil), ix.Include...)
	sort.Ints(inc)
	fmt.Fprintf(&b, " %v", inc)
	return b.String()
}

// newIndexes picks indexes greedily: each round adds the candidate that
// saves the workload the most items and requests net of its write cost,
// among those that make the reads they help at least minGain times
// cheaper, until none is left or max are chosen.
func (a *tableAdvisor) newIndexes(maxNew int) []Recommendation {
	config := a.publicIndexes()
	cands := a.candidates()
	var out []Recommendation
	for len(out) < maxNew {
		var bestRec *Recommendation
		var bestIx *catalog.Index
		bestNet := 0.0
		for _, ix := range cands {
			if covered(config, ix) {
				continue
			}
			rec, net := a.evaluate(config, ix)
			if rec != nil && net > bestNet {
				bestRec, bestIx, bestNet = rec, ix, net
			}
		}
		if bestRec == nil {
			break
		}
		config = append(config, bestIx)
		a.names[a.named(bestIx).Name] = true
		out = append(out, *bestRec)
	}
	return out
}

// covered reports whether an index of the same shape, or a btree whose key
// starts with ix's key, is already in config.
func covered(config []*catalog.Index, ix *catalog.Index) bool {
	for _, c := range config {
		if c.Kind != ix.Kind || len(c.Columns) < len(ix.Columns) {
			continue
		}
		same := true
		for i, k := range ix.Columns {
			same = same && c.Columns[i].Column == k.Column
		}
		if same && (ix.Kind == catalog.KindBTree || len(c.Columns) == len(ix.Columns)) && includes(c, ix.Include) {
			return true
		}
	}
	return false
}

func includes(ix *catalog.Index, cols []int) bool {
	for _, c := range cols {
		found := false
		for _, i := range ix.Include {
			found = found || i == c
		}
		for _, k := range ix.Columns {
			found = found || k.Column == c
		}
		if !found {
			return false
		}
	}
	return true
}

// evaluate prices adding ix to config: the reads it makes minGain times
// cheaper, their cost before and after, and the net saving (items and
// requests saved over the recorded workload, less the items its
// maintenance writes).
func (a *tableAdvisor) evaluate(config []*catalog.Index, ix *catalog.Index) (*Recommendation, float64) {
	rec := &Recommendation{Table: a.t.Name, Kind: string(ix.Kind), WriteItems: 1, RowsWritten: a.w.rowsWritten}
	if ix.Gist != nil {
		rec.Kind = KindGist
	}
	var calls, before, after, reqBefore, reqAfter, saved float64
	with := append(append([]*catalog.Index(nil), config...), ix)
	type helped struct {
		id    int64
		calls int64
	}
	var hs []helped
	for _, r := range a.w.reads {
		var b, af cost
		for _, u := range r.uses {
			cb := a.best(u, config)
			ca := a.best(u, with)
			b.items += cb.items
			b.requests += cb.requests
			af.items += ca.items
			af.requests += ca.requests
		}
		if af.total()*minGain > b.total() {
			continue
		}
		n := float64(len(r.uses))
		w := r.calls * n // executions these samples stand for
		calls += w
		before += w * b.items / n
		after += w * af.items / n
		reqBefore += w * b.requests / n
		reqAfter += w * af.requests / n
		saved += w * (b.total() - af.total()) / n
		hs = append(hs, helped{r.stmt.QueryID, r.stmt.Calls})
	}
	if len(hs) == 0 {
		return nil, 0
	}
	net := saved - float64(a.w.rowsWritten)*rec.WriteItems
	if net <= 0 {
		return nil, 0
	}
	sort.Slice(hs, func(i, j int) bool {
		return hs[i].calls > hs[j].calls || hs[i].calls == hs[j].calls && hs[i].id < hs[j].id
	})
	for _, h := range hs {
		rec.Statements = append(rec.Statements, h.id)
		rec.Calls += h.calls
	}
	rec.ItemsBefore, rec.ItemsAfter = before/calls, after/calls
	rec.RequestsBefore, rec.RequestsAfter = reqBefore/calls, reqAfter/calls
	ix = a.named(ix)
	rec.SQL = CreateIndexSQL(a.t, ix)
	rec.Reason = a.reason(ix)
	return rec, net
}

// named gives a candidate the name CREATE INDEX would choose:
// table_columns_idx (PostgreSQL's convention), or _zidx for Z-order.
func (a *tableAdvisor) named(ix *catalog.Index) *catalog.Index {
	c := *ix
	parts := []string{a.t.Name}
	for _, k := range ix.Columns {
		parts = append(parts, a.t.Columns[k.Column].Name)
	}
	suffix := "idx"
	if ix.Kind == catalog.KindZOrder && ix.Gist == nil {
		suffix = "zidx"
	}
	base := strings.Join(parts, "_")
	for i := 0; ; i++ {
		// PostgreSQL's ChooseRelationName: a number before the suffix
		// when the name is taken, the base cut to fit 63 bytes.
		suf := suffix
		if i > 0 {
			suf = fmt.Sprintf("%s%d", suffix, i)
		}
		b := base
		if len(b)+1+len(suf) > 63 {
			b = b[:63-1-len(suf)]
		}
		if c.Name = b + "_" + suf; !a.names[c.Name] {
			return &c
		}
	}
}

func (a *tableAdvisor) reason(ix *catalog.Index) string {
	var cols []string
	for _, k := range ix.Columns {
		cols = append(cols, a.t.Columns[k.Column].Name)
	}
	if ix.Gist != nil {
		return fmt.Sprintf("reads confine %s to a box by spatial predicates (&&, ST_Intersects, <@ ...) or ask for its nearest neighbours "+
			"(ORDER BY %s <-> point LIMIT k); a gist index reads about the rows in the box, or a few rings around the point", cols[0], cols[0])
	}
	if ix.Kind == catalog.KindZOrder {
		s := fmt.Sprintf("reads bound %s together by ranges; a Z-order index reads about the rows in the box", strings.Join(cols, ", "))
		if ix.LeadsOption() != "" {
			s += "; the leads lay it out for the data's spans and how tightly the reads bound each column"
		}
		return s
	}
	s := fmt.Sprintf("reads bound %s (equalities first, then a range)", strings.Join(cols, ", "))
	if len(ix.Include) > 0 {
		s += "; INCLUDE makes them covering, so no row is fetched per entry"
	}
	return s
}

// CreateIndexSQL spells ix as zproxy's CREATE INDEX (without a name when
// ix has none, as HypoPG shows hypothetical indexes).
func CreateIndexSQL(t *catalog.Table, ix *catalog.Index) string {
	var b strings.Builder
	b.WriteString("CREATE INDEX ")
	if ix.Name != "" {
		b.WriteString(quoteIdent(ix.Name) + " ")
	}
	fmt.Fprintf(&b, "ON %s", quoteIdent(t.Name))
	if ix.Gist != nil {
		fmt.Fprintf(&b, " USING gist (%s)", quoteIdent(t.Columns[ix.Gist.Column].Name))
		return b.String()
	}
	if ix.Kind == catalog.KindZOrder {
		b.WriteString(" USING zorder")
	}
	b.WriteString(" (")
	for i, k := range ix.Columns {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quoteIdent(t.Columns[k.Column].Name))
		if k.Width > 0 {
			fmt.Fprintf(&b, "(%d)", k.Width)
		}
		if k.Desc {
			b.WriteString(" DESC")
		}
	}
	b.WriteString(")")
	if len(ix.Include) > 0 {
		var inc []string
		for _, c := range ix.Include {
			inc = append(inc, quoteIdent(t.Columns[c].Name))
		}
		fmt.Fprintf(&b, " INCLUDE (%s)", strings.Join(inc, ", "))
	}
	var opts []string
	if ix.Shards > 1 && ix.Shards != t.Shards {
		opts = append(opts, fmt.Sprintf("shards = %d", ix.Shards))
	}
	if leads := ix.LeadsOption(); leads != "" {
		opts = append(opts, fmt.Sprintf("leads = '%s'", leads))
	}
	if len(opts) > 0 {
		fmt.Fprintf(&b, " WITH (%s)", strings.Join(opts, ", "))
	}
	return b.String()
}

// quoteIdent quotes a name unless it is a plain lower-case identifier.
func quoteIdent(s string) string {
	plain := s != ""
	for i, c := range s {
		plain = plain && (c == '_' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9')
	}
	if plain {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}
