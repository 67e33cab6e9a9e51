package executor

import (
	"math"
	"strings"

	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// The statistical, bitwise, json and ordered-set aggregates. Each computes
// what PostgreSQL 15 computes, in the same arithmetic: the float forms use
// the Youngs-Cramer updates of float8_accum and float8_regr_accum (so the
// last bits agree), the numeric forms exact sums (see
// sqltypes.NumericMoments).

func init() {
	registerAggregator(func(call ir.AggCall) aggregator {
		f := string(call.Func)
		return &varianceAgg{numeric: call.Typ.ID == sqltypes.Numeric,
			sample: !strings.HasSuffix(f, "_pop"), stddev: strings.HasPrefix(f, "stddev")}
	}, "stddev", "stddev_samp", "stddev_pop", "variance", "var_samp", "var_pop")
	registerAggregator(func(call ir.AggCall) aggregator { return &regrAgg{kind: string(call.Func)} },
		"corr", "covar_pop", "covar_samp", "regr_avgx", "regr_avgy", "regr_count", "regr_intercept",
		"regr_r2", "regr_slope", "regr_sxx", "regr_sxy", "regr_syy")
	registerAggregator(func(call ir.AggCall) aggregator {
		f := string(call.Func)
		if f == "every" {
			f = "bool_and"
		}
		if len(call.Args) == 1 && call.Args[0].Type().Kind() == sqltypes.KindBit {
			// bit_and and friends over bit strings, which must be of
			// one length (22026).
			return &foldAgg{combine: builtins.BitStringFold(f)}
		}
		step := folds[f]
		return &foldAgg{combine: func(acc, v sqltypes.Value) (sqltypes.Value, error) { return step(acc, v), nil }}
	}, "bit_and", "bit_or", "bit_xor", "bool_and", "bool_or", "every", "range_intersect_agg")
	registerAggregator(func(call ir.AggCall) aggregator {
		f := string(call.Func)
		a := &jsonAgg{kind: f, rows: f == "json_agg" && ir.IsWholeRow(call.Args[0])}
		for _, x := range call.Args {
			a.types = append(a.types, x.Type())
		}
		return a
	}, "json_agg", "jsonb_agg", "json_object_agg", "jsonb_object_agg")
	registerAggregator(func(ir.AggCall) aggregator { return &groupingAgg{} }, "grouping")
	registerAggregator(func(call ir.AggCall) aggregator { return &rangeAgg{typ: call.Typ.StripDomain()} }, "range_agg")
	registerAggregator(func(call ir.AggCall) aggregator {
		return &orderedSetAgg{kind: string(call.Func), typ: call.Typ}
	}, "percentile_cont", "percentile_disc", "mode")
	registerAggregator(func(call ir.AggCall) aggregator {
		a := &hypotheticalAgg{kind: string(call.Func), n: len(call.Args)}
		for i, k := range call.OrderBy {
			a.keys = append(a.keys, ir.SortKey{Col: i, Desc: k.Desc, NullsFirst: k.NullsFirst})
		}
		return a
	}, "rank", "dense_rank", "percent_rank", "cume_dist")
}

func floatOverflow() error {
	return pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: overflow")
}

// youngsCramer is PostgreSQL's float8_accum state: N, Sx and
// Sxx = Σ(x − Sx/N)², updated one value at a time.
type youngsCramer struct{ n, sx, sxx float64 }

// add incorporates x; it reports the overflow PostgreSQL reports when
// finite inputs give infinite sums.
func (s *youngsCramer) add(x float64) error {
	prevN, prevSx := s.n, s.sx
	s.n++
	s.sx += x
	if prevN > 0 {
		tmp := x*s.n - s.sx
		s.sxx += tmp * tmp / (s.n * prevN)
		if math.IsInf(s.sx, 0) || math.IsInf(s.sxx, 0) {
			if !math.IsInf(prevSx, 0) && !math.IsInf(x, 0) {
				return floatOverflow()
			}
			s.sxx = math.NaN()
		}
	} else if math.IsNaN(x) || math.IsInf(x, 0) {
		s.sxx = math.NaN()
	}
	return nil
}

// varianceAgg is stddev and variance in their sample and population
// forms: float8 over float inputs, numeric over integers and numerics.
type varianceAgg struct {
	numeric, sample, stddev bool
	f                       youngsCramer
	num                     sqltypes.NumericMoments
}

func (a *varianceAgg) add(args []sqltypes.Value) error {
	v := args[0]
	switch {
	case v.IsNull():
		return nil
	case a.numeric:
		return a.num.Add(v)
	}
	return a.f.add(v.AsFloat())
}

func (a *varianceAgg) result() (sqltypes.Value, error) {
	if a.numeric {
		return a.num.Variance(a.sample, a.stddev)
	}
	n := a.f.n
	if n == 0 || a.sample && n == 1 {
		return sqltypes.Null, nil
	}
	d := n
	if a.sample {
		d = n - 1
	}
	v := a.f.sxx / d
	if a.stddev {
		v = math.Sqrt(v)
	}
	return sqltypes.NewFloat(v), nil
}

// regrAgg is corr, covar_* and regr_*(Y, X) over the rows where both are
// non-NULL: float8_regr_accum's N, Sx, Sxx, Sy, Syy, Sxy.
type regrAgg struct {
	kind                     string
	n, sx, sxx, sy, syy, sxy float64
	count                    int64
}

func (a *regrAgg) add(args []sqltypes.Value) error {
	if args[0].IsNull() || args[1].IsNull() {
		return nil
	}
	y, x := args[0].AsFloat(), args[1].AsFloat()
	a.count++
	prevN, prevSx, prevSy := a.n, a.sx, a.sy
	a.n++
	a.sx += x
	a.sy += y
	if prevN > 0 {
		tmpX, tmpY := x*a.n-a.sx, y*a.n-a.sy
		scale := 1.0 / (a.n * prevN)
		a.sxx += tmpX * tmpX * scale
		a.syy += tmpY * tmpY * scale
		a.sxy += tmpX * tmpY * scale
		inf := math.IsInf
		if inf(a.sx, 0) || inf(a.sxx, 0) || inf(a.sy, 0) || inf(a.syy, 0) || inf(a.sxy, 0) {
			finiteX := !inf(prevSx, 0) && !inf(x, 0)
			finiteY := !inf(prevSy, 0) && !inf(y, 0)
			if (inf(a.sx, 0) || inf(a.sxx, 0)) && finiteX || (inf(a.sy, 0) || inf(a.syy, 0)) && finiteY ||
				inf(a.sxy, 0) && finiteX && finiteY {
				return floatOverflow()
			}
			for _, p := range []*float64{&a.sxx, &a.syy, &a.sxy} {
				if inf(*p, 0) {
					*p = math.NaN()
				}
			}
		}
		return nil
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		a.sxx, a.sxy = math.NaN(), math.NaN()
	}
	if math.IsNaN(y) || math.IsInf(y, 0) {
		a.syy, a.sxy = math.NaN(), math.NaN()
	}
	return nil
}

func (a *regrAgg) result() (sqltypes.Value, error) {
	if a.kind == "regr_count" {
		return sqltypes.NewInt(a.count), nil
	}
	n := a.n
	if n < 1 || a.kind == "covar_samp" && n < 2 {
		return sqltypes.Null, nil
	}
	var v float64
	switch a.kind {
	case "regr_sxx":
		v = a.sxx
	case "regr_syy":
		v = a.syy
	case "regr_sxy":
		v = a.sxy
	case "regr_avgx":
		v = a.sx / n
	case "regr_avgy":
		v = a.sy / n
	case "covar_pop":
		v = a.sxy / n
	case "covar_samp":
		v = a.sxy / (n - 1)
	case "corr":
		if a.sxx == 0 || a.syy == 0 {
			return sqltypes.Null, nil
		}
		v = a.sxy / math.Sqrt(a.sxx*a.syy)
	case "regr_r2":
		if a.sxx == 0 {
			return sqltypes.Null, nil
		}
		if a.syy == 0 {
			return sqltypes.NewFloat(1), nil
		}
		v = a.sxy * a.sxy / (a.sxx * a.syy)
	case "regr_slope":
		if a.sxx == 0 {
			return sqltypes.Null, nil
		}
		v = a.sxy / a.sxx
	case "regr_intercept":
		if a.sxx == 0 {
			return sqltypes.Null, nil
		}
		v = (a.sy - a.sx*a.sxy/a.sxx) / n
	}
	return sqltypes.NewFloat(v), nil
}

// foldAgg folds the non-NULL values with combine (bit_and, bool_or,
// ...); NULL when there are none.
type foldAgg struct {
	combine func(acc, v sqltypes.Value) (sqltypes.Value, error)
	acc     sqltypes.Value
}

func (a *foldAgg) add(args []sqltypes.Value) error {
	switch v := args[0]; {
	case v.IsNull():
	case a.acc.IsNull():
		a.acc = v
	default:
		acc, err := a.combine(a.acc, v)
		if err != nil {
			return err
		}
		a.acc = acc
	}
	return nil
}

func (a *foldAgg) result() (sqltypes.Value, error) { return a.acc, nil }

// folds are the aggregates foldAgg computes.
var folds = map[string]func(acc, v sqltypes.Value) sqltypes.Value{
	"bit_and":  func(acc, v sqltypes.Value) sqltypes.Value { return sqltypes.NewInt(acc.I & v.I) },
	"bit_or":   func(acc, v sqltypes.Value) sqltypes.Value { return sqltypes.NewInt(acc.I | v.I) },
	"bit_xor":  func(acc, v sqltypes.Value) sqltypes.Value { return sqltypes.NewInt(acc.I ^ v.I) },
	"bool_and": func(acc, v sqltypes.Value) sqltypes.Value { return sqltypes.NewBool(acc.Bool() && v.Bool()) },
	"bool_or":  func(acc, v sqltypes.Value) sqltypes.Value { return sqltypes.NewBool(acc.Bool() || v.Bool()) },
	// The intersection of ranges of one type, whose bounds are already
	// canonical, cannot fail.
	"range_intersect_agg": func(acc, v sqltypes.Value) sqltypes.Value {
		if acc.K == sqltypes.KindMultirange {
			m, _ := sqltypes.MultirangeIntersect(acc.Multirange(), v.Multirange())
			return m
		}
		r, _ := sqltypes.RangeIntersect(acc.Range(), v.Range())
		return r
	},
}

// jsonAgg is json_agg and jsonb_agg (every value, NULLs as null) and
// json_object_agg and jsonb_object_agg (key, value pairs).
type jsonAgg struct {
	kind  string
	rows  bool // json_agg of whole rows
	types []sqltypes.Type
	vals  []sqltypes.Value // values, or keys and values alternating
	// size is a lower bound of the result's text (json) or of its
	// elements' (jsonb), checked against PostgreSQL's limits as values
	// arrive: PostgreSQL's json_agg appends to a buffer as it goes, and
	// jsonb_agg's container is bounded at 256 MB.
	size int64
	// style is the session's output settings, in which values become
	// JSON (set by aggInstance.feed).
	style sqltypes.Style
}

// setStyle implements styledAggregator.
func (a *jsonAgg) setStyle(st sqltypes.Style) { a.style = st }

func (a *jsonAgg) add(args []sqltypes.Value) error {
	jsonb := strings.HasPrefix(a.kind, "jsonb")
	var more int64
	for _, v := range args {
		if jsonb && (v.K == sqltypes.KindText || v.K == sqltypes.KindBPChar || v.K == sqltypes.KindCitext) {
			// A string element or key, bounded before its container.
			if err := sqltypes.JSONBStringLimit(len(v.S)); err != nil {
				a.vals = nil
				return err
			}
		}
		more += jsonSizeLow(v, jsonb)
	}
	var err error
	switch {
	case a.kind == "jsonb_object_agg":
		err = sqltypes.JSONBObjectLimit(a.size + more)
	case jsonb:
		err = sqltypes.JSONBArrayLimit(a.size + more)
	default:
		err = sqltypes.AppendLimit(a.size, more)
	}
	if err != nil {
		a.vals = nil
		return err
	}
	a.size += more
	for i, v := range args {
		v = sqltypes.JSONInputStyled(a.types[i], v, a.style)
		if i == 0 && len(args) == 2 {
			if err := sqltypes.JSONObjectKey(v); err != nil {
				return err
			}
		}
		a.vals = append(a.vals, v)
	}
	return nil
}

// jsonSizeLow is a lower bound of what v adds to a json aggregate: its
// bytes, quoted in json's text.
func jsonSizeLow(v sqltypes.Value, jsonb bool) int64 {
	switch {
	case v.K == sqltypes.KindArray:
		return sqltypes.DatumSize(v)
	case v.S == "":
		return 1
	case jsonb:
		return int64(len(v.S))
	}
	return int64(len(v.S)) + 2
}

func (a *jsonAgg) result() (sqltypes.Value, error) {
	if len(a.vals) == 0 {
		return sqltypes.Null, nil
	}
	switch {
	case a.rows:
		return sqltypes.JSONAggRows(a.vals)
	case a.kind == "json_agg":
		return sqltypes.JSONAgg(a.vals)
	case a.kind == "jsonb_agg":
		return sqltypes.JSONBAgg(a.vals)
	case a.kind == "jsonb_object_agg":
		return sqltypes.JSONBBuildObject(a.vals)
	}
	return sqltypes.JSONObjectAgg(a.vals)
}

// orderedSetAgg is percentile_cont, percentile_disc and mode: the values
// arrive sorted by the WITHIN GROUP order (see aggInstance.value), with
// the fraction argument, when there is one, after each value.
type orderedSetAgg struct {
	kind     string
	typ      sqltypes.Type
	vals     []sqltypes.Value
	fraction sqltypes.Value
}

func (a *orderedSetAgg) add(args []sqltypes.Value) error {
	if len(args) > 1 {
		a.fraction = args[1]
	}
	if !args[0].IsNull() {
		a.vals = append(a.vals, args[0])
	}
	return nil
}

func (a *orderedSetAgg) result() (sqltypes.Value, error) {
	if len(a.vals) == 0 {
		return sqltypes.Null, nil
	}
	if a.kind == "mode" {
		return modeOf(a.vals), nil
	}
	if a.fraction.IsNull() {
		return sqltypes.Null, nil
	}
	if arr := a.fraction.Array(); arr != nil {
		out := *arr
		out.Elems = make([]sqltypes.Value, len(arr.Elems))
		out.Elem = a.typ.ElemType()
		for i, f := range arr.Elems {
			if f.IsNull() {
				continue
			}
			v, err := a.percentile(f.AsFloat())
			if err != nil {
				return sqltypes.Null, err
			}
			out.Elems[i] = v
		}
		return sqltypes.NewArray(&out), nil
	}
	return a.percentile(a.fraction.AsFloat())
}

// percentile is percentile_cont (linear interpolation between the two
// nearest rows) or percentile_disc (the first row whose position in the
// ordering reaches the fraction) of the sorted values.
func (a *orderedSetAgg) percentile(p float64) (sqltypes.Value, error) {
	if p < 0 || p > 1 || math.IsNaN(p) {
		return sqltypes.Null, pgerr.New(pgerr.NumericValueOutOfRange, "percentile value %s is not between 0 and 1",
			sqltypes.FormatText(sqltypes.NewFloat(p)))
	}
	n := float64(len(a.vals))
	if a.kind == "percentile_disc" {
		row := int(math.Ceil(p * n))
		return a.vals[max(row, 1)-1], nil
	}
	pos := p * (n - 1)
	lo, hi := math.Floor(pos), math.Ceil(pos)
	first, second := a.vals[int(lo)], a.vals[int(hi)]
	if first.K == sqltypes.KindInterval {
		if lo == hi {
			return first, nil
		}
		// lo + (hi - lo) * fraction, in interval arithmetic.
		d, err := sqltypes.SubInterval(second.Interval(), first.Interval())
		if err == nil {
			d, err = sqltypes.MulInterval(d, pos-lo)
		}
		if err == nil {
			d, err = sqltypes.AddInterval(first.Interval(), d)
		}
		return sqltypes.NewInterval(d), err
	}
	x := first.AsFloat()
	if lo == hi {
		return sqltypes.NewFloat(x), nil
	}
	return sqltypes.NewFloat(x + (pos-lo)*(second.AsFloat()-x)), nil
}

// modeOf is the most frequent of the sorted values, the first in the
// ordering among equally frequent ones.
func modeOf(vals []sqltypes.Value) sqltypes.Value {
	best, bestN := vals[0], 0
	for i := 0; i < len(vals); {
		j := i + 1
		for j < len(vals) && sqltypes.Equal(vals[j], vals[i]) {
			j++
		}
		if j-i > bestN {
			best, bestN = vals[i], j-i
		}
		i = j
	}
	return best
}

// rangeAgg is range_agg: the multirange of the non-NULL ranges (or of the
// ranges of the non-NULL multiranges); NULL when there are none.
type rangeAgg struct {
	typ    sqltypes.Type
	ranges []*sqltypes.RangeValue
	any    bool
}

func (a *rangeAgg) add(args []sqltypes.Value) error {
	switch v := args[0]; v.K {
	case sqltypes.KindRange:
		a.ranges = append(a.ranges, v.Range())
	case sqltypes.KindMultirange:
		a.ranges = append(a.ranges, v.Multirange().Ranges...)
	default:
		return nil
	}
	a.any = true
	return nil
}

func (a *rangeAgg) result() (sqltypes.Value, error) {
	if !a.any {
		return sqltypes.Null, nil
	}
	return sqltypes.MakeMultirange(a.typ, a.ranges)
}

// hypotheticalAgg is a hypothetical-set aggregate (rank, dense_rank,
// percent_rank, cume_dist WITHIN GROUP): each row arrives sorted, as its
// arguments (the first sort key, then the hypothetical row) followed by
// its sort key values (it is an orderKeyAggregator), and is compared with
// the hypothetical row by the WITHIN GROUP order.
type hypotheticalAgg struct {
	kind string
	n    int          // arguments before the sort key values
	keys []ir.SortKey // the WITHIN GROUP order, over the key values
	rows int64
	// before counts the rows sorting before the hypothetical row, peers
	// those equal to it by the order; groups counts the distinct rows
	// (peer groups) before it, prev is the last of them.
	before, peers, groups int64
	prev                  []sqltypes.Value
}

func (a *hypotheticalAgg) withOrderKeys() {}

func (a *hypotheticalAgg) add(args []sqltypes.Value) error {
	hypo, vals := args[1:a.n], args[a.n:]
	a.rows++
	switch c := compareBy(a.keys, vals, hypo); {
	case c < 0:
		a.before++
		if a.prev == nil || compareBy(a.keys, a.prev, vals) != 0 {
			a.groups++
			a.prev = copyRow(vals)
		}
	case c == 0:
		a.peers++
	}
	return nil
}

func (a *hypotheticalAgg) result() (sqltypes.Value, error) {
	switch a.kind {
	case "rank":
		return sqltypes.NewInt(a.before + 1), nil
	case "dense_rank":
		return sqltypes.NewInt(a.groups + 1), nil
	case "percent_rank":
		if a.rows == 0 {
			return sqltypes.NewFloat(0), nil
		}
		return sqltypes.NewFloat(float64(a.before) / float64(a.rows)), nil
	}
	return sqltypes.NewFloat(float64(a.before+a.peers+1) / float64(a.rows+1)), nil
}
