package pgcatalog

import (
	"testing"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// TestKeywordsQuoted checks that quote_ident (sqltypes.QuoteIdent) quotes
// exactly the keywords pg_get_keywords() says are not unreserved, as
// PostgreSQL's quote_identifier does.
func TestKeywordsQuoted(t *testing.T) {
	if len(keywords) < 400 {
		t.Fatalf("keywords_gen.go has %d keywords", len(keywords))
	}
	for _, k := range keywords {
		quoted := sqltypes.QuoteIdent(k.word) != k.word
		if want := k.catcode != 'U'; quoted != want {
			t.Errorf("QuoteIdent(%q) quoted %v, want %v (catcode %c)", k.word, quoted, want, k.catcode)
		}
	}
}
