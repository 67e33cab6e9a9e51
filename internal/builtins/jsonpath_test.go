package builtins

import (
	"testing"

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
		{doc: `"2020-01-01"`, path: `$.datetime()`, code: pgerr.FeatureNotSupported},
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
		found, err := jsonPathQuery(args)
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
