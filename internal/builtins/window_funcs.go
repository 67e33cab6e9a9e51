package builtins

import (
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The window functions proper (computed in executor/window_funcs.go):
// ranking, offsets and values of the frame, typed as PostgreSQL 15 types
// them. Aggregates used with OVER are the aggregates of this package.

// arity is PostgreSQL's error for a window call with lo..hi arguments
// wanted and another number given.
func arity(name string, c *Call, lo, hi int) error {
	if len(c.Args) < lo || len(c.Args) > hi {
		return NoFunction(name, c.Args)
	}
	return nil
}

// ranking is a window function of no arguments and result res.
func ranking(name, doc string, res sqltypes.Type) *Func {
	return &Func{Name: name, Overloads: []Overload{Sig(doc, res)}, Type: func(c *Call) (sqltypes.Type, error) {
		return res, arity(name, c, 0, 0)
	}}
}

// offset is lag or lead.
func offset(name, doc string) *Func {
	return &Func{Name: name, Overloads: []Overload{
		Sig(doc, AnyElement, AnyElement).Strict(),
		Sig(doc, AnyElement, AnyElement, tInt4).Strict(),
		Sig(doc+", or the default when there is no such row", AnyCompatible, AnyCompatible, tInt4, AnyCompatible).Strict(),
	}, Type: func(c *Call) (sqltypes.Type, error) {
		a := c.Args
		if err := arity(name, c, 1, 3); err != nil {
			return sqltypes.Type{}, err
		}
		if len(a) >= 2 && a[1].Kind() != sqltypes.KindInt {
			return sqltypes.Type{}, pgerr.New(pgerr.UndefinedFunction, "function %s(%s, %s) does not exist", name, a[0], a[1])
		}
		if len(a) == 3 {
			// The value and the default meet at their common type (lag(int,
			// 1, 0.5) is numeric), which the planner casts both to.
			t, err := c.Common(a[0], a[2], name)
			if err != nil {
				return sqltypes.Type{}, NoFunction(name, a)
			}
			return t, nil
		}
		return a[0], nil
	}}
}

// frameValue is first_value, last_value or nth_value (nargs arguments).
func frameValue(name, doc string, nargs int) *Func {
	ov := Sig(doc, AnyElement, AnyElement)
	if nargs == 2 {
		ov = Sig(doc, AnyElement, AnyElement, tInt4)
	}
	return &Func{Name: name, Overloads: []Overload{ov.Strict()}, Type: func(c *Call) (sqltypes.Type, error) {
		t := tText
		if len(c.Args) > 0 {
			t = c.Args[0]
		}
		return t, arity(name, c, nargs, nargs)
	}}
}

func init() {
	for _, f := range []*Func{
		ranking("row_number", "the number of the current row within its partition, counting from 1", tInt8),
		ranking("rank", "the rank of the current row, with gaps (the row_number of its first peer)", tInt8),
		ranking("dense_rank", "the rank of the current row, without gaps (counting peer groups)", tInt8),
		ranking("percent_rank", "the relative rank of the current row: (rank - 1) / (partition rows - 1)", tFloat8),
		ranking("cume_dist", "the cumulative distribution: rows up to the current row's last peer / partition rows", tFloat8),
		{Name: "ntile", Overloads: []Overload{
			Sig("the bucket number, from 1 to the argument, dividing the partition as equally as possible", tInt4, tInt4).Strict(),
		}, Type: func(c *Call) (sqltypes.Type, error) {
			if err := arity("ntile", c, 1, 1); err != nil {
				return sqltypes.Type{}, err
			}
			if t := c.Args[0]; t.Kind() != sqltypes.KindInt && t.ID != sqltypes.Unknown {
				return sqltypes.Type{}, pgerr.New(pgerr.UndefinedFunction, "function ntile(%s) does not exist", t)
			}
			return tInt4, nil
		}},
		offset("lag", "the value at the row offset rows (default 1) before the current row within the partition"),
		offset("lead", "the value at the row offset rows (default 1) after the current row within the partition"),
		frameValue("first_value", "the value at the first row of the window frame", 1),
		frameValue("last_value", "the value at the last row of the window frame", 1),
		frameValue("nth_value", "the value at the n-th row of the window frame, counting from 1", 2),
	} {
		RegisterWindow(f)
	}
}
