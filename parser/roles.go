package parser

import (
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// RoleStatement is a role or privilege statement in PostgreSQL's spelling,
// which TiDB (MySQL's CREATE USER and GRANT) cannot parse: CREATE ROLE/USER,
// ALTER ROLE/USER, DROP ROLE/USER, GRANT and REVOKE of table privileges.
// Statement.AST is nil for these; Statement.Role holds them.
type RoleStatement struct {
	// Kind is "create_role", "alter_role", "drop_role", "grant" or
	// "revoke".
	Kind string
	// Roles are the roles created, altered or dropped, or the grantees.
	Roles    []RoleName
	IfExists bool // DROP ROLE IF EXISTS
	// Options are CREATE/ALTER ROLE's options in the order written.
	Options []RoleOption
	// Privileges are GRANT/REVOKE's privilege keywords, upper case ("ALL"
	// for ALL [PRIVILEGES]); PrivilegeColumns the column list written after
	// each (nil: the whole object).
	Privileges       []string
	PrivilegeColumns [][]string
	// Object is what the privileges are on: "table" (ON [TABLE], the
	// default; views too), "sequence", "schema", "database", "language", "parameter", "type",
	// "domain" or "large object".
	Object string
	// Tables are the objects of ON [TABLE | SEQUENCE | SCHEMA] x, ... (the
	// OIDs of ON LARGE OBJECT, as written);
	// Schemas those of ON ALL TABLES | SEQUENCES IN SCHEMA s, ....
	Tables  []string
	Schemas []string
	// Unsupported is the first role option zproxy does not implement
	// (CREATEDB, IN ROLE, CONNECTION LIMIT, ...), upper case; the rest of
	// the statement is not read. The session refuses it only after the
	// privilege checks, as PostgreSQL checks privilege first.
	Unsupported string
	// Granted are the roles of GRANT/REVOKE role, ... TO/FROM member, ...
	// (Kind "grant_role", "revoke_role"); Roles are then the members.
	Granted []RoleName
	// Admin is WITH ADMIN OPTION of GRANT role, or ADMIN OPTION FOR of
	// REVOKE role (which takes away the option only).
	Admin bool
	// Setting is the parameter of ALTER SYSTEM SET/RESET (Kind
	// "alter_system") and of ALTER ROLE's SET/RESET, lower case; "all"
	// for RESET ALL.
	Setting string
	// SetAction is ALTER ROLE's "set", "set_current" (SET ... FROM
	// CURRENT) or "reset" (RESET, SET ... TO DEFAULT); "" without one.
	// SetValue is SET's value, as SET would take it; SetDatabase the
	// database of IN DATABASE ("" for every database); AllRoles marks
	// ALTER ROLE ALL.
	SetAction   string
	SetValue    string
	SetDatabase string
	AllRoles    bool
	// Defaults marks ALTER DEFAULT PRIVILEGES (Kind "grant" or
	// "revoke"): Object is then "tables", "sequences", "functions"
	// ("routines" too), "types" or "schemas", DefaultFor the roles of FOR
	// ROLE (none: the current role) and Schemas those of IN SCHEMA.
	Defaults   bool
	DefaultFor []RoleName
}

// RoleName is a role named in a statement.
type RoleName struct {
	Name string
	// Current is CURRENT_USER, CURRENT_ROLE or SESSION_USER (Name says
	// which): the session's current or session user.
	Current bool
	// Public is PUBLIC in GRANT/REVOKE: every role.
	Public bool
	// Pos is the 1-based position of the name in the query.
	Pos int
}

// RoleOption is one option of CREATE/ALTER ROLE.
type RoleOption struct {
	// Name is "login", "superuser" or "password"; Negated is true for
	// NOLOGIN and NOSUPERUSER.
	Name    string
	Negated bool
	// Password is PASSWORD's value; nil for PASSWORD NULL.
	Password *string
}

// roleStmt parses the role statements (first word create, alter, drop,
// grant or revoke). It returns nil when the statement is not one of them.
func (r *rewriter) roleStmt() (*RoleStatement, error) {
	first := r.toks[0].val
	switch {
	case first == "grant" || first == "revoke":
		return r.grantStmt(first)
	case first == "alter" && r.peek(1, "system"):
		return r.alterSystem()
	case first == "alter" && r.peek(1, "default") && r.peek(2, "privileges"):
		return r.alterDefaultPrivileges()
	case r.peek(1, "group") && (first == "create" || first == "alter" || first == "drop"):
		return r.groupStmt(first)
	case !r.peek(1, "role") && !r.peek(1, "user"):
		return nil, nil
	}
	isUser := r.peek(1, "user")
	switch first {
	case "create":
		return r.createOrAlterRole("create_role", isUser)
	case "alter":
		return r.createOrAlterRole("alter_role", isUser)
	case "drop":
		return r.dropRole()
	}
	return nil, nil
}

// roleName reads a role name at k: an identifier, or with allowSpecial
// CURRENT_USER, CURRENT_ROLE, SESSION_USER (and PUBLIC with allowPublic).
func (r *rewriter) roleName(k int, allowSpecial, allowPublic bool) (RoleName, error) {
	if k >= len(r.toks) || r.toks[k].kind != tkIdent && r.toks[k].kind != tkQIdent {
		return RoleName{}, r.syntaxErrorAt(k)
	}
	t := r.toks[k]
	n := RoleName{Name: t.val, Pos: r.pos(k)}
	if t.kind == tkIdent {
		switch t.val {
		case "current_user", "current_role", "session_user":
			if !allowSpecial {
				return RoleName{}, pgerr.New(pgerr.ReservedName, "role name %q is reserved", t.val).WithPosition(r.pos(k))
			}
			n.Current = true
		case "public":
			if allowPublic {
				n.Public = true
			}
		}
	}
	return n, nil
}

// createOrAlterRole parses CREATE|ALTER ROLE|USER name [[WITH] option ...].
func (r *rewriter) createOrAlterRole(kind string, isUser bool) (*RoleStatement, error) {
	if kind == "alter_role" && r.peek(2, "all") && r.toks[2].kind == tkIdent {
		return r.alterRoleSetting(&RoleStatement{Kind: kind, AllRoles: true}, 3)
	}
	name, err := r.roleName(2, kind == "alter_role", false)
	if err != nil {
		return nil, err
	}
	st := &RoleStatement{Kind: kind, Roles: []RoleName{name}}
	k := 3
	if kind == "alter_role" && (r.peek(k, "set") || r.peek(k, "reset") || r.peek(k, "in")) {
		return r.alterRoleSetting(st, k)
	}
	if kind == "alter_role" && r.peek(k, "rename") {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER ROLE ... %s is not supported", strings.ToUpper(r.toks[k].val)).WithPosition(r.pos(k))
	}
	if kind == "create_role" && isUser {
		// CREATE USER is CREATE ROLE with LOGIN unless told otherwise.
		st.Options = append(st.Options, RoleOption{Name: "login"})
	}
	if r.peek(k, "with") {
		k++
	}
	seen := map[string]bool{}
	for k < len(r.toks) {
		t := r.toks[k]
		if t.kind != tkIdent {
			return nil, r.syntaxErrorAt(k)
		}
		opt := RoleOption{}
		switch t.val {
		case "login", "nologin", "superuser", "nosuperuser":
			opt.Name = strings.TrimPrefix(t.val, "no")
			opt.Negated = strings.HasPrefix(t.val, "no")
			k++
		case "encrypted", "password":
			if t.val == "encrypted" {
				if !r.peek(k+1, "password") {
					return nil, r.syntaxErrorAt(k + 1)
				}
				k++
			}
			k++
			opt.Name = "password"
			switch {
			case r.peek(k, "null"):
			case k < len(r.toks) && r.toks[k].kind == tkString:
				pw := r.toks[k].val
				opt.Password = &pw
			default:
				return nil, r.syntaxErrorAt(k)
			}
			k++
		case "inherit", "noinherit", "nocreatedb", "nocreaterole", "noreplication", "nobypassrls":
			// What these say is true of every zproxy role: it has no
			// memberships to inherit from, and no such powers.
			k++
			continue
		case "createdb", "createrole", "replication", "bypassrls", "connection", "valid", "in", "role", "admin", "user", "sysid":
			st.Unsupported = strings.ToUpper(t.val)
			return st, nil
		default:
			return nil, r.syntaxErrorAt(k)
		}
		if seen[opt.Name] {
			return nil, pgerr.New(pgerr.SyntaxError, "conflicting or redundant options").WithPosition(r.pos(k - 1))
		}
		seen[opt.Name] = true
		st.Options = append(st.Options, opt)
	}
	return st, nil
}

// alterRoleSetting parses the rest of ALTER ROLE {name | ALL} from k:
// [IN DATABASE db] {SET ... | RESET ...} (settingClause), the session
// defaults of the role (or of every role) in one database or all.
func (r *rewriter) alterRoleSetting(st *RoleStatement, k int) (*RoleStatement, error) {
	if r.peek(k, "in") {
		if !r.peek(k+1, "database") {
			return nil, r.syntaxErrorAt(k + 1)
		}
		db, err := r.name(k + 2)
		if err != nil {
			return nil, err
		}
		st.SetDatabase, k = db, k+3
	}
	if !r.peek(k, "set") && !r.peek(k, "reset") {
		return nil, r.syntaxErrorAt(k)
	}
	var err error
	if st.SetAction, st.Setting, st.SetValue, k, err = r.settingClause(k, "ALTER ROLE"); err != nil {
		return nil, err
	}
	if k < len(r.toks) {
		return nil, r.syntaxErrorAt(k)
	}
	return st, nil
}

// groupStmt parses PostgreSQL's older spellings of role statements:
// CREATE GROUP (CREATE ROLE, NOLOGIN unless told otherwise), DROP GROUP
// (DROP ROLE), and ALTER GROUP g ADD | DROP USER u, ... (GRANT g TO u,
// REVOKE g FROM u).
func (r *rewriter) groupStmt(first string) (*RoleStatement, error) {
	switch first {
	case "create":
		return r.createOrAlterRole("create_role", false)
	case "drop":
		return r.dropRole()
	}
	group, err := r.roleName(2, true, false)
	if err != nil {
		return nil, err
	}
	k := 3
	if r.peek(k, "rename") {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER ROLE ... RENAME is not supported").WithPosition(r.pos(k))
	}
	if !r.peek(k, "add") && !r.peek(k, "drop") {
		return nil, r.syntaxErrorAt(k)
	}
	if !r.peek(k+1, "user") {
		return nil, r.syntaxErrorAt(k + 1)
	}
	st := &RoleStatement{Kind: "grant_role", Granted: []RoleName{group}}
	if r.peek(k, "drop") {
		st.Kind = "revoke_role"
	}
	if st.Roles, k, err = r.roleList(k+2, false); err != nil {
		return nil, err
	}
	if k < len(r.toks) {
		return nil, r.syntaxErrorAt(k)
	}
	return st, nil
}

// dropRole parses DROP ROLE|USER [IF EXISTS] name [, ...].
func (r *rewriter) dropRole() (*RoleStatement, error) {
	st := &RoleStatement{Kind: "drop_role"}
	k := 2
	if r.peek(k, "if") {
		if !r.peek(k+1, "exists") {
			return nil, r.syntaxErrorAt(k + 1)
		}
		st.IfExists = true
		k += 2
	}
	roles, k, err := r.roleList(k, false)
	if err != nil {
		return nil, err
	}
	st.Roles = roles
	if k < len(r.toks) {
		return nil, r.syntaxErrorAt(k)
	}
	return st, nil
}

// roleList reads a comma-separated list of role names at k; grantees
// (GRANT/REVOKE) may be PUBLIC, CURRENT_USER and the like, each after an
// optional GROUP.
func (r *rewriter) roleList(k int, grantees bool) ([]RoleName, int, error) {
	var roles []RoleName
	for {
		if grantees && r.peek(k, "group") {
			k++
		}
		n, err := r.roleName(k, grantees, grantees)
		if err != nil {
			return nil, k, err
		}
		roles = append(roles, n)
		k++
		if !r.peek(k, ",") {
			return roles, k, nil
		}
		k++
	}
}

// grantStmt parses GRANT privileges ON [TABLE] t, ... | ALL TABLES IN SCHEMA
// s, ... TO role, ... and the REVOKE ... FROM form.
func (r *rewriter) grantStmt(kind string) (*RoleStatement, error) {
	return r.grantStmtAt(kind, 1, nil)
}

// alterDefaultPrivileges parses ALTER DEFAULT PRIVILEGES [FOR ROLE|USER
// r, ...] [IN SCHEMA s, ...] GRANT|REVOKE privileges ON TABLES |
// SEQUENCES | FUNCTIONS | ROUTINES | TYPES | SCHEMAS TO|FROM role, ....
func (r *rewriter) alterDefaultPrivileges() (*RoleStatement, error) {
	st := &RoleStatement{Defaults: true}
	k := 3
	for {
		switch {
		case r.peek(k, "for") && (r.peek(k+1, "role") || r.peek(k+1, "user")):
			roles, next, err := r.roleList(k+2, false)
			if err != nil {
				return nil, err
			}
			st.DefaultFor = append(st.DefaultFor, roles...)
			k = next
			continue
		case r.peek(k, "in") && r.peek(k+1, "schema"):
			names, next, err := r.tokenList(k+2, func(t token) bool { return t.kind == tkIdent || t.kind == tkQIdent })
			if err != nil {
				return nil, err
			}
			st.Schemas = append(st.Schemas, names...)
			k = next
			continue
		}
		break
	}
	if !r.peek(k, "grant") && !r.peek(k, "revoke") {
		return nil, r.syntaxErrorAt(k)
	}
	return r.grantStmtAt(r.toks[k].val, k+1, st)
}

// grantStmtAt parses GRANT or REVOKE from its privileges at k; with
// defaults, the rest of ALTER DEFAULT PRIVILEGES into it.
func (r *rewriter) grantStmtAt(kind string, k int, defaults *RoleStatement) (*RoleStatement, error) {
	st := &RoleStatement{Kind: kind}
	if defaults != nil {
		st = defaults
		st.Kind = kind
	}
	if kind == "revoke" && defaults == nil && r.peek(k, "admin") && r.peek(k+1, "option") && r.peek(k+2, "for") {
		return r.grantRoleStmt(kind)
	}
	if kind == "revoke" && r.peek(k, "grant") && r.peek(k+1, "option") {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "GRANT OPTION is not supported").WithPosition(r.pos(k))
	}
	// Privileges, up to ON.
	for {
		if k >= len(r.toks) || r.toks[k].kind != tkIdent {
			return nil, r.syntaxErrorAt(k)
		}
		p := strings.ToUpper(r.toks[k].val)
		switch p {
		case "ALL":
			k++
			if r.peek(k, "privileges") {
				k++
			}
		case "SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER", "USAGE", "CREATE":
			k++
		case "CONNECT", "TEMPORARY", "TEMP", "SET":
			k++
		case "ALTER":
			if defaults != nil || !r.peek(k+1, "system") {
				return nil, r.syntaxErrorAt(k)
			}
			p = "ALTER SYSTEM"
			k += 2
		case "EXECUTE":
			if defaults != nil {
				k++
				break
			}
			// On functions and procedures, routineGrant reads it.
			return nil, pgerr.New(pgerr.InvalidGrantOperation, "invalid privilege type EXECUTE for relation").WithPosition(r.pos(k))
		default:
			if defaults != nil {
				return nil, r.syntaxErrorAt(k)
			}
			// GRANT role TO role: role membership.
			return r.grantRoleStmt(kind)
		}
		var cols []string
		if r.peek(k, "(") {
			k++
			for {
				if k >= len(r.toks) || r.toks[k].kind != tkIdent && r.toks[k].kind != tkQIdent {
					return nil, r.syntaxErrorAt(k)
				}
				cols = append(cols, r.toks[k].val)
				k++
				if !r.peek(k, ",") {
					break
				}
				k++
			}
			if !r.peek(k, ")") {
				return nil, r.syntaxErrorAt(k)
			}
			k++
		}
		st.Privileges = append(st.Privileges, p)
		st.PrivilegeColumns = append(st.PrivilegeColumns, cols)
		if !r.peek(k, ",") {
			break
		}
		k++
	}
	if !r.peek(k, "on") {
		if defaults == nil && k < len(r.toks) && r.toks[k].kind == tkIdent && (r.peek(k, "to") || r.peek(k, "from")) {
			// GRANT select TO r: a role whose name is a privilege keyword.
			return r.grantRoleStmt(kind)
		}
		return nil, r.syntaxErrorAt(k)
	}
	k++
	st.Object = "table"
	switch {
	case defaults != nil:
		switch {
		case r.peek(k, "tables"), r.peek(k, "sequences"), r.peek(k, "functions"), r.peek(k, "types"), r.peek(k, "schemas"):
			st.Object = r.toks[k].val
		case r.peek(k, "routines"):
			st.Object = "functions"
		default:
			return nil, r.syntaxErrorAt(k)
		}
		k++
	case r.peek(k, "all") && (r.peek(k+1, "tables") || r.peek(k+1, "sequences")) && r.peek(k+2, "in") && r.peek(k+3, "schema"):
		if r.peek(k+1, "sequences") {
			st.Object = "sequence"
		}
		names, next, err := r.tokenList(k+4, func(t token) bool { return t.kind == tkIdent || t.kind == tkQIdent })
		if err != nil {
			return nil, err
		}
		st.Schemas, k = names, next
	case r.peek(k, "large") && r.peek(k+1, "object"):
		// ON LARGE OBJECT oid, ...: the OIDs as written.
		st.Object = "large object"
		oids, next, err := r.tokenList(k+2, func(t token) bool { return t.kind == tkNumber })
		if err != nil {
			return nil, err
		}
		st.Tables, k = oids, next
	case r.peek(k, "database"), r.peek(k, "language"):
		st.Object = strings.ToLower(r.toks[k].val)
		names, next, err := r.tokenList(k+1, func(t token) bool { return t.kind == tkIdent || t.kind == tkQIdent })
		if err != nil {
			return nil, err
		}
		st.Tables, k = names, next
	case r.peek(k, "function") || r.peek(k, "procedure") || r.peek(k, "routine") ||
		r.peek(k, "all") ||
		r.peek(k, "tablespace") || r.peek(k, "foreign") || r.peek(k, "large"):
		return nil, pgerr.New(pgerr.FeatureNotSupported, "privileges on %s are not supported: zproxy grants on tables, views, sequences, schemas, databases, types, languages, parameters and large objects", r.toks[k].val).WithPosition(r.pos(k))
	default:
		switch {
		case r.peek(k, "table"):
			k++
		case r.peek(k, "sequence"):
			st.Object = "sequence"
			k++
		case r.peek(k, "schema"):
			st.Object = "schema"
			k++
		case r.peek(k, "type"), r.peek(k, "domain"), r.peek(k, "parameter"):
			st.Object = strings.ToLower(r.toks[k].val)
			k++
		}
		for {
			name, next, err := r.tableName(k)
			if err != nil {
				return nil, err
			}
			st.Tables = append(st.Tables, name)
			k = next
			if !r.peek(k, ",") {
				break
			}
			k++
		}
	}
	want := "to"
	if kind == "revoke" {
		want = "from"
	}
	if !r.peek(k, want) {
		return nil, r.syntaxErrorAt(k)
	}
	roles, k, err := r.roleList(k+1, true)
	if err != nil {
		return nil, err
	}
	st.Roles = roles
	switch {
	case kind == "grant" && r.peek(k, "with"):
		return nil, pgerr.New(pgerr.FeatureNotSupported, "WITH GRANT OPTION is not supported").WithPosition(r.pos(k))
	case r.peek(k, "granted"):
		return nil, pgerr.New(pgerr.FeatureNotSupported, "GRANTED BY is not supported").WithPosition(r.pos(k))
	case kind == "revoke" && (r.peek(k, "cascade") || r.peek(k, "restrict")):
		k++ // without grant options there is nothing to cascade to
	}
	if k < len(r.toks) {
		return nil, r.syntaxErrorAt(k)
	}
	return st, nil
}

// tokenList reads a comma-separated list of single tokens that ok
// accepts from k, returning their values and the index after the list.
func (r *rewriter) tokenList(k int, ok func(token) bool) ([]string, int, error) {
	var out []string
	for {
		if k >= len(r.toks) || !ok(r.toks[k]) {
			return nil, k, r.syntaxErrorAt(k)
		}
		out = append(out, r.toks[k].val)
		k++
		if !r.peek(k, ",") {
			return out, k, nil
		}
		k++
	}
}

// tableName reads a [schema.]table name at k; the schema is kept as
// "schema.table" when it is not public, for the planner to refuse.
func (r *rewriter) tableName(k int) (string, int, error) {
	if k >= len(r.toks) || r.toks[k].kind != tkIdent && r.toks[k].kind != tkQIdent {
		return "", k, r.syntaxErrorAt(k)
	}
	name := r.toks[k].val
	k++
	if r.peek(k, ".") && k+1 < len(r.toks) && (r.toks[k+1].kind == tkIdent || r.toks[k+1].kind == tkQIdent) {
		if name != "public" {
			name += "." + r.toks[k+1].val
		} else {
			name = r.toks[k+1].val
		}
		k += 2
	}
	return name, k, nil
}

// grantRoleStmt parses GRANT role, ... TO member, ... [WITH ADMIN OPTION]
// [GRANTED BY ...] and REVOKE [ADMIN OPTION FOR] role, ... FROM member, ...
// [CASCADE | RESTRICT].
func (r *rewriter) grantRoleStmt(kind string) (*RoleStatement, error) {
	st := &RoleStatement{Kind: kind + "_role"}
	k := 1
	if kind == "revoke" && r.peek(k, "admin") && r.peek(k+1, "option") && r.peek(k+2, "for") {
		st.Admin = true
		k += 3
	}
	granted, k, err := r.roleList(k, false)
	if err != nil {
		return nil, err
	}
	st.Granted = granted
	want := "to"
	if kind == "revoke" {
		want = "from"
	}
	if !r.peek(k, want) {
		return nil, r.syntaxErrorAt(k)
	}
	members, k, err := r.roleList(k+1, true)
	if err != nil {
		return nil, err
	}
	st.Roles = members
	if kind == "grant" && r.peek(k, "with") {
		if !r.peek(k+1, "admin") || !r.peek(k+2, "option") {
			return nil, r.syntaxErrorAt(k + 1)
		}
		st.Admin = true
		k += 3
	}
	if r.peek(k, "granted") {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "GRANTED BY is not supported").WithPosition(r.pos(k))
	}
	if kind == "revoke" && (r.peek(k, "cascade") || r.peek(k, "restrict")) {
		k++
	}
	if k < len(r.toks) {
		return nil, r.syntaxErrorAt(k)
	}
	return st, nil
}

// alterSystem parses ALTER SYSTEM SET name {TO | =} value | DEFAULT and
// ALTER SYSTEM RESET name | ALL far enough to name the parameter.
func (r *rewriter) alterSystem() (*RoleStatement, error) {
	st := &RoleStatement{Kind: "alter_system"}
	k := 2
	if !r.peek(k, "set") && !r.peek(k, "reset") {
		return nil, r.syntaxErrorAt(k)
	}
	k++
	if k >= len(r.toks) || r.toks[k].kind != tkIdent && r.toks[k].kind != tkQIdent {
		return nil, r.syntaxErrorAt(k)
	}
	st.Setting = r.toks[k].val
	for k+2 < len(r.toks) && r.peek(k+1, ".") {
		st.Setting += "." + r.toks[k+2].val
		k += 2
	}
	return st, nil
}
