package parser

import "github.com/zproxy/zproxy/internal/sqltok"

// Lex splits s into tokens by PostgreSQL's lexical rules, as the front
// end's scanner reads statements, for the small grammars other packages
// parse themselves (regtype's input reads a type name through the SQL
// lexer, as PostgreSQL's parseTypeString does). Comments, optimizer hints
// among them, are skipped; a lexical error is the scanner's 42601.
func Lex(s string) ([]sqltok.Token, error) {
	toks, err := scan(s)
	if err != nil {
		return nil, err
	}
	out := make([]sqltok.Token, 0, len(toks))
	for _, t := range toks {
		var k sqltok.Kind
		switch t.kind {
		case tkIdent:
			k = sqltok.Ident
		case tkQIdent:
			k = sqltok.QuotedIdent
		case tkString:
			k = sqltok.String
		case tkNumber:
			k = sqltok.Number
		case tkParam:
			k = sqltok.Param
		case tkOp:
			k = sqltok.Operator
		case tkPunct:
			k = sqltok.Punct
		default:
			continue // a hint is a comment to PostgreSQL
		}
		out = append(out, sqltok.Token{Kind: k, Value: t.val, Start: t.start, End: t.end})
	}
	return out, nil
}
