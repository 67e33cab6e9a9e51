package pgerr

import (
	"testing"
	"unicode/utf8"
)

// InvalidUTF8 finds the first byte that starts no valid character or is
// NUL, the same for a string and a []byte, and a []byte's costs no
// allocation.
func TestInvalidUTF8(t *testing.T) {
	for _, c := range []struct {
		s    string
		want int
	}{
		{"", -1},
		{"plain", -1},
		{"é€😀", -1},
		{"a\x00b", 1},
		{"ab\xff", 2},
		{"é\xe2\x28\xa1", 2},
		{"x\xf0\x9f\x98", 1}, // cut short
		{"\xed\xa0\x80", 0},  // a surrogate
	} {
		if got := InvalidUTF8(c.s); got != c.want {
			t.Errorf("InvalidUTF8(%q) = %d, want %d", c.s, got, c.want)
		}
		if got := InvalidUTF8([]byte(c.s)); got != c.want {
			t.Errorf("InvalidUTF8([]byte(%q)) = %d, want %d", c.s, got, c.want)
		}
		if ok := c.want < 0; ok != (utf8.ValidString(c.s) && !containsNUL(c.s)) {
			t.Errorf("%q: the table disagrees with utf8.ValidString", c.s)
		}
	}
	b := []byte("é€😀 text of some length €€€€€€")
	if n := testing.AllocsPerRun(100, func() { InvalidUTF8(b) }); n != 0 {
		t.Errorf("InvalidUTF8 of a []byte allocates %v times", n)
	}
}

func containsNUL(s string) bool {
	for i := range len(s) {
		if s[i] == 0 {
			return true
		}
	}
	return false
}
