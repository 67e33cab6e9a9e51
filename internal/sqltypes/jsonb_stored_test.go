package sqltypes

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
)

// randomJSONText returns random JSON text: objects (keys with escapes,
// unicode, duplicates, any order), arrays, strings with escapes and
// control characters, numbers in many spellings, booleans, null.
func randomJSONText(r *rand.Rand, depth int) string {
	n := r.IntN(9)
	if depth > 3 {
		n = 2 + r.IntN(5)
	}
	switch n {
	case 0, 1:
		var b strings.Builder
		b.WriteByte('{')
		for i := r.IntN(6); i > 0; i-- {
			b.WriteString(randomJSONString(r))
			b.WriteString(": ")
			b.WriteString(randomJSONText(r, depth+1))
			if i > 1 {
				b.WriteString(", ")
			}
		}
		b.WriteByte('}')
		return b.String()
	case 2:
		var b strings.Builder
		b.WriteByte('[')
		for i := r.IntN(4); i > 0; i-- {
			b.WriteString(randomJSONText(r, depth+1))
			if i > 1 {
				b.WriteByte(',')
			}
		}
		b.WriteByte(']')
		return b.String()
	case 3, 4:
		return randomJSONString(r)
	case 5:
		return []string{"0", "-0", "1.50", "1e3", "-2.5E-3", "12345678901234567890.000", "0.0001", "1E+2"}[r.IntN(8)]
	case 6:
		return randomDecimalText(r)
	case 7:
		return []string{"true", "false"}[r.IntN(2)]
	}
	return "null"
}

// randomJSONString returns a JSON string literal drawn from a small set of
// keys (so objects repeat keys) or with escapes and non-ASCII text.
func randomJSONString(r *rand.Rand) string {
	switch r.IntN(4) {
	case 0, 1:
		return `"` + []string{"a", "b", "aa", "color", "size", "dims", "", "ä", "x1"}[r.IntN(9)] + `"`
	case 2:
		parts := []string{`\"`, `\\`, `\/`, `\n`, `\t`, `\u00e9`, `\ud83d\ude00`, `\u0001`, "é", "日本", "a", " ", "b"}
		var b strings.Builder
		b.WriteByte('"')
		for i := r.IntN(5); i >= 0; i-- {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		b.WriteByte('"')
		return b.String()
	}
	return fmt.Sprintf(`"k%d"`, r.IntN(20))
}

// TestStoredJSONBField: -> and ->> of a key on a stored jsonb (its normal
// text, read without a tree) give exactly what they give on the parsed
// tree, for random documents and keys present and absent; and the stored
// value's tree, once built, is the parsed one.
func TestStoredJSONBField(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 1))
	fast := 0
	for i := 0; i < 20000; i++ {
		src := randomJSONText(r, 0)
		tree, err := ParseJSONB(src)
		if err != nil {
			continue
		}
		text := JSONBText(tree)
		keys := append([]string{"nope", "", "color"}, tree.Keys...)
		if k, err := ParseJSONB(randomJSONString(r)); err == nil {
			keys = append(keys, k.Str)
		}
		for _, key := range keys {
			for _, asText := range []bool{false, true} {
				want, err := JSONGetField(NewJSONB(tree), key, asText)
				if err != nil {
					t.Fatal(err)
				}
				if _, _, ok := storedField(text, key); ok {
					fast++
				} else if tree.Kind == JSONObject {
					t.Fatalf("storedField gave up on normal text %q", text)
				}
				got, err := JSONGetField(NewStoredJSONB(text), key, asText)
				if err != nil {
					t.Fatal(err)
				}
				if got.K != want.K || FormatText(got) != FormatText(want) {
					t.Fatalf("%q %s %q: got %v %q, want %v %q", text, map[bool]string{false: "->", true: "->>"}[asText], key,
						got.K, FormatText(got), want.K, FormatText(want))
				}
				if got.K == KindJSONB && CompareJSONB(got.JSONB(), want.JSONB()) != 0 {
					t.Fatalf("%q -> %q: trees differ", text, key)
				}
			}
		}
		sv := NewStoredJSONB(text)
		if JSONBText(sv.JSONB()) != text || CompareJSONB(sv.JSONB(), tree) != 0 {
			t.Fatalf("stored %q: tree %q", text, JSONBText(sv.JSONB()))
		}
	}
	if fast == 0 {
		t.Fatal("no lookup took the stored text's path")
	}
}

// TestStoredFieldGivesUp: text that is not jsonb's normal form (keys out
// of order or repeated, other spacing, not an object) is left to the tree,
// and the answers are still the tree's.
func TestStoredFieldGivesUp(t *testing.T) {
	for _, s := range []string{
		`{"b": 1, "a": 2}`, `{"a": 1, "a": 2}`, `{"a":1}`, `{"a": 1,"b": 2}`, ` {"a": 1}`,
		`[1, 2]`, `"a"`, `1`, `{"aa": 1, "b": 2}`, `{"a": 1} `,
	} {
		if _, _, ok := storedField(s, "a"); ok {
			t.Errorf("storedField(%q) answered", s)
		}
		tree, err := ParseJSONB(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, asText := range []bool{false, true} {
			want, _ := JSONGetField(NewJSONB(tree), "a", asText)
			got, _ := JSONGetField(NewStoredJSONB(s), "a", asText)
			if got.K != want.K || FormatText(got) != FormatText(want) {
				t.Errorf("%q: got %q, want %q", s, FormatText(got), FormatText(want))
			}
		}
	}
}

// TestStoredJSONBConcurrent: goroutines building one stored value's tree
// at once all see the same document (run with -race).
func TestStoredJSONBConcurrent(t *testing.T) {
	v := NewStoredJSONB(`{"a": [1, 2, {"b": "c"}], "color": "red"}`)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got := FormatText(v); got != `{"a": [1, 2, {"b": "c"}], "color": "red"}` {
				t.Errorf("got %q", got)
			}
			if c, _ := JSONGetField(v, "color", true); c.S != "red" {
				t.Errorf("color %q", c.S)
			}
		}()
	}
	wg.Wait()
}

// TestStoredJSONBContainsExists: @> and ? on a stored jsonb (its text,
// without a tree) answer as on the parsed tree, for random documents and
// random flat and nested objects drawn partly from the documents' own
// members.
func TestStoredJSONBContainsExists(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 2))
	fast, fastTrue := 0, 0
	for i := 0; i < 20000; i++ {
		tree, err := ParseJSONB(randomJSONText(r, 0))
		if err != nil {
			continue
		}
		text := JSONBText(tree)
		var probes []string
		if tree.Kind == JSONObject {
			probes = append(probes, subsetProbe(r, tree))
		}
		probes = append(probes, randomJSONText(r, 2), `{}`, `{"color": "red"}`, `{"a": 1}`)
		for _, p := range probes {
			y, err := ParseJSONB(p)
			if err != nil {
				continue
			}
			if c, ok := storedContains(text, y); ok {
				fast++
				if c {
					fastTrue++
				}
			}
			want := JSONBContains(NewJSONB(tree), NewJSONB(y))
			if got := JSONBContains(NewStoredJSONB(text), NewJSONB(y)); got != want {
				t.Fatalf("%s @> %s: got %v, want %v", text, JSONBText(y), got, want)
			}
		}
		keys := append([]string{"a", "nope", ""}, tree.Keys...)
		if tree.Kind == JSONArray && len(tree.Elems) > 0 && tree.Elems[0].Kind == JSONString {
			keys = append(keys, tree.Elems[0].Str)
		}
		if tree.Kind == JSONString {
			keys = append(keys, tree.Str)
		}
		for _, k := range keys {
			if got, want := JSONBExists(NewStoredJSONB(text), k), JSONBExists(NewJSONB(tree), k); got != want {
				t.Fatalf("%s ? %q: got %v, want %v", text, k, got, want)
			}
		}
	}
	if fastTrue == 0 || fastTrue == fast {
		t.Fatalf("containments answered from the stored text: %d, of which true %d; want both answers", fast, fastTrue)
	}
}

// subsetProbe returns an object of some of obj's members, nested objects
// themselves cut to some of their members, now and then a value replaced
// by a random one: mostly contained in obj, sometimes not.
func subsetProbe(r *rand.Rand, obj *JSONValue) string {
	var b strings.Builder
	b.WriteByte('{')
	for j := range obj.Keys {
		if r.IntN(2) == 0 {
			continue
		}
		if b.Len() > 1 {
			b.WriteString(", ")
		}
		b.WriteString(QuoteJSON(obj.Keys[j]))
		b.WriteString(": ")
		switch e := &obj.Elems[j]; {
		case r.IntN(5) == 0:
			b.WriteString(randomJSONText(r, 3))
		case e.Kind == JSONObject && r.IntN(3) > 0:
			b.WriteString(subsetProbe(r, e))
		default:
			b.WriteString(JSONBText(e))
		}
	}
	b.WriteByte('}')
	return b.String()
}
