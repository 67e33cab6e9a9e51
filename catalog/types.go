package catalog

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
)

// User-defined types. CREATE TYPE ... AS ENUM stores a UserType descriptor
// under typePrefix. Columns of the type store it in their sqltypes.Type by
// OID only (sqltypes.Type's JSON form); loading a snapshot links every such
// column to the snapshot's definition, so a value decodes, compares and
// prints through the labels of the schema version that reads it.

const typePrefix = "y/"

// UserType is a type created by CREATE TYPE (an enum) or CREATE DOMAIN.
type UserType struct {
	// Name is the type's name; OID and ArrayOID are also Enum's or
	// Domain's.
	Name     string `json:"name"`
	OID      uint32 `json:"oid"`
	ArrayOID uint32 `json:"array_oid"`
	Owner    string `json:"owner,omitempty"`
	Comment  string `json:"comment,omitempty"`
	// Enum is the definition of an enum type.
	Enum *sqltypes.EnumType `json:"enum,omitempty"`
	// Domain is the definition of a domain.
	Domain *sqltypes.DomainType `json:"domain,omitempty"`
	// Composite is the definition of a composite type (CREATE TYPE ...
	// AS (...)); its attributes' types are stored as columns' are.
	Composite *sqltypes.CompositeType `json:"composite,omitempty"`
	// Range is the definition of a range type (CREATE TYPE ... AS
	// RANGE), which also names and numbers its multirange type.
	Range *sqltypes.RangeType `json:"range,omitempty"`
	// ACL holds the privileges granted on the type by grantee
	// (PublicRole for PUBLIC); nil until a GRANT or REVOKE names it, when
	// PostgreSQL's default holds (DefaultTypeACL).
	ACL map[string]Privilege `json:"acl,omitempty"`
	// Multirange marks the multirange type of Range, which the snapshot
	// finds by its name (UserType) but never stores on its own.
	Multirange bool `json:"-"`
}

// Clone returns a copy of t that shares nothing a change may modify.
func (t *UserType) Clone() *UserType {
	c := *t
	if t.Enum != nil {
		e := *t.Enum
		e.Labels = slices.Clone(t.Enum.Labels)
		c.Enum = &e
	}
	if t.Domain != nil {
		c.Domain = t.Domain.Clone()
	}
	if t.Composite != nil {
		comp := *t.Composite
		comp.Fields = slices.Clone(t.Composite.Fields)
		c.Composite = &comp
	}
	if t.Range != nil {
		r := *t.Range
		c.Range = &r
	}
	return &c
}

// Type returns the SQL type of t.
func (t *UserType) Type() sqltypes.Type {
	if t.Domain != nil {
		return sqltypes.DomainOf(t.Domain)
	}
	if t.Composite != nil {
		return sqltypes.CompositeOf(t.Composite)
	}
	if t.Range != nil && t.Multirange {
		return sqltypes.MultirangeOfUser(t.Range)
	}
	if t.Range != nil {
		return sqltypes.RangeOf(t.Range)
	}
	return sqltypes.EnumOf(t.Enum)
}

// DefaultTypeACL is acldefault('T', owner): PUBLIC and the owner may use
// the type.
func DefaultTypeACL(owner string) map[string]Privilege {
	return map[string]Privilege{PublicRole: PrivUsage, owner: PrivUsage}
}

// WithACL returns a copy of t whose ACL is its own map, for building a
// changed type: the default ACL of owner (t's owner, named) when t had
// none.
func (t *UserType) WithACL(owner string) *UserType {
	c := *t
	if t.ACL == nil {
		c.ACL = DefaultTypeACL(owner)
	} else {
		c.ACL = copyACL(t.ACL)
	}
	return &c
}

// ACLItems is typacl, t owned by owner: nil (NULL) until something was
// granted, else PUBLIC's entry, the owner's and the other grantees' by
// name.
func (t *UserType) ACLItems(owner string) []string {
	if t.ACL == nil {
		return nil
	}
	return DefaultACLItems(t.ACL, owner)
}

// TypePrivileges is what role holds on the user-defined type t, owned by
// owner: everything for a superuser, else what its ACL gives the role,
// PUBLIC and the roles it is a member of.
func (s *Snapshot) TypePrivileges(role string, t *UserType, owner string) Privilege {
	if s.isSuperuser(role) {
		return KindType.All()
	}
	acl := t.ACL
	if acl == nil {
		acl = DefaultTypeACL(owner)
	}
	var p Privilege
	for _, r := range s.rolesOf(role) {
		p |= acl[r]
	}
	return p
}

// UserType returns the user-defined type a name denotes: a key
// ("schema.name", or a bare name in public) as it is, an unqualified name
// through the snapshot's search path (ResolveType).
func (s *Snapshot) UserType(name string) (*UserType, bool) {
	key := s.ResolveType(name)
	if key == name && s.pathSet && strings.IndexByte(name, '.') < 0 && !slices.Contains(s.path, PublicSchema) {
		return nil, false // no schema of the path has it (public's is not on it)
	}
	return s.UserTypeByKey(key)
}

// UserTypeByKey returns the user-defined type stored under key exactly,
// never through the search path: a range type's multirange type too
// (Multirange set).
func (s *Snapshot) UserTypeByKey(key string) (*UserType, bool) {
	key = strings.TrimPrefix(key, PublicSchema+".") // public's keys are bare
	if t, ok := s.types[key]; ok {
		return t, ok
	}
	for _, t := range s.types {
		if t.Range != nil && t.Range.MultiName == key {
			m := *t
			m.Name, m.OID, m.ArrayOID, m.Multirange, m.Comment = key, t.Range.MultiOID, t.Range.MultiArrayOID, true, ""
			return &m, true
		}
	}
	return nil, false
}

// UserTypes returns the user-defined types sorted by name.
func (s *Snapshot) UserTypes() []*UserType {
	out := make([]*UserType, 0, len(s.types))
	for _, t := range s.types {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// TypeUsers returns the tables with a column of the user-defined type
// (or an array of it), sorted by name.
func (s *Snapshot) TypeUsers(oid uint32) []*Table {
	var out []*Table
	for _, t := range s.Tables() {
		if TypeColumn(t, oid) >= 0 {
			out = append(out, t)
		}
	}
	return out
}

// TypeColumn is the ordinal of t's first column of the user-defined type
// (or an array of it), or -1.
func TypeColumn(t *Table, oid uint32) int {
	for i, c := range t.Columns {
		if c.Type.UDT() == oid {
			return i
		}
	}
	return -1
}

// DomainsOver returns the domains created over the user-defined type (or
// an array of it), sorted by name.
func (s *Snapshot) DomainsOver(oid uint32) []*UserType {
	var out []*UserType
	for _, u := range s.UserTypes() {
		if u.Domain != nil && u.Domain.Base.UDT() == oid {
			out = append(out, u)
		}
	}
	return out
}

func (c *Catalog) loadTypes(ctx context.Context) (map[string]*UserType, error) {
	types := map[string]*UserType{}
	start := []byte(typePrefix)
	it := c.rw.Scan(ctx, kv.ScanRequest{Partition: c.partition, Start: start, End: kv.PrefixEnd(start), Consistent: true})
	defer it.Close()
	for it.Next() {
		var t UserType
		if err := decodeDesc(it.Item(), &t); err != nil {
			return nil, err
		}
		types[t.Name] = &t
	}
	if err := it.Err(); err != nil {
		return nil, fmt.Errorf("catalog: reading types: %w", err)
	}
	linkDomains(types)
	return types, nil
}

// linkDomains points every domain's base type at the definitions in
// types, and gives the domains what binds their CHECKs: a snapshot of the
// types (a CHECK reads no relation).
func linkDomains(types map[string]*UserType) {
	linkTypesOf(types, types)
}

// linkTypesOf links the types of those made of user-defined types to the
// definitions in types (by OID), in place.
func linkTypesOf(those, types map[string]*UserType) {
	links := typesByOID(types)
	env := &Snapshot{types: types}
	for _, u := range those {
		if d := u.Domain; d != nil {
			d.Base, _ = links.link(d.Base)
			d.Env = env
		}
		if r := u.Range; r != nil {
			r.Subtype, _ = links.link(r.Subtype)
		}
		if c := u.Composite; c != nil {
			for i := range c.Fields {
				c.Fields[i].Type, _ = links.link(c.Fields[i].Type)
			}
		}
	}
}

// linkTypes points the columns of t that hold a user-defined type at the
// definitions in types (by OID). It changes t in place when shared is
// false; otherwise it returns a clone if anything needs linking. A type
// that is not there (a temporary table's, before it is seen with the
// permanent schema) stays as it is.
func linkTypes(t *Table, types *typeLinks, shared bool) *Table {
	for i, col := range t.Columns {
		typ, changed := types.link(col.Type)
		if !changed {
			continue
		}
		if shared {
			t, shared = t.Clone(), false
		}
		t.Columns[i].Type = typ
	}
	return t
}

// typeLinks are the enum and domain definitions of a snapshot's types,
// by OID.
type typeLinks struct {
	enums      map[uint32]*sqltypes.EnumType
	domains    map[uint32]*sqltypes.DomainType
	composites map[uint32]*sqltypes.CompositeType
	ranges     map[uint32]*sqltypes.RangeType
}

// typesByOID indexes the definitions of types.
func typesByOID(types map[string]*UserType) *typeLinks {
	l := &typeLinks{enums: map[uint32]*sqltypes.EnumType{}, domains: map[uint32]*sqltypes.DomainType{}, composites: map[uint32]*sqltypes.CompositeType{}, ranges: map[uint32]*sqltypes.RangeType{}}
	for _, t := range types {
		if t.Enum != nil {
			l.enums[t.OID] = t.Enum
		}
		if t.Domain != nil {
			l.domains[t.OID] = t.Domain
		}
		if t.Composite != nil {
			l.composites[t.OID] = t.Composite
		}
		if t.Range != nil {
			l.ranges[t.OID] = t.Range
		}
	}
	return l
}

// link returns t with its enum and domain pointing at the definitions of
// l, and whether that changed it. A domain's type takes the domain's
// base type's fields (its enum's labels among them).
func (l *typeLinks) link(t sqltypes.Type) (sqltypes.Type, bool) {
	changed := false
	if t.Domain != nil {
		if d, ok := l.domains[t.Domain.OID]; ok && d != t.Domain {
			t.Domain, changed = d, true
		}
	}
	if t.Enum != nil {
		if e, ok := l.enums[t.Enum.OID]; ok && e != t.Enum {
			t = t.WithEnum(e)
			changed = true
		}
	}
	if t.Composite.Named() {
		if c, ok := l.composites[t.Composite.OID]; ok && c != t.Composite {
			t.Composite, changed = c, true
		}
	}
	if t.Range != nil {
		if r, ok := l.ranges[t.Range.OID]; ok && r != t.Range {
			t.Range, changed = r, true
		}
	}
	return t, changed
}

func (c *Catalog) typeOps(ch Change) ([]kv.Op, error) {
	var ops []kv.Op
	for _, t := range ch.PutTypes {
		op, err := c.putDescriptor(typePrefix+t.Name, t)
		if err != nil {
			return nil, err
		}
		ops = append(ops, op)
	}
	for _, name := range ch.DeleteTypes {
		ops = append(ops, kv.Op{Kind: kv.OpDelete, Key: kv.Key{Partition: c.partition, Sort: []byte(typePrefix + name)}})
	}
	return ops, nil
}

// CheckRelationName refuses a new relation's name that a user-defined
// type has: a relation's row type takes its name in pg_type (42710, as
// PostgreSQL reports it).
func (s *Snapshot) CheckRelationName(name string) error {
	if _, ok := s.types[name]; ok {
		return pgerr.New(pgerr.DuplicateObject, "type \"%s\" already exists", name).
			WithHint("A relation has an associated type of the same name, so you must use a name that doesn't conflict with any existing type.")
	}
	return nil
}
