package sqltypes

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// sqlLiteral evaluates the small SQL literals the generated cases use:
// 'text'::type, number::type, or a bare 'text'.
func sqlLiteral(t *testing.T, e string) Value {
	t.Helper()
	lit, typ, hasType := strings.Cut(e, "::")
	var v Value
	if strings.HasPrefix(lit, "'") {
		v = NewText(strings.ReplaceAll(strings.TrimSuffix(strings.TrimPrefix(lit, "'"), "'"), "''", "'"))
	} else {
		v = NewText(lit)
	}
	if !hasType {
		return v
	}
	tt, ok := ParseTypeName(typ)
	if !ok {
		t.Fatalf("type %q", typ)
	}
	c, err := CastExplicit(v, tt)
	if err != nil {
		t.Fatalf("%s: %v", e, err)
	}
	return c
}

func mustJSONB(t *testing.T, s string) Value {
	t.Helper()
	v, err := ParseText(TypeJSONB, s)
	if err != nil {
		t.Fatalf("jsonb %q: %v", s, err)
	}
	return v
}

func textArray(t *testing.T, s string) Value {
	t.Helper()
	v, err := ParseText(ArrayOf(TypeText), s)
	if err != nil {
		t.Fatalf("text[] %q: %v", s, err)
	}
	return v
}

// out renders a result as the generator's (expr)::text does.
func out(v Value, err error) (string, error) {
	if err != nil {
		return "", err
	}
	if v.IsNull() {
		return "<NULL>", nil
	}
	t, err := Cast(v, TypeText)
	if err != nil {
		return "", err
	}
	return t.S, nil
}

// buildCases maps the generated builder expressions to Go calls.
var buildCases = map[string]func() (Value, error){
	"jsonb_build_object('a',1,'b',0, 'c', 1.50, 'd', 'x'::text, 'e', null, 1, true)": func() (Value, error) {
		c, _ := ParseNumeric("1.50")
		return JSONBBuildObject([]Value{NewText("a"), NewInt(1), NewText("b"), NewInt(0), NewText("c"), c, NewText("d"), NewText("x"), NewText("e"), Null, NewInt(1), NewBool(true)})
	},
	"json_build_object('a',1,'b','x')": func() (Value, error) {
		return JSONBuildObject([]Value{NewText("a"), NewInt(1), NewText("b"), NewText("x")})
	},
	"jsonb_build_object('a',1,'a',2)": func() (Value, error) {
		return JSONBBuildObject([]Value{NewText("a"), NewInt(1), NewText("a"), NewInt(2)})
	},
	"jsonb_build_object('a')":     func() (Value, error) { return JSONBBuildObject([]Value{NewText("a")}) },
	"jsonb_build_object(null, 1)": func() (Value, error) { return JSONBBuildObject([]Value{Null, NewInt(1)}) },
	"jsonb_build_object()":        func() (Value, error) { return JSONBBuildObject(nil) },
	"to_jsonb('2024-01-01 10:00'::timestamp)": func() (Value, error) {
		return ToJSONB(NewTimestamp(1704103200000000 - PGEpochMicros))
	},
	"to_jsonb('2024-01-01 10:00+00'::timestamptz)": func() (Value, error) {
		return ToJSONB(NewTimestampTZ(1704103200000000 - PGEpochMicros))
	},
	"to_jsonb('NaN'::float8)":    func() (Value, error) { return ToJSONB(NewFloat(math.NaN())) },
	"to_jsonb('1e20'::float8)":   func() (Value, error) { return ToJSONB(NewFloat(1e20)) },
	"to_jsonb(interval '1 day')": func() (Value, error) { return ToJSONB(NewInterval(IntervalValue{Days: 1})) },
	"to_jsonb('\\xff'::bytea)":   func() (Value, error) { return ToJSONB(NewBytes([]byte{0xff})) },
	"to_jsonb(array[1,null])":    func() (Value, error) { return ToJSONB(NewArray1(TypeInt4, []Value{NewInt(1), Null})) },
	"to_jsonb('a\"b'::text)":     func() (Value, error) { return ToJSONB(NewText(`a"b`)) },
	"to_jsonb('infinity'::timestamp)": func() (Value, error) {
		return ToJSONB(NewTimestamp(TimestampInfinity))
	},
	"to_jsonb('NaN'::numeric)": func() (Value, error) { return ToJSONB(NumericNaN()) },
	"to_json(1.50)": func() (Value, error) {
		c, _ := ParseNumeric("1.50")
		return ToJSON(c)
	},
	"to_jsonb('ab'::char(4))": func() (Value, error) { return ToJSONB(NewBPChar("ab  ")) },
	"to_json(array[[1,2],[3,4]])": func() (Value, error) {
		return ToJSON(NewArray(&ArrayValue{Elem: TypeInt4, Dims: []int32{2, 2}, Elems: []Value{NewInt(1), NewInt(2), NewInt(3), NewInt(4)}}))
	},
	"to_jsonb(array[[1,2],[3,4]])": func() (Value, error) {
		return ToJSONB(NewArray(&ArrayValue{Elem: TypeInt4, Dims: []int32{2, 2}, Elems: []Value{NewInt(1), NewInt(2), NewInt(3), NewInt(4)}}))
	},
	"to_json('x'::text)":                  func() (Value, error) { return ToJSON(NewText("x")) },
	"to_json('2024-02-29'::date)":         func() (Value, error) { return ToJSON(NewDate(19782)) },
	"to_jsonb('0001-01-01 BC'::date)":     func() (Value, error) { d, _ := ParseDate("0001-01-01 BC"); return ToJSONB(NewDate(d)) },
	"to_jsonb(true)":                      func() (Value, error) { return ToJSONB(NewBool(true)) },
	"to_json(null::int)":                  func() (Value, error) { return Null, nil },
	"json_build_array(1,'a',null)":        func() (Value, error) { return JSONBuildArray([]Value{NewInt(1), NewText("a"), Null}) },
	"jsonb_build_array(1,'a',null)":       func() (Value, error) { return JSONBBuildArray([]Value{NewInt(1), NewText("a"), Null}) },
	"to_jsonb('{\"b\":1,\"a\":2}'::json)": func() (Value, error) { return ToJSONB(NewJSON(`{"b":1,"a":2}`)) },
	"to_json('{\"b\":1,\"a\":2}'::jsonb)": func() (Value, error) {
		j, _ := ParseJSONB(`{"b":1,"a":2}`)
		return ToJSON(NewJSONB(j))
	},
	"to_json(1.5::float4)":   func() (Value, error) { return ToJSON(NewFloat(1.5)) },
	"to_jsonb(-0.0::float8)": func() (Value, error) { return ToJSONB(NewFloat(math.Copysign(0, -1))) },
	"to_jsonb(1e-7::float8)": func() (Value, error) { return ToJSONB(NewFloat(1e-7)) },
	"to_jsonb(12345678901234567890::numeric)": func() (Value, error) {
		n, _ := ParseNumeric("12345678901234567890")
		return ToJSONB(n)
	},
	"to_jsonb('Infinity'::numeric)": func() (Value, error) { return ToJSONB(NumericInf()) },
	"to_jsonb(uuid 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11')": func() (Value, error) {
		u, _ := ParseUUID("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")
		return ToJSONB(NewUUID(u))
	},
	"(select json_agg(x) from (values (1),(2),(null)) t(x))": func() (Value, error) {
		return JSONAgg([]Value{NewInt(1), NewInt(2), Null})
	},
	"(select jsonb_agg(x) from (values ('a'),('b')) t(x))": func() (Value, error) {
		return JSONBAgg([]Value{NewText("a"), NewText("b")})
	},
	"(select json_agg(x) from (values (array[1,2]),(array[3])) t(x))": func() (Value, error) {
		return JSONAgg([]Value{NewArray1(TypeInt4, []Value{NewInt(1), NewInt(2)}), NewArray1(TypeInt4, []Value{NewInt(3)})})
	},
	"(select json_agg(x) from (values (1)) t(x) where false)": func() (Value, error) { return JSONAgg(nil) },
	"(select json_agg(x) from (values ('{\"a\":1}'::jsonb),('[2]')) t(x))": func() (Value, error) {
		a, _ := ParseJSONB(`{"a":1}`)
		b, _ := ParseJSONB(`[2]`)
		return JSONAgg([]Value{NewJSONB(a), NewJSONB(b)})
	},
}

func runJSONCase(t *testing.T, c pgCase) (string, error) {
	switch c.fn {
	case "json":
		return out(ParseText(TypeJSON, c.a))
	case "jsonb":
		return out(ParseText(TypeJSONB, c.a))
	case "field", "fieldtext":
		return out(JSONGetField(mustJSONB(t, c.a), c.b, c.fn == "fieldtext"))
	case "jsonfield":
		return out(JSONGetField(NewJSON(c.a), c.b, false))
	case "index", "indextext":
		n, _ := strconv.ParseInt(c.b, 10, 64)
		return out(JSONGetIndex(mustJSONB(t, c.a), n, c.fn == "indextext"))
	case "path":
		return out(JSONGetPath(mustJSONB(t, c.a), textArray(t, c.b)))
	case "pathtext":
		return out(JSONGetPathText(mustJSONB(t, c.a), textArray(t, c.b)))
	case "jsonpath":
		return out(JSONGetPath(NewJSON(c.a), textArray(t, c.b)))
	case "each", "eachtext", "jsoneach":
		v := mustJSONB(t, c.a)
		if c.fn == "jsoneach" {
			v = NewJSON(c.a)
		}
		keys, vals, err := JSONEach(v, c.fn == "eachtext")
		if err != nil {
			return "", err
		}
		if len(keys) == 0 {
			return "<NULL>", nil
		}
		parts := make([]string, len(keys))
		for i := range keys {
			val := "<null>"
			if !vals[i].IsNull() {
				val = FormatText(vals[i])
			}
			parts[i] = keys[i] + "=" + val
		}
		return strings.Join(parts, ";"), nil
	case "elements", "jsonelements":
		v := mustJSONB(t, c.a)
		if c.fn == "jsonelements" {
			v = NewJSON(c.a)
		}
		vals, err := JSONArrayElements(v, false)
		if err != nil {
			return "", err
		}
		if len(vals) == 0 {
			return "<NULL>", nil
		}
		parts := make([]string, len(vals))
		for i := range vals {
			parts[i] = FormatText(vals[i])
		}
		return strings.Join(parts, ";"), nil
	case "typeof":
		return out(JSONTypeof(mustJSONB(t, c.a)))
	case "arraylength":
		return out(JSONArrayLength(mustJSONB(t, c.a)))
	case "contains":
		return boolText(JSONBContains(mustJSONB(t, c.a), mustJSONB(t, c.b))), nil
	case "contained":
		return boolText(JSONBContains(mustJSONB(t, c.b), mustJSONB(t, c.a))), nil
	case "exists":
		return boolText(JSONBExists(mustJSONB(t, c.a), c.b)), nil
	case "existsany":
		return boolText(JSONBExistsAny(mustJSONB(t, c.a), textArray(t, c.b))), nil
	case "existsall":
		return boolText(JSONBExistsAll(mustJSONB(t, c.a), textArray(t, c.b))), nil
	case "jsonbcmp":
		return strconv.Itoa(Compare(mustJSONB(t, c.a), mustJSONB(t, c.b))), nil
	case "array":
		elem, ok := ParseTypeName(c.b)
		if !ok {
			t.Fatalf("type %q", c.b)
		}
		typ := ArrayOf(elem)
		v, err := CastExplicit(NewText(c.a), typ)
		if err != nil {
			return "", err
		}
		return string(AppendTextAs(nil, typ, v)), nil
	case "arraycmp":
		a, err1 := ParseText(ArrayOf(TypeInt4), c.a)
		b, err2 := ParseText(ArrayOf(TypeInt4), c.b)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		return strconv.Itoa(Compare(a, b)), nil
	case "bpchar", "bpcharassign":
		typ, _ := ParseTypeName(c.b)
		cast := CastExplicit
		if c.fn == "bpcharassign" {
			cast = Cast
		}
		v, err := cast(NewText(c.a), typ)
		if err != nil {
			return "", err
		}
		return "[" + v.S + "]", nil
	case "bpcmp":
		a, b := sqlLiteral(t, c.a), sqlLiteral(t, c.b)
		// PostgreSQL resolves char = varchar to bpchar's operator (and
		// char = text to text's): the planner casts varchar to char first.
		if strings.HasSuffix(c.b, "::varchar") {
			b = NewBPChar(b.S)
		}
		return strconv.Itoa(Compare(a, b)), nil
	case "build", "agg":
		f := buildCases[c.a]
		if f == nil {
			t.Fatalf("no Go form of %s", c.a)
		}
		return out(f())
	case "cast":
		typ, ok := ParseTypeName(c.b)
		if !ok {
			t.Fatalf("type %q", c.b)
		}
		return out(CastExplicit(sqlLiteral(t, c.a), typ))
	}
	t.Fatalf("unknown case %q", c.fn)
	return "", nil
}

func TestJSONArrayCharAgainstPostgres(t *testing.T) {
	for _, c := range jsonPGCases {
		got, err := runJSONCase(t, c)
		checkPGCase(t, c, got, err)
	}
}
