package catalog_test

import (
	"context"
	"testing"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/sqltypes"
	zpebble "github.com/zproxy/zproxy/kv/pebble"
)

func openCatalog(t *testing.T) (*catalog.Catalog, func() *catalog.Catalog) {
	t.Helper()
	store, err := zpebble.Open(t.Name(), zpebble.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	cat, err := catalog.Open(context.Background(), store)
	if err != nil {
		t.Fatal(err)
	}
	// reopen reads everything back from the store, as another proxy would.
	reopen := func() *catalog.Catalog {
		c, err := catalog.Open(context.Background(), store)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	return cat, reopen
}

// TestRolesStoredAndVersioned writes roles and grants through Update and
// reads them back from the store.
func TestRolesStoredAndVersioned(t *testing.T) {
	ctx := context.Background()
	cat, reopen := openCatalog(t)
	var tableID uint64
	snap, err := cat.Update(ctx, func(s *catalog.Snapshot, v uint64) (catalog.Change, error) {
		tableID = v
		tbl := &catalog.Table{ID: v, Name: "t", Shards: 1, Owner: "owner",
			Columns: []catalog.Column{{Name: "a"}}, PrimaryKey: []catalog.KeyColumn{{Column: 0}}}
		return catalog.Change{Put: []*catalog.Table{tbl}, PutRoles: []*catalog.Role{
			{Name: "owner", Login: true},
			{Name: "app", Login: true, Verifier: "SCRAM-SHA-256$4096:x$y:z"},
		}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	before := snap.Version
	snap, err = cat.Update(ctx, func(s *catalog.Snapshot, v uint64) (catalog.Change, error) {
		app := s.Role("app").Clone()
		app.Grants[tableID] |= catalog.PrivSelect | catalog.PrivInsert
		return catalog.Change{PutRoles: []*catalog.Role{app}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if snap.Version <= before {
		t.Errorf("a role change did not advance the version (%d -> %d)", before, snap.Version)
	}
	got := reopen()
	s2, err := got.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	app := s2.Role("app")
	if app == nil || !app.Login || app.Verifier != "SCRAM-SHA-256$4096:x$y:z" || app.Grants[tableID] != catalog.PrivSelect|catalog.PrivInsert {
		t.Fatalf("role read back: %+v", app)
	}
	tbl, _ := s2.Table("t")
	if tbl.Owner != "owner" {
		t.Errorf("owner read back: %q", tbl.Owner)
	}
	if names := roleNames(s2.Roles()); names != "app,owner" {
		t.Errorf("Roles() = %s", names)
	}
	if _, err := cat.Update(ctx, func(s *catalog.Snapshot, v uint64) (catalog.Change, error) {
		return catalog.Change{DeleteRoles: []string{"app"}}, nil
	}); err != nil {
		t.Fatal(err)
	}
	if s3, _ := reopen().Snapshot(ctx); s3.Role("app") != nil {
		t.Error("a dropped role is still there")
	}
}

func roleNames(rs []*catalog.Role) string {
	out := ""
	for i, r := range rs {
		if i > 0 {
			out += ","
		}
		out += r.Name
	}
	return out
}

// TestPrivilegeRule is the rule (role, table, privilege) → allowed.
func TestPrivilegeRule(t *testing.T) {
	ctx := context.Background()
	cat, _ := openCatalog(t)
	var t1, t2 uint64
	snap, err := cat.Update(ctx, func(s *catalog.Snapshot, v uint64) (catalog.Change, error) {
		t1, t2 = v, v+1000
		mk := func(id uint64, name, owner string) *catalog.Table {
			return &catalog.Table{ID: id, Name: name, Shards: 1, Owner: owner,
				Columns: []catalog.Column{{Name: "a"}}, PrimaryKey: []catalog.KeyColumn{{Column: 0}}}
		}
		return catalog.Change{
			Put: []*catalog.Table{mk(t1, "t1", "alice"), mk(t2, "t2", "")},
			PutRoles: []*catalog.Role{
				{Name: "alice", Login: true},
				{Name: "root", Login: true, Superuser: true},
				{Name: "reader", Login: true, Grants: map[uint64]catalog.Privilege{t1: catalog.PrivSelect}},
				{Name: "writer", Login: true, Grants: map[uint64]catalog.Privilege{t1: catalog.PrivAll &^ catalog.PrivDelete}},
				{Name: catalog.PublicRole, Grants: map[uint64]catalog.Privilege{t2: catalog.PrivSelect}},
			},
		}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	tbl1, _ := snap.Table("t1")
	tbl2, _ := snap.Table("t2")
	// A catalog relation (package pgcatalog makes them: a Table whose rows
	// are computed).
	view := &catalog.Table{Name: "information_schema.tables", Virtual: func(*builtins.Context) ([][]sqltypes.Value, error) { return nil, nil }}
	for _, tc := range []struct {
		role  string
		table *catalog.Table
		priv  catalog.Privilege
		want  bool
	}{
		{"root", tbl1, catalog.KindTable.All(), true},
		{"root", tbl2, catalog.PrivDelete, true},
		{"alice", tbl1, catalog.KindTable.All(), true}, // the owner
		{"alice", tbl2, catalog.PrivInsert, false},     // not hers
		{"alice", tbl2, catalog.PrivSelect, true},      // PUBLIC may read t2
		{"reader", tbl1, catalog.PrivSelect, true},     // granted
		{"reader", tbl1, catalog.PrivUpdate, false},    // not granted
		{"reader", tbl1, catalog.PrivSelect | catalog.PrivUpdate, false},
		{"writer", tbl1, catalog.PrivInsert | catalog.PrivUpdate | catalog.PrivSelect, true},
		{"writer", tbl1, catalog.PrivDelete, false},
		{"nobody", tbl1, catalog.PrivSelect, false}, // no such role
		{"nobody", tbl2, catalog.PrivSelect, true},  // PUBLIC's
		{"nobody", view, catalog.PrivSelect, true},  // catalog views
		{"reader", tbl2, catalog.PrivSelect, true},
	} {
		if got := snap.Allowed(tc.role, tc.table, tc.priv); got != tc.want {
			t.Errorf("Allowed(%s, %s, %s) = %v, want %v", tc.role, tc.table.Name, tc.priv, got, tc.want)
		}
	}
	if owned := snap.Owned("alice"); len(owned) != 1 || owned[0] != "owner of table t1" {
		t.Errorf("Owned(alice) = %v", owned)
	}
	if g := snap.Granted("reader"); len(g) != 1 || g[0] != "privileges for table t1" {
		t.Errorf("Granted(reader) = %v", g)
	}
}

func TestPruneGrants(t *testing.T) {
	ctx := context.Background()
	cat, _ := openCatalog(t)
	snap, err := cat.Update(ctx, func(s *catalog.Snapshot, v uint64) (catalog.Change, error) {
		return catalog.Change{Put: []*catalog.Table{{ID: v, Name: "t", Shards: 1,
			Columns: []catalog.Column{{Name: "a"}}, PrimaryKey: []catalog.KeyColumn{{Column: 0}}}}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	tbl, _ := snap.Table("t")
	r := &catalog.Role{Name: "r", Grants: map[uint64]catalog.Privilege{tbl.ID: catalog.PrivSelect, tbl.ID + 99: catalog.PrivAll}}
	snap.PruneGrants(r)
	if len(r.Grants) != 1 || r.Grants[tbl.ID] != catalog.PrivSelect {
		t.Errorf("after PruneGrants: %v", r.Grants)
	}
}

func TestPrivilegeNames(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want catalog.Privilege
		ok   bool
	}{
		{"select", catalog.PrivSelect, true},
		{"DELETE", catalog.PrivDelete, true},
		{"all", catalog.PrivAll, true},
		{"all privileges", catalog.PrivAll, true},
		{"truncate", catalog.PrivTruncate, true},
		{"references", catalog.PrivReferences, true},
		{"connect", catalog.PrivConnect, true},
		{"temp", catalog.PrivTemporary, true},
		{"usage on", 0, false},
	} {
		if got, ok := catalog.ParsePrivilege(tc.in); got != tc.want || ok != tc.ok {
			t.Errorf("ParsePrivilege(%q) = %v, %v", tc.in, got, ok)
		}
	}
	if s := (catalog.PrivSelect | catalog.PrivDelete).String(); s != "SELECT, DELETE" {
		t.Errorf("String() = %q", s)
	}
}
