package pgcatalog

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	zpebble "github.com/zproxy/zproxy/kv/pebble"
)

// snapshot makes a catalog with a table (primary key, a btree index with
// INCLUDE, a Z-order index), a table without a primary key, and a view.
func snapshot(t *testing.T) *catalog.Snapshot {
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
	snap, err := cat.Update(context.Background(), func(s *catalog.Snapshot, v uint64) (catalog.Change, error) {
		readings := &catalog.Table{ID: v, Name: "readings", Shards: 4, Mutability: catalog.Mutable, Owner: "alice",
			Columns: []catalog.Column{{Name: "sensor_id", Type: sqltypes.TypeInt8, NotNull: true}, {Name: "ts", Type: sqltypes.TypeTimestamp, NotNull: true},
				{Name: "note", Type: sqltypes.Type{ID: sqltypes.Varchar, Width: 40}}, {Name: "Lat", Type: sqltypes.TypeFloat8}},
			PrimaryKey: []catalog.KeyColumn{{Column: 0}, {Column: 1, Desc: true}},
			Indexes: []*catalog.Index{
				{ID: v + 1, Name: "readings_note", Kind: catalog.KindBTree, Columns: []catalog.KeyColumn{{Column: 2}}, Include: []int{3}, Shards: 1, State: catalog.StatePublic},
				{ID: v + 2, Name: "readings_z", Kind: catalog.KindZOrder, Columns: []catalog.KeyColumn{{Column: 3, Width: 16}, {Column: 1}}, Shards: 2, State: catalog.StateBuilding},
			}}
		events := &catalog.Table{ID: v + 3, Name: "events", Shards: 4,
			Columns:    []catalog.Column{{Name: "body", Type: sqltypes.TypeText}, {Name: "rowid", Type: sqltypes.TypeInt8, Hidden: true}},
			PrimaryKey: []catalog.KeyColumn{{Column: 1}}}
		view := &catalog.View{ID: v + 4, Name: "warm", SQL: "SELECT sensor_id FROM readings", Columns: []string{"sensor_id"}, Types: []sqltypes.Type{sqltypes.TypeInt8}}
		return catalog.Change{Put: []*catalog.Table{readings, events}, PutViews: []*catalog.View{view}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// rows reads a relation as strings, the columns named joined by |.
func rows(t *testing.T, e *Env, rel string, cols ...string) []string {
	t.Helper()
	schema, name, _ := strings.Cut(rel, ".")
	tbl, ok := Lookup(e.Snap, schema, name)
	if !ok {
		t.Fatalf("no relation %s", rel)
	}
	idx := make([]int, len(cols))
	for i, c := range cols {
		idx[i] = tbl.ColumnIndex(c)
		if idx[i] < 0 {
			t.Fatalf("%s has no column %s", rel, c)
		}
	}
	r := registry[rel]
	var out []string
	for _, row := range r.Rows(e) {
		parts := make([]string, len(cols))
		for i, j := range idx {
			if row[j].IsNull() {
				parts[i] = "NULL"
			} else {
				parts[i] = sqltypes.FormatText(row[j])
			}
		}
		out = append(out, strings.Join(parts, "|"))
	}
	return out
}

func contains(list []string, want string) bool {
	for _, l := range list {
		if l == want {
			return true
		}
	}
	return false
}

func TestRelationsMatchTheirColumns(t *testing.T) {
	e := NewEnv(snapshot(t), nil)
	for _, r := range relationList() {
		for i, row := range r.Rows(e) {
			if len(row) != len(r.Columns) {
				t.Errorf("%s.%s row %d has %d values for %d columns", r.Schema, r.Name, i, len(row), len(r.Columns))
			}
			for j, v := range row {
				if v.IsNull() {
					continue
				}
				if k := r.Columns[j].Type.Kind(); v.K != k {
					t.Errorf("%s.%s.%s: a value of kind %d in a column of type %s", r.Schema, r.Name, r.Columns[j].Name, v.K, r.Columns[j].Type)
				}
			}
		}
	}
}

func TestClassesAndIndexes(t *testing.T) {
	snap := snapshot(t)
	e := NewEnv(snap, nil)
	tbl, _ := snap.Table("readings")
	relOID := ObjectOID(tbl.ID, 0)
	for _, tc := range []struct {
		rel  string
		cols []string
		want []string
	}{
		{"pg_catalog.pg_class", []string{"relname", "relkind", "relam", "reloptions"}, []string{
			"readings|r|2|{shards=4}", "readings_pkey|i|403|NULL", "readings_note|i|403|{shards=1}", "readings_z|i|9403|{shards=2}", "events|r|2|NULL", "warm|v|0|NULL",
		}},
		{"pg_catalog.pg_index", []string{"indkey", "indoption", "indnkeyatts", "indisprimary", "indisvalid"}, []string{
			"1 2|0 3|2|t|t", "3 4|0|1|f|t", "4 2|0 0|2|f|f",
		}},
		{"pg_catalog.pg_indexes", []string{"indexname", "indexdef"}, []string{
			"readings_pkey|CREATE UNIQUE INDEX readings_pkey ON public.readings USING btree (sensor_id, ts DESC)",
			"readings_note|CREATE INDEX readings_note ON public.readings USING btree (note) INCLUDE (\"Lat\") WITH (shards='1')",
			"readings_z|CREATE INDEX readings_z ON public.readings USING zorder (\"Lat\"(16), ts) WITH (shards='2')",
		}},
		{"pg_catalog.pg_constraint", []string{"conname", "contype", "conkey"}, []string{"readings_pkey|p|{1,2}"}},
		{"pg_catalog.pg_attribute", []string{"attname", "attnum", "atttypmod", "attnotnull"}, []string{
			"sensor_id|1|-1|t", "note|3|44|f", "body|1|-1|f",
		}},
		{"information_schema.columns", []string{"table_name", "column_name", "data_type", "character_maximum_length", "is_nullable"}, []string{
			"readings|note|character varying|40|YES", "events|body|text|NULL|YES", "warm|sensor_id|bigint|NULL|YES",
		}},
		{"pg_catalog.pg_views", []string{"viewname", "definition"}, []string{"warm| SELECT sensor_id FROM readings;"}},
		{"pg_catalog.pg_am", []string{"amname", "amtype"}, []string{"heap|t", "btree|i", "zorder|i"}},
	} {
		got := rows(t, e, tc.rel, tc.cols...)
		for _, w := range tc.want {
			if !contains(got, w) {
				t.Errorf("%s: no row %q in\n%s", tc.rel, w, strings.Join(got, "\n"))
			}
		}
	}
	// The hidden row id is no attribute, and a table keyed by it has no
	// primary-key index.
	for _, r := range rows(t, e, "pg_catalog.pg_attribute", "attname") {
		if r == "rowid" {
			t.Error("pg_attribute lists the hidden rowid")
		}
	}
	if contains(rows(t, e, "pg_catalog.pg_class", "relname"), "events_pkey") {
		t.Error("a table without a primary key has a primary-key index")
	}
	if got := e.RegName(sqltypes.TypeRegClass, relOID); got != "readings" {
		t.Errorf("RegName(regclass, %d) = %q", relOID, got)
	}
	if o, err := e.RegOID(sqltypes.TypeRegClass, "public.readings"); err != nil || o != relOID {
		t.Errorf("RegOID(regclass, public.readings) = %d, %v", o, err)
	}
	if _, err := e.RegOID(sqltypes.TypeRegClass, "nosuch"); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("RegOID of a missing relation: %v", err)
	}
}

func TestOIDsAreStable(t *testing.T) {
	a, b := NewEnv(snapshot(t), nil), NewEnv(snapshot(t), nil)
	ra := rows(t, a, "pg_catalog.pg_class", "oid", "relname")
	rb := rows(t, b, "pg_catalog.pg_class", "oid", "relname")
	if strings.Join(ra, "\n") != strings.Join(rb, "\n") {
		t.Errorf("two catalogs built alike give different OIDs:\n%v\n%v", ra, rb)
	}
	for _, r := range ra {
		oid, name, _ := strings.Cut(r, "|")
		if n, _ := sqltypes.ParseOID(oid); n < FirstNormalOID && (name == "readings" || name == "warm") {
			t.Errorf("user object %s has OID %s, below %d", name, oid, FirstNormalOID)
		}
	}
}

func TestTypeNames(t *testing.T) {
	e := NewEnv(nil, nil)
	for _, tc := range []struct {
		in   string
		want uint32
		out  string
	}{
		{"int4", 23, "integer"}, {"integer", 23, "integer"}, {"pg_catalog.int8", 20, "bigint"}, {"character varying", 1043, "character varying"},
		{"text[]", 1009, "text[]"}, {"_text", 1009, "text[]"}, {`"char"`, 18, `"char"`}, {"regclass", 2205, "regclass"}, {"oidvector", 30, "oidvector"},
	} {
		o, err := e.typeOID(tc.in)
		if err != nil || o != tc.want {
			t.Errorf("typeOID(%q) = %d, %v; want %d", tc.in, o, err, tc.want)
			continue
		}
		if got := e.RegName(sqltypes.TypeRegType, o); got != tc.out {
			t.Errorf("regtype %d prints %q, want %q", o, got, tc.out)
		}
	}
	if got := e.formatType(1043, 24, true); got != "character varying(20)" {
		t.Errorf("format_type(1043, 24) = %q", got)
	}
	if got := e.formatType(1700, 655366, true); got != "numeric(10,2)" {
		t.Errorf("format_type(1700, 655366) = %q", got)
	}
	if got := e.formatType(99999, -1, false); got != "???" {
		t.Errorf("format_type of an unknown OID = %q", got)
	}
}

func TestSizePretty(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0 bytes", 10239: "10239 bytes", 10240: "10 kB", 10752: "11 kB", 123456789: "118 MB", -10240: "-10 kB",
		1 << 40: "1024 GB", 1 << 50: "1024 TB", 1<<62 + 1<<61: "6144 PB",
	} {
		if got := sizePretty(n); got != want {
			t.Errorf("sizePretty(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestAdvisoryLocks(t *testing.T) {
	l := NewAdvisoryLocks()
	bg := context.Background()
	try := func(owner uint64, shared bool) bool {
		ok, err := l.TryLock(bg, owner, 42, shared)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	unlock := func(owner uint64) bool {
		ok, err := l.Unlock(bg, owner, 42, false)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if !try(1, false) || !try(1, false) {
		t.Fatal("a session cannot take its own lock twice")
	}
	if try(2, false) || try(2, true) {
		t.Fatal("another session took a held exclusive lock")
	}
	if !unlock(1) || try(2, false) {
		t.Fatal("one unlock of two holds released the lock")
	}
	unlock(1)
	if !try(2, true) || !try(3, true) || try(1, false) {
		t.Fatal("shared locks do not share, or do not exclude")
	}
	if held, _ := l.Held(bg); len(held) != 2 {
		t.Fatalf("held: %v", held)
	}
	ctx, cancel := context.WithCancel(bg)
	done := make(chan error)
	go func() { done <- l.Lock(ctx, 1, 42, false) }()
	l.UnlockAll(bg, 2)
	l.UnlockAll(bg, 3)
	if err := <-done; err != nil {
		t.Fatalf("a waiting lock was not granted on release: %v", err)
	}
	go func() { done <- l.Lock(ctx, 2, 42, false) }()
	cancel()
	if err := <-done; err == nil {
		t.Fatal("a canceled wait took the lock")
	}
	if unlock(2) {
		t.Fatal("a session released a lock it does not hold")
	}
}

func TestDescribeObject(t *testing.T) {
	snap := snapshot(t)
	e := NewEnv(snap, nil)
	tbl, _ := snap.Table("readings")
	ext := Extensions[0]
	for _, tc := range []struct {
		class, obj uint32
		sub        int64
		want       string
	}{
		{pgClassOID, ObjectOID(tbl.ID, 0), 0, "table readings"},
		{pgClassOID, ObjectOID(tbl.ID, 0), 3, "column note of table readings"},
		{pgClassOID, ObjectOID(tbl.ID, 0), 99, "NULL"},
		{pgClassOID, relationInfo["pg_catalog.pg_stat_statements"].oid, 0, "view pg_stat_statements"},
		{pgClassOID, relationInfo["information_schema.tables"].oid, 0, "view information_schema.tables"},
		{pgClassOID, 999_999, 0, "NULL"},
		{pgTypeOID, 1043, 0, "type character varying"},
		{pgNamespaceOID, NamespacePublic, 0, "schema public"},
		{pgExtensionOID, ext.OID, 0, "extension pg_stat_statements"},
	} {
		v, err := e.describeObject(tc.class, tc.obj, tc.sub)
		if err != nil {
			t.Fatal(err)
		}
		if got := sqltypes.FormatText(v); v.IsNull() && tc.want != "NULL" || !v.IsNull() && got != tc.want {
			t.Errorf("pg_describe_object(%d, %d, %d) = %v, want %s", tc.class, tc.obj, tc.sub, v, tc.want)
		}
	}
	if _, err := e.describeObject(1, 2, 0); err == nil {
		t.Error("an unknown catalog gave no error")
	}
	// The extension's members, as \dx+ finds them.
	got := rows(t, e, "pg_catalog.pg_depend", "classid", "objid", "refclassid", "refobjid", "deptype")
	want := fmt.Sprintf("1259|12900|3079|%d|e", ext.OID)
	if !contains(got, want) {
		t.Errorf("pg_depend has no row %q: %v", want, got)
	}
}
