package pgerr

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
)

// Every code of the table is a SQLSTATE: five characters of [0-9A-Z],
// and the table has PostgreSQL 15's 260-odd codes.
func TestCodeTable(t *testing.T) {
	sqlstate := regexp.MustCompile(`^[0-9A-Z]{5}$`)
	if len(allCodes) < 250 {
		t.Fatalf("only %d codes", len(allCodes))
	}
	for _, c := range allCodes {
		if !sqlstate.MatchString(c.String()) {
			t.Errorf("code %q is not a SQLSTATE", c)
		}
		if c.Class() != c.String()[:2] {
			t.Errorf("class of %s is %s", c, c.Class())
		}
	}
	if UniqueViolation.String() != "23505" || SerializationFailure.String() != "40001" || InvalidName.String() != "42602" {
		t.Error("names and codes disagree with PostgreSQL's")
	}
}

// codes_gen.go is what the generator writes from PostgreSQL 15's
// errcodes.h, when that file is on the machine (PGERR_ERRCODES_H, or
// Debian's postgresql-server-dev-15 path).
func TestCodesGenUpToDate(t *testing.T) {
	src := os.Getenv("PGERR_ERRCODES_H")
	if src == "" {
		src = "/usr/include/postgresql/15/server/utils/errcodes.h"
	}
	if _, err := os.Stat(src); err != nil {
		t.Skipf("PostgreSQL's errcodes.h is not here (%v); set PGERR_ERRCODES_H to check codes_gen.go", err)
	}
	dir := t.TempDir()
	gen, _ := filepath.Abs("gen/main.go")
	cmd := exec.Command("go", "run", gen, src)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("generator: %v\n%s", err, out)
	}
	want, _ := os.ReadFile(filepath.Join(dir, "codes_gen.go"))
	got, _ := os.ReadFile("codes_gen.go")
	if !bytes.Equal(got, want) {
		t.Error("codes_gen.go is stale: go run gen/main.go " + src)
	}
}
