package e2e

import (
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestQcharEveryByte sends each of the 256 bytes as a "char" parameter
// (pgx encodes a rune or byte for OID 18 in binary: charrecv's one byte)
// and reads it back in binary (charsend's byte) and as text (charout: a
// high byte as a backslash and three octal digits, 0 as nothing).
func TestQcharEveryByte(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeDescribeExec} {
		conn := tg.Connect(t, mode)
		for i := 0; i < 256; i++ {
			b := byte(i)
			var want string
			switch {
			case b == 0:
			case b >= 0x80:
				want = fmt.Sprintf(`\%03o`, b)
			default:
				want = string(rune(b))
			}
			var gotRune rune
			var gotByte byte
			var text string
			err := conn.QueryRow(testCtx(t), `SELECT $1::"char", $2::"char", $1::"char"::text`, rune(b), b).Scan(&gotRune, &gotByte, &text)
			if err != nil {
				t.Fatalf("%v: byte %#x: %v", mode, b, err)
			}
			if gotRune != rune(b) || gotByte != b || text != want {
				t.Errorf("%v: byte %#x: %#x, %#x, %q; want %q as text", mode, b, gotRune, gotByte, text, want)
			}
		}
	}
}
