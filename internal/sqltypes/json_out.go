package sqltypes

import (
	"math"
	"slices"
	"strconv"

	"github.com/cockroachdb/apd/v3"
)

// jsonOut is a json text being built as PostgreSQL builds one in a
// StringInfo (to_json, json_agg, json_build_object, jsonb's output):
// every append is checked first with enlargeStringInfo's rule, so a text
// that would pass MaxAllocSize fails as PostgreSQL's does (54000 "out of
// memory", with the length reached and the append that would pass it)
// before anything past the limit is built.
//
// Escaping grows a string up to sixfold (\u0001), so a value well inside
// the limit can print past it. The checks cost a comparison an append,
// and a string whose worst case fits takes the plain escaping loop; only
// a string that might not fit is measured first, byte by byte as
// PostgreSQL appends it, which allocates nothing when it fails.
//
// The first error sticks: later appends do nothing and the builder
// returns it.
type jsonOut struct {
	b []byte
	// base is where the text starts in b: PostgreSQL builds it in a
	// buffer of its own, so only what follows counts toward the limit.
	base int
	// limit is the buffer's MaxAllocSize (small in tests; unbounded for
	// the text outputs that have no error path, uncheckedJSONOut).
	limit int64
	err   error
}

// newJSONOut starts a json text at the end of buf.
func newJSONOut(buf []byte) jsonOut {
	return jsonOut{b: buf, base: len(buf), limit: MaxAllocSize}
}

// uncheckedJSONOut starts a json text with no limit, for the text outputs
// that cannot fail (AppendText, so jsonb inside arrays and records): they
// print as they always have.
func uncheckedJSONOut(buf []byte) jsonOut {
	return jsonOut{b: buf, base: len(buf), limit: math.MaxInt64}
}

// n is the text's length so far, the StringInfo's len.
func (w *jsonOut) n() int64 { return int64(len(w.b) - w.base) }

// result is the text built and the error that stopped it, if any.
func (w *jsonOut) result() ([]byte, error) {
	if w.err != nil {
		return w.b[:w.base], w.err
	}
	return w.b, nil
}

// raw appends s as appendStringInfoString, appendBinaryStringInfo and
// appendStringInfoChar do: the buffer, with its NUL, must stay within the
// limit.
func (w *jsonOut) raw(s string) {
	if w.err != nil {
		return
	}
	if int64(len(s)) >= w.limit-w.n() {
		w.err = enlargeError(w.n(), int64(len(s)))
		return
	}
	w.b = append(w.b, s...)
}

// appended checks what was just appended from start (a number printed
// straight into the buffer) as one raw append, and takes it back if it
// did not fit.
func (w *jsonOut) appended(start int) {
	have, k := int64(start-w.base), int64(len(w.b)-start)
	if w.err == nil && k >= w.limit-have {
		w.b = w.b[:start]
		w.err = enlargeError(have, k)
	}
}

// printed checks what was just appended from start as appendStringInfo
// prints it (printfLimit), and takes it back if it did not fit.
func (w *jsonOut) printed(start int) {
	if w.err != nil {
		return
	}
	if err := printfLimit(int64(start-w.base), int64(len(w.b)-start), w.limit); err != nil {
		w.b = w.b[:start]
		w.err = err
	}
}

// printfLimit checks appendStringInfo printing k bytes into a buffer of
// limit bytes holding n. Near the limit the buffer has grown to the limit
// itself, and appendStringInfo asks for 32 more bytes without trying when
// under 16 are free, and for the output's length and its NUL when it
// does not fit; far from it, any request fits.
func printfLimit(n, k, limit int64) error {
	avail := limit - n
	if avail < 16 {
		return enlargeError(n, 32)
	}
	if k >= avail {
		return enlargeError(n, k+1)
	}
	return nil
}

// str appends s escaped as PostgreSQL's escape_json does.
func (w *jsonOut) str(s string) {
	if w.err != nil {
		return
	}
	// The worst case, every byte \u-escaped, leaves more than the 32
	// bytes appendStringInfo may ask for: nothing can fail.
	if w.n()+6*int64(len(s))+2 < w.limit-32 {
		w.b = appendJSONString(w.b, s)
		return
	}
	end, err := escapeJSONLimit(w.n(), s, w.limit)
	if err != nil {
		w.err = err
		return
	}
	w.b = appendJSONString(slices.Grow(w.b, int(end-w.n())), s)
}

// escapeJSONLimit measures escape_json appending s to a buffer of limit
// bytes holding n, as PostgreSQL 15 appends it: the quotes and each plain
// byte one at a time (appendStringInfoCharMacro), a two-byte escape
// (\n, \") as a string, and a \u00XX escape through appendStringInfo
// (printfLimit). It returns the buffer's length after s, or the error of
// the first append that does not fit.
func escapeJSONLimit(n int64, s string, limit int64) (int64, error) {
	if 1 >= limit-n {
		return 0, enlargeError(n, 1)
	}
	n++
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t':
			if 2 >= limit-n {
				return 0, enlargeError(n, 2)
			}
			n += 2
		case c < 0x20:
			if err := printfLimit(n, 6, limit); err != nil {
				return 0, err
			}
			n += 6
		default:
			if 1 >= limit-n {
				return 0, enlargeError(n, 1)
			}
			n++
		}
	}
	if 1 >= limit-n {
		return 0, enlargeError(n, 1)
	}
	return n + 1, nil
}

// catenate ends an aggregate's text as PostgreSQL's json_agg and
// json_object_agg do (catenate_stringinfo_string): the buffer and s are
// copied into one value allocated at its full size (AllocLimit).
func (w *jsonOut) catenate(s string) {
	if w.err != nil {
		return
	}
	if err := AllocLimit(w.n() + int64(len(s)) + varHeader); err != nil {
		w.err = err
		return
	}
	w.b = append(w.b, s...)
}

// jsonb appends j as jsonb's output prints it (JsonbToCString): `{"a":
// 1, "b": [1, 2]}`.
func (w *jsonOut) jsonb(j *JSONValue) {
	if w.err != nil {
		return
	}
	if j.raw != "" && j.Num == nil && j.Kind == JSONNumber {
		w.raw(j.raw)
		return
	}
	switch j.Kind {
	case JSONNull:
		w.raw("null")
	case JSONBool:
		if j.Bool {
			w.raw("true")
		} else {
			w.raw("false")
		}
	case JSONNumber:
		start := len(w.b)
		w.b = AppendNumeric(w.b, j.Num)
		w.appended(start)
	case JSONString:
		w.str(j.Str)
	case JSONArray:
		w.raw("[")
		for i := range j.Elems {
			if i > 0 {
				w.raw(", ")
			}
			w.jsonb(&j.Elems[i])
		}
		w.raw("]")
	default:
		w.raw("{")
		for i, k := range j.Keys {
			if i > 0 {
				w.raw(", ")
			}
			w.str(k)
			w.raw(": ")
			w.jsonb(&j.Elems[i])
		}
		w.raw("}")
	}
}

// pretty appends j as jsonb_pretty prints it (JsonbToCStringIndent), with
// PostgreSQL's appends one for one, so that a text past the limit fails
// at the same append with the same sizes: a comma alone between items,
// then the indent (a newline, then the level's spaces four at a time)
// before each item and each closing bracket; no indent before the opening
// bracket of a field's value or of the document. level is the depth
// of j; indent says whether its opening bracket is indented.
func (w *jsonOut) pretty(j *JSONValue, level int, indent bool) {
	if isJSONScalar(j) {
		w.jsonb(j)
		return
	}
	open, close := "[", "]"
	if j.Kind == JSONObject {
		open, close = "{", "}"
	}
	w.indent(indent, level)
	w.raw(open)
	for i := range j.Elems {
		if w.err != nil {
			return
		}
		if i > 0 {
			w.raw(",")
		}
		e := &j.Elems[i]
		if j.Kind == JSONObject {
			w.indent(true, level+1)
			w.str(j.Keys[i])
			w.raw(": ")
			w.pretty(e, level+1, false)
			continue
		}
		if isJSONScalar(e) {
			w.indent(true, level+1)
		}
		w.pretty(e, level+1, true)
	}
	w.indent(true, level)
	w.raw(close)
}

// indent is PostgreSQL 15's add_indent: a newline, then four spaces a
// level, appended four at a time.
func (w *jsonOut) indent(on bool, level int) {
	if !on {
		return
	}
	w.raw("\n")
	for i := 0; i < level && w.err == nil; i++ {
		w.raw("    ")
	}
}

// jsonbText appends jsonb's output of j as a value of the json text being
// built: PostgreSQL prints it in a buffer of its own (jsonb_out), which
// meets the limit on its own, and then appends it whole.
func (w *jsonOut) jsonbText(j *JSONValue) { w.own(func(sub *jsonOut) { sub.jsonb(j) }) }

// own appends what build prints in a buffer of its own, as PostgreSQL
// appends a value's output function's (or cast's) text: the buffer meets
// the limit on its own, then its text is appended whole.
func (w *jsonOut) own(build func(sub *jsonOut)) {
	if w.err != nil {
		return
	}
	start := len(w.b)
	sub := jsonOut{b: w.b, base: start, limit: w.limit}
	build(&sub)
	if sub.err != nil {
		w.b, w.err = sub.b[:start], sub.err
		return
	}
	w.b = sub.b
	w.appended(start)
}

// hstore appends hstore_to_json's text of h: an object of its pairs in
// storage order, each value a string or null.
func (w *jsonOut) hstore(h *HstoreValue) {
	w.raw("{")
	for i, p := range h.Pairs {
		if i > 0 {
			w.raw(", ")
		}
		w.str(p.Key)
		w.raw(": ")
		if p.Null {
			w.raw("null")
		} else {
			w.str(p.Val)
		}
	}
	w.raw("}")
}

// toJSON appends to_json(v), as PostgreSQL's datum_to_json appends each
// kind of value.
func (w *jsonOut) toJSON(v Value) {
	if w.err != nil {
		return
	}
	switch v.K {
	case KindNull:
		w.raw("null")
	case KindBool:
		if v.I != 0 {
			w.raw("true")
		} else {
			w.raw("false")
		}
	case KindInt:
		start := len(w.b)
		w.b = strconv.AppendInt(w.b, v.I, 10)
		w.appended(start)
	case KindFloat, KindNumeric:
		text := FormatText(v)
		if d, err := parseDecimal(text); err == nil && d.Form == apd.Finite {
			w.raw(text)
		} else {
			w.str(text)
		}
	case KindJSON:
		w.raw(v.S)
	case KindJSONB:
		w.jsonbText(v.JSONB())
	case KindHstore:
		// to_json uses a type's cast to json when it has one.
		w.own(func(sub *jsonOut) { sub.hstore(v.Hstore()) })
	case KindArray:
		a := v.Array()
		if len(a.Dims) == 0 {
			w.raw("[]")
			return
		}
		w.array(a, 0, 0, ",")
	case KindText:
		w.str(v.S)
	case KindBytes:
		// byteaout allocates the hex text at its full size first.
		if err := AllocLimit(2*int64(len(v.S)) + 3); err != nil {
			w.err = err
			return
		}
		w.str(string(appendJSONScalarText(nil, v)))
	case KindDate, KindTimestamp, KindTimestampTZ:
		// PostgreSQL prints a date or timestamp with appendStringInfo;
		// its text needs no escaping.
		start := len(w.b)
		w.b = append(w.b, '"')
		w.b = appendJSONScalarText(w.b, v)
		w.b = append(w.b, '"')
		w.printed(start)
	default:
		w.str(string(appendJSONScalarText(nil, v)))
	}
}

// array appends the dimension dim of a from element off, as
// array_dim_to_json does: the elements separated by sep (",", or ",\n "
// between the outer elements of array_to_json(a, true)).
func (w *jsonOut) array(a *ArrayValue, dim, off int, sep string) {
	n := int(a.Dims[dim])
	stride := 1
	for _, d := range a.Dims[dim+1:] {
		stride *= int(d)
	}
	w.raw("[")
	for i := 0; i < n && w.err == nil; i++ {
		if i > 0 {
			w.raw(sep)
		}
		if dim == len(a.Dims)-1 {
			w.toJSON(a.Elems[off+i])
		} else {
			w.array(a, dim+1, off+i*stride, ",")
		}
	}
	w.raw("]")
}

// json is the text built as a json value, or the error that stopped it.
func (w *jsonOut) json() (Value, error) {
	b, err := w.result()
	if err != nil {
		return Null, err
	}
	return NewJSON(string(b)), nil
}

// pairs appends kv's key/value pairs as json_build_object and
// json_object_agg print them: "k" : v, separated by ", ".
func (w *jsonOut) pairs(kv []Value) {
	for i := 0; i+1 < len(kv) && w.err == nil; i += 2 {
		if i > 0 {
			w.raw(", ")
		}
		w.str(jsonKeyText(kv[i]))
		w.raw(" : ")
		w.toJSON(kv[i+1])
	}
}
