package parser

import (
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// unsupportedCommands are PostgreSQL commands zproxy does not implement
// (of pgCommands, PostgreSQL 15's own list). A statement that begins with
// one is 0A000 "<command> is not supported" before it is parsed further,
// rather than the syntax error the TiDB grammar would give a statement it
// has never heard of (TestEveryPostgresCommandIsKnown keeps the list
// whole).
var unsupportedCommands = []string{
	"ALTER COLLATION", "ALTER CONVERSION", "ALTER EVENT TRIGGER", "ALTER EXTENSION",
	"ALTER FOREIGN DATA WRAPPER", "ALTER FOREIGN TABLE", "ALTER LANGUAGE",
	"ALTER OPERATOR CLASS", "ALTER OPERATOR FAMILY", "ALTER POLICY", "ALTER PUBLICATION",
	"ALTER RULE", "ALTER SERVER", "ALTER STATISTICS", "ALTER SUBSCRIPTION",
	"ALTER TEXT SEARCH CONFIGURATION", "ALTER TEXT SEARCH DICTIONARY", "ALTER TEXT SEARCH PARSER",
	"ALTER TEXT SEARCH TEMPLATE", "ALTER USER MAPPING",
	"CHECKPOINT", "CLUSTER",
	"CREATE ACCESS METHOD", "CREATE COLLATION", "CREATE CONVERSION", "CREATE EVENT TRIGGER",
	"CREATE FOREIGN DATA WRAPPER", "CREATE FOREIGN TABLE", "CREATE LANGUAGE",
	"CREATE OPERATOR CLASS", "CREATE OPERATOR FAMILY", "CREATE POLICY", "CREATE PUBLICATION",
	"CREATE RULE", "CREATE SERVER", "CREATE STATISTICS", "CREATE SUBSCRIPTION",
	"CREATE TEXT SEARCH CONFIGURATION", "CREATE TEXT SEARCH DICTIONARY", "CREATE TEXT SEARCH PARSER",
	"CREATE TEXT SEARCH TEMPLATE", "CREATE TRANSFORM", "CREATE USER MAPPING",
	"DROP ACCESS METHOD", "DROP COLLATION", "DROP CONVERSION", "DROP EVENT TRIGGER",
	"DROP FOREIGN DATA WRAPPER", "DROP FOREIGN TABLE", "DROP LANGUAGE",
	"DROP OPERATOR CLASS", "DROP OPERATOR FAMILY", "DROP OWNED", "DROP POLICY", "DROP PUBLICATION",
	"DROP RULE", "DROP SERVER", "DROP STATISTICS", "DROP SUBSCRIPTION",
	"DROP TEXT SEARCH CONFIGURATION", "DROP TEXT SEARCH DICTIONARY", "DROP TEXT SEARCH PARSER",
	"DROP TEXT SEARCH TEMPLATE", "DROP TRANSFORM", "DROP USER MAPPING",
	"IMPORT FOREIGN SCHEMA", "REASSIGN OWNED", "SECURITY LABEL",
}

// unsupportedByFirst holds unsupportedCommands by first word, each as
// its lower-case words, so that a statement's check (every parse) is a map
// lookup of its first word.
var unsupportedByFirst = func() map[string][]unsupported {
	m := map[string][]unsupported{}
	for _, c := range unsupportedCommands {
		w := strings.Fields(strings.ToLower(c))
		m[w[0]] = append(m[w[0]], unsupported{name: c, words: w})
	}
	return m
}()

// unsupported is one of unsupportedCommands.
type unsupported struct {
	name  string
	words []string
}

// unsupportedCommand returns the unsupported command the statement whose
// lower-case words are words begins with, the longest that matches.
func unsupportedCommand(words []string) (string, bool) {
	if len(words) == 0 {
		return "", false
	}
	best := unsupported{}
	for _, c := range unsupportedByFirst[words[0]] {
		if len(c.words) > len(words) || len(c.words) <= len(best.words) {
			continue
		}
		match := true
		for i, w := range c.words {
			match = match && words[i] == w
		}
		if match {
			best = c
		}
	}
	return best.name, best.name != ""
}

// refuseUnsupported is the 0A000 of a statement (its tokens) that begins
// with an unsupported command, or nil.
func refuseUnsupported(toks []token) error {
	if toks[0].kind != tkIdent || unsupportedByFirst[toks[0].val] == nil {
		return nil
	}
	var buf [4]string
	words := buf[:0]
	for _, t := range toks {
		if t.kind != tkIdent || len(words) == len(buf) {
			break
		}
		words = append(words, t.val)
	}
	if c, ok := unsupportedCommand(words); ok {
		return pgerr.New(pgerr.FeatureNotSupported, "%s is not supported", c).WithPosition(toks[0].start + 1)
	}
	return nil
}
