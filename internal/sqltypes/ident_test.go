package sqltypes

import "testing"

func TestQuoteIdent(t *testing.T) {
	for in, want := range map[string]string{"abc": "abc", "Abc": `"Abc"`, "a b": `"a b"`, "select": `"select"`, "1a": `"1a"`, `a"b`: `"a""b"`, "user": `"user"`, "a$": `"a$"`, "_x1": "_x1"} {
		if got := QuoteIdent(in); got != want {
			t.Errorf("quote_ident(%q) = %q, want %q", in, got, want)
		}
	}
}
