package planner

import (
	"testing"

	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/parser"
)

// The catalog's token kinds are the parser's, one for one: lexTypeName
// converts them by value.
func TestTypeNameTokenKinds(t *testing.T) {
	for _, k := range []struct {
		p parser.TokenKind
		c pgcatalog.TokenKind
	}{
		{parser.TokenIdent, pgcatalog.TokenIdent},
		{parser.TokenQuotedIdent, pgcatalog.TokenQuotedIdent},
		{parser.TokenString, pgcatalog.TokenString},
		{parser.TokenNumber, pgcatalog.TokenNumber},
		{parser.TokenParam, pgcatalog.TokenParam},
		{parser.TokenOperator, pgcatalog.TokenOperator},
		{parser.TokenPunct, pgcatalog.TokenPunct},
	} {
		if pgcatalog.TokenKind(k.p) != k.c {
			t.Errorf("parser's kind %d is the catalog's %d", k.p, k.c)
		}
	}
	toks, err := lexTypeName(`"my type"[]`)
	if err != nil || len(toks) != 3 || toks[0].Kind != pgcatalog.TokenQuotedIdent || toks[0].Value != "my type" || toks[1].Value != "[" {
		t.Fatalf("lexTypeName: %+v, %v", toks, err)
	}
}
