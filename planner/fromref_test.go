package planner_test

import (
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/planner/plannertest"
)

// TestInvalidFromReferenceHint checks PostgreSQL's errorMissingRTE: the
// message and the hint for a qualifier naming a FROM item the reference
// may not see, or a table by its name when the FROM item has an alias
// (the SQL scripts check SQLSTATE and message only).
func TestInvalidFromReferenceHint(t *testing.T) {
	cat := plannertest.New()
	if err := cat.Exec("CREATE TABLE fr (x int PRIMARY KEY, y int)"); err != nil {
		t.Fatal(err)
	}
	const hidden = `There is an entry for table "a", but it cannot be referenced from this part of the query.`
	for _, c := range []struct {
		sql, msg, hint string
	}{
		{"SELECT * FROM fr a, (SELECT a.x) s", `invalid reference to FROM-clause entry for table "a"`, hidden},
		{"SELECT * FROM fr a, fr b JOIN fr c ON a.x = c.x", `invalid reference to FROM-clause entry for table "a"`, hidden},
		{"SELECT * FROM fr a, (SELECT a.* FROM fr) s", `invalid reference to FROM-clause entry for table "a"`, hidden},
		{"SELECT fr.x FROM fr a", `invalid reference to FROM-clause entry for table "fr"`, `Perhaps you meant to reference the table alias "a".`},
		{"SELECT * FROM fr a, (SELECT fr.x) s", `invalid reference to FROM-clause entry for table "fr"`, hidden},
		{"SELECT * FROM (SELECT a.x) s, fr a", `missing FROM-clause entry for table "a"`, ""},
		{"SELECT z.x FROM fr a", `missing FROM-clause entry for table "z"`, ""},
		{"SELECT (SELECT 1 FROM fr b), b.x FROM fr a", `missing FROM-clause entry for table "b"`, ""},
	} {
		_, err := cat.Bind(c.sql)
		pe := pgerr.As(err)
		if pe == nil || pe.Code != pgerr.UndefinedTable || pe.Message != c.msg || pe.Hint != c.hint {
			t.Errorf("%s: got %v (hint %q), want 42P01 %s (hint %q)", c.sql, err, hintOf(pe), c.msg, c.hint)
		}
	}
}

func hintOf(pe *pgerr.Error) string {
	if pe == nil {
		return ""
	}
	return pe.Hint
}
