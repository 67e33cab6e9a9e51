package parser

import (
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// TestDatabaseStatementsRefused: every spelling of CREATE, DROP and ALTER
// DATABASE is 0A000 (one database per store), and other statements that
// name a database are left to their own parsers.
func TestDatabaseStatementsRefused(t *testing.T) {
	for _, c := range []struct {
		sql     string
		refused bool
	}{
		{"CREATE DATABASE d", true},
		{"create database \"D\" with owner = x template template0 encoding 'UTF8' is_template = false", true},
		{"DROP DATABASE d", true},
		{"DROP DATABASE IF EXISTS d WITH (FORCE)", true},
		{"ALTER DATABASE d RENAME TO e", true},
		{"ALTER DATABASE d OWNER TO r", true},
		{"REINDEX DATABASE d", false},
		{"CREATE TABLE database (a int)", false},
	} {
		_, err := Parse(c.sql)
		if got := pgerr.CodeOf(err) == pgerr.FeatureNotSupported; got != c.refused {
			t.Errorf("%s: %v, refused = %v", c.sql, err, c.refused)
		}
	}
}
