package planner_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/planner/plannertest"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the expected output of testdata/bind")

// TestBind runs the data-driven cases of testdata/bind: DDL applied to an
// in-memory catalog (plannertest), then each statement bound, with no
// store, session or optimizer. A case is a directive line (ddl or bind), the
// SQL, "----", and the expected output: nothing for DDL, the logical plan
// of a query (ir.Format: kinds, column names and types, expressions), or
// the error with its SQLSTATE. go test ./planner -run TestBind -rewrite
// rewrites the expected output.
func TestBind(t *testing.T) {
	files, err := filepath.Glob("testdata/bind/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files: %v", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txt"), func(t *testing.T) { runBindFile(t, f) })
	}
}

func runBindFile(t *testing.T, path string) {
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cat := plannertest.New()
	var out strings.Builder
	blocks := strings.Split(strings.TrimSpace(string(text)), "\n\n")
	for _, block := range blocks {
		if strings.HasPrefix(block, "#") {
			out.WriteString(block + "\n\n")
			continue
		}
		head, rest, ok := strings.Cut(block, "\n")
		sql, want, ok2 := strings.Cut(rest, "\n----")
		if !ok || !ok2 {
			t.Fatalf("%s: malformed case %q", path, block)
		}
		want = strings.TrimPrefix(want, "\n")
		var got string
		switch head {
		case "ddl":
			if err := cat.Exec(sql); err != nil {
				got = errLine(err)
			}
		case "bind":
			st, err := cat.Bind(sql)
			switch {
			case err != nil:
				got = errLine(err)
			default:
				if q, ok := st.(*ir.Query); ok {
					got = strings.TrimRight(ir.Format(q.Plan), "\n")
				} else {
					got = fmt.Sprintf("%T", st)
				}
			}
		default:
			t.Fatalf("%s: unknown directive %q", path, head)
		}
		if !*rewrite && got != want {
			t.Errorf("%s: %s\n%s\ngot:\n%s\nwant:\n%s", path, head, sql, got, want)
		}
		out.WriteString(head + "\n" + sql + "\n----\n")
		if got != "" {
			out.WriteString(got + "\n")
		}
		out.WriteString("\n")
	}
	if *rewrite {
		if err := os.WriteFile(path, []byte(strings.TrimRight(out.String(), "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func errLine(err error) string {
	if e := pgerr.As(err); e != nil {
		return fmt.Sprintf("ERROR %s: %s", e.Code, e.Message)
	}
	return "ERROR: " + err.Error()
}
