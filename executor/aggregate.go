package executor

import (
	"context"
	"math"
	"slices"
	"sort"

	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/optimizer"
)

// aggregator accumulates one aggregate of one group.
type aggregator interface {
	// add takes one input row's argument values (NULLs included; each
	// aggregate applies its own NULL rule).
	add(args []sqltypes.Value) error
	// result is the aggregate's value for the rows added.
	result() (sqltypes.Value, error)
}

// styledAggregator is an aggregator whose result depends on the session's
// output settings (json_agg prints floats under extra_float_digits ...):
// feed hands them over before the first value.
type styledAggregator interface {
	setStyle(sqltypes.Style)
}

// contextAggregator is an aggregator that sends notices (ST_MakeLine of
// rows that hold no point): feed hands it the statement's function
// context before the first value.
type contextAggregator interface {
	setContext(*builtins.Context)
}

// aggregators build the accumulator of each aggregate, by the name its
// AggCall has (the registry's of package builtins, which types it; count(*)
// is "count(*)"). The file of each aggregate fills it from init.
var aggregators = map[ir.AggFunc]func(call ir.AggCall) aggregator{}

// registerAggregator sets the accumulator of the named aggregates.
func registerAggregator(build func(call ir.AggCall) aggregator, names ...ir.AggFunc) {
	for _, n := range names {
		aggregators[n] = build
	}
}

// newAggregator returns the accumulator of an aggregate call.
func newAggregator(call ir.AggCall) aggregator {
	if build, ok := aggregators[call.Func]; ok {
		return build(call)
	}
	return &unknownAgg{name: string(call.Func)}
}

func init() {
	registerAggregator(func(ir.AggCall) aggregator { return &countAgg{star: true} }, ir.AggCountStar)
	registerAggregator(func(ir.AggCall) aggregator { return &countAgg{} }, ir.AggCount)
	registerAggregator(func(call ir.AggCall) aggregator {
		if a := exactSumAgg(call); a != nil {
			return a
		}
		if call.Func == ir.AggAvg {
			return &momentAgg{kind: "avg"}
		}
		return &sumAgg{typ: call.Typ}
	}, ir.AggSum, ir.AggAvg)
	registerAggregator(func(ir.AggCall) aggregator { return &extremeAgg{sign: -1} }, ir.AggMin)
	registerAggregator(func(ir.AggCall) aggregator { return &extremeAgg{sign: 1} }, ir.AggMax)
	registerAggregator(func(call ir.AggCall) aggregator {
		return &stringAgg{bytes: call.Typ.Kind() == sqltypes.KindBytes, b: sqltypes.Buffer{What: "string_agg's value"}}
	}, "string_agg")
	registerAggregator(func(call ir.AggCall) aggregator {
		if len(call.Args) == 1 && call.Args[0].Type().StripDomain().IsArray() {
			return &arrayArrayAgg{arrayAgg: arrayAgg{elem: call.Typ.ElemType()}}
		}
		return &arrayAgg{elem: call.Typ.ElemType()}
	}, "array_agg")
	registerAggregator(func(ir.AggCall) aggregator { return &xmlAgg{acc: sqltypes.Null} }, "xmlagg")
}

type countAgg struct {
	star bool
	n    int64
}

func (a *countAgg) add(args []sqltypes.Value) error {
	if a.star || !args[0].IsNull() {
		a.n++
	}
	return nil
}
func (a *countAgg) result() (sqltypes.Value, error) { return sqltypes.NewInt(a.n), nil }

type sumAgg struct {
	typ     sqltypes.Type
	n       int64
	i       int64
	f       float64
	isFloat bool
}

func (a *sumAgg) add(args []sqltypes.Value) error {
	v := args[0]
	if v.IsNull() {
		return nil
	}
	if v.K == sqltypes.KindFloat || a.isFloat {
		a.addFloat(v.AsFloat())
		return nil
	}
	a.n++
	s := a.i + v.I
	if (s > a.i) != (v.I > 0) {
		if v.K == sqltypes.KindMoney {
			return sqltypes.ErrMoneyOutOfRange()
		}
		return pgerr.New(pgerr.NumericValueOutOfRange, "bigint out of range")
	}
	a.i = s
	return nil
}

// addFloat is add of a non-NULL float (scanagg_scalar.go feeds it so).
func (a *sumAgg) addFloat(x float64) {
	a.n++
	if !a.isFloat {
		a.isFloat, a.f = true, float64(a.i)
	}
	a.f += x
}

func (a *sumAgg) result() (sqltypes.Value, error) {
	if a.n == 0 {
		return sqltypes.Null, nil
	}
	if a.isFloat {
		if a.typ.ID == sqltypes.Float4 {
			return sqltypes.NewFloat(float64(float32(a.f))), nil
		}
		return sqltypes.NewFloat(a.f), nil
	}
	if a.typ.ID == sqltypes.Money {
		return sqltypes.NewMoney(a.i), nil
	}
	return sqltypes.NewInt(a.i), nil
}

// momentAgg computes avg: the sum over the count, falling back to a
// running mean (Welford's update) when the sum overflows.
type momentAgg struct {
	kind string
	n    int64
	mean float64
	sum  float64
}

func (a *momentAgg) add(args []sqltypes.Value) error {
	v := args[0]
	if v.IsNull() {
		return nil
	}
	a.addFloat(v.AsFloat())
	return nil
}

// addFloat is add of a non-NULL value x (scanagg_scalar.go feeds it so).
func (a *momentAgg) addFloat(x float64) {
	a.n++
	a.sum += x
	a.mean += (x - a.mean) / float64(a.n)
}

func (a *momentAgg) result() (sqltypes.Value, error) {
	if a.n == 0 {
		return sqltypes.Null, nil
	}
	avg := a.sum / float64(a.n)
	if math.IsInf(avg, 0) || math.IsNaN(avg) {
		avg = a.mean
	}
	return sqltypes.NewFloat(avg), nil
}

type extremeAgg struct {
	sign int
	best sqltypes.Value
	set  bool
}

func (a *extremeAgg) add(args []sqltypes.Value) error {
	v := args[0]
	if v.IsNull() {
		return nil
	}
	if !a.set {
		a.best, a.set = v, true
		return nil
	}
	switch c := sqltypes.Compare(v, a.best) * a.sign; {
	case c > 0:
		a.best = v
	case c == 0 && v.K == sqltypes.KindCitext:
		// citext_smaller and citext_larger return their second argument
		// on a tie: of values equal but for case, the last one read.
		a.best = v
	}
	return nil
}

func (a *extremeAgg) result() (sqltypes.Value, error) {
	if !a.set {
		return sqltypes.Null, nil
	}
	return a.best, nil
}

// stringAgg is string_agg, built as PostgreSQL builds it: the delimiter
// then the value appended to one buffer, each checked against the field
// limit (54000 past 1 GB, before the buffer grows).
type stringAgg struct {
	bytes bool
	b     sqltypes.Buffer
	any   bool
}

func (a *stringAgg) add(args []sqltypes.Value) error {
	v := args[0]
	if v.IsNull() {
		return nil
	}
	if a.any && !args[1].IsNull() {
		if err := a.b.Append(args[1].S); err != nil {
			return err
		}
	}
	a.any = true
	return a.b.Append(v.S)
}

func (a *stringAgg) result() (sqltypes.Value, error) {
	if !a.any {
		return sqltypes.Null, nil
	}
	s, err := a.b.String()
	if err != nil {
		return sqltypes.Null, err
	}
	if a.bytes {
		return sqltypes.Value{K: sqltypes.KindBytes, S: s}, nil
	}
	return sqltypes.NewText(s), nil
}

// arrayAgg is array_agg: the values, NULLs included, in input order
// (NULL when there were none).
type arrayAgg struct {
	elem  sqltypes.Type
	elems []sqltypes.Value
	any   bool
	rows  int // the arrays array_agg(anyarray) has taken
	// size is a lower bound of the array's data, checked as it grows.
	size int64
}

func (a *arrayAgg) add(args []sqltypes.Value) error {
	if err := sqltypes.AccumElemsLimit(int64(len(a.elems)) + 1); err != nil {
		a.elems = nil
		return err
	}
	// PostgreSQL checks the data's size when it builds the array at the
	// end; checked here, the same error comes before the values are held.
	a.size += sqltypes.DatumSize(args[0])
	if err := sqltypes.ArrayBytesLimit(a.size); err != nil {
		a.elems = nil
		return err
	}
	a.any = true
	elems, err := sqltypes.AppendElem(a.elems, args[0], "array_agg's array")
	if err != nil {
		a.elems = nil
		return err
	}
	a.elems = elems
	return nil
}

func (a *arrayAgg) result() (sqltypes.Value, error) {
	if !a.any {
		return sqltypes.Null, nil
	}
	return sqltypes.NewArray1(a.elem, a.elems), nil
}

// arrayArrayAgg is array_agg(anyarray): the arrays, of one shape, as the
// rows of an array of one more dimension (PostgreSQL's
// accumArrayResultArr, with its errors).
type arrayArrayAgg struct {
	arrayAgg
	dims, lower []int32 // the first array's
}

func (a *arrayArrayAgg) add(args []sqltypes.Value) error {
	if args[0].IsNull() {
		return pgerr.New(pgerr.NullValueNotAllowed, "cannot accumulate null arrays")
	}
	arr := args[0].Array()
	lower := make([]int32, len(arr.Dims))
	for i := range lower {
		lower[i] = arr.LowerBound(i)
	}
	if !a.any {
		if len(arr.Dims) == 0 {
			return pgerr.New(pgerr.ArraySubscriptError, "cannot accumulate empty arrays")
		}
		if len(arr.Dims)+1 > sqltypes.MaxArrayDims {
			return pgerr.New(pgerr.ProgramLimitExceeded, "number of array dimensions (%d) exceeds the maximum allowed (%d)",
				len(arr.Dims)+1, sqltypes.MaxArrayDims)
		}
		a.dims, a.lower = arr.Dims, lower
	} else if !slices.Equal(a.dims, arr.Dims) || !slices.Equal(a.lower, lower) {
		return pgerr.New(pgerr.ArraySubscriptError, "cannot accumulate arrays of different dimensionality")
	}
	a.rows++
	for _, e := range arr.Elems {
		if err := a.arrayAgg.add([]sqltypes.Value{e}); err != nil {
			return err
		}
	}
	return nil
}

func (a *arrayArrayAgg) result() (sqltypes.Value, error) {
	if !a.any {
		return sqltypes.Null, nil
	}
	out := &sqltypes.ArrayValue{Elem: a.elem, Dims: append([]int32{int32(a.rows)}, a.dims...), Elems: a.elems}
	for _, l := range a.lower {
		if l != 1 {
			out.Lower = append([]int32{1}, a.lower...)
			break
		}
	}
	return sqltypes.NewArray(out), nil
}

type unknownAgg struct{ name string }

func (a *unknownAgg) add([]sqltypes.Value) error {
	return pgerr.New(pgerr.FeatureNotSupported, "aggregate %s is not supported", a.name)
}
func (a *unknownAgg) result() (sqltypes.Value, error) { return sqltypes.Null, nil }

// aggInstance is one aggregate of one group: its accumulator and, for
// DISTINCT or ORDER BY aggregates, the argument rows kept until the end.
type aggInstance struct {
	call     *ir.AggCall
	acc      aggregator
	distinct *rowSet
	ordered  [][]sqltypes.Value // [args..., sort keys...]
	// held is what ordered charged to the budget.
	held int64
	// spilled holds the argument rows past work_mem (aggstatespill.go),
	// spilledRows and spilledBytes what it wrote.
	spilled                   *externalSort
	spilledRows, spilledBytes int64
	// args is scratch for one row's arguments, reused for every row: no
	// aggregator keeps the slice (they keep values; DISTINCT and ORDER BY
	// copy the row).
	args []sqltypes.Value
	// styled is set once the session's output settings went to a
	// styledAggregator and its function context to a contextAggregator.
	styled bool
}

// charged is what the instance charged to the statement's budget.
func (in *aggInstance) charged() int64 {
	n := in.held
	if in.distinct != nil {
		n += in.distinct.held
	}
	return n
}

func newInstance(call *ir.AggCall, mem *memBudget, ev *ir.EvalContext) *aggInstance {
	acc := newAggregator(*call)
	if call.User != nil {
		// A user-defined aggregate runs its functions as expressions,
		// with the statement's evaluation context (useragg.go).
		acc = newUserAgg(call.User, ev)
	}
	in := &aggInstance{call: call, acc: acc}
	if call.Distinct {
		in.distinct = newRowSet(mem)
	}
	return in
}

// feed evaluates the call's FILTER and arguments on one input row.
func (in *aggInstance) feed(ev *ir.EvalContext, row []sqltypes.Value, mem *memBudget) error {
	c := in.call
	if c.Filter != nil {
		v, err := c.Filter.Eval(ev, row)
		if err != nil {
			return err
		}
		if !ir.Truthy(v) {
			return nil
		}
	}
	if c.Func == ir.AggCountStar {
		return in.acc.add(nil)
	}
	if !in.styled && ev != nil {
		if s, ok := in.acc.(styledAggregator); ok {
			s.setStyle(ev.Fn.OutputStyle())
		}
		if c, ok := in.acc.(contextAggregator); ok {
			c.setContext(&ev.Fn)
		}
		in.styled = true
	}
	if in.args == nil {
		in.args = make([]sqltypes.Value, len(c.Args), len(c.Args)+len(c.OrderBy))
	}
	args := in.args[:len(c.Args)]
	for i, a := range c.Args {
		if ref, ok := a.(*ir.ColRef); ok {
			args[i] = row[ref.Index] // ColRef.Eval, without the call (projectRows.Next)
			continue
		}
		v, err := a.Eval(ev, row)
		if err != nil {
			return err
		}
		args[i] = v
	}
	// full is the error of a DISTINCT set with no room for a new value:
	// the value goes to the spill (aggstatespill.go).
	var full error
	if in.distinct != nil {
		if args[0].IsNull() {
			return nil
		}
		_, fresh, err := in.distinct.add(args[:1])
		if err != nil && len(c.OrderBy) == 0 {
			return in.spillArgs(err, mem, copyRow(args))
		}
		if err == nil && !fresh {
			return nil
		}
		full = err
	}
	if len(c.OrderBy) > 0 {
		for _, k := range c.OrderBy {
			v, err := k.E.Eval(ev, row)
			if err != nil {
				return err
			}
			args = append(args, v)
		}
		kept := copyRow(args)
		if in.spilled != nil {
			return in.spilled.add(context.Background(), kept)
		}
		if full != nil {
			return in.spillArgs(full, mem, kept)
		}
		if err := mem.grow(rowSize(kept)); err != nil {
			return in.spillArgs(err, mem, kept)
		}
		in.held += rowSize(kept)
		in.ordered = append(in.ordered, kept)
		return nil
	}
	return in.acc.add(args)
}

// orderKeyAggregator is an aggregate of sorted input that reads the sort
// key values too, after its arguments (the hypothetical-set aggregates).
type orderKeyAggregator interface {
	aggregator
	withOrderKeys()
}

// sortedArgs is what the aggregate is given of a sorted row r (its
// arguments, then the sort key values): the arguments alone unless it is
// an orderKeyAggregator.
func (in *aggInstance) sortedArgs(r []sqltypes.Value) []sqltypes.Value {
	if _, ok := in.acc.(orderKeyAggregator); ok {
		return r
	}
	return r[:len(in.call.Args)]
}

func (in *aggInstance) value() (sqltypes.Value, error) {
	if in.spilled != nil {
		if err := in.feedSpilled(); err != nil {
			return sqltypes.Null, err
		}
	}
	if len(in.ordered) > 0 {
		n := len(in.call.Args)
		keys := make([]ir.SortKey, len(in.call.OrderBy))
		for i, k := range in.call.OrderBy {
			keys[i] = ir.SortKey{Col: n + i, Desc: k.Desc, NullsFirst: k.NullsFirst}
		}
		sort.SliceStable(in.ordered, func(i, j int) bool { return lessBy(keys, in.ordered[i], in.ordered[j]) })
		for _, r := range in.ordered {
			if err := in.acc.add(in.sortedArgs(r)); err != nil {
				return sqltypes.Null, err
			}
		}
		in.ordered = nil
	}
	return in.acc.result()
}

type group struct {
	key  []sqltypes.Value
	aggs []*aggInstance
}

// aggRows groups its whole input in memory (hash aggregation), then
// returns one row per group: [group values..., aggregate values...].
type aggRows struct {
	in   Rows
	node *optimizer.Aggregate
	ec   *execCtx
	mem  *memBudget // the groups' (opMem)
	out  [][]sqltypes.Value
	pos  int
	done bool
	// Spilling (aggspill.go): the groups there was no room for go to
	// partitions, aggregated one by one after the groups in memory.
	spill aggSpill
	// only, when set, are the grouping sets this aggregation computes
	// instead of the node's: a spilled partition is of one set.
	only [][]int
}

func (a *aggRows) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	if !a.done {
		a.done = true
		if err := a.consume(ctx); err != nil {
			return nil, false, err
		}
	}
	for a.pos >= len(a.out) {
		if more, err := a.nextPartition(ctx); err != nil || !more {
			return nil, false, err
		}
	}
	a.pos++
	return a.out[a.pos-1], true, nil
}

func (a *aggRows) consume(ctx context.Context) error {
	sets := a.groupingSets()
	tables := make([]groupTable, len(sets))
	full := make([]sqltypes.Value, len(a.node.GroupBy))
	key := make([]sqltypes.Value, len(a.node.GroupBy))
	for n := 1; ; n++ {
		row, ok, err := a.in.Next(ctx)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if n%cancelCheckEvery == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		for i, g := range a.node.GroupBy {
			if full[i], err = g.Eval(a.ec.eval, row); err != nil {
				return err
			}
		}
		// Every grouping set sees every row, in this one pass.
		for s, set := range sets {
			setKey(key, full, set)
			grp, err := tables[s].find(key, func(k []sqltypes.Value) (*group, error) {
				size := rowSize(k) + int64(64*len(a.node.Aggs))
				if err := a.mem.grow(size); err != nil {
					return nil, err
				}
				a.spill.held += size
				return a.newGroup(k, set), nil
			})
			if err != nil {
				// The empty grouping set has one group: nothing to spill.
				if len(set) > 0 {
					if spilled, serr := a.spillRow(err, s, hashRow(key), row); spilled || serr != nil {
						if serr != nil {
							return serr
						}
						continue
					}
				}
				return err
			}
			for _, in := range grp.aggs {
				if err := in.feed(a.ec.eval, row, a.mem); err != nil {
					return err
				}
			}
		}
	}
	for s, set := range sets {
		if len(set) == 0 && len(tables[s].order) == 0 {
			// The empty grouping set (or no GROUP BY) has its row even
			// without input.
			tables[s].order = append(tables[s].order, a.newGroup(make([]sqltypes.Value, len(a.node.GroupBy)), set))
		}
		for _, g := range tables[s].order {
			out := append(copyRow(g.key), make([]sqltypes.Value, len(a.node.Aggs))...)
			for i, in := range g.aggs {
				v, err := in.value()
				if err != nil {
					return err
				}
				out[len(g.key)+i] = v
			}
			a.out = append(a.out, out)
			for _, in := range g.aggs {
				a.spill.held += in.charged()
				a.ec.spilled(a.node, in.spilledRows, in.spilledBytes)
			}
		}
	}
	// The groups are rows now: their states hold nothing any more.
	a.mem.release(a.spill.held)
	a.spill.held = 0
	return nil
}

func (a *aggRows) Close() {
	a.spill.close()
	a.in.Close()
}

// xmlAgg is xmlagg: xmlconcat2 folded over the values in input order, so
// each step applies xmlconcat's declaration rule to the pair (NULL when
// every value was NULL).
type xmlAgg struct{ acc sqltypes.Value }

func (a *xmlAgg) add(args []sqltypes.Value) error {
	if !args[0].IsNull() {
		a.acc = builtins.XMLConcat([]sqltypes.Value{a.acc, args[0]})
	}
	return nil
}

func (a *xmlAgg) result() (sqltypes.Value, error) { return a.acc, nil }
