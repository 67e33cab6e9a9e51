package session

import (
	"context"
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/wire"
)

// builtinSchemas are the schemas zproxy has without CREATE SCHEMA.
var builtinSchemas = map[string]bool{catalog.PublicSchema: true, "pg_catalog": true, "information_schema": true, "pg_toast": true}

// runSchemaChange runs CREATE, ALTER and DROP SCHEMA on the schema
// descriptors, through the block's catalog inside a transaction block so
// ROLLBACK undoes it as any other DDL.
func (st *statement) runSchemaChange(ctx context.Context, x *ir.SchemaChange, env *runEnv) (wire.Result, error) {
	s := st.sess
	cat, err := s.permCatalog(ctx)
	if err != nil {
		return nil, err
	}
	role := x.Role
	if x.Current {
		role = s.params.User
	}
	var notices []*pgerr.Error
	_, err = cat.Update(ctx, func(snap *catalog.Snapshot, version uint64) (catalog.Change, error) {
		notices = nil
		super := s.isSuperuser(snap)
		if role != "" && !snap.RoleExists(role) {
			return catalog.Change{}, pgerr.New(pgerr.UndefinedObject, "role %q does not exist", role)
		}
		owned := func(name string) (*catalog.Schema, error) {
			sc, ok := snap.Schema(name)
			if !ok {
				if builtinSchemas[name] {
					return nil, pgerr.New(pgerr.FeatureNotSupported, "schema %q is built into zproxy and cannot be changed", name)
				}
				return nil, pgerr.New(pgerr.InvalidSchemaName, "schema %q does not exist", name)
			}
			if !super && !snap.IsMemberOf(s.params.User, sc.Owner) {
				return nil, pgerr.New(pgerr.InsufficientPrivilege, "must be owner of schema %s", name)
			}
			return sc, nil
		}
		switch x.Action {
		case "create":
			if !super {
				return catalog.Change{}, pgerr.New(pgerr.InsufficientPrivilege, "permission denied for database %s", s.params.Database)
			}
			name := role
			if len(x.Names) > 0 {
				name = x.Names[0]
			}
			if _, ok := snap.Schema(name); ok || builtinSchemas[name] {
				if x.MissingOK {
					notices = append(notices, pgerr.Notice("schema %q already exists, skipping", name))
					return catalog.Change{}, nil
				}
				return catalog.Change{}, pgerr.New(pgerr.DuplicateSchema, "schema %q already exists", name)
			}
			if strings.HasPrefix(name, "pg_") {
				return catalog.Change{}, pgerr.New(pgerr.ReservedName, "unacceptable schema name %q", name).
					WithDetail("The prefix \"pg_\" is reserved for system schemas.")
			}
			owner := role
			if owner == "" {
				owner = s.params.User
			}
			return catalog.Change{PutSchemas: []*catalog.Schema{{ID: catalog.ObjectID(version, 0), Name: name, Owner: owner}}}, nil
		case "rename", "owner":
			sc, err := owned(x.Names[0])
			if err != nil {
				return catalog.Change{}, err
			}
			n := *sc
			if x.Action == "owner" {
				n.Owner = role
				return catalog.Change{PutSchemas: []*catalog.Schema{&n}}, nil
			}
			if _, ok := snap.Schema(x.NewName); ok || builtinSchemas[x.NewName] {
				return catalog.Change{}, pgerr.New(pgerr.DuplicateSchema, "schema %q already exists", x.NewName)
			}
			if strings.HasPrefix(x.NewName, "pg_") {
				return catalog.Change{}, pgerr.New(pgerr.ReservedName, "unacceptable schema name %q", x.NewName).
					WithDetail("The prefix \"pg_\" is reserved for system schemas.")
			}
			if t, v, q := snap.SchemaObjects(sc.Name); len(t)+len(v)+len(q) > 0 {
				// Relations are keyed by their qualified names (catalog/schemas.go).
				return catalog.Change{}, pgerr.New(pgerr.FeatureNotSupported, "ALTER SCHEMA RENAME of a schema that has objects is not supported")
			}
			n.Name = x.NewName
			return catalog.Change{PutSchemas: []*catalog.Schema{&n}, DeleteSchemas: []string{sc.Name}}, nil
		}
		// DROP SCHEMA
		var ch catalog.Change
		for _, name := range x.Names {
			if _, ok := snap.Schema(name); !ok && !builtinSchemas[name] && x.MissingOK {
				notices = append(notices, pgerr.Notice("schema %q does not exist, skipping", name))
				continue
			}
			sc, err := owned(name)
			if err != nil {
				return catalog.Change{}, err
			}
			tables, views, seqs := snap.SchemaObjects(sc.Name)
			if len(tables)+len(views)+len(seqs) > 0 {
				if x.Cascade {
					return catalog.Change{}, pgerr.New(pgerr.FeatureNotSupported, "DROP SCHEMA ... CASCADE of a schema that has objects is not supported (drop its objects first)")
				}
				var deps []string
				for _, k := range tables {
					kind := "table"
					if t, _ := snap.Table(k); t != nil && t.IsMatview() {
						kind = "materialized view"
					}
					deps = append(deps, kind+" "+k+" depends on schema "+sc.Name)
				}
				for _, k := range views {
					deps = append(deps, "view "+k+" depends on schema "+sc.Name)
				}
				for _, k := range seqs {
					deps = append(deps, "sequence "+k+" depends on schema "+sc.Name)
				}
				return catalog.Change{}, pgerr.New(pgerr.DependentObjectsStillExist, "cannot drop schema %s because other objects depend on it", sc.Name).
					WithDetail("%s", strings.Join(deps, "\n")).WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
			}
			ch.DeleteSchemas = append(ch.DeleteSchemas, sc.Name)
		}
		return ch, nil
	})
	if err != nil {
		return nil, storeErr(err)
	}
	for _, n := range notices {
		s.notice(n)
	}
	return tagResult(x.Describe().Tag), nil
}

// pathState caches the snapshot withPath handed out last.
type pathState struct {
	in, out   *catalog.Snapshot
	path, who string
}

// withPath lays the session's search_path over snap once the catalog has
// user schemas (catalog.Snapshot.WithPath); before that every relation is
// in public and snap is returned as it is. The result is cached for the
// (snapshot, search_path, user) triple, so prepared statements rebind when
// search_path changes.
func (s *Session) withPath(snap *catalog.Snapshot) *catalog.Snapshot {
	if len(snap.Schemas()) == 0 {
		return snap
	}
	path := s.varValue("search_path")
	ps := &s.pathCache
	if ps.in == snap && ps.path == path && ps.who == s.params.User {
		return ps.out
	}
	ps.in, ps.path, ps.who, ps.out = snap, path, s.params.User, snap.WithPath(searchPathSchemas(snap, path, s.params.User))
	return ps.out
}

// searchPathSchemas reads a search_path value into the schemas of it that
// exist and hold relations (public and user schemas), in order: "$user"
// is the schema named like the user, if any; the catalog schemas and
// pg_temp are searched by their own rules.
func searchPathSchemas(snap *catalog.Snapshot, path, user string) []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range splitSearchPath(path) {
		if p == "$user" {
			p = user
		}
		if !seen[p] && snap.HasSchema(p) {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// splitSearchPath splits a search_path value at its commas, unquoting
// quoted names and folding unquoted ones to lower case, as PostgreSQL
// reads the list.
func splitSearchPath(v string) []string {
	var out []string
	for _, item := range strings.Split(v, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if len(item) >= 2 && item[0] == '"' && item[len(item)-1] == '"' {
			item = strings.ReplaceAll(item[1:len(item)-1], `""`, `"`)
		} else {
			item = strings.ToLower(item)
		}
		out = append(out, item)
	}
	return out
}
