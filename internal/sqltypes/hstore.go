package sqltypes

import (
	"bytes"
	"encoding/binary"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// HstorePair is one key of an hstore with its value (Null: SQL NULL).
type HstorePair struct {
	Key  string
	Val  string
	Null bool
}

// HstoreValue is an hstore: its pairs in hstore's storage order (shorter
// keys first, keys of one length by their bytes), one per key. Values are
// immutable once built and may be shared by many Values.
type HstoreValue struct {
	Pairs []HstorePair
}

// NewHstore returns an hstore value.
func NewHstore(h *HstoreValue) Value { return Value{K: KindHstore, X: h} }

// Hstore returns the hstore of a KindHstore value (read-only).
func (v Value) Hstore() *HstoreValue {
	h, _ := v.X.(*HstoreValue)
	return h
}

// hstoreKeyLess is hstore's key order (comparePairs): by length, then by
// bytes.
func hstoreKeyLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

// MakeHstore builds an hstore from pairs in any order. Of pairs with one
// key the first one given is kept, as hstore_in, hstore(text[], text[])
// and hstore_recv keep it. pairs is sorted in place and kept.
func MakeHstore(pairs []HstorePair) *HstoreValue {
	sort.SliceStable(pairs, func(i, j int) bool { return hstoreKeyLess(pairs[i].Key, pairs[j].Key) })
	out := pairs[:0]
	for i, p := range pairs {
		if i > 0 && p.Key == out[len(out)-1].Key {
			continue
		}
		out = append(out, p)
	}
	return &HstoreValue{Pairs: out}
}

// Find returns the index of key's pair, or -1.
func (h *HstoreValue) Find(key string) int {
	i := sort.Search(len(h.Pairs), func(i int) bool { return !hstoreKeyLess(h.Pairs[i].Key, key) })
	if i < len(h.Pairs) && h.Pairs[i].Key == key {
		return i
	}
	return -1
}

// hstoreSyntaxError is hstore_in's complaint. PostgreSQL 15 raises it with
// elog, so its SQLSTATE is XX000; the character quoted is the one at the
// byte position given.
func hstoreSyntaxError(s string, pos int) error {
	_, n := utf8.DecodeRuneInString(s[pos:])
	return pgerr.New(pgerr.InternalError, "Syntax error near \"%s\" at position %d", s[pos:pos+n], pos)
}

func hstoreUnexpectedEnd() error {
	return pgerr.New(pgerr.InternalError, "Unexpected end of string")
}

// hstoreIsSpace is C's isspace in the C locale, which hstore_in uses.
func hstoreIsSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// hstoreParser reads hstore's text input the way hstore_in's state
// machine does: keys and values are bare words (ending at blanks, at "="
// for a key, at "," for a value; a backslash takes the next byte
// literally) or double-quoted strings (backslash escapes); an unquoted
// value NULL (any case) is SQL NULL; pairs are separated by commas.
type hstoreParser struct {
	s   string
	pos int
}

// word reads one key (isKey) or value starting at p.pos. It returns
// ok=false at the end of the input before any word began. On return pos
// is at the byte that ended the word, as hstore_in's get_val leaves it,
// minus one when that byte must be read again by the caller.
func (p *hstoreParser) word(isKey bool) (w string, quoted, ok bool, err error) {
	var b strings.Builder
	const (
		waitVal = iota
		inVal
		inQuoted
		escInVal
		escInQuoted
	)
	st := waitVal
	for ; ; p.pos++ {
		var c byte // 0 at the end, as the C string's terminator
		if p.pos < len(p.s) {
			c = p.s[p.pos]
		}
		switch st {
		case waitVal:
			switch {
			case c == '"':
				quoted, st = true, inQuoted
			case c == 0:
				return "", false, false, nil
			case c == '=' && isKey:
				return "", false, false, hstoreSyntaxError(p.s, p.pos)
			case c == '\\':
				st = escInVal
			case !hstoreIsSpace(c):
				b.WriteByte(c)
				st = inVal
			}
		case inVal:
			switch {
			case c == '\\':
				st = escInVal
			case c == '=' && isKey, c == ',' && !isKey, c == 0:
				p.pos--
				return b.String(), false, true, nil
			case hstoreIsSpace(c):
				return b.String(), false, true, nil
			default:
				b.WriteByte(c)
			}
		case inQuoted:
			switch c {
			case '\\':
				st = escInQuoted
			case '"':
				return b.String(), true, true, nil
			case 0:
				return "", false, false, hstoreUnexpectedEnd()
			default:
				b.WriteByte(c)
			}
		case escInVal, escInQuoted:
			if c == 0 {
				return "", false, false, hstoreUnexpectedEnd()
			}
			b.WriteByte(c)
			if st == escInVal {
				st = inVal
			} else {
				st = inQuoted
			}
		}
	}
}

// ParseHstore parses hstore's text input ('a=>1, "b c"=>NULL').
func ParseHstore(s string) (*HstoreValue, error) {
	// A NUL byte ends hstore_in's C string; text never holds one.
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	p := &hstoreParser{s: s}
	var pairs []HstorePair
	const (
		wantKey = iota
		wantEq
		wantGt
		wantVal
		wantDelim
	)
	st := wantKey
	var key string
	for ; ; p.pos++ {
		var c byte
		if p.pos < len(s) {
			c = s[p.pos]
		}
		switch st {
		case wantKey:
			w, _, ok, err := p.word(true)
			if err != nil {
				return nil, err
			}
			if !ok {
				return MakeHstore(pairs), nil
			}
			key, st = w, wantEq
		case wantEq:
			switch {
			case c == '=':
				st = wantGt
			case c == 0:
				return nil, hstoreUnexpectedEnd()
			case !hstoreIsSpace(c):
				return nil, hstoreSyntaxError(s, p.pos)
			}
		case wantGt:
			switch c {
			case '>':
				st = wantVal
			case 0:
				return nil, hstoreUnexpectedEnd()
			default:
				return nil, hstoreSyntaxError(s, p.pos)
			}
		case wantVal:
			w, quoted, ok, err := p.word(false)
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, hstoreUnexpectedEnd()
			}
			pairs = append(pairs, HstorePair{Key: key, Val: w, Null: !quoted && strings.EqualFold(w, "null")})
			st = wantDelim
		case wantDelim:
			switch {
			case c == ',':
				st = wantKey
			case c == 0:
				return MakeHstore(pairs), nil
			case !hstoreIsSpace(c):
				return nil, hstoreSyntaxError(s, p.pos)
			}
		}
	}
}

// AppendHstore appends hstore's text output: "key"=>"value" pairs (NULL
// unquoted) separated by ", ", with " and \ escaped by a backslash.
func AppendHstore(buf []byte, h *HstoreValue) []byte {
	quote := func(buf []byte, s string) []byte {
		buf = append(buf, '"')
		for i := 0; i < len(s); i++ {
			if s[i] == '"' || s[i] == '\\' {
				buf = append(buf, '\\')
			}
			buf = append(buf, s[i])
		}
		return append(buf, '"')
	}
	for i, p := range h.Pairs {
		if i > 0 {
			buf = append(buf, ", "...)
		}
		buf = quote(buf, p.Key)
		buf = append(buf, "=>"...)
		if p.Null {
			buf = append(buf, "NULL"...)
		} else {
			buf = quote(buf, p.Val)
		}
	}
	return buf
}

// AppendHstoreBinary appends hstore_send's form: the pair count, then
// each key's length and bytes and each value's length (-1 for NULL) and
// bytes, as big-endian int32s.
func AppendHstoreBinary(buf []byte, h *HstoreValue) []byte {
	buf = binary.BigEndian.AppendUint32(buf, uint32(len(h.Pairs)))
	for _, p := range h.Pairs {
		buf = binary.BigEndian.AppendUint32(buf, uint32(len(p.Key)))
		buf = append(buf, p.Key...)
		if p.Null {
			buf = binary.BigEndian.AppendUint32(buf, 0xffffffff)
			continue
		}
		buf = binary.BigEndian.AppendUint32(buf, uint32(len(p.Val)))
		buf = append(buf, p.Val...)
	}
	return buf
}

// DecodeHstoreBinary reads hstore_recv's input (AppendHstoreBinary's
// form, pairs in any order; of repeated keys the first is kept). Keys and
// values must be valid UTF-8, as pq_getmsgtext requires.
func DecodeHstoreBinary(src []byte) (*HstoreValue, error) {
	bad := func() error {
		return pgerr.New(pgerr.ProtocolViolation, "insufficient data left in message")
	}
	r := bytes.NewReader(src)
	readInt := func() (int32, error) {
		var b [4]byte
		if n, _ := r.Read(b[:]); n != 4 {
			return 0, bad()
		}
		return int32(binary.BigEndian.Uint32(b[:])), nil
	}
	readText := func(n int32) (string, error) {
		if int64(n) > int64(r.Len()) {
			return "", bad()
		}
		b := make([]byte, n)
		r.Read(b) // n ≤ r.Len(): reads all n

		if !utf8.Valid(b) {
			return "", pgerr.New(pgerr.CharacterNotInRepertoire, "invalid byte sequence for encoding \"UTF8\"")
		}
		return string(b), nil
	}
	if len(src) < 4 {
		return nil, bad()
	}
	count, _ := readInt()
	if count < 0 || int64(count) > int64(len(src)/8) {
		if count < 0 {
			return nil, pgerr.New(pgerr.ProgramLimitExceeded, "number of pairs (%d) exceeds the maximum allowed (%d)", count, 1<<30/24)
		}
		return nil, bad()
	}
	pairs := make([]HstorePair, 0, count)
	for i := int32(0); i < count; i++ {
		n, err := readInt()
		if err != nil {
			return nil, err
		}
		if n < 0 {
			return nil, pgerr.New(pgerr.NullValueNotAllowed, "null value not allowed for hstore key")
		}
		k, err := readText(n)
		if err != nil {
			return nil, err
		}
		n, err = readInt()
		if err != nil {
			return nil, err
		}
		p := HstorePair{Key: k, Null: n < 0}
		if n >= 0 {
			if p.Val, err = readText(n); err != nil {
				return nil, err
			}
		}
		pairs = append(pairs, p)
	}
	if r.Len() != 0 {
		return nil, pgerr.New(pgerr.InvalidBinaryRepresentation, "incorrect binary data format")
	}
	return MakeHstore(pairs), nil
}

// CompareHstore is hstore's btree order (hstore_cmp), which PostgreSQL
// says is not meant to be useful beyond telling equal from unequal: an
// empty hstore first; otherwise the concatenated keys and values (NULLs
// empty) byte by byte, then their total length, the pair count, and the
// pairs' end positions and NULL flags.
func CompareHstore(a, b *HstoreValue) int {
	na, nb := len(a.Pairs), len(b.Pairs)
	if na == 0 || nb == 0 {
		return cmpInt(na, nb)
	}
	sa, sb := hstoreBuffer(a), hstoreBuffer(b)
	n := min(len(sa), len(sb))
	if c := strings.Compare(sa[:n], sb[:n]); c != 0 {
		return c
	}
	if c := cmpInt(len(sa), len(sb)); c != 0 {
		return c
	}
	if c := cmpInt(na, nb); c != 0 {
		return c
	}
	ea, eb := 0, 0
	for i := range a.Pairs {
		pa, pb := a.Pairs[i], b.Pairs[i]
		ea, eb = ea+len(pa.Key), eb+len(pb.Key)
		if c := cmpInt(ea, eb); c != 0 {
			return c
		}
		if !pa.Null {
			ea += len(pa.Val)
		}
		if !pb.Null {
			eb += len(pb.Val)
		}
		if c := cmpInt(ea, eb); c != 0 {
			return c
		}
		if pa.Null != pb.Null {
			if pa.Null {
				return 1
			}
			return -1
		}
	}
	return 0
}

// hstoreBuffer is an hstore's string buffer: keys and non-NULL values
// in storage order.
func hstoreBuffer(h *HstoreValue) string {
	var b strings.Builder
	for _, p := range h.Pairs {
		b.WriteString(p.Key)
		if !p.Null {
			b.WriteString(p.Val)
		}
	}
	return b.String()
}

func hashHstore(h uint64, v *HstoreValue) uint64 {
	for _, p := range v.Pairs {
		h = hashString(hashUint64(h, uint64(len(p.Key))), p.Key)
		if p.Null {
			h = hashUint64(h, 1)
		} else {
			h = hashString(hashUint64(h, uint64(len(p.Val))), p.Val)
		}
	}
	return h
}

// HstoreJSON is hstore_to_json's text: an object of the pairs in storage
// order, every value a string or null; 54000 past MaxAllocSize, as
// PostgreSQL fails it (escaping grows a string up to sixfold).
func HstoreJSON(h *HstoreValue) (string, error) {
	w := newJSONOut(nil)
	w.hstore(h)
	b, err := w.result()
	return string(b), err
}

// HstoreJSONB is hstore_to_jsonb: an object whose values are strings or
// null. jsonb orders object keys as hstore does, so the pairs keep their
// order.
func HstoreJSONB(h *HstoreValue) *JSONValue {
	j := &JSONValue{Kind: JSONObject, Keys: make([]string, len(h.Pairs)), Elems: make([]JSONValue, len(h.Pairs))}
	for i, p := range h.Pairs {
		j.Keys[i] = p.Key
		if p.Null {
			j.Elems[i] = JSONValue{Kind: JSONNull}
		} else {
			j.Elems[i] = JSONValue{Kind: JSONString, Str: p.Val}
		}
	}
	return j
}

// castHstore converts to and from hstore: text input and output, and
// hstore's casts to json and jsonb (hstore_to_json, hstore_to_jsonb).
func castHstore(v Value, t Type) (Value, bool, error) {
	switch {
	case v.K == KindHstore && t.ID == Hstore:
		return v, true, nil
	case v.K == KindHstore && t.ID == JSON:
		s, err := HstoreJSON(v.Hstore())
		if err != nil {
			return Null, true, err
		}
		return NewJSON(s), true, nil
	case v.K == KindHstore && t.ID == JSONB:
		return NewJSONB(HstoreJSONB(v.Hstore())), true, nil
	case t.ID == Hstore && (v.K == KindText || v.K == KindCitext || v.K == KindBPChar):
		h, err := ParseHstore(v.S)
		if err != nil {
			return Null, true, err
		}
		return NewHstore(h), true, nil
	}
	return Null, false, nil
}

// hstoreLooseJSON is hstore_to_json_loose's reading of one value: a value
// that is exactly "t" or "f" is a boolean, one that is a JSON number (as
// written, no blanks around it) a number, anything else a string.
func hstoreLooseJSON(p HstorePair) JSONValue {
	switch {
	case p.Null:
		return JSONValue{Kind: JSONNull}
	case p.Val == "t" || p.Val == "f":
		return JSONValue{Kind: JSONBool, Bool: p.Val == "t"}
	case p.Val != "" && !isPGSpace(p.Val[0]) && !isPGSpace(p.Val[len(p.Val)-1]):
		if j, err := ParseJSONB(p.Val); err == nil && j.Kind == JSONNumber {
			return *j
		}
	}
	return JSONValue{Kind: JSONString, Str: p.Val}
}

// HstoreJSONLoose is hstore_to_json_loose's text: like HstoreJSON, but
// values that read as booleans or numbers are those (see hstoreLooseJSON);
// numbers keep their text.
func HstoreJSONLoose(h *HstoreValue) string {
	buf := []byte{'{'}
	for i, p := range h.Pairs {
		if i > 0 {
			buf = append(buf, ", "...)
		}
		buf = appendJSONString(buf, p.Key)
		buf = append(buf, ": "...)
		switch j := hstoreLooseJSON(p); j.Kind {
		case JSONNull:
			buf = append(buf, "null"...)
		case JSONBool:
			if j.Bool {
				buf = append(buf, "true"...)
			} else {
				buf = append(buf, "false"...)
			}
		case JSONNumber:
			buf = append(buf, p.Val...)
		default:
			buf = appendJSONString(buf, p.Val)
		}
	}
	return string(append(buf, '}'))
}

// HstoreJSONBLoose is hstore_to_jsonb_loose.
func HstoreJSONBLoose(h *HstoreValue) *JSONValue {
	j := &JSONValue{Kind: JSONObject, Keys: make([]string, len(h.Pairs)), Elems: make([]JSONValue, len(h.Pairs))}
	for i, p := range h.Pairs {
		j.Keys[i], j.Elems[i] = p.Key, hstoreLooseJSON(p)
	}
	return j
}
