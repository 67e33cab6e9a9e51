package planner

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// PostgreSQL's other infix operators (||, the json operators) reach the
// planner as "l | zp_op('op') | r" (see parser.OtherOpFunc); otherOps
// binds each by its operands' types.
var otherOps = map[string]func(b *Binder, l, r ir.Expr) (ir.Expr, error){}

// The map is filled at init: its functions reach bindBuiltin, which (for
// a user-defined function inlined) reaches bindOtherOp again.
func init() { otherOps["||"] = (*Binder).bindConcatOp }

// typedOps are operators of one spelling that a type brings (hstore's ->,
// ?, @>, ...): each binds when its operands' types are its own (ok true)
// and otherwise leaves them to the next, and last to otherOps.
var typedOps = map[string][]func(b *Binder, l, r ir.Expr) (ir.Expr, bool, error){}

// otherOperator recognises the parser's spelling of an other operator.
func otherOperator(n *ast.BinaryOperationExpr) (op string, l, r ast.ExprNode, ok bool) {
	if n.Op != opcode.Or {
		return "", nil, nil, false
	}
	inner, ok := n.L.(*ast.BinaryOperationExpr)
	if !ok || inner.Op != opcode.Or {
		return "", nil, nil, false
	}
	m, ok := inner.R.(*ast.FuncCallExpr)
	if !ok || m.FnName.L != parser.OtherOpFunc || len(m.Args) != 1 {
		return "", nil, nil, false
	}
	v, ok := m.Args[0].(*driver.ValueExpr)
	if !ok {
		return "", nil, nil, false
	}
	return v.GetString(), inner.L, n.R, true
}

// bindOtherOp binds "l op r" for an operator the parser respelled.
func (b *Binder) bindOtherOp(sc *scope, op string, ln, rn ast.ExprNode, agg *aggBinder) (ir.Expr, error) {
	bind, ok := otherOpBinding(op)
	if !ok {
		return nil, unsupported("operator %s is not supported", op)
	}
	l, err := b.child(sc, ln, agg)
	if err != nil {
		return nil, err
	}
	r, err := b.child(sc, rn, agg)
	if err != nil {
		return nil, err
	}
	if b.hasUserOperators(op, false) {
		return b.withUserOperators(op, l, r, func() (ir.Expr, error) { return b.bindBuiltinOtherOp(op, bind, l, r) })
	}
	return b.bindBuiltinOtherOp(op, bind, l, r)
}

// otherOpBinding is other operator op's binding in otherOps, or the
// registry's; ok is false when neither nor typedOps has op.
func otherOpBinding(op string) (bind func(*Binder, ir.Expr, ir.Expr) (ir.Expr, error), ok bool) {
	bind, ok = otherOps[op]
	if !ok && typedOps[op] == nil && builtins.HasOperator(op) {
		bind, ok = func(b *Binder, l, r ir.Expr) (ir.Expr, error) { return b.bindRegisteredOp(op, l, r) }, true
	}
	return bind, ok || typedOps[op] != nil
}

// bindBuiltinOtherOp binds l op r by the built-in operators.
func (b *Binder) bindBuiltinOtherOp(op string, bind func(*Binder, ir.Expr, ir.Expr) (ir.Expr, error), l, r ir.Expr) (ir.Expr, error) {
	if e, ok, err := b.ltreeOperator(op, l, r); ok {
		return e, err // ltree.go
	}
	if geoOperand(l) || geoOperand(r) {
		return b.bindRegisteredOp(op, l, r) // builtins/geometric.go
	}
	for _, typed := range typedOps[op] {
		if e, ok, err := typed(b, l, r); ok {
			return e, err
		}
	}
	if bind == nil {
		return nil, noOperator(op, l.Type(), r.Type())
	}
	return bind(b, l, r)
}

// bindRegisteredOp binds l op r for an operator of package builtins'
// registry (pg_trgm's), resolved by the operands' types as bindArith
// resolves the arithmetic ones. pg_trgm's % and <% read the session's
// thresholds: they are stable, never folded here.
func (b *Binder) bindRegisteredOp(op string, l, r ir.Expr) (ir.Expr, error) {
	res, err := builtins.ResolveOperator(op, []sqltypes.Type{l.Type(), r.Type()})
	if err != nil {
		return nil, err
	}
	args := []ir.Expr{l, r}
	if err := b.coerceArgs(args, res.ArgTypes); err != nil {
		return nil, err
	}
	ov := res.Overload
	fn := func(ctx *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		return ov.Binary(fnContext(ctx), a[0], a[1])
	}
	if ov.Typed != nil {
		// An implementation per call site (PostGIS's operators keep their
		// constant operand prepared).
		eval := ov.Typed(res.ArgTypes)
		fn = func(ctx *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
			return eval(fnContext(ctx), a)
		}
	}
	return fold(&ir.Func{Name: op, Args: args, Typ: res.Result, Infix: true, Volatile: ov.Volatility != builtins.Immutable,
		Fn: strict(fn)})
}

// operatorFunc is the expression of a strict infix operator.
func operatorFunc(op string, l, r ir.Expr, typ sqltypes.Type, fn func(l, r sqltypes.Value) (sqltypes.Value, error)) (ir.Expr, error) {
	return fold(&ir.Func{Name: op, Args: []ir.Expr{l, r}, Typ: typ, Infix: true, Strict2: fn, Fn: strict(func(_ *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		return fn(a[0], a[1])
	})})
}

func noOperator(op string, l, r sqltypes.Type) error {
	return pgerr.New(pgerr.UndefinedFunction, "operator does not exist: %s", sqltypes.OperatorCallName(op, l, r)).
		WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
}

// bindConcatOp binds ||: bytea || bytea and jsonb || jsonb keep their
// type; otherwise, when either side is a string (or untyped), the other
// side is converted to text as a cast would (text || anynonarray). With an
// array on either side it is array_cat, array_append or array_prepend.
func (b *Binder) bindConcatOp(l, r ir.Expr) (ir.Expr, error) {
	if e, ok, err := b.arrayConcat([]ir.Expr{l, r}); ok {
		return e, err
	}
	lt, rt := l.Type(), r.Type()
	unknown := func(t sqltypes.Type) bool { return t.ID == sqltypes.Unknown }
	same := func(id sqltypes.TypeID) bool {
		return (lt.ID == id || unknown(lt)) && (rt.ID == id || unknown(rt)) && !(unknown(lt) && unknown(rt))
	}
	switch {
	case same(sqltypes.Bytea):
		return b.sameTypeOp("||", l, r, sqltypes.TypeBytea, func(x, y sqltypes.Value) (sqltypes.Value, error) {
			s, err := ir.Concat(x.S, y.S)
			if err != nil {
				return sqltypes.Null, err
			}
			return sqltypes.Value{K: sqltypes.KindBytes, S: s}, nil
		})
	case same(sqltypes.JSONB):
		return b.sameTypeOp("||", l, r, sqltypes.TypeJSONB, func(x, y sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.JSONBConcat(x, y), nil
		})
	case lt.ID == sqltypes.Array || rt.ID == sqltypes.Array:
		return nil, noOperator("||", lt, rt)
	case lt.Kind() == sqltypes.KindBit && (rt.Kind() == sqltypes.KindBit || unknown(rt)) || unknown(lt) && rt.Kind() == sqltypes.KindBit:
		return b.bindRegisteredOp("||", l, r) // bitcat
	case charConcatAmbiguous(lt, rt):
		// The message names the types without modifiers (format_type_be).
		bare := func(t sqltypes.Type) string {
			switch {
			case t.IsDomain():
			case t.ID == sqltypes.BPChar:
				return "character"
			default:
				t.Width = 0
			}
			return t.String()
		}
		return nil, pgerr.New(pgerr.AmbiguousFunction, "operator is not unique: %s || %s", bare(lt), bare(rt)).
			WithHint("Could not choose a best candidate operator. You might need to add explicit type casts.")
	case lt.IsTextual() || rt.IsTextual() || lt.ID == sqltypes.Citext || rt.ID == sqltypes.Citext || unknown(lt) || unknown(rt),
		lt.ID == sqltypes.Char || rt.ID == sqltypes.Char || lt.ID == sqltypes.Name || rt.ID == sqltypes.Name:
		// "char" and name convert to text implicitly: text || anynonarray.
		b.inferParam(l, sqltypes.TypeText)
		b.inferParam(r, sqltypes.TypeText)
		l, r = b.finishUnknown(l), b.finishUnknown(r)
		var err error
		if l, err = b.textOperand(l); err != nil {
			return nil, err
		}
		if r, err = b.textOperand(r); err != nil {
			return nil, err
		}
		return operatorFunc("||", l, r, sqltypes.TypeText, func(x, y sqltypes.Value) (sqltypes.Value, error) {
			s, err := ir.Concat(x.S, y.S)
			if err != nil {
				return sqltypes.Null, err
			}
			return sqltypes.NewText(s), nil
		})
	}
	return nil, noOperator("||", lt, rt)
}

// charConcatAmbiguous reports "char" || s and s || "char" with s a string
// type, "char" or untyped: "char" converts to text implicitly and is
// anynonarray as it is, so text || text, text || anynonarray and
// anynonarray || text all fit with one conversion and PostgreSQL cannot
// choose (42725). With a non-string other side only one of them fits.
func charConcatAmbiguous(lt, rt sqltypes.Type) bool {
	str := func(t sqltypes.Type) bool {
		t = t.StripDomain()
		return t.IsTextual() || t.ID == sqltypes.Char || t.ID == sqltypes.Name || t.ID == sqltypes.Citext || t.ID == sqltypes.Unknown
	}
	lc, rc := lt.StripDomain().ID == sqltypes.Char, rt.StripDomain().ID == sqltypes.Char
	return lc && str(rt) || rc && str(lt)
}

// sameTypeOp binds an operator whose operands both have type t (an
// untyped side takes it).
func (b *Binder) sameTypeOp(op string, l, r ir.Expr, t sqltypes.Type, fn func(l, r sqltypes.Value) (sqltypes.Value, error)) (ir.Expr, error) {
	var err error
	b.inferParam(l, t)
	b.inferParam(r, t)
	if l, err = b.coerceTo(l, t, false); err != nil {
		return nil, err
	}
	if r, err = b.coerceTo(r, t, false); err != nil {
		return nil, err
	}
	return operatorFunc(op, l, r, t, fn)
}

// textOperand converts an operand of text || anynonarray to text as
// e::text does: at run time, in the session's output settings, for a type
// whose text depends on them (a date in DateStyle, a float under
// extra_float_digits), else now.
func (b *Binder) textOperand(e ir.Expr) (ir.Expr, error) {
	t := e.Type()
	if t.ID == sqltypes.Text {
		return e, nil
	}
	if c, ok := e.(*ir.Const); ok && !ir.StyleDependentCast(t, sqltypes.TypeText) {
		v, err := ir.CastValueStyled(c.V, t, sqltypes.TypeText, true, b.castStyle())
		if err != nil {
			return nil, err
		}
		return &ir.Const{V: v, Typ: sqltypes.TypeText}, nil
	}
	return &ir.Cast{E: e, To: sqltypes.TypeText, Explicit: true}, nil
}

// castText is v::text for a value of type t: booleans are "true" and
// "false", char(n) loses its padding, a real prints with float4 digits.
func castText(t sqltypes.Type, v sqltypes.Value) string {
	switch {
	case v.K == sqltypes.KindText:
		return v.S
	case t.ID == sqltypes.Float4 && v.K == sqltypes.KindFloat:
		return string(sqltypes.AppendFloat(nil, v.F, 32))
	}
	c, err := sqltypes.Cast(v, sqltypes.TypeText)
	if err != nil {
		return sqltypes.FormatText(v)
	}
	return c.S
}
