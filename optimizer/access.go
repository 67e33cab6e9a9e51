package optimizer

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/zorder"
)

// Options tune planning.
// ZBoundsReader reads the data bounds of Z-order indexes for one
// statement (Options.ZBounds): an interface, not a func, so a session's
// reader, made with the statement's other pieces, needs no method value
// of its own (an allocation per statement).
type ZBoundsReader interface {
	ZBounds(ix *catalog.Index) *catalog.ZBounds
}

type Options struct {
	Caps          kv.Capabilities
	AllowFullScan bool
	// ZBudget caps the Z-address ranges of one Z-order scan on stores where
	// every range costs a request (CheapSeek false). Skip-scans use
	// SkipScanBudget ranges and seek inside them.
	ZBudget        int
	SkipScanBudget int
	// MaxPoints caps the key combinations IN lists expand to.
	MaxPoints int
	// ZBounds reads the data bounds of a Z-order index that keeps them
	// (catalog.ReadZBounds, read when the statement starts), or nil; a
	// query box is clipped to them.
	ZBounds ZBoundsReader
	// Stats returns a table's statistics (catalog.Snapshot.Stats of the
	// snapshot the statement was bound to); nil, or a nil result, plans by
	// the shape of the bounds alone.
	Stats func(tableID uint64) *catalog.TableStats
	// Fn is what built-in functions see when a bound is computed at plan
	// time (now() in a WHERE clause is the statement's timestamp).
	Fn builtins.Context
	// Disabled are the plan methods the session's enable_* settings turn
	// off: as in PostgreSQL they are avoided where another method can do
	// the work, not forbidden.
	Disabled PlanMethods
}

// PlanMethods is a set of plan methods, as PostgreSQL's enable_* planner
// settings name them.
type PlanMethods uint8

// The plan methods the enable_* settings steer. The primary key is the
// table's own order, so a point get or key range on it is the table's
// access, not an index scan: enable_seqscan has nothing to steer (a full
// scan is only ever planned when no key or index binds anything).
const (
	// MethodIndexScan reads a secondary (prefix, Z-order or unique)
	// index: off when enable_indexscan and enable_bitmapscan both are,
	// since zproxy's index reads serve both plan shapes.
	MethodIndexScan PlanMethods = 1 << iota
	// MethodIndexOnlyScan answers from a covering index without reading
	// the table (enable_indexonlyscan).
	MethodIndexOnlyScan
	// MethodNestLoop joins by nested loop, lookup joins included
	// (enable_nestloop).
	MethodNestLoop
	// MethodHashJoin (enable_hashjoin) and MethodMergeJoin
	// (enable_mergejoin).
	MethodHashJoin
	MethodMergeJoin
)

// Has reports whether m holds every method of x.
func (m PlanMethods) Has(x PlanMethods) bool { return x != 0 && m&x == x }

// DefaultMaxPoints caps the key combinations the IN lists of one scan expand
// to. An IN list is as long as the statement that spells it, so a single list
// always fits; the cap is for cross products of several lists, which grow
// faster than the statement.
const DefaultMaxPoints = 100_000

// DefaultOptions returns the defaults for a backend.
func DefaultOptions(caps kv.Capabilities) Options {
	return Options{Caps: caps, AllowFullScan: true, ZBudget: 64, SkipScanBudget: 8, MaxPoints: DefaultMaxPoints}
}

// candidate is one access path under consideration.
type candidate struct {
	index    *catalog.Index // nil: primary key
	keyCols  []catalog.KeyColumn
	eqLen    int  // leading key columns bound to points
	hasRange bool // the next key column has a range
	prefix   int  // eqLen + (1 if hasRange)
	fraction float64
	covering bool
	ordered  bool // yields the ORDER BY
	reverse  bool
	shards   int
	zorder   bool
	zbox     zorder.Box
	zschema  *zorder.Schema
	label    string
	// cover is a Z-order candidate's ranges over its box; ranges counts
	// the key ranges (or keys) a path reads per shard.
	cover   zorder.Cover
	ranges  int
	clipped bool // the box was clipped to the index's data bounds
	// dataBox is the index's data bounds as a box (nil without bounds):
	// no row lies outside it, so a cover's addresses there read nothing.
	dataBox zorder.Box
	// budgetNote says how a Z-order path's range budget was chosen; over
	// is its cover's over-cover of the rows (rowOverCover).
	budgetNote string
	over       float64
	// The estimate from statistics (access_rules.go): rows its bounds
	// admit, entries it reads, items read (entries plus looked-up rows),
	// store requests, and the cost comparing them.
	rows, entries, items, requests, cost float64
}

// isPointGet reports whether c binds the whole primary key by equality.
func (c *candidate) isPointGet() bool { return c.index == nil && c.eqLen == len(c.keyCols) }

// isUniquePoint reports whether c binds every column of a unique index by
// equality: at most one row per key, read by a point get of its entry
// (bound values are never NULL, and only entries with a NULL repeat).
func (c *candidate) isUniquePoint() bool {
	return c.index != nil && c.index.ValueKeyed() && c.eqLen == len(c.keyCols)
}

// keyColumnsOf returns the columns an index is ordered by: its key
// columns, then the primary key (entries are unique by it). A unique
// index's entries are keyed by its columns alone (those with a NULL add
// the primary key, which no bound reaches), so ranges stop at its columns.
func keyColumnsOf(t *catalog.Table, ix *catalog.Index) []catalog.KeyColumn {
	if ix == nil {
		return t.PrimaryKey
	}
	if ix.ValueKeyed() {
		return ix.Columns
	}
	cols := append([]catalog.KeyColumn(nil), ix.Columns...)
	for _, k := range t.PrimaryKey {
		dup := false
		for _, c := range ix.Columns {
			dup = dup || c.Column == k.Column
		}
		if !dup {
			cols = append(cols, k)
		}
	}
	return cols
}

// prefixOf counts the key columns bound by points, plus one for a range.
func prefixOf(keyCols []catalog.KeyColumn, b bounds) (eqLen int, hasRange bool) {
	for _, k := range keyCols {
		set, ok := b[k.Column]
		if !ok || set == nil {
			return eqLen, false
		}
		if !set.allPoints() {
			return eqLen, true
		}
		eqLen++
	}
	return eqLen, false
}

// columnFraction is the fraction of a column's code space a set covers,
// measured with the Z-order codes so prefix and Z-order estimates compare.
func columnFraction(t *catalog.Table, col int, set ValueSet) float64 {
	if set == nil {
		return 1
	}
	a := zorder.Attr{Type: catalog.ZType(t.Columns[col].Type)}
	space := math.Pow(2, float64(zorder.DefaultWidth(a.Type, false)))
	total := 0.0
	for _, iv := range set {
		ci := codeInterval(a, iv)
		if !ci.Empty() {
			total += (float64(ci.Hi-ci.Lo) + 1) / space
		}
	}
	return math.Min(total, 1)
}

// codeInterval maps a value interval onto an attribute's code interval
// (a superset when codes are lossy, e.g. text prefixes).
func codeInterval(a zorder.Attr, iv Interval) zorder.Interval {
	out := a.NotNull()
	if !iv.LoUnb {
		out = out.Intersect(above(a, iv.Lo, iv.LoInc))
	}
	if !iv.HiUnb {
		out = out.Intersect(below(a, iv.Hi, iv.HiInc))
	}
	return out
}

// above and below bound an attribute's codes by a value of any kind
// (catalog's encodings: numeric and interval codes are lossy floats, so
// their bounds keep the value's own code).
func above(a zorder.Attr, v sqltypes.Value, inc bool) zorder.Interval {
	return catalog.ZAbove(a, v, inc)
}

func below(a zorder.Attr, v sqltypes.Value, inc bool) zorder.Interval {
	return catalog.ZBelow(a, v, inc)
}

// prefixFraction estimates the search-space fraction a prefix path reads:
// the product of its bound columns' fractions.
func prefixFraction(t *catalog.Table, keyCols []catalog.KeyColumn, eqLen int, hasRange bool, b bounds) float64 {
	f := 1.0
	n := eqLen
	if hasRange {
		n++
	}
	for _, k := range keyCols[:n] {
		f *= columnFraction(t, k.Column, b[k.Column])
	}
	return f
}

// zBox builds the query box of a Z-order index from the bounds; it reports
// how many attributes are bound.
func zBox(t *catalog.Table, ix *catalog.Index, s *zorder.Schema, b bounds) (zorder.Box, int) {
	box := s.Universe()
	bound := 0
	for i, k := range ix.Columns {
		set, ok := b[k.Column]
		if !ok || set == nil {
			continue
		}
		bound++
		a := s.Attr(i)
		if len(set) == 0 {
			box.Narrow(i, zorder.Interval{Lo: 1, Hi: 0})
			continue
		}
		// A box is one rectangle: take the hull of the set's intervals.
		hull := codeInterval(a, set[0])
		for _, iv := range set[1:] {
			ci := codeInterval(a, iv)
			if ci.Lo < hull.Lo {
				hull.Lo = ci.Lo
			}
			if ci.Hi > hull.Hi {
				hull.Hi = ci.Hi
			}
		}
		box.Narrow(i, hull)
	}
	return box, bound
}

// scanSpec is what the access-path rules choose for: one table's scan with
// the conjuncts that apply to its rows, the columns read above it, its
// hints, and the order (in table columns) the plan above would like.
type scanSpec struct {
	Table  *catalog.Table
	Alias  string
	Filter ir.Expr
	Needed []int
	// outNeed marks the columns read above the scan (Needed without
	// Filter's), or is nil when unknown: a scan that drops conjuncts its
	// index decides exactly (an inverted scan's) reads the rest only.
	outNeed []bool
	Hints   []ir.Hint
	Order   []ir.SortKey
	// Limit, when positive, is the LIMIT (plus OFFSET) the plan above
	// would push into a scan that yields its order (or when it wants none).
	Limit int
	// Nearest, when set, is an ORDER BY distance LIMIT k above the scan
	// that a gist index may answer (nearest.go).
	Nearest *nearestReq
}

// yieldsOrder reports whether reading keyCols in order (or in reverse)
// produces the ORDER BY, given which leading columns are fixed to a single
// value.
func yieldsOrder(t *catalog.Table, keyCols []catalog.KeyColumn, b bounds, order []ir.SortKey) (ok, reverse bool) {
	if len(order) == 0 {
		return false, false
	}
	i := 0
	dir := 0 // +1 forward, -1 reverse
	for _, o := range order {
		// Skip key columns pinned to one value: they do not affect order.
		for i < len(keyCols) {
			set := b[keyCols[i].Column]
			if len(set) == 1 && set[0].IsPoint() && keyCols[i].Column != o.Col {
				i++
				continue
			}
			break
		}
		if set := b[o.Col]; len(set) == 1 && set[0].IsPoint() {
			continue // ordering by a constant
		}
		if i >= len(keyCols) || keyCols[i].Column != o.Col {
			return false, false
		}
		if !t.Columns[o.Col].NotNull && b[o.Col] == nil {
			// Keys put NULL first ascending; PostgreSQL puts it last. A bound
			// on the column excludes NULLs, and then the orders agree.
			return false, false
		}
		d := 1
		if o.Desc != keyCols[i].Desc {
			d = -1
		}
		if dir != 0 && d != dir {
			return false, false
		}
		dir = d
		i++
	}
	return true, dir < 0
}

// choose picks the access path for a scan of s by the rules: the hints
// here (rule 1), then the ordered table of access_rules.go.
func choose(s *scanSpec, b bounds, opts Options, notices *[]*pgerr.Error) (*decision, hintOutcome, error) {
	t := s.Table
	ac := &accessContext{opts: opts}
	if opts.Stats != nil {
		ac.stats = opts.Stats(t.ID)
	}
	mk := func(ix *catalog.Index) *candidate {
		c := newCandidate(s, b, ix, opts)
		if ac.stats != nil {
			c.estimate(t, b, ac, s.Limit, len(s.Order) > 0)
		}
		return c
	}

	// Hints. Every hint gets a note for EXPLAIN; one that cannot be
	// honoured also becomes a NOTICE.
	ignored, forcedInverted := map[string]bool{}, map[string]bool{}
	var forced []*candidate
	var failedNotes, honouredNotes []string
	fail := func(format string, args ...any) {
		msg := fmt.Sprintf(format, args...)
		failedNotes = append(failedNotes, msg)
		*notices = append(*notices, pgerr.Notice("%s", msg))
	}
	honour := func(format string, args ...any) {
		msg := fmt.Sprintf(format, args...)
		if len(honouredNotes) == 0 || honouredNotes[len(honouredNotes)-1] != msg {
			honouredNotes = append(honouredNotes, msg)
		}
	}
	for _, h := range s.Hints {
		if h.Name != "use_index" && h.Name != "ignore_index" {
			continue // join hints: the join rules read them
		}
		if h.Table != "" && h.Table != t.Name && h.Table != s.Alias {
			fail("%s ignored: it names table %q, not %q", hintName(h), h.Table, t.Name)
			continue
		}
		for _, name := range h.Index {
			if name == "primary" && h.Use {
				forced = append(forced, mk(nil))
				honour("USE_INDEX(primary) honoured")
				continue
			}
			ix := t.Index(name)
			switch {
			case ix != nil && ix.Inverted() && ix.State == catalog.StatePublic:
				// Not a key-ordered path: planScan weighs it (inverted.go).
				if h.Use {
					forcedInverted[name] = true
				} else {
					ignored[name] = true
				}
				honour("%s honoured", hintName(h))
			case ix == nil:
				fail("%s not honoured: table %q has no index %q", hintName(h), t.Name, name)
			case ix.State != catalog.StatePublic:
				fail("%s not honoured: index %q is still being built", hintName(h), name)
			case !h.Use:
				ignored[name] = true
				honour("%s honoured", hintName(h))
			default:
				c := mk(ix)
				if c.zorder && c.prefix == 0 {
					fail("%s not honoured: no attribute of Z-order index %q is bound", hintName(h), name)
					continue
				}
				forced = append(forced, c)
				honour("%s honoured", hintName(h))
			}
		}
	}
	hint := hintOutcome{note: strings.Join(append(failedNotes, honouredNotes...), "; "), forced: len(forced) > 0,
		ignored: ignored, inverted: forcedInverted}

	cands := []*candidate{mk(nil)}
	// A primary-key point get wins by rule 2 whatever the indexes offer:
	// they are named among the rejected, not planned (a Z-order cover and
	// its data bounds would cost more than the get itself).
	named := len(forced) == 0 && cands[0].isPointGet()
	var disabled []Rejection
	for _, ix := range t.Indexes {
		if ix.State != catalog.StatePublic || ignored[ix.Name] || ix.Inverted() {
			continue // an inverted index has no key order (inverted.go)
		}
		if ac.opts.Disabled.Has(MethodIndexScan) && opts.AllowFullScan {
			// Avoided, as PostgreSQL's disable_cost avoids it, while the
			// table can be read another way; a hint still names it.
			disabled = append(disabled, Rejection{Path: indexLabel(ix), Reason: "enable_indexscan and enable_bitmapscan are off"})
			continue
		}
		if named {
			cands = append(cands, &candidate{index: ix, label: indexLabel(ix)})
			continue
		}
		cands = append(cands, mk(ix))
	}
	if len(forced) > 0 {
		// USE_INDEX naming several indexes: the rules choose among them.
		d := decide(forced, ac)
		if d.winner.zorder {
			d.reason = "rule 1: chosen by USE_INDEX" // nothing else was weighed
		} else {
			d.reason = "rule 1: chosen by USE_INDEX; " + d.reason
		}
		d.rejected = nil
		for _, c := range cands {
			if c.label != d.winner.label {
				d.rejected = append(d.rejected, Rejection{Path: c.label, Reason: "not named by USE_INDEX"})
			}
		}
		return d, hint, nil
	}
	d := decide(cands, ac)
	d.rejected = append(d.rejected, disabled...)
	return d, hint, nil
}

// newCandidate describes the access path through ix (nil: the primary key)
// for the bounds b, fitted to the IN-list cap, with a Z-order index's cover.
func newCandidate(s *scanSpec, b bounds, ix *catalog.Index, opts Options) *candidate {
	t := s.Table
	c := &candidate{index: ix, keyCols: keyColumnsOf(t, ix), shards: t.Shards, label: "primary key"}
	if ix != nil {
		c.shards = ix.Shards
		c.label = indexLabel(ix)
		c.covering = t.Covers(ix, s.Needed) && !opts.Disabled.Has(MethodIndexOnlyScan)
	} else {
		c.covering = true
	}
	if ix != nil && ix.Kind == catalog.KindZOrder {
		c.zorder = true
		c.zschema = t.ZSchema(ix)
		var nb int
		c.zbox, nb = zBox(t, ix, c.zschema, b)
		c.prefix = nb
		if nb > 0 && opts.ZBounds != nil {
			if zb := opts.ZBounds.ZBounds(ix); zb != nil {
				zb.Clip(c.zbox)
				c.clipped = true
				c.dataBox = c.zschema.Universe()
				zb.Clip(c.dataBox)
			}
		}
		c.fraction = c.zschema.Estimate(c.zbox)
		if nb > 0 && !c.zbox.Empty() {
			c.cover = c.zschema.Plan(c.zbox, zBudget(opts))
		}
		c.ranges = len(c.cover.Ranges)
		return c
	}
	c.eqLen, c.hasRange = prefixOf(c.keyCols, b)
	c.fitPoints(b, opts.MaxPoints)
	c.shards = shardsPerRange(t, ix, c.eqLen)
	c.fraction = prefixFraction(t, c.keyCols, c.eqLen, c.hasRange, b)
	c.ordered, c.reverse = yieldsOrder(t, c.keyCols, b, s.Order)
	return c
}

// indexLabel names the access path through ix in EXPLAIN. Concatenated,
// not formatted: every candidate of every planning (a generic plan's
// re-planned scan at each execution too) names its path.
func indexLabel(ix *catalog.Index) string {
	return string(ix.Kind) + " index " + ix.Name
}

// zBudget is how many Z-address ranges one scan may use: a few for a
// skip-scan, which seeks inside them, more where each range is a request.
func zBudget(opts Options) int {
	if opts.Caps.CheapSeek {
		return opts.SkipScanBudget
	}
	return opts.ZBudget
}

// hintOutcome is what the hints did: a note for EXPLAIN, and whether a
// USE_INDEX hint chose the path (rule 1).
type hintOutcome struct {
	note   string
	forced bool
	// ignored are the indexes IGNORE_INDEX names; inverted the inverted
	// indexes USE_INDEX names.
	ignored, inverted map[string]bool
}

// rank applies rules 2 to 4 to the candidates: the best prefix path (point
// get, then longest prefix, then the tie-breaks), replaced by a Z-order
// index with a bound attribute whose estimate is smaller. It returns the
// winner and why each other candidate lost.
func rank(cands []*candidate) (*candidate, []Rejection) {
	var best *candidate
	for _, c := range cands {
		if !c.zorder && (best == nil || prefixBetter(c, best)) {
			best = c
		}
	}
	var rejected []Rejection
	for _, c := range cands {
		if !c.zorder && c != best {
			rejected = append(rejected, Rejection{Path: c.label, Reason: loseReason(c, best)})
		}
	}
	// Rule 4: a Z-order index with a bound attribute beats the best prefix
	// path when it probes a smaller fraction of its search space.
	for _, c := range cands {
		if !c.zorder {
			continue
		}
		switch {
		case best == nil: // only Z-order indexes were named by USE_INDEX
			best = c
		case c.prefix == 0:
			rejected = append(rejected, Rejection{Path: c.label, Reason: "no attribute bound"})
		case c.fraction < best.fraction:
			rejected = append(rejected, Rejection{Path: best.label, Reason: fmt.Sprintf("estimated fraction %.3g vs %.3g for %s", best.fraction, c.fraction, c.label)})
			best = c
		default:
			rejected = append(rejected, Rejection{Path: c.label, Reason: fmt.Sprintf("estimated fraction %.3g, not below %.3g of %s", c.fraction, best.fraction, best.label)})
		}
	}
	return best, rejected
}

func hintName(h ir.Hint) string {
	name := "USE_INDEX"
	if !h.Use {
		name = "IGNORE_INDEX"
	}
	return fmt.Sprintf("%s(%s, %s)", name, h.Table, strings.Join(h.Index, ", "))
}

// prefixBetter reports whether a beats b under rule 2/3: a point get on the
// whole primary key, then longer prefix, then covering, then delivering the
// ORDER BY, then fewer shards.
func prefixBetter(a, b *candidate) bool {
	if ap, bp := a.isPointGet(), b.isPointGet(); ap != bp {
		return ap
	}
	if au, bu := a.isUniquePoint(), b.isUniquePoint(); au != bu {
		return au
	}
	if a.prefix != b.prefix {
		return a.prefix > b.prefix
	}
	if a.covering != b.covering {
		return a.covering
	}
	if a.ordered != b.ordered {
		return a.ordered
	}
	return a.shards < b.shards
}

func loseReason(loser, winner *candidate) string {
	switch {
	case winner.isPointGet() && !loser.isPointGet():
		return "primary key fully bound by equality: point get"
	case winner.isUniquePoint() && !loser.isUniquePoint():
		return fmt.Sprintf("unique index %s fully bound by equality: point get", winner.index.Name)
	case loser.prefix != winner.prefix:
		return fmt.Sprintf("prefix %d < %d", loser.prefix, winner.prefix)
	case loser.covering != winner.covering:
		return fmt.Sprintf("prefix %d tie; not covering", loser.prefix)
	case loser.ordered != winner.ordered:
		return fmt.Sprintf("prefix %d tie; does not yield ORDER BY", loser.prefix)
	case loser.shards != winner.shards:
		return fmt.Sprintf("prefix %d tie; %d shards > %d", loser.prefix, loser.shards, winner.shards)
	}
	return fmt.Sprintf("prefix %d tie; declared later", loser.prefix)
}

// keyRanges turns a prefix path's bounds into sort-key ranges: the cross
// product of the point columns, each followed by the range column's
// intervals. It returns ok=false when the product exceeds maxRanges (the
// caller then uses a shorter prefix).
//
// With t non-nil each range also gets its SQL description (Shown); planning
// passes nil and EXPLAIN asks again with the table, so the hot path builds no
// strings.
func keyRanges(t *catalog.Table, keyCols []catalog.KeyColumn, eqLen int, hasRange bool, b bounds, maxRanges int) ([]KeyRange, bool) {
	type prefix struct {
		key   []byte
		shown []string
	}
	prefixes := []prefix{{}}
	for _, k := range keyCols[:eqLen] {
		set := b[k.Column]
		if len(prefixes)*len(set) > maxRanges {
			return nil, false
		}
		if len(set) == 1 {
			// One value (a key lookup's every column): each prefix,
			// its own copy, grows in place.
			for i := range prefixes {
				p := &prefixes[i]
				if p.key == nil {
					p.key = make([]byte, 0, 32)
				}
				p.key = catalog.AppendKeyValue(p.key, set[0].Lo, k.Desc)
				if t != nil {
					p.shown = append(p.shown, colName(t, k.Column)+" = "+literalText(set[0].Lo))
				}
			}
			continue
		}
		next := make([]prefix, 0, len(prefixes)*len(set))
		for _, p := range prefixes {
			for _, iv := range set {
				np := prefix{key: catalog.AppendKeyValue(append([]byte(nil), p.key...), iv.Lo, k.Desc)}
				if t != nil {
					np.shown = append(append([]string(nil), p.shown...), colName(t, k.Column)+" = "+literalText(iv.Lo))
				}
				next = append(next, np)
			}
		}
		prefixes = next
	}
	var out []KeyRange
	if !hasRange {
		for _, p := range prefixes {
			r := KeyRange{prefix: p.key}
			if t != nil {
				r.Shown = strings.Join(p.shown, ", ")
			}
			if len(p.key) > 0 {
				r.Start, r.End = p.key, kv.PrefixEnd(p.key)
			}
			out = append(out, r)
		}
	} else {
		k := keyCols[eqLen]
		set := b[k.Column]
		if len(prefixes)*len(set) > maxRanges {
			return nil, false
		}
		for _, p := range prefixes {
			for _, iv := range set {
				r := intervalRange(p.key, iv, k.Desc)
				r.prefix = p.key
				if t != nil {
					r.Shown = strings.Join(append(append([]string(nil), p.shown...), showInterval(colName(t, k.Column), iv)), ", ")
				}
				out = append(out, r)
			}
		}
	}
	if len(out) > 1 {
		slices.SortFunc(out, func(a, b KeyRange) int { return bytes.Compare(a.Start, b.Start) })
	}
	return out, true
}

func colName(t *catalog.Table, c int) string { return t.Columns[c].Name }

// literalText renders a bound as SQL would write it.
func literalText(v sqltypes.Value) string {
	switch v.K {
	case sqltypes.KindInt, sqltypes.KindFloat, sqltypes.KindBool:
		return sqltypes.FormatText(v)
	}
	return "'" + strings.ReplaceAll(sqltypes.FormatText(v), "'", "''") + "'"
}

// showInterval renders a column's interval: "ts in ['a', 'b')", "x > 5".
func showInterval(col string, iv Interval) string {
	switch {
	case iv.LoUnb && iv.HiUnb:
		return col + " is not null"
	case iv.LoUnb:
		return col + map[bool]string{true: " <= ", false: " < "}[iv.HiInc] + literalText(iv.Hi)
	case iv.HiUnb:
		return col + map[bool]string{true: " >= ", false: " > "}[iv.LoInc] + literalText(iv.Lo)
	}
	return col + " in " + map[bool]string{true: "[", false: "("}[iv.LoInc] + literalText(iv.Lo) + ", " +
		literalText(iv.Hi) + map[bool]string{true: "]", false: ")"}[iv.HiInc]
}

func cat(p []byte, v sqltypes.Value, desc bool) []byte {
	return catalog.AppendKeyValue(append([]byte(nil), p...), v, desc)
}

// intervalRange is the sort-key range of prefix p followed by a column in
// iv. NULLs (first ascending, last descending) are excluded, since a
// comparison never admits them.
func intervalRange(p []byte, iv Interval, desc bool) KeyRange {
	var r KeyRange
	nullKey := cat(p, sqltypes.Null, desc)
	if !desc {
		switch {
		case iv.LoUnb:
			r.Start = kv.PrefixEnd(nullKey)
		case iv.LoInc:
			r.Start = cat(p, iv.Lo, false)
		default:
			r.Start = kv.PrefixEnd(cat(p, iv.Lo, false))
		}
		switch {
		case iv.HiUnb:
			r.End = kv.PrefixEnd(p)
		case iv.HiInc:
			r.End = kv.PrefixEnd(cat(p, iv.Hi, false))
		default:
			r.End = cat(p, iv.Hi, false)
		}
		return r
	}
	switch {
	case iv.HiUnb:
		r.Start = p
	case iv.HiInc:
		r.Start = cat(p, iv.Hi, true)
	default:
		r.Start = kv.PrefixEnd(cat(p, iv.Hi, true))
	}
	switch {
	case iv.LoUnb:
		r.End = nullKey
	case iv.LoInc:
		r.End = kv.PrefixEnd(cat(p, iv.Lo, true))
	default:
		r.End = cat(p, iv.Lo, true)
	}
	if len(r.Start) == 0 {
		r.Start = nil
	}
	return r
}
