package sqltypes

import (
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

func TestQuoteIdent(t *testing.T) {
	for in, want := range map[string]string{"abc": "abc", "Abc": `"Abc"`, "a b": `"a b"`, "select": `"select"`, "1a": `"1a"`, `a"b`: `"a""b"`, "user": `"user"`, "a$": `"a$"`, "_x1": "_x1"} {
		if got := QuoteIdent(in); got != want {
			t.Errorf("quote_ident(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestQuotedBuilders: the checked, one-allocation builders of quote_literal
// and quote_ident give what QuoteLiteral and QuoteIdent give, and refuse
// a result past the field limit with palloc's XX000 before building it.
func TestQuotedBuilders(t *testing.T) {
	for _, s := range []string{"", "abc", "it's", `a\b`, `a\'b`, "A", `say "hi"`, "select", "ünï", `\\''`} {
		if got, err := QuotedLiteral(s, 4); err != nil || got != QuoteLiteral(s) {
			t.Errorf("QuotedLiteral(%q) = %q, %v; want %q", s, got, err, QuoteLiteral(s))
		}
		if got, err := QuotedIdent(s); err != nil || got != QuoteIdent(s) {
			t.Errorf("QuotedIdent(%q) = %q, %v; want %q", s, got, err, QuoteIdent(s))
		}
	}
	if QuoteLiteral(`a\'b`) != `E'a\\''b'` {
		t.Errorf("QuoteLiteral(a\\'b) = %s", QuoteLiteral(`a\'b`))
	}
	big := strings.Repeat("'", MaxAllocSize/2)
	if _, err := QuotedLiteral(big, 4); pgerr.CodeOf(err) != pgerr.InternalError {
		t.Errorf("QuotedLiteral past the limit: %v, want XX000", err)
	}
	quotes := strings.Repeat(`"`, MaxAllocSize/2)
	if _, err := QuotedIdent(quotes); pgerr.CodeOf(err) != pgerr.InternalError {
		t.Errorf("QuotedIdent past the limit: %v, want XX000", err)
	}
}
