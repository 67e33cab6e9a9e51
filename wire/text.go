package wire

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// checkText checks that client strings (a query, a statement or portal name)
// are valid UTF-8 without NUL bytes, the server encoding's rule; zproxy
// would otherwise store bytes no PostgreSQL client can read back.
func checkText(ss ...string) error {
	for _, s := range ss {
		if i := invalidUTF8(s); i >= 0 {
			return errInvalidByteSequence(s[i:])
		}
	}
	return nil
}

// checkTextBytes is checkText for a parameter value.
func checkTextBytes(b []byte) error {
	if i := invalidUTF8(string(b)); i >= 0 {
		return errInvalidByteSequence(string(b[i:]))
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

// errInvalidByteSequence is PostgreSQL's report_invalid_encoding for the
// bad character at the start of rest: 22021 naming the bytes the character's
// first byte announces (as many as there are).
func errInvalidByteSequence(rest string) error {
	n := utf8SequenceLength(rest[0])
	n = min(n, len(rest))
	hex := make([]string, n)
	for i := range n {
		hex[i] = fmt.Sprintf("0x%02x", rest[i])
	}
	return pgerr.New(pgerr.CharacterNotInRepertoire, "invalid byte sequence for encoding \"UTF8\": %s", strings.Join(hex, " "))
}

// utf8SequenceLength is pg_utf_mblen: the length a sequence starting with
// byte b claims.
func utf8SequenceLength(b byte) int {
	switch {
	case b&0x80 == 0:
		return 1
	case b&0xe0 == 0xc0:
		return 2
	case b&0xf0 == 0xe0:
		return 3
	case b&0xf8 == 0xf0:
		return 4
	}
	return 1
}
