package pgcatalog

import "github.com/zproxy/zproxy/catalog"

// readsAllStats reports whether the session's role sees every session's
// and statement's details (pg_stat_activity, pg_stat_statements): a
// superuser or a member of pg_read_all_stats, as in PostgreSQL 15.
func (e *Env) readsAllStats() bool {
	if e.Sess == nil {
		return false
	}
	if e.Sess.IsSuperuser() {
		return true
	}
	return e.Snap != nil && e.Snap.IsMemberOf(e.Sess.User(), catalog.RoleReadAllStats)
}

// hasRole is pg_has_role's MEMBER and USAGE (the same, as every zproxy
// role inherits): whether role is group or a member of it.
func (e *Env) hasRole(role, group string) bool {
	if isSuperuser(e, role) || role == group {
		return true
	}
	return e.Snap != nil && e.Snap.IsMemberOf(role, group)
}

func init() {
	// pg_auth_members: who was granted which role, the predefined
	// pg_monitor's memberships included; the bootstrap superuser is the
	// grantor of every row, as zproxy does not record grantors.
	generate("pg_catalog.pg_auth_members", func(e *Env) []row {
		if e.Snap == nil {
			return nil
		}
		var out []row
		for _, m := range e.Snap.Memberships() {
			out = append(out, &pgAuthMembersRow{Roleid: oidV(RoleOID(m.Role)), Member: oidV(RoleOID(m.Member)),
				Grantor: oidV(BootstrapOID), AdminOption: boolV(m.Admin)})
		}
		return out
	})
}
