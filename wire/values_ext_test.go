package wire

import (
	"maps"
	"testing"

	"github.com/jackc/pgx/v5/pgtype"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The extension types' binary forms, checked against pgx's own codecs:
// citext's is text's (citextsend), hstore's is hstore_send's, which pgx's
// HstoreCodec reads and writes.
func TestExtensionTypesBinary(t *testing.T) {
	m := pgtype.NewMap()
	m.RegisterType(&pgtype.Type{Name: "hstore", OID: sqltypes.HstoreOID, Codec: pgtype.HstoreCodec{}})
	m.RegisterType(&pgtype.Type{Name: "citext", OID: sqltypes.CitextOID, Codec: pgtype.TextCodec{}})

	one := "1"
	empty := ""
	for _, h := range []pgtype.Hstore{{}, {"a": &one, "b": nil, "": &empty, "é\"\\": &one}} {
		src, err := m.Encode(sqltypes.HstoreOID, pgtype.BinaryFormatCode, h, nil)
		if err != nil {
			t.Fatal(err)
		}
		v, err := DecodeBinary(sqltypes.TypeHstore, src)
		if err != nil {
			t.Fatalf("%v: %v", h, err)
		}
		out, err := AppendBinary(nil, sqltypes.TypeHstore, v)
		if err != nil {
			t.Fatal(err)
		}
		var back pgtype.Hstore
		if err := m.Scan(sqltypes.HstoreOID, pgtype.BinaryFormatCode, out, &back); err != nil {
			t.Fatalf("pgx reads %x: %v", out, err)
		}
		if !maps.EqualFunc(h, back, func(a, b *string) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }) {
			t.Errorf("%v came back as %v (%s)", h, back, sqltypes.FormatText(v))
		}
	}

	v, err := DecodeBinary(sqltypes.TypeCitext, []byte("MiXeD"))
	if err != nil || v.K != sqltypes.KindCitext || v.S != "MiXeD" {
		t.Fatalf("citext recv: %v, %v", v, err)
	}
	out, err := AppendBinary(nil, sqltypes.TypeCitext, v)
	if err != nil || string(out) != "MiXeD" {
		t.Errorf("citext send: %q, %v", out, err)
	}
	if _, err := DecodeBinary(sqltypes.TypeCitext, []byte{0xff}); err == nil {
		t.Error("citext recv of invalid UTF-8 succeeded")
	}
}
