package sqltypes

import (
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// TestJSONOutLimits checks json text builders at the limit's edge with
// small limits: each kind of append fails where PostgreSQL 15's
// StringInfo refuses it (enlargeStringInfo's rule, appendStringInfo's 32
// bytes asked when under 16 are free), and a text that fits is built as
// the plain escaping loop builds it.
func TestJSONOutLimits(t *testing.T) {
	ctl := strings.Repeat("\x01", 20)
	for _, c := range []struct {
		name   string
		limit  int64
		build  func(w *jsonOut)
		want   string // the text, when it fits
		detail string // the error's detail, when it does not
	}{
		{"plain bytes to the last one", 10, func(w *jsonOut) { w.str("abcdefg") }, `"abcdefg"`, ""},
		{"plain bytes one past", 10, func(w *jsonOut) { w.str("abcdefgh") }, "",
			"Cannot enlarge string buffer containing 9 bytes by 1 more bytes."},
		{"two-byte escapes", 10, func(w *jsonOut) { w.str(`"""""`) }, "",
			"Cannot enlarge string buffer containing 9 bytes by 2 more bytes."},
		// 1 + 6k reaches 85, where 15 bytes are free: appendStringInfo
		// asks for 32 without printing.
		{`\u escapes`, 100, func(w *jsonOut) { w.str(ctl) }, "",
			"Cannot enlarge string buffer containing 85 bytes by 32 more bytes."},
		// The worst case does not fit, so the string is measured first;
		// it fits, and is built as the fast path builds it.
		{"measured and fits", 80, func(w *jsonOut) { w.str(ctl[:10] + "a\n") }, QuoteJSON(ctl[:10] + "a\n"), ""},
		{"raw at the limit", 10, func(w *jsonOut) { w.raw("[123456"); w.raw("78") }, "[12345678", ""},
		{"raw past it", 10, func(w *jsonOut) { w.raw("[123456"); w.raw("789") }, "",
			"Cannot enlarge string buffer containing 7 bytes by 3 more bytes."},
		{"an error sticks", 10, func(w *jsonOut) { w.raw("[1234567890"); w.raw("]") }, "",
			"Cannot enlarge string buffer containing 0 bytes by 11 more bytes."},
		{"a number printed into the buffer", 10, func(w *jsonOut) { w.raw("[12345"); w.toJSON(NewInt(1234)) }, "",
			"Cannot enlarge string buffer containing 6 bytes by 4 more bytes."},
		// A date prints with appendStringInfo: under 16 bytes free it asks
		// for 32.
		{"a date near the limit", 40, func(w *jsonOut) { w.raw(strings.Repeat("x", 25)); w.toJSON(NewDate(0)) }, "",
			"Cannot enlarge string buffer containing 25 bytes by 32 more bytes."},
		{"a date that fits", 40, func(w *jsonOut) { w.raw(strings.Repeat("x", 20)); w.toJSON(NewDate(0)) },
			strings.Repeat("x", 20) + `"1970-01-01"`, ""},
		// An array's elements go into the one buffer.
		{"an array", 100, func(w *jsonOut) {
			w.toJSON(NewArray1(TypeText, []Value{NewText(ctl[:10]), NewText(ctl)}))
		}, "", "Cannot enlarge string buffer containing 89 bytes by 32 more bytes."},
		// jsonb's output of a value inside to_json meets the limit in a
		// buffer of its own, then is appended whole.
		{"jsonb inside json", 40, func(w *jsonOut) {
			w.raw(strings.Repeat("x", 20))
			w.toJSON(NewJSONB(&JSONValue{Kind: JSONString, Str: strings.Repeat("y", 20)}))
		}, "", "Cannot enlarge string buffer containing 20 bytes by 22 more bytes."},
		// jsonb_pretty: "[" then, for the element, "\n" and four spaces a
		// level, four at a time, as PostgreSQL 15's add_indent appends
		// them: "[\n    [\n" holds 8 bytes, and the inner element's
		// first four spaces meet the limit.
		{"jsonb_pretty's indent", 12, func(w *jsonOut) {
			w.pretty(&JSONValue{Kind: JSONArray, Elems: []JSONValue{{Kind: JSONArray, Elems: []JSONValue{{Kind: JSONNull}}}}}, 0, false)
		}, "", "Cannot enlarge string buffer containing 8 bytes by 4 more bytes."},
		{"jsonb_pretty that fits", 40, func(w *jsonOut) {
			w.pretty(&JSONValue{Kind: JSONObject, Keys: []string{"a"}, Elems: []JSONValue{{Kind: JSONArray}}}, 0, false)
		}, "{\n    \"a\": [\n    ]\n}", ""},
		{"jsonb text", 30, func(w *jsonOut) {
			w.jsonb(&JSONValue{Kind: JSONObject, Keys: []string{"a"}, Elems: []JSONValue{{Kind: JSONString, Str: ctl[:4]}}})
		}, "", "Cannot enlarge string buffer containing 19 bytes by 32 more bytes."},
	} {
		w := jsonOut{b: []byte("prefix"), base: 6, limit: c.limit}
		c.build(&w)
		got, err := w.result()
		if c.detail == "" {
			if err != nil || string(got[6:]) != c.want {
				t.Errorf("%s: %q, %v; want %q", c.name, got, err, c.want)
			}
			continue
		}
		e, ok := err.(*pgerr.Error)
		if !ok || e.Code != pgerr.ProgramLimitExceeded || e.Message != "out of memory" || e.Detail != c.detail {
			t.Errorf("%s: %v, want 54000 %q", c.name, err, c.detail)
		}
		if string(got) != "prefix" {
			t.Errorf("%s: the buffer after the error is %q, want it as it was", c.name, got)
		}
	}
}

// TestJSONOutMaxAlloc checks the arithmetic at PostgreSQL's own limit
// without building a gigabyte: a buffer said to hold n bytes (base below
// zero) takes the last appends. PostgreSQL 15 fails
// to_json(repeat(E'\x01', 200000000)) "containing 1073741809 bytes by 32
// more bytes": the opening quote, then 6 bytes an escape, until under 16
// bytes are free; the same escapes from where its 178956960th leaves the
// buffer meet the limit there too.
func TestJSONOutMaxAlloc(t *testing.T) {
	for _, c := range []struct {
		name   string
		have   int64
		s      string
		detail string
	}{
		{`\u escapes`, 6 * 178956960, strings.Repeat("\x01", 10),
			"Cannot enlarge string buffer containing 1073741809 bytes by 32 more bytes."},
		// to_json(repeat('"', 600000000)).
		{"two-byte escapes", 1073741800, strings.Repeat(`"`, 20),
			"Cannot enlarge string buffer containing 1073741821 bytes by 2 more bytes."},
		{"plain bytes", 1073741800, strings.Repeat("a", 30),
			"Cannot enlarge string buffer containing 1073741822 bytes by 1 more bytes."},
		{"plain bytes that fit", 1073741800, strings.Repeat("a", 20), ""},
	} {
		w := jsonOut{base: -int(c.have), limit: MaxAllocSize}
		w.str(c.s)
		if c.detail == "" {
			if w.err != nil {
				t.Errorf("%s: %v", c.name, w.err)
			}
			continue
		}
		if e, ok := w.err.(*pgerr.Error); !ok || e.Code != pgerr.ProgramLimitExceeded || e.Detail != c.detail {
			t.Errorf("%s: %v, want %q", c.name, w.err, c.detail)
		}
	}
	// An append that fits leaves a limit of 16 bytes free or more.
	for _, c := range []struct {
		n, k   int64
		detail string
	}{
		{MaxAllocSize - 16, 6, ""},
		{MaxAllocSize - 15, 6, "Cannot enlarge string buffer containing 1073741808 bytes by 32 more bytes."},
		{MaxAllocSize - 20, 19, ""},
		{MaxAllocSize - 20, 20, "Cannot enlarge string buffer containing 1073741803 bytes by 21 more bytes."},
	} {
		err := printfLimit(c.n, c.k, MaxAllocSize)
		if e, _ := err.(*pgerr.Error); (c.detail == "") != (err == nil) || (e != nil && e.Detail != c.detail) {
			t.Errorf("printfLimit(%d, %d): %v, want %q", c.n, c.k, err, c.detail)
		}
	}
}

// TestJSONAggCatenate checks json_agg's closing bracket, copied with the
// buffer into one allocation of the whole value (palloc's limit, XX000).
func TestJSONAggCatenate(t *testing.T) {
	w := jsonOut{base: -(MaxAllocSize - 4), limit: MaxAllocSize}
	w.catenate("]")
	if e, _ := w.err.(*pgerr.Error); e == nil || e.Code != pgerr.InternalError || e.Message != "invalid memory alloc request size 1073741824" {
		t.Errorf("catenate past the limit: %v", w.err)
	}
	if _, err := AppendToJSON(nil, NewText(strings.Repeat("\x01", 10))); err != nil {
		t.Fatal(err)
	}
}
