package optimizer_test

import (
	"flag"
	"strings"
	"testing"
	"time"

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

// TestAccessPaths runs the data-driven cases of testdata/access (format:
// plannertest.Case) with no store and no session: the DDL is bound and
// applied to an in-memory catalog snapshot, and each query is bound and
// optimized against it. The directives:
//
//   - ddl: CREATE TABLE / CREATE INDEX statements; output is empty, or the
//     error.
//   - scans [remote]: the access path of every table read: the chosen path,
//     why, the rejected ones, shards, key ranges, the residual filter.
//   - plan [remote]: the whole plan as EXPLAIN prints it.
//
// remote plans for a store a round trip away instead of an embedded one.
// go test ./optimizer -run TestAccessPaths -rewrite rewrites the expected
// output.
func TestAccessPaths(t *testing.T) {
	plannertest.RunFiles(t, "testdata/access/*.txt", *rewrite, func(t *testing.T) func(plannertest.Case) string {
		cat := plannertest.New()
		return func(c plannertest.Case) string {
			switch c.Directive {
			case "ddl":
				if err := cat.Exec(c.Input); err != nil {
					return plannertest.ErrorLine(err)
				}
				return ""
			case "scans", "plan":
				caps := localCaps
				for _, a := range c.Args {
					if a == "remote" {
						caps = remoteCaps
					}
				}
				return planCase(cat, caps, c.Directive, c.Input)
			}
			t.Fatalf("line %d: unknown directive %q", c.Line, c.Directive)
			return ""
		}
	})
}

func planCase(cat *plannertest.Catalog, caps kv.Capabilities, directive, sql string) string {
	bound, err := cat.Bind(sql)
	if err != nil {
		return plannertest.ErrorLine(err)
	}
	plan, err := optimizer.Optimize(bound, nil, optimizer.DefaultOptions(caps))
	if err != nil {
		return plannertest.ErrorLine(err)
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
