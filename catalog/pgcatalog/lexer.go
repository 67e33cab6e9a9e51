package pgcatalog

import (
	"errors"

	"github.com/zproxy/zproxy/internal/sqltok"
)

// The SQL lexer regtype's input reads a type name with, as PostgreSQL's
// parseTypeString reads it through the SQL scanner. The lexer is the
// parser's, which the catalog, below the parser in the dependency rule,
// does not import: the planner registers it (SetLexer in its init), as it
// registers the index expressions' binder with ir.

// lexer splits text into tokens by PostgreSQL's lexical rules; nil until
// SetLexer.
var lexer func(s string) ([]sqltok.Token, error)

// SetLexer registers the SQL lexer (the planner's init, with parser.Lex).
func SetLexer(l func(s string) ([]sqltok.Token, error)) { lexer = l }

var errNoLexer = errors.New("pgcatalog: no SQL lexer registered (the planner registers it)")

func lex(s string) ([]sqltok.Token, error) {
	if lexer == nil {
		return nil, errNoLexer
	}
	return lexer(s)
}
