package planner

import (
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// PostgreSQL's geometric types point, lseg, box and line are fixed-length
// arrays (pg_type.typelem set, raw_array_subscript_handler): p[0] is a
// point's x and p[1] its y, a segment's or box's [0] and [1] its points
// (a box's upper right corner first), a line's [0..2] its A, B and C. A
// subscript outside them, or more than one, gives NULL; a slice is 0A000.
// A gist index over a point column is a Z-order index over (p)[0] and
// (p)[1] (catalog.GistKey), so these are also its key expressions.

// bindFixedSubscript binds x[i] of a fixed-length array type.
func (b *Binder) bindFixedSubscript(args []ir.Expr) (ir.Expr, error) {
	elem, _ := sqltypes.GeoElemType(args[0].Type().ID)
	if err := b.integerSubscripts(args); err != nil {
		return nil, err
	}
	if len(args) != 2 {
		// PostgreSQL's raw array of one dimension: more subscripts than
		// dimensions give NULL.
		return fold(&ir.Func{Name: "subscript", Args: args, Typ: elem, Fn: func(*ir.EvalContext, []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.Null, nil
		}})
	}
	return fold(&ir.Func{Name: "subscript", Args: args, Typ: elem, Fn: strict(func(_ *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.GeoElem(a[0], a[1].I), nil
	})})
}
