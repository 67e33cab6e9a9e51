package session_test

import (
	"os"
	"strings"
	"testing"

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
}

var userObjectsChecks = []struct{ q, want string }{
	{`SELECT sumsq(v) FROM r`, "5"},
	{`SELECT aggtransfn, agginitval FROM pg_aggregate WHERE aggfnoid = 'sumsq'::regproc`, "addsq|0"},
}
