package sqltypes

import (
	"fmt"
	"strings"
	"sync/atomic"
)

// A jsonb read back from the store is its normal text (JSONBText of its
// tree: keys sorted in jsonb order, no duplicates, numbers as numeric
// prints them). Parsing that text into a tree at every row decode cost a
// fifth of a query that returns attrs ->> 'color' from a hundred rows, so
// a stored jsonb keeps its text and builds its tree the first time an
// operator asks for it (Value.JSONB); -> and ->> of a top-level key read
// the text directly (storedField).

// storedJSONB is the X of a jsonb Value made by NewStoredJSONB.
type storedJSONB struct {
	text string
	// tree is the parse of text, set once by the first Value.JSONB (a
	// Value may be read by several goroutines: a race only parses twice).
	tree atomic.Pointer[JSONValue]
}

// NewStoredJSONB returns a jsonb value of s, the normal text of a jsonb
// (JSONBText) as ValueAttr stored it, without parsing it: s must be such
// a text (its tree is parsed when first needed, and text that does not
// parse panics then). s must not alias memory that is reused.
func NewStoredJSONB(s string) Value {
	return Value{K: KindJSONB, X: &storedJSONB{text: s}}
}

// parsed returns the tree of a stored jsonb, parsing it the first time.
func (sj *storedJSONB) parsed() *JSONValue {
	if j := sj.tree.Load(); j != nil {
		return j
	}
	j, err := ParseJSONB(sj.text)
	if err != nil {
		// NewStoredJSONB's contract: the text came from JSONBText.
		panic(fmt.Sprintf("sqltypes: stored jsonb does not parse (%v): %.100q", err, sj.text))
	}
	sj.tree.Store(j)
	return j
}

// storedText returns the text of a jsonb value made by NewStoredJSONB
// whose tree has not been built yet.
func storedText(v Value) (string, bool) {
	sj, ok := v.X.(*storedJSONB)
	if !ok || sj.tree.Load() != nil {
		return "", false
	}
	return sj.text, true
}

// storedGetField is JSONGetField on a stored jsonb's text: ok is false
// when storedField cannot answer (the caller uses the tree).
func storedGetField(s, key string, asText bool) (v Value, ok bool) {
	sub, found, ok := storedField(s, key)
	if !ok {
		return Null, false
	}
	if !found {
		return Null, true
	}
	if !asText {
		// The member's text is a normal text too.
		return NewStoredJSONB(sub), true
	}
	if len(sub) >= 2 && sub[0] == '"' && strings.IndexByte(sub, '\\') < 0 {
		// A string without escapes is its own text (normal text escapes
		// every control character).
		return NewText(sub[1 : len(sub)-1]), true
	}
	j, err := ParseJSONB(sub)
	if err != nil {
		return Null, false
	}
	return jsonResult(Value{K: KindJSONB}, j, true), true
}

// storedField finds key among the top-level members of s, a jsonb's
// normal text, without building a tree: found says whether the key is
// there and sub is its value's text. ok is false when s is not an object
// or not as storedField expects normal text to be (keys strictly in jsonb
// order, the separators JSONBText writes): the caller parses s instead.
// Every member is scanned, so that keys out of order anywhere fall back
// rather than miss a key the tree would find.
func storedField(s, key string) (sub string, found, ok bool) {
	if len(s) < 2 || s[0] != '{' {
		return "", false, false
	}
	if s == "{}" {
		return "", false, true
	}
	i := 1
	prev, first := "", true
	for {
		if i >= len(s) || s[i] != '"' {
			return "", false, false
		}
		end, escaped := skipJSONString(s, i)
		if end < 0 {
			return "", false, false
		}
		k := s[i+1 : end-1]
		if escaped {
			p := jsonParser{s: s, i: i}
			uk, err := p.str()
			if err != nil {
				return "", false, false
			}
			k = uk
		}
		if !first && jsonKeyCompare(prev, k) >= 0 {
			return "", false, false
		}
		prev, first = k, false
		i = end
		if !strings.HasPrefix(s[i:], ": ") {
			return "", false, false
		}
		i += 2
		vend := skipJSONValue(s, i)
		if vend < 0 {
			return "", false, false
		}
		if k == key {
			sub, found = s[i:vend], true
		}
		i = vend
		switch {
		case strings.HasPrefix(s[i:], ", "):
			i += 2
		case i == len(s)-1 && s[i] == '}':
			return sub, found, true
		default:
			return "", false, false
		}
	}
}

// skipJSONString returns the index just past the string literal that
// starts at s[i] (a '"') and whether it has escapes; -1 if it does not
// end.
func skipJSONString(s string, i int) (end int, escaped bool) {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			escaped = true
			j++
		case '"':
			return j + 1, escaped
		}
	}
	return -1, escaped
}

// skipJSONValue returns the index just past the value that starts at s[i]
// in a valid JSON text, or -1 if the text ends first or nothing is there.
func skipJSONValue(s string, i int) int {
	if i >= len(s) {
		return -1
	}
	switch s[i] {
	case '"':
		end, _ := skipJSONString(s, i)
		return end
	case '{', '[':
		depth := 0
		for j := i; j < len(s); j++ {
			switch s[j] {
			case '"':
				end, _ := skipJSONString(s, j)
				if end < 0 {
					return -1
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(s) && !jsonDelimiter[s[j]] {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

// jsonDelimiter marks the bytes that end a number or a literal.
var jsonDelimiter = [256]bool{',': true, ':': true, '{': true, '}': true, '[': true, ']': true, '"': true, ' ': true, '\t': true, '\n': true, '\r': true}

// storedContains is JSONBContains(a, y) for a stored jsonb's text s and an
// object y whose values are scalars or objects of the same (the common
// {"k": "v"} filter, {"dims": {"w": 27}}, and a gin index's recheck of
// them): each of y's keys is looked up in s's top level, an object value's
// keys in the member's text. ok is false when it cannot answer (an array
// in y, y empty, s not normal object text): the caller uses the trees.
func storedContains(s string, y *JSONValue) (contains, ok bool) {
	if y.Kind != JSONObject || len(y.Keys) == 0 {
		return false, false
	}
	for i := range y.Elems {
		if y.Elems[i].Kind == JSONArray {
			return false, false
		}
	}
	for i, k := range y.Keys {
		sub, found, ok := storedField(s, k)
		if !ok {
			return false, false
		}
		if !found {
			return false, true
		}
		yv := &y.Elems[i]
		if yv.Kind == JSONObject {
			// jsonContains: an object member contains yv if it is an
			// object holding yv's members.
			if sub[0] != '{' {
				return false, true
			}
			if len(yv.Keys) == 0 {
				continue
			}
			c, ok := storedContains(sub, yv)
			if !ok || !c {
				return c, ok
			}
			continue
		}
		if sub[0] == '{' || sub[0] == '[' {
			return false, true // a container never equals a scalar
		}
		if sub[0] == '"' && strings.IndexByte(sub, '\\') < 0 {
			if yv.Kind != JSONString || yv.Str != sub[1:len(sub)-1] {
				return false, true
			}
			continue
		}
		xv, err := ParseJSONB(sub)
		if err != nil {
			return false, false
		}
		if xv.Kind != yv.Kind || compareJSONValue(xv, yv) != 0 {
			return false, true
		}
	}
	return true, true
}
