package planner_test

import (
	"flag"
	"fmt"
	"testing"

	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/planner/plannertest"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the expected output of testdata/bind")

// TestBind runs the data-driven cases of testdata/bind (format:
// plannertest.Case): DDL applied to an in-memory catalog, then each
// statement bound, with no store, session or optimizer.
//
//   - ddl: CREATE TABLE / CREATE INDEX statements; output is empty, or the
//     error.
//   - bind: one statement; output is a query's logical plan (ir.Format:
//     kinds, column names and types, expressions), another statement's
//     type, or the error with its SQLSTATE.
//
// go test ./planner -run TestBind -rewrite rewrites the expected output.
func TestBind(t *testing.T) {
	plannertest.RunFiles(t, "testdata/bind/*.txt", *rewrite, func(t *testing.T) func(plannertest.Case) string {
		cat := plannertest.New()
		return func(c plannertest.Case) string { return bindCase(t, cat, c) }
	})
}

func bindCase(t *testing.T, cat *plannertest.Catalog, c plannertest.Case) string {
	switch c.Directive {
	case "ddl":
		if err := cat.Exec(c.Input); err != nil {
			return plannertest.ErrorLine(err)
		}
		return ""
	case "bind":
		st, err := cat.Bind(c.Input)
		if err != nil {
			return plannertest.ErrorLine(err)
		}
		if q, ok := st.(*ir.Query); ok {
			return ir.Format(q.Plan)
		}
		return fmt.Sprintf("%T", st)
	}
	t.Fatalf("line %d: unknown directive %q", c.Line, c.Directive)
	return ""
}
