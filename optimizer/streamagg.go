package optimizer

import (
	"sort"
	"strings"

	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// Streaming aggregation. GROUP BY date_trunc('hour', ts) over rows that
// arrive ordered by ts needs no hash table: the groups are runs of the
// input, because date_trunc never decreases as ts grows. The aggregate
// asks its input for an order on the group keys' source columns; when the
// access path delivers it (a key range on (sensor_id, ts), read forward or
// backward), groups are emitted as they end, memory stays one group, and
// the output comes in the group keys' order, so an ORDER BY on them (and a
// LIMIT) needs no sort.

// keySource is what a GROUP BY item orders with: an input column, the
// direction the item moves in as the column grows (+1, or -1 for -ts),
// and whether the item determines the column's value (the column itself)
// or only follows its order (date_trunc of it).
type keySource struct {
	col       int
	dir       int
	injective bool
}

// monotoneUnits are the extract fields that never decrease as a timestamp
// grows.
var monotoneUnits = map[string]bool{"epoch": true, "year": true, "decade": true, "century": true, "millennium": true, "julian": true}

// groupKeySource returns the input column a group key is a monotone
// function of: the column itself; date_trunc, date_bin, floor, ceil,
// round and trunc of such a function; extract or date_part of its epoch
// or year; the function plus, minus, times or divided by a constant; its
// negation; its cast to another number type or a timestamp to a date.
// Grafana's $__timeGroup, floor(extract(epoch from ts)/300)*300, is one.
func groupKeySource(e ir.Expr) (keySource, bool) {
	constSign := func(x ir.Expr) int {
		c, ok := x.(*ir.Const)
		if !ok || c.V.IsNull() || !c.Typ.IsNumeric() {
			return 0
		}
		return sqltypes.Compare(c.V, sqltypes.NewInt(0))
	}
	switch x := e.(type) {
	case *ir.ColRef:
		return keySource{col: x.Index, dir: 1, injective: true}, true
	case *ir.Neg:
		s, ok := groupKeySource(x.E)
		s.dir = -s.dir
		return s, ok
	case *ir.Func:
		inner := -1 // the argument the result follows
		switch x.Name {
		case "date_trunc", "date_bin":
			if len(x.Args) >= 2 && ir.IsStatementConstant(x.Args[0]) && (len(x.Args) == 2 || ir.IsStatementConstant(x.Args[2])) {
				inner = 1
			}
		case "extract", "date_part":
			if c, ok := x.Args[0].(*ir.Const); ok && c.V.K == sqltypes.KindText && monotoneUnits[strings.ToLower(c.V.S)] &&
				x.Args[1].Type().ID != sqltypes.Interval {
				inner = 1
			}
		case "floor", "ceil", "ceiling", "round", "trunc":
			if len(x.Args) == 1 {
				inner = 0
			}
		case "timezone":
			// ts AT TIME ZONE a zone of one fixed offset shifts ts.
			if fixedZoneShift(x) {
				return groupKeySource(x.Args[1])
			}
		}
		if inner < 0 {
			return keySource{}, false
		}
		s, ok := groupKeySource(x.Args[inner])
		s.injective = false
		return s, ok
	case *ir.Binary:
		var s keySource
		var ok bool
		switch {
		case x.Op != ir.OpAdd && x.Op != ir.OpSub && x.Op != ir.OpMul && x.Op != ir.OpDiv:
			return keySource{}, false
		case ir.IsStatementConstant(x.R):
			s, ok = groupKeySource(x.L)
			if x.Op == ir.OpMul || x.Op == ir.OpDiv {
				sign := constSign(x.R)
				if sign == 0 {
					return keySource{}, false
				}
				s.dir *= sign
			}
		case ir.IsStatementConstant(x.L) && x.Op != ir.OpDiv:
			s, ok = groupKeySource(x.R)
			switch x.Op {
			case ir.OpSub:
				s.dir = -s.dir
			case ir.OpMul:
				sign := constSign(x.L)
				if sign == 0 {
					return keySource{}, false
				}
				s.dir *= sign
			}
		default:
			return keySource{}, false
		}
		s.injective = false
		return s, ok
	case *ir.Cast:
		s, ok := groupKeySource(x.E)
		from := x.E.Type()
		switch {
		case !ok:
		case x.To.ID == sqltypes.Date && (from.ID == sqltypes.Timestamp || from.ID == sqltypes.TimestampTZ):
			s.injective = false
			return s, true
		case from.IsNumeric() && x.To.IsNumeric():
			s.injective = s.injective && from.Kind() == sqltypes.KindInt && x.To.Kind() != sqltypes.KindFloat
			return s, true
		}
	}
	return keySource{}, false
}

// fixedZoneShift reports whether a timezone(zone, ts) call (ts AT TIME
// ZONE zone) moves every timestamp by the same offset: the zone is a
// constant with one offset for all time. Zones with daylight saving time
// are not, as their wall clocks run backward once a year.
func fixedZoneShift(f *ir.Func) bool {
	if f.Name != "timezone" || len(f.Args) != 2 {
		return false
	}
	c, ok := f.Args[0].(*ir.Const)
	if !ok || c.V.IsNull() {
		return false
	}
	switch f.Args[1].Type().ID {
	case sqltypes.Timestamp, sqltypes.TimestampTZ:
	default:
		return false
	}
	_, ok = builtins.FixedZoneOffset(c.V)
	return ok
}

// groupOrder chooses the input order that makes an aggregation's groups
// contiguous, and reports whether that order also gives the output the
// order req asks for. Sorted lexicographically, rows of one group are
// contiguous when every column but the last is grouped by its own value;
// the last may be grouped by any nondecreasing function of it.
func groupOrder(n *ir.Aggregate, req request) (order []ir.SortKey, deliversReq bool) {
	if len(n.GroupBy) == 0 || n.GroupingSets != nil {
		// Grouping sets are hashed together in one pass (see Aggregate).
		return nil, false
	}
	srcs := map[int]bool{} // column → grouped by its own value
	var cols []int
	for _, g := range n.GroupBy {
		s, ok := groupKeySource(g)
		if !ok {
			return nil, false
		}
		if _, seen := srcs[s.col]; !seen {
			cols = append(cols, s.col)
		}
		srcs[s.col] = srcs[s.col] || s.injective
	}
	valid := func(order []ir.SortKey) bool {
		for i, k := range order {
			if i < len(order)-1 && !srcs[k.Col] {
				return false
			}
		}
		return len(order) == len(srcs)
	}
	// The order the parent asks for, when it names group keys only.
	if len(req.order) > 0 {
		var o []ir.SortKey
		used := map[int]bool{} // column → read descending
		ok := true
		for _, k := range req.order {
			if k.Col >= len(n.GroupBy) {
				ok = false
				break
			}
			s, _ := groupKeySource(n.GroupBy[k.Col])
			desc := k.Desc != (s.dir < 0) // a decreasing key reads its column the other way
			if d, seen := used[s.col]; seen {
				ok = ok && d == desc
				continue
			}
			used[s.col] = desc
			o = append(o, ir.SortKey{Col: s.col, Desc: desc, NullsFirst: k.NullsFirst})
		}
		for _, c := range cols {
			if _, seen := used[c]; ok && !seen {
				o = append(o, ir.SortKey{Col: c})
			}
		}
		if ok && valid(o) {
			return o, true
		}
	}
	// Otherwise the columns in the order of the table's key, each in its
	// key direction, the one grouped by a function last.
	var pk map[int]int
	var desc map[int]bool
	if s := baseScan(n.Input); s != nil {
		pk, desc = map[int]int{}, map[int]bool{}
		for i, k := range s.Table.PrimaryKey {
			pk[k.Column], desc[k.Column] = i, k.Desc
		}
	}
	sort.SliceStable(cols, func(i, j int) bool {
		a, b := cols[i], cols[j]
		if srcs[a] != srcs[b] {
			return srcs[a]
		}
		pa, oka := pk[a]
		pb, okb := pk[b]
		return oka && (!okb || pa < pb)
	})
	for _, c := range cols {
		order = append(order, ir.SortKey{Col: c, Desc: desc[c], NullsFirst: desc[c]})
	}
	if !valid(order) {
		return nil, false
	}
	return order, false
}
