package parser

import "github.com/zproxy/zproxy/internal/pgerr"

// SchemaStatement is CREATE, ALTER or DROP SCHEMA, parsed by the front
// end. Statement.AST is nil for it.
type SchemaStatement struct {
	// Action is "create", "drop", "rename" or "owner".
	Action string
	// Names are the schemas named (one but for DROP); a CREATE SCHEMA
	// AUTHORIZATION role without a name leaves it empty (the schema is
	// named after the role).
	Names []string
	// Pos is the 1-based position of the first name.
	Pos int
	// MissingOK is CREATE's IF NOT EXISTS or DROP's IF EXISTS.
	MissingOK bool
	// Role is CREATE's AUTHORIZATION role or ALTER's OWNER TO role.
	Role *RoleName
	// NewName is RENAME TO's name.
	NewName string
	// Cascade is DROP's CASCADE.
	Cascade bool
	// Elements is set when CREATE SCHEMA names schema elements (CREATE
	// TABLE ... after the schema name), which zproxy refuses.
	Elements bool
}

// schemaStmt parses
//
//	CREATE SCHEMA [IF NOT EXISTS] name [AUTHORIZATION role] [element ...]
//	CREATE SCHEMA [IF NOT EXISTS] AUTHORIZATION role [element ...]
//	ALTER SCHEMA name RENAME TO new | OWNER TO role
//	DROP SCHEMA [IF EXISTS] name [, ...] [CASCADE | RESTRICT]
//
// or returns nil for another statement.
func (r *rewriter) schemaStmt() (*SchemaStatement, error) {
	if len(r.toks) < 2 || !r.toks[1].is("schema") || !r.toks[0].is("create") && !r.toks[0].is("drop") && !r.toks[0].is("alter") {
		return nil, nil
	}
	st := &SchemaStatement{Action: r.toks[0].val}
	k := 2
	switch {
	case st.Action == "create" && r.peek(k, "if") && r.peek(k+1, "not") && r.peek(k+2, "exists"):
		st.MissingOK, k = true, k+3
	case st.Action == "drop" && r.peek(k, "if") && r.peek(k+1, "exists"):
		st.MissingOK, k = true, k+2
	}
	st.Pos = r.pos(k)
	role := func(at int) error {
		rn, err := r.roleName(at, true, false)
		if err != nil {
			return err
		}
		st.Role = &rn
		return nil
	}
	switch st.Action {
	case "create":
		if !r.peek(k, "authorization") || r.peek(k+1, "authorization") {
			n, err := r.name(k)
			if err != nil {
				return nil, err
			}
			st.Names, k = []string{n}, k+1
		}
		if r.peek(k, "authorization") {
			if err := role(k + 1); err != nil {
				return nil, err
			}
			k += 2
		}
		if k < len(r.toks) {
			if !r.peek(k, "create") && !r.peek(k, "grant") {
				return nil, r.syntaxErrorAt(k)
			}
			st.Elements = true
		}
	case "alter":
		n, err := r.name(k)
		if err != nil {
			return nil, err
		}
		st.Names, k = []string{n}, k+1
		switch {
		case r.peek(k, "rename") && r.peek(k+1, "to"):
			if st.NewName, err = r.name(k + 2); err != nil {
				return nil, err
			}
			st.Action, k = "rename", k+3
		case r.peek(k, "owner") && r.peek(k+1, "to"):
			if err := role(k + 2); err != nil {
				return nil, err
			}
			st.Action, k = "owner", k+3
		default:
			return nil, r.syntaxErrorAt(k)
		}
		if k < len(r.toks) {
			return nil, r.syntaxErrorAt(k)
		}
	case "drop":
		for {
			n, err := r.name(k)
			if err != nil {
				return nil, err
			}
			st.Names, k = append(st.Names, n), k+1
			if !r.peek(k, ",") {
				break
			}
			k++
		}
		switch {
		case r.peek(k, "cascade"):
			st.Cascade, k = true, k+1
		case r.peek(k, "restrict"):
			k++
		}
		if k < len(r.toks) {
			return nil, r.syntaxErrorAt(k)
		}
	}
	if st.Action == "create" && len(st.Names) > 0 && reservedSchemaName(st.Names[0]) {
		return nil, pgerr.New(pgerr.ReservedName, "unacceptable schema name %q", st.Names[0]).
			WithDetail("The prefix \"pg_\" is reserved for system schemas.")
	}
	return st, nil
}

// reservedSchemaName reports whether a new schema may not take name: the
// prefix pg_ is PostgreSQL's.
func reservedSchemaName(name string) bool {
	return len(name) >= 3 && name[:3] == "pg_"
}
