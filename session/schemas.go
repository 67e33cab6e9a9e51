package session

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/executor"
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
	if len(x.Elements) > 0 {
		return st.createSchemaWithElements(ctx, x, env) // schema_elements.go
	}
	s := st.sess
	cat, err := s.permCatalog(ctx)
	if err != nil {
		return nil, err
	}
	role := x.Role
	if x.Current {
		role = s.ownerRole(x.Role)
	}
	if x.Action == "drop" && x.Cascade {
		if err := st.dropSchemaObjects(ctx, cat, x.Names); err != nil {
			return nil, err
		}
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
			if !super && !snap.IsMemberOf(s.currentUser(), sc.Owner) {
				return nil, pgerr.New(pgerr.InsufficientPrivilege, "must be owner of schema %s", name)
			}
			return sc, nil
		}
		switch x.Action {
		case "create":
			if !super && !s.holdsDatabasePrivilege(snap, catalog.PrivCreate) {
				return catalog.Change{}, pgerr.New(pgerr.InsufficientPrivilege, "permission denied for database %s", s.params.Database)
			}
			if !super && role != "" && !snap.IsMemberOf(s.currentUser(), role) {
				return catalog.Change{}, pgerr.New(pgerr.InsufficientPrivilege, "must be member of role \"%s\"", role)
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
				owner = s.currentUser()
			}
			return catalog.Change{PutSchemas: []*catalog.Schema{{ID: catalog.ObjectID(version, 0), Name: name, Owner: owner}}}, nil
		case "rename", "owner":
			sc, err := owned(x.Names[0])
			if err != nil {
				return catalog.Change{}, err
			}
			n := *sc
			if x.Action == "owner" {
				if err := s.checkNewOwner(snap, role); err != nil {
					return catalog.Change{}, err
				}
				if !super && role != sc.Owner && !s.holdsDatabasePrivilege(snap, catalog.PrivCreate) {
					// Changing the owner needs CREATE on the database
					// (PostgreSQL's AlterSchemaOwner_internal).
					return catalog.Change{}, pgerr.New(pgerr.InsufficientPrivilege, "permission denied for database %s", s.params.Database)
				}
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
			if !super && !s.holdsDatabasePrivilege(snap, catalog.PrivCreate) {
				// As PostgreSQL: renaming needs CREATE on the database.
				return catalog.Change{}, pgerr.New(pgerr.InsufficientPrivilege, "permission denied for database %s", s.params.Database)
			}
			// Relations are keyed by their qualified names
			// (catalog/schemas.go): they move with the schema.
			var ch catalog.Change
			if err := executor.RenameSchemaObjects(snap, sc.Name, x.NewName, &ch); err != nil {
				return catalog.Change{}, err
			}
			n.Name = x.NewName
			ch.PutSchemas, ch.DeleteSchemas = []*catalog.Schema{&n}, []string{sc.Name}
			return ch, nil
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
			types, funcs, opers := snap.SchemaTypes(sc.Name), snap.SchemaFunctions(sc.Name), snap.SchemaOperators(sc.Name)
			if len(tables)+len(views)+len(seqs)+len(types)+len(funcs)+len(opers) > 0 {
				if x.Cascade {
					// Created by another session since dropSchemaObjects.
					return catalog.Change{}, pgerr.New(pgerr.SerializationFailure, "schema %s gained objects while DROP SCHEMA ... CASCADE dropped its own", sc.Name)
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
				for _, k := range types {
					deps = append(deps, typeObjectName(snap, k)+" depends on schema "+sc.Name)
				}
				for _, f := range funcs {
					deps = append(deps, executor.RoutineObjectName(f)+" depends on schema "+sc.Name)
					for _, d := range executor.FunctionDependents(snap, f) {
						deps = append(deps, d+" depends on "+executor.RoutineObjectName(f))
					}
				}
				for _, o := range opers {
					deps = append(deps, executor.OperatorObjectName(o)+" depends on schema "+sc.Name)
				}
				return catalog.Change{}, pgerr.New(pgerr.DependentObjectsStillExist, "cannot drop schema %s because other objects depend on it", sc.Name).
					WithDetail("%s", strings.Join(deps, "\n")).WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
			}
			ch.DeleteSchemas = append(ch.DeleteSchemas, sc.Name)
			// Its default privileges go with it (PostgreSQL's automatic
			// dependency).
			for _, d := range snap.DefaultACLs() {
				if d.Schema == sc.Name {
					ch.DeleteDefaultACLs = append(ch.DeleteDefaultACLs, d.Key())
				}
			}
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

// withPath lays the session's search_path over snap
// (catalog.Snapshot.WithPath), except when the catalog has no user schema
// and the path finds public: then every relation is in public and snap
// is returned as it is. A path without public (pg_dump's empty one) is
// laid over a catalog without user schemas too, so that current_schemas
// and the deparsers' qualified names see it. The result is cached for the
// (snapshot, search_path, user) triple, so prepared statements rebind when
// search_path changes.
func (s *Session) withPath(snap *catalog.Snapshot) *catalog.Snapshot {
	d := s.derived()
	path, user := d.searchPath, d.currentUser
	ps := &s.pathCache
	if ps.in == snap && ps.path == path && ps.who == user {
		return ps.out
	}
	ps.in, ps.path, ps.who, ps.out = snap, path, user, s.pathSnapshot(snap, path, user)
	return ps.out
}

// pathSnapshot is withPath for a given search_path value and user,
// uncached.
func (s *Session) pathSnapshot(snap *catalog.Snapshot, path, user string) *catalog.Snapshot {
	schemas := searchPathSchemas(snap, path, user)
	if _, pathed := snap.SearchPath(); !pathed && !snap.HasUserSchemas() && len(schemas) == 1 && schemas[0] == catalog.PublicSchema {
		// Every relation is in public and the path finds it.
		return snap
	}
	var denied map[string]bool
	if !s.userIsSuperuser(snap, user) {
		for _, sc := range snap.Schemas() {
			if snap.SchemaPrivileges(user, sc.Name)&catalog.PrivUsage == 0 {
				if denied == nil {
					denied = map[string]bool{}
				}
				denied[sc.Name] = true
			}
		}
	}
	return snap.WithPath(schemas).WithoutUsage(denied)
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

// dropSchemaObjects is DROP SCHEMA ... CASCADE's first step: the views,
// tables, materialized views and sequences of each named schema are
// dropped (with what depends on them) by the DROP statements' own
// executor paths, through the same catalog, so a block's ROLLBACK undoes
// them with the schema. It refuses (42501) a schema the user does not own
// before dropping anything, and announces the objects as PostgreSQL does.
func (st *statement) dropSchemaObjects(ctx context.Context, cat *catalog.Catalog, names []string) error {
	s := st.sess
	e := s.engine
	snap, err := cat.Snapshot(ctx)
	if err != nil {
		return storeErr(err)
	}
	// gone are the objects dropped, each with an OID of the catalog
	// version that created it (ObjectOID(ObjectID(version, i))):
	// PostgreSQL lists them in the order it finds them in pg_depend,
	// their creation order, which these OIDs follow until they wrap (a
	// function's dependents follow it).
	type goneObj struct {
		oid  uint32
		text string
	}
	var gone []goneObj
	add := func(oid uint32, text string) { gone = append(gone, goneObj{oid, "drop cascades to " + text}) }
	type work struct {
		schema                        string
		tables, matviews, views, seqs []string
	}
	var all []work
	for _, name := range names {
		sc, ok := snap.Schema(name)
		if !ok {
			continue // the catalog update reports it
		}
		if !s.isSuperuser(snap) && !snap.IsMemberOf(s.currentUser(), sc.Owner) {
			return pgerr.New(pgerr.InsufficientPrivilege, "must be owner of schema %s", name)
		}
		tables, views, seqs := snap.SchemaObjects(name)
		var w work
		w.views, w.seqs = views, seqs
		for _, k := range tables {
			kind := "table"
			var oid uint32
			if t, _ := snap.TableByKey(k); t != nil {
				oid = pgcatalog.ObjectOID(t.ID, 0)
				if t.IsMatview() {
					w.matviews, kind = append(w.matviews, k), "materialized view"
				} else {
					w.tables = append(w.tables, k)
				}
			} else {
				w.tables = append(w.tables, k)
			}
			add(oid, kind+" "+k)
		}
		for _, k := range views {
			var oid uint32
			if v, ok := snap.StoredView(k); ok {
				oid = pgcatalog.ObjectOID(catalog.ObjectID(v.ID, 0), 0) // (a view's ID is its version)
			}
			add(oid, "view "+k)
		}
		for _, k := range seqs {
			if q, ok := snap.Sequence(k); ok && q.OwnedBy == "" {
				add(pgcatalog.ObjectOID(q.ID, 0), "sequence "+k)
			}
		}
		for _, k := range snap.SchemaTypes(name) {
			var oid uint32
			if u, ok := snap.UserTypeByKey(k); ok {
				oid = u.OID
			}
			add(oid, typeObjectName(snap, k))
		}
		for _, f := range snap.SchemaFunctions(name) {
			add(f.OID, executor.RoutineObjectName(f))
			for _, d := range executor.FunctionDependents(snap, f) {
				add(f.OID, d)
			}
		}
		for _, o := range snap.SchemaOperators(name) {
			add(o.OID, executor.OperatorObjectName(o))
		}
		w.schema = name
		all = append(all, w)
	}
	quiet := func(*pgerr.Error) {}
	for _, w := range all {
		if len(w.views) > 0 {
			if err := e.exec.DropView(ctx, cat, &ir.DropView{Names: w.views, IfExists: true, Cascade: true}, quiet); err != nil {
				return storeErr(err)
			}
		}
		if len(w.matviews) > 0 {
			if err := e.exec.DropTable(ctx, cat, &ir.DropTable{Names: w.matviews, IfExists: true, Cascade: true, Matview: true}, quiet); err != nil {
				return storeErr(err)
			}
		}
		if len(w.tables) > 0 {
			if err := e.exec.DropTable(ctx, cat, &ir.DropTable{Names: w.tables, IfExists: true, Cascade: true}, quiet); err != nil {
				return storeErr(err)
			}
		}
		if len(w.seqs) > 0 {
			if err := e.exec.DropSequence(ctx, cat, &ir.DropSequence{Names: w.seqs, IfExists: true, Cascade: true}, quiet); err != nil {
				return storeErr(err)
			}
		}
		now, err := cat.Snapshot(ctx)
		if err != nil {
			return storeErr(err)
		}
		who := executor.RoutineActor{User: s.currentUser(), Super: s.isSuperuser(now)}
		if err := e.exec.DropSchemaRoutinesAndTypes(ctx, cat, now, w.schema, who); err != nil {
			return storeErr(err)
		}
	}
	slices.SortStableFunc(gone, func(a, b goneObj) int { return cmp.Compare(a.oid, b.oid) })
	lines := make([]string, len(gone))
	for i, g := range gone {
		lines[i] = g.text
	}
	switch len(lines) {
	case 0:
	case 1:
		s.notice(pgerr.Notice("%s", lines[0]))
	default:
		n := pgerr.Notice("drop cascades to %d other objects", len(lines))
		n.Detail = strings.Join(lines, "\n")
		s.notice(n)
	}
	return nil
}

// typeObjectName is a type's or domain's name as PostgreSQL's dependency
// messages print it: "type s.t" (a domain's too).
func typeObjectName(_ *catalog.Snapshot, key string) string {
	return "type " + catalog.QuoteKey(key)
}
