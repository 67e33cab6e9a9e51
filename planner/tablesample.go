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
	if ts.SampleMethod != ast.SampleMethodTypeSystem && ts.SampleMethod != ast.SampleMethodTypeBernoulli {
		return nil, pgerr.New(pgerr.UndefinedObject, "tablesample method does not exist")
	}
	if ts.SampleClauseUnit != ast.SampleClauseUnitTypeDefault {
		return nil, pgerr.New(pgerr.SyntaxError, "syntax error in TABLESAMPLE clause")
	}
	// The arguments are evaluated once, before the scan: they cannot read
	// its rows (or any row).
	empty := env{}.newScope()
	pct, err := b.bindExpr(empty, sampleArg(ts.Expr))
	if err != nil {
		return nil, err
	}
	b.inferParam(pct, sqltypes.TypeFloat4)
	if pct, err = b.coerceTo(pct, sqltypes.TypeFloat4, false); err != nil {
		return nil, b.positioned(err, ts.Expr)
	}
	args := []ir.Expr{pct, &ir.Const{V: sqltypes.NewBool(ts.RepeatableSeed != nil), Typ: sqltypes.TypeBool}}
	if ts.RepeatableSeed != nil {
		seed, err := b.bindExpr(empty, sampleArg(ts.RepeatableSeed))
		if err != nil {
			return nil, err
		}
		b.inferParam(seed, sqltypes.TypeFloat8)
		if seed, err = b.coerceTo(seed, sqltypes.TypeFloat8, false); err != nil {
			return nil, b.positioned(err, ts.RepeatableSeed)
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

// sampleArg is a TABLESAMPLE argument as written: TiDB's grammar keeps
// an argument that is not a literal inside a value node.
func sampleArg(e ast.ExprNode) ast.ExprNode {
	if v, ok := e.(ast.ValueExpr); ok {
		if inner, ok := v.GetValue().(ast.ExprNode); ok {
			return inner
		}
	}
	return e
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
