package catalog

import (
	"context"
	"encoding/binary"
	"fmt"
	"sort"

	"github.com/zproxy/zproxy/kv"
)

// The registry of databases. A store holds any number of databases; each
// is its own catalog and data under a key prefix (kv/kvprefix), but the
// registry, like the roles, is the store's: its items live in the shared
// partition under databasePrefix, one per database, keyed by its ID, and
// change with the version markers, so every proxy and every database's
// catalog sees one registry.
//
// The first database (ID FirstDatabaseID) is the one a store held before
// there were several: it keeps the unprefixed layout and needs no item;
// one is written when it is altered (renamed, given an owner or
// settings). Every other database's ID is the catalog version that
// created it, so no ID is ever used twice, and its data lies under
// kvprefix.Prefix(ID).
const databasePrefix = "d/"

// FirstDatabaseID is the ID of a store's first database.
const FirstDatabaseID = 0

// Database describes one database of the store.
type Database struct {
	ID   uint64 `json:"id"`
	Name string `json:"name"`
	// Owner is the owning role; empty for the first database until
	// ALTER DATABASE OWNER TO names one (the bootstrap superuser owns it).
	Owner string `json:"owner,omitempty"`
	// IsTemplate, AllowConn and ConnLimit are pg_database's
	// datistemplate, datallowconn and datconnlimit (-1: no limit).
	IsTemplate bool `json:"is_template,omitempty"`
	AllowConn  bool `json:"allow_conn"`
	ConnLimit  int  `json:"conn_limit"`
	// Settings are the run-time parameters ALTER DATABASE SET gave the
	// database's new sessions, by name.
	Settings map[string]string `json:"settings,omitempty"`
	// ACL holds the privileges granted on the database by grantee
	// (PublicRole for PUBLIC); nil until a GRANT or REVOKE names it, when
	// PostgreSQL's default holds (DefaultDatabaseACL).
	ACL map[string]Privilege `json:"acl,omitempty"`
	// Languages hold the privileges granted on the database's trusted
	// procedural languages (lanacl), by language name and grantee; a
	// language without an entry has PostgreSQL's default (DefaultTypeACL's
	// shape: PUBLIC and the owner may use it).
	Languages map[string]map[string]Privilege `json:"languages,omitempty"`
	// Comment is COMMENT ON DATABASE's text (pg_shdescription).
	Comment string `json:"comment,omitempty"`
}

// LanguageACL is the ACL of language in d, owned by owner (the bootstrap
// superuser), for changing: a copy, the default when none was granted.
func (d *Database) LanguageACL(language, owner string) map[string]Privilege {
	if acl, ok := d.Languages[language]; ok {
		return copyACL(acl)
	}
	return map[string]Privilege{PublicRole: PrivUsage, owner: PrivUsage}
}

// LanguageACLItems is lanacl: nil (NULL) until something was granted on
// the language, else PUBLIC's entry, the owner's and the others' by name.
func (d *Database) LanguageACLItems(language, owner string) []string {
	acl, ok := d.Languages[language]
	if !ok {
		return nil
	}
	return DefaultACLItems(acl, owner)
}

// LanguagePrivileges is what role holds on language in d, owned by owner:
// everything for a superuser, else what the ACL gives it, PUBLIC and the
// roles it is a member of.
func (s *Snapshot) LanguagePrivileges(role string, d *Database, language, owner string) Privilege {
	if s.isSuperuser(role) {
		return PrivUsage
	}
	acl := d.LanguageACL(language, owner)
	var p Privilege
	for _, r := range s.rolesOf(role) {
		p |= acl[r]
	}
	return p
}

// DefaultDatabaseACL is acldefault('d', owner): PUBLIC may connect and
// create temporary tables, the owner may do everything.
func DefaultDatabaseACL(owner string) map[string]Privilege {
	return map[string]Privilege{PublicRole: PrivTemporary | PrivConnect, owner: KindDatabase.All()}
}

// EffectiveACL is the database's ACL, owned by owner (its Owner, or the
// bootstrap superuser's name when it has none).
func (d *Database) EffectiveACL(owner string) map[string]Privilege {
	if d.ACL == nil {
		return DefaultDatabaseACL(owner)
	}
	return d.ACL
}

// ACLItems is datacl: nil (NULL) until something was granted, else
// PUBLIC's entry, the owner's and the other grantees' by name.
func (d *Database) ACLItems(owner string) []string {
	if d.ACL == nil {
		return nil
	}
	return DefaultACLItems(d.ACL, owner)
}

// DatabasePrivileges is what role holds on d, owned by owner: everything
// for a superuser, else what the ACL gives it, PUBLIC and the roles it is
// a member of.
func (s *Snapshot) DatabasePrivileges(role string, d *Database, owner string) Privilege {
	if s.isSuperuser(role) {
		return KindDatabase.All()
	}
	acl := d.EffectiveACL(owner)
	var p Privilege
	for _, r := range s.rolesOf(role) {
		p |= acl[r]
	}
	return p
}

// Clone returns a copy of d, for building a changed database.
func (d *Database) Clone() *Database {
	c := *d
	c.Settings = make(map[string]string, len(d.Settings))
	for k, v := range d.Settings {
		c.Settings[k] = v
	}
	if d.ACL != nil {
		c.ACL = copyACL(d.ACL)
	}
	if d.Languages != nil {
		c.Languages = make(map[string]map[string]Privilege, len(d.Languages))
		for l, acl := range d.Languages {
			c.Languages[l] = copyACL(acl)
		}
	}
	return &c
}

func databaseKey(id uint64) string {
	return databasePrefix + string(binary.BigEndian.AppendUint64(nil, id))
}

// Databases returns the registered databases, by ID (the first database
// only when it has an item).
func (s *Snapshot) Databases() []*Database {
	if s.perm != nil {
		return s.perm.Databases()
	}
	out := make([]*Database, 0, len(s.databases))
	for _, d := range s.databases {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// DatabaseByID returns the registered database id, or nil.
func (s *Snapshot) DatabaseByID(id uint64) *Database {
	if s.perm != nil {
		return s.perm.DatabaseByID(id)
	}
	return s.databases[id]
}

func (c *Catalog) loadDatabases(ctx context.Context) (map[uint64]*Database, error) {
	out := map[uint64]*Database{}
	start := []byte(databasePrefix)
	it := c.rw.Scan(ctx, kv.ScanRequest{Partition: c.sharedPartition(), Start: start, End: kv.PrefixEnd(start), Consistent: true})
	defer it.Close()
	for it.Next() {
		var d Database
		if err := decodeDesc(it.Item(), &d); err != nil {
			return nil, err
		}
		out[d.ID] = &d
	}
	if err := it.Err(); err != nil {
		return nil, fmt.Errorf("catalog: reading databases: %w", err)
	}
	return out, nil
}

func (c *Catalog) databaseOps(ch Change) ([]kv.Op, error) {
	var ops []kv.Op
	for _, d := range ch.PutDatabases {
		op, err := c.putDescriptorIn(c.sharedPartition(), databaseKey(d.ID), d)
		if err != nil {
			return nil, err
		}
		ops = append(ops, op)
	}
	for _, id := range ch.DeleteDatabases {
		ops = append(ops, kv.Op{Kind: kv.OpDelete, Key: kv.Key{Partition: c.sharedPartition(), Sort: []byte(databaseKey(id))}})
	}
	return ops, nil
}

// AllDatabases lists the store's databases, the first one first: its item,
// or when it has none a description named first (the name it is served
// under: session.Config.Database).
func (s *Snapshot) AllDatabases(first string) []*Database {
	head := s.DatabaseByID(FirstDatabaseID)
	if head == nil {
		head = &Database{ID: FirstDatabaseID, Name: first, AllowConn: true, ConnLimit: -1}
	}
	out := []*Database{head}
	for _, d := range s.Databases() {
		if d.ID != FirstDatabaseID {
			out = append(out, d)
		}
	}
	return out
}

// FindDatabase returns the database named name among AllDatabases(first),
// or nil.
func (s *Snapshot) FindDatabase(name, first string) *Database {
	for _, d := range s.AllDatabases(first) {
		if d.Name == name {
			return d
		}
	}
	return nil
}
