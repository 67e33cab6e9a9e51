package optimizer

import (
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// Range predicates on a gist index's range column. The index is a
// Z-order index over each range's lower and upper bound values
// (planner.rangeGistKeys: infinite bounds at the subtype's ends, the empty
// range at the point (greatest, least)), so a predicate relating the
// column to a constant range or element confines the two keys to a box:
//
//	r = q     lower = q.lower,  upper = q.upper
//	r && q    lower ≤ q.upper,  upper ≥ q.lower
//	r @> q    lower ≤ q.lower,  upper ≥ q.upper
//	r @> e    lower ≤ e,        upper ≥ e
//	r <@ q    lower ≥ q.lower,  upper ≤ q.upper
//	r << q    upper ≤ q.lower
//	r >> q    lower ≥ q.upper
//	r &< q    upper ≤ q.upper
//	r &> q    lower ≥ q.lower
//
// and the mirrored forms (q @> r is r <@ q, q &< r is upper ≥ q.upper,
// ...). The boxes are drawn on bound values only and always inclusive: an
// infinite bound's key is the subtype's end, which a finite bound may
// equal (int4range(NULL, 0) && '(,-2147483648)' holds, and the row's
// lower key is -2147483648), so a strict bound would lose rows; the
// predicate stays the residual check. An infinite bound
// of q gives no conjunct, except that the empty q of r <@ q confines r to
// the empty ranges' point. -|- (two boxes: upper = q.lower or lower =
// q.upper) gives none.

// rangeGistConjuncts returns conjuncts over lower and upper (the index's
// key expressions over the table row) implied by the conjuncts of conj
// that relate range column col to a constant.
func rangeGistConjuncts(conj []ir.Expr, col int, colType sqltypes.Type, lower, upper ir.Expr, ctx *ir.EvalContext) []ir.Expr {
	var out []ir.Expr
	bound := func(e ir.Expr, op ir.BinOp, v sqltypes.Value) {
		out = append(out, &ir.Binary{Op: op, L: e, R: &ir.Const{V: v, Typ: e.Type()}, Typ: sqltypes.TypeBool})
	}
	for _, c := range conj {
		f, ok := c.(*ir.Func)
		if b, isEq := c.(*ir.Binary); isEq && b.Op == ir.OpEq {
			f, ok = &ir.Func{Name: "=", Args: []ir.Expr{b.L, b.R}}, true // = is a comparison, not an operator call
		}
		if !ok || len(f.Args) != 2 {
			continue
		}
		op, other, ok := rangeOperand(f, col)
		if !ok {
			continue
		}
		v, err := other.Eval(ctx, nil)
		if err != nil || v.IsNull() {
			continue
		}
		for _, b := range rangeBox(op, v, colType) {
			e := lower
			if b.upper {
				e = upper
			}
			if b.v.K == sqltypes.KindNull {
				// The empty ranges' point: lower's greatest, upper's least.
				row := make([]sqltypes.Value, col+1)
				row[col] = sqltypes.EmptyRange(colType.StripDomain())
				if b.v, err = e.Eval(ctx, row); err != nil || b.v.IsNull() {
					continue
				}
			}
			bound(e, b.op, b.v)
		}
	}
	return out
}

// rangeBound is one conjunct of a range box: the upper key (else the
// lower) compared by op with v (NULL: the empty ranges' key).
type rangeBound struct {
	upper bool
	op    ir.BinOp
	v     sqltypes.Value
}

// rangeOperand recognises f as range column col related to a constant,
// and returns the operator as if the column were on its left; the mirrored
// &< and &> have no such operator and are named "&<'" and "&>'" (q &< r,
// q &> r).
func rangeOperand(f *ir.Func, col int) (op string, other ir.Expr, ok bool) {
	mirror := map[string]string{"=": "=", "&&": "&&", "@>": "<@", "<@": "@>", "<<": ">>", ">>": "<<", "&<": "&<'", "&>": "&>'"}
	for i, a := range f.Args {
		ref, isCol := columnOperand(a)
		if !isCol || ref.Index != col || !ir.IsStatementConstant(f.Args[1-i]) {
			continue
		}
		op, known := f.Name, false
		if i == 1 {
			op, known = mirror[op]
		} else {
			_, known = mirror[op]
		}
		return op, f.Args[1-i], known
	}
	return "", nil, false
}

// rangeBox is the box "r op v" confines a range r of type colType to, as
// conjuncts on its keys; none when it confines r to none.
func rangeBox(op string, v sqltypes.Value, colType sqltypes.Type) []rangeBound {
	sub := sqltypes.RangeSubtype(colType.StripDomain())
	if v.K != sqltypes.KindRange {
		// An element: r @> e (e <@ r is mirrored to it).
		if op != "@>" || v.K != sub.Kind() {
			return nil
		}
		return []rangeBound{{op: ir.OpLe, v: v}, {upper: true, op: ir.OpGe, v: v}}
	}
	q := v.Range()
	if q == nil || !q.Typ.Same(colType.StripDomain()) {
		return nil
	}
	if q.Empty {
		if op == "<@" || op == "=" { // only the empty range is within (or equals) the empty range
			return []rangeBound{{op: ir.OpGe, v: sqltypes.Null}, {upper: true, op: ir.OpLe, v: sqltypes.Null}}
		}
		return nil
	}
	var out []rangeBound
	add := func(upper bool, cmp ir.BinOp, inf bool, at sqltypes.Value) {
		if !inf {
			out = append(out, rangeBound{upper: upper, op: cmp, v: at})
		}
	}
	switch op {
	case "=":
		add(false, ir.OpGe, q.LowerInf, q.Lower)
		add(false, ir.OpLe, q.LowerInf, q.Lower)
		add(true, ir.OpGe, q.UpperInf, q.Upper)
		add(true, ir.OpLe, q.UpperInf, q.Upper)
	case "&&":
		add(false, ir.OpLe, q.UpperInf, q.Upper)
		add(true, ir.OpGe, q.LowerInf, q.Lower)
	case "@>":
		add(false, ir.OpLe, q.LowerInf, q.Lower)
		add(true, ir.OpGe, q.UpperInf, q.Upper)
	case "<@":
		add(false, ir.OpGe, q.LowerInf, q.Lower)
		add(true, ir.OpLe, q.UpperInf, q.Upper)
	case "<<":
		add(true, ir.OpLe, q.LowerInf, q.Lower)
	case ">>":
		add(false, ir.OpGe, q.UpperInf, q.Upper)
	case "&<":
		add(true, ir.OpLe, q.UpperInf, q.Upper)
	case "&>":
		add(false, ir.OpGe, q.LowerInf, q.Lower)
	case "&<'": // q &< r: q.upper ≤ r.upper
		add(true, ir.OpGe, q.UpperInf, q.Upper)
	case "&>'": // q &> r: q.lower ≥ r.lower
		add(false, ir.OpLe, q.LowerInf, q.Lower)
	}
	return out
}
