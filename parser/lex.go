package parser

// TokenKind classifies a token Lex returns.
type TokenKind uint8

// The kinds of Lex's tokens.
const (
	TokenIdent       TokenKind = iota + 1 // an unquoted word, folded to lower case
	TokenQuotedIdent                      // a "quoted identifier", its exact name
	TokenString                           // a string constant of any spelling, decoded
	TokenNumber                           // a numeric constant, as written
	TokenParam                            // $n
	TokenOperator                         // an operator, by PostgreSQL's operator rules
	TokenPunct                            // ( ) [ ] , ; . : and ::
)

// Token is one lexical token of text Lex read: its kind, its value (see
// TokenKind) and the byte offsets [Start, End) of its spelling.
type Token struct {
	Kind       TokenKind
	Value      string
	Start, End int
}

// Lex splits s into tokens by PostgreSQL's lexical rules, as the front
// end's scanner reads statements, for the small grammars other packages
// parse themselves (regtype's input reads a type name through the SQL
// lexer, as PostgreSQL's parseTypeString does). Comments, optimizer hints
// among them, are skipped; a lexical error is the scanner's 42601.
func Lex(s string) ([]Token, error) {
	toks, err := scan(s)
	if err != nil {
		return nil, err
	}
	out := make([]Token, 0, len(toks))
	for _, t := range toks {
		var k TokenKind
		switch t.kind {
		case tkIdent:
			k = TokenIdent
		case tkQIdent:
			k = TokenQuotedIdent
		case tkString:
			k = TokenString
		case tkNumber:
			k = TokenNumber
		case tkParam:
			k = TokenParam
		case tkOp:
			k = TokenOperator
		case tkPunct:
			k = TokenPunct
		default:
			continue // a hint is a comment to PostgreSQL
		}
		out = append(out, Token{Kind: k, Value: t.val, Start: t.start, End: t.end})
	}
	return out, nil
}
