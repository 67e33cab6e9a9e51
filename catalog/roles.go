package catalog

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
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
	// Grants holds the privileges granted to the role on tables, views
	// and sequences, by object ID (IDs are unique across object kinds).
	Grants map[uint64]Privilege `json:"grants,omitempty"`
	// Columns holds column privileges: by table ID, then by the column's
	// store attribute (Table.AttrOf), which survives a RENAME COLUMN and
	// is never reused by a later column of the same name.
	Columns map[uint64]map[string]Privilege `json:"columns,omitempty"`
	// Schemas holds the privileges granted on schemas, by name.
	Schemas map[string]Privilege `json:"schemas,omitempty"`
	// Parameters holds SET and ALTER SYSTEM granted on run-time
	// parameters (GRANT ... ON PARAMETER; pg_parameter_acl), by the
	// parameter's lower-case name.
	Parameters map[string]Privilege `json:"parameters,omitempty"`
	// MemberOf holds the roles this one was granted (GRANT group TO
	// role), each with whether WITH ADMIN OPTION was given; membership.go.
	MemberOf map[string]bool `json:"member_of,omitempty"`
	// Comment is COMMENT ON ROLE's text (pg_shdescription).
	Comment string `json:"comment,omitempty"`
	// Settings are the session defaults ALTER ROLE SET gave the role in
	// every database, "name=value" in the order first set, as
	// pg_db_role_setting.setconfig holds them (ConfigSet);
	// DatabaseSettings those of ALTER ROLE ... IN DATABASE, by the
	// database's ID.
	Settings         []string            `json:"settings,omitempty"`
	DatabaseSettings map[uint64][]string `json:"database_settings,omitempty"`
}

// ConfigSet is config with parameter name set to value: its item replaced
// where it stands, or appended (PostgreSQL's GUCArrayAdd). Names compare
// without regard to case.
func ConfigSet(config []string, name, value string) []string {
	out := slices.Clone(config)
	for i, item := range out {
		if n, _, _ := strings.Cut(item, "="); strings.EqualFold(n, name) {
			out[i] = name + "=" + value
			return out
		}
	}
	return append(out, name+"="+value)
}

// ConfigReset is config without parameter name (nil when nothing is
// left).
func ConfigReset(config []string, name string) []string {
	var out []string
	for _, item := range config {
		if n, _, _ := strings.Cut(item, "="); !strings.EqualFold(n, name) {
			out = append(out, item)
		}
	}
	return out
}

// Clone returns a deep copy of r, for building a changed role.
func (r *Role) Clone() *Role {
	c := *r
	c.Grants = make(map[uint64]Privilege, len(r.Grants))
	for id, p := range r.Grants {
		c.Grants[id] = p
	}
	c.Columns = make(map[uint64]map[string]Privilege, len(r.Columns))
	for id, cols := range r.Columns {
		m := make(map[string]Privilege, len(cols))
		for a, p := range cols {
			m[a] = p
		}
		c.Columns[id] = m
	}
	c.Schemas = make(map[string]Privilege, len(r.Schemas))
	for n, p := range r.Schemas {
		c.Schemas[n] = p
	}
	c.Parameters = copyACL(r.Parameters)
	c.Settings = slices.Clone(r.Settings)
	c.DatabaseSettings = maps.Clone(r.DatabaseSettings) // the lists are replaced, never changed in place
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

// Owned describes the objects of the database role owns, as DROP ROLE's
// detail lists them ("owner of table t"), schemas, types and routines
// first, each kind in the catalog's order (SharedDeps adds the databases).
func (s *Snapshot) Owned(role string) []string {
	var out []string
	for _, sc := range s.Schemas() {
		if sc.Owner == role {
			out = append(out, "owner of schema "+sc.Name)
		}
	}
	for _, u := range s.UserTypes() {
		if u.Owner == role && !u.Multirange {
			out = append(out, "owner of type "+u.Name)
		}
	}
	for _, f := range s.AllFunctions() {
		if f.Owner == role {
			out = append(out, "owner of function "+f.Description())
		}
	}
	for _, o := range s.AllOperators() {
		if o.Owner == role {
			out = append(out, "owner of operator "+o.Description())
		}
	}
	for _, t := range s.Tables() {
		if t.Owner == role {
			noun := "table "
			if t.IsMatview() {
				noun = "materialized view "
			}
			out = append(out, "owner of "+noun+t.Name)
		}
	}
	for _, v := range s.Views() {
		if v.Owner == role {
			out = append(out, "owner of view "+v.Name)
		}
	}
	for _, q := range s.Sequences() {
		if q.Owner == role {
			out = append(out, "owner of sequence "+q.Name)
		}
	}
	owned, _ := s.defaultACLDeps(role)
	return append(out, owned...)
}

// SharedDeps describes what role owns or holds privileges on among the
// objects every database shares: the databases themselves (and their
// languages' grants, which zproxy keeps with them).
func (s *Snapshot) SharedDeps(role string) []string {
	var out []string
	for _, d := range s.Databases() {
		if d.Owner == role {
			out = append(out, "owner of database "+d.Name)
		}
	}
	for _, d := range s.Databases() {
		if d.ACL[role] != 0 {
			out = append(out, "privileges for database "+d.Name)
		}
		for _, l := range []string{"plpgsql", "sql"} {
			if d.Languages[l][role] != 0 {
				out = append(out, "privileges for language "+l)
			}
		}
	}
	return out
}

// LargeObjectDeps describes what role holds among the large objects los,
// as DROP ROLE's detail lists them ("owner of large object 16400",
// "privileges for large object 16401").
func LargeObjectDeps(role string, los []LargeObject) []string {
	var out []string
	for _, lo := range los {
		if lo.Owner == role {
			out = append(out, fmt.Sprintf("owner of large object %d", lo.OID))
			continue
		}
		for _, g := range lo.Grants {
			if g.Role == role && g.Privs != 0 {
				out = append(out, fmt.Sprintf("privileges for large object %d", lo.OID))
				break
			}
		}
	}
	return out
}

// Granted describes the privileges role holds by grant, as DROP ROLE's
// detail lists them ("privileges for table t", "privileges for column c of
// table t", "privileges for schema public").
func (s *Snapshot) Granted(role string) []string {
	r := s.roles[role]
	if r == nil {
		return nil
	}
	var out []string
	for _, n := range sortedKeys(r.Schemas) {
		// A dropped schema's grant stays in the role until the role is
		// rewritten: it is no dependency.
		if _, live := s.Schema(n); r.Schemas[n] != 0 && live {
			out = append(out, "privileges for schema "+n)
		}
	}
	for _, f := range s.AllFunctions() {
		if slices.Contains(f.Grantees, role) {
			out = append(out, "privileges for function "+f.Description())
		}
	}
	for _, n := range sortedKeys(r.Parameters) {
		out = append(out, "privileges for parameter "+n)
	}
	for _, t := range s.Tables() {
		if r.Grants[t.ID] != 0 {
			out = append(out, "privileges for table "+t.Name)
		}
		for _, c := range t.Columns {
			if r.Columns[t.ID][c.AttrName()] != 0 {
				out = append(out, "privileges for column "+c.Name+" of table "+t.Name)
			}
		}
	}
	for _, v := range s.Views() {
		if r.Grants[v.ID] != 0 {
			out = append(out, "privileges for view "+v.Name)
		}
	}
	for _, q := range s.Sequences() {
		if r.Grants[q.ID] != 0 {
			out = append(out, "privileges for sequence "+q.Name)
		}
	}
	for _, u := range s.UserTypes() {
		if u.ACL[role] != 0 {
			out = append(out, "privileges for type "+u.Name)
		}
	}
	_, granted := s.defaultACLDeps(role)
	return append(out, granted...)
}

// PruneGrants drops r's grants on objects and columns that no longer exist
// in s, so a role rewritten by a change does not carry them on.
func (s *Snapshot) PruneGrants(r *Role) {
	live := make(map[uint64]bool, len(s.tables)+len(s.views)+len(s.sequences))
	for _, t := range s.tables {
		live[t.ID] = true
	}
	for _, v := range s.views {
		live[v.ID] = true
	}
	for _, q := range s.sequences {
		live[q.ID] = true
	}
	for id := range r.Grants {
		if !live[id] {
			delete(r.Grants, id)
		}
	}
	for id := range r.Columns {
		if !live[id] {
			delete(r.Columns, id)
		}
	}
}

// loadRoles reads every role of the catalog.
func (c *Catalog) loadRoles(ctx context.Context) (map[string]*Role, error) {
	roles := map[string]*Role{}
	start := []byte(rolePrefix)
	it := c.rw.Scan(ctx, kv.ScanRequest{Partition: c.sharedPartition(), Start: start, End: kv.PrefixEnd(start), Consistent: true})
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
func (c *Catalog) roleOps(ch Change) ([]kv.Op, error) {
	var ops []kv.Op
	for _, r := range ch.PutRoles {
		op, err := c.putDescriptorIn(c.sharedPartition(), rolePrefix+r.Name, r)
		if err != nil {
			return nil, err
		}
		ops = append(ops, op)
	}
	for _, name := range ch.DeleteRoles {
		ops = append(ops, kv.Op{Kind: kv.OpDelete, Key: kv.Key{Partition: c.sharedPartition(), Sort: []byte(rolePrefix + name)}})
	}
	return ops, nil
}

// putDescriptor is the write of a catalog item holding v as JSON.
func (c *Catalog) putDescriptor(sortKey string, v any) (kv.Op, error) {
	return c.putDescriptorIn(c.partition, sortKey, v)
}

// putDescriptorIn is putDescriptor's write in partition.
func (c *Catalog) putDescriptorIn(partition []byte, sortKey string, v any) (kv.Op, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return kv.Op{}, err
	}
	return kv.Op{Kind: kv.OpPut, Key: kv.Key{Partition: partition, Sort: []byte(sortKey)},
		Attrs: []kv.Attr{{Name: descAttr, Kind: kv.AttrBytes, B: data}}}, nil
}

// ParameterPrivileges is what role holds on the run-time parameter name
// (lower case): SET and ALTER SYSTEM for a superuser, else what was
// granted to it, PUBLIC and the roles it is a member of.
func (s *Snapshot) ParameterPrivileges(role, name string) Privilege {
	if s.isSuperuser(role) {
		return KindParameter.All()
	}
	var p Privilege
	for _, r := range s.rolesOf(role) {
		if g := s.roles[r]; g != nil {
			p |= g.Parameters[name]
		}
	}
	return p
}

// ParameterACL is pg_parameter_acl: by parameter, its grantees' privileges
// (PUBLIC's under PublicRole), for the parameters granted on.
func (s *Snapshot) ParameterACL() map[string]map[string]Privilege {
	out := map[string]map[string]Privilege{}
	for name, r := range s.roles {
		for n, p := range r.Parameters {
			if p == 0 {
				continue
			}
			if out[n] == nil {
				out[n] = map[string]Privilege{}
			}
			out[n][name] = p
		}
	}
	return out
}

func sortedKeys(m map[string]Privilege) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
