package catalog_test

import (
	"context"
	"testing"

	"github.com/zproxy/zproxy/catalog"
	zpebble "github.com/zproxy/zproxy/kv/pebble"
)

// TestSchemaResolution stores a schema and relations in it and in public,
// and checks how names resolve through search paths: keys as they are,
// unqualified names in the path's order, creation in its first schema.
func TestSchemaResolution(t *testing.T) {
	store, err := zpebble.Open(t.Name(), zpebble.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	ctx := context.Background()
	c, err := catalog.Open(ctx, store)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := c.Update(ctx, func(s *catalog.Snapshot, v uint64) (catalog.Change, error) {
		tbl := func(id uint64, name string) *catalog.Table {
			return &catalog.Table{ID: id, Name: name, Shards: 1, Columns: []catalog.Column{{Name: "a"}}, PrimaryKey: []catalog.KeyColumn{{Column: 0}}}
		}
		return catalog.Change{
			PutSchemas: []*catalog.Schema{{ID: catalog.ObjectID(v, 0), Name: "app", Owner: "alice"}},
			Put:        []*catalog.Table{tbl(catalog.ObjectID(v, 1), "t"), tbl(catalog.ObjectID(v, 2), "app.t"), tbl(catalog.ObjectID(v, 3), "app.only")},
		}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !snap.HasSchema("app") || !snap.HasSchema("public") || snap.HasSchema("nope") || !snap.HasUserSchemas() {
		t.Fatalf("schemas: %v", snap.Schemas())
	}
	tables, _, _ := snap.SchemaObjects("app")
	if len(tables) != 2 || tables[0] != "app.only" || tables[1] != "app.t" {
		t.Errorf("SchemaObjects(app) = %v", tables)
	}
	cases := []struct {
		path       []string
		name, want string
		create     string
		createErr  bool
		missing    bool
	}{
		{path: []string{"app", "public"}, name: "t", want: "app.t", create: "app.x"},
		{path: []string{"public", "app"}, name: "t", want: "t", create: "x"},
		{path: []string{"public"}, name: "only", want: "only", create: "x", missing: true},
		{path: []string{"public", "app"}, name: "only", want: "app.only", create: "x"},
		{path: []string{}, name: "app.t", want: "app.t", createErr: true},
		{path: []string{"app"}, name: "t", want: "app.t", create: "app.x"},
	}
	for _, tc := range cases {
		p := snap.WithPath(tc.path)
		if got := p.Resolve(tc.name); got != tc.want {
			t.Errorf("path %v: Resolve(%q) = %q, want %q", tc.path, tc.name, got, tc.want)
		}
		if tb, err := p.Table(tc.name); (err != nil) != tc.missing || err == nil && tb.Name != tc.want {
			t.Errorf("path %v: Table(%q) = %v, %v", tc.path, tc.name, tb, err)
		}
		if got := p.Permanent().Resolve("t"); got != "t" {
			t.Errorf("path %v: Permanent resolves t to %q", tc.path, got)
		}
		k, err := p.CreationKey("x")
		if (err != nil) != tc.createErr || err == nil && k != tc.create {
			t.Errorf("path %v: CreationKey(x) = %q, %v", tc.path, k, err)
		}
	}
	for _, tc := range []struct{ key, schema, name, quoted string }{
		{"t", "public", "t", "t"}, {"app.t", "app", "t", "app.t"}, {"app.T x", "app", "T x", `app."T x"`},
	} {
		if s, n := catalog.SplitName(tc.key); s != tc.schema || n != tc.name {
			t.Errorf("SplitName(%q) = %q, %q", tc.key, s, n)
		}
		if q := catalog.QuoteKey(tc.key); q != tc.quoted {
			t.Errorf("QuoteKey(%q) = %q, want %q", tc.key, q, tc.quoted)
		}
		if k := catalog.QualifiedKey(tc.schema, tc.name); k != tc.key {
			t.Errorf("QualifiedKey(%q, %q) = %q", tc.schema, tc.name, k)
		}
	}
	if tbl, col, ok := catalog.SplitOwnedBy("app.t.id"); !ok || tbl != "app.t" || col != "id" {
		t.Errorf("SplitOwnedBy = %q, %q, %v", tbl, col, ok)
	}
}
