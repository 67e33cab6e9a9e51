package catalog

import (
	"strings"
)

// Privileges, as PostgreSQL has them: a role holds a privilege on an
// object when it is a superuser, owns the object, or was granted it (itself
// or through PUBLIC). Tables, views and sequences are granted by object ID
// in Role.Grants, their columns in Role.Columns, schemas by name in
// Role.Schemas. The checks that decide what a statement needs live with the
// statement (planner.Permissions) and the session; this file only answers
// "what does this role hold here".

// Privilege is a set of privileges on one object.
type Privilege uint16

// The privileges, with PostgreSQL's aclitem letters (see ACLLetters).
const (
	PrivSelect      Privilege = 1 << iota // r
	PrivInsert                            // a
	PrivUpdate                            // w
	PrivDelete                            // d
	PrivTruncate                          // D
	PrivReferences                        // x
	PrivTrigger                           // t
	PrivUsage                             // U
	PrivCreate                            // C
	PrivExecute                           // X (functions; default privileges)
	PrivTemporary                         // T (databases)
	PrivConnect                           // c (databases)
	PrivSet                               // s (parameters)
	PrivAlterSystem                       // A (parameters)

	// PrivAll is ALL [PRIVILEGES]: what it grants depends on the object
	// (ObjectKind.All).
	PrivAll = PrivSelect | PrivInsert | PrivUpdate | PrivDelete | PrivTruncate | PrivReferences | PrivTrigger | PrivUsage | PrivCreate
)

// privilegeNames lists the privileges in PostgreSQL's order (the order of
// aclitem's letters and of error messages).
var privilegeNames = []struct {
	p      Privilege
	name   string
	letter byte
}{
	{PrivInsert, "INSERT", 'a'}, {PrivSelect, "SELECT", 'r'}, {PrivUpdate, "UPDATE", 'w'},
	{PrivDelete, "DELETE", 'd'}, {PrivTruncate, "TRUNCATE", 'D'}, {PrivReferences, "REFERENCES", 'x'},
	{PrivTrigger, "TRIGGER", 't'}, {PrivExecute, "EXECUTE", 'X'}, {PrivUsage, "USAGE", 'U'}, {PrivCreate, "CREATE", 'C'},
	{PrivTemporary, "TEMPORARY", 'T'}, {PrivConnect, "CONNECT", 'c'},
	{PrivSet, "SET", 's'}, {PrivAlterSystem, "ALTER SYSTEM", 'A'},
}

// String lists the privileges of p ("INSERT, SELECT").
func (p Privilege) String() string {
	var names []string
	for _, n := range privilegeNames {
		if p&n.p != 0 {
			names = append(names, n.name)
		}
	}
	return strings.Join(names, ", ")
}

// ACLLetters spells p as an aclitem does ("arwd").
func (p Privilege) ACLLetters() string {
	var b strings.Builder
	for _, n := range privilegeNames {
		if p&n.p != 0 {
			b.WriteByte(n.letter)
		}
	}
	return b.String()
}

// ParsePrivilege reads one privilege keyword (case-insensitive); ALL
// [PRIVILEGES] is PrivAll, TEMP is TEMPORARY.
func ParsePrivilege(s string) (Privilege, bool) {
	s = strings.ToUpper(s)
	if s == "ALL" || s == "ALL PRIVILEGES" {
		return PrivAll, true
	}
	if s == "TEMP" {
		return PrivTemporary, true
	}
	for _, n := range privilegeNames {
		if n.name == s {
			return n.p, true
		}
	}
	return 0, false
}

// ObjectKind is a kind of object privileges are granted on.
type ObjectKind uint8

// Object kinds.
const (
	KindTable ObjectKind = iota
	KindView
	KindSequence
	KindSchema
	KindLargeObject
	KindDatabase
	KindType
	KindLanguage
	KindParameter
)

// All is what ALL PRIVILEGES grants on an object of the kind.
func (k ObjectKind) All() Privilege {
	switch k {
	case KindSequence:
		return PrivUsage | PrivSelect | PrivUpdate
	case KindSchema:
		return PrivUsage | PrivCreate
	case KindLargeObject:
		return PrivSelect | PrivUpdate
	case KindDatabase:
		return PrivCreate | PrivTemporary | PrivConnect
	case KindType, KindLanguage:
		return PrivUsage
	case KindParameter:
		return PrivSet | PrivAlterSystem
	}
	return PrivSelect | PrivInsert | PrivUpdate | PrivDelete | PrivTruncate | PrivReferences | PrivTrigger
}

// Noun is the kind's name in PostgreSQL's messages ("permission denied for
// sequence s").
func (k ObjectKind) Noun() string {
	switch k {
	case KindView:
		return "view"
	case KindSequence:
		return "sequence"
	case KindSchema:
		return "schema"
	case KindLargeObject:
		return "large object"
	case KindDatabase:
		return "database"
	case KindType:
		return "type"
	case KindLanguage:
		return "language"
	case KindParameter:
		return "parameter"
	}
	return "table"
}

// PublicSchema is the one schema users create objects in. As in PostgreSQL
// 15 it belongs to the database owner (here: the superusers); PUBLIC may use
// it but not create in it unless granted CREATE.
const PublicSchema = "public"

// rolesOf returns role and every role it is a member of, directly or
// through others (membership.go): every zproxy role inherits, so it holds
// the privileges of each, and PUBLIC's.
func (s *Snapshot) rolesOf(role string) []string {
	out := []string{role}
	seen := map[string]bool{role: true}
	for i := 0; i < len(out); i++ {
		for g := range s.directGroups(out[i]) {
			if !seen[g] {
				seen[g] = true
				out = append(out, g)
			}
		}
	}
	if !seen[PublicRole] {
		out = append(out, PublicRole)
	}
	return out
}

// isSuperuser reports whether role exists and is a superuser.
func (s *Snapshot) isSuperuser(role string) bool {
	r := s.roles[role]
	return r != nil && r.Superuser && role != PublicRole
}

// ObjectPrivileges returns the privileges role holds on the table, view or
// sequence id owned by owner: every privilege of kind for a superuser or
// the owner (or a member of the owning role), otherwise those granted to it,
// to a role it is a member of, or to PUBLIC, and what pg_read_all_data
// (SELECT) and pg_write_all_data (INSERT, UPDATE, DELETE) give their
// members.
func (s *Snapshot) ObjectPrivileges(role string, kind ObjectKind, id uint64, owner string) Privilege {
	if s.isSuperuser(role) {
		return kind.All()
	}
	var p Privilege
	for _, r := range s.rolesOf(role) {
		switch {
		case owner != "" && r == owner:
			return kind.All()
		case r == RoleReadAllData:
			p |= PrivSelect
		case r == RoleWriteAllData:
			p |= PrivInsert | PrivUpdate | PrivDelete
		}
		if g := s.roles[r]; g != nil {
			p |= g.Grants[id]
		}
	}
	return p & kind.All()
}

// Privileges returns the table privileges role holds on t. A relation
// zproxy computes answers SELECT here; the statement check and the
// has_*_privilege functions decide those by initdb's ACLs
// (pgcatalog.SystemPrivileges), which this package does not hold.
func (s *Snapshot) Privileges(role string, t *Table) Privilege {
	if t.Virtual != nil {
		return PrivSelect
	}
	return s.ObjectPrivileges(role, KindTable, t.ID, t.Owner)
}

// Allowed reports whether role holds every privilege of p on t.
func (s *Snapshot) Allowed(role string, t *Table, p Privilege) bool {
	return s.Privileges(role, t)&p == p
}

// ViewPrivileges returns the privileges role holds on view v.
func (s *Snapshot) ViewPrivileges(role string, v *View) Privilege {
	return s.ObjectPrivileges(role, KindView, v.ID, v.Owner)
}

// SequencePrivileges returns the privileges role holds on sequence q.
func (s *Snapshot) SequencePrivileges(role string, q *Sequence) Privilege {
	return s.ObjectPrivileges(role, KindSequence, q.ID, q.Owner)
}

// ColumnPrivileges returns the privileges role holds on column attr of the
// relation id (a table or view) through column grants (its own, its
// groups' and PUBLIC's) only; a table-level privilege covers every column
// and is checked apart.
func (s *Snapshot) ColumnPrivileges(role string, id uint64, attr string) Privilege {
	var p Privilege
	for _, r := range s.rolesOf(role) {
		if g := s.roles[r]; g != nil {
			p |= g.Columns[id][attr]
		}
	}
	return p
}

// AnyColumnPrivilege reports whether role holds p on at least one column of
// relation id through column grants (PostgreSQL's ACLMASK_ANY: what a
// statement that names no column of a table needs, SELECT count(*)).
func (s *Snapshot) AnyColumnPrivilege(role string, id uint64, p Privilege) bool {
	for _, r := range s.rolesOf(role) {
		g := s.roles[r]
		if g == nil {
			continue
		}
		for _, cp := range g.Columns[id] {
			if cp&p == p {
				return true
			}
		}
	}
	return false
}

// SchemaPrivileges returns the privileges role holds on a schema. The
// catalog schemas may be used by everyone and created in by no one;
// public may be used by everyone and created in by superusers and those
// granted CREATE; a user schema's owner holds USAGE and CREATE, others
// what they were granted.
func (s *Snapshot) SchemaPrivileges(role, schema string) Privilege {
	sc, user := s.Schema(schema)
	if schema != PublicSchema && !user {
		return PrivUsage
	}
	if s.isSuperuser(role) || user && sc.Owner != "" && s.IsMemberOf(role, sc.Owner) {
		return KindSchema.All()
	}
	// A user schema grants nothing to PUBLIC until GRANT says so.
	var p Privilege
	if !user {
		p = PrivUsage
	}
	for _, r := range s.rolesOf(role) {
		if g := s.roles[r]; g != nil {
			p |= g.Schemas[schema]
		}
	}
	return p
}

// HoldsGrants reports whether role holds any grant at all (DROP ROLE's
// dependency check names them).
func (r *Role) HoldsGrants() bool {
	return len(r.Grants) > 0 || len(r.Columns) > 0 || len(r.Schemas) > 0
}

// TableByID returns the table with object ID id, or nil.
func (s *Snapshot) TableByID(id uint64) *Table {
	for _, t := range s.tables {
		if t.ID == id {
			return t
		}
	}
	return nil
}
