package builtins

import (
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The functions implementing PostgreSQL's casts are callable by the
// target type's name: int4(2.5) is CAST(2.5 AS int4), float8(x),
// numeric(n), timestamptz(d) ... Each is the cast itself (sqltypes'
// explicit cast), with the OIDs pg_proc lists for it. The length-coercion
// forms (numeric(x, typmod), varchar(x, typmod, explicit)) are the
// planner's, applied for a column's modifiers.

// castFunc is one cast function: its name, source and target type OIDs,
// and whether PostgreSQL declares it stable (those that read TimeZone).
type castFunc struct {
	name     string
	from, to uint32
	stable   bool
}

var castFuncs = []castFunc{
	{"int2", 20, 21, false}, {"int2", 23, 21, false}, {"int2", 700, 21, false}, {"int2", 701, 21, false}, {"int2", 1700, 21, false}, {"int2", 3802, 21, false},
	{"int4", 16, 23, false}, {"int4", 18, 23, false}, {"int4", 20, 23, false}, {"int4", 21, 23, false}, {"int4", 700, 23, false}, {"int4", 701, 23, false}, {"int4", 1700, 23, false}, {"int4", 3802, 23, false},
	{"int8", 21, 20, false}, {"int8", 23, 20, false}, {"int8", 26, 20, false}, {"int8", 700, 20, false}, {"int8", 701, 20, false}, {"int8", 1700, 20, false}, {"int8", 3802, 20, false},
	{"float4", 20, 700, false}, {"float4", 21, 700, false}, {"float4", 23, 700, false}, {"float4", 701, 700, false}, {"float4", 1700, 700, false}, {"float4", 3802, 700, false},
	{"float8", 20, 701, false}, {"float8", 21, 701, false}, {"float8", 23, 701, false}, {"float8", 700, 701, false}, {"float8", 1700, 701, false}, {"float8", 3802, 701, false},
	{"numeric", 20, 1700, false}, {"numeric", 21, 1700, false}, {"numeric", 23, 1700, false}, {"numeric", 700, 1700, false}, {"numeric", 701, 1700, false}, {"numeric", 3802, 1700, false},
	{"bool", 23, 16, false}, {"bool", 3802, 16, false},
	{"oid", 20, 26, false},
	{"text", 16, 25, false}, {"text", 18, 25, false}, {"text", 19, 25, false}, {"text", 1042, 25, false},
	{"char", 23, 18, false}, {"char", 25, 18, false},
	{"name", 25, 19, false}, {"name", 1042, 19, false}, {"name", 1043, 19, false},
	{"bpchar", 18, 1042, false}, {"bpchar", 19, 1042, false},
	{"varchar", 19, 1043, false},
	{"timestamp", 1082, 1114, false}, {"timestamp", 1184, 1114, true},
	{"timestamptz", 1082, 1184, true}, {"timestamptz", 1114, 1184, true},
	{"time", 1114, 1083, false}, {"time", 1184, 1083, true}, {"time", 1186, 1083, false}, {"time", 1266, 1083, false},
	{"timetz", 1083, 1266, true}, {"timetz", 1184, 1266, true},
	{"interval", 1083, 1186, false},
	{"int4", 1560, 23, false}, {"int8", 1560, 20, false},
	// money's are stable: PostgreSQL reads lc_monetary in them.
	{"money", 23, 790, true}, {"money", 20, 790, true}, {"money", 1700, 790, true}, {"numeric", 790, 1700, true},
}

func init() {
	for _, c := range castFuncs {
		from, ok1 := sqltypes.TypeByOID(c.from)
		to, ok2 := sqltypes.TypeByOID(c.to)
		if !ok1 || !ok2 {
			panic("builtins: cast function " + c.name + " over a type sqltypes lacks")
		}
		if to.ID == sqltypes.BPChar {
			to.Width = 0 // bpchar: no length, the value kept whole
		}
		vol := Immutable
		if c.stable {
			vol = Stable
		}
		eval := func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.CastIn(a[0], to, true, SessionLocation(ctx))
		}
		switch {
		case from.ID == sqltypes.Char && to.ID == sqltypes.Int4:
			eval = charToInt4
		case from.ID == sqltypes.Int4 && to.ID == sqltypes.Char:
			eval = int4ToChar
		case from.ID == sqltypes.Time && to.ID == sqltypes.TimeTZ:
			eval = timeToTimeTZ
		}
		Register(c.name, Overload{Params: []Param{T(from)}, Result: Returns(to), Volatility: vol,
			Doc: "convert " + from.String() + " to " + to.String(), Eval: eval})
	}
}

// charToInt4 is int4("char"): the byte's value, signed (chartoi4).
func charToInt4(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
	if a[0].S == "" {
		return sqltypes.NewInt(0), nil
	}
	return sqltypes.NewInt(int64(signedByte(a[0].S[0]))), nil
}

// signedByte reads a byte as C's signed char.
func signedByte(b byte) int64 {
	if b >= 128 {
		return int64(b) - 256
	}
	return int64(b)
}

// int4ToChar is "char"(integer): the byte of that signed value
// (i4tochar), 22003 outside -128..127.
func int4ToChar(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
	n := a[0].I
	if n < -128 || n > 127 {
		return sqltypes.Null, pgerr.New(pgerr.NumericValueOutOfRange, "\"char\" out of range")
	}
	if n == 0 {
		return sqltypes.NewText(""), nil
	}
	return sqltypes.NewText(string([]byte{byte(n)})), nil
}

// timeToTimeTZ is timetz(time): the time at the session zone's offset
// at that time of day on the statement's date (time_timetz).
func timeToTimeTZ(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
	now := time.Now()
	if ctx != nil && !ctx.Now.IsZero() {
		now = ctx.Now
	}
	return sqltypes.NewTimeTZ(sqltypes.TimeToTimeTZ(a[0].I, now, SessionLocation(ctx))), nil
}
