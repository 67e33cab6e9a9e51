package planner

import (
	"strings"
	"testing"
)

// TestChooseName follows PostgreSQL's ChooseConstraintName: the first free
// name of base_suffix, base_suffix1, ..., with base cut so the name fits in
// 63 bytes.
func TestChooseName(t *testing.T) {
	long := strings.Repeat("x", 70)
	cases := []struct {
		base, suffix string
		taken        []string
		want         string
	}{
		{"t_a", "key", nil, "t_a_key"},
		{"t_a", "key", []string{"t_a_key"}, "t_a_key1"},
		{"t_a", "key", []string{"t_a_key", "t_a_key1"}, "t_a_key2"},
		{"t", "check", []string{"t_check"}, "t_check1"},
		{long, "fkey", nil, strings.Repeat("x", 58) + "_fkey"},
		{long, "fkey", []string{strings.Repeat("x", 58) + "_fkey"}, strings.Repeat("x", 57) + "_fkey1"},
	}
	for _, c := range cases {
		taken := map[string]bool{}
		for _, n := range c.taken {
			taken[n] = true
		}
		got := chooseName(c.base, c.suffix, func(n string) bool { return taken[n] })
		if got != c.want {
			t.Errorf("chooseName(%q, %q) with %v = %q, want %q", c.base, c.suffix, c.taken, got, c.want)
		}
		if len(got) > maxIdentifier {
			t.Errorf("chooseName(%q, %q) = %q: %d bytes", c.base, c.suffix, got, len(got))
		}
	}
}
