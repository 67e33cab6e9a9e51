package parser

import (
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// Tablespaces.
//
// zproxy keeps every relation in its store: PostgreSQL's default
// tablespace, the only one it has (pg_tablespace lists pg_default and
// pg_global, as a fresh PostgreSQL cluster does). A TABLESPACE clause
// naming pg_default is accepted and changes nothing (tablespaceClause);
// any other tablespace does not exist, and statements that would make or
// change one fail as PostgreSQL's would for such a name, or with 0A000.

// tablespaceStmt parses CREATE, ALTER and DROP TABLESPACE. Only DROP
// TABLESPACE IF EXISTS of a tablespace that does not exist succeeds (a
// utility statement: the session says it skipped it); the others fail
// here. It returns nil for another statement.
func (r *rewriter) tablespaceStmt() (*UtilityStatement, error) {
	if !r.peek(1, "tablespace") || !r.peek(0, "create") && !r.peek(0, "drop") && !r.peek(0, "alter") {
		return nil, nil
	}
	k := 2
	ifExists := r.peek(0, "drop") && r.peek(k, "if") && r.peek(k+1, "exists")
	if ifExists {
		k += 2
	}
	name, err := r.name(k)
	if err != nil {
		return nil, err
	}
	pos := r.pos(k)
	builtin := name == "pg_default" || name == "pg_global"
	switch {
	case r.peek(0, "create"):
		if strings.HasPrefix(name, "pg_") {
			return nil, pgerr.New(pgerr.ReservedName, "unacceptable tablespace name %q", name).
				WithDetail("The prefix \"pg_\" is reserved for system tablespaces.").WithPosition(pos)
		}
		return nil, pgerr.New(pgerr.FeatureNotSupported, "CREATE TABLESPACE is not supported").
			WithDetail("zproxy keeps every relation in its store, the pg_default tablespace.").WithPosition(r.pos(0))
	case builtin:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "%s TABLESPACE %s is not supported", strings.ToUpper(r.toks[0].val), name).
			WithDetail("zproxy keeps every relation in its store, the pg_default tablespace.").WithPosition(pos)
	case k+1 != len(r.toks) && r.peek(0, "drop"):
		return nil, r.syntaxErrorAt(k + 1)
	case !ifExists:
		return nil, pgerr.New(pgerr.UndefinedObject, "tablespace %q does not exist", name).WithPosition(pos)
	}
	return &UtilityStatement{Kind: "drop tablespace", Name: name, NamePos: pos}, nil
}
