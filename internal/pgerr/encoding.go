package pgerr

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// InvalidByteSequence is PostgreSQL's report_invalid_encoding for the bad
// UTF-8 character at the start of rest: 22021 naming the bytes its first
// byte announces (as many as there are), 0xe2 0x28 0xa1.
func InvalidByteSequence(rest string) *Error {
	n := min(UTF8SequenceLength(rest[0]), len(rest))
	hex := make([]string, n)
	for i := range n {
		hex[i] = fmt.Sprintf("0x%02x", rest[i])
	}
	return New(CharacterNotInRepertoire, "invalid byte sequence for encoding \"UTF8\": %s", strings.Join(hex, " "))
}

// UTF8SequenceLength is pg_utf_mblen: the length a sequence starting with
// byte b claims.
func UTF8SequenceLength(b byte) int {
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

// InvalidUTF8 returns the offset of the first byte of s that starts no
// valid UTF-8 character or is NUL (which PostgreSQL's text cannot hold),
// or -1: where InvalidByteSequence reports from. A []byte's character is
// decoded through a string of at most utf8.UTFMax bytes, which the
// compiler keeps on the stack.
func InvalidUTF8[T ~string | ~[]byte](s T) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c == 0 {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(string(s[i:min(i+utf8.UTFMax, len(s))]))
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return -1
}
