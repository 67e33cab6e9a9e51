package parser

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

func TestParsePLpgSQL(t *testing.T) {
	b, err := ParsePLpgSQL(`
<<outer>>
DECLARE
  n integer := 0;
  c CONSTANT text DEFAULT 'x';
  r record;
  k kv.k%TYPE;
  row kv%ROWTYPE;
BEGIN
  n := n + 1;
  IF n > 1 THEN RAISE NOTICE 'big % and %', n, c; ELSIF n = 1 THEN NULL; ELSE n = 2; END IF;
  FOR i IN REVERSE 10..1 BY 2 LOOP CONTINUE WHEN i = 4; EXIT outer WHEN i < 3; END LOOP;
  FOR r IN SELECT * FROM kv WHERE k > n LOOP PERFORM pg_sleep(0); END LOOP;
  FOREACH k IN ARRAY ARRAY[1,2] LOOP END LOOP;
  <<w>> WHILE n < 10 LOOP n := n + 1; END LOOP w;
  SELECT v INTO STRICT c FROM kv WHERE k = 1;
  INSERT INTO kv VALUES (n, 'a') RETURNING k INTO k;
  EXECUTE 'SELECT $1' INTO n USING 5;
  GET DIAGNOSTICS n = ROW_COUNT;
  CASE n WHEN 1, 2 THEN NULL; ELSE RETURN NEXT; END CASE;
  BEGIN
    RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'boom';
  EXCEPTION WHEN division_by_zero OR SQLSTATE '22003' THEN RAISE; WHEN others THEN RETURN 1;
  END;
  RETURN QUERY SELECT 1;
END outer;`)
	if err != nil {
		t.Fatal(err)
	}
	if b.Label != "outer" || len(b.Decls) != 5 || len(b.Body) != 13 {
		t.Fatalf("block %+v", b)
	}
	if d := b.Decls[3]; d.TypeOf != "kv.k" {
		t.Errorf("decl %+v", d)
	}
	if d := b.Decls[4]; d.RowOf != "kv" {
		t.Errorf("decl %+v", d)
	}
	loop := b.Body[2].(*PLLoop)
	if loop.Kind != LoopInt || loop.Lo != "10" || loop.Hi != "1" || loop.By != "2" || !loop.Reverse {
		t.Errorf("loop %+v", loop)
	}
	if q := b.Body[3].(*PLLoop); q.Kind != LoopQuery || q.Query != "SELECT * FROM kv WHERE k > n" {
		t.Errorf("query loop %+v", q)
	}
	sel := withoutOffsets(b.Body[6]).(*PLSQL)
	if !reflect.DeepEqual(sel, &PLSQL{SQL: "SELECT v FROM kv WHERE k = 1", Into: []string{"c"}, Strict: true}) {
		t.Errorf("select into %+v", sel)
	}
	ins := withoutOffsets(b.Body[7]).(*PLSQL)
	if !reflect.DeepEqual(ins, &PLSQL{SQL: "INSERT INTO kv VALUES (n, 'a') RETURNING k", Into: []string{"k"}}) {
		t.Errorf("insert into %+v", ins)
	}
	ex := b.Body[8].(*PLExecute)
	if ex.Query != "'SELECT $1'" || ex.Into[0] != "n" || ex.Using[0] != "5" {
		t.Errorf("execute %+v", ex)
	}
	inner := b.Body[11].(*PLBlock)
	if len(inner.Handlers) != 2 || !reflect.DeepEqual(inner.Handlers[0].Conditions, []string{"division_by_zero", "sqlstate:22003"}) {
		t.Errorf("handlers %+v", inner.Handlers)
	}
	r := inner.Body[0].(*PLRaise)
	if r.Level != "exception" || r.HasFormat || !reflect.DeepEqual(r.OptNames, []string{"errcode", "message"}) {
		t.Errorf("raise %+v", r)
	}
}

func TestParsePLpgSQLErrors(t *testing.T) {
	for _, src := range []string{
		`BEGIN`, `BEGIN x := ; END`, `BEGIN IF true THEN END`, `DECLARE c CONSTANT int; BEGIN END`,
		`BEGIN LOOP END LOOP x; END`, `BEGIN FOR i IN 1.. LOOP END LOOP; END`, `END`, `BEGIN END; x`,
		`BEGIN FOR a IN LOOP END LOOP; END`, `BEGIN FOR a IN REVERSE LOOP END LOOP; END`, `BEGIN FOR A IN LOOP`,
	} {
		if _, err := ParsePLpgSQL(src); pgerr.CodeOf(err) != pgerr.SyntaxError {
			t.Errorf("%s: %v", src, err)
		}
	}
}

// FuzzPLpgSQL: ParsePLpgSQL never panics, and a failure is a *pgerr.Error
// whose position is inside the body.
func FuzzPLpgSQL(f *testing.F) {
	for _, s := range []string{
		`BEGIN END`, `DECLARE x int := 1; BEGIN x := x + 1; RETURN x; END`,
		`BEGIN FOR i IN 1..10 BY 2 LOOP EXIT WHEN i > 5; END LOOP; END`,
		`BEGIN IF a THEN NULL; ELSIF b THEN RAISE NOTICE 'x %', 1; ELSE RAISE; END IF; END`,
		`<<l>> BEGIN BEGIN SELECT 1 INTO x; EXCEPTION WHEN others THEN NULL; END; END l`,
		`BEGIN CASE WHEN x THEN RETURN NEXT; END CASE; RETURN QUERY EXECUTE 'q' USING 1; END`,
		`DECLARE r record; BEGIN FOREACH r IN ARRAY a LOOP END LOOP; GET DIAGNOSTICS n = ROW_COUNT; END`,
		`DECLARE c SCROLL CURSOR (k int, t text) FOR SELECT k; d refcursor; BEGIN OPEN c(k := 1, 'x'); FETCH RELATIVE -1 FROM c INTO a, b.f; MOVE BACKWARD ALL IN c; CLOSE c; END`,
		`DECLARE c NO SCROLL CURSOR IS SELECT 1; BEGIN OPEN d SCROLL FOR EXECUTE 'q' USING 1, 2; FOR r IN c(1) LOOP COMMIT AND CHAIN; END LOOP; ROLLBACK; END`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		_, err := ParsePLpgSQL(body)
		if err == nil {
			return
		}
		pe := pgerr.As(err)
		if pe == nil {
			t.Fatalf("%q: %T %v is no *pgerr.Error", body, err, err)
		}
		if pe.Position < 0 || pe.Position > len([]rune(body))+1 {
			t.Fatalf("%q: position %d outside the body", body, pe.Position)
		}
	})
}

// The cursor statements and transaction control parse into their nodes.
func TestPLpgSQLCursorStatements(t *testing.T) {
	for _, c := range []struct {
		body string
		want string // the %+v of the first statement
	}{
		{`BEGIN OPEN c FOR SELECT 1; END`, `&{Cursor:c Scroll:0 Query:SELECT 1 Execute: Using:[] Args:{Exprs:[] Names:[]}}`},
		{`BEGIN OPEN c NO SCROLL FOR EXECUTE 'q' || x USING 1, y; END`, `&{Cursor:c Scroll:-1 Query: Execute:'q' || x Using:[1 y] Args:{Exprs:[] Names:[]}}`},
		{`BEGIN OPEN c(1, k => f(2, 3)); END`, `&{Cursor:c Scroll:0 Query: Execute: Using:[] Args:{Exprs:[1 f(2, 3)] Names:[ k]}}`},
		{`BEGIN FETCH c INTO a, r.f; END`, `&{Move:false Cursor:c Kind:forward Count: All:false Into:[a r.f]}`},
		{`BEGIN FETCH LAST FROM c INTO a; END`, `&{Move:false Cursor:c Kind:absolute Count:-1 All:false Into:[a]}`},
		{`BEGIN FETCH ABSOLUTE n + 1 IN c INTO a; END`, `&{Move:false Cursor:c Kind:absolute Count:n + 1 All:false Into:[a]}`},
		{`BEGIN MOVE BACKWARD ALL FROM c; END`, `&{Move:true Cursor:c Kind:backward Count: All:true Into:[]}`},
		{`BEGIN MOVE FORWARD 2 IN c; END`, `&{Move:true Cursor:c Kind:forward Count:2 All:false Into:[]}`},
		{`BEGIN CLOSE c; END`, `&{Cursor:c}`},
		{`BEGIN COMMIT AND CHAIN; END`, `&{Rollback:false Chain:true}`},
		{`BEGIN ROLLBACK AND NO CHAIN; END`, `&{Rollback:true Chain:false}`},
		{`BEGIN FOR r IN c(1, 2) LOOP END LOOP; END`, `LoopCursor c [1 2]`},
	} {
		b, err := ParsePLpgSQL(c.body)
		if err != nil {
			t.Errorf("%s: %v", c.body, err)
			continue
		}
		got := strings.ReplaceAll(offsetFields.ReplaceAllString(fmt.Sprintf("%+v", b.Body[0]), ""), "[]]", "]]")
		if l, ok := b.Body[0].(*PLLoop); ok {
			got = fmt.Sprintf("LoopCursor %s %v", l.Cursor, l.Args.Exprs)
			if l.Kind != LoopCursor {
				got = "kind " + fmt.Sprint(l.Kind)
			}
		}
		if got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.body, got, c.want)
		}
	}
	for _, bad := range []string{
		`BEGIN FETCH FORWARD 2 FROM c INTO a; END`,
		`BEGIN FETCH c; END`,
		`BEGIN OPEN c(1; END`,
		`DECLARE c CURSOR (k) FOR SELECT 1; BEGIN END`,
	} {
		if _, err := ParsePLpgSQL(bad); err == nil {
			t.Errorf("%s: parsed", bad)
		}
	}
}

func TestPLpgSQLCurrentOf(t *testing.T) {
	sql := `UPDATE t SET v = (SELECT 1 WHERE x) WHERE CURRENT OF "My Cur"`
	start, end, name, ok := CurrentOf(sql)
	if !ok || name != "My Cur" || sql[start:end] != `CURRENT OF "My Cur"` {
		t.Errorf("CurrentOf = %d %d %q %v", start, end, name, ok)
	}
	if _, _, _, ok := CurrentOf(`SELECT current FROM of WHERE current = of`); ok {
		t.Error("found CURRENT OF where there is none")
	}
}

// offsetFields are the offset fields in a statement's %+v.
var offsetFields = regexp.MustCompile(` ?(?:At|ExprAt|LabelAt|CursorAt):\d+| ?(?:IntoAt|VarsAt):\[[^\]]*\]|PLLine:\{line:\d+\} ?`)

// withoutOffsets is a copy of s with its offsets in the body (At,
// ExprAt, LabelAt, CursorAt, IntoAt, VarsAt) zeroed, for comparing what
// a statement says.
func withoutOffsets(s PLStmt) PLStmt {
	v := reflect.New(reflect.TypeOf(s).Elem())
	v.Elem().Set(reflect.ValueOf(s).Elem())
	for _, f := range []string{"At", "ExprAt", "LabelAt", "CursorAt", "IntoAt", "VarsAt", "PLLine"} {
		if x := v.Elem().FieldByName(f); x.IsValid() {
			x.Set(reflect.Zero(x.Type()))
		}
	}
	return v.Interface().(PLStmt)
}

// TestPLpgSQLLines: each statement and declaration knows the line of the
// body it starts on, counted as PostgreSQL counts them for CONTEXT (the
// text after the opening $$ is line 1), inside IF, loops and handlers.
func TestPLpgSQLLines(t *testing.T) {
	body := "\ndeclare\n  a int;\n  b int := 2;\nbegin\n  a := 1;\n  if a > 0 then\n    raise notice 'x';\n  else null;\n  end if;\n  for i in 1..2 loop\n\n    perform 1;\n  end loop;\n  <<inner>>\n  begin\n    return\n      a;\n  exception when others then\n    raise;\n  end;\nend"
	b, err := ParsePLpgSQL(body)
	if err != nil {
		t.Fatal(err)
	}
	if b.Line() != 2 || b.Decls[0].Line != 3 || b.Decls[1].Line != 4 {
		t.Errorf("block line %d, declarations' %d and %d; want 2, 3, 4", b.Line(), b.Decls[0].Line, b.Decls[1].Line)
	}
	ifs := b.Body[1].(*PLIf)
	loop := b.Body[2].(*PLLoop)
	inner := b.Body[3].(*PLBlock)
	for _, c := range []struct {
		what string
		s    PLStmt
		want int
	}{
		{"assignment", b.Body[0], 6},
		{"IF", ifs, 7},
		{"RAISE in THEN", ifs.Thens[0][0], 8},
		{"NULL in ELSE", ifs.Else[0], 9},
		{"FOR", loop, 11},
		{"PERFORM after a blank line", loop.Body[0], 13},
		{"labeled block", inner, 15},
		{"RETURN over two lines", inner.Body[0], 17},
		{"RAISE in a handler", inner.Handlers[0].Body[0], 20},
	} {
		if got := c.s.Line(); got != c.want {
			t.Errorf("%s: line %d, want %d", c.what, got, c.want)
		}
	}
}
