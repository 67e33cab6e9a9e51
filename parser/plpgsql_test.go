package parser

import (
	"reflect"
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
	sel := b.Body[6].(*PLSQL)
	if !reflect.DeepEqual(sel, &PLSQL{SQL: "SELECT v FROM kv WHERE k = 1", Into: []string{"c"}, Strict: true}) {
		t.Errorf("select into %+v", sel)
	}
	ins := b.Body[7].(*PLSQL)
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
