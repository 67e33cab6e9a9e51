package builtins

import (
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

func TestRegexMatches(t *testing.T) {
	for _, tc := range []struct {
		pattern, flags, s string
		want              bool
	}{
		{"^a", "", "abc", true},
		{"B", "", "abc", false},
		{"B", "i", "abc", true},
		{"(?i)B", "", "abc", true},
		{"a.c", "", "a\nc", true}, // '.' matches a newline, as in PostgreSQL
		{"a.c", "n", "a\nc", false},
		{`\mbar`, "", "foo bar", true},
		{`\mar`, "", "foo bar", false},
		{`o\M`, "", "foo bar", true},
		{`\ybar\y`, "", "foo bar", true},
		{`[[:<:]]bar`, "", "foo bar", true},
		{`[[:alpha:]]+$`, "", "abc", true},
		{`[]a]`, "", "]", true},
		{`[^]a]`, "", "]", false},
		{`x\Z`, "", "ax", true},
		{"***=a.c", "", "a.c", true},
		{"***=a.c", "", "abc", false},
		{"a.c", "q", "abc", false},
	} {
		re, err := CompileRegex(tc.pattern, tc.flags)
		if err != nil {
			t.Errorf("%q (%s): %v", tc.pattern, tc.flags, err)
			continue
		}
		if got := re.MatchString(tc.s); got != tc.want {
			t.Errorf("%q ~ %q (%s) = %v, want %v", tc.s, tc.pattern, tc.flags, got, tc.want)
		}
	}
}

func TestRegexRefused(t *testing.T) {
	for _, p := range []string{`(a)\1`, `a(?=b)`, `a(?!b)`, `(?<=a)b`, `(`, `[a`, `a{2,1}`} {
		_, err := CompileRegex(p, "")
		if pgerr.Classify(err).Code != pgerr.InvalidRegularExpression {
			t.Errorf("%q: %v, want 2201B", p, err)
		}
	}
	if _, err := CompileRegex("a", "z"); pgerr.Classify(err).Code != pgerr.InvalidParameterValue {
		t.Errorf("flag z: %v, want 22023", err)
	}
}

func TestSimilarTo(t *testing.T) {
	for _, tc := range []struct {
		pat, esc, s string
		want        bool
	}{
		{"a%", `\`, "abc", true},
		{"a_", `\`, "abc", false},
		{"(a|b)%c", `\`, "bxc", true},
		{"a#_c", "#", "a_c", true},
		{"a#_c", "#", "abc", false},
		{"a.c", `\`, "abc", false}, // '.' is literal in SIMILAR TO
		{"[ab]+", `\`, "abba", true},
		{"a", "", "a", true},
	} {
		rx, err := SimilarToRegex(tc.pat, tc.esc)
		if err != nil {
			t.Fatalf("%q: %v", tc.pat, err)
		}
		re, err := CompileRegex(rx, "")
		if err != nil {
			t.Fatalf("%q → %q: %v", tc.pat, rx, err)
		}
		if got := re.MatchString(tc.s); got != tc.want {
			t.Errorf("%q SIMILAR TO %q = %v, want %v (regex %q)", tc.s, tc.pat, got, tc.want, rx)
		}
	}
	if _, err := SimilarToRegex("a", "ab"); err == nil {
		t.Error("a two-character escape was accepted")
	}
}

func TestRegexSplitAndReplacement(t *testing.T) {
	parts, err := RegexSplit("a1b22c", `\d+`, "")
	if err != nil || len(parts) != 3 || parts[0] != "a" || parts[2] != "c" {
		t.Errorf("split = %q, %v", parts, err)
	}
	parts, _ = RegexSplit("abc", "", "")
	if len(parts) != 3 {
		t.Errorf("split by '' = %q, want each character", parts)
	}
	if got := pgReplacement(`<\1>\&$\\`); got != `<${1}>${0}$$\` {
		t.Errorf("pgReplacement = %q", got)
	}
}
