package parser

import (
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// TestEveryPostgresCommandIsKnown: each of PostgreSQL 15's commands
// (pgcommands_gen.go, from psql's \h) is one the front end reads, or one
// it refuses by name with 0A000: never a syntax error at the command's
// own words, which would tell a client its valid SQL is malformed.
func TestEveryPostgresCommandIsKnown(t *testing.T) {
	// Commands whose bare probe fails at their name though the front end
	// reads them: each is checked with a statement of its own instead.
	examples := map[string]string{
		"ALTER VIEW":      "ALTER VIEW v RENAME TO w",
		"COMMENT":         "COMMENT ON TABLE t IS 'x'",
		"CREATE TABLE AS": "CREATE TABLE t AS SELECT 1",
		"MERGE":           "MERGE INTO t USING s ON t.k = s.k WHEN MATCHED THEN DELETE",
	}
	for _, c := range pgCommands {
		if ex, ok := examples[c]; ok {
			if _, err := Parse(ex); err != nil {
				t.Errorf("%s: %v", ex, err)
			}
			continue
		}
		sql := c + " zz_probe"
		_, err := Parse(sql)
		pe := pgerr.As(err)
		if pe == nil {
			continue
		}
		if _, refused := unsupportedCommand(strings.Fields(strings.ToLower(sql))); refused {
			if pe.Code != pgerr.FeatureNotSupported || pe.Message != c+" is not supported" {
				t.Errorf("%s: %s %q, want 0A000 %q", sql, pe.Code, pe.Message, c+" is not supported")
			}
			continue
		}
		if pe.Code == pgerr.SyntaxError && pe.Position > 0 && pe.Position <= len(c) {
			t.Errorf("%s: a syntax error at position %d, inside the command's name: implement %s or list it in unsupportedCommands", sql, pe.Position, c)
		}
	}
}

// TestUnsupportedCommandsArePostgres: every command refused by name is
// one of PostgreSQL's.
func TestUnsupportedCommandsArePostgres(t *testing.T) {
	known := map[string]bool{}
	for _, c := range pgCommands {
		known[c] = true
	}
	for _, c := range unsupportedCommands {
		if !known[c] {
			t.Errorf("%q is not a PostgreSQL 15 command", c)
		}
	}
}
