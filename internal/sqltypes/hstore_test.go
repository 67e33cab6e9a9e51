package sqltypes

import (
	"bytes"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// hstore_in followed by hstore_out, as PostgreSQL 15 with hstore 1.8
// answers (select $$in$$::hstore).
var hstoreIO = []struct{ in, out string }{
	{``, ``},
	{`a=>1`, `"a"=>"1"`},
	{`a=>1, b => NULL`, `"a"=>"1", "b"=>NULL`},
	{`bb=>1, a=>2, c=>"x\\y\"z", ""=>""`, `""=>"", "a"=>"2", "c"=>"x\\y\"z", "bb"=>"1"`},
	{`a=>null, b=>NULLx, c=>"NULL"`, `"a"=>NULL, "b"=>"NULLx", "c"=>"NULL"`},
	{`a=>1,a=>2`, `"a"=>"1"`},
	{`b=>1,a=>2,b=>3,a=>4`, `"a"=>"2", "b"=>"1"`},
	{`a=>b=c`, `"a"=>"b=c"`},
	{`a\=b=>\,`, `"a=b"=>","`},
	{`a=>1,,b=>2`, `"a"=>"1", ",b"=>"2"`},
	{`a=>1 , `, `"a"=>"1"`},
	{`a=>b,`, `"a"=>"b"`},
	{`ä=>ö`, `"ä"=>"ö"`},
	{`a\"b=>c`, `"a\"b"=>"c"`},
	{`"a\\b"=>"c\"d"`, `"a\\b"=>"c\"d"`},
	{"\ta\n=>\tb\n", `"a"=>"b"`},
	{`x=>y\ z`, `"x"=>"y z"`},
	{`"k"=>"v" , "k2"=>v2`, `"k"=>"v", "k2"=>"v2"`},
	{`NULL=>NULL`, `"NULL"=>NULL`},
	{`"NULL"=>"null"`, `"NULL"=>"null"`},
	{`a=>NuLl`, `"a"=>NULL`},
	{`"a"   =>   "b"`, `"a"=>"b"`},
}

// Inputs hstore_in refuses, with PostgreSQL 15's messages (SQLSTATE
// XX000: hstore 1.8 raises them with elog).
var hstoreBad = []struct{ in, msg string }{
	{`a b=>c`, `Syntax error near "b" at position 2`},
	{`"a b" => c d`, `Syntax error near "d" at position 11`},
	{`a=>1 b=>2`, `Syntax error near "b" at position 5`},
	{`=>1`, `Syntax error near "=" at position 0`},
	{`a=>"b"c`, `Syntax error near "c" at position 6`},
	{`a="b"`, `Syntax error near """ at position 2`},
	{`a=>"x`, `Unexpected end of string`},
	{` , `, `Unexpected end of string`},
	{`,`, `Unexpected end of string`},
	{`"a`, `Unexpected end of string`},
	{`a=>b\`, `Unexpected end of string`},
	{`a=>`, `Unexpected end of string`},
	{`a`, `Unexpected end of string`},
}

func TestHstoreTextIO(t *testing.T) {
	for _, c := range hstoreIO {
		h, err := ParseHstore(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if got := string(AppendHstore(nil, h)); got != c.out {
			t.Errorf("%q: got %q, want %q", c.in, got, c.out)
		}
		// The output reads back as the same hstore.
		back, err := ParseHstore(c.out)
		if err != nil || CompareHstore(back, h) != 0 || string(AppendHstore(nil, back)) != c.out {
			t.Errorf("%q: output %q does not read back (%v)", c.in, c.out, err)
		}
	}
	for _, c := range hstoreBad {
		_, err := ParseHstore(c.in)
		if err == nil || pgerr.CodeOf(err) != pgerr.InternalError || err.Error() != c.msg {
			t.Errorf("%q: got %v, want XX000 %q", c.in, err, c.msg)
		}
	}
}

func TestHstoreBinary(t *testing.T) {
	h, err := ParseHstore(`a=>1, bb=>NULL, ""=>""`)
	if err != nil {
		t.Fatal(err)
	}
	// hstore_send: count, then length-prefixed keys and values (-1: NULL).
	want := []byte{0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 'a', 0, 0, 0, 1, '1', 0, 0, 0, 2, 'b', 'b', 0xff, 0xff, 0xff, 0xff}
	got := AppendHstoreBinary(nil, h)
	if !bytes.Equal(got, want) {
		t.Fatalf("send: got %v, want %v", got, want)
	}
	back, err := DecodeHstoreBinary(got)
	if err != nil || CompareHstore(back, h) != 0 {
		t.Fatalf("recv: %v, %v", back, err)
	}
	// hstore_recv takes pairs in any order and keeps a key's first.
	unsorted := []byte{0, 0, 0, 2, 0, 0, 0, 1, 'b', 0, 0, 0, 1, 'x', 0, 0, 0, 1, 'b', 0, 0, 0, 1, 'y'}
	if v, err := DecodeHstoreBinary(unsorted); err != nil || string(AppendHstore(nil, v)) != `"b"=>"x"` {
		t.Errorf("recv of a repeated key: %v, %v", v, err)
	}
	bad := []struct {
		src  []byte
		code pgerr.Code
	}{
		{[]byte{0, 0}, pgerr.ProtocolViolation},
		{[]byte{0, 0, 0, 1, 0, 0, 0, 5, 'a'}, pgerr.ProtocolViolation},
		{[]byte{0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0}, pgerr.NullValueNotAllowed},
		{[]byte{0, 0, 0, 1, 0, 0, 0, 1, 0xff, 0, 0, 0, 0}, pgerr.CharacterNotInRepertoire},
		{[]byte{0, 0, 0, 0, 1}, pgerr.InvalidBinaryRepresentation},
	}
	for _, c := range bad {
		if _, err := DecodeHstoreBinary(c.src); pgerr.CodeOf(err) != c.code {
			t.Errorf("%v: got %v, want %s", c.src, err, c.code)
		}
	}
}

func TestHstoreCompareAndHash(t *testing.T) {
	parse := func(s string) Value {
		v, err := ParseText(TypeHstore, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	equal := [][2]string{{`a=>1,b=>2`, `b=>2, a=>"1"`}, {``, ``}, {`a=>NULL`, `a=>null`}}
	for _, c := range equal {
		a, b := parse(c[0]), parse(c[1])
		if Compare(a, b) != 0 || a.Hash(0) != b.Hash(0) || !Identical(a, b) {
			t.Errorf("%q and %q should be equal with one hash", c[0], c[1])
		}
	}
	differ := [][2]string{{`a=>1`, `a=>2`}, {`a=>NULL`, `a=>"NULL"`}, {`a=>1`, `a=>1,b=>1`}, {``, `a=>1`}, {`a=>""`, `a=>NULL`}}
	for _, c := range differ {
		a, b := parse(c[0]), parse(c[1])
		if Compare(a, b) == 0 || Compare(a, b) != -Compare(b, a) {
			t.Errorf("%q and %q should differ, antisymmetrically", c[0], c[1])
		}
	}
	// hstore_cmp: an empty hstore sorts first.
	if Compare(parse(``), parse(`a=>1`)) >= 0 {
		t.Error("the empty hstore should sort first")
	}
}

func TestHstoreOps(t *testing.T) {
	h, _ := ParseHstore(`a=>1, b=>NULL, cc=>3`)
	keys := &ArrayValue{Elem: TypeText, Dims: []int32{3}, Elems: []Value{NewText("cc"), Null, NewText("x")}}
	hstoreJSON, err := HstoreJSON(h)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		got  string
		want string
	}{
		{"fetch", FormatText(HstoreFetch(h, "a")), "1"},
		{"fetch array", FormatText(HstoreFetchArray(h, keys)), "{3,NULL,NULL}"},
		{"akeys", FormatText(HstoreKeys(h)), "{a,b,cc}"},
		{"avals", FormatText(HstoreVals(h)), "{1,NULL,3}"},
		{"to_array", FormatText(HstoreToArray(h)), "{a,1,b,NULL,cc,3}"},
		{"to_matrix", FormatText(HstoreToMatrix(h)), "{{a,1},{b,NULL},{cc,3}}"},
		{"delete keys", string(AppendHstore(nil, HstoreDeleteKeys(h, keys))), `"a"=>"1", "b"=>NULL`},
		{"slice", string(AppendHstore(nil, HstoreSlice(h, keys))), `"cc"=>"3"`},
		{"json", hstoreJSON, `{"a": "1", "b": null, "cc": "3"}`},
		{"jsonb", JSONBText(HstoreJSONB(h)), `{"a": "1", "b": null, "cc": "3"}`},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, c.got, c.want)
		}
	}
	if HstoreExistsAll(h, keys) || !HstoreExistsAny(h, keys) || !HstoreExists(h, "b") || HstoreDefined(h, "b") {
		t.Error("existence tests")
	}
}

// Any text either reads as an hstore whose output reads back as the same
// hstore (and whose binary form does too), or fails with XX000 (or 22001
// for a key or value past hstore's length limit); never a panic.
func FuzzParseHstore(f *testing.F) {
	for _, c := range hstoreIO {
		f.Add(c.in)
	}
	for _, c := range hstoreBad {
		f.Add(c.in)
	}
	f.Add("\x00a=>b")
	f.Add(`"\`)
	f.Fuzz(func(t *testing.T, s string) {
		h, err := ParseHstore(s)
		if err != nil {
			if pgerr.CodeOf(err) != pgerr.InternalError {
				t.Fatalf("%q: %v", s, err)
			}
			return
		}
		for i := 1; i < len(h.Pairs); i++ {
			if !hstoreKeyLess(h.Pairs[i-1].Key, h.Pairs[i].Key) {
				t.Fatalf("%q: pairs out of order or repeated: %q", s, AppendHstore(nil, h))
			}
		}
		out := string(AppendHstore(nil, h))
		back, err := ParseHstore(out)
		if err != nil || CompareHstore(back, h) != 0 || string(AppendHstore(nil, back)) != out {
			t.Fatalf("%q: output %q reads back as %v, %v", s, out, back, err)
		}
		if bin, err := DecodeHstoreBinary(AppendHstoreBinary(nil, h)); err != nil && pgerr.CodeOf(err) != pgerr.CharacterNotInRepertoire || err == nil && CompareHstore(bin, h) != 0 {
			t.Fatalf("%q: binary round trip: %v, %v", s, bin, err)
		}
	})
}
