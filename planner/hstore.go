package planner

import (
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// The hstore extension's operators, typed as PostgreSQL resolves them: an
// hstore left operand (or, for the symmetric ones, either operand) picks
// hstore's operator; an untyped right operand is text for -> and ?,
// text[] for ?| and ?&, and hstore for @>, <@, || and - (PostgreSQL
// prefers the candidate whose operands are both hstore). Other operands
// go on to the json, array and text operators of the same spelling.

func isHstore(t sqltypes.Type) bool { return t.ID == sqltypes.Hstore }

func init() {
	wrap := func(op string, bind func(b *Binder, l, r ir.Expr) (ir.Expr, bool, error)) {
		typedOps[op] = append(typedOps[op], bind)
	}
	wrap("->", func(b *Binder, l, r ir.Expr) (ir.Expr, bool, error) {
		if !isHstore(l.Type()) {
			return nil, false, nil
		}
		if _, isArr := arrayElem(r.Type()); isArr {
			e, err := b.hstoreOp("->", l, r, textArray, textArray, func(x, y sqltypes.Value) (sqltypes.Value, error) {
				return sqltypes.HstoreFetchArray(x.Hstore(), y.Array()), nil
			})
			return e, true, err
		}
		e, err := b.hstoreOp("->", l, r, sqltypes.TypeText, sqltypes.TypeText, func(x, y sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.HstoreFetch(x.Hstore(), y.S), nil
		})
		return e, true, err
	})
	wrap("?", func(b *Binder, l, r ir.Expr) (ir.Expr, bool, error) {
		if !isHstore(l.Type()) {
			return nil, false, nil
		}
		e, err := b.hstoreOp("?", l, r, sqltypes.TypeText, sqltypes.TypeBool, func(x, y sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewBool(sqltypes.HstoreExists(x.Hstore(), y.S)), nil
		})
		return e, true, err
	})
	wrap("?|", func(b *Binder, l, r ir.Expr) (ir.Expr, bool, error) {
		if !isHstore(l.Type()) {
			return nil, false, nil
		}
		e, err := b.hstoreOp("?|", l, r, textArray, sqltypes.TypeBool, func(x, y sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewBool(sqltypes.HstoreExistsAny(x.Hstore(), y.Array())), nil
		})
		return e, true, err
	})
	wrap("?&", func(b *Binder, l, r ir.Expr) (ir.Expr, bool, error) {
		if !isHstore(l.Type()) {
			return nil, false, nil
		}
		e, err := b.hstoreOp("?&", l, r, textArray, sqltypes.TypeBool, func(x, y sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewBool(sqltypes.HstoreExistsAll(x.Hstore(), y.Array())), nil
		})
		return e, true, err
	})
	both := func(op string, result sqltypes.Type, fn func(x, y *sqltypes.HstoreValue) sqltypes.Value) {
		wrap(op, func(b *Binder, l, r ir.Expr) (ir.Expr, bool, error) {
			l, r, ok, err := b.hstorePair(l, r)
			if !ok || err != nil {
				return nil, ok, err
			}
			e, err := b.hstoreOp(op, l, r, sqltypes.TypeHstore, result, func(x, y sqltypes.Value) (sqltypes.Value, error) {
				return fn(x.Hstore(), y.Hstore()), nil
			})
			return e, true, err
		})
	}
	both("@>", sqltypes.TypeBool, func(x, y *sqltypes.HstoreValue) sqltypes.Value {
		return sqltypes.NewBool(sqltypes.HstoreContains(x, y))
	})
	both("<@", sqltypes.TypeBool, func(x, y *sqltypes.HstoreValue) sqltypes.Value {
		return sqltypes.NewBool(sqltypes.HstoreContains(y, x))
	})
	both("||", sqltypes.TypeHstore, func(x, y *sqltypes.HstoreValue) sqltypes.Value {
		return sqltypes.NewHstore(sqltypes.HstoreConcat(x, y))
	})
}

// hstorePair types the operands of an operator taking two hstores: ok is
// false unless one is an hstore and the other an hstore or untyped (which
// then becomes one).
func (b *Binder) hstorePair(l, r ir.Expr) (ir.Expr, ir.Expr, bool, error) {
	lt, rt := l.Type(), r.Type()
	unknown := func(t sqltypes.Type) bool { return t.ID == sqltypes.Unknown }
	if !(isHstore(lt) && (isHstore(rt) || unknown(rt)) || isHstore(rt) && unknown(lt)) {
		return l, r, false, nil
	}
	var err error
	if unknown(lt) {
		b.inferParam(l, sqltypes.TypeHstore)
		l, err = b.coerceTo(l, sqltypes.TypeHstore, false)
	}
	return l, r, true, err
}

// hstoreOp binds an operator of an hstore left operand and a right
// operand of type right (an untyped one takes it).
func (b *Binder) hstoreOp(op string, l, r ir.Expr, right, result sqltypes.Type, fn func(x, y sqltypes.Value) (sqltypes.Value, error)) (ir.Expr, error) {
	rt := r.Type()
	r, ok, err := b.rightAs(r, right)
	if err != nil {
		return nil, err // an untyped operand that does not read as right
	}
	if !ok {
		return nil, noOperator(op, l.Type(), rt)
	}
	if rt := r.Type(); right.ID == sqltypes.Text && rt.ID != sqltypes.Text {
		// varchar, char(n) and citext keys are read as text.
		if r, err = b.coerceTo(r, sqltypes.TypeText, false); err != nil {
			return nil, err
		}
	}
	return operatorFunc(op, l, r, result, fn)
}

// bindHstoreMinus binds hstore - text, hstore - text[] and hstore -
// hstore (an untyped right operand is an hstore, as PostgreSQL prefers);
// ok is false when the left operand is not an hstore.
func (b *Binder) bindHstoreMinus(l, r ir.Expr) (ir.Expr, bool, error) {
	if !isHstore(l.Type()) {
		return nil, false, nil
	}
	var e ir.Expr
	var err error
	switch rt := r.Type(); {
	case rt.ID == sqltypes.Unknown || isHstore(rt):
		e, err = b.hstoreOp("-", l, r, sqltypes.TypeHstore, sqltypes.TypeHstore, func(x, y sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewHstore(sqltypes.HstoreDeletePairs(x.Hstore(), y.Hstore())), nil
		})
	case rt.ID == sqltypes.Array:
		e, err = b.hstoreOp("-", l, r, textArray, sqltypes.TypeHstore, func(x, y sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewHstore(sqltypes.HstoreDeleteKeys(x.Hstore(), y.Array())), nil
		})
	default:
		e, err = b.hstoreOp("-", l, r, sqltypes.TypeText, sqltypes.TypeHstore, func(x, y sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewHstore(sqltypes.HstoreDeleteKey(x.Hstore(), y.S)), nil
		})
	}
	return e, true, err
}

func errHstoreSubscripts() error {
	return pgerr.New(pgerr.FeatureNotSupported, "hstore allows only one subscript")
}

// bindHstoreSubscript binds h[key] (hstore_subscript_handler): the key's
// value as text, NULL when absent. The subscript is read as text, as an
// assignment cast would (h[1] is h['1']); one subscript only.
func (b *Binder) bindHstoreSubscript(args []ir.Expr) (ir.Expr, error) {
	if len(args) != 2 || args[1] == nil {
		return nil, errHstoreSubscripts()
	}
	b.inferParam(args[1], sqltypes.TypeText)
	key, err := b.coerceTo(args[1], sqltypes.TypeText, true)
	if err != nil {
		return nil, err
	}
	return operatorFunc("subscript", args[0], key, sqltypes.TypeText, func(x, y sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.HstoreFetch(x.Hstore(), y.S), nil
	})
}
