package pgcatalog

import "errors"

// The SQL lexer regtype's input reads a type name with, as PostgreSQL's
// parseTypeString reads it through the SQL scanner. The lexer is the
// parser's, which the catalog, below the parser in the dependency rule,
// does not import: the planner registers it (SetLexer in its init), as it
// registers the index expressions' binder with ir.

// TokenKind classifies a Token.
type TokenKind uint8

// The kinds of the lexer's tokens (parser.TokenKind's, one for one).
const (
	TokenIdent       TokenKind = iota + 1 // an unquoted word, folded to lower case
	TokenQuotedIdent                      // a "quoted identifier", its exact name
	TokenString                           // a string constant of any spelling, decoded
	TokenNumber                           // a numeric constant, as written
	TokenParam                            // $n
	TokenOperator                         // an operator, by PostgreSQL's operator rules
	TokenPunct                            // ( ) [ ] , ; . : and ::
)

// Token is one lexical token of a type name: its kind, its value and the
// byte offsets [Start, End) of its spelling.
type Token struct {
	Kind       TokenKind
	Value      string
	Start, End int
}

// lexer splits text into tokens by PostgreSQL's lexical rules; nil until
// SetLexer.
var lexer func(s string) ([]Token, error)

// SetLexer registers the SQL lexer (the planner's init, from the parser's).
func SetLexer(l func(s string) ([]Token, error)) { lexer = l }

var errNoLexer = errors.New("pgcatalog: no SQL lexer registered (the planner registers it)")

func lex(s string) ([]Token, error) {
	if lexer == nil {
		return nil, errNoLexer
	}
	return lexer(s)
}
