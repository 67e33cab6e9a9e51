package sqltypes

import (
	"strings"
	"unicode"
)

// citext is the citext extension's case-insensitive text: a value keeps
// the string as written (its text and binary forms are text's), and every
// comparison — =, <, grouping, DISTINCT, uniqueness, key order — is of the
// strings' lower case, as citext's citextcmp compares
// str_tolower(a) with str_tolower(b).

// NewCitext returns a citext value of s, kept as written.
func NewCitext(s string) Value { return Value{K: KindCitext, S: s} }

// CitextFold is the form a citext value compares, hashes and keys by: its
// lower case, character by character (Unicode simple case mapping, what
// PostgreSQL's str_tolower does under a UTF-8 locale such as C.UTF-8).
func CitextFold(s string) string {
	// Most keys are ASCII and already lower case: no copy then.
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 || c >= 'A' && c <= 'Z' {
			return strings.Map(unicode.ToLower, s)
		}
	}
	return s
}

// compareForm is the string a text-like value compares by under Compare:
// a citext's fold, a char(n) without its trailing blanks, others' S.
func compareForm(v Value) string {
	switch v.K {
	case KindCitext:
		return CitextFold(v.S)
	case KindBPChar:
		return strings.TrimRight(v.S, " ")
	}
	return v.S
}
