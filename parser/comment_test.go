package parser

import (
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// TestCommentOnObjects: COMMENT ON a routine or a type is that object's
// statement, with the comment's text; a malformed one is 42601.
func TestCommentOnObjects(t *testing.T) {
	for _, tc := range []struct {
		sql               string
		routine, typ      bool
		name, text        string
		procedure, either bool
		domain, aggregate bool
		constraint        string // COMMENT ON CONSTRAINT ... ON DOMAIN's
	}{
		{sql: `COMMENT ON FUNCTION f(int, text) IS 'x'`, routine: true, name: "f", text: "x"},
		{sql: `COMMENT ON FUNCTION s.f IS NULL`, routine: true, name: "s.f"},
		{sql: `COMMENT ON PROCEDURE p() IS 'p'`, routine: true, name: "p", text: "p", procedure: true},
		{sql: `COMMENT ON ROUTINE r IS ''`, routine: true, name: "r", either: true},
		{sql: `COMMENT ON AGGREGATE a(int) IS 'a'`, routine: true, name: "a", text: "a", aggregate: true},
		{sql: `COMMENT ON TYPE mood IS 'm'`, typ: true, name: "mood", text: "m"},
		{sql: `COMMENT ON DOMAIN s.posint IS 'd'`, typ: true, name: "s.posint", text: "d", domain: true},
		{sql: `COMMENT ON CONSTRAINT "C" ON DOMAIN s.posint IS 'c'`, typ: true, name: "s.posint", text: "c", domain: true, constraint: "C"},
		{sql: `COMMENT ON CONSTRAINT c ON DOMAIN d IS NULL`, typ: true, name: "d", domain: true, constraint: "c"},
	} {
		sts, err := Parse(tc.sql)
		if err != nil || len(sts) != 1 {
			t.Errorf("%s: %v", tc.sql, err)
			continue
		}
		st := sts[0]
		switch {
		case tc.routine:
			rs := st.Routine
			if rs == nil || rs.Action != RoutineComment || rs.Refs[0].Name != tc.name || rs.Comment != tc.text ||
				rs.Procedure != tc.procedure || rs.EitherKind != tc.either || (rs.Aggregate != nil) != tc.aggregate {
				t.Errorf("%s: %+v", tc.sql, rs)
			}
		case tc.typ:
			ts := st.Type
			action := TypeComment
			if tc.constraint != "" {
				action = DomainCommentConstraint
			}
			if ts == nil || ts.Action != action || ts.Names[0] != tc.name || ts.Comment != tc.text || ts.Domain != tc.domain || ts.Value != tc.constraint {
				t.Errorf("%s: %+v", tc.sql, ts)
			}
		}
	}
	for _, sql := range []string{`COMMENT ON FUNCTION f() 'x'`, `COMMENT ON TYPE t IS 'x' extra`, `COMMENT ON DOMAIN IS 'x'`,
		`COMMENT ON CONSTRAINT c ON DOMAIN d IS 'x' 'y'`, `COMMENT ON CONSTRAINT a.b ON t IS 'x'`} {
		if _, err := Parse(sql); pgerr.CodeOf(err) != pgerr.SyntaxError {
			t.Errorf("%s: %v, want 42601", sql, err)
		}
	}
}
