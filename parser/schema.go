package parser

import (
	"sort"

	"github.com/zproxy/zproxy/internal/pgerr"
)

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
	// Elements are CREATE SCHEMA's schema elements (CREATE TABLE, VIEW,
	// INDEX, SEQUENCE, TRIGGER and GRANT after the schema name), in the
	// order PostgreSQL runs them (transformCreateSchemaStmt: sequences,
	// tables, views, indexes, triggers, grants; as written within a kind).
	Elements []SchemaElement
}

// SchemaElement is one element of CREATE SCHEMA: its text, a statement of
// its own, and its kind ("sequence", "table", "view", "index", "trigger",
// "grant").
type SchemaElement struct {
	Kind string
	SQL  string
}

// schemaElementOrder is the rank of each element kind in PostgreSQL's
// execution order.
var schemaElementOrder = map[string]int{"sequence": 0, "table": 1, "view": 2, "index": 3, "trigger": 4, "grant": 5}

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
			if st.MissingOK {
				return nil, pgerr.New(pgerr.FeatureNotSupported, "CREATE SCHEMA IF NOT EXISTS cannot include schema elements").WithPosition(r.pos(k))
			}
			schema := ""
			if len(st.Names) > 0 {
				schema = st.Names[0]
			} else if st.Role != nil && !st.Role.Current {
				schema = st.Role.Name
			}
			els, err := r.schemaElements(k, schema)
			if err != nil {
				return nil, err
			}
			st.Elements = els
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

// schemaElements splits the tokens from k on into CREATE SCHEMA's
// elements: each starts at CREATE or GRANT outside parentheses. An element
// that names its object (or, for an index or trigger, its table) in
// another schema than schema is PostgreSQL's 42P15; schema is empty when
// it is the current user's name, known only to the session, which then
// checks nothing here.
func (r *rewriter) schemaElements(k int, schema string) ([]SchemaElement, error) {
	var starts []int
	depth := 0
	for i := k; i < len(r.toks); i++ {
		switch {
		case r.toks[i].is("(") || r.toks[i].is("["):
			depth++
		case r.toks[i].is(")") || r.toks[i].is("]"):
			depth--
		case depth == 0 && (r.toks[i].is("create") || r.toks[i].is("grant")):
			// GRANT's own words never include CREATE outside a privilege
			// list (GRANT CREATE ON SCHEMA): a CREATE right after GRANT or
			// a comma is a privilege.
			if r.toks[i].is("create") && i > k && (r.toks[i-1].is("grant") || r.toks[i-1].is(",")) {
				continue
			}
			starts = append(starts, i)
		}
	}
	var out []SchemaElement
	for n, from := range starts {
		to := len(r.toks)
		if n+1 < len(starts) {
			to = starts[n+1]
		}
		kind, named, err := r.schemaElementKind(from, to)
		if err != nil {
			return nil, err
		}
		if named >= 0 && named+2 < to && r.toks[named+1].is(".") && schema != "" {
			if other := r.toks[named].val; other != schema {
				return nil, pgerr.New(pgerr.InvalidSchemaDefinition, "CREATE specifies a schema (%s) different from the one being created (%s)", other, schema).
					WithPosition(r.pos(named))
			}
		}
		out = append(out, SchemaElement{Kind: kind, SQL: r.sql[r.toks[from].start:r.toks[to-1].end]})
	}
	sort.SliceStable(out, func(i, j int) bool { return schemaElementOrder[out[i].Kind] < schemaElementOrder[out[j].Kind] })
	return out, nil
}

// schemaElementKind reads the kind of the element in tokens [from, to)
// and where the name it creates in the schema (or an index's or
// trigger's table) stands, -1 for GRANT. Only the statements PostgreSQL's
// grammar allows as schema elements are accepted.
func (r *rewriter) schemaElementKind(from, to int) (string, int, error) {
	if r.toks[from].is("grant") {
		return "grant", -1, nil
	}
	k := from + 1
	if r.peek(k, "or") && r.peek(k+1, "replace") {
		k += 2
	}
	for r.peek(k, "temp") || r.peek(k, "temporary") || r.peek(k, "unlogged") || r.peek(k, "unique") || r.peek(k, "recursive") {
		k++
	}
	kinds := map[string]string{"table": "table", "view": "view", "index": "index", "sequence": "sequence", "trigger": "trigger"}
	if k >= to || kinds[r.toks[k].val] == "" || r.toks[k].kind != tkIdent {
		return "", 0, r.syntaxErrorAt(min(k, to))
	}
	kind := kinds[r.toks[k].val]
	k++
	switch kind {
	case "index", "trigger":
		for k < to && !r.peek(k, "on") {
			k++
		}
		k++
		if r.peek(k, "only") {
			k++
		}
	default:
		if r.peek(k, "if") && r.peek(k+1, "not") && r.peek(k+2, "exists") {
			k += 3
		}
	}
	if k >= to {
		return "", 0, r.syntaxErrorAt(to)
	}
	return kind, k, nil
}
