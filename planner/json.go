package planner

import (
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// The json and jsonb operators, typed as PostgreSQL types them: the left
// operand decides between json and jsonb (an untyped one is ambiguous);
// an untyped right operand is text (a key), text[] (a path) or jsonb, as
// the operator wants.

var textArray = sqltypes.ArrayOf(sqltypes.TypeText)

// isArrayOperand reports whether either operand of @> or <@ is an array:
// then the operator is array containment (pgexpr.go), not jsonb's.
func isArrayOperand(l, r ir.Expr) bool {
	_, lok := arrayElem(l.Type())
	_, rok := arrayElem(r.Type())
	return lok || rok
}

func init() {
	otherOps["->"] = func(b *Binder, l, r ir.Expr) (ir.Expr, error) { return b.bindJSONGet("->", l, r, false) }
	otherOps["->>"] = func(b *Binder, l, r ir.Expr) (ir.Expr, error) { return b.bindJSONGet("->>", l, r, true) }
	otherOps["#>"] = func(b *Binder, l, r ir.Expr) (ir.Expr, error) { return b.bindJSONPath("#>", l, r, false) }
	otherOps["#>>"] = func(b *Binder, l, r ir.Expr) (ir.Expr, error) { return b.bindJSONPath("#>>", l, r, true) }
	otherOps["@>"] = func(b *Binder, l, r ir.Expr) (ir.Expr, error) {
		if isArrayOperand(l, r) {
			return b.bindOperator("@>", l, r)
		}
		return b.bindJSONBContains("@>", l, r, false)
	}
	otherOps["<@"] = func(b *Binder, l, r ir.Expr) (ir.Expr, error) {
		if isArrayOperand(l, r) {
			return b.bindOperator("<@", l, r)
		}
		return b.bindJSONBContains("<@", l, r, true)
	}
	otherOps["?"] = func(b *Binder, l, r ir.Expr) (ir.Expr, error) {
		return b.jsonbOp("?", l, r, sqltypes.TypeText, sqltypes.TypeBool, func(x, y sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewBool(sqltypes.JSONBExists(x, y.S)), nil
		})
	}
	otherOps["?|"] = func(b *Binder, l, r ir.Expr) (ir.Expr, error) {
		return b.jsonbOp("?|", l, r, textArray, sqltypes.TypeBool, func(x, y sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewBool(sqltypes.JSONBExistsAny(x, y)), nil
		})
	}
	otherOps["?&"] = func(b *Binder, l, r ir.Expr) (ir.Expr, error) {
		return b.jsonbOp("?&", l, r, textArray, sqltypes.TypeBool, func(x, y sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewBool(sqltypes.JSONBExistsAll(x, y)), nil
		})
	}
	otherOps["#-"] = func(b *Binder, l, r ir.Expr) (ir.Expr, error) {
		return b.jsonbOp("#-", l, r, textArray, sqltypes.TypeJSONB, sqltypes.JSONBDeletePath)
	}
}

func isJSON(t sqltypes.Type) bool { return t.ID == sqltypes.JSON || t.ID == sqltypes.JSONB }

// wantJSON refuses a left operand that is not json or jsonb (ambiguous
// when untyped).
func wantJSON(op string, l, r ir.Expr) error {
	switch lt := l.Type(); {
	case isJSON(lt):
		return nil
	case lt.ID == sqltypes.Unknown:
		return ambiguousOperator(op, lt, r.Type())
	default:
		return noOperator(op, lt, r.Type())
	}
}

func ambiguousOperator(op string, l, r sqltypes.Type) error {
	return pgerr.New(pgerr.AmbiguousFunction, "operator is not unique: %s %s %s", l, op, r).
		WithHint("Could not choose a best candidate operator. You might need to add explicit type casts.")
}

// rightAs gives the right operand type t when it is untyped (a literal is
// cast, a parameter inferred) and reports whether it then has type t.
func (b *Binder) rightAs(r ir.Expr, t sqltypes.Type) (ir.Expr, bool, error) {
	b.inferParam(r, t)
	if r.Type().ID == sqltypes.Unknown {
		x, err := b.coerceTo(r, t, false)
		return x, err == nil, err
	}
	rt := r.Type()
	return r, rt.ID == t.ID && rt.Elem == t.Elem || t.ID == sqltypes.Text && rt.IsTextual(), nil
}

// bindJSONGet binds -> and ->>: a key (text) or an array index (integer).
func (b *Binder) bindJSONGet(op string, l, r ir.Expr, asText bool) (ir.Expr, error) {
	lt := l.Type()
	if err := wantJSON(op, l, r); err != nil {
		return nil, err
	}
	typ := lt
	if asText {
		typ = sqltypes.TypeText
	}
	if rt := r.Type(); rt.ID == sqltypes.Int4 || rt.ID == sqltypes.Int2 {
		return operatorFunc(op, l, r, typ, func(x, y sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.JSONGetIndex(x, y.I, asText)
		})
	}
	r, ok, err := b.rightAs(r, sqltypes.TypeText)
	if err != nil || !ok {
		return nil, firstErr(err, noOperator(op, lt, r.Type()))
	}
	return operatorFunc(op, l, r, typ, func(x, y sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.JSONGetField(x, castText(sqltypes.TypeText, y), asText)
	})
}

// bindJSONPath binds #> and #>>: a text[] path.
func (b *Binder) bindJSONPath(op string, l, r ir.Expr, asText bool) (ir.Expr, error) {
	lt := l.Type()
	if err := wantJSON(op, l, r); err != nil {
		return nil, err
	}
	r, ok, err := b.rightAs(r, textArray)
	if err != nil || !ok {
		return nil, firstErr(err, noOperator(op, lt, r.Type()))
	}
	typ, get := lt, sqltypes.JSONGetPath
	if asText {
		typ, get = sqltypes.TypeText, sqltypes.JSONGetPathText
	}
	return operatorFunc(op, l, r, typ, get)
}

// bindJSONBContains binds @> and <@ of two jsonb documents.
func (b *Binder) bindJSONBContains(op string, l, r ir.Expr, contained bool) (ir.Expr, error) {
	if l.Type().ID == sqltypes.Unknown && r.Type().ID == sqltypes.JSONB {
		var err error
		b.inferParam(l, sqltypes.TypeJSONB)
		if l, err = b.coerceTo(l, sqltypes.TypeJSONB, false); err != nil {
			return nil, err
		}
	}
	return b.jsonbOp(op, l, r, sqltypes.TypeJSONB, sqltypes.TypeBool, func(x, y sqltypes.Value) (sqltypes.Value, error) {
		if contained {
			x, y = y, x
		}
		return sqltypes.NewBool(sqltypes.JSONBContains(x, y)), nil
	})
}

// jsonbOp binds an operator of a jsonb left operand and a right operand
// of type right.
func (b *Binder) jsonbOp(op string, l, r ir.Expr, right, result sqltypes.Type, fn func(x, y sqltypes.Value) (sqltypes.Value, error)) (ir.Expr, error) {
	lt := l.Type()
	if lt.ID != sqltypes.JSONB {
		if lt.ID == sqltypes.Unknown && r.Type().ID == sqltypes.Unknown {
			return nil, ambiguousOperator(op, lt, r.Type())
		}
		return nil, noOperator(op, lt, r.Type())
	}
	r, ok, err := b.rightAs(r, right)
	if err != nil || !ok {
		return nil, firstErr(err, noOperator(op, lt, r.Type()))
	}
	return operatorFunc(op, l, r, result, fn)
}

// bindJSONBMinus binds jsonb - text, jsonb - text[] and jsonb - integer;
// ok is false when the left operand is not jsonb (arithmetic).
func (b *Binder) bindJSONBMinus(l, r ir.Expr) (ir.Expr, bool, error) {
	if l.Type().ID != sqltypes.JSONB {
		return nil, false, nil
	}
	var e ir.Expr
	var err error
	switch rt := r.Type(); {
	case rt.Kind() == sqltypes.KindInt:
		e, err = operatorFunc("-", l, r, sqltypes.TypeJSONB, func(x, y sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.JSONBDeleteIndex(x, y.I)
		})
	case rt.ID == sqltypes.Array:
		e, err = b.jsonbOp("-", l, r, textArray, sqltypes.TypeJSONB, func(x, y sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.JSONBDeleteKeys(x, y.Array().Elems)
		})
	default:
		e, err = b.jsonbOp("-", l, r, sqltypes.TypeText, sqltypes.TypeJSONB, func(x, y sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.JSONBDeleteKeys(x, []sqltypes.Value{y})
		})
	}
	return e, true, err
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
