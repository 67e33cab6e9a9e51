package plannertest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// Case is one case of a data-driven test file:
//
//	<directive> [args...]
//	<input lines>
//	----
//	<expected output lines>
//
// Cases are separated by blank lines; lines starting with # between cases
// are comments, kept when the file is rewritten.
type Case struct {
	Directive string
	Args      []string
	Input     string
	Want      string
	Line      int
}

// RunFiles runs every file matching pattern as a subtest. For each file,
// start returns the function that answers its cases in order (holding the
// file's state, such as its catalog); each answer is compared with the
// expected output, or written in its place when rewrite is set.
func RunFiles(t *testing.T, pattern string, rewrite bool, start func(t *testing.T) func(c Case) string) {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files match %s: %v", pattern, err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), filepath.Ext(f)), func(t *testing.T) { runFile(t, f, rewrite, start(t)) })
	}
}

func runFile(t *testing.T, path string, rewrite bool, run func(c Case) string) {
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	lines := strings.Split(string(text), "\n")
	for i := 0; i < len(lines); {
		l := strings.TrimSpace(lines[i])
		if l == "" {
			i++
			continue
		}
		if strings.HasPrefix(l, "#") {
			for i < len(lines) && strings.HasPrefix(lines[i], "#") {
				out.WriteString(lines[i] + "\n")
				i++
			}
			out.WriteString("\n")
			continue
		}
		f := strings.Fields(l)
		c := Case{Directive: f[0], Args: f[1:], Line: i + 1}
		i++
		var in []string
		for i < len(lines) && lines[i] != "----" {
			in = append(in, lines[i])
			i++
		}
		if i == len(lines) {
			t.Fatalf("%s:%d: no ---- after the input", path, c.Line)
		}
		i++
		var want []string
		for i < len(lines) && strings.TrimSpace(lines[i]) != "" {
			want = append(want, lines[i])
			i++
		}
		c.Input, c.Want = strings.Join(in, "\n"), strings.Join(want, "\n")
		got := strings.TrimRight(run(c), "\n")
		if !rewrite && got != c.Want {
			t.Errorf("%s:%d: %s\n%s\ngot:\n%s\nwant:\n%s", path, c.Line, c.Directive, c.Input, got, c.Want)
		}
		fmt.Fprintf(&out, "%s\n%s\n----\n", l, c.Input)
		if got != "" {
			out.WriteString(got + "\n")
		}
		out.WriteString("\n")
	}
	if rewrite {
		if err := os.WriteFile(path, []byte(strings.TrimRight(out.String(), "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// ErrorLine is how a case's output shows an error: its SQLSTATE and
// message.
func ErrorLine(err error) string {
	if e := pgerr.As(err); e != nil {
		return fmt.Sprintf("ERROR %s: %s", e.Code, e.Message)
	}
	return "ERROR: " + err.Error()
}
