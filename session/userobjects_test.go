package session_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/kv"
)

// User-defined aggregates, casts and operators are catalog descriptors:
// a proxy started later over the same store (a restart, or another proxy
// over DynamoDB) sees and runs them.
func TestUserObjectsSurviveRestart(t *testing.T) {
	type setup struct {
		name          string
		first, second kv.Store
	}
	mem := memStore(t)
	cases := []setup{{"pebble", mem, mem}}
	if os.Getenv("DYNAMODB_ENDPOINT") != "" {
		stores := sharedDynamo(t, 2)
		cases = append(cases, setup{"dynamodb", stores[0], stores[1]})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, s1 := newSession(t, c.first)
			for _, q := range userObjectsDDL {
				mustExec(t, s1, q)
			}
			_, s2 := newSession(t, c.second)
			for _, tc := range userObjectsChecks {
				if got := strings.Join(mustExec(t, s2, tc.q), ","); got != tc.want {
					t.Errorf("after the restart, %s: %q, want %q", tc.q, got, tc.want)
				}
			}
		})
	}
}

var userObjectsDDL = []string{
	`CREATE TABLE r (k int PRIMARY KEY, v int)`,
	`INSERT INTO r VALUES (1, 1), (2, 2), (3, NULL)`,
	`CREATE FUNCTION addsq(s int8, x int4) RETURNS int8 LANGUAGE sql AS 'SELECT s + coalesce(x * x, 0)'`,
	`CREATE AGGREGATE sumsq(int4) (SFUNC = addsq, STYPE = int8, INITCOND = '0')`,
	`CREATE FUNCTION txt_eqi(a text, b text) RETURNS bool LANGUAGE sql IMMUTABLE AS 'SELECT lower(a) = lower(b)'`,
	`CREATE OPERATOR === (FUNCTION = txt_eqi, LEFTARG = text, RIGHTARG = text, COMMUTATOR = ===)`,
	`CREATE TYPE mood AS ENUM ('sad', 'happy')`,
	`CREATE FUNCTION mood_score(m mood) RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT CASE WHEN m = ''sad'' THEN 0 ELSE 10 END'`,
	`CREATE CAST (mood AS int) WITH FUNCTION mood_score(mood) AS ASSIGNMENT`,
}

var userObjectsChecks = []struct{ q, want string }{
	{`SELECT sumsq(v) FROM r`, "5"},
	{`SELECT aggtransfn, agginitval FROM pg_aggregate WHERE aggfnoid = 'sumsq'::regproc`, "addsq|0"},
	{`SELECT 'A' === 'a', 'A' === 'b'`, "t|f"},
	{`SELECT oprname, oprcode FROM pg_operator WHERE oprcom = oid AND oid >= 16384`, "===|txt_eqi"},
	{`SELECT 'happy'::mood::int`, "10"},
	{`SELECT castcontext, castfunc::regproc FROM pg_cast WHERE castsource = 'mood'::regtype`, "a|mood_score"},
}

// TestUserAggregateNamedAsBuiltinFunction: a user's aggregate that shares
// its name with a built-in function (not a built-in aggregate) is no
// built-in aggregate for the planner's telling of aggregates from
// functions by their arguments (planner.plainCallArgs), which looked it
// up among the built-ins and failed with an internal error.
func TestUserAggregateNamedAsBuiltinFunction(t *testing.T) {
	_, sess := newSession(t, memStore(t))
	mustExec(t, sess, "CREATE AGGREGATE upper(text) (sfunc = textcat, stype = text, initcond = '')")
	mustExec(t, sess, "CREATE TABLE t (x text)")
	mustExec(t, sess, "INSERT INTO t VALUES ('a'), ('b')")
	_, err := runSQL(context.Background(), sess, "SELECT upper(x) FROM t")
	if code := pgerr.CodeOf(err); code == pgerr.InternalError {
		t.Fatalf("SELECT upper(x) with a user aggregate upper(text): %v", err)
	}
}
