package wire

import (
	"bytes"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// TestCharBinaryEveryByte: "char"'s binary form is its one byte, any of
// the 256 (charrecv, charsend), while its text is charout's: empty for 0,
// a backslash and three octal digits for a byte with the high bit set.
func TestCharBinaryEveryByte(t *testing.T) {
	for i := 0; i < 256; i++ {
		b := byte(i)
		v, err := DecodeBinary(sqltypes.TypeChar, []byte{b})
		if err != nil {
			t.Errorf("recv %#x: %v", b, err)
			continue
		}
		var want string
		switch {
		case b == 0:
		case b >= 0x80:
			want = string([]byte{'\\', '0' + b>>6, '0' + b>>3&7, '0' + b&7})
		default:
			want = string([]byte{b})
		}
		if got := sqltypes.FormatText(v); got != want {
			t.Errorf("recv %#x: text %q, want %q", b, got, want)
		}
		out, err := AppendBinary(nil, sqltypes.TypeChar, v)
		if err != nil || !bytes.Equal(out, []byte{b}) {
			t.Errorf("send %#x: %x, %v", b, out, err)
		}
	}
	// The value charin reads from the octal text is the byte again.
	v, err := sqltypes.ParseText(sqltypes.TypeChar, `\310`)
	if err != nil {
		t.Fatal(err)
	}
	if out, err := AppendBinary(nil, sqltypes.TypeChar, v); err != nil || !bytes.Equal(out, []byte{0310}) {
		t.Errorf(`send '\310': %x, %v`, out, err)
	}
	// pq_getmsgbyte finds no byte: 08P01; a byte left over: 22P03.
	for _, tc := range []struct {
		in   []byte
		code pgerr.Code
	}{
		{nil, pgerr.ProtocolViolation},
		{[]byte{'a', 'b'}, pgerr.InvalidBinaryRepresentation},
	} {
		if _, err := DecodeBinary(sqltypes.TypeChar, tc.in); pgerr.CodeOf(err) != tc.code {
			t.Errorf("recv %x: %v, want %s", tc.in, err, tc.code)
		}
	}
}
