package optimizer_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/optimizer"
	"github.com/zproxy/zproxy/planner/plannertest"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the expected output of testdata/access")

// localCaps and remoteCaps are the two kinds of store the rules tell apart:
// an embedded one (Pebble's capabilities) and one a round trip away.
var (
	localCaps  = kv.Capabilities{Name: "pebble", CheapSeek: true, RequestLatency: 20 * time.Microsecond, Exclusive: true, Isolation: kv.IsolationSnapshot, KeepsVersions: true}
	remoteCaps = kv.Capabilities{Name: "remote", RequestLatency: 5 * time.Millisecond, Isolation: kv.IsolationSnapshot}
)

// TestAccessPaths runs the data-driven cases of testdata/access with no
// store and no session: the DDL is bound and applied to an in-memory
// catalog snapshot, and each query is bound and optimized against it. A
// case is
//
//	<directive> [remote]
//	<SQL>
//	----
//	<expected output>
//
// separated by blank lines; lines starting with # are comments. The
// directives:
//
//   - ddl: CREATE TABLE / CREATE INDEX statements (';'-separated); output
//     is empty, or the error.
//   - scans: the access path of every table read: the chosen path, why,
//     the rejected ones, shards, key ranges, the residual filter.
//   - plan: the whole plan as EXPLAIN prints it.
//
// go test ./optimizer -run TestAccessPaths -rewrite rewrites the expected
// output.
func TestAccessPaths(t *testing.T) {
	files, err := filepath.Glob("testdata/access/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files: %v", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txt"), func(t *testing.T) { runAccessFile(t, f) })
	}
}

type accessCase struct {
	directive string
	args      []string
	input     string
	want      string
	line      int
}

func parseAccessFile(t *testing.T, text string) []accessCase {
	var cases []accessCase
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); {
		l := strings.TrimSpace(lines[i])
		if l == "" || strings.HasPrefix(l, "#") {
			i++
			continue
		}
		f := strings.Fields(l)
		c := accessCase{directive: f[0], args: f[1:], line: i + 1}
		i++
		var in []string
		for i < len(lines) && lines[i] != "----" {
			in = append(in, lines[i])
			i++
		}
		if i == len(lines) {
			t.Fatalf("line %d: no ---- after the input", c.line)
		}
		i++
		var out []string
		for i < len(lines) && strings.TrimSpace(lines[i]) != "" {
			out = append(out, lines[i])
			i++
		}
		c.input, c.want = strings.Join(in, "\n"), strings.Join(out, "\n")
		cases = append(cases, c)
	}
	return cases
}

func runAccessFile(t *testing.T, path string) {
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cases := parseAccessFile(t, string(text))
	cat := plannertest.New()
	var out strings.Builder
	for _, c := range cases {
		var got string
		switch c.directive {
		case "ddl":
			if err := cat.Exec(c.input); err != nil {
				got = errText(err)
			}
		case "scans", "plan":
			caps := localCaps
			for _, a := range c.args {
				if a == "remote" {
					caps = remoteCaps
				}
			}
			got = planCase(cat, caps, c.directive, c.input)
		default:
			t.Fatalf("line %d: unknown directive %q", c.line, c.directive)
		}
		got = strings.TrimRight(got, "\n")
		if !*rewrite && got != c.want {
			t.Errorf("%s:%d: %s\n%s\ngot:\n%s\nwant:\n%s", path, c.line, c.directive, c.input, got, c.want)
		}
		fmt.Fprintf(&out, "%s\n%s\n----\n", strings.Join(append([]string{c.directive}, c.args...), " "), c.input)
		if got != "" {
			out.WriteString(got + "\n")
		}
		out.WriteString("\n")
	}
	if *rewrite {
		if err := os.WriteFile(path, []byte(leadingComments(string(text))+out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// leadingComments keeps a file's opening comment when it is rewritten.
func leadingComments(text string) string {
	var b strings.Builder
	for _, l := range strings.Split(text, "\n") {
		if !strings.HasPrefix(l, "#") {
			break
		}
		b.WriteString(l + "\n")
	}
	if b.Len() > 0 {
		b.WriteString("\n")
	}
	return b.String()
}

func errText(err error) string {
	if e := pgerr.As(err); e != nil {
		return fmt.Sprintf("ERROR %s: %s", e.Code, e.Message)
	}
	return "ERROR: " + err.Error()
}

func planCase(cat *plannertest.Catalog, caps kv.Capabilities, directive, sql string) string {
	bound, err := cat.Bind(sql)
	if err != nil {
		return errText(err)
	}
	plan, err := optimizer.Optimize(bound, nil, optimizer.DefaultOptions(caps))
	if err != nil {
		return errText(err)
	}
	if directive == "plan" {
		return strings.Join(optimizer.Explain(plan, nil), "\n")
	}
	var b strings.Builder
	optimizer.Walk(plan.Root, func(n optimizer.Node) {
		if s, ok := n.(*optimizer.Scan); ok {
			d := s.Describe()
			b.WriteString(d.Head + "\n")
			for _, a := range d.Attrs {
				b.WriteString("  " + a.Key + ": " + a.Value + "\n")
			}
		}
	})
	return b.String()
}
