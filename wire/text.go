package wire

import (
	"unicode/utf8"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// checkText checks that client strings (a query, a statement or portal name)
// are valid UTF-8 without NUL bytes, the server encoding's rule; zproxy
// would otherwise store bytes no PostgreSQL client can read back.
func checkText(ss ...string) error {
	for _, s := range ss {
		if i := invalidUTF8(s); i >= 0 {
			return pgerr.InvalidByteSequence(s[i:])
		}
	}
	return nil
}

// checkTextBytes is checkText for a parameter value.
func checkTextBytes(b []byte) error {
	if i := invalidUTF8(string(b)); i >= 0 {
		return pgerr.InvalidByteSequence(string(b[i:]))
	}
	return nil
}

// invalidUTF8 returns the offset of the first byte of s that starts no
// valid UTF-8 character or is NUL, or -1.
func invalidUTF8(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c == 0 {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return -1
}
