package optimizer

import (
	"fmt"
	"math"
	"time"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/zorder"
)

// The access-path rules, as one ordered table (ARCHITECTURE.md, "Access-path
// rules"): each rule either decides, returning the winner, why, and why each
// other candidate lost, or passes to the next. The hint rule runs before
// this table (hints also shape the candidates: IGNORE_INDEX removes some),
// so the table starts at rule 2.
//
// Every candidate has already been fitted to the IN-list cap (fitPoints)
// when the rules see it, so the choice made here is the plan built: no
// later step shortens a prefix behind a rule's back.

// decision is what a deciding rule returns.
type decision struct {
	winner   *candidate
	reason   string
	rejected []Rejection
}

// accessRule is one row of the table.
type accessRule struct {
	name   string
	decide func(cands []*candidate, ac *accessContext) *decision
}

// accessContext is what the rules know besides the candidates.
type accessContext struct {
	opts  Options
	stats *catalog.TableStats // nil: the table was never analyzed
	// assumed: stats are an assumed row count without column statistics
	// (EXPLAIN's costs of a table never analyzed): each bound column
	// keeps PostgreSQL's default selectivity.
	assumed bool
}

// selectivity is ColumnSelectivity, or under assumed statistics
// PostgreSQL's defaults: an equality 0.005, a range a third.
func (ac *accessContext) selectivity(t *catalog.Table, col int, set ValueSet) float64 {
	if !ac.assumed || set == nil {
		return ColumnSelectivity(t, ac.stats, col, set)
	}
	sel := 0.0
	for _, iv := range set {
		if iv.IsPoint() {
			sel += defaultEqSel
		} else {
			sel += defaultIneqSel
		}
	}
	return math.Min(sel, 1)
}

var accessRules = []accessRule{
	{"rule 2: point get", rulePointGet},
	{"rule 3-4: least estimated cost", ruleCost},
	{"rule 3-4: longest prefix, then Z-order estimate", rulePrefix},
}

// decide runs the table over the candidates.
func decide(cands []*candidate, ac *accessContext) *decision {
	for _, r := range accessRules {
		if d := r.decide(cands, ac); d != nil {
			return d
		}
	}
	panic("optimizer: the last access rule always decides")
}

// rulePointGet: every primary-key column bound by equality wins outright;
// no index needs costing.
func rulePointGet(cands []*candidate, _ *accessContext) *decision {
	var pk *candidate
	for _, c := range cands {
		if c.isPointGet() {
			pk = c
		}
	}
	reason := "rule 2: every primary-key column bound by equality (%d key%s)"
	if pk == nil {
		// Else every column of a unique index bound by equality.
		for _, c := range cands {
			if c.isUniquePoint() {
				pk = c
				break
			}
		}
		if pk == nil {
			return nil
		}
		reason = "rule 2: every column of unique index " + pk.index.Name + " bound by equality (%d key%s)"
	}
	d := &decision{winner: pk, reason: fmt.Sprintf(reason, pk.ranges, plural(pk.ranges))}
	for _, c := range cands {
		if c == pk {
			continue
		}
		why := "primary key fully bound by equality: point get"
		if pk.index != nil {
			why = "unique index " + pk.index.Name + " fully bound by equality: point get"
		}
		d.rejected = append(d.rejected, Rejection{Path: c.label, Reason: why})
	}
	return d
}

// ruleCost decides when the table has statistics: among the candidates
// that bind something (a key prefix, a Z-order attribute), the least
// estimated cost, items read plus store requests weighted by the store's
// per-request cost; ties go to the prefix rule's order. Without a
// qualifying candidate the rule passes (a full scan follows).
func ruleCost(cands []*candidate, ac *accessContext) *decision {
	if ac.stats == nil {
		return nil
	}
	var best *candidate
	for _, c := range cands {
		if c.prefix == 0 {
			continue
		}
		if best == nil || c.cost < best.cost || c.cost == best.cost && !c.zorder && (best.zorder || prefixBetter(c, best)) {
			best = c
		}
	}
	if best == nil {
		return nil
	}
	d := &decision{winner: best, reason: fmt.Sprintf("rule 3-4: least estimated cost %s (%s)", costText(best.cost), best.estimateText())}
	for _, c := range cands {
		switch {
		case c == best:
		case c.prefix == 0 && c.zorder:
			d.rejected = append(d.rejected, Rejection{Path: c.label, Reason: "no attribute bound"})
		case c.prefix == 0:
			d.rejected = append(d.rejected, Rejection{Path: c.label, Reason: fmt.Sprintf("binds no key prefix: full scan, %s", c.estimateText())})
		default:
			d.rejected = append(d.rejected, Rejection{Path: c.label, Reason: fmt.Sprintf("cost %s > %s: %s", costText(c.cost), costText(best.cost), c.estimateText())})
		}
	}
	return d
}

// rulePrefix decides without statistics, by the shape of the bounds: the
// longest bound prefix with its tie-breaks, replaced by a Z-order index with
// a bound attribute when that probes a smaller fraction of its code space.
func rulePrefix(cands []*candidate, _ *accessContext) *decision {
	best, rejected := rank(cands)
	d := &decision{winner: best, rejected: rejected}
	switch {
	case best.zorder:
		d.reason = fmt.Sprintf("rule 4: Z-order estimate %.3g of the search space beats the best prefix path", best.fraction)
	case best.prefix == 0 && best.index == nil:
		d.reason = "rule 5: no index binds the filter"
	case best.prefix == 0:
		d.reason = "full index scan"
	default:
		d.reason = fmt.Sprintf("rule 3: longest prefix %d (%s)", best.prefix, prefixShape(best.eqLen, best.hasRange))
	}
	return d
}

// itemWork is the time the cost model charges for reading one item; a
// store request costs its kv.Capabilities.RequestLatency over this.
const itemWork = time.Microsecond

// estimate fills a candidate's expected entries, items read, store requests
// and cost from the table's statistics. The entries a path reads are the
// rows its bound columns admit: for a prefix, the product of the bound key
// columns' selectivities; for a Z-order box, the seeds' n^((a-b)/a) with
// each attribute counted by the fraction of the rows its bound keeps (the
// histogram's, where the seeds' formula assumes a point bound keeps n^(-1/a)),
// times how much more than the box its cover reads. A path that stops at a
// pushed-down LIMIT reads only until it has that many rows past the filter
// it does not enforce.
func (c *candidate) estimate(t *catalog.Table, b bounds, ac *accessContext, limit int, wantsOrder bool) {
	ts := ac.stats
	n := math.Max(ts.Rows, 1)
	sel := 1.0
	var enforced map[int]bool
	switch {
	case c.zorder:
		enforced = map[int]bool{}
		for _, k := range c.index.Columns {
			if set, ok := b[k.Column]; ok && set != nil {
				sel *= ac.selectivity(t, k.Column, set)
				enforced[k.Column] = true
			}
		}
	default:
		enforced = map[int]bool{}
		for _, k := range c.keyCols[:c.prefix] {
			sel *= ac.selectivity(t, k.Column, b[k.Column])
			enforced[k.Column] = true
		}
	}
	c.rows = n * sel
	entries := c.rows
	if c.zorder && !ac.assumed && !ac.opts.Caps.CheapSeek && c.cover.InBox > 0 {
		// Ranges read what they cover (a skip-scan seeks past the rest):
		// the budget is the one whose cover costs least for these rows.
		c.pickBudget(n, ac.opts)
		entries = math.Min(entries*c.over, n)
	}
	if limit > 0 && (c.ordered || !wantsOrder) {
		// Rows the path yields pass the filter it leaves to the residual
		// with the other bound columns' selectivity.
		rest := 1.0
		for col, set := range b {
			if set != nil && !enforced[col] {
				rest *= ac.selectivity(t, col, set)
			}
		}
		if rest > 0 {
			entries = math.Min(entries, float64(limit)/rest)
		}
	}
	c.entries = entries
	c.items = entries
	shards := float64(c.shards)
	c.requests = float64(max(c.ranges, 1)) * shards
	w := requestWeight(ac.opts)
	c.cost = c.requests * w
	if c.zorder {
		c.cost = c.requests * rangeRequestWeight(ac.opts)
	}
	if c.isPointGet() {
		c.requests = math.Ceil(float64(c.ranges) / lookupBatch)
		c.cost = c.requests * w
	}
	if c.index != nil && !c.covering {
		c.items += entries
		lookups := math.Ceil(entries / lookupBatch)
		c.requests += lookups
		c.cost += lookups * w
	}
	c.cost += c.items
}

// zBudgets are the range budgets a Z-order path on a store without cheap
// seeks chooses among: every power of two up to 256, since the cost of a
// budget moves by a factor of about 1.5 between neighbours (measured on
// bench/dynamodb's boxes, the cost-optimal budget of a box of 20 rows
// lies between 8 and 64 and of 1,000 rows between 64 and 256; a coarser
// list made small boxes read up to twice the items of the best budget).
var zBudgets = []int{1, 2, 4, 8, 16, 32, 64, 128, 256}

// pickBudget chooses the Z-order cover whose estimated cost is least: the
// entries its ranges hold (the box's rows times the cover's over-cover of
// the rows, rowOverCover) plus a request per range and shard. More ranges
// read fewer items outside the box and cost more requests; the figures go
// to EXPLAIN (budgetNote).
func (c *candidate) pickBudget(n float64, opts Options) {
	w := rangeRequestWeight(opts)
	best := -1.0
	for _, budget := range zBudgets {
		if best >= 0 && c.rows+float64(min(budget/2+1, budget)*c.shards)*w >= best {
			// A larger budget earns its requests only by reading fewer
			// entries, and even an exact cover with half the budget's
			// ranges (the budget below was not enough) reads the rows
			// and costs more than the best so far.
			break
		}
		cv := c.cover
		if budget != len(c.cover.Ranges) {
			cv = c.zschema.Plan(c.zbox, budget)
		}
		if cv.InBox == 0 {
			continue
		}
		over, addrOver := c.rowOverCover(cv)
		items := math.Min(c.rows*over, n)
		cost := items + float64(len(cv.Ranges)*c.shards)*w
		if best < 0 || cost < best {
			best, c.cover, c.ranges = cost, cv, len(cv.Ranges)
			c.budgetNote = fmt.Sprintf("%d ranges chosen by cost: %s entries at over-cover %.3g (%.3g of the addresses), %d requests", len(cv.Ranges), countText(items), over, addrOver, len(cv.Ranges)*c.shards)
			c.over = over
		}
		if cv.Exact {
			break // a larger budget plans the same exact cover
		}
	}
}

// overCover is how many addresses a cover's ranges hold per address of the
// box (zorder.Cover.Covered counts them exactly, to float64 precision).
func overCover(cv zorder.Cover) float64 {
	if cv.InBox <= 0 {
		return 1
	}
	return math.Max(cv.Covered/cv.InBox, 1)
}

// shareSamples is how many addresses of a cover rowOverCover tests against
// the data bounds: the share's error is about the number of runs the cover
// makes in and out of the bounds over this, a few percent, for about 15 µs.
const shareSamples = 128

// rowOverCover is how many rows a cover's ranges hold per row of the box,
// and its address over-cover. Rows spread over the index's data bounds,
// not over its whole code space, so only the cover's addresses inside the
// bounds hold rows: a cover of a small box in a wide address space runs
// through long stretches beyond the data (ts codes past the last reading),
// and its address over-cover overstated what it reads up to 40-fold
// (bench/dynamodb -offline's boxes; with the share, within about 20%).
func (c *candidate) rowOverCover(cv zorder.Cover) (rows, addrs float64) {
	addrs = overCover(cv)
	if c.dataBox == nil || addrs == 1 {
		return addrs, addrs
	}
	// A cover whose addresses inside the bounds are too few for any
	// sample to hit is not therefore exact: count one more hit than seen
	// (the Laplace estimate), so the share errs towards reading more. The
	// box lies inside the bounds, so its own addresses count in any case.
	share := c.zschema.CoverShare(cv.Ranges, c.dataBox, shareSamples)
	share = (share*shareSamples + 1) / (shareSamples + 1)
	return math.Max(addrs*share, 1), addrs
}

// requestWeight is one store request's cost in items read: on a store
// with cheap seeks (kv.Capabilities.CheapSeek) a range or skip costs about
// a step of the iterator; elsewhere a round trip of RequestLatency, but no
// more than requestItems, since a statement's ranges run concurrently (their
// latencies overlap) and what a request costs beyond its latency is the
// least read capacity it is charged, which a few small items fill.
func requestWeight(opts Options) float64 {
	if opts.Caps.CheapSeek || opts.Caps.RequestLatency <= 0 {
		return 1
	}
	return math.Min(float64(opts.Caps.RequestLatency)/float64(itemWork), requestItems)
}

// rangeRequestWeight is what one of a Z-order scan's range requests costs:
// requestWeight shared by the ScanFanout ranges of a shard the executor
// reads at once (each prefetches its first page while the one before is
// read), so their round trips overlap and each adds a fraction of one.
// What remains is what more ranges cost beyond their latency, the
// capacity each request is rounded up to, which the cost model leaves to
// the items they save.
func rangeRequestWeight(opts Options) float64 {
	w := requestWeight(opts)
	if !opts.Caps.CheapSeek && opts.Caps.ScanFanout > 1 {
		w /= float64(opts.Caps.ScanFanout)
	}
	return w
}

// requestItems caps requestWeight: the executor restarts a Z-order range
// with a new request after 8 out-of-box entries in a row, so it already
// prices a request at 8 wasted items.
const requestItems = 8

// ColumnSelectivity is the fraction of rows whose column value lies in set,
// from the column's statistics, or its share of the code space when it has
// none (ts may be nil). The index advisor prices with it too.
func ColumnSelectivity(t *catalog.Table, ts *catalog.TableStats, col int, set ValueSet) float64 {
	if set == nil {
		return 1
	}
	cs := ts.Column(&t.Columns[col])
	if cs == nil && ts != nil && isExprColumn(t.Columns[col]) {
		// An index expression has no statistics: PostgreSQL's default
		// selectivities of an equality and of a range.
		sel := 0.0
		for _, iv := range set {
			if iv.IsPoint() {
				sel += 0.005
			} else {
				sel += 1.0 / 3
			}
		}
		return math.Min(sel, 1)
	}
	if cs == nil {
		return columnFraction(t, col, set)
	}
	sel := 0.0
	for _, iv := range set {
		if iv.IsPoint() {
			sel += cs.EqualSelectivity(iv.Lo)
			continue
		}
		var lo, hi *sqltypes.Value
		if !iv.LoUnb {
			lo = &iv.Lo
		}
		if !iv.HiUnb {
			hi = &iv.Hi
		}
		sel += cs.RangeSelectivity(lo, hi, iv.LoInc, iv.HiInc)
	}
	return math.Min(sel, 1)
}

// estimateText shows a candidate's estimate in EXPLAIN.
func (c *candidate) estimateText() string {
	return fmt.Sprintf("~%s rows, %s items read, %s requests", countText(c.rows), countText(c.items), countText(c.requests))
}

func countText(f float64) string {
	if f >= 100 {
		return fmt.Sprintf("%.0f", f)
	}
	return fmt.Sprintf("%.3g", f)
}

func costText(f float64) string { return countText(f) }

// fitPoints shortens a prefix candidate until the key combinations its IN
// lists expand to fit the cap (the range column's intervals count too),
// and records how many ranges (or keys) it will read.
func (c *candidate) fitPoints(b bounds, maxRanges int) {
	for {
		n, ok := combinations(c.keyCols, c.eqLen, c.hasRange, b, maxRanges)
		if ok {
			c.ranges = n
			break
		}
		if c.hasRange {
			c.hasRange = false
		} else {
			c.eqLen--
		}
	}
	c.prefix = c.eqLen
	if c.hasRange {
		c.prefix++
	}
}

// combinations counts the key ranges a prefix expands to, or reports that
// they exceed maxRanges.
func combinations(keyCols []catalog.KeyColumn, eqLen int, hasRange bool, b bounds, maxRanges int) (int, bool) {
	n := 1
	cols := keyCols[:eqLen]
	if hasRange {
		cols = keyCols[:eqLen+1]
	}
	for _, k := range cols {
		n *= len(b[k.Column])
		if n > maxRanges {
			return 0, false
		}
	}
	return n, true
}
