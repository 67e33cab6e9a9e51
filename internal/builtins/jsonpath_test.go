package builtins

import (
	"errors"
	"testing"
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// TestJSONPathQuery checks jsonb_path_query_array's answers (PostgreSQL
// 15's) and the errors zproxy refuses with where it differs on purpose.
func TestJSONPathQuery(t *testing.T) {
	cases := []struct {
		doc, path, vars string
		silent          bool
		want            string
		code            pgerr.Code
	}{
		{doc: `{"a": [1, 2, {"b": 3}]}`, path: `$.a.b`, want: `[3]`},
		{doc: `{"a": [1, 2, {"b": 3}]}`, path: `strict $.a.b`, code: pgerr.SQLJSONMemberNotFound},
		{doc: `{"a": [1, 2, {"b": 3}]}`, path: `strict $.a.b`, silent: true, want: `[]`},
		{doc: `[1, "a", 2, null]`, path: `$[*] ? (@ != 1)`, want: `[2, null]`},
		{doc: `[1, 2, 3, 4]`, path: `$[*] ? (@ > $min && @ < $max)`, vars: `{"min": 1, "max": 4}`, want: `[2, 3]`},
		{doc: `{}`, path: `$x`, code: pgerr.UndefinedObject},
		{doc: `{}`, path: `$x`, silent: true, code: pgerr.UndefinedObject}, // not suppressed
		{doc: `{}`, path: `$`, vars: `[1]`, code: pgerr.InvalidParameterValue},
		{doc: `{"a": 0}`, path: `1 / $.a`, code: pgerr.DivisionByZero},
		{doc: `{"a": 0}`, path: `1 / $.a`, silent: true, want: `[]`},
		{doc: `[1, [2, 3]]`, path: `$[last]`, want: `[[2, 3]]`},
		{doc: `{"a": {"b": {"c": 1}}}`, path: `$.**{2}`, want: `[{"c": 1}]`},
		{doc: `{"x": {"a": 1}, "y": {"b": 2.5, "c": "z"}}`, path: `$.*.keyvalue()`,
			want: `[{"id": 24, "key": "a", "value": 1}, {"id": 48, "key": "b", "value": 2.5}, {"id": 48, "key": "c", "value": "z"}]`},
		{doc: `"2020-01-01"`, path: `$.datetime()`, want: `["2020-01-01"]`},
		{doc: `["2024-01-02 10:00:00+03", "10:00:00.5"]`, path: `$.datetime()`, want: `["2024-01-02T10:00:00+03:00", "10:00:00.5"]`},
		{doc: `"x"`, path: `$.datetime()`, code: pgerr.InvalidArgumentForSQLJSONDatetimeFunction},
		{doc: `"12/31/2024"`, path: `$.datetime("MM/DD/YYYY")`, want: `["2024-12-31"]`},
		{doc: `["2024-01-02", "2024-01-03 10:00:00+00"]`, path: `$[*] ? (@.datetime() < "2024-01-03".datetime())`, code: pgerr.FeatureNotSupported},
		{doc: `["abc", "ABD"]`, path: `$[*] ? (@ like_regex "^ab" flag "i")`, want: `["abc", "ABD"]`},
	}
	for _, c := range cases {
		doc, err := sqltypes.ParseJSONB(c.doc)
		if err != nil {
			t.Fatal(err)
		}
		path, err := sqltypes.ParseJSONPathValue(c.path)
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		args := []sqltypes.Value{sqltypes.NewJSONB(doc), path}
		if c.vars != "" || c.silent {
			vars := "{}"
			if c.vars != "" {
				vars = c.vars
			}
			v, err := sqltypes.ParseJSONB(vars)
			if err != nil {
				t.Fatal(err)
			}
			args = append(args, sqltypes.NewJSONB(v), sqltypes.NewBool(c.silent))
		}
		found, err := jsonPathQuery(nil, args)
		if c.code != (pgerr.Code{}) {
			if pgerr.CodeOf(err) != c.code {
				t.Errorf("%s on %s: got %v, want %s", c.path, c.doc, err, c.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s on %s: %v", c.path, c.doc, err)
			continue
		}
		arr := &sqltypes.JSONValue{Kind: sqltypes.JSONArray}
		for _, f := range found {
			arr.Elems = append(arr.Elems, *f)
		}
		if got := sqltypes.JSONBText(arr); got != c.want {
			t.Errorf("%s on %s: got %s, want %s", c.path, c.doc, got, c.want)
		}
	}
}

// FuzzJSONPathEval evaluates arbitrary paths on arbitrary documents: no
// panic, and every error a SQLSTATE one (silent or not).
func FuzzJSONPathEval(f *testing.F) {
	f.Add(`{"a": [1, 2, {"b": 3}], "c": "x"}`, `$.a[*] ? (@ > 1)`)
	f.Add(`[1, [2, [3]]]`, `strict $.**{1 to last} ? (@.type() == "number")`)
	f.Add(`{"a": {"b": 1.5}}`, `$.*.keyvalue().value.double().floor() + $.a.b`)
	f.Add(`["abc"]`, `$[last] ? (@ like_regex "^a" flag "i" && @ starts with "ab")`)
	f.Add(`[1, 2, 3]`, `$[$[0] to last - 1, 10000000000]`)
	f.Add(`{}`, `exists($.a) || ($.b == 1) is unknown`)
	f.Fuzz(func(t *testing.T, docText, pathText string) {
		doc, err := sqltypes.ParseJSONB(docText)
		if err != nil {
			return
		}
		path, err := sqltypes.ParseJSONPathValue(pathText)
		if err != nil {
			return
		}
		for _, silent := range []bool{false, true} {
			args := []sqltypes.Value{sqltypes.NewJSONB(doc), path, emptyJSONBObject, sqltypes.NewBool(silent)}
			for _, f := range []func(*time.Location, []sqltypes.Value) (sqltypes.Value, error){JSONPathExists, JSONPathMatch} {
				if _, err := f(nil, args); err != nil && !isPgErr(err) {
					t.Fatalf("%s on %s: error without a SQLSTATE: %v", pathText, docText, err)
				}
			}
			if _, err := jsonPathQuery(nil, args); err != nil && !isPgErr(err) {
				t.Fatalf("%s on %s: error without a SQLSTATE: %v", pathText, docText, err)
			}
		}
	})
}

func isPgErr(err error) bool {
	var pe *pgerr.Error
	return errors.As(err, &pe)
}
