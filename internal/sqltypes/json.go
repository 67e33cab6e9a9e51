package sqltypes

import (
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/cockroachdb/apd/v3"
	"github.com/zproxy/zproxy/internal/pgerr"
)

// json keeps its input text verbatim (KindJSON, in Value.S) and is only
// validated on input; its operators parse it again each time, as
// PostgreSQL's do. jsonb (KindJSONB) is parsed once into a JSONValue tree
// in PostgreSQL's normal form: object keys sorted by length then bytes,
// duplicate keys resolved to the last value, numbers as numeric.

// JSONKind is the type of a JSON value.
type JSONKind uint8

// JSON value kinds, in jsonb's sort order (null lowest, object highest).
const (
	JSONNull JSONKind = iota
	JSONString
	JSONNumber
	JSONBool
	JSONArray
	JSONObject
)

// JSONValue is one JSON value. Trees are immutable once built and may be
// shared by many Values.
type JSONValue struct {
	Kind  JSONKind
	Str   string       // JSONString: the unescaped text
	Num   *apd.Decimal // JSONNumber (nil in trees parsed from json text)
	Bool  bool         // JSONBool
	Elems []JSONValue  // JSONArray elements; JSONObject values, parallel to Keys
	Keys  []string     // JSONObject keys
	raw   string       // trees parsed from json text: the value's source text
	// Datetime, on a JSONString that jsonpath's .datetime() made, is the
	// value the string stands for while the path is evaluated
	// (PostgreSQL's jbvDatetime). Outside the evaluation the item is only
	// its string, which is how PostgreSQL outputs it.
	Datetime *JSONDatetime
}

// JSONDatetime is a jsonpath datetime item: a date, time, timetz,
// timestamp or timestamptz value, and for a timestamptz the offset it was
// read with (seconds east), which its text shows.
type JSONDatetime struct {
	V      Value
	Offset int32
}

// AppendJSONDatetime appends a datetime item's text as PostgreSQL's
// JsonEncodeDateTime writes it: XSD style, a T between date and time, a
// zone as +hh:mm[:ss] (timestamptz in the offset it was read with).
func AppendJSONDatetime(buf []byte, d *JSONDatetime) []byte {
	switch d.V.K {
	case KindTimeTZ:
		t := d.V.TimeTZ()
		buf = AppendTime(buf, t.Micros)
		return appendXSDOffset(buf, int64(t.Offset))
	case KindTimestampTZ:
		return appendTimestampXSDOffset(buf, d.V.I, int64(d.Offset))
	}
	return appendJSONScalarText(buf, d.V)
}

// SQLSTATEs of JSON errors.
const ()

// maxJSONDepth bounds nesting so hostile input cannot exhaust the stack
// (PostgreSQL stops at its stack depth limit).
const maxJSONDepth = 6400

type jsonParser struct {
	s     string
	i     int
	raw   bool // keep source spans (json), otherwise normalize (jsonb)
	depth int
	// keys and elems are stacks of the members of the objects and arrays
	// being parsed: a container's members are parsed onto them and copied
	// into slices of their final size when it closes, so a row's jsonb
	// decodes with one allocation per container for its values instead
	// of append's doublings.
	keys  []string
	elems []JSONValue
	// hiKeys and hiElems are the stacks' highest lengths in this parse.
	hiKeys, hiElems int
	// charge counts every member's memory against the process's gate
	// (valuemem.go): a document of short members takes over a hundred
	// times its text's size as a tree.
	charge ValueCharge
}

// jsonMemberSize is the memory one member of a parsed container takes at
// the least: its JSONValue, and its key in an object or its number.
const jsonMemberSize = int64(unsafe.Sizeof(JSONValue{})) + 16

func jsonSyntaxError(detail string, args ...any) error {
	return pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type json").WithDetail(detail, args...)
}

func (p *jsonParser) skipSpace() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// token returns the text of the token at the parser position for error
// details, as PostgreSQL quotes it.
func (p *jsonParser) token() string {
	j := p.i
	if j >= len(p.s) {
		return ""
	}
	if strings.IndexByte("{}[],:", p.s[j]) >= 0 {
		return p.s[j : j+1]
	}
	for j < len(p.s) && strings.IndexByte(" \t\n\r{}[],:\"", p.s[j]) < 0 {
		j++
	}
	if j == p.i {
		_, n := utf8.DecodeRuneInString(p.s[j:])
		j += n
	}
	return p.s[p.i:j]
}

func (p *jsonParser) unexpected(expected string) error {
	if p.i >= len(p.s) {
		return jsonSyntaxError("The input string ended unexpectedly.")
	}
	tok := p.token()
	if expected == "" {
		return jsonSyntaxError("Token %q is invalid.", tok)
	}
	return jsonSyntaxError("Expected %s, but found %q.", expected, tok)
}

// jsonParsers keeps parsers for their member stacks, so that decoding a
// row's jsonb does not grow new ones.
var jsonParsers = sync.Pool{New: func() any { return new(jsonParser) }}

// maxPooledMembers bounds the stacks a pooled parser keeps.
const maxPooledMembers = 1024

func parseJSONText(s string, raw bool) (*JSONValue, error) {
	p := jsonParsers.Get().(*jsonParser)
	p.s, p.i, p.raw, p.depth = s, 0, raw, 0
	p.charge = StartCharge("a JSON document")
	defer func() {
		p.charge.Drop() // kept by the root when the parse succeeded
		// The stacks are empty again; clear what they held so that the
		// pool keeps no value alive.
		clear(p.keys[:p.hiKeys])
		clear(p.elems[:p.hiElems])
		p.s, p.hiKeys, p.hiElems = "", 0, 0
		if cap(p.elems) <= maxPooledMembers && cap(p.keys) <= maxPooledMembers {
			jsonParsers.Put(p)
		}
	}()
	v := new(JSONValue)
	p.skipSpace()
	if err := p.value(v); err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.i < len(p.s) {
		return nil, p.unexpected("end of input")
	}
	KeepCharge(&p.charge, v)
	return v, nil
}

func (p *jsonParser) value(v *JSONValue) error {
	if p.i >= len(p.s) {
		return jsonSyntaxError("The input string ended unexpectedly.")
	}
	start := p.i
	var err error
	switch c := p.s[p.i]; {
	case c == '{':
		err = p.object(v)
	case c == '[':
		err = p.array(v)
	case c == '"':
		v.Kind = JSONString
		v.Str, err = p.str()
	case c == '-' || c >= '0' && c <= '9':
		err = p.number(v)
	default:
		tok := p.token()
		switch tok {
		case "true", "false":
			v.Kind, v.Bool = JSONBool, tok == "true"
		case "null":
			v.Kind = JSONNull
		default:
			return jsonSyntaxError("Token %q is invalid.", tok)
		}
		p.i += len(tok)
	}
	if err != nil {
		return err
	}
	if p.raw {
		v.raw = p.s[start:p.i]
	}
	return nil
}

// member parses the value at the cursor and returns it, for a container
// to push (a value parsed in place in a loop of the container's would be
// moved to the heap; so would this one's, inlined there).
//
//go:noinline
func (p *jsonParser) member() (e JSONValue, err error) {
	if p.charge.g != nil { // no call on the path of a process without a gate
		if err = p.charge.Add(jsonMemberSize); err != nil {
			return e, err
		}
	}
	err = p.value(&e)
	return e, err
}

func (p *jsonParser) enter() error {
	p.depth++
	if p.depth > maxJSONDepth {
		return pgerr.New(pgerr.StatementTooComplex, "stack depth limit exceeded")
	}
	return nil
}

func (p *jsonParser) object(v *JSONValue) error {
	if err := p.enter(); err != nil {
		return err
	}
	defer func() { p.depth-- }()
	v.Kind = JSONObject
	p.i++ // {
	p.skipSpace()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		v.Keys, v.Elems = []string{}, []JSONValue{}
		return nil
	}
	mk, me := len(p.keys), len(p.elems)
	defer func() { p.keys, p.elems = p.keys[:mk], p.elems[:me] }()
	for {
		p.skipSpace()
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return p.unexpected("string")
		}
		k, err := p.str()
		if err != nil {
			return err
		}
		p.skipSpace()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return p.unexpected(`":"`)
		}
		p.i++
		p.skipSpace()
		// The member's value is parsed aside, then pushed: a nested
		// object pushes its own members meanwhile.
		e, err := p.member()
		if err != nil {
			return err
		}
		p.keys, p.elems = append(p.keys, k), append(p.elems, e)
		p.hiKeys, p.hiElems = max(p.hiKeys, len(p.keys)), max(p.hiElems, len(p.elems))
		p.skipSpace()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			break
		}
		return p.unexpected(`"," or "}"`)
	}
	keys, elems := slices.Clone(p.keys[mk:]), slices.Clone(p.elems[me:])
	if !p.raw {
		keys, elems = normalizeMembers(keys, elems)
	}
	v.Keys, v.Elems = keys, elems
	return nil
}

func (p *jsonParser) array(v *JSONValue) error {
	if err := p.enter(); err != nil {
		return err
	}
	defer func() { p.depth-- }()
	v.Kind = JSONArray
	p.i++ // [
	p.skipSpace()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		v.Elems = []JSONValue{}
		return nil
	}
	me := len(p.elems)
	defer func() { p.elems = p.elems[:me] }()
	for {
		p.skipSpace()
		e, err := p.member()
		if err != nil {
			return err
		}
		p.elems = append(p.elems, e)
		p.hiElems = max(p.hiElems, len(p.elems))
		p.skipSpace()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == ']' {
			p.i++
			v.Elems = slices.Clone(p.elems[me:])
			return nil
		}
		return p.unexpected(`"," or "]"`)
	}
}

// number lexes RFC 8259's grammar (no leading zeros, digits on both sides
// of the point); jsonb keeps it as a numeric.
func (p *jsonParser) number(v *JSONValue) error {
	start := p.i
	bad := func() error {
		p.i = start
		return jsonSyntaxError("Token %q is invalid.", p.token())
	}
	i := p.i
	if p.s[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(p.s) && p.s[i] >= '0' && p.s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(p.s) && p.s[i] == '0' {
		i++
	} else if digits() == 0 {
		return bad()
	}
	if i < len(p.s) && p.s[i] == '.' {
		i++
		if digits() == 0 {
			return bad()
		}
	}
	if i < len(p.s) && (p.s[i] == 'e' || p.s[i] == 'E') {
		i++
		if i < len(p.s) && (p.s[i] == '+' || p.s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return bad()
		}
	}
	// The token must end here (PostgreSQL rejects "01" and "1x" whole).
	if i < len(p.s) && strings.IndexByte(" \t\n\r{}[],:\"", p.s[i]) < 0 {
		return bad()
	}
	v.Kind = JSONNumber
	text := p.s[start:i]
	p.i = i
	if !p.raw {
		d, err := parseDecimal(text)
		if err != nil {
			return err
		}
		v.Num = d
	}
	return nil
}

// str lexes a string at the opening quote and returns it unescaped. json
// input only validates escapes (PostgreSQL keeps "\u0000" and lone
// surrogates in json text); jsonb rejects what cannot become text.
func (p *jsonParser) str() (string, error) {
	p.i++ // "
	var b []byte
	plainStart := p.i
	for {
		if p.i >= len(p.s) {
			return "", jsonSyntaxError("The input string ended unexpectedly.")
		}
		c := p.s[p.i]
		switch {
		case c == '"':
			var out string
			if b == nil {
				out = p.s[plainStart:p.i]
			} else {
				out = string(append(b, p.s[plainStart:p.i]...))
			}
			p.i++
			if !p.raw { // jsonb, whose strings PostgreSQL bounds
				return out, JSONBStringLimit(len(out))
			}
			return out, nil
		case c < 0x20:
			return "", jsonSyntaxError("Character with value 0x%02x must be escaped.", c)
		case c == '\\':
			b = append(b, p.s[plainStart:p.i]...)
			if p.i+1 >= len(p.s) {
				return "", jsonSyntaxError("The input string ended unexpectedly.")
			}
			e := p.s[p.i+1]
			p.i += 2
			switch e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r, err := p.hex4()
				if err != nil {
					return "", err
				}
				switch {
				case utf16.IsSurrogate(r) && r < 0xdc00:
					// A high surrogate must be followed by a low one.
					if p.i+6 <= len(p.s) && p.s[p.i] == '\\' && p.s[p.i+1] == 'u' {
						save := p.i
						p.i += 2
						lo, err := p.hex4()
						if err != nil {
							return "", err
						}
						if lo >= 0xdc00 && lo <= 0xdfff {
							r = utf16.DecodeRune(r, lo)
						} else if !p.raw {
							return "", jsonSyntaxError("Unicode low surrogate must follow a high surrogate.")
						} else {
							p.i = save
							r = utf8.RuneError
						}
					} else if !p.raw {
						return "", jsonSyntaxError("Unicode low surrogate must follow a high surrogate.")
					} else {
						r = utf8.RuneError
					}
				case utf16.IsSurrogate(r):
					if !p.raw {
						return "", jsonSyntaxError("Unicode low surrogate must follow a high surrogate.")
					}
					r = utf8.RuneError
				case r == 0 && !p.raw:
					return "", pgerr.New(pgerr.UntranslatableCharacter, "unsupported Unicode escape sequence").
						WithDetail("\\u0000 cannot be converted to text.")
				}
				b = utf8.AppendRune(b, r)
			default:
				p.i -= 2
				return "", jsonSyntaxError("Escape sequence \"\\%s\" is invalid.", string(e))
			}
			plainStart = p.i
		default:
			p.i++
		}
	}
}

func (p *jsonParser) hex4() (rune, error) {
	if p.i+4 > len(p.s) {
		return 0, jsonSyntaxError("\"\\u\" must be followed by four hexadecimal digits.")
	}
	v, err := strconv.ParseUint(p.s[p.i:p.i+4], 16, 32)
	if err != nil {
		return 0, jsonSyntaxError("\"\\u\" must be followed by four hexadecimal digits.")
	}
	p.i += 4
	return rune(v), nil
}

// jsonKeyLess is jsonb's key order: shorter keys first, then bytes.
func jsonKeyLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

func jsonKeyCompare(a, b string) int {
	if len(a) != len(b) {
		return cmpInt(len(a), len(b))
	}
	return strings.Compare(a, b)
}

// normalizeObject sorts keys into jsonb order and keeps the last of
// duplicate keys, in place.
func normalizeObject(v *JSONValue) { v.Keys, v.Elems = normalizeMembers(v.Keys, v.Elems) }

// normalizeMembers is normalizeObject on an object's keys and values (the
// parser calls it so: a *JSONValue passed here would escape, and with it
// every member the parser parses into).
func normalizeMembers(ks []string, vs []JSONValue) ([]string, []JSONValue) {
	n := len(ks)
	// Stored jsonb is printed in this order, so a row's objects come back
	// sorted and without duplicates: nothing to do.
	sorted := true
	for i := 1; i < n && sorted; i++ {
		sorted = jsonKeyLess(ks[i-1], ks[i])
	}
	if sorted {
		return ks, vs
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	// Stable insertion-merge sort by key keeps input order among
	// duplicates, so the last duplicate ends last in its run.
	sortStable(idx, func(a, b int) bool { return jsonKeyLess(ks[a], ks[b]) })
	keys := make([]string, 0, n)
	vals := make([]JSONValue, 0, n)
	for i, j := range idx {
		if i+1 < n && ks[idx[i+1]] == ks[j] {
			continue
		}
		keys = append(keys, ks[j])
		vals = append(vals, vs[j])
	}
	return keys, vals
}

func sortStable(idx []int, less func(a, b int) bool) {
	// Merge sort: objects can be large, and a stable sort is required.
	if len(idx) < 2 {
		return
	}
	tmp := make([]int, len(idx))
	var rec func(lo, hi int)
	rec = func(lo, hi int) {
		if hi-lo < 2 {
			return
		}
		mid := (lo + hi) / 2
		rec(lo, mid)
		rec(mid, hi)
		i, j, k := lo, mid, lo
		for i < mid && j < hi {
			if less(idx[j], idx[i]) {
				tmp[k] = idx[j]
				j++
			} else {
				tmp[k] = idx[i]
				i++
			}
			k++
		}
		k += copy(tmp[k:], idx[i:mid])
		copy(tmp[k:], idx[j:hi])
		copy(idx[lo:hi], tmp[lo:hi])
	}
	rec(0, len(idx))
}

// ValidateJSON checks json input syntax (22P02 with PostgreSQL's details).
func ValidateJSON(s string) error {
	_, err := parseJSONText(s, true)
	return err
}

// ParseJSONB parses jsonb input into its normal form.
func ParseJSONB(s string) (*JSONValue, error) { return parseJSONText(s, false) }

// parseJSONBInput is jsonb_in: s parsed, and its containers checked
// against jsonb's limit (JSONBLimits) when the text is long enough that
// they might reach it (a container takes at most 8 bytes for each byte
// of its text, a "[" in a nest of them).
func parseJSONBInput(s string) (Value, error) {
	j, err := ParseJSONB(s)
	if err != nil {
		return Null, err
	}
	if len(s) > jsonbMaxContainer/8 {
		if _, err := JSONBLimits(j); err != nil {
			return Null, err
		}
	}
	return NewJSONB(j), nil
}

// ParseJSONTree parses json text into a tree that keeps its objects' keys
// in their order, duplicates too, as json's functions walk them.
func ParseJSONTree(s string) (*JSONValue, error) { return parseJSONText(s, true) }

// Source is the value's text as a json tree keeps it (a number as
// written); "" in trees parsed as jsonb.
func (j *JSONValue) Source() string { return j.raw }

// QuoteJSON is s as a JSON string literal, escaped as PostgreSQL's
// escape_json does.
func QuoteJSON(s string) string { return string(appendJSONString(nil, s)) }

// appendJSONString appends s as a JSON string literal, escaped as
// PostgreSQL's escape_json does.
func appendJSONString(buf []byte, s string) []byte {
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		var esc string
		switch c {
		case '"':
			esc = `\"`
		case '\\':
			esc = `\\`
		case '\b':
			esc = `\b`
		case '\f':
			esc = `\f`
		case '\n':
			esc = `\n`
		case '\r':
			esc = `\r`
		case '\t':
			esc = `\t`
		default:
			if c >= 0x20 {
				continue
			}
		}
		buf = append(buf, s[start:i]...)
		if esc != "" {
			buf = append(buf, esc...)
		} else {
			const hexd = "0123456789abcdef"
			buf = append(buf, '\\', 'u', '0', '0', hexd[c>>4], hexd[c&0xf])
		}
		start = i + 1
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}

// AppendJSONB appends jsonb's text output: `{"a": 1, "b": [1, 2]}`. It
// fails as PostgreSQL's jsonb_out does (54000) when the text would pass
// MaxAllocSize, counting from the end of buf, since PostgreSQL prints it
// in a buffer of its own; buf is then returned as it was.
func AppendJSONB(buf []byte, j *JSONValue) ([]byte, error) {
	w := newJSONOut(buf)
	w.jsonb(j)
	return w.result()
}

// appendJSONBText appends jsonb's text output with no limit, for the text
// outputs that have no error path (AppendText).
func appendJSONBText(buf []byte, j *JSONValue) []byte {
	w := uncheckedJSONOut(buf)
	w.jsonb(j)
	return w.b
}

// JSONBText is jsonb's text output as a string, with no limit: for keys,
// comparisons and messages. A value's output goes through JSONBOut.
func JSONBText(j *JSONValue) string { return string(appendJSONBText(nil, j)) }

// JSONBOut is jsonb's output function, jsonb_out: its text, or 54000 as
// PostgreSQL fails one past MaxAllocSize (jsonb::text, jsonb::json).
func JSONBOut(j *JSONValue) (string, error) {
	b, err := AppendJSONB(nil, j)
	return string(b), err
}

// CompareJSONB is jsonb's btree order: at the top an empty array sorts
// first, then scalars, arrays, objects; containers compare by their number
// of elements first, then element by element (object keys in storage
// order); values of different types by null < string < number < boolean <
// array < object.
func CompareJSONB(a, b *JSONValue) int {
	// A top-level scalar compares as a one-element "raw scalar" array.
	ac, an, araw := topShape(a)
	bc, bn, braw := topShape(b)
	if ac != bc {
		return cmpInt(int(ac), int(bc))
	}
	if an != bn {
		return cmpInt(an, bn)
	}
	if ac == JSONArray {
		if araw != braw {
			if araw {
				return -1
			}
			return 1
		}
		if araw {
			return compareJSONValue(a, b)
		}
	}
	return compareJSONContents(a, b)
}

func topShape(j *JSONValue) (container JSONKind, n int, raw bool) {
	switch j.Kind {
	case JSONArray:
		return JSONArray, len(j.Elems), false
	case JSONObject:
		return JSONObject, len(j.Elems), false
	}
	return JSONArray, 1, true
}

func compareJSONContents(a, b *JSONValue) int {
	for i := range a.Elems {
		if a.Kind == JSONObject {
			if c := strings.Compare(a.Keys[i], b.Keys[i]); c != 0 {
				return c
			}
		}
		if c := compareJSONValue(&a.Elems[i], &b.Elems[i]); c != 0 {
			return c
		}
	}
	return 0
}

func compareJSONValue(a, b *JSONValue) int {
	if a.Kind != b.Kind {
		return cmpInt(int(a.Kind), int(b.Kind))
	}
	switch a.Kind {
	case JSONNull:
		return 0
	case JSONString:
		return strings.Compare(a.Str, b.Str)
	case JSONNumber:
		return compareDecimal(jsonNum(a), jsonNum(b))
	case JSONBool:
		return cmpInt(b2i(a.Bool), b2i(b.Bool))
	}
	if len(a.Elems) != len(b.Elems) {
		return cmpInt(len(a.Elems), len(b.Elems))
	}
	return compareJSONContents(a, b)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// jsonNum is the numeric of a number node (parsed lazily for json trees).
func jsonNum(j *JSONValue) *apd.Decimal {
	if j.Num != nil {
		return j.Num
	}
	d, err := parseDecimal(j.raw)
	if err != nil {
		return new(apd.Decimal).Set(decNaN)
	}
	return d
}

func hashJSONB(h uint64, j *JSONValue) uint64 {
	h = (h ^ uint64(j.Kind)) * fnvPrime
	switch j.Kind {
	case JSONString:
		h = hashString(h, j.Str)
	case JSONNumber:
		h = hashNumeric(h, jsonNum(j))
	case JSONBool:
		h = hashUint64(h, uint64(b2i(j.Bool)))
	case JSONArray, JSONObject:
		h = hashUint64(h, uint64(len(j.Elems)))
		for i := range j.Elems {
			if j.Kind == JSONObject {
				h = hashString(h, j.Keys[i])
			}
			h = hashJSONB(h, &j.Elems[i])
		}
	}
	return h
}

// jsonTree returns the tree of a json or jsonb value: jsonb's own, or a
// parse of json text keeping source spans.
func jsonTree(v Value) (*JSONValue, error) {
	switch v.K {
	case KindJSONB:
		return v.JSONB(), nil
	case KindJSON, KindText:
		return parseJSONText(v.S, true)
	}
	return nil, pgerr.New(pgerr.DatatypeMismatch, "argument is not json")
}

// jsonResult wraps a node found inside v as a value of v's kind, or as
// text for the ->> forms (strings unescaped, null as SQL NULL).
func jsonResult(v Value, j *JSONValue, asText bool) Value {
	if j == nil {
		return Null
	}
	if asText {
		switch j.Kind {
		case JSONNull:
			return Null
		case JSONString:
			return NewText(j.Str)
		}
		if v.K == KindJSONB {
			return NewText(JSONBText(j))
		}
		return NewText(j.raw)
	}
	if v.K == KindJSONB {
		return NewJSONB(j)
	}
	return NewJSON(j.raw)
}

// field finds an object key: jsonb's keys are unique; in json text the
// last duplicate wins, as PostgreSQL's json operators do.
func (j *JSONValue) field(key string) *JSONValue {
	if j.Kind != JSONObject {
		return nil
	}
	for i := len(j.Keys) - 1; i >= 0; i-- {
		if j.Keys[i] == key {
			return &j.Elems[i]
		}
	}
	return nil
}

func (j *JSONValue) index(i int64) *JSONValue {
	if j.Kind != JSONArray {
		return nil
	}
	n := int64(len(j.Elems))
	if i < 0 {
		i += n
	}
	if i < 0 || i >= n {
		return nil
	}
	return &j.Elems[i]
}

// JSONGetField is json/jsonb -> 'key' (asText: ->>): NULL when v is not an
// object or has no such key.
func JSONGetField(v Value, key string, asText bool) (Value, error) {
	if s, ok := storedText(v); ok {
		if r, ok := storedGetField(s, key, asText); ok {
			return r, nil
		}
	}
	j, err := jsonTree(v)
	if err != nil {
		return Null, err
	}
	return jsonResult(v, j.field(key), asText), nil
}

// JSONGetIndex is json/jsonb -> n (asText: ->>): array element n from 0,
// negative counting from the end; NULL when out of range or not an array.
func JSONGetIndex(v Value, n int64, asText bool) (Value, error) {
	j, err := jsonTree(v)
	if err != nil {
		return Null, err
	}
	if v.K == KindJSONB && j.Kind != JSONArray && j.Kind != JSONObject && (n == 0 || n == -1) {
		// PostgreSQL 15 stores a jsonb scalar as a one-element array, and
		// -> 0 finds it there.
		return jsonResult(v, j, asText), nil
	}
	return jsonResult(v, j.index(n), asText), nil
}

// JSONGetPath is json/jsonb #> path (asText: #>>): each path element is
// an object key, or an array index in decimal; NULL when any step is
// missing or the path holds a NULL.
func JSONGetPath(v Value, path Value) (Value, error) { return jsonPath(v, path, false) }

// JSONGetPathText is #>>.
func JSONGetPathText(v Value, path Value) (Value, error) { return jsonPath(v, path, true) }

func jsonPath(v Value, path Value, asText bool) (Value, error) {
	j, err := jsonTree(v)
	if err != nil {
		return Null, err
	}
	a := path.Array()
	if a == nil {
		return Null, pgerr.New(pgerr.DatatypeMismatch, "path must be a text array")
	}
	for _, e := range a.Elems {
		if e.IsNull() {
			return Null, nil
		}
		key := e.S
		switch j.Kind {
		case JSONObject:
			j = j.field(key)
		case JSONArray:
			n, err := strconv.ParseInt(strings.TrimSpace(key), 10, 64)
			if err != nil {
				return Null, nil
			}
			j = j.index(n)
		default:
			return Null, nil
		}
		if j == nil {
			return Null, nil
		}
	}
	return jsonResult(v, j, asText), nil
}

// JSONBContains is jsonb @> (JSONBContains(b, a) is a <@ b): b's structure
// and data must appear in a, array order and duplicates aside; an array
// also contains a bare scalar.
func JSONBContains(a, b Value) bool {
	if s, ok := storedText(a); ok {
		if y := b.JSONB(); y != nil {
			if c, ok := storedContains(s, y); ok {
				return c
			}
		}
	}
	x, y := a.JSONB(), b.JSONB()
	if x == nil || y == nil {
		return false
	}
	xs := x.Kind != JSONArray && x.Kind != JSONObject
	ys := y.Kind != JSONArray && y.Kind != JSONObject
	switch {
	case xs && ys:
		return compareJSONValue(x, y) == 0
	case xs:
		return false
	case ys:
		if x.Kind != JSONArray {
			return false
		}
		return arrayHasScalar(x, y)
	}
	return jsonContains(x, y)
}

func arrayHasScalar(arr, s *JSONValue) bool {
	for i := range arr.Elems {
		e := &arr.Elems[i]
		if e.Kind == s.Kind && compareJSONValue(e, s) == 0 {
			return true
		}
	}
	return false
}

func jsonContains(x, y *JSONValue) bool {
	if x.Kind != y.Kind {
		return false
	}
	switch x.Kind {
	case JSONObject:
		for i, k := range y.Keys {
			xv := x.field(k)
			if xv == nil {
				return false
			}
			yv := &y.Elems[i]
			if yv.Kind == JSONObject || yv.Kind == JSONArray {
				if !jsonContains(xv, yv) {
					return false
				}
			} else if xv.Kind != yv.Kind || compareJSONValue(xv, yv) != 0 {
				return false
			}
		}
		return true
	case JSONArray:
		for i := range y.Elems {
			yv := &y.Elems[i]
			if yv.Kind == JSONObject || yv.Kind == JSONArray {
				found := false
				for k := range x.Elems {
					if x.Elems[k].Kind == yv.Kind && jsonContains(&x.Elems[k], yv) {
						found = true
						break
					}
				}
				if !found {
					return false
				}
			} else if !arrayHasScalar(x, yv) {
				return false
			}
		}
		return true
	}
	return compareJSONValue(x, y) == 0
}

// JSONBExists is jsonb ? key: a top-level object key, a string element of
// a top-level array, or the string itself.
func JSONBExists(v Value, key string) bool {
	if s, ok := storedText(v); ok {
		if _, found, ok := storedField(s, key); ok {
			return found
		}
	}
	j := v.JSONB()
	if j == nil {
		return false
	}
	switch j.Kind {
	case JSONObject:
		return j.field(key) != nil
	case JSONArray:
		for i := range j.Elems {
			if j.Elems[i].Kind == JSONString && j.Elems[i].Str == key {
				return true
			}
		}
		return false
	case JSONString:
		return j.Str == key
	}
	return false
}

// JSONBExistsAny is jsonb ?| text[]; JSONBExistsAll is ?&. NULL elements
// of keys are ignored, as PostgreSQL does.
func JSONBExistsAny(v Value, keys Value) bool {
	for _, k := range keys.Array().Elems {
		if !k.IsNull() && JSONBExists(v, k.S) {
			return true
		}
	}
	return false
}

// JSONBExistsAll is jsonb ?& text[].
func JSONBExistsAll(v Value, keys Value) bool {
	for _, k := range keys.Array().Elems {
		if !k.IsNull() && !JSONBExists(v, k.S) {
			return false
		}
	}
	return true
}

// ToJSONB converts a SQL value to jsonb as PostgreSQL's to_jsonb does:
// numbers stay numbers (NaN and infinities become strings), booleans and
// NULL map over, arrays become arrays, json is parsed, dates and
// timestamps become ISO 8601 strings, everything else its text.
func ToJSONB(v Value) (Value, error) {
	j, err := toJSONValue(v)
	if err != nil {
		return Null, err
	}
	if _, err := JSONBLimits(j); err != nil {
		return Null, err
	}
	return NewJSONB(j), nil
}

func toJSONValue(v Value) (*JSONValue, error) {
	switch v.K {
	case KindNull:
		return &JSONValue{Kind: JSONNull}, nil
	case KindBool:
		return &JSONValue{Kind: JSONBool, Bool: v.I != 0}, nil
	case KindInt:
		return &JSONValue{Kind: JSONNumber, Num: apd.New(v.I, 0)}, nil
	case KindFloat, KindNumeric:
		text := FormatText(v)
		d, err := parseDecimal(text)
		if err != nil || d.Form != apd.Finite {
			return &JSONValue{Kind: JSONString, Str: text}, nil
		}
		return &JSONValue{Kind: JSONNumber, Num: d}, nil
	case KindJSONB:
		return v.JSONB(), nil
	case KindJSON:
		return ParseJSONB(v.S)
	case KindHstore:
		// to_jsonb uses a type's cast to jsonb when it has one.
		return HstoreJSONB(v.Hstore()), nil
	case KindArray:
		a := v.Array()
		out := &JSONValue{Kind: JSONArray, Elems: make([]JSONValue, len(a.Elems))}
		// Multi-dimensional arrays nest, as PostgreSQL's array_to_json.
		if len(a.Dims) > 1 {
			return nestArrayJSON(a, 0, 0)
		}
		for i, e := range a.Elems {
			ej, err := toJSONValue(e)
			if err != nil {
				return nil, err
			}
			out.Elems[i] = *ej
		}
		return out, nil
	}
	switch v.K {
	case KindText, KindBPChar, KindCitext:
		if err := JSONBStringLimit(len(v.S)); err != nil {
			return nil, err
		}
	case KindBytes:
		// Its text (\x and two hex digits a byte), checked before it
		// is built.
		if err := JSONBStringLimit(2 + 2*len(v.S)); err != nil {
			return nil, err
		}
	}
	s := appendJSONScalarText(nil, v)
	if err := JSONBStringLimit(len(s)); err != nil {
		return nil, err
	}
	return &JSONValue{Kind: JSONString, Str: string(s)}, nil
}

func nestArrayJSON(a *ArrayValue, dim, off int) (*JSONValue, error) {
	n := int(a.Dims[dim])
	out := &JSONValue{Kind: JSONArray, Elems: make([]JSONValue, n)}
	stride := 1
	for _, d := range a.Dims[dim+1:] {
		stride *= int(d)
	}
	for i := 0; i < n; i++ {
		var ej *JSONValue
		var err error
		if dim == len(a.Dims)-1 {
			ej, err = toJSONValue(a.Elems[off+i])
		} else {
			ej, err = nestArrayJSON(a, dim+1, off+i*stride)
		}
		if err != nil {
			return nil, err
		}
		out.Elems[i] = *ej
	}
	return out, nil
}

// appendJSONScalarText is the string a date/time value becomes in JSON:
// ISO 8601 with a T (XSD style), infinities as words; other kinds their
// text output.
func appendJSONScalarText(buf []byte, v Value) []byte {
	switch v.K {
	case KindDate:
		return AppendDate(buf, v.I)
	case KindTimestamp, KindTimestampTZ:
		if !IsFiniteTimestamp(v.I) {
			return AppendTimestamp(buf, v.I, false)
		}
		start := len(buf)
		buf = AppendTimestamp(buf, v.I, false)
		bc := strings.HasSuffix(string(buf[start:]), " BC")
		if bc {
			buf = buf[:len(buf)-3]
		}
		for i := start; i < len(buf); i++ {
			if buf[i] == ' ' {
				buf[i] = 'T'
				break
			}
		}
		if v.K == KindTimestampTZ {
			buf = append(buf, "+00:00"...)
		}
		if bc {
			buf = append(buf, " BC"...)
		}
		return buf
	}
	return AppendText(buf, v)
}

// AppendToJSON appends to_json(v): the json text of a SQL value, with
// PostgreSQL's json (not jsonb) spacing for arrays ("[1,2]") and numbers
// as they print. It fails as PostgreSQL's to_json does (54000) when the
// text would pass MaxAllocSize, counting from the end of buf; buf is then
// returned as it was.
func AppendToJSON(buf []byte, v Value) ([]byte, error) {
	w := newJSONOut(buf)
	w.toJSON(v)
	return w.result()
}

// ToJSON is to_json(v) as a json value.
func ToJSON(v Value) (Value, error) {
	w := newJSONOut(nil)
	w.toJSON(v)
	return w.json()
}

// ArrayToJSON is array_to_json(a, pretty): to_json's text of the array,
// with a line break between the outer elements when pretty.
func ArrayToJSON(a *ArrayValue, pretty bool) (Value, error) {
	w := newJSONOut(nil)
	if len(a.Dims) == 0 {
		w.raw("[]")
	} else if pretty {
		w.array(a, 0, 0, ",\n ")
	} else {
		w.array(a, 0, 0, ",")
	}
	return w.json()
}

// buildObjectArgs checks json[b]_build_object's arguments: pairs of a
// non-NULL key and a value (22023 otherwise, with PostgreSQL's messages).
func buildObjectArgs(args []Value, fn string) error {
	if len(args)%2 != 0 {
		return pgerr.New(pgerr.InvalidParameterValue, "argument list must have even number of elements").
			WithHint("The arguments of %s() must consist of alternating keys and values.", fn)
	}
	for i := 0; i < len(args); i += 2 {
		if !args[i].IsNull() {
			continue
		}
		if fn == "json_build_object" {
			return pgerr.New(pgerr.InvalidParameterValue, "argument %d cannot be null", i+1).WithHint("Object keys should be text.")
		}
		return pgerr.New(pgerr.InvalidParameterValue, "argument %d: key must not be null", i+1)
	}
	return nil
}

// jsonKeyText is the text an object key argument becomes.
func jsonKeyText(v Value) string {
	if v.K == KindBPChar {
		return v.S
	}
	return FormatText(v)
}

// JSONBBuildObject is jsonb_build_object(k1, v1, ...): keys as text,
// values through to_jsonb, the last duplicate key winning.
func JSONBBuildObject(args []Value) (Value, error) {
	if err := buildObjectArgs(args, "jsonb_build_object"); err != nil {
		return Null, err
	}
	obj := &JSONValue{Kind: JSONObject, Keys: []string{}, Elems: []JSONValue{}}
	for i := 0; i < len(args); i += 2 {
		key := jsonKeyText(args[i])
		if err := JSONBStringLimit(len(key)); err != nil {
			return Null, err
		}
		val, err := toJSONValue(args[i+1])
		if err != nil {
			return Null, err
		}
		obj.Keys = append(obj.Keys, key)
		obj.Elems = append(obj.Elems, *val)
	}
	normalizeObject(obj)
	if _, err := JSONBLimits(obj); err != nil {
		return Null, err
	}
	return NewJSONB(obj), nil
}

// JSONBuildObject is json_build_object: json text `{"a" : 1, "b" : 2}`,
// keys kept in order and duplicates kept, as PostgreSQL prints it.
func JSONBuildObject(args []Value) (Value, error) {
	if err := buildObjectArgs(args, "json_build_object"); err != nil {
		return Null, err
	}
	return JSONObjectPairs(args)
}

// JSONObjectPairs is the json object of alternating keys and values,
// "k" : v, as json_build_object and json_object print them, failing past
// MaxAllocSize as their StringInfo does. The keys are not NULL.
func JSONObjectPairs(kv []Value) (Value, error) {
	w := newJSONOut(nil)
	w.raw("{")
	w.pairs(kv)
	w.raw("}")
	return w.json()
}

// JSONBBuildArray is jsonb_build_array(v1, ...).
func JSONBBuildArray(args []Value) (Value, error) {
	arr := &JSONValue{Kind: JSONArray, Elems: make([]JSONValue, len(args))}
	for i, a := range args {
		j, err := toJSONValue(a)
		if err != nil {
			return Null, err
		}
		arr.Elems[i] = *j
	}
	if _, err := JSONBLimits(arr); err != nil {
		return Null, err
	}
	return NewJSONB(arr), nil
}

// JSONBuildArray is json_build_array: `[1, "a"]`.
func JSONBuildArray(args []Value) (Value, error) {
	w := newJSONOut(nil)
	w.raw("[")
	for i, a := range args {
		if i > 0 {
			w.raw(", ")
		}
		w.toJSON(a)
	}
	w.raw("]")
	return w.json()
}

// JSONAgg is json_agg over the aggregated values in order: json text
// "[1, 2]", with a line break before arrays after the first as
// PostgreSQL prints them. No rows give NULL (call with none).
func JSONAgg(vals []Value) (Value, error) {
	return jsonAggText(vals, func(v Value) bool { return v.K == KindArray })
}

// jsonAggText prints json_agg's array, with a line break before the
// elements after the first for which lineBreak holds.
func jsonAggText(vals []Value, lineBreak func(Value) bool) (Value, error) {
	if len(vals) == 0 {
		return Null, nil
	}
	w := newJSONOut(nil)
	w.raw("[")
	for i, v := range vals {
		if w.err != nil {
			break
		}
		if i > 0 {
			w.raw(", ")
			if lineBreak(v) {
				w.raw("\n ")
			}
		}
		w.toJSON(v)
	}
	w.catenate("]")
	return w.json()
}

// JSONBAgg is jsonb_agg.
func JSONBAgg(vals []Value) (Value, error) {
	if len(vals) == 0 {
		return Null, nil
	}
	return JSONBBuildArray(vals)
}

// JSONEach is json_each / jsonb_each (asText: the _text variants): the
// keys and values of a top-level object, in storage order (jsonb) or
// input order with duplicates (json).
func JSONEach(v Value, asText bool) (keys []string, vals []Value, err error) {
	j, err := jsonTree(v)
	if err != nil {
		return nil, nil, err
	}
	if j.Kind != JSONObject {
		fn := "json_each"
		if v.K == KindJSONB {
			fn = "jsonb_each"
		}
		if asText {
			fn += "_text"
		}
		return nil, nil, pgerr.New(pgerr.InvalidParameterValue, "cannot call %s on a non-object", fn)
	}
	vals = make([]Value, len(j.Elems))
	for i := range j.Elems {
		vals[i] = jsonResult(v, &j.Elems[i], asText)
	}
	return append([]string(nil), j.Keys...), vals, nil
}

// JSONArrayElements is json_array_elements / jsonb_array_elements (asText:
// the _text variants).
func JSONArrayElements(v Value, asText bool) ([]Value, error) {
	j, err := jsonTree(v)
	if err != nil {
		return nil, err
	}
	switch j.Kind {
	case JSONArray:
	case JSONObject:
		return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot extract elements from an object")
	default:
		return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot extract elements from a scalar")
	}
	out := make([]Value, len(j.Elems))
	for i := range j.Elems {
		out[i] = jsonResult(v, &j.Elems[i], asText)
	}
	return out, nil
}

// JSONTypeof is json_typeof / jsonb_typeof.
func JSONTypeof(v Value) (Value, error) {
	j, err := jsonTree(v)
	if err != nil {
		return Null, err
	}
	return NewText([...]string{"null", "string", "number", "boolean", "array", "object"}[j.Kind]), nil
}

// JSONArrayLength is json_array_length / jsonb_array_length.
func JSONArrayLength(v Value) (Value, error) {
	j, err := jsonTree(v)
	if err != nil {
		return Null, err
	}
	switch j.Kind {
	case JSONArray:
		return NewInt(int64(len(j.Elems))), nil
	case JSONObject:
		return Null, pgerr.New(pgerr.InvalidParameterValue, "cannot get array length of a non-array")
	}
	return Null, pgerr.New(pgerr.InvalidParameterValue, "cannot get array length of a scalar")
}

// jsonbScalarCast is jsonb::numeric/int/float/bool: the value must be a
// scalar of the matching JSON type.
func jsonbScalarCast(v Value, t Type) (Value, error) {
	j := v.JSONB()
	want := JSONNumber
	if t.ID == Bool {
		want = JSONBool
	}
	if j.Kind != want {
		kind := [...]string{"null", "string", "numeric", "boolean", "array", "object"}[j.Kind]
		return Null, pgerr.New(pgerr.InvalidParameterValue, "cannot cast jsonb %s to type %s", kind, t)
	}
	if want == JSONBool {
		return NewBool(j.Bool), nil
	}
	return Cast(NewNumeric(new(apd.Decimal).Set(j.Num)), t)
}
