package builtins

import (
	"math"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Operators are resolved like functions (PostgreSQL looks both up with the
// same rules) but live in a registry of their own: they are no functions
// pg_proc should list, and their "no match" error is worded for operators.
var operators = map[string][]Overload{}

// RegisterOperator adds overloads of an operator ("+", "-", "*", "/", "%",
// "^"): two parameters for an infix operator, one for a prefix operator.
// Overloads of operators set Binary (infix) or Eval (prefix).
func RegisterOperator(op string, ovs ...Overload) {
	for i := range ovs {
		if bin := ovs[i].Binary; bin != nil && ovs[i].Eval == nil {
			ovs[i].Eval = func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) { return bin(ctx, a[0], a[1]) }
		}
	}
	operators[op] = append(operators[op], ovs...)
}

// ResolveOperator chooses the overload of an operator for operands of the
// given types (one for a prefix operator, two for an infix one). As in
// PostgreSQL, an untyped operand of an infix operator is first assumed to
// have the other operand's type: timestamp - '2024-01-01' is timestamp -
// timestamp, an interval.
func ResolveOperator(op string, args []sqltypes.Type) (Resolved, error) {
	var ovs []Overload
	for _, o := range operators[op] {
		if len(o.Params) == len(args) {
			ovs = append(ovs, o)
		}
	}
	none := func() error { return noOperator(op, args) }
	if len(args) == 2 {
		if args[0].ID == sqltypes.Unknown && args[1].ID == sqltypes.Unknown {
			// As PostgreSQL's rule for unknown operands: a string-category
			// candidate wins (pg_trgm's 'word' % 'wird' is text % text).
			for i := range ovs {
				if ovs[i].Params[0].Type.ID == sqltypes.Text && ovs[i].Params[1].Type.ID == sqltypes.Text {
					return resolved(&ovs[i], []sqltypes.Type{sqltypes.TypeText, sqltypes.TypeText}), nil
				}
			}
			if len(ovs) == 1 {
				// An untyped literal converts to any type: the one
				// candidate is the operator ('"x"' @? '$.a' is jsonb @?
				// jsonpath).
				return resolved(&ovs[0], []sqltypes.Type{ovs[0].Params[0].Type, ovs[0].Params[1].Type}), nil
			}
			return Resolved{}, pgerr.New(pgerr.AmbiguousFunction, "operator is not unique: unknown %s unknown", op).
				WithHint("Could not choose a best candidate operator. You might need to add explicit type casts.")
		}
		if args[0].ID == sqltypes.Unknown || args[1].ID == sqltypes.Unknown {
			known := args[0]
			if known.ID == sqltypes.Unknown {
				known = args[1]
			}
			for i := range ovs {
				if ovs[i].Params[0].Type.ID == known.ID && ovs[i].Params[1].Type.ID == known.ID {
					if isUserRangeParam(known) || known.Range != nil {
						// A user-defined range's operator: the
						// untyped operand is of the other's type.
						return resolved(&ovs[i], []sqltypes.Type{known, known}), nil
					}
					return resolved(&ovs[i], []sqltypes.Type{ovs[i].Params[0].Type, ovs[i].Params[1].Type}), nil
				}
			}
		}
	}
	return choose(ovs, args, none, func() error {
		return pgerr.New(pgerr.AmbiguousFunction, "operator is not unique: %s", sqltypes.OperatorCallName(op, args...)).
			WithHint("Could not choose a best candidate operator. You might need to add explicit type casts.")
	})
}

func noOperator(op string, args []sqltypes.Type) error {
	hint := "No operator matches the given name and argument types. You might need to add explicit type casts."
	if len(args) == 1 {
		// A prefix operator's, as op_error words it.
		hint = "No operator matches the given name and argument type. You might need to add an explicit type cast."
	}
	return pgerr.New(pgerr.UndefinedFunction, "operator does not exist: %s", sqltypes.OperatorCallName(op, args...)).WithHint("%s", hint)
}

// IntArith applies an arithmetic operator (+ - * / %) to two integers,
// checking the result against the result type t (smallint, integer or
// bigint) as PostgreSQL's int2/int4/int8 operators do.
func IntArith(op byte, a, b int64, t sqltypes.Type) (sqltypes.Value, error) {
	var v int64
	switch op {
	case '+':
		v = a + b
		if (v > a) != (b > 0) {
			return sqltypes.Null, intOverflow(t)
		}
	case '-':
		v = a - b
		if (v < a) != (b > 0) {
			return sqltypes.Null, intOverflow(t)
		}
	case '*':
		if a != 0 && b != 0 {
			v = a * b
			if v/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
				return sqltypes.Null, intOverflow(t)
			}
		}
	case '/', '%':
		if b == 0 {
			return sqltypes.Null, errDivisionByZero()
		}
		if b == -1 {
			// Avoid the hardware trap of MinInt64 / -1.
			if op == '%' {
				return sqltypes.NewInt(0), nil
			}
			if a == math.MinInt64 {
				return sqltypes.Null, intOverflow(t)
			}
			v = -a
		} else if op == '/' {
			v = a / b
		} else {
			v = a % b
		}
	}
	return sqltypes.CheckRange(t, sqltypes.NewInt(v))
}

func intOverflow(t sqltypes.Type) error {
	_, err := sqltypes.CheckRange(t, sqltypes.NewInt(math.MaxInt64))
	if t.ID == sqltypes.Int8 {
		err = pgerr.New(pgerr.NumericValueOutOfRange, "bigint out of range")
	}
	return err
}

func errDivisionByZero() error { return pgerr.New(pgerr.DivisionByZero, "division by zero") }

// FloatArith applies + - * / to two floating-point numbers. With bits 32
// the operation is done in single precision (real op real). The checks are
// PostgreSQL's float8_pl/mi/mul/div: an infinite result of finite operands
// is an overflow, a zero product or quotient of nonzero operands an
// underflow (both 22003), x / 0 is 22012 unless x is NaN.
func FloatArith(op byte, a, b float64, bits int) (sqltypes.Value, error) {
	var v float64
	overflow, underflow := false, false
	switch op {
	case '+', '-':
		if op == '+' {
			v = a + b
		} else {
			v = a - b
		}
		if bits == 32 {
			v = float64(float32(v))
		}
		overflow = math.IsInf(v, 0) && !math.IsInf(a, 0) && !math.IsInf(b, 0)
	case '*':
		v = a * b
		if bits == 32 {
			v = float64(float32(v))
		}
		overflow = math.IsInf(v, 0) && !math.IsInf(a, 0) && !math.IsInf(b, 0)
		underflow = v == 0 && a != 0 && b != 0
	case '/':
		if b == 0 && !math.IsNaN(a) {
			return sqltypes.Null, errDivisionByZero()
		}
		v = a / b
		if bits == 32 {
			v = float64(float32(v))
		}
		overflow = math.IsInf(v, 0) && !math.IsInf(a, 0)
		underflow = v == 0 && a != 0 && !math.IsInf(b, 0)
	}
	switch {
	case overflow:
		return sqltypes.Null, pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: overflow")
	case underflow:
		return sqltypes.Null, pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: underflow")
	}
	return sqltypes.NewFloat(v), nil
}

var (
	tInt2     = sqltypes.TypeInt2
	tInt4     = sqltypes.TypeInt4
	tInt8     = sqltypes.TypeInt8
	tFloat4   = sqltypes.TypeFloat4
	tFloat8   = sqltypes.TypeFloat8
	tNumeric  = sqltypes.TypeNumeric
	tDate     = sqltypes.TypeDate
	tTS       = sqltypes.TypeTimestamp
	tTSTZ     = sqltypes.TypeTimestampTZ
	tInterval = sqltypes.TypeInterval
)

// binop is an infix overload l op r → res.
func binop(l, r, res sqltypes.Type, vol Volatility, f func(*Context, sqltypes.Value, sqltypes.Value) (sqltypes.Value, error)) Overload {
	return Overload{Params: []Param{T(l), T(r)}, Result: Returns(res), Volatility: vol, Binary: f}
}

// prefix is a prefix overload op t → t.
func prefix(t sqltypes.Type, f func(sqltypes.Value) (sqltypes.Value, error)) Overload {
	return Overload{Params: []Param{T(t)}, Result: Returns(t),
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) { return f(a[0]) }}
}

func init() {
	ints := []sqltypes.Type{tInt2, tInt4, tInt8}
	wider := func(a, b sqltypes.Type) sqltypes.Type {
		if a.ID > b.ID {
			return a
		}
		return b
	}
	for _, op := range []byte{'+', '-', '*', '/', '%'} {
		op := op
		for _, l := range ints {
			for _, r := range ints {
				if op == '%' && l != r {
					continue // PostgreSQL has int2mod, int4mod, int8mod only
				}
				res := wider(l, r)
				RegisterOperator(string(op), binop(l, r, res, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
					return IntArith(op, a.I, b.I, res)
				}))
			}
		}
		numeric := map[byte]func(a, b sqltypes.Value) (sqltypes.Value, error){
			'+': sqltypes.AddNumeric, '-': sqltypes.SubNumeric, '*': sqltypes.MulNumeric,
			'/': sqltypes.DivNumeric, '%': sqltypes.ModNumeric,
		}[op]
		RegisterOperator(string(op), binop(tNumeric, tNumeric, tNumeric, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return numeric(a, b)
		}))
		if op == '%' {
			continue // no float modulo in PostgreSQL
		}
		for _, pair := range [][3]sqltypes.Type{{tFloat4, tFloat4, tFloat4}, {tFloat4, tFloat8, tFloat8}, {tFloat8, tFloat4, tFloat8}, {tFloat8, tFloat8, tFloat8}} {
			bits := 64
			if pair[2].ID == sqltypes.Float4 {
				bits = 32
			}
			RegisterOperator(string(op), binop(pair[0], pair[1], pair[2], Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
				return FloatArith(op, a.F, b.F, bits)
			}))
		}
	}
	RegisterOperator("^",
		binop(tFloat8, tFloat8, tFloat8, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) { return powFloat(a.F, b.F) }),
		binop(tNumeric, tNumeric, tNumeric, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.PowerNumeric(a, b)
		}))

	for _, t := range ints {
		t := t
		RegisterOperator("-", prefix(t, func(v sqltypes.Value) (sqltypes.Value, error) { return IntArith('-', 0, v.I, t) }))
		RegisterOperator("+", prefix(t, func(v sqltypes.Value) (sqltypes.Value, error) { return v, nil }))
	}
	for _, t := range []sqltypes.Type{tFloat4, tFloat8} {
		RegisterOperator("-", prefix(t, func(v sqltypes.Value) (sqltypes.Value, error) { return sqltypes.NewFloat(-v.F), nil }))
		RegisterOperator("+", prefix(t, func(v sqltypes.Value) (sqltypes.Value, error) { return v, nil }))
	}
	RegisterOperator("-", prefix(tNumeric, func(v sqltypes.Value) (sqltypes.Value, error) { return sqltypes.NegNumeric(v), nil }),
		prefix(tInterval, func(v sqltypes.Value) (sqltypes.Value, error) {
			iv, err := sqltypes.NegInterval(v.Interval())
			return sqltypes.NewInterval(iv), err
		}))
	RegisterOperator("+", prefix(tNumeric, func(v sqltypes.Value) (sqltypes.Value, error) { return v, nil }))

	registerDateTimeOperators()
}

// powFloat is PostgreSQL's dpow: float8 ^ float8 with its errors, its
// POSIX handling of NaN and infinities, and a correctly rounded power.
func powFloat(x, y float64) (sqltypes.Value, error) {
	switch {
	case math.IsNaN(x):
		if y == 0 {
			return sqltypes.NewFloat(1), nil
		}
		return sqltypes.NewFloat(math.NaN()), nil
	case math.IsNaN(y):
		if x == 1 {
			return sqltypes.NewFloat(1), nil
		}
		return sqltypes.NewFloat(math.NaN()), nil
	case x == 0 && y < 0:
		return sqltypes.Null, pgerr.New(pgerr.InvalidArgumentForPowerFunction, "zero raised to a negative power is undefined")
	case x == 0:
		// 0 (or -0 for an odd y; 1 for y = 0): crPow takes logarithms,
		// and 0 ^ 1 answered 0.0017545152000474644.
		return sqltypes.NewFloat(math.Pow(x, y)), nil
	case x < 0 && math.Floor(y) != y:
		return sqltypes.Null, pgerr.New(pgerr.InvalidArgumentForPowerFunction, "a negative number raised to a non-integer power yields a complex result")
	case math.IsInf(y, 0):
		ax := math.Abs(x)
		switch {
		case ax == 1:
			return sqltypes.NewFloat(1), nil
		case (y > 0) == (ax > 1):
			return sqltypes.NewFloat(math.Inf(1)), nil
		}
		return sqltypes.NewFloat(0), nil
	case math.IsInf(x, 0):
		// x ^ y for infinite x is what POSIX says, without error.
		return sqltypes.NewFloat(math.Pow(x, y)), nil
	}
	v := crPow(x, y)
	if math.IsInf(v, 0) {
		return sqltypes.Null, pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: overflow")
	}
	if v == 0 && x != 0 {
		return sqltypes.Null, pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: underflow")
	}
	return sqltypes.NewFloat(v), nil
}

// HasOperator reports whether the registry has an operator spelled op.
func HasOperator(op string) bool { return len(operators[op]) > 0 }
