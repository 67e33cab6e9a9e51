package planner

import (
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// Conversions to aclitem and aclitem[] (sqltypes/aclitem.go). aclitem's
// input function looks its roles up, so like the reg* types' (regCast) it
// is the catalog's: a constant is read when the statement is bound, so
// that a role that does not exist fails there, at the literal; other
// values, and a constant whose input warns (no grantor: the warning is
// the session's), are read when the statement runs.

// isACLItemType reports whether t is aclitem or aclitem[].
func isACLItemType(t sqltypes.Type) bool {
	t = t.StripDomain()
	return t.ID == sqltypes.ACLItem || t.ID == sqltypes.Array && t.ElemType().ID == sqltypes.ACLItem
}

// aclItemCast converts e to t, aclitem or aclitem[], from a string type
// (PostgreSQL's I/O conversion cast) or an untyped literal.
func (b *Binder) aclItemCast(e ir.Expr, t sqltypes.Type) (ir.Expr, error) {
	src := e.Type().StripDomain()
	array := t.ID == sqltypes.Array
	from := src
	if array && src.ID == sqltypes.Array {
		from = src.ElemType()
	}
	if !(src.ID == sqltypes.Unknown || stringType(from) && (array || src.ID != sqltypes.Array)) {
		return nil, pgerr.New(pgerr.CannotCoerce, "cannot cast type %s to %s", e.Type(), t)
	}
	b.inferParam(e, sqltypes.TypeText)
	at := 0 // where a constant's warning points
	if c, ok := e.(*ir.Const); ok && c.At > 0 && b.stmt != nil {
		at = b.stmt.Position(c.At - 1)
	}
	read := func(cat builtins.Catalog, v sqltypes.Value) (sqltypes.Value, error) {
		if v.IsNull() {
			return v, nil
		}
		if !array {
			return cat.ACLItemIn(textOf(v), at)
		}
		if v.K != sqltypes.KindArray {
			var err error
			if v, err = sqltypes.ParseText(sqltypes.ArrayOf(sqltypes.TypeText), textOf(v)); err != nil {
				return sqltypes.Null, err
			}
		}
		a := v.Array()
		out := *a
		out.Elem = sqltypes.TypeACLItem
		out.Elems = make([]sqltypes.Value, len(a.Elems))
		for i, x := range a.Elems {
			if x.IsNull() {
				continue
			}
			item, err := cat.ACLItemIn(textOf(x), at)
			if err != nil {
				return sqltypes.Null, err
			}
			out.Elems[i] = item
		}
		return sqltypes.NewArray(&out), nil
	}
	if c, ok := e.(*ir.Const); ok && !aclItemInputWarns(c.V, array) {
		v, err := read(pgcatalog.NewEnv(b.snap, nil), c.V)
		if err != nil {
			b.atLiteral(err, c)
			return nil, err
		}
		return &ir.Const{V: v, Typ: t}, nil
	}
	return &ir.Func{Name: t.String(), Args: []ir.Expr{e}, Typ: t, Volatile: true, Fn: func(ctx *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		if ctx == nil || ctx.Fn.Catalog == nil {
			return sqltypes.Null, pgerr.New(pgerr.FeatureNotSupported, "aclitem input needs the catalog")
		}
		return read(ctx.Fn.Catalog, a[0])
	}}, nil
}

// aclItemInputWarns reports whether reading constant v as an aclitem (or
// each of its elements) would warn: an item that parses and names no
// grantor.
func aclItemInputWarns(v sqltypes.Value, array bool) bool {
	if v.IsNull() {
		return false
	}
	items := []string{textOf(v)}
	if array {
		a, err := sqltypes.ParseText(sqltypes.ArrayOf(sqltypes.TypeText), textOf(v))
		if v.K == sqltypes.KindArray {
			a, err = v, nil
		}
		if err != nil {
			return false
		}
		items = items[:0]
		for _, x := range a.Array().Elems {
			if !x.IsNull() {
				items = append(items, textOf(x))
			}
		}
	}
	for _, s := range items {
		if a, err := sqltypes.ParseACLItem(s); err == nil && a.NoGrantor {
			return true
		}
	}
	return false
}

// stringType reports whether t is of PostgreSQL's string category, whose
// values an I/O conversion cast reads as any type's input.
func stringType(t sqltypes.Type) bool {
	return t.ID == sqltypes.Unknown || t.IsTextual() || t.ID == sqltypes.Name
}

// textOf is a string value's text (a char(n)'s without its padding, as
// its cast to text drops it).
func textOf(v sqltypes.Value) string {
	if v.K == sqltypes.KindBPChar {
		return sqltypes.BPCharToText(v).S
	}
	return v.S
}
