package catalog

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/zproxy/zproxy/kv"
)

// Roles live in the catalog partition beside the tables, one item per role
// under rolePrefix, and change with the same version counter, so every
// proxy over a shared store sees a role change when it sees the schema
// version that made it.
const rolePrefix = "r/"

// PublicRole is the pseudo-role every role is a member of: privileges
// granted TO PUBLIC are everyone's. It cannot be created or logged in as.
const PublicRole = "public"

// Privilege is a set of table privileges.
type Privilege uint8

// Table privileges.
const (
	PrivSelect Privilege = 1 << iota
	PrivInsert
	PrivUpdate
	PrivDelete
	PrivTruncate

	PrivAll = PrivSelect | PrivInsert | PrivUpdate | PrivDelete | PrivTruncate
)

var privilegeNames = []struct {
	p    Privilege
	name string
}{{PrivSelect, "SELECT"}, {PrivInsert, "INSERT"}, {PrivUpdate, "UPDATE"}, {PrivDelete, "DELETE"}, {PrivTruncate, "TRUNCATE"}}

// String lists the privileges of p ("SELECT, INSERT").
func (p Privilege) String() string {
	var names []string
	for _, n := range privilegeNames {
		if p&n.p != 0 {
			names = append(names, n.name)
		}
	}
	return strings.Join(names, ", ")
}

// ParsePrivilege reads one privilege keyword (case-insensitive); ALL [PRIVILEGES] is
// PrivAll.
func ParsePrivilege(s string) (Privilege, bool) {
	s = strings.ToUpper(s)
	if s == "ALL" || s == "ALL PRIVILEGES" {
		return PrivAll, true
	}
	for _, n := range privilegeNames {
		if n.name == s {
			return n.p, true
		}
	}
	return 0, false
}

// Role is a role: a user when it may log in. Its privileges on tables are
// keyed by table ID, so those of a dropped table never pass to a new table
// of the same name.
type Role struct {
	Name      string `json:"name"`
	Login     bool   `json:"login,omitempty"`
	Superuser bool   `json:"superuser,omitempty"`
	// Verifier is the SCRAM-SHA-256 verifier of the role's password in
	// PostgreSQL's form; empty when it has none. Passwords are never
	// stored.
	Verifier string `json:"verifier,omitempty"`
	// Grants holds the privileges granted to the role, by table ID.
	Grants map[uint64]Privilege `json:"grants,omitempty"`
	// MemberOf holds the roles this one was granted (GRANT group TO
	// role), each with whether WITH ADMIN OPTION was given; membership.go.
	MemberOf map[string]bool `json:"member_of,omitempty"`
}

// Clone returns a deep copy of r, for building a changed role.
func (r *Role) Clone() *Role {
	c := *r
	c.Grants = make(map[uint64]Privilege, len(r.Grants))
	for id, p := range r.Grants {
		c.Grants[id] = p
	}
	return &c
}

// Role returns the named role, or nil. The PUBLIC pseudo-role is returned
// when privileges were granted to it.
func (s *Snapshot) Role(name string) *Role { return s.roles[name] }

// Roles returns every role but PUBLIC, sorted by name.
func (s *Snapshot) Roles() []*Role {
	out := make([]*Role, 0, len(s.roles))
	for _, r := range s.roles {
		if r.Name != PublicRole {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Privileges returns the privileges role holds on t: all of them when the
// role is a superuser or owns t, otherwise those granted to it or to
// PUBLIC. A role that does not exist holds PUBLIC's. Catalog views are
// readable by everyone, as PostgreSQL's are.
func (s *Snapshot) Privileges(role string, t *Table) Privilege {
	if t.Virtual != nil {
		return PrivSelect
	}
	var p Privilege
	if r := s.roles[role]; r != nil {
		if r.Superuser || t.Owner == role {
			return PrivAll
		}
		p = r.Grants[t.ID]
	}
	if pub := s.roles[PublicRole]; pub != nil {
		p |= pub.Grants[t.ID]
	}
	return p
}

// Allowed reports whether role holds every privilege of p on t.
func (s *Snapshot) Allowed(role string, t *Table, p Privilege) bool {
	return s.Privileges(role, t)&p == p
}

// Owned returns the tables role owns, sorted by name.
func (s *Snapshot) Owned(role string) []*Table {
	var out []*Table
	for _, t := range s.Tables() {
		if t.Owner == role {
			out = append(out, t)
		}
	}
	return out
}

// GrantedTables returns the tables on which role holds granted privileges,
// sorted by name.
func (s *Snapshot) GrantedTables(role string) []*Table {
	r := s.roles[role]
	if r == nil {
		return nil
	}
	var out []*Table
	for _, t := range s.Tables() {
		if r.Grants[t.ID] != 0 {
			out = append(out, t)
		}
	}
	return out
}

// PruneGrants drops r's grants on tables that no longer exist in s, so a
// role rewritten by a change does not carry them on.
func (s *Snapshot) PruneGrants(r *Role) {
	live := make(map[uint64]bool, len(s.tables))
	for _, t := range s.tables {
		live[t.ID] = true
	}
	for id := range r.Grants {
		if !live[id] {
			delete(r.Grants, id)
		}
	}
}

// loadRoles reads every role of the catalog.
func (c *Catalog) loadRoles(ctx context.Context) (map[string]*Role, error) {
	roles := map[string]*Role{}
	start := []byte(rolePrefix)
	it := c.store.Scan(ctx, kv.ScanRequest{Partition: CatalogPartition, Start: start, End: kv.PrefixEnd(start), Consistent: true})
	defer it.Close()
	for it.Next() {
		item := it.Item()
		var r Role
		if err := decodeDesc(item, &r); err != nil {
			return nil, err
		}
		roles[r.Name] = &r
	}
	if err := it.Err(); err != nil {
		return nil, fmt.Errorf("catalog: reading roles: %w", err)
	}
	return roles, nil
}

// roleOps returns the writes of a change's roles.
func roleOps(ch Change) ([]kv.Op, error) {
	var ops []kv.Op
	for _, r := range ch.PutRoles {
		op, err := putDescriptor(rolePrefix+r.Name, r)
		if err != nil {
			return nil, err
		}
		ops = append(ops, op)
	}
	for _, name := range ch.DeleteRoles {
		ops = append(ops, kv.Op{Kind: kv.OpDelete, Key: kv.Key{Partition: CatalogPartition, Sort: []byte(rolePrefix + name)}})
	}
	return ops, nil
}

// putDescriptor is the write of a catalog item holding v as JSON.
func putDescriptor(sortKey string, v any) (kv.Op, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return kv.Op{}, err
	}
	return kv.Op{Kind: kv.OpPut, Key: kv.Key{Partition: CatalogPartition, Sort: []byte(sortKey)},
		Attrs: []kv.Attr{{Name: descAttr, Kind: kv.AttrBytes, B: data}}}, nil
}
