package optimizer

import (
	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// TableUse is what one table read of a statement asked of its table, with
// this execution's values: the index advisor's raw material (package
// advisor). The access-path rules see the same bounds.
type TableUse struct {
	Table *catalog.Table
	// Bounds are the values the read's conjuncts allow, per column
	// ordinal (a set of points is an equality or IN list).
	Bounds map[int]ValueSet
	// Needed are the columns the statement reads from the table.
	Needed []int
	// Order is the order the plan above wanted, and Limit the rows it
	// would stop after (0: all).
	Order []ir.SortKey
	Limit int
	// Index is the index read (nil: the table itself) and Method how.
	Index  *catalog.Index
	Method Method
	// Correlated: the read is planned per outer row (a correlated
	// subquery), so Bounds lack the outer values.
	Correlated bool
	// Spatial are the columns of a planar type (point, geometry) that a
	// spatial predicate against a constant confines to a box (&&,
	// ST_Intersects, <@ ...: what a gist index serves), in ordinal order.
	Spatial []int
	// Nearest is the column of an ORDER BY col <-> constant LIMIT k the
	// read could answer by a nearest-neighbour search (-1: none), and
	// NearestK its k.
	Nearest, NearestK int
}

// useSource is what a scan's TableUse is computed from: the conjuncts
// and this execution's values. Computing it only when the advisor's sample
// wants it keeps planning as cheap as without it.
type useSource struct {
	spec  *scanSpec
	ctx   *ir.EvalContext
	limit int
}

// useOf computes a planned scan's TableUse (nil for a scan planned
// without a source, e.g. re-planned per outer row).
func useOf(scan *Scan) *TableUse {
	src := scan.use
	if src.spec == nil {
		return nil
	}
	t := src.spec.Table
	kinds := func(c int) sqltypes.Kind { return t.Columns[c].Type.Kind() }
	bounds, _ := extractBounds(src.spec.Filter, src.ctx, kinds)
	u := &TableUse{Table: t, Bounds: bounds, Needed: src.spec.Needed, Order: src.spec.Order, Limit: src.limit,
		Index: scan.Index, Method: scan.Method, Correlated: scan.Dynamic, Nearest: -1}
	for col := range t.Columns {
		if _, planar := builtins.PlanarTypeOf(t.Columns[col].Type); planar && len(spatialBoxes(ir.Conjuncts(src.spec.Filter), col, src.ctx)) > 0 {
			u.Spatial = append(u.Spatial, col)
		}
	}
	if n := src.spec.Nearest; n != nil {
		if col, _, _, ok := nearestOperand(n.dist); ok {
			u.Nearest, u.NearestK = col, n.k
		}
	}
	return u
}

// Uses lists the table reads of a plan, those of its subqueries included,
// in plan order.
func Uses(p *Plan) []*TableUse {
	if p == nil {
		return nil
	}
	var out []*TableUse
	Walk(p.Root, func(n Node) {
		if s, ok := n.(*Scan); ok {
			if u := useOf(s); u != nil {
				out = append(out, u)
			}
		}
	})
	return out
}

// FullScans counts the plan's full scans of a table (not of an index),
// subqueries included.
func FullScans(p *Plan) int64 {
	if p == nil {
		return 0
	}
	if p.fullScans > 0 {
		return p.fullScans - 1
	}
	var n int64
	Walk(p.Root, func(x Node) {
		if s, ok := x.(*Scan); ok && s.Method == FullScan && s.Index == nil {
			n++
		}
	})
	p.fullScans = n + 1
	return n
}

// Points reports whether a set is a non-empty list of single values (an
// equality or an IN list), and how many.
func (s ValueSet) Points() (int, bool) {
	if !s.allPoints() || len(s) == 0 {
		return 0, false
	}
	return len(s), true
}

// Contains reports whether v lies in the set (NULL lies in none: a
// comparison with NULL is never true).
func (s ValueSet) Contains(v sqltypes.Value) bool {
	if s == nil {
		return true
	}
	if v.IsNull() {
		return false
	}
	for _, iv := range s {
		if !iv.LoUnb {
			if c := sqltypes.Compare(v, iv.Lo); c < 0 || c == 0 && !iv.LoInc {
				continue
			}
		}
		if !iv.HiUnb {
			if c := sqltypes.Compare(v, iv.Hi); c > 0 || c == 0 && !iv.HiInc {
				continue
			}
		}
		return true
	}
	return false
}
