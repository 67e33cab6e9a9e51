package catalog

import "github.com/zproxy/zproxy/internal/sqltypes"

// Access control lists as PostgreSQL prints aclitem[] (relacl, nspacl,
// acldefault): "grantee=privileges/grantor", PUBLIC's grantee empty. zproxy
// records no grantor and no grant options, so every grant reads as the
// owner's, as the grants of an owner who never passed grant options on
// read in PostgreSQL.

// ACLItem is one aclitem: grantee holds privs (aclitem letters), granted
// by grantor; grantee "" is PUBLIC.
func ACLItem(grantee, privs, grantor string) string {
	return sqltypes.QuoteACLName(grantee) + "=" + privs + "/" + sqltypes.QuoteACLName(grantor)
}

// ACL is the access control list of the table, view or sequence id owned
// by owner: nil when nothing was ever granted on it (PostgreSQL's NULL,
// which means the kind's default), else the owner's entry and one per
// grantee holding privileges, PUBLIC first, then by name.
func (s *Snapshot) ACL(kind ObjectKind, id uint64, owner string) []string {
	return s.acl(kind, owner, func(r *Role) Privilege { return r.Grants[id] })
}

// SchemaACL is the access control list of schema public, owned by owner
// (pg_database_owner), as PostgreSQL 15 creates it (everyone may use it)
// plus what was granted on it since.
func (s *Snapshot) SchemaACL(owner string) []string {
	public := PrivUsage
	if r := s.roles[PublicRole]; r != nil {
		public |= r.Schemas[PublicSchema] & KindSchema.All()
	}
	acl := []string{ACLItem(owner, KindSchema.All().ACLLetters(), owner), ACLItem("", public.ACLLetters(), owner)}
	for _, r := range s.Roles() {
		if p := r.Schemas[PublicSchema] & KindSchema.All(); p != 0 && r.Name != owner {
			acl = append(acl, ACLItem(r.Name, p.ACLLetters(), owner))
		}
	}
	return acl
}

func (s *Snapshot) acl(kind ObjectKind, owner string, granted func(*Role) Privilege) []string {
	var items []string
	if r := s.roles[PublicRole]; r != nil {
		if p := granted(r) & kind.All(); p != 0 {
			items = append(items, ACLItem("", p.ACLLetters(), owner))
		}
	}
	for _, r := range s.Roles() {
		if r.Name == owner {
			continue
		}
		if p := granted(r) & kind.All(); p != 0 {
			items = append(items, ACLItem(r.Name, p.ACLLetters(), owner))
		}
	}
	if items == nil {
		return nil
	}
	return append([]string{ACLItem(owner, kind.All().ACLLetters(), owner)}, items...)
}

// UpdateACL grants p to grantee in acl (privileges by grantee), or with
// revoke takes it away, dropping an entry left with nothing.
func UpdateACL(acl map[string]Privilege, grantee string, p Privilege, revoke bool) {
	if revoke {
		acl[grantee] &^= p
	} else {
		acl[grantee] |= p
	}
	if acl[grantee] == 0 {
		delete(acl, grantee)
	}
}

// MoveACLOwner gives the privileges of from (an object's old owner) in acl
// to to, its new owner, as ALTER ... OWNER TO does.
func MoveACLOwner(acl map[string]Privilege, from, to string) {
	if p, ok := acl[from]; ok && from != to {
		acl[to] |= p
		delete(acl, from)
	}
}
