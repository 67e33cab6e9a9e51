package planner

import (
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// bindCollate binds x COLLATE name (the parser's zp_collate(x, 'name'),
// the name one zproxy knows): x, of a collatable type (an untyped literal
// is text). Every collation zproxy accepts compares bytewise, as zproxy
// compares strings anyway, so a statement that runs gets x alone (its
// constants fold, its columns' indexes serve); bound for pg_get_viewdef,
// or as pg_collation_for's argument, x is marked with the collation
// (ir.Collate).
func (b *Binder) bindCollate(args []ir.Expr) (ir.Expr, error) {
	name, ok := args[1].(*ir.Const)
	if len(args) != 2 || !ok || name.V.K != sqltypes.KindText {
		return nil, pgerr.New(pgerr.InternalError, "malformed COLLATE")
	}
	x := args[0]
	if x.Type().ID == sqltypes.Unknown {
		var err error
		if x, err = b.coerceTo(x, sqltypes.TypeText, false); err != nil {
			return nil, err
		}
	}
	if !collatable(x.Type()) {
		return nil, pgerr.New(pgerr.DatatypeMismatch, "collations are not supported by type %s", x.Type())
	}
	if b.notes == nil && !b.keepCollate {
		return x, nil
	}
	return ir.Collate(x, name.V.S), nil
}

// collatable reports whether values of type t have a collation (the
// string types, their domains and arrays).
func collatable(t sqltypes.Type) bool {
	t = t.StripDomain()
	if t.ID == sqltypes.Array {
		t = t.ElemType()
	}
	switch t.ID {
	case sqltypes.Text, sqltypes.Varchar, sqltypes.BPChar, sqltypes.Name, sqltypes.Citext:
		return true
	}
	return false
}
