// Package harness holds what the end-to-end test packages and the benchmark
// harnesses share: building the real zproxy binary once per test binary,
// with the race detector when the tests run with it, so that the server's
// own data races fail the tests through its exit status; running it and
// reading its addresses from its log (Proc); and starting a throw-away
// PostgreSQL cluster to compare it with (Postgres).
package harness

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// RunTests is a test package's TestMain body: it builds the binary into
// *bin (with the race detector when race), runs the tests and removes it,
// returning the exit status; name prefixes a build failure's message.
func RunTests(m *testing.M, race bool, bin *string, name string) int {
	b, cleanup, err := BuildZproxy(race)
	if err != nil {
		fmt.Fprintln(os.Stderr, name+":", err)
		return 1
	}
	defer cleanup()
	*bin = b
	return m.Run()
}

// BuildZproxy builds ./cmd/zproxy from the module root into a new temporary
// directory and returns the binary's path and a function removing it.
func BuildZproxy(race bool) (bin string, cleanup func(), err error) {
	dir, err := os.MkdirTemp("", "zproxy-e2e-")
	if err != nil {
		return "", nil, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	root, err := moduleRoot()
	if err != nil {
		cleanup()
		return "", nil, err
	}
	bin = filepath.Join(dir, "zproxy")
	args := []string{"build", "-o", bin}
	if race {
		args = append(args, "-race")
	}
	build := exec.Command("go", append(args, "./cmd/zproxy")...)
	build.Dir = root
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("building zproxy: %w", err)
	}
	return bin, cleanup, nil
}

// moduleRoot is two directories above this file (e2e/harness).
func moduleRoot() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", fmt.Errorf("harness: cannot locate the module root")
	}
	return filepath.Abs(filepath.Join(filepath.Dir(file), "..", ".."))
}
