package builtins

import (
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

func TestLikeMatch(t *testing.T) {
	cases := []struct {
		s, pat string
		want   bool
	}{
		{"abc", "abc", true},
		{"abc", "a%", true},
		{"abc", "%c", true},
		{"abc", "%b%", true},
		{"abc", "a_c", true},
		{"abc", "a_", false},
		{"", "%", true},
		{"", "_", false},
		{"a%c", `a\%c`, true},
		{"abc", `a\%c`, false},
		{"a_c", `a\_c`, true},
		{"héllo", "h_llo", true},
		{"aaab", "%a%b", true},
		{"mississippi", "%iss%ppi", true},
		{"mississippi", "%iss%ppx", false},
	}
	for _, c := range cases {
		if got, err := LikeMatch([]rune(c.s), []rune(c.pat), '\\'); err != nil || got != c.want {
			t.Errorf("%q LIKE %q = %v, %v, want %v", c.s, c.pat, got, err, c.want)
		}
		if got, err := LikeMatch([]byte(c.s), []byte(c.pat), '\\'); err != nil || got != c.want && c.s != "héllo" {
			t.Errorf("bytes %q LIKE %q = %v, %v, want %v", c.s, c.pat, got, err, c.want)
		}
	}
}

// A pattern ending in its escape is 22025 when matching reaches the
// escape, and no match without an error when the subject ends first.
func TestLikeMatchTrailingEscape(t *testing.T) {
	if _, err := LikeMatch([]byte("ab"), []byte(`a\`), '\\'); pgerr.CodeOf(err) != pgerr.InvalidEscapeSequence {
		t.Errorf("'ab' LIKE 'a\\': %v, want 22025", err)
	}
	if m, err := LikeMatch([]rune("ab"), []rune(`ab\`), '\\'); m || err != nil {
		t.Errorf("'ab' LIKE 'ab\\': %v, %v, want false", m, err)
	}
	// _ is one byte of bytea, one character of text.
	if m, _ := LikeMatch([]byte("é"), []byte("_"), '\\'); m {
		t.Errorf("bytes: é LIKE _ matched")
	}
	if m, _ := LikeMatch([]rune("é"), []rune("_"), '\\'); !m {
		t.Errorf("runes: é LIKE _ did not match")
	}
}
