package planner

import (
	"math"
	"math/rand/v2"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// tableSampleFunc names the per-row test of a TABLESAMPLE clause; zp_
// makes the deparser leave a view's text as written (ir.Deparse), which
// has the clause where this test has a filter.
const tableSampleFunc = "zp_tablesample"

// tableSample binds TABLESAMPLE over the scan of a table's rows: a
// filter that keeps each row with the given percentage's probability,
// independently (BERNOULLI). SYSTEM samples the same way: PostgreSQL's
// SYSTEM picks whole pages, which a key-value store has none of, so
// zproxy's SYSTEM sample is as even as BERNOULLI's (and no faster). With
// REPEATABLE (seed) each row's draw is a hash of the seed and the row's
// values, so the same seed over the same rows keeps the same rows; the
// rows PostgreSQL keeps for a seed depend on its pages and are not these.
func (b *Binder) tableSample(scan ir.Rel, ts *ast.TableSample) (ir.Rel, error) {
	if ts.SampleMethod != ast.SampleMethodTypeSystem && ts.SampleMethod != ast.SampleMethodTypeBernoulli ||
		ts.SampleClauseUnit != ast.SampleClauseUnitTypeDefault {
		// TiDB's own forms, which the rewriting refused already
		// (parser/tablesample.go).
		return nil, pgerr.New(pgerr.SyntaxError, "syntax error in TABLESAMPLE clause")
	}
	pct, err := b.sampleArg(ts.Expr, sqltypes.TypeFloat4)
	if err != nil {
		return nil, err
	}
	args := []ir.Expr{pct, &ir.Const{V: sqltypes.NewBool(ts.RepeatableSeed != nil), Typ: sqltypes.TypeBool}}
	if ts.RepeatableSeed != nil {
		seed, err := b.sampleArg(ts.RepeatableSeed, sqltypes.TypeFloat8)
		if err != nil {
			return nil, err
		}
		args = append(args, seed)
	} else {
		args = append(args, &ir.Const{V: sqltypes.Null, Typ: sqltypes.TypeFloat8})
	}
	for i, c := range scan.Columns() {
		args = append(args, &ir.ColRef{Index: i, Name: c.Name, Typ: c.Type})
	}
	test := &ir.Func{Name: tableSampleFunc, Args: args, Typ: sqltypes.TypeBool, Volatile: true, Fn: sampleRow}
	return &ir.Filter{Input: scan, Pred: test}, nil
}

// sampleArg binds a TABLESAMPLE argument as type t. The arguments are
// evaluated once, before the scan: they read no row (the scope is
// empty). TiDB's grammar keeps an argument that is not a literal inside a
// value node.
func (b *Binder) sampleArg(node ast.ExprNode, t sqltypes.Type) (ir.Expr, error) {
	if v, ok := node.(ast.ValueExpr); ok {
		if inner, ok := v.GetValue().(ast.ExprNode); ok {
			node = inner
		}
	}
	e, err := b.bindExpr(env{}.newScope(), node)
	if err != nil {
		return nil, err
	}
	b.inferParam(e, t)
	if e, err = b.coerceTo(e, t, false); err != nil {
		return nil, b.positioned(err, node)
	}
	return e, nil
}

// isTableSample reports whether rel is a TABLESAMPLE clause's filter.
func isTableSample(rel ir.Rel) bool {
	f, ok := rel.(*ir.Filter)
	if !ok {
		return false
	}
	fn, ok := f.Pred.(*ir.Func)
	return ok && fn.Name == tableSampleFunc
}

// sampleRow is a TABLESAMPLE clause's test of one row: args are the
// percentage, whether REPEATABLE was given, its seed, then the row.
func sampleRow(_ *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
	if a[0].IsNull() {
		return sqltypes.Null, pgerr.New(pgerr.InvalidTablesampleArgument, "TABLESAMPLE parameter cannot be null")
	}
	pct := a[0].AsFloat()
	if !(pct >= 0 && pct <= 100) {
		return sqltypes.Null, pgerr.New(pgerr.InvalidTablesampleArgument, "sample percentage must be between 0 and 100")
	}
	var u float64
	if a[1].Bool() {
		if a[2].IsNull() {
			return sqltypes.Null, pgerr.New(pgerr.InvalidTablesampleRepeat, "TABLESAMPLE REPEATABLE parameter cannot be null")
		}
		h := math.Float64bits(a[2].AsFloat()) ^ 0x9e3779b97f4a7c15
		for _, v := range a[3:] {
			h = v.Hash(h)
		}
		// splitmix64's finaliser spreads the hash over all 64 bits.
		h ^= h >> 30
		h *= 0xbf58476d1ce4e5b9
		h ^= h >> 27
		h *= 0x94d049bb133111eb
		h ^= h >> 31
		u = float64(h>>11) / (1 << 53)
	} else {
		u = rand.Float64()
	}
	return sqltypes.NewBool(u*100 < pct), nil
}
