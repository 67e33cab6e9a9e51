package builtins

import (
	"errors"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/cockroachdb/apd/v3"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The SQL/JSON path language's evaluation on jsonb, as PostgreSQL 15's
// jsonpath_exec.c defines it: lax mode wraps a non-array where an array is
// wanted, unwraps arrays where a non-array is wanted and suppresses the
// structural errors (a missing key or element, an accessor applied to the
// wrong kind of item); strict mode raises them. Predicates are
// three-valued: an error inside one, or a comparison of items of different
// types, is unknown. The parsed paths are package sqltypes' (jsonpath.go).

// jpRes is an evaluation's outcome: items found, or none.
type jpRes uint8

const (
	jpNotFound jpRes = iota
	jpOK
)

// jpBool is a predicate's three-valued result.
type jpBool uint8

const (
	jpFalse jpBool = iota
	jpTrue
	jpUnknown
)

// errJPSuppressed is an error the evaluation met while errors are not
// thrown (the silent argument, the operators, the inside of a predicate):
// PostgreSQL's jperError without a report.
var errJPSuppressed = errors.New("jsonpath error (suppressed)")

// jpBase is the object keyvalue() numbers its items from: the document or
// the vars object the path's current item came from, and its number.
type jpBase struct {
	root *sqltypes.JSONValue
	id   int64
}

type jpExec struct {
	strict           bool
	ignoreStructural bool
	throw            bool
	root, current    *sqltypes.JSONValue
	vars             *sqltypes.JSONValue
	innermostArray   int
	base             jpBase
	lastGeneratedID  int64
	depth            int
	tz               *time.Location
}

func (e *jpExec) autoWrap() bool   { return !e.strict }
func (e *jpExec) autoUnwrap() bool { return !e.strict }

// fail is PostgreSQL's RETURN_ERROR: err when errors are thrown, else the
// suppressed error.
func (e *jpExec) fail(err error) error {
	if e.throw {
		return err
	}
	return errJPSuppressed
}

func jpStructural(code pgerr.Code, format string, args ...any) error {
	return pgerr.New(code, format, args...)
}

func jpNum(d *apd.Decimal) *sqltypes.JSONValue {
	return &sqltypes.JSONValue{Kind: sqltypes.JSONNumber, Num: d}
}

func jpNumValue(v sqltypes.Value) *sqltypes.JSONValue { return jpNum(v.Numeric()) }

func jpNumericOf(j *sqltypes.JSONValue) sqltypes.Value {
	return sqltypes.NewNumeric(new(apd.Decimal).Set(j.Num))
}

// runJSONPath is executeJsonPath: it evaluates the path on the document,
// appending the items found (found nil: only whether there are any).
//
// tz is the time zone datetime items convert between zoned and unzoned
// types in (the _tz functions'); nil refuses those conversions.
func runJSONPath(path *sqltypes.JSONPathTree, doc, vars *sqltypes.JSONValue, throw bool, tz *time.Location, found *[]*sqltypes.JSONValue) (jpRes, error) {
	if vars != nil && vars.Kind != sqltypes.JSONObject {
		return jpNotFound, pgerr.New(pgerr.InvalidParameterValue, "\"vars\" argument is not an object").
			WithDetail("Jsonpath parameters should be encoded as key-value pairs of \"vars\" object.")
	}
	e := &jpExec{strict: path.Strict, ignoreStructural: !path.Strict, throw: throw, root: doc, current: doc,
		vars: vars, innermostArray: -1, lastGeneratedID: 1, tz: tz}
	if vars != nil {
		e.lastGeneratedID = 2
	}
	if path.Strict && found == nil {
		// Strict mode must see every item to know there was no error.
		var vals []*sqltypes.JSONValue
		res, err := e.item(path.Expr, doc, &vals)
		if err != nil {
			return res, err
		}
		if len(vals) == 0 {
			return jpNotFound, nil
		}
		return jpOK, nil
	}
	return e.item(path.Expr, doc, found)
}

func (e *jpExec) item(it *sqltypes.JSONPathItem, jb *sqltypes.JSONValue, found *[]*sqltypes.JSONValue) (jpRes, error) {
	return e.itemOpt(it, jb, found, e.autoUnwrap())
}

// next is executeNextItem: the item's successor on v, or v found.
func (e *jpExec) next(cur *sqltypes.JSONPathItem, v *sqltypes.JSONValue, found *[]*sqltypes.JSONValue) (jpRes, error) {
	if cur != nil && cur.Next != nil {
		return e.item(cur.Next, v, found)
	}
	if found != nil {
		*found = append(*found, v)
	}
	return jpOK, nil
}

func isContainer(j *sqltypes.JSONValue) bool {
	return j.Kind == sqltypes.JSONArray || j.Kind == sqltypes.JSONObject
}

// itemOpt is executeItemOptUnwrapTarget.
func (e *jpExec) itemOpt(it *sqltypes.JSONPathItem, jb *sqltypes.JSONValue, found *[]*sqltypes.JSONValue, unwrap bool) (jpRes, error) {
	e.depth++
	defer func() { e.depth-- }()
	if e.depth > 10000 {
		return jpNotFound, pgerr.New(pgerr.StatementTooComplex, "stack depth limit exceeded")
	}
	switch it.Kind {
	case sqltypes.JPAnd, sqltypes.JPOr, sqltypes.JPNot, sqltypes.JPIsUnknown, sqltypes.JPEqual, sqltypes.JPNotEqual,
		sqltypes.JPLess, sqltypes.JPGreater, sqltypes.JPLessOrEqual, sqltypes.JPGreaterOrEqual, sqltypes.JPExists,
		sqltypes.JPStartsWith, sqltypes.JPLikeRegex:
		b, err := e.boolItem(it, jb, true)
		if err != nil {
			return jpNotFound, err
		}
		v := &sqltypes.JSONValue{Kind: sqltypes.JSONNull}
		if b != jpUnknown {
			v = &sqltypes.JSONValue{Kind: sqltypes.JSONBool, Bool: b == jpTrue}
		}
		return e.next(it, v, found)

	case sqltypes.JPKey:
		switch {
		case jb.Kind == sqltypes.JSONObject:
			for i, k := range jb.Keys {
				if k == it.Str {
					return e.next(it, &jb.Elems[i], found)
				}
			}
			if !e.ignoreStructural {
				return jpNotFound, e.fail(jpStructural(pgerr.SQLJSONMemberNotFound, "JSON object does not contain key \"%s\"", it.Str))
			}
		case unwrap && jb.Kind == sqltypes.JSONArray:
			return e.unwrapArray(it, jb, found, false)
		case !e.ignoreStructural:
			return jpNotFound, e.fail(jpStructural(pgerr.SQLJSONMemberNotFound, "jsonpath member accessor can only be applied to an object"))
		}
		return jpNotFound, nil

	case sqltypes.JPRoot:
		saved := e.base
		e.base = jpBase{e.root, 0}
		res, err := e.next(it, e.root, found)
		e.base = saved
		return res, err

	case sqltypes.JPCurrent:
		return e.next(it, e.current, found)

	case sqltypes.JPAnyArray:
		switch {
		case jb.Kind == sqltypes.JSONArray:
			return e.anyItem(it.Next, jb, found, 1, 1, 1, false, e.autoUnwrap())
		case e.autoWrap():
			return e.next(it, jb, found)
		case !e.ignoreStructural:
			return jpNotFound, e.fail(jpStructural(pgerr.SQLJSONArrayNotFound, "jsonpath wildcard array accessor can only be applied to an array"))
		}
		return jpNotFound, nil

	case sqltypes.JPIndexArray:
		return e.indexArray(it, jb, found)

	case sqltypes.JPAnyKey:
		switch {
		case jb.Kind == sqltypes.JSONObject:
			return e.anyItem(it.Next, jb, found, 1, 1, 1, false, e.autoUnwrap())
		case unwrap && jb.Kind == sqltypes.JSONArray:
			return e.unwrapArray(it, jb, found, false)
		case !e.ignoreStructural:
			return jpNotFound, e.fail(jpStructural(pgerr.SQLJSONObjectNotFound, "jsonpath wildcard member accessor can only be applied to an object"))
		}
		return jpNotFound, nil

	case sqltypes.JPAny:
		res := jpNotFound
		if it.First == 0 {
			saved := e.ignoreStructural
			e.ignoreStructural = true
			r, err := e.next(it, jb, found)
			e.ignoreStructural = saved
			if err != nil {
				return r, err
			}
			res = r
			if res == jpOK && found == nil {
				return res, nil
			}
		}
		if isContainer(jb) {
			return e.anyItem(it.Next, jb, found, 1, it.First, it.Last, true, e.autoUnwrap())
		}
		return res, nil

	case sqltypes.JPAdd, sqltypes.JPSub, sqltypes.JPMul, sqltypes.JPDiv, sqltypes.JPMod:
		return e.binaryArith(it, jb, found)

	case sqltypes.JPPlus, sqltypes.JPMinus:
		return e.unaryArith(it, jb, found)

	case sqltypes.JPFilter:
		if unwrap && jb.Kind == sqltypes.JSONArray {
			return e.unwrapArray(it, jb, found, false)
		}
		st, err := e.nestedBool(it.Left, jb)
		if err != nil {
			return jpNotFound, err
		}
		if st != jpTrue {
			return jpNotFound, nil
		}
		return e.next(it, jb, found)

	case sqltypes.JPType:
		return e.next(it, &sqltypes.JSONValue{Kind: sqltypes.JSONString, Str: jpTypeName(jb)}, found)

	case sqltypes.JPSize:
		size := len(jb.Elems)
		if jb.Kind != sqltypes.JSONArray {
			if !e.autoWrap() {
				if !e.ignoreStructural {
					return jpNotFound, e.fail(jpStructural(pgerr.SQLJSONArrayNotFound, "jsonpath item method .%s() can only be applied to an array", sqltypes.JSONPathOperator(it.Kind)))
				}
				return jpNotFound, nil
			}
			size = 1
		}
		return e.next(it, jpNum(apd.New(int64(size), 0)), found)

	case sqltypes.JPAbs, sqltypes.JPFloor, sqltypes.JPCeiling:
		if unwrap && jb.Kind == sqltypes.JSONArray {
			return e.unwrapArray(it, jb, found, false)
		}
		if jb.Kind != sqltypes.JSONNumber {
			return jpNotFound, e.fail(pgerr.New(pgerr.NonNumericSQLJSONItem, "jsonpath item method .%s() can only be applied to a numeric value", sqltypes.JSONPathOperator(it.Kind)))
		}
		n := jpNumericOf(jb)
		var r sqltypes.Value
		var err error
		switch it.Kind {
		case sqltypes.JPAbs:
			r = sqltypes.AbsNumeric(n)
		case sqltypes.JPFloor:
			r, err = sqltypes.FloorNumeric(n)
		default:
			r, err = sqltypes.CeilNumeric(n)
		}
		if err != nil {
			return jpNotFound, e.fail(err)
		}
		return e.next(it, jpNumValue(r), found)

	case sqltypes.JPDouble:
		if unwrap && jb.Kind == sqltypes.JSONArray {
			return e.unwrapArray(it, jb, found, false)
		}
		switch jb.Kind {
		case sqltypes.JSONNumber:
			f, err := strconv.ParseFloat(string(sqltypes.AppendNumeric(nil, jb.Num)), 64)
			if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
				return jpNotFound, e.fail(pgerr.New(pgerr.NonNumericSQLJSONItem, "numeric argument of jsonpath item method .%s() is out of range for type double precision", sqltypes.JSONPathOperator(it.Kind)))
			}
			return e.next(it, jb, found)
		case sqltypes.JSONString:
			if jb.Datetime != nil {
				break // not a string to .double(): the error below
			}
			f, ok := jpParseDouble(jb.Str)
			if !ok {
				return jpNotFound, e.fail(pgerr.New(pgerr.NonNumericSQLJSONItem, "string argument of jsonpath item method .%s() is not a valid representation of a double precision number", sqltypes.JSONPathOperator(it.Kind)))
			}
			n, err := sqltypes.FloatToNumeric(f, 64)
			if err != nil {
				return jpNotFound, e.fail(err)
			}
			return e.next(it, jpNumValue(n), found)
		}
		return jpNotFound, e.fail(pgerr.New(pgerr.NonNumericSQLJSONItem, "jsonpath item method .%s() can only be applied to a string or numeric value", sqltypes.JSONPathOperator(it.Kind)))

	case sqltypes.JPKeyValue:
		return e.keyValue(it, jb, found, unwrap)

	case sqltypes.JPDatetime:
		if unwrap && jb.Kind == sqltypes.JSONArray {
			return e.unwrapArray(it, jb, found, false)
		}
		return e.datetime(it, jb, found)

	case sqltypes.JPLast:
		if e.innermostArray < 0 {
			return jpNotFound, pgerr.Raised("evaluating jsonpath LAST outside of array subscript")
		}
		if it.Next == nil && found == nil {
			return jpOK, nil
		}
		return e.next(it, jpNum(apd.New(int64(e.innermostArray-1), 0)), found)

	case sqltypes.JPNull, sqltypes.JPBool, sqltypes.JPNumeric, sqltypes.JPString, sqltypes.JPVariable:
		if it.Next == nil && found == nil && it.Kind != sqltypes.JPVariable {
			return jpOK, nil
		}
		saved := e.base
		v, err := e.literal(it)
		if err != nil {
			return jpNotFound, err
		}
		res, err := e.next(it, v, found)
		e.base = saved
		return res, err
	}
	return jpNotFound, pgerr.Raised("unrecognized jsonpath item type: %d", it.Kind)
}

// literal is getJsonPathItem: a constant, or a variable's value from vars.
func (e *jpExec) literal(it *sqltypes.JSONPathItem) (*sqltypes.JSONValue, error) {
	switch it.Kind {
	case sqltypes.JPNull:
		return &sqltypes.JSONValue{Kind: sqltypes.JSONNull}, nil
	case sqltypes.JPBool:
		return &sqltypes.JSONValue{Kind: sqltypes.JSONBool, Bool: it.Bool}, nil
	case sqltypes.JPNumeric:
		return jpNum(it.Num), nil
	case sqltypes.JPString:
		return &sqltypes.JSONValue{Kind: sqltypes.JSONString, Str: it.Str}, nil
	}
	if e.vars != nil {
		for i, k := range e.vars.Keys {
			if k == it.Str {
				e.base = jpBase{e.vars, 1}
				return &e.vars.Elems[i], nil
			}
		}
	}
	return nil, pgerr.New(pgerr.UndefinedObject, "could not find jsonpath variable \"%s\"", it.Str)
}

func jpTypeName(j *sqltypes.JSONValue) string {
	if j.Datetime != nil {
		return jpDatetimeTypeName(j.Datetime)
	}
	switch j.Kind {
	case sqltypes.JSONObject:
		return "object"
	case sqltypes.JSONArray:
		return "array"
	case sqltypes.JSONString:
		return "string"
	case sqltypes.JSONNumber:
		return "number"
	case sqltypes.JSONBool:
		return "boolean"
	}
	return "null"
}

// jpParseDouble is float8in for .double(): surrounding spaces allowed, no
// infinities or NaN (PostgreSQL refuses those results), no Go-only forms.
func jpParseDouble(s string) (float64, bool) {
	t := strings.TrimSpace(s)
	if t == "" || strings.ContainsAny(t, "xX_pP") {
		return 0, false
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

// unwrapArray is executeItemUnwrapTargetArray: it for each element.
func (e *jpExec) unwrapArray(it *sqltypes.JSONPathItem, jb *sqltypes.JSONValue, found *[]*sqltypes.JSONValue, unwrapElements bool) (jpRes, error) {
	if jb.Kind != sqltypes.JSONArray {
		return jpNotFound, pgerr.Raised("invalid jsonb array value type: %d", jb.Kind)
	}
	return e.anyItem(it, jb, found, 1, 1, 1, false, unwrapElements)
}

// anyItem is executeAnyItem: it applied to the container's members (an
// object's values, an array's elements) from level first to last down.
func (e *jpExec) anyItem(it *sqltypes.JSONPathItem, jbc *sqltypes.JSONValue, found *[]*sqltypes.JSONValue, level, first, last uint32, ignoreStructural, unwrapNext bool) (jpRes, error) {
	res := jpNotFound
	if level > last {
		return res, nil
	}
	e.depth++
	defer func() { e.depth-- }()
	if e.depth > 10000 {
		return jpNotFound, pgerr.New(pgerr.StatementTooComplex, "stack depth limit exceeded")
	}
	for i := range jbc.Elems {
		v := &jbc.Elems[i]
		if level >= first || (first == sqltypes.JSONPathAnyLast && last == sqltypes.JSONPathAnyLast && !isContainer(v)) {
			if it != nil {
				saved := e.ignoreStructural
				if ignoreStructural {
					e.ignoreStructural = true
				}
				r, err := e.itemOpt(it, v, found, unwrapNext)
				e.ignoreStructural = saved
				if err != nil {
					return r, err
				}
				res = r
				if res == jpOK && found == nil {
					break
				}
			} else if found != nil {
				*found = append(*found, v)
			} else {
				return jpOK, nil
			}
		}
		if level < last && isContainer(v) {
			r, err := e.anyItem(it, v, found, level+1, first, last, ignoreStructural, unwrapNext)
			if err != nil {
				return r, err
			}
			res = r
			if res == jpOK && found == nil {
				break
			}
		}
	}
	return res, nil
}

func (e *jpExec) indexArray(it *sqltypes.JSONPathItem, jb *sqltypes.JSONValue, found *[]*sqltypes.JSONValue) (jpRes, error) {
	if jb.Kind != sqltypes.JSONArray && !e.autoWrap() {
		if !e.ignoreStructural {
			return jpNotFound, e.fail(jpStructural(pgerr.SQLJSONArrayNotFound, "jsonpath array accessor can only be applied to an array"))
		}
		return jpNotFound, nil
	}
	saved := e.innermostArray
	defer func() { e.innermostArray = saved }()
	singleton := jb.Kind != sqltypes.JSONArray
	size := len(jb.Elems)
	if singleton {
		size = 1
	}
	e.innermostArray = size
	res := jpNotFound
	for _, sub := range it.Subs {
		from, err := e.arrayIndex(sub.From, jb)
		if err != nil {
			return jpNotFound, err
		}
		to := from
		if sub.To != nil {
			if to, err = e.arrayIndex(sub.To, jb); err != nil {
				return jpNotFound, err
			}
		}
		if !e.ignoreStructural && (from < 0 || from > to || to >= int64(size)) {
			return jpNotFound, e.fail(pgerr.New(pgerr.InvalidSQLJSONSubscript, "jsonpath array subscript is out of bounds"))
		}
		from = max(from, 0)
		to = min(to, int64(size)-1)
		res = jpNotFound
		for i := from; i <= to; i++ {
			v := jb
			if !singleton {
				v = &jb.Elems[i]
			}
			if it.Next == nil && found == nil {
				return jpOK, nil
			}
			r, err := e.next(it, v, found)
			if err != nil {
				return r, err
			}
			res = r
			if res == jpOK && found == nil {
				break
			}
		}
		if res == jpOK && found == nil {
			break
		}
	}
	return res, nil
}

// arrayIndex is getArrayIndex: a subscript's single number, truncated.
func (e *jpExec) arrayIndex(it *sqltypes.JSONPathItem, jb *sqltypes.JSONValue) (int64, error) {
	var found []*sqltypes.JSONValue
	if _, err := e.item(it, jb, &found); err != nil {
		return 0, err
	}
	if len(found) != 1 || found[0].Kind != sqltypes.JSONNumber {
		return 0, e.fail(pgerr.New(pgerr.InvalidSQLJSONSubscript, "jsonpath array subscript is not a single numeric value"))
	}
	t, err := sqltypes.TruncNumeric(jpNumericOf(found[0]), 0)
	if err == nil {
		t, err = sqltypes.NumericToInt(t, sqltypes.TypeInt4)
	}
	if err != nil {
		return 0, e.fail(pgerr.New(pgerr.InvalidSQLJSONSubscript, "jsonpath array subscript is out of integer range"))
	}
	return t.I, nil
}

// itemUnwrapResult is executeItemOptUnwrapResult: the items, with arrays
// among them unwrapped in lax mode.
func (e *jpExec) itemUnwrapResult(it *sqltypes.JSONPathItem, jb *sqltypes.JSONValue, unwrap bool, found *[]*sqltypes.JSONValue) (jpRes, error) {
	if !unwrap || !e.autoUnwrap() {
		return e.item(it, jb, found)
	}
	var seq []*sqltypes.JSONValue
	res, err := e.item(it, jb, &seq)
	if err != nil {
		return res, err
	}
	for _, v := range seq {
		if v.Kind == sqltypes.JSONArray {
			if _, err := e.unwrapArray(nil, v, found, false); err != nil {
				return jpNotFound, err
			}
		} else if found != nil {
			*found = append(*found, v)
		}
	}
	return jpOK, nil
}

// itemUnwrapResultNoThrow evaluates with errors suppressed, as the inside
// of a predicate is.
func (e *jpExec) itemUnwrapResultNoThrow(it *sqltypes.JSONPathItem, jb *sqltypes.JSONValue, unwrap bool, found *[]*sqltypes.JSONValue) (jpRes, error) {
	saved := e.throw
	e.throw = false
	res, err := e.itemUnwrapResult(it, jb, unwrap, found)
	e.throw = saved
	return res, err
}

func (e *jpExec) binaryArith(it *sqltypes.JSONPathItem, jb *sqltypes.JSONValue, found *[]*sqltypes.JSONValue) (jpRes, error) {
	var lseq, rseq []*sqltypes.JSONValue
	if _, err := e.itemUnwrapResult(it.Left, jb, true, &lseq); err != nil {
		return jpNotFound, err
	}
	if _, err := e.itemUnwrapResult(it.Right, jb, true, &rseq); err != nil {
		return jpNotFound, err
	}
	op := sqltypes.JSONPathOperator(it.Kind)
	if len(lseq) != 1 || lseq[0].Kind != sqltypes.JSONNumber {
		return jpNotFound, e.fail(pgerr.New(pgerr.SingletonSQLJSONItemRequired, "left operand of jsonpath operator %s is not a single numeric value", op))
	}
	if len(rseq) != 1 || rseq[0].Kind != sqltypes.JSONNumber {
		return jpNotFound, e.fail(pgerr.New(pgerr.SingletonSQLJSONItemRequired, "right operand of jsonpath operator %s is not a single numeric value", op))
	}
	l, r := jpNumericOf(lseq[0]), jpNumericOf(rseq[0])
	var v sqltypes.Value
	var err error
	switch it.Kind {
	case sqltypes.JPAdd:
		v, err = sqltypes.AddNumeric(l, r)
	case sqltypes.JPSub:
		v, err = sqltypes.SubNumeric(l, r)
	case sqltypes.JPMul:
		v, err = sqltypes.MulNumeric(l, r)
	case sqltypes.JPDiv:
		v, err = sqltypes.DivNumeric(l, r)
	default:
		v, err = sqltypes.ModNumeric(l, r)
	}
	if err != nil {
		return jpNotFound, e.fail(err)
	}
	if it.Next == nil && found == nil {
		return jpOK, nil
	}
	return e.next(it, jpNumValue(v), found)
}

func (e *jpExec) unaryArith(it *sqltypes.JSONPathItem, jb *sqltypes.JSONValue, found *[]*sqltypes.JSONValue) (jpRes, error) {
	var seq []*sqltypes.JSONValue
	res, err := e.itemUnwrapResult(it.Left, jb, true, &seq)
	if err != nil {
		return res, err
	}
	res = jpNotFound
	for _, v := range seq {
		if v.Kind != sqltypes.JSONNumber {
			if found == nil && it.Next == nil {
				continue
			}
			return jpNotFound, e.fail(pgerr.New(pgerr.SQLJSONNumberNotFound, "operand of unary jsonpath operator %s is not a numeric value", sqltypes.JSONPathOperator(it.Kind)))
		}
		if found == nil && it.Next == nil {
			return jpOK, nil
		}
		if it.Kind == sqltypes.JPMinus {
			v = jpNumValue(sqltypes.NegNumeric(jpNumericOf(v)))
		}
		r, err := e.next(it, v, found)
		if err != nil {
			return r, err
		}
		if r == jpOK {
			if found == nil {
				return jpOK, nil
			}
			res = jpOK
		}
	}
	return res, nil
}

// nestedBool is executeNestedBoolItem: a filter's predicate with @ the
// item filtered.
func (e *jpExec) nestedBool(it *sqltypes.JSONPathItem, jb *sqltypes.JSONValue) (jpBool, error) {
	saved := e.current
	e.current = jb
	b, err := e.boolItem(it, jb, false)
	e.current = saved
	return b, err
}

// boolItem is executeBoolItem.
func (e *jpExec) boolItem(it *sqltypes.JSONPathItem, jb *sqltypes.JSONValue, canHaveNext bool) (jpBool, error) {
	if !canHaveNext && it.Next != nil {
		return jpUnknown, pgerr.Raised("boolean jsonpath item cannot have next item")
	}
	switch it.Kind {
	case sqltypes.JPAnd:
		l, err := e.boolItem(it.Left, jb, false)
		if err != nil || l == jpFalse {
			return jpFalse, err
		}
		r, err := e.boolItem(it.Right, jb, false)
		if err != nil {
			return jpFalse, err
		}
		if r == jpTrue {
			return l, nil
		}
		return r, nil
	case sqltypes.JPOr:
		l, err := e.boolItem(it.Left, jb, false)
		if err != nil || l == jpTrue {
			return jpTrue, err
		}
		r, err := e.boolItem(it.Right, jb, false)
		if err != nil {
			return jpFalse, err
		}
		if r == jpFalse {
			return l, nil
		}
		return r, nil
	case sqltypes.JPNot:
		b, err := e.boolItem(it.Left, jb, false)
		if err != nil || b == jpUnknown {
			return jpUnknown, err
		}
		if b == jpTrue {
			return jpFalse, nil
		}
		return jpTrue, nil
	case sqltypes.JPIsUnknown:
		b, err := e.boolItem(it.Left, jb, false)
		if err != nil {
			return jpFalse, err
		}
		if b == jpUnknown {
			return jpTrue, nil
		}
		return jpFalse, nil
	case sqltypes.JPEqual, sqltypes.JPNotEqual, sqltypes.JPLess, sqltypes.JPGreater, sqltypes.JPLessOrEqual, sqltypes.JPGreaterOrEqual:
		return e.predicate(it.Left, it.Right, jb, true, func(l, r *sqltypes.JSONValue) (jpBool, error) {
			return e.compare(it.Kind, l, r)
		})
	case sqltypes.JPStartsWith:
		return e.predicate(it.Left, it.Right, jb, false, func(whole, initial *sqltypes.JSONValue) (jpBool, error) {
			if whole.Kind != sqltypes.JSONString || initial.Kind != sqltypes.JSONString || whole.Datetime != nil || initial.Datetime != nil {
				return jpUnknown, nil
			}
			if strings.HasPrefix(whole.Str, initial.Str) {
				return jpTrue, nil
			}
			return jpFalse, nil
		})
	case sqltypes.JPLikeRegex:
		re, err := jpRegex(it.Str, it.Flags)
		if err != nil {
			return jpUnknown, err
		}
		return e.predicate(it.Left, nil, jb, false, func(s, _ *sqltypes.JSONValue) (jpBool, error) {
			if s.Kind != sqltypes.JSONString || s.Datetime != nil {
				return jpUnknown, nil
			}
			if re.MatchString(s.Str) {
				return jpTrue, nil
			}
			return jpFalse, nil
		})
	case sqltypes.JPExists:
		if e.strict {
			var vals []*sqltypes.JSONValue
			_, err := e.itemUnwrapResultNoThrow(it.Left, jb, false, &vals)
			if err == errJPSuppressed {
				return jpUnknown, nil
			} else if err != nil {
				return jpUnknown, err
			}
			if len(vals) == 0 {
				return jpFalse, nil
			}
			return jpTrue, nil
		}
		res, err := e.itemUnwrapResultNoThrow(it.Left, jb, false, nil)
		if err == errJPSuppressed {
			return jpUnknown, nil
		} else if err != nil {
			return jpUnknown, err
		}
		if res == jpOK {
			return jpTrue, nil
		}
		return jpFalse, nil
	}
	return jpUnknown, pgerr.Raised("invalid boolean jsonpath item type: %d", it.Kind)
}

// predicate is executePredicate: the test over every pair of the
// operands' items; in lax mode true as soon as one pair is, in strict mode
// unknown as soon as one pair is.
func (e *jpExec) predicate(larg, rarg *sqltypes.JSONPathItem, jb *sqltypes.JSONValue, unwrapRight bool, test func(l, r *sqltypes.JSONValue) (jpBool, error)) (jpBool, error) {
	var lseq, rseq []*sqltypes.JSONValue
	if _, err := e.itemUnwrapResultNoThrow(larg, jb, true, &lseq); err != nil {
		if err == errJPSuppressed {
			return jpUnknown, nil
		}
		return jpUnknown, err
	}
	if rarg != nil {
		if _, err := e.itemUnwrapResultNoThrow(rarg, jb, unwrapRight, &rseq); err != nil {
			if err == errJPSuppressed {
				return jpUnknown, nil
			}
			return jpUnknown, err
		}
	}
	strict := e.strict
	errorSeen, foundTrue := false, false
	for _, l := range lseq {
		rs := rseq
		if rarg == nil {
			rs = []*sqltypes.JSONValue{nil}
		}
		for _, r := range rs {
			b, err := test(l, r)
			if err != nil {
				return jpUnknown, err
			}
			switch b {
			case jpUnknown:
				if strict {
					return jpUnknown, nil
				}
				errorSeen = true
			case jpTrue:
				if !strict {
					return jpTrue, nil
				}
				foundTrue = true
			}
		}
	}
	if foundTrue {
		return jpTrue, nil
	}
	if errorSeen {
		return jpUnknown, nil
	}
	return jpFalse, nil
}

// jpCompare is compareItems: items of different types compare unknown,
// but null equals nothing else (and != is true); containers are never
// comparable; strings order by their code points.
func jpCompare(op sqltypes.JSONPathKind, a, b *sqltypes.JSONValue) jpBool {
	if a.Kind != b.Kind {
		if a.Kind == sqltypes.JSONNull || b.Kind == sqltypes.JSONNull {
			if op == sqltypes.JPNotEqual {
				return jpTrue
			}
			return jpFalse
		}
		return jpUnknown
	}
	var c int
	switch a.Kind {
	case sqltypes.JSONNull:
	case sqltypes.JSONBool:
		switch {
		case a.Bool == b.Bool:
		case a.Bool:
			c = 1
		default:
			c = -1
		}
	case sqltypes.JSONNumber:
		c = a.Num.Cmp(b.Num)
	case sqltypes.JSONString:
		c = strings.Compare(a.Str, b.Str)
	default:
		return jpUnknown
	}
	return jpCmpResult(op, c)
}

// jpCmpResult is a comparison operator's answer for an ordering c.
func jpCmpResult(op sqltypes.JSONPathKind, c int) jpBool {
	var ok bool
	switch op {
	case sqltypes.JPEqual:
		ok = c == 0
	case sqltypes.JPNotEqual:
		ok = c != 0
	case sqltypes.JPLess:
		ok = c < 0
	case sqltypes.JPGreater:
		ok = c > 0
	case sqltypes.JPLessOrEqual:
		ok = c <= 0
	case sqltypes.JPGreaterOrEqual:
		ok = c >= 0
	}
	if ok {
		return jpTrue
	}
	return jpFalse
}

// keyValue is .keyvalue(): an object's pairs as {"key", "value", "id"}
// objects, id numbering the object within its document (see jpObjectID).
func (e *jpExec) keyValue(it *sqltypes.JSONPathItem, jb *sqltypes.JSONValue, found *[]*sqltypes.JSONValue, unwrap bool) (jpRes, error) {
	if unwrap && jb.Kind == sqltypes.JSONArray {
		return e.unwrapArray(it, jb, found, false)
	}
	if jb.Kind != sqltypes.JSONObject {
		return jpNotFound, e.fail(pgerr.New(pgerr.SQLJSONObjectNotFound, "jsonpath item method .%s() can only be applied to an object", sqltypes.JSONPathOperator(it.Kind)))
	}
	if len(jb.Elems) == 0 {
		return jpNotFound, nil
	}
	id := jpObjectID(e.base.root, jb) + e.base.id*10000000000
	res := jpNotFound
	for i, k := range jb.Keys {
		obj := &sqltypes.JSONValue{Kind: sqltypes.JSONObject, Keys: []string{"id", "key", "value"}, Elems: []sqltypes.JSONValue{
			*jpNum(apd.New(id, 0)), {Kind: sqltypes.JSONString, Str: k}, jb.Elems[i]}}
		saved := e.base
		e.base = jpBase{obj, e.lastGeneratedID}
		e.lastGeneratedID++
		r, err := e.next(it, obj, found)
		e.base = saved
		if err != nil {
			return r, err
		}
		res = r
		if res == jpOK && found == nil {
			break
		}
	}
	return res, nil
}

// jpObjectID is the byte offset of the container target inside root in
// PostgreSQL's binary jsonb (convertToJsonb's layout), which PostgreSQL
// uses as keyvalue()'s id; 0 when target is not found in root.
func jpObjectID(root, target *sqltypes.JSONValue) int64 {
	if root == nil || root == target {
		return 0
	}
	// Positions count from the varlena header (4 bytes) so that the
	// alignment padding falls where PostgreSQL's does.
	pos := 4
	if off, ok := jsonbLayout(root, target, &pos); ok {
		return int64(off - 4)
	}
	return 0
}

func jsonbPad(pos *int) int {
	pad := (4 - *pos%4) % 4
	*pos += pad
	return pad
}

// jsonbLayout lays out j at *pos as convertJsonbValue does, reporting the
// position of target's container header when it meets it.
func jsonbLayout(j, target *sqltypes.JSONValue, pos *int) (int, bool) {
	switch j.Kind {
	case sqltypes.JSONArray, sqltypes.JSONObject:
		jsonbPad(pos)
		if j == target {
			return *pos, true
		}
		n := len(j.Elems)
		if j.Kind == sqltypes.JSONObject {
			*pos += 4 + 8*n
			for _, k := range j.Keys {
				*pos += len(k)
			}
		} else {
			*pos += 4 + 4*n
		}
		for i := range j.Elems {
			if off, ok := jsonbLayout(&j.Elems[i], target, pos); ok {
				return off, true
			}
		}
	case sqltypes.JSONString:
		*pos += len(j.Str)
	case sqltypes.JSONNumber:
		jsonbPad(pos)
		*pos += numericVarSize(j.Num)
	}
	return 0, false
}

// numericVarSize is the size of numeric_in's datum for d: a 4-byte
// varlena header, the short (2-byte) or long (4-byte) numeric header and
// two bytes per base-10000 digit.
func numericVarSize(d *apd.Decimal) int {
	s := d.Coeff.String()
	exp := int(d.Exponent)
	if s == "0" {
		return 4 + 2
	}
	// Digits s with exponent exp: value = s * 10^exp. Group into base
	// 10000 digits aligned on the decimal point.
	intLen := len(s) + exp // digits before the point (may be <= 0 or > len)
	var digits []int       // base-10000 digit values, most significant first
	// Position of the first group: groups are aligned so that group
	// boundaries fall at the point.
	firstGroup := (intLen + 3) / 4
	if intLen <= 0 {
		firstGroup = -((-intLen) / 4)
	}
	startDigit := firstGroup*4 - intLen // index into s of the first group's first digit (may be negative)
	for i := startDigit; i < len(s); i += 4 {
		g := 0
		for k := i; k < i+4; k++ {
			g *= 10
			if k >= 0 && k < len(s) {
				g += int(s[k] - '0')
			}
		}
		digits = append(digits, g)
	}
	weight := firstGroup - 1
	for len(digits) > 0 && digits[0] == 0 {
		digits = digits[1:]
		weight--
	}
	for len(digits) > 0 && digits[len(digits)-1] == 0 {
		digits = digits[:len(digits)-1]
	}
	dscale := 0
	if exp < 0 {
		dscale = -exp
	}
	hdr := 2
	if dscale > 63 || weight > 63 || weight < -64 {
		hdr = 4
	}
	return 4 + hdr + 2*len(digits)
}

// jpRegex compiles a like_regex pattern with its flags: PostgreSQL's
// default there is newline-sensitive dots without newline anchors; s lets
// dots match newlines, m anchors at newlines, q quotes the pattern.
func jpRegex(pattern string, flags int) (*regexp.Regexp, error) {
	// In regexCache beside CompileRegex's keys, which start with a flag
	// letter or the separator, never "\x01".
	key := "\x01" + strconv.Itoa(flags) + "\x00" + pattern
	if re, ok := regexCache.Load(key); ok {
		return re.(*regexp.Regexp), nil
	}
	var goPattern string
	if flags&sqltypes.JPRegexQuote != 0 {
		goPattern = regexp.QuoteMeta(pattern)
	} else {
		if flags&sqltypes.JPRegexWSpace != 0 {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "XQuery \"x\" flag (expanded regular expressions) is not implemented")
		}
		g, err := TranslateRegex(pattern, "")
		if err != nil {
			return nil, err
		}
		// TranslateRegex opens with its own options group; like_regex's
		// replace it.
		if strings.HasPrefix(g, "(?") {
			if end := strings.IndexByte(g, ')'); end > 0 {
				g = g[end+1:]
			}
		}
		goPattern = g
	}
	opts := ""
	if flags&sqltypes.JPRegexICase != 0 {
		opts += "i"
	}
	if flags&sqltypes.JPRegexDotAll != 0 && flags&sqltypes.JPRegexQuote == 0 {
		opts += "s"
	}
	if flags&sqltypes.JPRegexMLine != 0 && flags&sqltypes.JPRegexQuote == 0 {
		opts += "m"
	}
	if opts != "" {
		goPattern = "(?" + opts + ")" + goPattern
	}
	return compileCached(key, goPattern)
}

func init() {
	sqltypes.JSONPathRegexCheck = func(pattern string, flags int) error {
		_, err := jpRegex(pattern, flags)
		return err
	}
}
