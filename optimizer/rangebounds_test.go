package optimizer

import (
	"math"
	"math/rand"
	"testing"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// TestRangeBoxHoldsEveryMatch checks the box translation against brute
// force: for random ranges r and constants q (and elements), whenever
// "r op q" or "q op r" holds, r's two keys (planner.rangeGistKeys, as
// gistKeys mirrors them) lie in every bound of the box rangeOperand and
// rangeBox draw for it. Bounds are drawn from a few values so that equal
// bounds of every inclusivity meet, and from the subtype's ends, where
// infinite bounds and the empty range's keys lie.
func TestRangeBoxHoldsEveryMatch(t *testing.T) {
	type rangeType struct {
		typ    sqltypes.Type
		vals   []sqltypes.Value
		least  sqltypes.Value
		most   sqltypes.Value
		toElem func(sqltypes.Value) sqltypes.Value
	}
	ints := []sqltypes.Value{sqltypes.NewInt(math.MinInt32), sqltypes.NewInt(-2), sqltypes.NewInt(0), sqltypes.NewInt(1), sqltypes.NewInt(2), sqltypes.NewInt(3), sqltypes.NewInt(math.MaxInt32 - 1)}
	var ts []sqltypes.Value
	for _, v := range ints {
		ts = append(ts, sqltypes.NewTimestamp(v.I))
	}
	types := []rangeType{
		{typ: sqltypes.Type{ID: sqltypes.Int4Range}, vals: ints, least: sqltypes.NewInt(math.MinInt32), most: sqltypes.NewInt(math.MaxInt32)},
		{typ: sqltypes.Type{ID: sqltypes.TsRange}, vals: ts, least: sqltypes.NewTimestamp(math.MinInt32), most: sqltypes.NewTimestamp(math.MaxInt32)},
	}
	ops := []string{"=", "&&", "@>", "<@", "<<", ">>", "&<", "&>", "-|-"}
	eval := map[string]func(a, b *sqltypes.RangeValue) bool{
		"=":   func(a, b *sqltypes.RangeValue) bool { return sqltypes.CompareRanges(a, b) == 0 },
		"&&":  sqltypes.RangeOverlaps,
		"@>":  sqltypes.RangeContains,
		"<@":  func(a, b *sqltypes.RangeValue) bool { return sqltypes.RangeContains(b, a) },
		"<<":  sqltypes.RangeBefore,
		">>":  func(a, b *sqltypes.RangeValue) bool { return sqltypes.RangeBefore(b, a) },
		"&<":  sqltypes.RangeOverLeft,
		"&>":  sqltypes.RangeOverRight,
		"-|-": sqltypes.RangeAdjacent,
	}
	rng := rand.New(rand.NewSource(28))
	for _, rt := range types {
		random := func() *sqltypes.RangeValue {
			for {
				if rng.Intn(10) == 0 {
					return sqltypes.EmptyRange(rt.typ).Range()
				}
				lo := sqltypes.RangeBound{Val: rt.vals[rng.Intn(len(rt.vals))], Inc: rng.Intn(2) == 0, Inf: rng.Intn(6) == 0, Lower: true}
				hi := sqltypes.RangeBound{Val: rt.vals[rng.Intn(len(rt.vals))], Inc: rng.Intn(2) == 0, Inf: rng.Intn(6) == 0}
				if lo.Inf {
					lo.Val, lo.Inc = sqltypes.Null, false
				}
				if hi.Inf {
					hi.Val, hi.Inc = sqltypes.Null, false
				}
				v, err := sqltypes.MakeRange(rt.typ, lo, hi, false)
				if err == nil {
					return v.Range()
				}
			}
		}
		gistKeys := func(r *sqltypes.RangeValue) (lower, upper sqltypes.Value) {
			switch {
			case r.Empty:
				return rt.most, rt.least
			}
			lower, upper = r.Lower, r.Upper
			if r.LowerInf {
				lower = rt.least
			}
			if r.UpperInf {
				upper = rt.most
			}
			return lower, upper
		}
		holds := func(key sqltypes.Value, b rangeBound) bool {
			at := b.v
			if at.K == sqltypes.KindNull { // the empty range's key
				at = rt.most
				if b.upper {
					at = rt.least
				}
			}
			c := sqltypes.Compare(key, at)
			switch b.op {
			case ir.OpLt:
				return c < 0
			case ir.OpLe:
				return c <= 0
			case ir.OpGt:
				return c > 0
			case ir.OpGe:
				return c >= 0
			}
			t.Fatalf("unexpected operator %v", b.op)
			return false
		}
		col := &ir.ColRef{Index: 0, Typ: rt.typ}
		checked := 0
		for n := 0; n < 40000; n++ {
			r, q := random(), random()
			op := ops[rng.Intn(len(ops))]
			rv, qv := sqltypes.NewRange(r), sqltypes.NewRange(q)
			qc := &ir.Const{V: qv, Typ: rt.typ}
			for side := 0; side < 2; side++ {
				f := &ir.Func{Name: op, Args: []ir.Expr{col, qc}}
				match := eval[op](r, q)
				if side == 1 {
					f.Args[0], f.Args[1] = qc, col
					match = eval[op](q, r)
				}
				if !match {
					continue
				}
				name, other, ok := rangeOperand(f, 0)
				if !ok {
					continue
				}
				lower, upper := gistKeys(r)
				for _, b := range rangeBox(name, other.(*ir.Const).V, rt.typ) {
					key := lower
					if b.upper {
						key = upper
					}
					if !holds(key, b) {
						t.Fatalf("%s: %s (side %d) holds for r=%s q=%s, but its key %s fails %+v", rt.typ, op, side, sqltypes.FormatText(rv), sqltypes.FormatText(qv), sqltypes.FormatText(key), b)
					}
					checked++
				}
			}
			// Elements: r @> e and e <@ r.
			e := rt.vals[rng.Intn(len(rt.vals))]
			if sqltypes.RangeContainsElem(r, e) {
				lower, upper := gistKeys(r)
				for _, b := range rangeBox("@>", e, rt.typ) {
					key := lower
					if b.upper {
						key = upper
					}
					if !holds(key, b) {
						t.Fatalf("%s: r @> %s holds for r=%s but its key fails %+v", rt.typ, sqltypes.FormatText(e), sqltypes.FormatText(rv), b)
					}
					checked++
				}
			}
		}
		if checked < 10000 {
			t.Fatalf("%s: only %d bounds checked", rt.typ, checked)
		}
	}
}
