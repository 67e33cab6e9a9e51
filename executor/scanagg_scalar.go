package executor

import (
	"slices"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
)

// scalarFeed feeds an in-scan aggregate's count(*), and its count, sum and
// avg of float columns, from an entry's scalars (kv.ScalarIterator)
// instead of a decoded row: the box aggregate's per-row work was mostly
// building a row's values, reading them back into each aggregate's
// arguments and the calls in between. It adds to the same accumulators,
// with the same arithmetic in the same order (momentAgg.addFloat,
// sumAgg.addFloat), so the results are the general path's bit for bit.
type scalarFeed struct {
	aggs []scalarAgg
}

// scalarAgg is one aggregate fed from the scalars: slot is its argument's
// slot (-1 for count(*)), and one of count, moment and sum its accumulator.
type scalarAgg struct {
	slot   int
	count  *countAgg
	moment *momentAgg
	sum    *sumAgg
}

// newScalarFeed returns the feed of aggs over the scan of t whose decoder
// fills cols (catalog.RowDecoder.Columns: the scalars' slots), or nil when
// some aggregate is not one it feeds: a FILTER, DISTINCT or ORDER BY, an
// argument that is not a float column the scan reads, a column with a
// default for rows written before it (its absent attribute is not NULL),
// another accumulator.
func newScalarFeed(t *catalog.Table, cols []int, aggs []*aggInstance) *scalarFeed {
	f := &scalarFeed{}
	for _, in := range aggs {
		c := in.call
		if c.Filter != nil || c.Distinct || len(c.OrderBy) > 0 || c.User != nil {
			return nil
		}
		a := scalarAgg{slot: -1}
		if c.Func != ir.AggCountStar {
			if len(c.Args) != 1 {
				return nil
			}
			ref, ok := c.Args[0].(*ir.ColRef)
			if !ok || ref.Index < 0 || ref.Index >= len(t.Columns) {
				return nil
			}
			col := &t.Columns[ref.Index]
			if col.Type.Kind() != sqltypes.KindFloat || col.Missing != "" {
				return nil
			}
			if a.slot = slices.Index(cols, ref.Index); a.slot < 0 {
				return nil
			}
		}
		switch acc := in.acc.(type) {
		case *countAgg:
			if acc.star != (a.slot < 0) {
				return nil
			}
			a.count = acc
		case *momentAgg:
			a.moment = acc
		case *sumAgg:
			a.sum = acc
		default:
			return nil
		}
		if a.slot < 0 && a.count == nil {
			return nil
		}
		f.aggs = append(f.aggs, a)
	}
	return f
}

// feed adds one entry's scalars to the aggregates and reports true, or
// reports false, adding nothing, when an argument's attribute is neither
// a float nor NULL (the caller then decodes the row and feeds it as ever).
func (f *scalarFeed) feed(sc []kv.Scalar) bool {
	for i := range f.aggs {
		if j := f.aggs[i].slot; j >= 0 && sc[j].Present && sc[j].Kind != kv.AttrFloat && sc[j].Kind != kv.AttrNull {
			return false
		}
	}
	for i := range f.aggs {
		a := &f.aggs[i]
		if a.slot < 0 {
			a.count.n++ // count(*)
			continue
		}
		s := &sc[a.slot]
		if !s.Present || s.Kind == kv.AttrNull {
			continue // NULL: no aggregate here counts it
		}
		switch {
		case a.count != nil:
			a.count.n++
		case a.moment != nil:
			a.moment.addFloat(s.F)
		default:
			a.sum.addFloat(s.F)
		}
	}
	return true
}
