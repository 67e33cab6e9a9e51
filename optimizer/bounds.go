package optimizer

import (
	"sort"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
)

// Interval is a range of one column's values. A missing bound (LoUnb,
// HiUnb) is unbounded. Points are intervals with Lo == Hi, both inclusive.
type Interval struct {
	Lo, Hi       sqltypes.Value
	LoInc, HiInc bool
	LoUnb, HiUnb bool
}

// IsPoint reports whether iv holds exactly one value.
func (iv Interval) IsPoint() bool {
	return !iv.LoUnb && !iv.HiUnb && iv.LoInc && iv.HiInc && sqltypes.Compare(iv.Lo, iv.Hi) == 0
}

func (iv Interval) empty() bool {
	if iv.LoUnb || iv.HiUnb {
		return false
	}
	c := sqltypes.Compare(iv.Lo, iv.Hi)
	return c > 0 || (c == 0 && !(iv.LoInc && iv.HiInc))
}

// ValueSet is a sorted union of disjoint intervals of one column. A nil
// set means "unconstrained"; an empty non-nil set matches nothing.
type ValueSet []Interval

var unconstrained ValueSet

// allPoints reports whether every interval is a point.
func (s ValueSet) allPoints() bool {
	for _, iv := range s {
		if !iv.IsPoint() {
			return false
		}
	}
	return s != nil
}

func intersectIntervals(a, b Interval) Interval {
	out := a
	if !b.LoUnb {
		if out.LoUnb {
			out.Lo, out.LoInc, out.LoUnb = b.Lo, b.LoInc, false
		} else if c := sqltypes.Compare(b.Lo, out.Lo); c > 0 || (c == 0 && !b.LoInc) {
			out.Lo, out.LoInc = b.Lo, b.LoInc
		}
	}
	if !b.HiUnb {
		if out.HiUnb {
			out.Hi, out.HiInc, out.HiUnb = b.Hi, b.HiInc, false
		} else if c := sqltypes.Compare(b.Hi, out.Hi); c < 0 || (c == 0 && !b.HiInc) {
			out.Hi, out.HiInc = b.Hi, b.HiInc
		}
	}
	return out
}

// intersect returns the values in both sets.
func intersect(a, b ValueSet) ValueSet {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	out := ValueSet{}
	for _, x := range a {
		for _, y := range b {
			if iv := intersectIntervals(x, y); !iv.empty() {
				out = append(out, iv)
			}
		}
	}
	return normalize(out)
}

// union returns the values in either set (nil, unconstrained, absorbs all).
func union(a, b ValueSet) ValueSet {
	if a == nil || b == nil {
		return nil
	}
	out := append(append(ValueSet{}, a...), b...)
	return normalize(out)
}

// normalize sorts intervals by lower bound and merges overlapping ones.
func normalize(s ValueSet) ValueSet {
	if len(s) < 2 {
		return s
	}
	sort.Slice(s, func(i, j int) bool { return lowerLess(s[i], s[j]) })
	out := ValueSet{s[0]}
	for _, iv := range s[1:] {
		last := &out[len(out)-1]
		if overlapsOrTouches(*last, iv) {
			if iv.HiUnb {
				last.HiUnb = true
			} else if !last.HiUnb {
				if c := sqltypes.Compare(iv.Hi, last.Hi); c > 0 || (c == 0 && iv.HiInc) {
					last.Hi, last.HiInc = iv.Hi, iv.HiInc
				}
			}
			continue
		}
		out = append(out, iv)
	}
	return out
}

func lowerLess(a, b Interval) bool {
	if a.LoUnb != b.LoUnb {
		return a.LoUnb
	}
	if a.LoUnb {
		return false
	}
	c := sqltypes.Compare(a.Lo, b.Lo)
	return c < 0 || (c == 0 && a.LoInc && !b.LoInc)
}

// overlapsOrTouches reports whether b (starting at or after a) overlaps a.
func overlapsOrTouches(a, b Interval) bool {
	if a.HiUnb || b.LoUnb {
		return true
	}
	c := sqltypes.Compare(b.Lo, a.Hi)
	return c < 0 || (c == 0 && (a.HiInc || b.LoInc))
}

// bounds maps column ordinal → the values the WHERE clause allows.
type bounds map[int]ValueSet

// extractBounds derives per-column value sets from a filter's conjuncts. It
// also reports which conjuncts are exactly captured by their column's set,
// so a path that enforces that column through its key needs no residual
// check for them.
func extractBounds(filter ir.Expr, ctx *ir.EvalContext, colKinds func(int) sqltypes.Kind) (bounds, map[ir.Expr]int) {
	exact := map[ir.Expr]int{}
	conj := ir.Conjuncts(filter)
	b := conjunctBounds(conj, ctx, colKinds, func(i, col int) { exact[conj[i]] = col })
	return b, exact
}

// conjunctBounds is extractBounds over a filter's conjuncts, calling
// exact(i, col) for each conjunct i its column's set captures exactly.
func conjunctBounds(conj []ir.Expr, ctx *ir.EvalContext, colKinds func(int) sqltypes.Kind, exact func(i, col int)) bounds {
	b := bounds{}
	for i, c := range conj {
		col, set, isExact, ok := conjunctSet(c, ctx, colKinds)
		if !ok {
			continue
		}
		if cur, has := b[col]; has {
			b[col] = intersect(cur, set)
		} else {
			b[col] = set
		}
		if isExact {
			exact(i, col)
		}
	}
	return b
}

// neverTrue reports whether a conjunct of filter is a constant that is false
// or NULL (WHERE false; f(x) > NULL, which binding folds to NULL): then no
// row qualifies, and the scan reads nothing, where PostgreSQL plans a
// One-Time Filter: false.
func neverTrue(filter ir.Expr, ctx *ir.EvalContext) bool {
	conj := ir.Conjuncts(filter)
	for _, c := range conj {
		if nullComparison(c) {
			return true
		}
	}
	return someFalse(constantConjuncts(conj), ctx)
}

// nullComparison reports whether e compares with a NULL constant (x =
// NULL): the comparison operators are strict, so it is NULL whatever the
// row, which PostgreSQL's planner folds to a one-time filter.
func nullComparison(e ir.Expr) bool {
	b, ok := e.(*ir.Binary)
	if !ok {
		return false
	}
	switch b.Op {
	case ir.OpEq, ir.OpNe, ir.OpLt, ir.OpLe, ir.OpGt, ir.OpGe:
		return nullConst(b.L) || nullConst(b.R)
	}
	return false
}

// nullConst reports whether e is a NULL constant, cast or not.
func nullConst(e ir.Expr) bool {
	switch x := e.(type) {
	case *ir.Const:
		return x.V.IsNull()
	case *ir.Cast:
		return nullConst(x.E)
	}
	return false
}

// constantConjuncts are the conjuncts that read no column and are constant
// for a statement: those neverTrue evaluates.
func constantConjuncts(conj []ir.Expr) []ir.Expr {
	var out []ir.Expr
	for _, c := range conj {
		if len(ir.Columns(c)) == 0 && ir.IsStatementConstant(c) {
			out = append(out, c)
		}
	}
	return out
}

// someFalse reports whether one of the constant conjuncts is false or NULL
// under ctx.
func someFalse(constant []ir.Expr, ctx *ir.EvalContext) bool {
	for _, c := range constant {
		if v, err := c.Eval(ctx, nil); err == nil && (v.IsNull() || v.K == sqltypes.KindBool && !v.Bool()) {
			return true
		}
	}
	return false
}

// emptyAll bounds every one of width columns by the empty set.
func (b bounds) emptyAll(width int) {
	for c := 0; c < width; c++ {
		b[c] = ValueSet{}
	}
}

// conjunctSet translates one conjunct over a single column into a set.
func conjunctSet(e ir.Expr, ctx *ir.EvalContext, colKinds func(int) sqltypes.Kind) (col int, set ValueSet, exact, ok bool) {
	switch x := e.(type) {
	case *ir.Binary:
		if x.Op == ir.OpOr {
			// Gather every disjunct's intervals, then sort and merge once:
			// merging pairwise would be quadratic in the number of terms.
			col = -1
			acc := ValueSet{}
			exact = true
			for _, d := range ir.Disjuncts(x) {
				c, s, ex, ok := conjunctSet(d, ctx, colKinds)
				if !ok || s == nil || (col >= 0 && c != col) {
					return 0, nil, false, false
				}
				col = c
				acc = append(acc, s...)
				exact = exact && ex
			}
			return col, normalize(acc), exact, col >= 0
		}
		if x.Op == ir.OpAnd {
			// A nested AND over one column (BETWEEN) intersects.
			c1, s1, e1, ok1 := conjunctSet(x.L, ctx, colKinds)
			c2, s2, e2, ok2 := conjunctSet(x.R, ctx, colKinds)
			if ok1 && ok2 && c1 == c2 {
				return c1, intersect(s1, s2), e1 && e2, true
			}
			return 0, nil, false, false
		}
		op := x.Op
		cr, okL := x.L.(*ir.ColRef)
		other := x.R
		if !okL {
			cr, okL = x.R.(*ir.ColRef)
			other = x.L
			op = flip(op)
		}
		if !okL {
			// date_trunc('day', ts) = '2024-01-01' is a range on ts.
			if col, set, ok := truncationBound(x, ctx); ok {
				return col, set, false, true
			}
			return 0, nil, false, false
		}
		if !ir.IsStatementConstant(other) {
			return 0, nil, false, false
		}
		v, err := other.Eval(ctx, nil)
		if err != nil {
			return 0, nil, false, false
		}
		if op == ir.OpNotDistinct {
			if v.IsNull() {
				// x IS NOT DISTINCT FROM NULL is x IS NULL: no key range.
				return 0, nil, false, false
			}
			op = ir.OpEq // against a value it is plain equality
		}
		if v.IsNull() {
			return cr.Index, ValueSet{}, true, true // comparison with NULL is never true
		}
		v, ok := keyValue(v, colKinds(cr.Index))
		if !ok {
			// An integer column against 2.5: k < 2.5 is k <= 2.
			set, ok := roundedBound(op, v, colKinds(cr.Index))
			return cr.Index, set, ok, ok
		}
		switch op {
		case ir.OpEq:
			return cr.Index, ValueSet{{Lo: v, Hi: v, LoInc: true, HiInc: true}}, true, true
		case ir.OpLt:
			return cr.Index, ValueSet{{Hi: v, LoUnb: true}}, true, true
		case ir.OpLe:
			return cr.Index, ValueSet{{Hi: v, HiInc: true, LoUnb: true}}, true, true
		case ir.OpGt:
			return cr.Index, ValueSet{{Lo: v, HiUnb: true}}, true, true
		case ir.OpGe:
			return cr.Index, ValueSet{{Lo: v, LoInc: true, HiUnb: true}}, true, true
		}
	case *ir.Func:
		if col, set, ok := rangeOperatorSet(x, ctx); ok {
			return col, set, false, true
		}
		if col, set, exact, ok := ltreeBound(x, ctx, colKinds); ok {
			return col, set, exact, ok
		}
		return subnetBound(x, ctx, colKinds)
	case *ir.InList:
		cr, ok := x.E.(*ir.ColRef)
		if !ok || x.Neg {
			return 0, nil, false, false
		}
		set := ValueSet{}
		for _, item := range x.List {
			if !ir.IsStatementConstant(item) {
				return 0, nil, false, false
			}
			v, err := item.Eval(ctx, nil)
			if err != nil {
				return 0, nil, false, false
			}
			if v.IsNull() {
				continue
			}
			kvv, ok := keyValue(v, colKinds(cr.Index))
			if !ok {
				if set, ok := roundedBound(ir.OpEq, v, colKinds(cr.Index)); ok && len(set) == 0 {
					continue // 2.5 is no integer column's value
				}
				return 0, nil, false, false
			}
			set = append(set, Interval{Lo: kvv, Hi: kvv, LoInc: true, HiInc: true})
		}
		return cr.Index, normalize(set), true, true
	case *ir.IsNull:
		cr, ok := x.E.(*ir.ColRef)
		if !ok {
			return 0, nil, false, false
		}
		if x.Neg {
			// IS NOT NULL: every value; key ranges then skip the NULLs.
			return cr.Index, ValueSet{{LoUnb: true, HiUnb: true}}, true, true
		}
		return 0, nil, false, false
	case *ir.Like:
		cr, ok := x.E.(*ir.ColRef)
		if !ok || x.Neg || x.CaseInsensitive || !ir.IsStatementConstant(x.Pattern) || colKinds(cr.Index) != sqltypes.KindText {
			return 0, nil, false, false
		}
		p, err := x.Pattern.Eval(ctx, nil)
		if err != nil || p.K != sqltypes.KindText {
			return 0, nil, false, false
		}
		prefix, only := ir.LikePrefix(p.S, x.Escape)
		if prefix == "" {
			return 0, nil, false, false
		}
		iv := Interval{Lo: sqltypes.NewText(prefix), LoInc: true}
		if end := kv.PrefixEnd([]byte(prefix)); end != nil {
			iv.Hi = sqltypes.NewText(string(end))
		} else {
			iv.HiUnb = true
		}
		return cr.Index, ValueSet{iv}, only, true
	}
	return 0, nil, false, false
}

// subnetBound is the key range of an inet column within a network: col
// << N, col <<= N (or N >> col, N >>= col) lie between N's network
// address and its broadcast address (sqltypes.InetSubnetBounds), as
// PostgreSQL's btree serves them through network_subset_support. The
// operator stays as the filter (exact false), as PostgreSQL rechecks it.
func subnetBound(f *ir.Func, ctx *ir.EvalContext, colKinds func(int) sqltypes.Kind) (col int, set ValueSet, exact, ok bool) {
	if !f.Infix || len(f.Args) != 2 {
		return 0, nil, false, false
	}
	colArg, netArg := f.Args[0], f.Args[1]
	switch f.Name {
	case "<<", "<<=":
	case ">>", ">>=":
		colArg, netArg = netArg, colArg
	default:
		return 0, nil, false, false
	}
	if c, isCast := colArg.(*ir.Cast); isCast && c.To.ID == sqltypes.Inet && c.E.Type().ID == sqltypes.Cidr {
		colArg = c.E // a cidr column read as inet: the same values, the same keys
	}
	cr, isCol := colArg.(*ir.ColRef)
	if !isCol || colKinds(cr.Index) != sqltypes.KindInet || netArg.Type().Kind() != sqltypes.KindInet || !ir.IsStatementConstant(netArg) {
		return 0, nil, false, false
	}
	v, err := netArg.Eval(ctx, nil)
	if err != nil {
		return 0, nil, false, false
	}
	if v.IsNull() {
		return cr.Index, ValueSet{}, true, true // never true
	}
	lo, hi := sqltypes.InetSubnetBounds(v)
	return cr.Index, ValueSet{{Lo: lo, Hi: hi, LoInc: true, HiInc: true}}, false, true
}

// ltreeBound is the key set of an ltree column against a constant path P
// (ltree's gist class's <@ and @>, which an ordered index serves since an
// ltree keys by its dotted text, ltree_cmp's order): col <@ P (P @> col),
// P's subtree, is P itself and the paths after "P." and before "P/"
// ('/' follows '.', and no label byte sorts below '.'); col @> P (P <@
// col), P's ancestors, are P's prefixes of whole labels, one key each.
// The operator stays the filter (exact false), as PostgreSQL rechecks it.
func ltreeBound(f *ir.Func, ctx *ir.EvalContext, colKinds func(int) sqltypes.Kind) (col int, set ValueSet, exact, ok bool) {
	if !f.Infix || len(f.Args) != 2 || f.Name != "<@" && f.Name != "@>" {
		return 0, nil, false, false
	}
	colArg, pathArg, descendants := f.Args[0], f.Args[1], f.Name == "<@"
	if _, isCol := colArg.(*ir.ColRef); !isCol {
		colArg, pathArg, descendants = pathArg, colArg, !descendants
	}
	cr, isCol := colArg.(*ir.ColRef)
	if !isCol || colKinds(cr.Index) != sqltypes.KindLtree || pathArg.Type().ID != sqltypes.Ltree || !ir.IsStatementConstant(pathArg) {
		return 0, nil, false, false
	}
	v, err := pathArg.Eval(ctx, nil)
	if err != nil {
		return 0, nil, false, false
	}
	if v.IsNull() {
		return cr.Index, ValueSet{}, true, true // never true
	}
	if descendants {
		if v.S == "" {
			return cr.Index, ValueSet{{LoUnb: true, HiUnb: true}}, false, true // every path
		}
		return cr.Index, ValueSet{{Lo: v, LoInc: true, Hi: sqltypes.NewLtree(v.S + "/")}}, false, true
	}
	set = ValueSet{{Lo: sqltypes.NewLtree(""), Hi: sqltypes.NewLtree(""), LoInc: true, HiInc: true}}
	for i := 0; i <= len(v.S); i++ {
		if i == len(v.S) || v.S[i] == '.' {
			p := sqltypes.NewLtree(v.S[:i])
			set = append(set, Interval{Lo: p, Hi: p, LoInc: true, HiInc: true})
		}
	}
	return cr.Index, normalize(set), false, true
}

func flip(op ir.BinOp) ir.BinOp {
	switch op {
	case ir.OpLt:
		return ir.OpGt
	case ir.OpLe:
		return ir.OpGe
	case ir.OpGt:
		return ir.OpLt
	case ir.OpGe:
		return ir.OpLe
	}
	return op
}

// keyValue converts a bound to the column's value kind, when that is exact:
// a float column compares with a numeric as float8 (PostgreSQL's cast), a
// numeric column with an integer exactly, an integer column with a whole
// numeric or float exactly.
func keyValue(v sqltypes.Value, k sqltypes.Kind) (sqltypes.Value, bool) {
	if v.K == k {
		return v, true
	}
	switch {
	case k == sqltypes.KindFloat && (v.K == sqltypes.KindInt || v.K == sqltypes.KindNumeric):
		return sqltypes.NewFloat(v.AsFloat()), true
	case k == sqltypes.KindNumeric && v.K == sqltypes.KindInt:
		return sqltypes.NumericFromInt(v.I), true
	case k == sqltypes.KindInt && (v.K == sqltypes.KindNumeric || v.K == sqltypes.KindFloat):
		if i, ok := wholeInt(v); ok {
			return sqltypes.NewInt(i), true
		}
	case (k == sqltypes.KindTimestamp || k == sqltypes.KindTimestampTZ) && (v.K == sqltypes.KindTimestamp || v.K == sqltypes.KindTimestampTZ):
		return sqltypes.Value{K: k, I: v.I}, true
	}
	return v, false
}
