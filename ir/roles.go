package ir

import (
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
)

// RoleSpec names a role in a bound role statement.
type RoleSpec struct {
	Name string
	// Current stands for the session's user (CURRENT_USER, SESSION_USER).
	Current bool
	// Public is the PUBLIC pseudo-role of GRANT/REVOKE.
	Public bool
}

// RoleOptions are the attributes CREATE/ALTER ROLE set; nil fields are
// left as they are (CREATE: NOLOGIN, NOSUPERUSER, no password).
type RoleOptions struct {
	Login     *bool
	Superuser *bool
	// Password is set when PASSWORD was given: the password, or a SCRAM
	// verifier; PasswordNull is PASSWORD NULL.
	Password     *string
	PasswordNull bool
	// Unsupported is the first option zproxy does not implement
	// (parser.RoleStatement.Unsupported), refused after the privilege
	// checks.
	Unsupported string
}

// CreateRole is CREATE ROLE or CREATE USER.
type CreateRole struct {
	Name    string
	Options RoleOptions
}

// Kind implements Statement.
func (*CreateRole) Kind() string { return "create_role" }

// Describe implements Statement.
func (*CreateRole) Describe() Description {
	return Description{Class: ClassDCL, ChangesSchema: true, Writes: true}
}

// AlterRole is ALTER ROLE/USER ... [WITH] options.
type AlterRole struct {
	Role    RoleSpec
	Options RoleOptions
	// Setting is ALTER ROLE's SET or RESET clause (nil: attributes only).
	Setting *RoleSetting
}

// RoleSetting is ALTER ROLE {role | ALL} [IN DATABASE db] SET or RESET: a
// session default that a connection of the role (of every role, with
// All) to database Database ("": to any database) starts with.
type RoleSetting struct {
	All      bool
	Database string
	// Param is the parameter, lower case ("all" with Reset: RESET ALL);
	// Value SET's value; FromCurrent SET ... FROM CURRENT, the session's
	// value of it.
	Param       string
	Value       string
	Reset       bool
	FromCurrent bool
}

// Kind implements Statement.
func (*AlterRole) Kind() string { return "alter_role" }

// Describe implements Statement.
func (*AlterRole) Describe() Description {
	return Description{Class: ClassDCL, ChangesSchema: true, Writes: true}
}

// DropRole is DROP ROLE/USER.
type DropRole struct {
	Names    []string
	IfExists bool
}

// Kind implements Statement.
func (*DropRole) Kind() string { return "drop_role" }

// Describe implements Statement.
func (*DropRole) Describe() Description {
	return Description{Class: ClassDCL, ChangesSchema: true, Writes: true}
}

// Kind implements Statement.
func (g *Grant) Kind() string {
	if g.Revoke {
		return "revoke"
	}
	return "grant"
}

// Describe implements Statement.
func (*Grant) Describe() Description {
	return Description{Class: ClassDCL, ChangesSchema: true, Writes: true}
}

// Kind implements Statement.
func (*AlterDefaultPrivileges) Kind() string { return "alter_default_privileges" }

// Describe implements Statement.
func (*AlterDefaultPrivileges) Describe() Description {
	return Description{Class: ClassDCL, ChangesSchema: true, Writes: true}
}

// CheckRoleName refuses the role names PostgreSQL reserves (42939).
func CheckRoleName(name string) error {
	switch {
	case name == catalog.PublicRole || name == "none":
		return pgerr.New(pgerr.ReservedName, "role name \"%s\" is reserved", name)
	case strings.HasPrefix(name, "pg_"):
		return pgerr.New(pgerr.ReservedName, "role name \"%s\" is reserved", name).
			WithDetail("Role names starting with \"pg_\" are reserved.")
	case name == "":
		return pgerr.New(pgerr.InvalidParameterValue, "role name must not be empty")
	}
	return nil
}
