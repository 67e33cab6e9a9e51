package session

import (
	"context"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/pgerr"
)

// SET ROLE and SET SESSION AUTHORIZATION, as PostgreSQL 15 has them: two
// run-time parameters, role and session_authorization, scoped like any
// other (gucscope.go: undone by ROLLBACK, SET LOCAL ending with the
// block), passed over by RESET ALL (GUC_NO_RESET_ALL) and reset by
// DISCARD ALL. The session keeps three users:
//
//   - the authenticated user (params.User), which never changes and
//     alone decides who may SET SESSION AUTHORIZATION to another role;
//   - the session user (session_user): session_authorization, the
//     authenticated user unless a superuser set it, whose memberships
//     decide which roles SET ROLE may take;
//   - the current user (current_user): role when set, else the session
//     user. Every privilege check, every owner of a new object and
//     "$user" in search_path is the current user's (never params.User
//     read directly), so a role can gain nothing by SET ROLE that its
//     memberships did not already give it.
//
// Inside a SECURITY DEFINER routine the routine's owner is the current
// user (routines.go), and neither parameter may be set.

const (
	varRole        = "role"
	varSessionAuth = "session_authorization"
)

// roleNone is role's value when no SET ROLE is in force.
const roleNone = "none"

// isRoleVar reports whether n is one of the two parameters that change
// who the session is.
func isRoleVar(n string) bool { return n == varRole || n == varSessionAuth }

// sessionUser is session_user.
func (s *Session) sessionUser() string { return s.derived().sessionUser }

// sessionUserOfVars reads sessionUser from the session's settings.
func (s *Session) sessionUserOfVars() string {
	if u := s.vars[varSessionAuth]; u != "" {
		return u
	}
	return s.params.User
}

// currentUser is current_user: the role SET ROLE took, else the session
// user.
// A PL/pgSQL body's utility statement runs as the body's user, the owner
// of a SECURITY DEFINER routine (Session.runAs).
func (s *Session) currentUser() string {
	if s.runAs != "" {
		return s.runAs
	}
	return s.derived().currentUser
}

// currentUserOfVars reads currentUser from the session's settings.
func (s *Session) currentUserOfVars() string {
	if r := s.vars[varRole]; r != "" && r != roleNone {
		return r
	}
	return s.sessionUserOfVars()
}

// userIsSuperuser reports whether user, one of the session's users, is a
// superuser: the authenticated user by roleIsSuperuser's rules (a
// session zproxy opened for itself is one), any other role only by its
// stored attribute (or being the bootstrap superuser) — a role taken by
// SET ROLE that is dropped meanwhile is nobody's superuser.
func (s *Session) userIsSuperuser(snap *catalog.Snapshot, user string) bool {
	if user == s.params.User {
		return roleIsSuperuser(snap, user, s.params.Authenticated)
	}
	return roleIsSuperuser(snap, user, true)
}

// roleExists reports whether SET ROLE or SET SESSION AUTHORIZATION may
// name role: a stored role or the bootstrap superuser, never PUBLIC.
func roleExists(snap *catalog.Snapshot, role string) bool {
	return role != catalog.PublicRole && (snap.RoleExists(role) || role == pgcatalog.BootstrapRole)
}

// setRoleVar checks and applies SET ROLE or SET SESSION AUTHORIZATION
// (value already the reset value for RESET and DEFAULT) with PostgreSQL's
// checks in its order: the role exists (22023), then the session user
// is a member of the role or a superuser, or for SET SESSION
// AUTHORIZATION the authenticated user is a superuser or names itself
// (42501).
func (s *Session) setRoleVar(n, value string) error {
	snap, err := s.snapshot(context.Background())
	if err != nil {
		return storeErr(err)
	}
	switch n {
	case varRole:
		if value == roleNone {
			break
		}
		if !roleExists(snap, value) {
			return pgerr.New(pgerr.InvalidParameterValue, "role \"%s\" does not exist", value)
		}
		su := s.sessionUser()
		if !s.userIsSuperuser(snap, su) && !snap.IsMemberOf(su, value) {
			return pgerr.New(pgerr.InsufficientPrivilege, "permission denied to set role \"%s\"", value)
		}
	case varSessionAuth:
		if value != s.params.User {
			if !roleExists(snap, value) {
				return pgerr.New(pgerr.InvalidParameterValue, "role \"%s\" does not exist", value)
			}
			if !roleIsSuperuser(snap, s.params.User, s.params.Authenticated) {
				return pgerr.New(pgerr.InsufficientPrivilege, "permission denied to set session authorization \"%s\"", value)
			}
		}
		// A new session user has no SET ROLE in force.
		s.putVar(varRole, roleNone)
	}
	s.putVar(n, value)
	s.roleChanged()
	return nil
}

// restoreRoleVar puts back a value role or session_authorization had (the
// end of a block, ROLLBACK TO), unchecked as PostgreSQL restores it.
func (s *Session) restoreRoleVar(n, value string) {
	s.putVar(n, value)
	s.roleChanged()
}

// roleChanged follows a change of the current or session user:
// is_superuser is the current user's, and the client hears of a change of
// either as PostgreSQL reports them (ParameterStatus; the connection sent
// both at startup).
func (s *Session) roleChanged() {
	if s.reportedAuth == "" {
		s.reportedAuth = s.params.User // what the startup reported
	}
	super := "off"
	if snap, err := s.snapshot(context.Background()); err == nil && s.userIsSuperuser(snap, s.currentUser()) {
		super = "on"
	}
	report := s.params.ParameterStatus
	if s.vars["is_superuser"] != super {
		s.putVar("is_superuser", super)
		if report != nil {
			report("is_superuser", super)
		}
	}
	if su := s.sessionUser(); su != s.reportedAuth {
		s.reportedAuth = su
		if report != nil {
			report(varSessionAuth, su)
		}
	}
}

// resetRoles is DISCARD ALL's SET SESSION AUTHORIZATION DEFAULT: the
// authenticated user again, with no SET ROLE.
func (s *Session) resetRoles() {
	s.putVar(varRole, roleNone)
	s.putVar(varSessionAuth, s.params.User)
	s.roleChanged()
}

// inUseRole refuses to drop one of the session's users, as PostgreSQL's
// DROP ROLE does (55006).
func (s *Session) inUseRole(name string) error {
	switch name {
	case s.currentUser():
		return pgerr.New(pgerr.ObjectInUse, "current user cannot be dropped")
	case s.sessionUser():
		return pgerr.New(pgerr.ObjectInUse, "session user cannot be dropped")
	}
	return nil
}
