package planner

import (
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/parser"
)

// The catalog reads regtype's type names with the parser's lexer, which it
// cannot import (catalog/pgcatalog/lexer.go).
func init() { pgcatalog.SetLexer(parser.Lex) }
