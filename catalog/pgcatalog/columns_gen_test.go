package pgcatalog

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// TestColumnsGenUpToDate regenerates columns_gen.go from the PostgreSQL 15
// that PGCATALOG_POSTGRES names, when set: every relation and column of
// its pg_catalog and information_schema, with its type, must be zproxy's.
func TestColumnsGenUpToDate(t *testing.T) {
	dsn := os.Getenv("PGCATALOG_POSTGRES")
	if dsn == "" {
		t.Skip("PGCATALOG_POSTGRES is not set")
	}
	out, err := exec.Command("go", "run", "gen/columns.go", dsn).Output()
	if err != nil {
		t.Fatal(err)
	}
	have, _ := os.ReadFile("columns_gen.go")
	if !bytes.Equal(out, have) {
		t.Error("columns_gen.go differs from PostgreSQL 15's catalogs: go run gen/columns.go \"$PGCATALOG_POSTGRES\" > columns_gen.go; go run gen/rows.go")
	}
}

// TestTypesGenUpToDate regenerates types_gen.go from the PostgreSQL 15
// that PGCATALOG_POSTGRES names, when set: pg_type has every built-in type
// PostgreSQL has.
func TestTypesGenUpToDate(t *testing.T) {
	dsn := os.Getenv("PGCATALOG_POSTGRES")
	if dsn == "" {
		t.Skip("PGCATALOG_POSTGRES is not set")
	}
	out, err := exec.Command("go", "run", "gen/types.go", dsn).Output()
	if err != nil {
		t.Fatal(err)
	}
	have, _ := os.ReadFile("types_gen.go")
	if !bytes.Equal(out, have) {
		t.Error("types_gen.go differs from PostgreSQL 15's pg_type: go run gen/types.go \"$PGCATALOG_POSTGRES\" > types_gen.go")
	}
}

// TestEveryCatalogRelationBinds checks that every relation PostgreSQL 15
// has in pg_catalog and information_schema can be looked up and read:
// those zproxy has nothing for are empty, never missing.
func TestEveryCatalogRelationBinds(t *testing.T) {
	snap := snapshot(t)
	for full := range relationColumns {
		schema, name, _ := strings.Cut(full, ".")
		tab, ok := Lookup(snap, schema, name)
		if !ok {
			t.Errorf("%s cannot be looked up", full)
			continue
		}
		if _, err := tab.Virtual(nil); err != nil {
			t.Errorf("%s: %v", full, err)
		}
		for _, c := range tab.Columns {
			if c.Type.ID == sqltypes.Unknown {
				t.Errorf("%s.%s has no type", full, c.Name)
			}
		}
	}
	if n := len(relationColumns); n < 200 {
		t.Errorf("%d catalog relations; PostgreSQL 15 has over 200", n)
	}
}
