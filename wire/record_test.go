package wire

import (
	"bytes"
	"encoding/hex"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// recordTestType is (a text, b int4, c int4[]), as CREATE TYPE makes one.
func recordTestType() sqltypes.Type {
	return sqltypes.CompositeOf(&sqltypes.CompositeType{Name: "rt", OID: 20000, ArrayOID: 20001, Fields: []sqltypes.CompositeField{
		{Name: "a", Type: sqltypes.TypeText}, {Name: "b", Type: sqltypes.TypeInt4}, {Name: "c", Type: sqltypes.ArrayOf(sqltypes.TypeInt4)},
	}})
}

// TestRecordBinary checks record_send's bytes against PostgreSQL 15's
// for SELECT ROW('x'::text, 7, NULL::int4[]) (count, then per field OID,
// length and bytes) and record_recv's reading them back as the
// composite.
func TestRecordBinary(t *testing.T) {
	typ := recordTestType()
	v := sqltypes.NewRecordOf([]sqltypes.Value{sqltypes.NewText("x"), sqltypes.NewInt(7), sqltypes.Null}, typ.Composite.FieldTypes())
	const want = "00000003" + "00000019" + "00000001" + "78" + "00000017" + "00000004" + "00000007" + "000003ef" + "ffffffff"
	got, err := AppendBinary(nil, typ, v)
	if err != nil || hex.EncodeToString(got) != want {
		t.Fatalf("record_send: %x, %v; want %s", got, err, want)
	}
	// The anonymous record type sends the same bytes (the fields' types
	// ride on the value).
	anon, err := AppendBinary(nil, sqltypes.Type{ID: sqltypes.Record}, v)
	if err != nil || !bytes.Equal(anon, got) {
		t.Fatalf("anonymous record_send: %x, %v", anon, err)
	}
	back, err := DecodeBinary(typ, got)
	if err != nil || !sqltypes.Equal(back, v) || sqltypes.FormatText(back) != "(x,7,)" {
		t.Fatalf("record_recv: %v, %v", back, err)
	}
	wrongOID := append([]byte(nil), got...)
	wrongOID[7] = 0x17 // the first field claims int4
	if _, err := DecodeBinary(typ, wrongOID); pgerr.CodeOf(err) != pgerr.DatatypeMismatch {
		t.Fatalf("a field of another type: %v, want 42804", err)
	}
	if _, err := DecodeBinary(sqltypes.Type{ID: sqltypes.Record}, got); pgerr.CodeOf(err) != pgerr.FeatureNotSupported {
		t.Fatalf("anonymous record_recv: %v, want 0A000", err)
	}
}

// FuzzDecodeRecord feeds arbitrary bytes to record_recv: no panic, only
// binary-format errors, and what decodes sends back the same bytes.
func FuzzDecodeRecord(f *testing.F) {
	typ := recordTestType()
	for _, s := range []string{
		"00000003" + "00000019" + "00000001" + "78" + "00000017" + "00000004" + "00000007" + "000003ef" + "ffffffff",
		"00000003" + "00000019" + "ffffffff" + "00000017" + "ffffffff" + "000003ef" + "0000001c" + "000000010000000000000017000000020000000100000004000000010000000400000002",
		"00000002", "0000000300000019",
	} {
		b, _ := hex.DecodeString(s)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := DecodeBinary(typ, data)
		if err != nil {
			switch pgerr.CodeOf(err) {
			case pgerr.InvalidBinaryRepresentation, pgerr.DatatypeMismatch, pgerr.CharacterNotInRepertoire, pgerr.ProtocolViolation,
				pgerr.ProgramLimitExceeded, pgerr.InvalidParameterValue, pgerr.ArraySubscriptError:
				return
			}
			t.Fatalf("%x: %v", data, err)
		}
		out, err := AppendBinary(nil, typ, v)
		if err != nil {
			t.Fatalf("%x: decoded %v, sending back: %v", data, v, err)
		}
		again, err := DecodeBinary(typ, out)
		if err != nil || !sqltypes.Equal(again, v) {
			t.Fatalf("%x -> %x -> %v, %v", data, out, again, err)
		}
	})
}
