package optimizer

import (
	"fmt"
	"slices"
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/zorder"
)

// planScan chooses the access path of one table scan by the rules and
// computes its key ranges with this execution's parameter values.
func planScan(s *scanSpec, ctx *ir.EvalContext, opts Options, notices *[]*pgerr.Error) (*Scan, error) {
	return planScanAgain(s, nil, ctx, opts, notices)
}

// errViewChanged refuses to plan a generic plan's scan again with a view
// of the table other than the one its path was chosen in (indexView.again).
var errViewChanged = pgerr.New(pgerr.InternalError, "the values change the partial indexes the filter implies")

// planScanAgain is planScan, with the view of the table's index
// expressions made from prev (nil: none made before) when it has one.
func planScanAgain(s *scanSpec, prev *indexView, ctx *ir.EvalContext, opts Options, notices *[]*pgerr.Error) (*Scan, error) {
	orig := s.Table
	conj := ir.Conjuncts(s.Filter)
	origSpec, origConj := s, conj
	var view *indexView
	var err error
	if prev != nil {
		if view = prev.again(orig, ctx, opts); view == nil {
			return nil, errViewChanged
		}
	} else if view, err = newIndexView(s, ctx, opts); err != nil {
		return nil, err
	}
	if view != nil {
		// The rules see the table's index expressions as columns
		// (indexexpr.go); the scan node keeps the table and its indexes.
		vs := *s
		vs.Table, vs.Filter = view.ext, andAll(view.rew)
		s = &vs
		conj = view.rew
	}
	t := s.Table
	kinds := func(c int) sqltypes.Kind { return t.Columns[c].Type.Kind() }
	b, exact := extractBounds(s.Filter, ctx, kinds)
	if neverTrue(s.Filter, ctx) {
		b.emptyAll(len(t.Columns))
	}
	if opts.MaxPoints <= 0 {
		opts.MaxPoints = DefaultMaxPoints
	}

	d, hint, err := choose(s, b, opts, notices)
	if err != nil {
		return nil, err
	}
	best := d.winner
	if view != nil {
		d.rejected = append(d.rejected, view.skipped...)
	}
	var nearest *NearestQuery
	if s.Nearest != nil && !hint.forced && !best.isPointGet() && !best.isUniquePoint() &&
		!(opts.Disabled.Has(MethodIndexScan) && opts.AllowFullScan) {
		// A gist index answers ORDER BY col <-> point LIMIT k by reading
		// outward from the point: any other path reads every row its
		// bounds admit and sorts them (nearest.go).
		if c, q := nearestPath(s, orig, b, view, opts); c != nil {
			// The gist index itself is no longer among the rejected.
			d.rejected = slices.DeleteFunc(d.rejected, func(r Rejection) bool { return r.Path == c.label })
			d.rejected = append(d.rejected, Rejection{Path: best.label, Reason: "reads every row its bounds admit to sort them for " + s.Nearest.why})
			best, nearest = c, q
			d.winner = c
			d.reason = "nearest-neighbour search: " + s.Nearest.why + " reads " + c.label + " outward from the point, ring by ring"
		}
	}
	scanInv, lostInv := invertedScan(origSpec, origConj, ctx, opts, d, hint)
	if scanInv != nil {
		return scanInv, nil
	}
	d.rejected = append(d.rejected, lostInv...)
	scan := &Scan{Table: orig, Alias: s.Alias, Index: view.index(best.index), Needed: s.Needed, Rejected: d.rejected, Hint: hint.note, cols: tableCols(orig),
		Estimate: best.fraction, Covering: best.covering, Reverse: best.reverse, Ordered: best.ordered, Reason: d.reason}
	scan.Lookup = best.index != nil && !best.covering
	if best.cost > 0 || best.rows > 0 || best.items > 0 {
		scan.Estimated = &Estimate{Rows: best.rows, Items: best.items, Requests: best.requests, Cost: best.cost}
		if unit := opts.Caps.ReadUnitBytes; unit > 0 && opts.Stats != nil {
			// The capacity of the path taken only: the candidates
			// compare by cost.
			scan.Estimated.Capacity = best.readCapacity(t, opts.Stats(t.ID), float64(unit))
		}
	} else {
		// No statistics: EXPLAIN's costs assume a table of unanalyzedRows
		// and PostgreSQL's default selectivities (a copy: the estimate
		// must not change the path chosen).
		assumed := *best
		assumed.estimate(t, b, &accessContext{opts: opts, stats: &catalog.TableStats{Rows: unanalyzedRows}, assumed: true}, s.Limit, len(s.Order) > 0)
		if r := float64(assumed.ranges); (assumed.isPointGet() || assumed.isUniquePoint()) && r < assumed.rows {
			// A key fully bound finds at most a row per key.
			assumed.items *= r / assumed.rows
			assumed.rows = r
			assumed.cost = assumed.items + assumed.requests*requestWeight(opts)
		}
		scan.Assumed = &Estimate{Rows: assumed.rows, Items: assumed.items, Requests: assumed.requests, Cost: assumed.cost}
	}

	// Conjuncts the key ranges enforce exactly need no residual check.
	enforced := map[int]bool{}
	switch {
	case best.zorder:
		scan.ZSchema, scan.ZBox, scan.ZClipped, scan.ZBudget = best.zschema, best.zbox, best.clipped, best.budgetNote
		scan.ZData = best.dataBox
		if g := scan.Index.Gist; g != nil && view != nil {
			scan.ZRangeBox = view.rangeBoxes[g.Column]
		}
		scan.Method = ZOrderRanges
		if opts.Caps.CheapSeek {
			scan.Method = ZOrderSkipScan
		}
		if nearest != nil {
			// The rings' ranges are the executor's: each follows from
			// the rows the one before found.
			// Its reads follow from the rows, not from a box: no
			// estimate of the box's (the cost model sizes it: cost.go).
			scan.Method, scan.Nearest, scan.Estimated = ZOrderNearest, nearest, nil
			break
		}
		for _, r := range best.cover.Ranges {
			scan.Ranges = append(scan.Ranges, KeyRange{Start: r.Lo, End: r.Hi})
		}
		if view == nil && !hint.forced {
			scan.TopN = topNQuery(s, best, opts)
		}
	default:
		// The candidate was fitted to the IN-list cap before the rules saw it.
		eqLen, hasRange := best.eqLen, best.hasRange
		ranges, _ := keyRanges(nil, best.keyCols, eqLen, hasRange, b, opts.MaxPoints)
		scan.describe = describeRanges(t, best, b, opts.MaxPoints)
		for _, k := range best.keyCols[:best.prefix] {
			enforced[k.Column] = true
		}
		switch {
		case best.isPointGet():
			scan.Method = PointGet
			for _, r := range ranges {
				scan.Points = append(scan.Points, r.Start)
			}
			scan.Ordered = false
		case best.isUniquePoint():
			// One entry per key: a point get of the entry (then of the row
			// unless covering).
			scan.Method = PointGet
			for _, r := range ranges {
				scan.Points = append(scan.Points, r.Start)
			}
			scan.Ordered = false
		case best.prefix == 0:
			scan.Method = FullScan
			scan.Ranges = []KeyRange{{}}
		default:
			scan.Method = RangeScan
			scan.Ranges = ranges
		}
		if nearest != nil {
			// An XZ index's rings: the executor reads its code ranges
			// within these, the ranges the filter's bounds leave.
			scan.Method, scan.Nearest, scan.Estimated, scan.Ordered = XZNearest, nearest, nil, false
		}
	}
	if len(t.PrimaryKey) > 0 && scan.Method == FullScan && best.index == nil {
		if !opts.AllowFullScan && s.Filter != nil {
			return nil, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "full scan of table %q refused: zproxy.allow_full_scan is off", t.Name).
				WithHint("%s", suggestion(t, b))
		}
		if s.Filter != nil {
			*notices = append(*notices, pgerr.Notice("full scan of table %q: %s", t.Name, suggestion(t, b)))
		}
	}
	scan.Shards, scan.ShardNote = scanShards(t, best, scan)
	if t.RowIDKeyed() && best.index == nil && !scan.Ordered && len(scan.Shards) > 1 && (scan.Method == FullScan || scan.Method == RangeScan) {
		// A table without a primary key reads back in insertion order,
		// as a PostgreSQL heap does: its row ids grow as rows are
		// inserted (catalog.NextRowID), and its shards are merged by them.
		scan.InsertionOrder = true
	}
	if best.zorder {
		// The executor tests every entry against the box; where an
		// attribute's code is lossless and its bound a single interval, that
		// test is exactly the column's predicates.
		for i, k := range best.index.Columns {
			if set := b[k.Column]; len(set) == 1 && losslessZ(t.Columns[k.Column].Type, best.zschema.Attr(i)) {
				enforced[k.Column] = true
			}
		}
	}
	// Residual: every conjunct not enforced exactly by the key ranges or
	// the box.
	var residual []ir.Expr
	for i, c := range conj {
		if col, ok := exact[c]; ok && enforced[col] {
			continue
		}
		if v, ok := c.(*ir.Const); ok && v.V.K == sqltypes.KindBool && v.V.Bool() {
			continue // folded to true (a > 0 OR true): no filter, as PostgreSQL shows none
		}
		if v, ok := c.(*ir.Const); ok && (v.V.IsNull() || v.V.K == sqltypes.KindBool) {
			// Folded to false or NULL: no row qualifies whatever the
			// rest, the scan reads nothing (neverTrue), and its filter
			// is PostgreSQL's One-Time Filter: false.
			residual = []ir.Expr{&ir.Const{V: sqltypes.NewBool(false), Typ: sqltypes.TypeBool}}
			break
		}
		if view != nil && i >= view.derived {
			continue // a gist box's bound, implied by a conjunct kept
		}
		if r, ok := view.exactBox(i); ok && allEnforced(conj[r[0]:r[1]], exact, enforced) {
			continue // the box is the conjunct (p && box on points), and the scan tests it
		}
		if view != nil {
			c = view.conj[i] // evaluated on the table's row
		}
		residual = append(residual, c)
	}
	scan.Residual = andAll(residual)
	if best.zorder && nearest == nil && s.outNeed != nil && len(residual) < len(conj) {
		// A conjunct the box enforces reads no column of the entries:
		// the scan decodes what its residual and the nodes above read
		// (not the point of a box over a covering gist index).
		read := neededOf(s.outNeed, scan.Residual)
		scan.Needed = slices.DeleteFunc(slices.Clone(s.Needed), func(c int) bool { return !slices.Contains(read, c) })
	}
	if view == nil && nearest == nil && !best.zorder {
		// Its ranges follow from the bounds alone: a generic plan derives
		// them for other values (generic.go).
		d := &scanDerivation{spec: s, best: best, enforced: map[ir.Expr]int{}, maxPoints: opts.MaxPoints}
		for c, col := range exact {
			if enforced[col] {
				d.enforced[c] = col
			}
		}
		d.prepare()
		scan.derive = d
	} else {
		// A Z-order box, a nearest search, an index expression's bounds:
		// a generic plan plans the scan again for other values and keeps
		// it only on this path (generic.go).
		scan.replan = &scanReplan{spec: origSpec, view: view}
	}
	return scan, nil
}

// allEnforced reports whether every conjunct of cs is a bound the scan's
// ranges or box enforce exactly.
func allEnforced(cs []ir.Expr, exact map[ir.Expr]int, enforced map[int]bool) bool {
	for _, c := range cs {
		if col, ok := exact[c]; !ok || !enforced[col] {
			return false
		}
	}
	return true
}

// rangeDescription is what EXPLAIN's account of a prefix path's ranges
// follows from, kept in the scan (no closure: a generic plan's every
// execution would allocate one) and computed when EXPLAIN asks.
type rangeDescription struct {
	t         *catalog.Table // nil: none
	keyCols   []catalog.KeyColumn
	eqLen     int
	hasRange  bool
	b         bounds
	maxPoints int
	// conj and ctx, when b is nil, are what b follows from: a keyed
	// generic plan's instance (generic.go) derives no bounds until
	// EXPLAIN asks.
	conj []ir.Expr
	ctx  *ir.EvalContext
}

func describeRanges(t *catalog.Table, best *candidate, b bounds, maxPoints int) rangeDescription {
	return rangeDescription{t: t, keyCols: best.keyCols, eqLen: best.eqLen, hasRange: best.hasRange, b: b, maxPoints: maxPoints}
}

// shown describes each range.
func (r *rangeDescription) shown() []string {
	b := r.b
	if b == nil && r.conj != nil {
		t := r.t
		b = conjunctBounds(r.conj, r.ctx, func(c int) sqltypes.Kind { return t.Columns[c].Type.Kind() }, func(int, int) {})
	}
	described, _ := keyRanges(r.t, r.keyCols, r.eqLen, r.hasRange, b, r.maxPoints)
	out := make([]string, len(described))
	for i, d := range described {
		out[i] = d.Shown
	}
	return out
}

// losslessZ reports whether a Z-order attribute's code tells every value of
// type t apart, so a box bound on it is exactly the SQL bound: numbers, times
// and booleans whose code has room for every value (and, when nullable, for
// NULL too, or the two largest values share a code); floats at 64 bits, whose
// shared top code belongs to NaN payloads zproxy never stores; never text,
// bytea or uuid, which keep a prefix.
func losslessZ(t sqltypes.Type, a zorder.Attr) bool {
	w := a.Width
	if w <= 0 || w > zorder.MaxWidth {
		w = zorder.DefaultWidth(a.Type, a.Nullable)
	}
	need := 0
	switch t.ID {
	case sqltypes.Float4, sqltypes.Float8:
		return w == 64
	case sqltypes.Bool:
		need = 1
	case sqltypes.Int2:
		need = 16
	case sqltypes.Int4, sqltypes.Date:
		need = 32
	case sqltypes.Int8, sqltypes.Timestamp, sqltypes.TimestampTZ:
		need = 64
	default:
		return false
	}
	if a.Nullable {
		need++
	}
	return w >= need
}

// prefixShape describes a bound key prefix: "2 equalities and a range".
func prefixShape(eq int, hasRange bool) string {
	if eq == 0 {
		return "a range"
	}
	out := fmt.Sprintf("%d equalit%s", eq, map[bool]string{true: "y", false: "ies"}[eq == 1])
	if hasRange {
		out += " and a range"
	}
	return out
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// suggestion names an index that would have served the filter's bounds.
func suggestion(t *catalog.Table, b bounds) string {
	var cols []string
	for c := range t.Columns {
		if set, ok := b[c]; ok && set != nil {
			cols = append(cols, t.Columns[c].Name)
		}
	}
	if len(cols) == 0 {
		return "no predicate bounds a column; every row is read"
	}
	if len(cols) == 1 {
		return fmt.Sprintf("an index on (%s) would help", cols[0])
	}
	return fmt.Sprintf("an index on (%s), or a Z-order index USING zorder (%s), would help", strings.Join(cols, ", "), strings.Join(cols, ", "))
}
