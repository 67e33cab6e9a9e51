package planner

import (
	"strconv"
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// columnPrivileges are the privileges a column can be granted.
const columnPrivileges = catalog.PrivSelect | catalog.PrivInsert | catalog.PrivUpdate | catalog.PrivReferences

func bindGrant(snap *catalog.Snapshot, rs *parser.RoleStatement) (ir.Statement, error) {
	g := &ir.Grant{Revoke: rs.Kind == "revoke"}
	// What the statement grants, whole-object and per column list.
	var whole catalog.Privilege
	type colGrant struct {
		priv catalog.Privilege
		cols []string
	}
	var colGrants []colGrant
	for i, p := range rs.Privileges {
		priv, ok := catalog.ParsePrivilege(p)
		if !ok {
			return nil, unsupported("privilege %s is not supported", p)
		}
		if i < len(rs.PrivilegeColumns) && rs.PrivilegeColumns[i] != nil {
			if priv == catalog.PrivAll {
				priv = columnPrivileges
			}
			if priv&^columnPrivileges != 0 {
				return nil, pgerr.New(pgerr.InvalidGrantOperation, "invalid privilege type %s for column", p)
			}
			colGrants = append(colGrants, colGrant{priv, rs.PrivilegeColumns[i]})
			continue
		}
		whole |= priv
	}
	// Privileges on the relations zproxy computes are initdb's
	// (pgcatalog/system_acl.go), which it keeps no record to change.
	systemRelation := func(name string) error {
		return pgerr.New(pgerr.FeatureNotSupported, "privileges on the system relation %q cannot be changed", name)
	}
	object := func(name string) (ir.GrantObject, error) {
		if schema, rest, ok := strings.Cut(name, "."); ok && pgcatalog.Find(schema, rest) != nil {
			return ir.GrantObject{}, systemRelation(name)
		}
		if schema, rest, ok := strings.Cut(name, "."); ok {
			switch {
			case schema == catalog.PublicSchema:
				name = rest
			case !snap.HasSchema(schema) && schema != "pg_catalog" && schema != "information_schema":
				return ir.GrantObject{}, pgerr.New(pgerr.InvalidSchemaName, "schema \"%s\" does not exist", schema)
			}
			// A relation of a user schema is found by its key
			// (catalog/schemas.go).
		}
		if rs.Object == "sequence" {
			q, ok := snap.Sequence(name)
			if !ok {
				if snap.HasRelation(name) {
					return ir.GrantObject{}, pgerr.New(pgerr.WrongObjectType, "%q is not a sequence", name)
				}
				return ir.GrantObject{}, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", name)
			}
			return ir.GrantObject{Kind: catalog.KindSequence, ID: q.ID, Name: q.Name, Owner: q.Owner}, nil
		}
		if t, err := snap.Table(name); err == nil {
			return ir.GrantObject{Kind: catalog.KindTable, ID: t.ID, Name: t.Name, Owner: t.Owner}, nil
		}
		if v, ok := snap.StoredView(name); ok {
			return ir.GrantObject{Kind: catalog.KindView, ID: v.ID, Name: v.Name, Owner: v.Owner}, nil
		}
		if q, ok := snap.Sequence(name); ok {
			// GRANT ... ON TABLE names a sequence as in PostgreSQL.
			return ir.GrantObject{Kind: catalog.KindSequence, ID: q.ID, Name: q.Name, Owner: q.Owner}, nil
		}
		if pgcatalog.Find("pg_catalog", name) != nil || pgcatalog.Find(catalog.PublicSchema, name) != nil {
			return ir.GrantObject{}, systemRelation(name)
		}
		return ir.GrantObject{}, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", name)
	}
	var objects []ir.GrantObject
	switch {
	case rs.Object == "large object":
		// Stored beside the rows, not in the catalog: the session finds
		// each when it runs the statement.
		for _, n := range rs.Tables {
			oid, err := strconv.ParseUint(n, 10, 32)
			if err != nil {
				return nil, pgerr.New(pgerr.NumericValueOutOfRange, "OID out of range")
			}
			objects = append(objects, ir.GrantObject{Kind: catalog.KindLargeObject, ID: oid, Name: "large object " + n})
		}
	case rs.Object == "database":
		// The registry of databases is the store's: the session finds
		// each when it runs the statement.
		for _, n := range rs.Tables {
			objects = append(objects, ir.GrantObject{Kind: catalog.KindDatabase, Name: n})
		}
	case rs.Object == "parameter":
		// Checked against the session's settings when it runs.
		for _, n := range rs.Tables {
			objects = append(objects, ir.GrantObject{Kind: catalog.KindParameter, Name: strings.ToLower(n)})
		}
	case rs.Object == "language":
		// Kept on the session's database's entry in the store's registry:
		// the session changes it when it runs the statement.
		for _, n := range rs.Tables {
			trusted, ok := pgcatalog.LanguageTrusted(n)
			switch {
			case !ok:
				return nil, pgerr.New(pgerr.UndefinedObject, "language \"%s\" does not exist", n)
			case !trusted:
				return nil, pgerr.New(pgerr.WrongObjectType, "language \"%s\" is not trusted", n).
					WithDetail("GRANT and REVOKE are not allowed on untrusted languages, because only superusers can use untrusted languages.")
			}
			objects = append(objects, ir.GrantObject{Kind: catalog.KindLanguage, Name: n})
		}
	case rs.Object == "type" || rs.Object == "domain":
		for _, name := range rs.Tables {
			o, err := typeGrantObject(snap, rs.Object, name)
			if err != nil {
				return nil, err
			}
			objects = append(objects, o)
		}
	case rs.Object == "schema":
		for _, name := range rs.Tables {
			owner := ""
			if sc, ok := snap.Schema(name); ok {
				owner = sc.Owner
			} else if name != catalog.PublicSchema {
				return nil, pgerr.New(pgerr.InvalidSchemaName, "schema \"%s\" does not exist", name)
			}
			objects = append(objects, ir.GrantObject{Kind: catalog.KindSchema, Name: name, Owner: owner})
		}
	case len(rs.Schemas) > 0:
		// The relations of the schema: keys "schema.name", or bare in
		// public (catalog/schemas.go).
		in := func(schema, key string, temp bool) bool {
			sc, _ := catalog.SplitName(key)
			return sc == schema && !temp
		}
		for _, schema := range rs.Schemas {
			if !snap.HasSchema(schema) {
				return nil, pgerr.New(pgerr.InvalidSchemaName, "schema \"%s\" does not exist", schema)
			}
			if rs.Object == "sequence" {
				for _, q := range snap.Sequences() {
					if in(schema, q.Name, q.Temp) {
						objects = append(objects, ir.GrantObject{Kind: catalog.KindSequence, ID: q.ID, Name: q.Name, Owner: q.Owner})
					}
				}
				continue
			}
			for _, t := range snap.Tables() {
				if in(schema, t.Name, t.Temp) {
					objects = append(objects, ir.GrantObject{Kind: catalog.KindTable, ID: t.ID, Name: t.Name, Owner: t.Owner})
				}
			}
			for _, v := range snap.Views() {
				if in(schema, v.Name, v.Temp) {
					objects = append(objects, ir.GrantObject{Kind: catalog.KindView, ID: v.ID, Name: v.Name, Owner: v.Owner})
				}
			}
		}
	default:
		for _, name := range rs.Tables {
			o, err := object(name)
			if err != nil {
				return nil, err
			}
			objects = append(objects, o)
		}
	}
	for _, o := range objects {
		all := o.Kind.All()
		switch {
		case whole == catalog.PrivAll:
			o.Privileges = all
		case whole&^all != 0 && o.Kind == catalog.KindSequence && rs.Object != "sequence":
			// PostgreSQL warns and grants what a sequence has.
			g.Warnings = append(g.Warnings, pgerr.NewWarning(pgerr.Warning, "sequence \"%s\" only supports USAGE, SELECT, and UPDATE privileges", o.Name))
			o.Privileges = whole & all
		case whole&^all != 0:
			bad := catalog.Privilege(1)
			for ; whole&^all&bad == 0; bad <<= 1 {
			}
			return nil, pgerr.New(pgerr.InvalidGrantOperation, "invalid privilege type %s for %s", bad, o.Kind.Noun())
		default:
			o.Privileges = whole
		}
		if len(colGrants) > 0 {
			if o.Kind != catalog.KindTable && o.Kind != catalog.KindView {
				return nil, pgerr.New(pgerr.InvalidGrantOperation, "invalid privilege type %s for %s", colGrants[0].priv&-colGrants[0].priv, o.Kind.Noun())
			}
			o.Columns = map[string]catalog.Privilege{}
			for _, cg := range colGrants {
				for _, c := range cg.cols {
					key, err := columnKey(snap, o, c)
					if err != nil {
						return nil, err
					}
					o.Columns[key] |= cg.priv
				}
			}
		}
		g.Objects = append(g.Objects, o)
	}
	for _, n := range rs.Roles {
		g.Roles = append(g.Roles, roleSpec(n))
	}
	return g, nil
}

// typeGrantObject finds the user-defined type that GRANT ... ON TYPE (or ON
// DOMAIN, which must name a domain) names. A built-in type's ACL would be
// pg_type's own row, which zproxy does not store: 0A000.
func typeGrantObject(snap *catalog.Snapshot, object, name string) (ir.GrantObject, error) {
	if schema, rest, ok := strings.Cut(name, "."); ok && schema == catalog.PublicSchema {
		name = rest
	}
	u, ok := snap.UserType(name)
	if !ok {
		if _, builtin := sqltypes.LookupType(strings.TrimPrefix(name, "pg_catalog.")); builtin {
			return ir.GrantObject{}, unsupported("privileges on built-in type %s are not supported", name)
		}
		return ir.GrantObject{}, pgerr.New(pgerr.UndefinedObject, "type \"%s\" does not exist", name)
	}
	if u.Multirange {
		return ir.GrantObject{}, unsupported("privileges on multirange type %s are not supported", name)
	}
	if object == "domain" && u.Domain == nil {
		_, bare := catalog.SplitName(u.Name) // as PostgreSQL, unqualified
		return ir.GrantObject{}, pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a domain", bare)
	}
	return ir.GrantObject{Kind: catalog.KindType, ID: uint64(u.OID), Name: u.Name, Owner: u.Owner}, nil
}

// columnKey returns the key of column name of a table or view in
// catalog.Role.Columns.
func columnKey(snap *catalog.Snapshot, o ir.GrantObject, name string) (string, error) {
	if o.Kind == catalog.KindView {
		if v, ok := snap.StoredView(o.Name); ok {
			for _, c := range v.Columns {
				if c == name {
					return c, nil
				}
			}
		}
	} else if t, err := snap.Table(o.Name); err == nil {
		if i := t.ColumnIndex(name); i >= 0 {
			return t.Columns[i].AttrName(), nil
		}
	}
	return "", pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", name, o.Name)
}
