package parser

import (
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// TestCheckPLpgSQL: the compile-time checks' errors and where they point
// (the token PostgreSQL's caret marks; session's
// plpgsql_compile_checks.slt runs the same bodies against PostgreSQL).
func TestCheckPLpgSQL(t *testing.T) {
	fn := PLRoutine{Name: "f"}
	for _, c := range []struct {
		body string
		r    PLRoutine
		code pgerr.Code
		msg  string
		at   string // the error points at the first occurrence of at
	}{
		{`BEGIN x := 1; RETURN 1; END`, fn, pgerr.SyntaxError, `"x" is not a known variable`, "x :="},
		{`DECLARE r record; BEGIN r.a := 1; y.z := 2; RETURN 1; END`, fn, pgerr.SyntaxError, `"y.z" is not a known variable`, "y.z"},
		{`DECLARE x int; BEGIN x.y := 1; RETURN 1; END`, fn, pgerr.SyntaxError, `"x.y" is not a known variable`, "x.y"},
		{`BEGIN a.b := 1; RETURN 1; END`, PLRoutine{Name: "f", Params: []PLParam{{Name: "a"}}}, pgerr.SyntaxError, `"a.b" is not a known variable`, "a.b"},
		{`BEGIN a.b := 1; f.a := 2; RETURN 1; END`, PLRoutine{Name: "f", Params: []PLParam{{Name: "a", Record: true}}}, pgerr.Code{}, "", ""},
		{`DECLARE x int[]; BEGIN x[1] := 1; y[1] := 2; RETURN 1; END`, fn, pgerr.SyntaxError, `"y" is not a known variable`, "y["},
		{`BEGIN SELECT 1 INTO q; RETURN 1; END`, fn, pgerr.SyntaxError, `"q" is not a known variable`, "q;"},
		{`BEGIN EXECUTE 'x' INTO a, zz; RETURN 1; END`, PLRoutine{Params: []PLParam{{Name: "a"}}}, pgerr.SyntaxError, `"zz" is not a known variable`, "zz"},
		{`BEGIN GET DIAGNOSTICS w = ROW_COUNT; RETURN 1; END`, fn, pgerr.SyntaxError, `"w" is not a known variable`, "w ="},
		{`BEGIN OPEN c FOR SELECT 1; RETURN 1; END`, fn, pgerr.SyntaxError, `"c" is not a known variable`, "c FOR"},
		{`BEGIN DECLARE z int; BEGIN z := 1; END; z := 2; RETURN 1; END`, fn, pgerr.SyntaxError, `"z" is not a known variable`, "z := 2"},
		{`DECLARE c CONSTANT int := 1; BEGIN c := 2; RETURN 1; END`, fn, pgerr.ErrorInAssignment, `variable "c" is declared CONSTANT`, "c := 2"},
		{`BEGIN SELECT 1 INTO sqlstate; RETURN 1; END`, fn, pgerr.SyntaxError, `syntax error at or near "sqlstate"`, "sqlstate"},
		{`BEGIN BEGIN NULL; EXCEPTION WHEN others THEN sqlstate := 'x'; END; RETURN 1; END`, fn, pgerr.ErrorInAssignment, `variable "sqlstate" is declared CONSTANT`, "sqlstate :="},
		{`BEGIN FOR q IN SELECT 1 LOOP END LOOP; RETURN 1; END`, fn, pgerr.SyntaxError, "loop variable of loop over rows", "q IN"},
		{`BEGIN FOR q IN EXECUTE 'x' LOOP END LOOP; RETURN 1; END`, fn, pgerr.DatatypeMismatch, "loop variable of loop over rows", "q IN"},
		{`BEGIN FOREACH q IN ARRAY ARRAY[1] LOOP END LOOP; RETURN 1; END`, fn, pgerr.SyntaxError, "loop variable of FOREACH", "q IN"},
		{`BEGIN FOR i IN 1..2 LOOP i := 3; END LOOP; i := 1; RETURN 1; END`, fn, pgerr.SyntaxError, `"i" is not a known variable`, "i := 1"},
		{`BEGIN EXIT nosuch; RETURN 1; END`, fn, pgerr.SyntaxError, `there is no label "nosuch"`, "nosuch"},
		{`BEGIN CONTINUE; RETURN 1; END`, fn, pgerr.SyntaxError, "CONTINUE cannot be used outside a loop", "CONTINUE"},
		{`BEGIN LOOP EXIT; END LOOP; EXIT; RETURN 1; END`, fn, pgerr.SyntaxError, "EXIT cannot be used outside a loop", "EXIT; RETURN"},
		{`<<b>> BEGIN CONTINUE b; RETURN 1; END`, fn, pgerr.SyntaxError, `block label "b" cannot be used in CONTINUE`, "b; RETURN"},
		{`<<b>> BEGIN EXIT b; EXIT f; RETURN 1; END`, fn, pgerr.Code{}, "", ""},
		{`BEGIN RETURN 1; END`, PLRoutine{Void: true}, pgerr.DatatypeMismatch, "in function returning void", "1;"},
		{`BEGIN RETURN NEXT 1; END`, fn, pgerr.DatatypeMismatch, "cannot use RETURN NEXT in a non-SETOF function", "RETURN"},
		{`BEGIN RETURN QUERY SELECT 1; END`, fn, pgerr.DatatypeMismatch, "cannot use RETURN QUERY in a non-SETOF function", "RETURN"},
		{`BEGIN RETURN 1; END`, PLRoutine{Params: []PLParam{{Name: "a", Output: true}}}, pgerr.DatatypeMismatch, "in function with OUT parameters", "1;"},
		{`BEGIN RETURN 1; END`, PLRoutine{Set: true}, pgerr.DatatypeMismatch, "in function returning set", "1;"},
		{`BEGIN RETURN; END`, fn, pgerr.SyntaxError, `missing expression at or near ";"`, ";"},
		{`BEGIN RETURN; END`, PLRoutine{Trigger: true}, pgerr.SyntaxError, `missing expression at or near ";"`, ";"},
		{`BEGIN NEW.a := 1; tg_op := 'x'; RETURN NEW; END`, PLRoutine{Trigger: true}, pgerr.Code{}, "", ""},
		{`BEGIN RETURN 1; END`, PLRoutine{Procedure: true}, pgerr.SyntaxError, "RETURN cannot have a parameter in a procedure", "1;"},
		{`BEGIN a := 1; RETURN; END`, PLRoutine{Procedure: true, Params: []PLParam{{Name: "a", Output: true}}}, pgerr.Code{}, "", ""},
		{`DECLARE c CURSOR FOR SELECT 1; BEGIN FOR r IN c LOOP r.x := 1; END LOOP; FETCH c INTO found; RETURN 1; END`, fn, pgerr.Code{}, "", ""},
		{`DECLARE al ALIAS FOR $1; BEGIN al := 1; RETURN 1; END`, PLRoutine{Params: []PLParam{{Name: "a"}}}, pgerr.Code{}, "", ""},
	} {
		b, err := ParsePLpgSQL(c.body)
		if err != nil {
			t.Errorf("%s: %v", c.body, err)
			continue
		}
		err = CheckPLpgSQL(c.body, b, c.r)
		if c.code == (pgerr.Code{}) {
			if err != nil {
				t.Errorf("%s: %v, want no error", c.body, err)
			}
			continue
		}
		pe, ok := err.(*pgerr.Error)
		if !ok || pe.Code != c.code || !strings.Contains(pe.Message, c.msg) {
			t.Errorf("%s: %v, want %s %q", c.body, err, c.code, c.msg)
			continue
		}
		if want := strings.Index(c.body, c.at) + 1; pe.Position != want {
			t.Errorf("%s: error at %d, want %d (%q)", c.body, pe.Position, want, c.at)
		}
	}
}
