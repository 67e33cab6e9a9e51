package planner

import (
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/parser"
)

// The catalog reads regtype's type names with the parser's lexer, which it
// cannot import (catalog/pgcatalog/lexer.go).
func init() { pgcatalog.SetLexer(lexTypeName) }

// lexTypeName is parser.Lex in the catalog's tokens.
func lexTypeName(s string) ([]pgcatalog.Token, error) {
	toks, err := parser.Lex(s)
	if err != nil {
		return nil, err
	}
	out := make([]pgcatalog.Token, len(toks))
	for i, t := range toks {
		out[i] = pgcatalog.Token{Kind: pgcatalog.TokenKind(t.Kind), Value: t.Value, Start: t.Start, End: t.End}
	}
	return out, nil
}
