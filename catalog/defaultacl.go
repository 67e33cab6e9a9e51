package catalog

import (
	"context"
	"fmt"
	"sort"

	"github.com/zproxy/zproxy/kv"
)

// Default privileges (ALTER DEFAULT PRIVILEGES, pg_default_acl). Each is a
// DefaultACL descriptor of the database's catalog under defaultACLPrefix,
// keyed by role, schema and object type as PostgreSQL's unique index is.
// A global entry (no schema) holds the whole ACL new objects of the role
// start from, its owner's entry included; a schema's entry holds only what
// is added there. When the role creates an object, Update merges the two
// into the grants of the new object (WithDefaultACLs), as PostgreSQL's
// get_user_default_acl does.

const defaultACLPrefix = "da/"

// Default ACL object types: pg_default_acl.defaclobjtype.
const (
	DefaultACLTables    byte = 'r'
	DefaultACLSequences byte = 'S'
	DefaultACLFunctions byte = 'f'
	DefaultACLTypes     byte = 'T'
	DefaultACLSchemas   byte = 'n'
)

// DefaultACL is one row of pg_default_acl.
type DefaultACL struct {
	// ID is the catalog change that created the entry and Slot its place
	// among the entries that change created: the row's OID.
	ID   uint64 `json:"id"`
	Slot uint32 `json:"slot,omitempty"`
	Role string `json:"role"`
	// Schema is "" for the role's global entry.
	Schema  string `json:"schema,omitempty"`
	ObjType byte   `json:"objtype"`
	// ACL holds the privileges by grantee (PublicRole for PUBLIC).
	ACL map[string]Privilege `json:"acl"`
}

// Key is the entry's catalog key.
func (d *DefaultACL) Key() string { return DefaultACLKey(d.Role, d.Schema, d.ObjType) }

// DefaultACLKey is the key of role's entry for objtype in schema.
func DefaultACLKey(role, schema string, objtype byte) string {
	return role + "\x00" + schema + "\x00" + string(objtype)
}

// BuiltinDefaultACL is acldefault(objtype, owner) as privileges by grantee:
// the owner holds everything, PUBLIC EXECUTE on functions and USAGE on
// types.
func BuiltinDefaultACL(objtype byte, owner string) map[string]Privilege {
	acl := map[string]Privilege{owner: DefaultACLPrivileges(objtype)}
	switch objtype {
	case DefaultACLFunctions:
		acl[PublicRole] = PrivExecute
	case DefaultACLTypes:
		acl[PublicRole] = PrivUsage
	}
	return acl
}

// DefaultACLPrivileges is what ALL PRIVILEGES means for objtype.
func DefaultACLPrivileges(objtype byte) Privilege {
	switch objtype {
	case DefaultACLSequences:
		return KindSequence.All()
	case DefaultACLFunctions:
		return PrivExecute
	case DefaultACLTypes:
		return PrivUsage
	case DefaultACLSchemas:
		return KindSchema.All()
	}
	return KindTable.All()
}

// DefaultACLItems prints acl as aclitem[] text, granted by owner: PUBLIC,
// the owner, then the other roles by name. PostgreSQL sorts a default ACL
// by the grantees' OIDs (PUBLIC's 0 first); zproxy's role OIDs are hashes,
// so it puts the owner next, as a role usually predates those it grants
// to (the bootstrap superuser's OID 10 always does).
func DefaultACLItems(acl map[string]Privilege, owner string) []string {
	items := []string{}
	if p := acl[PublicRole]; p != 0 {
		items = append(items, ACLItem("", p.ACLLetters(), owner))
	}
	if p := acl[owner]; p != 0 && owner != PublicRole {
		items = append(items, ACLItem(owner, p.ACLLetters(), owner))
	}
	for _, n := range DefaultACLItemsGrantees(acl, owner) {
		items = append(items, ACLItem(n, acl[n].ACLLetters(), owner))
	}
	return items
}

// DefaultACLs returns the database's default privileges, by role, schema
// and type.
func (s *Snapshot) DefaultACLs() []*DefaultACL {
	if s.perm != nil {
		return s.perm.DefaultACLs()
	}
	out := make([]*DefaultACL, 0, len(s.defaultACLs))
	for _, d := range s.defaultACLs {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	return out
}

// DefaultACL returns role's entry for objtype in schema ("": global).
func (s *Snapshot) DefaultACL(role, schema string, objtype byte) (*DefaultACL, bool) {
	if s.perm != nil {
		return s.perm.DefaultACL(role, schema, objtype)
	}
	d, ok := s.defaultACLs[DefaultACLKey(role, schema, objtype)]
	return d, ok
}

// NewObjectACL is the ACL an object of objtype that owner creates in
// schema starts with (PostgreSQL's get_user_default_acl): nil when no
// default privileges apply or they amount to the built-in default, else
// privileges by grantee.
func (s *Snapshot) NewObjectACL(owner, schema string, objtype byte) map[string]Privilege {
	glob, gok := s.DefaultACL(owner, "", objtype)
	var sch *DefaultACL
	sok := false
	if objtype != DefaultACLSchemas {
		sch, sok = s.DefaultACL(owner, schema, objtype)
	}
	if !gok && !sok {
		return nil
	}
	acl := BuiltinDefaultACL(objtype, owner)
	if gok {
		acl = copyACL(glob.ACL)
	}
	if sok {
		for g, p := range sch.ACL {
			acl[g] |= p
		}
	}
	if equalACL(acl, BuiltinDefaultACL(objtype, owner)) {
		return nil
	}
	return acl
}

func copyACL(acl map[string]Privilege) map[string]Privilege {
	out := make(map[string]Privilege, len(acl))
	for g, p := range acl {
		if p != 0 {
			out[g] = p
		}
	}
	return out
}

// equalACL reports whether a and b hold the same privileges.
func equalACL(a, b map[string]Privilege) bool {
	a, b = copyACL(a), copyACL(b)
	if len(a) != len(b) {
		return false
	}
	for g, p := range a {
		if b[g] != p {
			return false
		}
	}
	return true
}

// EqualDefaultACL reports whether acl is what an entry of objtype for
// owner in schema ("" global) holds when it says nothing: the built-in
// default globally, nothing in a schema. Such an entry is removed.
func EqualDefaultACL(acl map[string]Privilege, objtype byte, owner, schema string) bool {
	if schema == "" {
		return equalACL(acl, BuiltinDefaultACL(objtype, owner))
	}
	return len(copyACL(acl)) == 0
}

// WithDefaultACLs adds to ch the grants that default privileges give the
// objects ch creates (tables, views, sequences, functions and schemas not
// in s): the grantees' roles join ch.PutRoles, a function's grants its
// descriptor.
func (s *Snapshot) WithDefaultACLs(ch Change) Change {
	if len(s.DefaultACLs()) == 0 {
		return ch
	}
	roles := map[string]*Role{}
	role := func(name string) *Role {
		if r := roles[name]; r != nil {
			return r
		}
		for _, r := range ch.PutRoles {
			if r.Name == name {
				roles[name] = r
				return r
			}
		}
		var r *Role
		if old := s.roles[name]; old != nil {
			r = old.Clone()
		} else if name == PublicRole {
			r = (&Role{Name: PublicRole}).Clone()
		} else {
			return nil
		}
		roles[name] = r
		ch.PutRoles = append(ch.PutRoles, r)
		return r
	}
	grant := func(id uint64, key, owner string, objtype byte) {
		schema, _ := SplitName(key)
		for g, p := range s.NewObjectACL(owner, schema, objtype) {
			if g == owner {
				continue
			}
			if r := role(g); r != nil && p != 0 {
				r.Grants[id] |= p
			}
		}
	}
	existing := map[uint64]bool{}
	for _, t := range s.tables {
		existing[t.ID] = true
	}
	for _, v := range s.views {
		existing[v.ID] = true
	}
	for _, q := range s.sequences {
		existing[q.ID] = true
	}
	for _, t := range ch.Put {
		if !existing[t.ID] && t.Owner != "" {
			grant(t.ID, t.Name, t.Owner, DefaultACLTables)
		}
	}
	for _, v := range ch.PutViews {
		if !existing[v.ID] && v.Owner != "" {
			grant(v.ID, v.Name, v.Owner, DefaultACLTables)
		}
	}
	for _, q := range ch.PutSequences {
		if !existing[q.ID] && q.Owner != "" {
			grant(q.ID, q.Name, q.Owner, DefaultACLSequences)
		}
	}
	for _, sc := range ch.PutSchemas {
		if _, ok := s.schemas[sc.Name]; ok || sc.Owner == "" {
			continue
		}
		for g, p := range s.NewObjectACL(sc.Owner, "", DefaultACLSchemas) {
			if r := role(g); r != nil && g != sc.Owner && p != 0 {
				r.Schemas[sc.Name] |= p
			}
		}
	}
	for _, f := range ch.PutFunctions {
		if _, ok := s.FunctionByOID(f.OID); ok || f.Owner == "" {
			continue
		}
		schema, _ := SplitName(f.Name)
		acl := s.NewObjectACL(f.Owner, schema, DefaultACLFunctions)
		if acl == nil {
			continue
		}
		f.PublicRevoked = acl[PublicRole]&PrivExecute == 0
		f.Grantees = nil
		for _, g := range DefaultACLItemsGrantees(acl, f.Owner) {
			if acl[g]&PrivExecute != 0 {
				f.Grantees = append(f.Grantees, g)
			}
		}
	}
	return ch
}

// DefaultACLItemsGrantees lists acl's grantees other than owner and
// PUBLIC, by name.
func DefaultACLItemsGrantees(acl map[string]Privilege, owner string) []string {
	var out []string
	for g, p := range acl {
		if g != owner && g != PublicRole && p != 0 {
			out = append(out, g)
		}
	}
	sort.Strings(out)
	return out
}

// defaultACLDeps describes the default privileges that keep role from
// being dropped, as DROP ROLE's detail lists them: those belonging to it
// ("owner of default privileges on new relations belonging to role r"),
// and those granting it something ("privileges for default privileges
// ...").
func (s *Snapshot) defaultACLDeps(role string) (owned, granted []string) {
	nouns := map[byte]string{DefaultACLTables: "relations", DefaultACLSequences: "sequences", DefaultACLFunctions: "functions",
		DefaultACLTypes: "types", DefaultACLSchemas: "schemas"}
	for _, d := range s.DefaultACLs() {
		what := "default privileges on new " + nouns[d.ObjType] + " belonging to role " + d.Role
		if d.Schema != "" {
			what += " in schema " + d.Schema
		}
		switch {
		case d.Role == role:
			owned = append(owned, "owner of "+what)
		case d.ACL[role] != 0:
			granted = append(granted, "privileges for "+what)
		}
	}
	return owned, granted
}

func (c *Catalog) loadDefaultACLs(ctx context.Context) (map[string]*DefaultACL, error) {
	out := map[string]*DefaultACL{}
	start := []byte(defaultACLPrefix)
	it := c.rw.Scan(ctx, kv.ScanRequest{Partition: c.partition, Start: start, End: kv.PrefixEnd(start), Consistent: true})
	defer it.Close()
	for it.Next() {
		var d DefaultACL
		if err := decodeDesc(it.Item(), &d); err != nil {
			return nil, err
		}
		out[d.Key()] = &d
	}
	if err := it.Err(); err != nil {
		return nil, fmt.Errorf("catalog: reading default privileges: %w", err)
	}
	return out, nil
}

func (c *Catalog) defaultACLOps(ch Change) ([]kv.Op, error) {
	var ops []kv.Op
	for _, d := range ch.PutDefaultACLs {
		op, err := c.putDescriptor(defaultACLPrefix+d.Key(), d)
		if err != nil {
			return nil, err
		}
		ops = append(ops, op)
	}
	for _, key := range ch.DeleteDefaultACLs {
		ops = append(ops, kv.Op{Kind: kv.OpDelete, Key: kv.Key{Partition: c.partition, Sort: []byte(defaultACLPrefix + key)}})
	}
	return ops, nil
}
