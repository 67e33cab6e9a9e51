package e2e

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPSQLLargeObjects runs psql's client-side \lo_import, \lo_export and
// \lo_unlink, which libpq carries out with the large-object functions
// called through the function-call protocol (wire/fastpath.go): the file
// comes back byte for byte, spans several pg_largeobject pages, and a
// ROLLBACK takes an import back.
func TestPSQLLargeObjects(t *testing.T) {
	requireZproxy(t)
	t.Parallel()
	psqlPath(t)
	s := startServer(t, "")
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.bin"), filepath.Join(dir, "out.bin")
	data := make([]byte, 5000) // three pages of 2048 bytes
	for i := range data {
		data[i] = byte(i * 7)
	}
	if err := os.WriteFile(in, data, 0o600); err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf(`\lo_import %s
SELECT count(*) AS pages, sum(length(data)) AS bytes FROM pg_largeobject;
BEGIN;
\lo_import %s
ROLLBACK;
SELECT count(*) AS objects FROM pg_largeobject_metadata;
`, in, in)
	stdout, stderr, err := runPSQL(t, s, script)
	if err != nil {
		t.Fatalf("psql: %v\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
	}
	lines := strings.Split(nonEmptyLines(stdout), "\n")
	var oid string
	if len(lines) > 0 {
		oid = strings.TrimPrefix(lines[0], "lo_import ")
	}
	rest := strings.Join(lines[1:], "\n")
	wantPrefix := "pages|bytes\n3|5000\n(1 row)\nBEGIN\nlo_import "
	wantSuffix := "ROLLBACK\nobjects\n1\n(1 row)"
	if oid == "" || !strings.HasPrefix(rest, wantPrefix) || !strings.HasSuffix(rest, wantSuffix) {
		t.Fatalf("psql output:\n%s\nwant lo_import <oid>, then\n%s ... %s", stdout, wantPrefix, wantSuffix)
	}
	stdout, stderr, err = runPSQL(t, s, fmt.Sprintf("\\lo_export %s %s\n\\lo_unlink %s\nSELECT count(*) AS objects FROM pg_largeobject_metadata;\n", oid, out, oid))
	if err != nil {
		t.Fatalf("psql: %v\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
	}
	if want := "lo_export\nlo_unlink " + oid + "\nobjects\n0\n(1 row)"; nonEmptyLines(stdout) != want {
		t.Errorf("psql output:\n%s\nwant:\n%s", stdout, want)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data) {
		t.Errorf("exported %d bytes differ from the %d imported", len(got), len(data))
	}
	// Unlinking it again fails as PostgreSQL does.
	_, stderr, err = runPSQL(t, s, "\\lo_unlink "+oid+"\n")
	if err == nil || !strings.Contains(stderr, "large object "+oid+" does not exist") {
		t.Errorf("second \\lo_unlink: %v, stderr %q", err, stderr)
	}
}
