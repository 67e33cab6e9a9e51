// Package sqltok holds the SQL lexer's tokens: the parser makes them
// (parser.Lex), and packages below the parser in the dependency rule read
// them without importing it (catalog/pgcatalog reads regtype's type names,
// as PostgreSQL's parseTypeString reads them through the SQL scanner).
package sqltok

// Kind classifies a Token.
type Kind uint8

// The kinds of the lexer's tokens.
const (
	Ident       Kind = iota + 1 // an unquoted word, folded to lower case
	QuotedIdent                 // a "quoted identifier", its exact name
	String                      // a string constant of any spelling, decoded
	Number                      // a numeric constant, as written
	Param                       // $n
	Operator                    // an operator, by PostgreSQL's operator rules
	Punct                       // ( ) [ ] , ; . : and ::
)

// Token is one lexical token of a text: its kind, its value (see Kind) and
// the byte offsets [Start, End) of its spelling.
type Token struct {
	Kind       Kind
	Value      string
	Start, End int
}
