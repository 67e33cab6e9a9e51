package wire

import (
	"testing"

	"github.com/zproxy/zproxy/internal/pgenc"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// TestConvertBinaryText: binary values of text types are converted, their
// arrays element by element, and converted back from a client's Bind.
func TestConvertBinaryText(t *testing.T) {
	latin1, _ := pgenc.Lookup("LATIN1")
	arr := sqltypes.ArrayOf(sqltypes.TypeText)
	v := sqltypes.NewArray(&sqltypes.ArrayValue{Elem: sqltypes.TypeText, Dims: []int32{3},
		Elems: []sqltypes.Value{sqltypes.NewText("élève"), sqltypes.Null, sqltypes.NewText("b")}})
	for _, c := range []struct {
		t    sqltypes.Type
		v    sqltypes.Value
		want string // the client's bytes after the prefix
	}{
		{sqltypes.TypeText, sqltypes.NewText("élève"), "\xe9l\xe8ve"},
		{sqltypes.TypeInt4, sqltypes.NewInt(233), "\x00\x00\x00\xe9"},
	} {
		buf, err := AppendBinary([]byte("pre"), c.t, c.v)
		if err != nil {
			t.Fatal(err)
		}
		var scratch []byte
		got, err := convertValue(latin1, buf, 3, &c.t, formatBinary, &scratch)
		if err != nil || string(got[3:]) != c.want {
			t.Errorf("%s: %q, %v; want %q", c.t, got[3:], err, c.want)
		}
	}
	buf, err := AppendBinary(nil, arr, v)
	if err != nil {
		t.Fatal(err)
	}
	var scratch []byte
	client, err := convertValue(latin1, append([]byte(nil), buf...), 0, &arr, formatBinary, &scratch)
	if err != nil || len(client) != len(buf)-2 {
		t.Fatalf("array: %q, %v", client, err)
	}
	sp := paramSpec{decode: arr}
	server, err := paramIn(latin1, &sp, formatBinary, client)
	if err != nil || string(server) != string(buf) {
		t.Fatalf("array back: %q, %v; want %q", server, err, buf)
	}
	if _, err := convertValue(latin1, []byte("€"), 0, &sqltypes.TypeText, formatText, &scratch); err == nil {
		t.Error("€ converted to LATIN1")
	}
}
