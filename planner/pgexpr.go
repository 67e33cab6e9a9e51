package planner

import (
	"regexp"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// Binding of the PostgreSQL expression syntax the parser respells as zp_
// calls (parser/operators.go): array constructors, subscripts and slices,
// quantified comparisons with arrays, the regex and array operators,
// SIMILAR TO; and casts to the reg* types, which look names up in the
// catalog.

// bindPGCall binds n if it is one of those calls.
func (b *Binder) bindPGCall(sc *scope, n *ast.FuncCallExpr, agg *aggBinder) (ir.Expr, bool, error) {
	name := n.FnName.L
	switch name {
	case parser.ArraySubFunc:
		e, err := b.bindArraySubquery(sc, n)
		return e, true, err
	case parser.SubscriptAssignFunc:
		if len(n.Args) != 2 {
			return nil, false, nil
		}
		e, err := b.bindSubscriptExpr(sc, n)
		return e, true, err
	case parser.QuantifiedSubFunc:
		e, err := b.bindQuantifiedSubquery(sc, n)
		return e, true, err
	case "trim":
		return b.bindTrim(sc, n, agg)
	case "pg_typeof":
		if len(n.Args) != 1 {
			return nil, true, pgerr.New(pgerr.UndefinedFunction, "function pg_typeof with %d arguments does not exist", len(n.Args))
		}
		x, err := b.childTyped(sc, n.Args[0], agg)
		if err != nil {
			return nil, true, err
		}
		t := x.Type()
		oid := t.OID()
		if t.ID == sqltypes.Unknown {
			oid = 705 // unknown
		}
		return &ir.Const{V: sqltypes.NewReg(oid, pgcatalog.NewEnv(b.snap, nil).RegName(sqltypes.TypeRegType, oid)), Typ: sqltypes.TypeRegType}, true, nil
	case parser.RowFunc:
		e, err := b.bindRowValue(sc, &ast.RowExpr{Values: n.Args}, agg)
		return e, true, err
	case "pg_column_size":
		return b.bindStoredColumnSize(sc, n, agg)
	case parser.ArrayFunc, parser.SubscriptFunc, parser.SliceFunc, parser.AnyFunc, parser.AllFunc, parser.OpFunc, parser.SimilarFunc, parser.FieldFunc:
	default:
		return nil, false, nil
	}
	args := make([]ir.Expr, len(n.Args))
	for i, a := range n.Args {
		if f, ok := a.(*ast.FuncCallExpr); ok && f.FnName.L == parser.NoBoundFunc {
			continue // a slice bound left out: nil
		}
		x, err := b.child(sc, a, agg)
		if err != nil {
			return nil, true, err
		}
		args[i] = x
	}
	var e ir.Expr
	var err error
	switch name {
	case parser.ArrayFunc:
		e, err = b.bindArrayCtor(args)
	case parser.SubscriptFunc:
		e, err = b.bindSubscript(args, n.Args)
	case parser.SliceFunc:
		e, err = b.bindSlice(args, n.Args)
	case parser.AnyFunc, parser.AllFunc:
		e, err = b.bindQuantified(args, name == parser.AllFunc, isQuantifiedSub(n.Args[len(n.Args)-1]))
	case parser.OpFunc:
		op := opText(args[0])
		bare := publicOperator(op)
		if len(args) == 2 {
			e, err = b.withUserOperators(op, nil, args[1], func() (ir.Expr, error) { return b.bindPrefixOp(bare, args[1]) }) // ~x
			break
		}
		e, err = b.withUserOperators(op, args[1], args[2], func() (ir.Expr, error) { return b.bindOperator(bare, args[1], args[2]) })
	case parser.SimilarFunc:
		e, err = b.bindSimilar(args)
	case parser.FieldFunc:
		e, err = b.bindField(args[0], opText(args[1]))
	}
	return e, true, err
}

func opText(e ir.Expr) string {
	if c, ok := e.(*ir.Const); ok {
		return c.V.S
	}
	return ""
}

// arrayElem is the element type of an array type, or of int2vector and
// oidvector; ok false for any other type.
func arrayElem(t sqltypes.Type) (sqltypes.Type, bool) {
	switch t.ID {
	case sqltypes.Array:
		return t.ElemType(), true
	case sqltypes.Int2Vector, sqltypes.OidVector:
		return sqltypes.VectorElem(t), true
	}
	return sqltypes.Type{}, false
}

// bindArraySubquery binds ARRAY(subquery).
func (b *Binder) bindArraySubquery(sc *scope, n *ast.FuncCallExpr) (ir.Expr, error) {
	sq, ok := n.Args[0].(*ast.SubqueryExpr)
	if len(n.Args) != 1 || !ok {
		return nil, pgerr.New(pgerr.SyntaxError, "ARRAY() needs a subquery")
	}
	rel, corr, err := b.bindSubquery(sc, sq.Query)
	if err != nil {
		return nil, err
	}
	cols := rel.Columns()
	if len(cols) != 1 {
		return nil, pgerr.New(pgerr.SyntaxError, "subquery must return only one column")
	}
	elem := cols[0].Type
	if elem.ID == sqltypes.Unknown {
		elem = sqltypes.TypeText
	}
	if e, ok := arrayElem(elem); ok && elem.ID != sqltypes.Array {
		elem = sqltypes.ArrayOf(e)
	}
	return &ir.Subquery{Kind: ir.ArraySubquery, Plan: rel, Correlated: corr, Typ: sqltypes.ArrayOf(elem), ID: b.newSubqueryID()}, nil
}

// bindQuantifiedSubquery binds the subquery of x op ANY|ALL (subquery)
// (parser.QuantifiedSubFunc) as ARRAY(subquery) of its column, whose
// elements bindQuantified compares as it compares an array's: a subquery's
// rows are the elements, NULLs and no rows counting as they do in an
// array.
func (b *Binder) bindQuantifiedSubquery(sc *scope, n *ast.FuncCallExpr) (ir.Expr, error) {
	var arg ast.ExprNode
	if len(n.Args) == 1 {
		arg = n.Args[0]
	}
	for {
		p, ok := arg.(*ast.ParenthesesExpr)
		if !ok {
			break
		}
		arg = p.Expr // ANY ((SELECT ...))
	}
	sq, ok := arg.(*ast.SubqueryExpr)
	if !ok {
		return nil, pgerr.New(pgerr.SyntaxError, "ANY/ALL needs a subquery")
	}
	rel, corr, err := b.bindSubquery(sc, sq.Query)
	if err != nil {
		return nil, err
	}
	switch cols := rel.Columns(); {
	case len(cols) > 1:
		return nil, pgerr.New(pgerr.SyntaxError, "subquery has too many columns")
	case len(cols) == 0:
		return nil, pgerr.New(pgerr.SyntaxError, "subquery has too few columns")
	}
	elem := quantifiedRowType(rel)
	return &ir.Subquery{Kind: ir.ArraySubquery, Plan: rel, Correlated: corr, Typ: sqltypes.ArrayOf(elem), ID: b.newSubqueryID()}, nil
}

// quantifiedRowType is the type of the values a quantified subquery's
// column holds (an unknown literal's is text, as a subquery's output).
func quantifiedRowType(rel ir.Rel) sqltypes.Type {
	t := rel.Columns()[0].Type
	if t.ID == sqltypes.Unknown {
		t = sqltypes.TypeText
	}
	return t
}

// isQuantifiedSub reports whether node is parser.QuantifiedSubFunc's call.
func isQuantifiedSub(node ast.ExprNode) bool {
	f, ok := node.(*ast.FuncCallExpr)
	return ok && f.FnName.L == parser.QuantifiedSubFunc
}

// bindArrayCtor binds ARRAY[...]: the elements' common type; elements that
// are arrays themselves make a multidimensional array.
func (b *Binder) bindArrayCtor(args []ir.Expr) (ir.Expr, error) {
	if len(args) == 0 {
		// ARRAY[] takes its type from a cast; alone it is text[].
		return &ir.Const{V: sqltypes.NewArray1(sqltypes.TypeText, nil), Typ: sqltypes.ArrayOf(sqltypes.TypeText)}, nil
	}
	// The elements' common type, untyped ones (NULL, '...') taking it.
	typ := sqltypes.TypeUnknown
	for _, a := range args {
		if a.Type().ID == sqltypes.Unknown {
			continue
		}
		t, err := commonType(typ, a.Type(), "ARRAY")
		if err != nil {
			return nil, err
		}
		typ = t
	}
	if typ.ID == sqltypes.Unknown {
		typ = sqltypes.TypeText
	}
	for i := range args {
		b.inferParam(args[i], typ)
		x, err := b.coerceTo(args[i], typ, false)
		if err != nil {
			return nil, err
		}
		args[i] = x
	}
	nested := typ.ID == sqltypes.Array
	out := typ
	if !nested {
		out = sqltypes.ArrayOf(typ)
	}
	elem := out.ElemType()
	return fold(&ir.Func{Name: "array", Args: args, Typ: out, Fn: func(_ *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		if err := arrayLimit(a); err != nil {
			return sqltypes.Null, err
		}
		if !nested {
			return sqltypes.NewArray1(elem, append([]sqltypes.Value(nil), a...)), nil
		}
		return stackArrays(elem, a)
	}})
}

// arrayLimit checks the data of ARRAY[...] against the field limit, as
// PostgreSQL's construct_md_array does.
func arrayLimit(elems []sqltypes.Value) error {
	var n int64
	for _, v := range elems {
		n += sqltypes.DatumSize(v)
	}
	return sqltypes.ArrayBytesLimit(n)
}

// stackArrays makes ARRAY[a1, a2, ...] of arrays: one more dimension.
func stackArrays(elem sqltypes.Type, subs []sqltypes.Value) (sqltypes.Value, error) {
	var dims []int32
	var elems []sqltypes.Value
	for i, v := range subs {
		if v.IsNull() {
			return sqltypes.Null, pgerr.New(pgerr.ArraySubscriptError, "multidimensional arrays must have array expressions with matching dimensions")
		}
		a := v.Array()
		if i == 0 {
			dims = a.Dims
		} else if !sameDims(dims, a.Dims) {
			return sqltypes.Null, pgerr.New(pgerr.ArraySubscriptError, "multidimensional arrays must have array expressions with matching dimensions")
		}
		elems = append(elems, a.Elems...)
	}
	if len(elems) == 0 {
		return sqltypes.NewArray1(elem, nil), nil
	}
	if len(dims)+1 > sqltypes.MaxArrayDims {
		return sqltypes.Null, pgerr.New(pgerr.ProgramLimitExceeded, "number of array dimensions (%d) exceeds the maximum allowed (%d)", len(dims)+1, sqltypes.MaxArrayDims)
	}
	return sqltypes.NewArray(&sqltypes.ArrayValue{Elem: elem, Dims: append([]int32{int32(len(subs))}, dims...), Elems: elems}), nil
}

func sameDims(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// subscriptArgs checks the array operand and casts the subscripts to
// integer.
func (b *Binder) subscriptArgs(args []ir.Expr) (sqltypes.Type, error) {
	elem, ok := arrayElem(args[0].Type())
	if !ok {
		if args[0].Type().ID == sqltypes.Unknown {
			return elem, pgerr.New(pgerr.IndeterminateDatatype, "cannot subscript an untyped value").WithHint("Add a cast.")
		}
		return elem, pgerr.New(pgerr.DatatypeMismatch, "cannot subscript type %s because it does not support subscripting", args[0].Type())
	}
	return elem, b.integerSubscripts(args)
}

// integerSubscripts casts the subscripts args[1:] (nil for a slice's
// missing bound) to integer, as array subscripts are.
func (b *Binder) integerSubscripts(args []ir.Expr) error {
	for i := 1; i < len(args); i++ {
		if args[i] == nil {
			continue
		}
		b.inferParam(args[i], sqltypes.TypeInt4)
		if !args[i].Type().IsNumeric() && args[i].Type().ID != sqltypes.Unknown {
			return pgerr.New(pgerr.DatatypeMismatch, "array subscript must have type integer")
		}
		x, err := b.coerceTo(args[i], sqltypes.TypeInt4, true)
		if err != nil {
			return err
		}
		args[i] = x
	}
	return nil
}

// bindSubscript binds x[i] and x[i][j]: the element, or NULL out of range.
// nodes are the call's arguments, which errors point at.
func (b *Binder) bindSubscript(args []ir.Expr, nodes []ast.ExprNode) (ir.Expr, error) {
	if args[0].Type().ID == sqltypes.Name && len(args) == 2 {
		return b.bindNameSubscript(args)
	}
	if isHstore(args[0].Type()) {
		return b.bindHstoreSubscript(args)
	}
	if _, ok := sqltypes.GeoElemType(args[0].Type().ID); ok {
		return b.bindFixedSubscript(args)
	}
	if args[0].Type().ID == sqltypes.JSONB {
		return b.bindJSONBSubscript(args, nodes)
	}
	elem, err := b.subscriptArgs(args)
	if err != nil {
		return nil, err
	}
	return fold(&ir.Func{Name: "subscript", Args: args, Typ: elem, Fn: strict(func(_ *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		arr := a[0].Array()
		if len(a)-1 != len(arr.Dims) {
			return sqltypes.Null, nil
		}
		off := 0
		for d := range arr.Dims {
			i := a[d+1].I - int64(arr.LowerBound(d))
			if i < 0 || i >= int64(arr.Dims[d]) {
				return sqltypes.Null, nil
			}
			off = off*int(arr.Dims[d]) + int(i)
		}
		return arr.Elems[off], nil
	})})
}

// nameLen is NAMEDATALEN, the bytes of a name: PostgreSQL stores a name
// as a fixed array of that many "char", zero-padded, and subscripts it as
// one from 0 (pg_dump's typname[0] = '_').
const nameLen = 64

// bindNameSubscript binds name[i]: its byte i as "char", an empty "char"
// past its end, NULL outside 0 .. 63.
func (b *Binder) bindNameSubscript(args []ir.Expr) (ir.Expr, error) {
	b.inferParam(args[1], sqltypes.TypeInt4)
	if !args[1].Type().IsNumeric() && args[1].Type().ID != sqltypes.Unknown {
		return nil, pgerr.New(pgerr.DatatypeMismatch, "array subscript must have type integer")
	}
	i, err := b.coerceTo(args[1], sqltypes.TypeInt4, true)
	if err != nil {
		return nil, err
	}
	return fold(&ir.Func{Name: "subscript", Args: []ir.Expr{args[0], i}, Typ: sqltypes.TypeChar, Fn: strict(func(_ *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		s, at := a[0].S, a[1].I
		switch {
		case at < 0 || at >= nameLen:
			return sqltypes.Null, nil
		case at >= int64(len(s)):
			return sqltypes.NewText(""), nil
		}
		return sqltypes.NewText(s[at : at+1]), nil
	})})
}

// bindSlice binds x[lo:hi] (one dimension); a missing bound is the array's
// own. nodes are the call's arguments, which errors point at.
func (b *Binder) bindSlice(args []ir.Expr, nodes []ast.ExprNode) (ir.Expr, error) {
	if isHstore(args[0].Type()) {
		return nil, errHstoreSubscripts()
	}
	if _, ok := sqltypes.GeoElemType(args[0].Type().ID); ok {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "slices of fixed-length arrays not implemented")
	}
	if args[0].Type().ID == sqltypes.JSONB {
		return nil, b.errJSONBSlices(nodes)
	}
	elem, err := b.subscriptArgs(args)
	if err != nil {
		return nil, err
	}
	if len(args) != 3 {
		return nil, unsupported("slices of more than one dimension are not supported")
	}
	typ := sqltypes.ArrayOf(elem)
	present := [2]bool{args[1] != nil, args[2] != nil}
	var kids []ir.Expr
	for _, a := range args {
		if a != nil {
			kids = append(kids, a)
		}
	}
	return fold(&ir.Func{Name: "slice", Args: kids, Typ: typ, Fn: strict(func(_ *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		arr := a[0].Array()
		if len(arr.Dims) == 0 {
			return sqltypes.NewArray1(elem, nil), nil
		}
		if len(arr.Dims) != 1 {
			return sqltypes.Null, unsupported("slices of multidimensional arrays are not supported")
		}
		lb := int64(arr.LowerBound(0))
		lo, hi := lb, lb+int64(arr.Dims[0])-1
		k := 1
		if present[0] {
			lo = max(lo, a[k].I)
			k++
		}
		if present[1] {
			hi = min(hi, a[k].I)
		}
		if lo > hi {
			return sqltypes.NewArray1(elem, nil), nil
		}
		return sqltypes.NewArray1(elem, append([]sqltypes.Value(nil), arr.Elems[lo-lb:hi-lb+1]...)), nil
	})})
}

// bindQuantified binds x op ANY|ALL (array).
func (b *Binder) bindQuantified(args []ir.Expr, all, rows bool) (ir.Expr, error) {
	left, op, arr := args[0], opText(args[1]), args[2]
	if rows {
		// x op ANY (subquery): the elements are the column's values,
		// arrays too (ARRAY(subquery)'s array type would not tell).
		if sq, ok := arr.(*ir.Subquery); ok {
			return b.bindQuantifiedElems(left, op, arr, quantifiedRowType(sq.Plan), all, rows)
		}
	}
	if arr.Type().ID == sqltypes.Unknown {
		lt := left.Type()
		if lt.ID == sqltypes.Unknown {
			lt = sqltypes.TypeText
			var err error
			if left, err = b.coerceTo(left, lt, false); err != nil {
				return nil, err
			}
		}
		// The elements take the operand's type without its modifier,
		// as a compared literal does (operatorArgType).
		at := sqltypes.ArrayOf(operatorArgType(lt))
		b.inferParam(arr, at)
		var err error
		if arr, err = b.coerceTo(arr, at, false); err != nil {
			return nil, err
		}
	}
	elem, ok := arrayElem(arr.Type())
	if !ok {
		return nil, pgerr.New(pgerr.WrongObjectType, "op ANY/ALL (array) requires array on right side")
	}
	return b.bindQuantifiedElems(left, op, arr, elem, all, rows)
}

// bindQuantifiedElems binds left op ANY|ALL over arr's elements, of type
// elem; rows says arr is a quantified subquery's (whose operator PostgreSQL
// checks as a row comparison's).
func (b *Binder) bindQuantifiedElems(left ir.Expr, op string, arr ir.Expr, elem sqltypes.Type, all, rows bool) (ir.Expr, error) {
	// The comparison of one element decides the types, as for x op elem.
	probe := &ir.ColRef{Index: 0, Name: "elem", Typ: elem}
	var test func(ctx *ir.EvalContext, left, elem sqltypes.Value) (sqltypes.Value, error)
	if ops, err := b.userOperators(op, false); err != nil {
		return nil, err
	} else if _, _, qualified := splitOperatorName(op); qualified || len(ops) > 0 {
		// A user-defined operator (or a name one shares): x op elem
		// binds as zp_op's does, over both operands as columns, since
		// the operator's function may inline into any shape.
		lp := &ir.ColRef{Index: 1, Name: "left", Typ: left.Type()}
		pred, err := b.withUserOperators(op, lp, probe, func() (ir.Expr, error) { return b.bindQuantifiedOp(op, lp, probe) })
		if err != nil {
			return nil, err
		}
		if err := quantifiedResult(pred, rows); err != nil {
			return nil, err
		}
		test = func(ctx *ir.EvalContext, left, elem sqltypes.Value) (sqltypes.Value, error) {
			return pred.Eval(ctx, []sqltypes.Value{elem, left})
		}
	} else {
		pred, err := b.bindQuantifiedOp(op, left, probe)
		if err != nil {
			return nil, err
		}
		if err := quantifiedResult(pred, rows); err != nil {
			return nil, err
		}
		left = operandOf(pred, 0, left)
		test = elementTest(pred)
	}
	return fold(&ir.Func{Name: map[bool]string{false: "any", true: "all"}[all], Op: op, Args: []ir.Expr{left, arr}, Typ: sqltypes.TypeBool,
		Fn: func(ctx *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
			if a[1].IsNull() {
				return sqltypes.Null, nil
			}
			sawNull := false
			for _, e := range a[1].Array().Elems {
				v, err := test(ctx, a[0], e)
				if err != nil {
					return v, err
				}
				switch {
				case v.IsNull():
					sawNull = true
				case v.Bool() != all:
					return sqltypes.NewBool(!all), nil
				}
			}
			if sawNull {
				return sqltypes.Null, nil
			}
			return sqltypes.NewBool(all), nil
		}})
}

// bindQuantifiedOp binds l op r for ANY/ALL: an other operator (||, @>,
// ->, ...) as the parser's respelling of it binds (bindOtherOp), any other
// as zp_op's.
func (b *Binder) bindQuantifiedOp(op string, l, r ir.Expr) (ir.Expr, error) {
	if !parser.OtherOperators[op] {
		return b.bindOperator(op, l, r)
	}
	bind, ok := otherOpBinding(op)
	if !ok {
		return nil, noOperator(op, l.Type(), r.Type())
	}
	return b.bindBuiltinOtherOp(op, bind, l, r)
}

// quantifiedResult checks that the operator of ANY/ALL, bound as pred,
// yields boolean, with PostgreSQL's error for an array (make_scalar_array_op)
// or a subquery (make_row_comparison_op).
func quantifiedResult(pred ir.Expr, rows bool) error {
	t := pred.Type()
	switch {
	case t.ID == sqltypes.Bool:
		return nil
	case rows:
		return pgerr.New(pgerr.DatatypeMismatch, "row comparison operator must yield type boolean, not type %s", t.UnmodifiedName())
	}
	return pgerr.New(pgerr.WrongObjectType, "op ANY/ALL (array) requires operator to yield boolean")
}

// operandOf returns the left operand as the bound comparison cast it (the
// probe's column stands for the element).
func operandOf(pred ir.Expr, _ int, left ir.Expr) ir.Expr {
	switch p := pred.(type) {
	case *ir.Binary:
		return p.L
	case *ir.Func:
		if len(p.Args) == 2 {
			return p.Args[0]
		}
	case *ir.Like:
		return p.E
	}
	return left
}

// elementTest evaluates a bound comparison of the left value with one
// element (the probe column 0 of a one-value row).
func elementTest(pred ir.Expr) func(ctx *ir.EvalContext, left, elem sqltypes.Value) (sqltypes.Value, error) {
	var rebuilt ir.Expr
	switch p := pred.(type) {
	case *ir.Binary:
		c := *p
		c.L = &ir.ColRef{Index: 1, Name: "left", Typ: p.L.Type()}
		rebuilt = &c
	case *ir.Func:
		c := *p
		c.Args = []ir.Expr{&ir.ColRef{Index: 1, Name: "left", Typ: p.Args[0].Type()}, p.Args[1]}
		rebuilt = &c
	case *ir.Like:
		c := *p
		c.E = &ir.ColRef{Index: 1, Name: "left", Typ: p.E.Type()}
		rebuilt = &c
	default:
		rebuilt = pred
	}
	return func(ctx *ir.EvalContext, left, elem sqltypes.Value) (sqltypes.Value, error) {
		return rebuilt.Eval(ctx, []sqltypes.Value{elem, left})
	}
}

// bindOperator binds l op r for the operators the parser respells.
func (b *Binder) bindOperator(op string, l, r ir.Expr) (ir.Expr, error) {
	if e, ok, err := b.ltreeOperator(op, l, r); ok {
		return e, err // ltree.go
	}
	if geoOperand(l) || geoOperand(r) {
		return b.bindRegisteredOp(op, l, r) // builtins/geometric.go
	}
	if geometryOperand(l) || geometryOperand(r) {
		switch op {
		case "&&", "~=", "~", "@", "<<", "&<", ">>", "&>", "<<|", "&<|", "|>>", "|&>":
			// PostGIS's box operators (builtins/ext_postgis.go).
			return b.bindRegisteredOp(op, l, r)
		}
	}
	if netOperand(l) || netOperand(r) {
		switch op {
		case "&&", "&", "|":
			// The network types' operators of these spellings are in
			// the registry (builtins/network.go).
			return b.bindRegisteredOp(op, l, r)
		}
	}
	switch op {
	case "=", "<>", "!=", "<", "<=", ">", ">=":
		bop := ir.BinOp(op)
		if op == "!=" {
			bop = ir.OpNe
		}
		return b.compare(bop, l, r)
	case "~", "~*", "!~", "!~*":
		// citext's regular-expression operators ignore case whatever
		// their spelling (texticregexeq).
		icase := strings.HasSuffix(op, "*") || l.Type().ID == sqltypes.Citext
		l, r, err := b.textOperands(op, l, r)
		if err != nil {
			return nil, err
		}
		return b.regexMatch(l, r, icase, strings.HasPrefix(op, "!"))
	case "~~", "~~*", "!~~", "!~~*":
		if l.Type().ID == sqltypes.Bytea || r.Type().ID == sqltypes.Bytea {
			return b.bindRegisteredOp(op, l, r) // bytealike, byteanlike (builtins/like.go)
		}
		icase := strings.HasSuffix(op, "*") || l.Type().ID == sqltypes.Citext
		l, r, err := b.textOperands(op, l, r)
		if err != nil {
			return nil, err
		}
		return &ir.Like{E: l, Pattern: r, Neg: strings.HasPrefix(op, "!"), CaseInsensitive: icase, Escape: '\\'}, nil
	case "^@":
		l, r, err := b.textOperands(op, l, r)
		if err != nil {
			return nil, err
		}
		return fold(&ir.Func{Name: "starts_with", Args: []ir.Expr{l, r}, Typ: sqltypes.TypeBool, Fn: strict(func(_ *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewBool(strings.HasPrefix(a[0].S, a[1].S)), nil
		})})
	case "@>", "<@", "&&":
		if e, ok, err := b.rangeOperator(op, l, r); ok {
			return e, err
		}
		if isTextSearch(l.Type()) || isTextSearch(r.Type()) {
			return b.bindRegisteredOp(op, l, r) // tsquery's (tsearch.go)
		}
		if isACLItemType(l.Type()) {
			return b.bindRegisteredOp(op, l, r) // aclitem[] @> aclitem (pgcatalog/aclitem.go)
		}
		return b.arrayOperator(op, l, r)
	case "&", "|", "#":
		return b.bitwise(op, l, r)
	case "<<", ">>", "<<=", ">>=":
		// Integer shifts and network containment: the registry's.
		return b.bindRegisteredOp(op, l, r)
	}
	if _, ok := recordImageOps[op]; ok {
		return b.bindRecordImage(op, l, r)
	}
	if builtins.HasOperator(op) {
		// Any other operator the registry has (the ~<~ pattern
		// comparisons ...).
		return b.bindRegisteredOp(op, l, r)
	}
	return nil, noOperator(op, l.Type(), r.Type())
}

// bindPrefixOp binds a prefix operator other than the signs (~ @ |/) by
// the registry's overloads for its operand's type; an untyped operand
// takes the category's preferred type when the candidates agree on one
// (@ '-1' is float8's) and is ambiguous when they do not (~ '5' is an
// integer's or a bit string's).
func (b *Binder) bindPrefixOp(op string, e ir.Expr) (ir.Expr, error) {
	res, err := builtins.ResolveOperator(op, []sqltypes.Type{e.Type()})
	if err != nil {
		return nil, err
	}
	args := []ir.Expr{e}
	if err := b.coerceArgs(args, res.ArgTypes); err != nil {
		return nil, err
	}
	ov := res.Overload
	return fold(&ir.Func{Name: op, Args: args, Typ: res.Result, Fn: strict(func(ctx *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		return ov.Eval(fnContext(ctx), a)
	})})
}

// netOperand reports whether e is of a network address type.
// geoOperand reports whether e is a geometry or geography.
// geometryOperand reports a PostGIS geometry or geography operand.
func geometryOperand(e ir.Expr) bool { return e.Type().Kind() == sqltypes.KindGeometry }

func netOperand(e ir.Expr) bool {
	k := e.Type().Kind()
	return k == sqltypes.KindInet || k == sqltypes.KindMacAddr
}

// textOperands types both operands of a string operator as text.
func (b *Binder) textOperands(op string, l, r ir.Expr) (ir.Expr, ir.Expr, error) {
	lt, rt := l.Type(), r.Type() // (an untyped side is "unknown" in a 42883)
	for _, e := range []*ir.Expr{&l, &r} {
		b.inferParam(*e, sqltypes.TypeText)
		t := (*e).Type()
		switch {
		case t.ID == sqltypes.Unknown:
			x, err := b.coerceTo(*e, sqltypes.TypeText, false)
			if err != nil {
				return nil, nil, err
			}
			*e = x
		case t.ID == sqltypes.Citext:
			// citext's operators match its text.
			x, err := b.coerceTo(*e, sqltypes.TypeText, false)
			if err != nil {
				return nil, nil, err
			}
			*e = x
		case t.Kind() != sqltypes.KindText && t.Kind() != sqltypes.KindBPChar:
			return nil, nil, noOperator(op, lt, rt)
		}
	}
	return l, r, nil
}

// regexMatch binds s ~ pattern (flags: case-insensitive, negated). A
// constant pattern compiles once, here, so a bad one fails at once.
func (b *Binder) regexMatch(s, pat ir.Expr, icase, neg bool) (ir.Expr, error) {
	flags := ""
	if icase {
		flags = "i"
	}
	name := map[[2]bool]string{{false, false}: "~", {true, false}: "~*", {false, true}: "!~", {true, true}: "!~*"}[[2]bool{icase, neg}]
	var re *regexp.Regexp
	if c, ok := pat.(*ir.Const); ok && !c.V.IsNull() {
		var err error
		if re, err = builtins.CompileRegex(c.V.S, flags); err != nil {
			return nil, err
		}
	}
	return fold(&ir.Func{Name: name, Args: []ir.Expr{s, pat}, Typ: sqltypes.TypeBool, Fn: strict(func(_ *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		rx := re
		if rx == nil {
			var err error
			if rx, err = builtins.CompileRegex(a[1].S, flags); err != nil {
				return sqltypes.Null, err
			}
		}
		return sqltypes.NewBool(rx.MatchString(a[0].S) != neg), nil
	})})
}

// bindSimilar binds the pattern of SIMILAR TO as the regex it means.
func (b *Binder) bindSimilar(args []ir.Expr) (ir.Expr, error) {
	for i := range args {
		b.inferParam(args[i], sqltypes.TypeText)
		x, err := b.coerceTo(args[i], sqltypes.TypeText, false)
		if err != nil {
			return nil, err
		}
		args[i] = x
	}
	return fold(&ir.Func{Name: "similar_to_escape", Args: args, Typ: sqltypes.TypeText, Fn: strict(func(_ *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		esc := "\\"
		if len(a) > 1 {
			esc = a[1].S
		}
		s, err := builtins.SimilarToRegex(a[0].S, esc)
		return sqltypes.NewText(s), err
	})})
}

// arrayOperator binds @> (contains), <@ (is contained by) and && (overlaps)
// between arrays of one element type.
func (b *Binder) arrayOperator(op string, l, r ir.Expr) (ir.Expr, error) {
	lt, rt := l.Type(), r.Type()
	switch {
	case lt.ID == sqltypes.Unknown && rt.ID != sqltypes.Unknown:
		b.inferParam(l, rt)
		x, err := b.coerceTo(l, rt, false)
		if err != nil {
			return nil, err
		}
		l, lt = x, rt
	case rt.ID == sqltypes.Unknown && lt.ID != sqltypes.Unknown:
		b.inferParam(r, lt)
		x, err := b.coerceTo(r, lt, false)
		if err != nil {
			return nil, err
		}
		r, rt = x, lt
	}
	le, lok := arrayElem(lt)
	re, rok := arrayElem(rt)
	if !lok || !rok || !(le.Kind() == re.Kind() || le.IsNumeric() && re.IsNumeric()) {
		return nil, noOperator(op, lt, rt)
	}
	contains := func(outer, inner *sqltypes.ArrayValue) bool {
		for _, x := range inner.Elems {
			found := false
			for _, y := range outer.Elems {
				if !x.IsNull() && !y.IsNull() && sqltypes.Compare(x, y) == 0 {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	}
	return fold(&ir.Func{Name: op, Args: []ir.Expr{l, r}, Typ: sqltypes.TypeBool, Fn: strict(func(_ *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		x, y := a[0].Array(), a[1].Array()
		switch op {
		case "@>":
			return sqltypes.NewBool(contains(x, y)), nil
		case "<@":
			return sqltypes.NewBool(contains(y, x)), nil
		}
		for _, p := range x.Elems {
			for _, q := range y.Elems {
				if !p.IsNull() && !q.IsNull() && sqltypes.Compare(p, q) == 0 {
					return sqltypes.NewBool(true), nil
				}
			}
		}
		return sqltypes.NewBool(false), nil
	})})
}

// arrayConcat binds || when an operand is an array: array_cat,
// array_append or array_prepend. ok is false when neither operand is one.
func (b *Binder) arrayConcat(args []ir.Expr) (ir.Expr, bool, error) {
	if len(args) != 2 {
		return nil, false, nil
	}
	l, r := args[0], args[1]
	_, lok := arrayElem(l.Type())
	_, rok := arrayElem(r.Type())
	if !lok && !rok {
		return nil, false, nil
	}
	var name string
	switch {
	case lok && rok:
		name = "array_cat"
	case lok && r.Type().ID == sqltypes.Unknown:
		name = "array_cat" // an untyped literal beside an array is an array, as PostgreSQL resolves it
	case lok:
		name = "array_append"
	case l.Type().ID == sqltypes.Unknown:
		name = "array_cat"
	default:
		name = "array_prepend"
	}
	e, err := b.bindBuiltin(name, args)
	if pgerr.CodeOf(err) == pgerr.UndefinedFunction {
		// Arrays of types with no common type: the operator's error.
		return nil, true, noOperator("||", l.Type(), r.Type())
	}
	if f, ok := e.(*ir.Func); ok && err == nil {
		f.Op = "||" // written as the operator, which Deparse prints
	}
	return e, true, err
}

// bindRegCast binds a cast to or from a reg* type: names are looked up in
// the catalog (now for a constant, else when the statement runs) and
// numbers get the name they print as.
func (b *Binder) bindRegCast(e ir.Expr, t sqltypes.Type) (ir.Expr, error) {
	return b.regCast(e, t, true)
}

// regCast is bindRegCast; with fold false a constant is looked up when
// the statement runs too, as PostgreSQL's implicit text-to-regclass cast
// (the stable function regclass(text)) is: nextval('nosuch'::text) fails
// when it runs, not when it is prepared.
func (b *Binder) regCast(e ir.Expr, t sqltypes.Type, fold bool) (ir.Expr, error) {
	src := e.Type()
	if !t.IsReg() {
		// From a reg* type: to oid or an integer by number, to text by name.
		if c, ok := e.(*ir.Const); ok {
			v, err := sqltypes.CastExplicit(c.V, t)
			if err != nil {
				return nil, err
			}
			return &ir.Const{V: v, Typ: t}, nil
		}
		return &ir.Cast{E: e, To: t, Explicit: true}, nil
	}
	env := pgcatalog.NewEnv(b.snap, nil)
	resolve := func(cat builtins.Catalog, v sqltypes.Value) (sqltypes.Value, error) {
		if v.IsNull() {
			return v, nil
		}
		if cat == nil {
			cat = env
		}
		switch {
		case v.K == sqltypes.KindInt:
			c, err := sqltypes.CastExplicit(sqltypes.NewInt(v.I), t)
			if err != nil {
				return c, err
			}
			return sqltypes.NewReg(uint32(c.I), cat.RegName(t, uint32(c.I))), nil
		case v.K == sqltypes.KindText || v.K == sqltypes.KindBPChar:
			if sqltypes.IsOIDText(v.S) {
				o, err := sqltypes.ParseOID(v.S)
				if err != nil {
					return sqltypes.Null, err
				}
				return sqltypes.NewReg(o, cat.RegName(t, o)), nil
			}
			if v.S == "-" && t.ID != sqltypes.RegOper && t.ID != sqltypes.RegOperator {
				// The reg* input functions read "-" as InvalidOid; for
				// regoper and regoperator it is the operator's name.
				return sqltypes.NewReg(0, cat.RegName(t, 0)), nil
			}
			o, err := cat.RegOID(t, strings.TrimSpace(v.S))
			if err != nil {
				return sqltypes.Null, err
			}
			return sqltypes.NewReg(o, cat.RegName(t, o)), nil
		}
		return sqltypes.Null, pgerr.New(pgerr.CannotCoerce, "cannot cast type %s to %s", src, t)
	}
	if src.ID != sqltypes.Unknown && src.Kind() != sqltypes.KindInt && src.Kind() != sqltypes.KindText && src.Kind() != sqltypes.KindBPChar ||
		src.IsReg() && !builtins.ImplicitCast(src, t) {
		// (One reg* type converts to another only as pg_cast lists:
		// regproc and regprocedure, regoper and regoperator.)
		return nil, pgerr.New(pgerr.CannotCoerce, "cannot cast type %s to %s", src, t)
	}
	if c, ok := e.(*ir.Const); ok && (fold || c.V.IsNull()) {
		v, err := resolve(nil, c.V)
		if err != nil {
			return nil, err
		}
		return &ir.Const{V: v, Typ: t}, nil
	}
	b.inferParam(e, sqltypes.TypeText)
	return &ir.Func{Name: t.String(), Args: []ir.Expr{e}, Typ: t, Volatile: true, Fn: func(ctx *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		var cat builtins.Catalog
		if ctx != nil {
			cat = ctx.Fn.Catalog
		}
		return resolve(cat, a[0])
	}}, nil
}

// nameRegElems gives each element of e, an array of a reg* type that a
// cast filled with bare OIDs, its name ('{23,25}'::oid[]::regtype[] prints
// {integer,text}, as pgcli reads proargtypes::regtype[]).
func (b *Binder) nameRegElems(e ir.Expr, t sqltypes.Type) ir.Expr {
	elem := t.ElemType()
	env := pgcatalog.NewEnv(b.snap, nil)
	name := func(cat builtins.Catalog, v sqltypes.Value) sqltypes.Value {
		a := v.Array()
		if a == nil {
			return v
		}
		out := *a
		out.Elems = make([]sqltypes.Value, len(a.Elems))
		for i, x := range a.Elems {
			if x.IsNull() {
				out.Elems[i] = x
				continue
			}
			out.Elems[i] = sqltypes.NewReg(uint32(x.I), cat.RegName(elem, uint32(x.I)))
		}
		return sqltypes.NewArray(&out)
	}
	if c, ok := e.(*ir.Const); ok {
		return &ir.Const{V: name(env, c.V), Typ: t}
	}
	return &ir.Func{Name: t.String(), Args: []ir.Expr{e}, Typ: t, Volatile: true, Fn: func(ctx *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		if a[0].IsNull() {
			return a[0], nil
		}
		var cat builtins.Catalog = env
		if ctx != nil && ctx.Fn.Catalog != nil {
			cat = ctx.Fn.Catalog
		}
		return name(cat, a[0]), nil
	}}
}

// regArrayFromText reads a text array constant as an array of a reg*
// type, each element by name (or number) as the scalar cast reads it.
func (b *Binder) regArrayFromText(c *ir.Const, t sqltypes.Type) (ir.Expr, error) {
	if c.V.IsNull() {
		return &ir.Const{V: c.V, Typ: t}, nil
	}
	texts, err := ir.CastValueStyled(c.V, c.Typ, sqltypes.ArrayOf(sqltypes.TypeText), true, b.castStyle())
	if err != nil {
		return nil, err
	}
	a := texts.Array()
	out := *a
	out.Elem = t.ElemType()
	out.Elems = make([]sqltypes.Value, len(a.Elems))
	for i, x := range a.Elems {
		if x.IsNull() {
			out.Elems[i] = x
			continue
		}
		r, err := b.bindRegCast(&ir.Const{V: x, Typ: sqltypes.TypeText}, t.ElemType())
		if err != nil {
			return nil, err
		}
		rc, ok := r.(*ir.Const)
		if !ok {
			return nil, pgerr.New(pgerr.InternalError, "a reg* cast of a constant did not fold")
		}
		out.Elems[i] = rc.V
	}
	return &ir.Const{V: sqltypes.NewArray(&out), Typ: t}, nil
}

// unnestFunc types unnest(array, ...) in FROM: one column per array, as
// many rows as the longest (the others padded with NULLs).
func (b *Binder) unnestFunc(tf *ir.TableFunc, args []ir.Expr) (*ir.TableFunc, error) {
	if len(args) == 0 {
		return nil, pgerr.New(pgerr.UndefinedFunction, "function unnest() does not exist")
	}
	for i, a := range args {
		if t := a.Type(); t.IsMultirange() {
			// unnest(multirange): its ranges, in order, read as an array
			// of them (args is tf.Args).
			rt := sqltypes.MultirangeRange(t.StripDomain())
			args[i] = &ir.Func{Name: "unnest", Args: []ir.Expr{a}, Typ: sqltypes.ArrayOf(rt),
				Fn: strict(func(_ *ir.EvalContext, v []sqltypes.Value) (sqltypes.Value, error) {
					ranges := v[0].Multirange().Ranges
					elems := make([]sqltypes.Value, len(ranges))
					for k, r := range ranges {
						elems[k] = sqltypes.NewRange(r)
					}
					return sqltypes.NewArray1(rt, elems), nil
				})}
			tf.Cols = append(tf.Cols, ir.Column{Name: "unnest", Type: rt, Col: -1})
			continue
		}
		elem, ok := arrayElem(a.Type())
		if !ok {
			if a.Type().ID == sqltypes.Unknown {
				return nil, pgerr.New(pgerr.IndeterminateDatatype, "could not determine polymorphic type because input has type unknown")
			}
			return nil, noFunction("unnest", []ir.Expr{a})
		}
		_ = i
		tf.Cols = append(tf.Cols, ir.Column{Name: "unnest", Type: elem, Col: -1})
	}
	return tf, nil
}

// bitwise binds the integer operators & (and), | (or) and # (xor).
func (b *Binder) bitwise(op string, l, r ir.Expr) (ir.Expr, error) {
	if l.Type().Kind() == sqltypes.KindBit || r.Type().Kind() == sqltypes.KindBit {
		return b.bindRegisteredOp(op, l, r) // bitand, bitor, bitxor
	}
	l, r, err := b.unify(op, l, r)
	if err != nil {
		return nil, err
	}
	lt, rt := l.Type(), r.Type()
	if lt.ID == sqltypes.Unknown {
		if l, err = b.coerceTo(l, sqltypes.TypeInt4, false); err != nil {
			return nil, err
		}
		if r, err = b.coerceTo(r, sqltypes.TypeInt4, false); err != nil {
			return nil, err
		}
		lt, rt = sqltypes.TypeInt4, sqltypes.TypeInt4
	}
	if lt.Kind() != sqltypes.KindInt || rt.Kind() != sqltypes.KindInt || lt.IsOIDLike() || rt.IsOIDLike() {
		return nil, noOperator(op, lt, rt)
	}
	typ := arithType(lt, rt)
	return fold(&ir.Func{Name: op, Args: []ir.Expr{l, r}, Typ: typ, Fn: strict(func(_ *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		switch op {
		case "&":
			return sqltypes.NewInt(a[0].I & a[1].I), nil
		case "|":
			return sqltypes.NewInt(a[0].I | a[1].I), nil
		}
		return sqltypes.NewInt(a[0].I ^ a[1].I), nil
	})})
}

// expandArrayFunc types information_schema._pg_expandarray(array): one
// record column (x, n), as pgJDBC's metadata queries read it.
func (b *Binder) expandArrayFunc(tf *ir.TableFunc, args []ir.Expr) (*ir.TableFunc, error) {
	if len(args) != 1 {
		return nil, pgerr.New(pgerr.UndefinedFunction, "function _pg_expandarray with %d arguments does not exist", len(args))
	}
	elem, ok := arrayElem(args[0].Type())
	if !ok {
		return nil, pgerr.New(pgerr.UndefinedFunction, "function _pg_expandarray(%s) does not exist", args[0].Type())
	}
	tf.Cols = append(tf.Cols, ir.Column{Name: "_pg_expandarray", Type: sqltypes.Type{ID: sqltypes.Record, Elem: elem.ID, Width: sqltypes.RecordExpandArray}, Col: -1})
	return tf, nil
}

// bindField binds (row).field.
func (b *Binder) bindField(e ir.Expr, name string) (ir.Expr, error) {
	i, t, ok := sqltypes.RecordField(e.Type(), name)
	if !ok {
		if e.Type().ID == sqltypes.Record {
			return nil, pgerr.New(pgerr.UndefinedColumn, "could not identify column %q in record data type", name)
		}
		return nil, pgerr.New(pgerr.SyntaxError, "column notation .%s applied to type %s, which is not a composite type", name, e.Type())
	}
	return fold(&ir.Func{Name: "." + name, Args: []ir.Expr{e}, Typ: t, Fn: strict(func(_ *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		return a[0].Array().Elems[i], nil
	})})
}

// bindTrim binds SQL's trim([BOTH | LEADING | TRAILING] [chars] FROM s),
// which TiDB parses with a direction argument, as btrim, ltrim or rtrim.
func (b *Binder) bindTrim(sc *scope, n *ast.FuncCallExpr, agg *aggBinder) (ir.Expr, bool, error) {
	name := "btrim"
	var args []ir.Expr
	for _, a := range n.Args {
		if d, ok := a.(*ast.TrimDirectionExpr); ok {
			switch d.Direction {
			case ast.TrimLeading:
				name = "ltrim"
			case ast.TrimTrailing:
				name = "rtrim"
			}
			continue
		}
		x, err := b.child(sc, a, agg)
		if err != nil {
			return nil, true, err
		}
		args = append(args, x)
	}
	e, err := b.bindBuiltin(name, args)
	if f, ok := e.(*ir.Func); ok && err == nil {
		f.Op = "TRIM" // written TRIM(...), which Deparse prints so
	}
	return e, true, err
}

// bindStoredColumnSize binds pg_column_size(col) of a column read straight
// from a stored table, which PostgreSQL measures in its on-disk form
// (builtins.StoredDatumSize); ok is false for any other argument, which
// binds as an ordinary call.
func (b *Binder) bindStoredColumnSize(sc *scope, n *ast.FuncCallExpr, agg *aggBinder) (ir.Expr, bool, error) {
	if len(n.Args) != 1 {
		return nil, false, nil
	}
	cn, ok := n.Args[0].(*ast.ColumnNameExpr)
	if !ok || !sc.storedColumn(cn.Name) {
		return nil, false, nil
	}
	x, err := b.child(sc, cn, agg)
	if err != nil {
		return nil, true, err
	}
	e, err := b.bindFunc(n.FnName.L, []ir.Expr{x})
	if err != nil {
		return nil, true, err
	}
	f, ok := e.(*ir.Func)
	if !ok || len(f.Args) != 1 || f.Args[0] != x {
		return e, true, nil // a user's pg_column_size
	}
	t := x.Type()
	f.Strict2 = nil
	f.Fn = func(_ *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		if a[0].IsNull() {
			return sqltypes.Null, nil
		}
		n, err := builtins.StoredDatumSize(t, a[0])
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewInt(n), nil
	}
	return f, true, nil
}
