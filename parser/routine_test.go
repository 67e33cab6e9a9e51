package parser

import (
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// routineCase is a statement and a check of the RoutineStatement it
// parses to.
type routineCase struct {
	sql   string
	check func(rs *RoutineStatement) bool
}

// checkRoutineCases parses each case and checks its RoutineStatement.
func checkRoutineCases(t *testing.T, cases []routineCase) {
	t.Helper()
	for _, tc := range cases {
		sts, err := Parse(tc.sql)
		if err != nil {
			t.Errorf("%s: %v", tc.sql, err)
			continue
		}
		if len(sts) != 1 || sts[0].Routine == nil {
			t.Errorf("%s: %d statements, not a routine statement", tc.sql, len(sts))
			continue
		}
		if !tc.check(sts[0].Routine) {
			t.Errorf("%s: parsed as %+v", tc.sql, *sts[0].Routine)
		}
	}
}

func TestRoutineStatements(t *testing.T) {
	checkRoutineCases(t, []routineCase{
		{`CREATE FUNCTION add(a integer, b integer DEFAULT 1) RETURNS integer LANGUAGE sql IMMUTABLE AS 'SELECT a + b'`, func(rs *RoutineStatement) bool {
			return rs.Action == RoutineCreate && rs.Routine().Name == "add" && len(rs.Params) == 2 && rs.Params[1].Default == "1" &&
				rs.Params[0].Name == "a" && rs.Params[0].Type == sqltypes.TypeInt4 && rs.Returns == sqltypes.TypeInt4 &&
				rs.Options.Language == "sql" && rs.Options.Volatility == 'i' && rs.Body == "SELECT a + b" && rs.HasAS
		}},
		{`CREATE OR REPLACE FUNCTION f(int, text) RETURNS SETOF text AS $$ SELECT $2 $$ LANGUAGE sql STRICT`, func(rs *RoutineStatement) bool {
			return rs.Replace && rs.ReturnsSet && rs.Params[0].Name == "" && rs.Params[1].Type == sqltypes.TypeText &&
				rs.Options.Strict != nil && *rs.Options.Strict && rs.Body == " SELECT $2 "
		}},
		{`CREATE FUNCTION g(OUT x int, INOUT y text, IN time timestamp) LANGUAGE sql AS 'select 1'`, func(rs *RoutineStatement) bool {
			return !rs.HasReturns && rs.Params[0].Mode == ModeOut && rs.Params[1].Mode == ModeInOut && rs.Params[2].Name == "time" &&
				rs.Params[2].Type.ID == sqltypes.Timestamp
		}},
		{`CREATE FUNCTION t() RETURNS TABLE (a int, b double precision) LANGUAGE sql BEGIN ATOMIC SELECT 1, 2.0; SELECT CASE WHEN true THEN 1 END, 1; END`, func(rs *RoutineStatement) bool {
			return rs.Atomic && len(rs.Table) == 2 && rs.Table[1].Mode == ModeTable && rs.Table[1].Type == sqltypes.TypeFloat8 &&
				rs.Body == "SELECT 1, 2.0; SELECT CASE WHEN true THEN 1 END, 1;"
		}},
		{`CREATE FUNCTION r(x int) RETURNS int RETURN x + 1`, func(rs *RoutineStatement) bool {
			return rs.Return && rs.Body == "SELECT x + 1" && rs.Options.Language == "sql"
		}},
		{`CREATE PROCEDURE p(a int) SECURITY DEFINER LANGUAGE sql SET search_path = public, pg_catalog AS $$ insert into t values (a) $$`, func(rs *RoutineStatement) bool {
			return rs.Procedure && rs.Options.Definer != nil && *rs.Options.Definer && strings.Join(rs.Options.Config, ";") == "search_path=public, pg_catalog"
		}},
		{`CREATE FUNCTION v(VARIADIC xs int[]) RETURNS int LANGUAGE sql AS 'select 1'`, func(rs *RoutineStatement) bool {
			return rs.Params[0].Mode == ModeVariadic && rs.Params[0].Type.ID == sqltypes.Array
		}},
		{`CALL p(a => 1 + 2)`, func(rs *RoutineStatement) bool {
			return rs.Action == RoutineCall && rs.Call != nil && rs.Routine().Name == "p"
		}},
		{`DROP FUNCTION IF EXISTS f(int, text), g CASCADE`, func(rs *RoutineStatement) bool {
			return rs.Action == RoutineDrop && rs.MissingOK && rs.Cascade && len(rs.Refs) == 2 && rs.Refs[0].HasArgs && !rs.Refs[1].HasArgs
		}},
		{`ALTER FUNCTION f(int) RENAME TO h`, func(rs *RoutineStatement) bool { return rs.Action == RoutineRename && rs.NewName == "h" }},
		{`ALTER PROCEDURE p OWNER TO bob`, func(rs *RoutineStatement) bool {
			return rs.Action == RoutineOwner && rs.Procedure && rs.NewName == "bob"
		}},
		{`ALTER FUNCTION f(int) STABLE CALLED ON NULL INPUT RESET ALL`, func(rs *RoutineStatement) bool {
			return rs.Action == RoutineAlter && rs.Options.Volatility == 's' && rs.Options.Strict != nil && !*rs.Options.Strict && rs.Options.Reset[0] == "all"
		}},
		{`DO $$ begin end $$`, func(rs *RoutineStatement) bool { return rs.Action == RoutineDo && rs.Options.Language == "plpgsql" }},
		{`DO LANGUAGE sql 'select 1'`, func(rs *RoutineStatement) bool { return rs.Options.Language == "sql" && rs.Body == "select 1" }},
	})
}

func TestRoutineStatementErrors(t *testing.T) {
	for _, tc := range []struct {
		sql  string
		code pgerr.Code
	}{
		{`CREATE FUNCTION f() RETURNS int`, pgerr.InvalidFunctionDefinition},
		{`CREATE FUNCTION f() RETURNS int AS 'select 1'`, pgerr.InvalidFunctionDefinition},
		{`CREATE FUNCTION f() RETURNS int LANGUAGE sql AS 'a' AS 'b'`, pgerr.SyntaxError},
		{`CREATE FUNCTION f( RETURNS int`, pgerr.SyntaxError},
		{`CREATE FUNCTION f() RETURNS event_trigger LANGUAGE plpgsql AS 'x'`, pgerr.FeatureNotSupported},
		{`CREATE FUNCTION f() RETURNS int LANGUAGE sql WINDOW AS 'x'`, pgerr.FeatureNotSupported},
		{`CALL p`, pgerr.SyntaxError},
		{`DO`, pgerr.SyntaxError},
		{`ALTER FUNCTION f SET SCHEMA s t`, pgerr.SyntaxError},
	} {
		_, err := Parse(tc.sql)
		if pgerr.CodeOf(err) != tc.code {
			t.Errorf("%s: %v, want %s", tc.sql, err, tc.code)
		}
	}
}

// TestAtomicBodySplit: a BEGIN ATOMIC body's semicolons do not end the
// statement; the next statement follows its END.
func TestAtomicBodySplit(t *testing.T) {
	sts, err := Parse(`CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; SELECT CASE WHEN true THEN 2 END; END; SELECT 3`)
	if err != nil {
		t.Fatal(err)
	}
	if len(sts) != 2 || sts[0].Routine == nil || sts[1].Text != "SELECT 3" {
		t.Fatalf("got %d statements", len(sts))
	}
}
