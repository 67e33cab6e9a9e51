package ir

// GrantRole is GRANT role, ... TO member, ... [WITH ADMIN OPTION] (or with
// Revoke, REVOKE [ADMIN OPTION FOR] role, ... FROM member, ...). Roles are
// checked when the statement runs, against the newest catalog.
type GrantRole struct {
	Revoke bool
	// Admin is WITH ADMIN OPTION; with Revoke, ADMIN OPTION FOR (the
	// membership stays, the option goes).
	Admin   bool
	Granted []RoleSpec
	Members []RoleSpec
}

// Kind implements Statement.
func (g *GrantRole) Kind() string {
	if g.Revoke {
		return "revoke_role"
	}
	return "grant_role"
}

// Describe implements Statement.
func (*GrantRole) Describe() Description {
	return Description{Class: ClassDCL, ChangesSchema: true, Writes: true}
}

// AlterSystem is ALTER SYSTEM SET/RESET of Setting: the session checks
// the privilege PostgreSQL checks, then refuses it, as zproxy keeps its
// configuration in its flags and config file.
type AlterSystem struct{ Setting string }

// Kind implements Statement.
func (*AlterSystem) Kind() string { return "alter_system" }

// Describe implements Statement.
func (*AlterSystem) Describe() Description { return Description{Class: ClassUtility} }
