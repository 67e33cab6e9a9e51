package builtins

import (
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The sequence functions. They take the sequence's name as text (PostgreSQL
// takes a regclass, which a quoted name converts to) and reach the
// sequence through Context.Sequences. All are volatile: every call may
// change the sequence or read a changed one.
func init() {
	seqs := func(ctx *Context) (Sequences, error) {
		if ctx == nil || ctx.Sequences == nil {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "sequence functions are not available here")
		}
		return ctx.Sequences, nil
	}
	one := func(f func(Sequences, string) (int64, error)) Overload {
		return Overload{Params: []Param{text}, Result: Returns(sqltypes.TypeInt8), Volatility: Volatile,
			Eval: func(ctx *Context, args []sqltypes.Value) (sqltypes.Value, error) {
				s, err := seqs(ctx)
				if err != nil {
					return sqltypes.Null, err
				}
				v, err := f(s, args[0].S)
				return sqltypes.NewInt(v), err
			}}
	}
	// The regclass forms PostgreSQL declares: a regclass value carries the
	// name it was read from or prints as, which is what Sequences takes.
	byClass := func(o Overload) Overload {
		o.Params = append([]Param{T(sqltypes.TypeRegClass)}, o.Params[1:]...)
		return o
	}
	Register("nextval", one(Sequences.Nextval), byClass(one(Sequences.Nextval)))
	Register("currval", one(Sequences.Currval), byClass(one(Sequences.Currval)))
	setval := func(ctx *Context, args []sqltypes.Value) (sqltypes.Value, error) {
		s, err := seqs(ctx)
		if err != nil {
			return sqltypes.Null, err
		}
		called := len(args) < 3 || args[2].I != 0
		v, err := s.Setval(args[0].S, args[1].I, called)
		return sqltypes.NewInt(v), err
	}
	Register("setval",
		Overload{Params: []Param{text, int8}, Result: Returns(sqltypes.TypeInt8), Volatility: Volatile, Eval: setval},
		Overload{Params: []Param{text, int8, T(sqltypes.TypeBool)}, Result: Returns(sqltypes.TypeInt8), Volatility: Volatile, Eval: setval},
		byClass(Overload{Params: []Param{text, int8}, Result: Returns(sqltypes.TypeInt8), Volatility: Volatile, Eval: setval}),
		byClass(Overload{Params: []Param{text, int8, T(sqltypes.TypeBool)}, Result: Returns(sqltypes.TypeInt8), Volatility: Volatile, Eval: setval}))
	Register("lastval", Overload{Result: Returns(sqltypes.TypeInt8), Volatility: Volatile,
		Eval: func(ctx *Context, _ []sqltypes.Value) (sqltypes.Value, error) {
			s, err := seqs(ctx)
			if err != nil {
				return sqltypes.Null, err
			}
			v, err := s.Lastval()
			return sqltypes.NewInt(v), err
		}})
}
