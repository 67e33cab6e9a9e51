package pgcatalog

import (
	"slices"

	"github.com/zproxy/zproxy/catalog"
)

// The privileges on the relations zproxy computes, as PostgreSQL 15's
// initdb (and CREATE EXTENSION postgis, for its relations) leaves them:
// the bootstrap superuser owns every one and holds all privileges; PUBLIC
// may read all but the ones below (TestSystemRelationACLs diffs the whole
// list with PostgreSQL's pg_class.relacl). One table serves pg_class's
// relacl, pg_init_privs, the has_*_privilege functions and the binder's
// check of a statement that reads a relation PUBLIC may not.

// superuserOnlyRelations are readable only by superusers (and members of
// pg_read_all_data): passwords, statistics values, server files.
var superuserOnlyRelations = map[string]bool{
	"pg_catalog.pg_authid": true, "pg_catalog.pg_shadow": true, "pg_catalog.pg_statistic": true,
	"pg_catalog.pg_statistic_ext_data": true, "pg_catalog.pg_user_mapping": true, "pg_catalog.pg_largeobject": true,
	"pg_catalog.pg_config": true, "pg_catalog.pg_file_settings": true, "pg_catalog.pg_hba_file_rules": true,
	"pg_catalog.pg_ident_file_mappings": true, "pg_catalog.pg_replication_origin_status": true,
	// PUBLIC reads every column but subconninfo (publicColumns).
	"pg_catalog.pg_subscription": true,
}

// statsRelations are readable by pg_read_all_stats's members too.
var statsRelations = map[string]bool{"pg_catalog.pg_backend_memory_contexts": true, "pg_catalog.pg_shmem_allocations": true}

// ownerOnlyRelations keep initdb's NULL ACL, the owner's alone:
// information_schema's internal views of foreign objects and two of its
// tables no GRANT reached.
var ownerOnlyRelations = map[string]bool{
	"information_schema._pg_foreign_data_wrappers": true, "information_schema._pg_foreign_servers": true,
	"information_schema._pg_foreign_table_columns": true, "information_schema._pg_foreign_tables": true,
	"information_schema._pg_user_mappings": true, "information_schema.sql_parts": true, "information_schema.transforms": true,
}

// publicColumns are the columns PUBLIC may read of a relation it may not
// read whole (PostgreSQL's column ACLs).
var publicColumns = map[string][]string{
	"pg_catalog.pg_subscription": {"oid", "subdbid", "subskiplsn", "subname", "subowner", "subenabled", "subbinary",
		"substream", "subtwophasestate", "subdisableonerr", "subslotname", "subsynccommit", "subpublications"},
}

// aclEntry is one grantee's privileges in an ACL the bootstrap superuser
// granted ("" is PUBLIC).
type aclEntry struct {
	grantee string
	privs   catalog.Privilege
}

// aclItems is entries as aclitem texts.
func aclItems(entries []aclEntry) []string {
	var out []string
	for _, e := range entries {
		out = append(out, catalog.ACLItem(e.grantee, e.privs.ACLLetters(), BootstrapRole))
	}
	return out
}

// systemRelationACL is the ACL of a relation zproxy computes (nil:
// PostgreSQL's NULL, the owner's privileges alone).
func systemRelationACL(r *Relation) []aclEntry {
	key := r.Schema + "." + r.Name
	if ownerOnlyRelations[key] {
		return nil
	}
	acl := []aclEntry{{BootstrapRole, catalog.KindTable.All()}}
	switch {
	case superuserOnlyRelations[key]:
	case statsRelations[key]:
		acl = append(acl, aclEntry{catalog.RoleReadAllStats, catalog.PrivSelect})
	case key == "pg_catalog.pg_settings":
		acl = append(acl, aclEntry{"", catalog.PrivSelect | catalog.PrivUpdate}) // SET through UPDATE
	default:
		acl = append(acl, aclEntry{"", catalog.PrivSelect})
	}
	return acl
}

// systemColumnACL is the ACL of a column of a relation zproxy computes
// (nil: none of its own).
func systemColumnACL(r *Relation, column string) []aclEntry {
	if slices.Contains(publicColumns[r.Schema+"."+r.Name], column) {
		return []aclEntry{{"", catalog.PrivSelect}}
	}
	return nil
}

// RestrictsReading reports whether PUBLIC may not read the whole of the
// computed relation schema.name: a statement that reads it is checked
// (SystemPrivileges).
func RestrictsReading(schema, name string) bool {
	key := schema + "." + name
	return superuserOnlyRelations[key] || statsRelations[key] || ownerOnlyRelations[key]
}

// SystemPrivileges is what role, no superuser, holds on the computed
// relation schema.name (and, with column != "", on that column alone):
// the ACL's entries for PUBLIC and the roles whose privileges role has,
// SELECT for pg_read_all_data's members, and no write to a table of
// pg_catalog, which PostgreSQL refuses every role but a superuser.
func SystemPrivileges(snap *catalog.Snapshot, role, schema, name, column string) catalog.Privilege {
	r, ok := find(schema, name)
	if !ok {
		return 0
	}
	acl := systemRelationACL(r)
	if column != "" {
		acl = systemColumnACL(r, column)
	}
	var p catalog.Privilege
	for _, e := range acl {
		if e.grantee == "" || snap.IsMemberOf(role, e.grantee) {
			p |= e.privs
		}
	}
	if snap.IsMemberOf(role, catalog.RoleReadAllData) {
		p |= catalog.PrivSelect
	}
	if snap.IsMemberOf(role, catalog.RoleWriteAllData) {
		p |= catalog.PrivInsert | catalog.PrivUpdate | catalog.PrivDelete
	}
	if r.table && schema == "pg_catalog" {
		p &^= catalog.PrivInsert | catalog.PrivUpdate | catalog.PrivDelete | catalog.PrivTruncate
	}
	return p
}
