package builtins

import (
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The sequence functions, declared as PostgreSQL declares them:
// nextval(regclass), currval(regclass), setval(regclass, bigint[,
// boolean]) and lastval(). An untyped literal reaches them as a regclass
// read when the call is bound (nextval('nosuch') fails there, at the
// literal), a text or varchar value through pg_cast's implicit cast to
// regclass when the call runs. A regclass value carries the name it
// prints as, which Sequences looks up. All are volatile: every call may
// change the sequence or read a changed one.
func init() {
	seqs := func(ctx *Context) (Sequences, error) {
		if ctx == nil || ctx.Sequences == nil {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "sequence functions are not available here")
		}
		return ctx.Sequences, nil
	}
	regclass := T(sqltypes.TypeRegClass)
	one := func(f func(Sequences, string) (int64, error)) Overload {
		return Overload{Params: []Param{regclass}, Result: Returns(sqltypes.TypeInt8), Volatility: Volatile,
			Eval: func(ctx *Context, args []sqltypes.Value) (sqltypes.Value, error) {
				s, err := seqs(ctx)
				if err != nil {
					return sqltypes.Null, err
				}
				name, err := sequenceName(args[0])
				if err != nil {
					return sqltypes.Null, err
				}
				v, err := f(s, name)
				return sqltypes.NewInt(v), err
			}}
	}
	Register("nextval", one(Sequences.Nextval))
	Register("currval", one(Sequences.Currval))
	setval := func(ctx *Context, args []sqltypes.Value) (sqltypes.Value, error) {
		s, err := seqs(ctx)
		if err != nil {
			return sqltypes.Null, err
		}
		name, err := sequenceName(args[0])
		if err != nil {
			return sqltypes.Null, err
		}
		called := len(args) < 3 || args[2].I != 0
		v, err := s.Setval(name, args[1].I, called)
		return sqltypes.NewInt(v), err
	}
	Register("setval",
		Overload{Params: []Param{regclass, int8}, Result: Returns(sqltypes.TypeInt8), Volatility: Volatile, Eval: setval},
		Overload{Params: []Param{regclass, int8, T(sqltypes.TypeBool)}, Result: Returns(sqltypes.TypeInt8), Volatility: Volatile, Eval: setval})
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

// sequenceName is the name a regclass argument prints as, which
// Sequences looks up. A regclass read from a number that names no
// relation has none: PostgreSQL fails to open it (XX000, nextval(1)).
func sequenceName(v sqltypes.Value) (string, error) {
	if v.S == "" {
		return "", pgerr.Raised("could not open relation with OID %d", uint32(v.I))
	}
	return v.S, nil
}
