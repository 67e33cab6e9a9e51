package pgcatalog

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// rows_gen.go is what gen/rows.go writes from the relations' columns, so
// the typed rows cannot drift from the columns the relations declare.
func TestRowsGenUpToDate(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"columns_gen.go", "columns_zproxy.go"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gen, _ := filepath.Abs("gen/rows.go")
	cmd := exec.Command("go", "run", gen)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("generator: %v\n%s", err, out)
	}
	want, _ := os.ReadFile(filepath.Join(dir, "rows_gen.go"))
	got, _ := os.ReadFile("rows_gen.go")
	if !bytes.Equal(got, want) {
		t.Error("rows_gen.go is stale: go run gen/rows.go")
	}
}
