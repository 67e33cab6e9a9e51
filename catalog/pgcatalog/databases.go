package pgcatalog

import "github.com/zproxy/zproxy/catalog"

// DatabaseLister is a Session that knows the store's databases: pg_database
// lists them. A session without it sees one database, its own.
type DatabaseLister interface {
	Databases() []DatabaseInfo
}

// DatabaseInfo is what pg_database shows of one database.
type DatabaseInfo struct {
	OID  uint32
	Name string
	// Owner is the owning role; empty for the bootstrap superuser.
	Owner      string
	IsTemplate bool
	AllowConn  bool
	ConnLimit  int
	// ACL is datacl (nil: NULL, the default); Privileges what a role
	// holds on the database (nil: PostgreSQL's default ACL).
	ACL        []string
	Privileges func(role string) catalog.Privilege
	// Comment is COMMENT ON DATABASE's text (pg_shdescription).
	Comment string
	// ID is the database's catalog ID (role settings name it);
	// Settings its ALTER DATABASE SET defaults (pg_db_role_setting).
	ID       uint64
	Settings map[string]string
}

// databases are the rows of pg_database: the session's list, or its own
// database alone.
func (e *Env) databases() []DatabaseInfo {
	if l, ok := e.Sess.(DatabaseLister); ok {
		return l.Databases()
	}
	return []DatabaseInfo{{OID: DatabaseOID, Name: e.database(), AllowConn: true, ConnLimit: -1}}
}

// databaseNamed returns the database named name.
func (e *Env) databaseNamed(name string) (DatabaseInfo, bool) {
	for _, d := range e.databases() {
		if d.Name == name {
			return d, true
		}
	}
	return DatabaseInfo{}, false
}

// databaseOIDs returns the OID of the database named by its argument
// (pg_stat_activity's datid): the first database's for a name the store
// lacks (a session that --any-database let in under it).
func (e *Env) databaseOIDs() func(name string) uint32 {
	oids := map[string]uint32{}
	for _, d := range e.databases() {
		oids[d.Name] = d.OID
	}
	return func(name string) uint32 {
		if oid, ok := oids[name]; ok {
			return oid
		}
		return DatabaseOID
	}
}

// LanguageACLs is a Session that keeps the ACLs of its database's trusted
// languages (GRANT ... ON LANGUAGE).
type LanguageACLs interface {
	// LanguageACL is language's lanacl (nil: NULL, the default) and what
	// a role holds on it; held is nil for a language without an ACL of
	// its own to keep (an untrusted one).
	LanguageACL(language string) (items []string, held func(role string) catalog.Privilege)
}
