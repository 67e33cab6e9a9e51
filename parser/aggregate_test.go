package parser

import (
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

func TestAggregateOperatorCastStatements(t *testing.T) {
	checkRoutineCases(t, []routineCase{
		{`CREATE AGGREGATE public.sumsq(integer) (SFUNC = public.addsq, STYPE = bigint, INITCOND = '0', FINALFUNC = public.fin, FINALFUNC_EXTRA, SORTOP = OPERATOR(pg_catalog.>), PARALLEL = safe)`,
			func(rs *RoutineStatement) bool {
				a := rs.Aggregate
				return rs.Action == RoutineCreate && rs.Routine().Name == "public.sumsq" && len(rs.Params) == 1 && a.SFunc == "public.addsq" &&
					a.SType.Type.ID == sqltypes.Int8 && *a.InitCond == "0" && a.FinalFunc == "public.fin" && a.FinalExtra && a.SortOp == ">" && a.Parallel == 's'
			}},
		{`CREATE OR REPLACE AGGREGATE cnt(*) (SFUNC = inc, STYPE = int8, INITCOND = 0)`, func(rs *RoutineStatement) bool {
			return rs.Replace && len(rs.Params) == 0 && *rs.Aggregate.InitCond == "0"
		}},
		{`CREATE AGGREGATE old (BASETYPE = int4, SFUNC = int4pl, STYPE = int4)`, func(rs *RoutineStatement) bool {
			return len(rs.Params) == 1 && rs.Params[0].Type.ID == sqltypes.Int4 && rs.Aggregate.SFunc == "int4pl"
		}},
		{`CREATE AGGREGATE noargs (BASETYPE = "any", SFUNC = inc, STYPE = int8)`, func(rs *RoutineStatement) bool { return len(rs.Params) == 0 }},
		{`DROP AGGREGATE IF EXISTS a(int), b(*) CASCADE`, func(rs *RoutineStatement) bool {
			return rs.Action == RoutineDrop && rs.Aggregate != nil && rs.MissingOK && rs.Cascade && len(rs.Refs) == 2 && len(rs.Refs[1].Args) == 0
		}},
		{`ALTER AGGREGATE a(int) OWNER TO bob`, func(rs *RoutineStatement) bool {
			return rs.Action == RoutineOwner && rs.Aggregate != nil && rs.NewName == "bob"
		}},
		{`CREATE OPERATOR public.=== (FUNCTION = f, LEFTARG = text, RIGHTARG = text, COMMUTATOR = OPERATOR(public.===), NEGATOR = !==, HASHES, MERGES, RESTRICT = eqsel)`,
			func(rs *RoutineStatement) bool {
				o := rs.Operator
				return o.Sig.Name == "public.===" && o.Sig.HasLeft && o.HasRight && o.Func == "f" && o.Commutator == "public.===" && o.Negator == "!==" &&
					o.Hashes && o.Merges && o.Restrict == "eqsel"
			}},
		{`CREATE OPERATOR app.!!! (RIGHTARG = int, PROCEDURE = app.neg, NEGATOR = pg_catalog.!=)`, func(rs *RoutineStatement) bool {
			return rs.Operator.Sig.Name == "app.!!!" && rs.Operator.Func == "app.neg" && rs.Operator.Negator == "!="
		}},
		{`ALTER OPERATOR app.!!! (NONE, int) SET SCHEMA b`, func(rs *RoutineStatement) bool {
			return rs.Action == RoutineRename && rs.SetSchema && rs.NewName == "b" && rs.Operator.Drop[0].Name == "app.!!!"
		}},
		{`CREATE OPERATOR !!! (RIGHTARG = int, PROCEDURE = neg)`, func(rs *RoutineStatement) bool {
			return !rs.Operator.Sig.HasLeft && rs.Operator.Func == "neg"
		}},
		{`DROP OPERATOR !!! (NONE, int), === (text, text)`, func(rs *RoutineStatement) bool {
			d := rs.Operator.Drop
			return len(d) == 2 && !d[0].HasLeft && d[1].HasLeft && d[1].Name == "==="
		}},
		{`ALTER OPERATOR public.=== (text, text) OWNER TO bob`, func(rs *RoutineStatement) bool {
			return rs.Action == RoutineOwner && rs.Operator != nil && rs.NewName == "bob"
		}},
		{`CREATE CAST (public.mood AS integer) WITH FUNCTION public.score(public.mood) AS ASSIGNMENT`, func(rs *RoutineStatement) bool {
			c := rs.Cast
			return c.Source.TypeName == "public.mood" && c.Target.Type.ID == sqltypes.Int4 && c.Func == "public.score" && c.HasFuncArgs && c.Method == 'f' && c.Context == 'a'
		}},
		{`CREATE CAST (text AS mood) WITH INOUT AS IMPLICIT`, func(rs *RoutineStatement) bool { return rs.Cast.Method == 'i' && rs.Cast.Context == 'i' }},
		{`CREATE CAST (int4 AS int8) WITHOUT FUNCTION`, func(rs *RoutineStatement) bool { return rs.Cast.Method == 'b' && rs.Cast.Context == 'e' }},
		{`DROP CAST IF EXISTS (text AS mood)`, func(rs *RoutineStatement) bool { return rs.Action == RoutineDrop && rs.MissingOK && rs.Cast != nil }},
	})
}

func TestAggregateOperatorCastErrors(t *testing.T) {
	for _, tc := range []struct {
		sql  string
		code pgerr.Code
	}{
		{`CREATE AGGREGATE a(int) (SFUNC = f)`, pgerr.InvalidFunctionDefinition},
		{`CREATE AGGREGATE a(int) (STYPE = int)`, pgerr.InvalidFunctionDefinition},
		{`CREATE AGGREGATE a(int) (SFUNC = f, STYPE = int, FOO = 1)`, pgerr.SyntaxError},
		{`CREATE AGGREGATE a(ORDER BY int) (SFUNC = f, STYPE = int)`, pgerr.FeatureNotSupported},
		{`CREATE AGGREGATE a(int) (SFUNC = f, STYPE = int, HYPOTHETICAL)`, pgerr.FeatureNotSupported},
		{`DROP AGGREGATE a`, pgerr.SyntaxError},
		{`DROP OPERATOR === (text)`, pgerr.SyntaxError},
		{`CREATE CAST (int AS text) WITH f`, pgerr.SyntaxError},
		{`COMMENT ON CONSTRAINT a.b ON DOMAIN d IS 'x'`, pgerr.SyntaxError},
	} {
		_, err := Parse(tc.sql)
		if pgerr.CodeOf(err) != tc.code {
			t.Errorf("%s: %v, want %s", tc.sql, err, tc.code)
		}
	}
}

// TestUserOperatorExpressions: an operator no built-in has is read at
// PostgreSQL's level of other operators, infix and prefix.
func TestUserOperatorExpressions(t *testing.T) {
	for _, tc := range []struct{ sql, want string }{
		{`SELECT a === b`, "zp_op('===', a, b)"},
		{`SELECT 1 + 2 <+> 3 * 4`, "zp_op('<+>', 1 + 2, 3 * 4)"},
		{`SELECT !!! 5`, "zp_op('!!!', 5)"},
		{`SELECT n <+> !!! n`, "zp_op('<+>', n, zp_op('!!!', n))"},
		{`SELECT a OPERATOR(public.===) b`, "zp_op('public.===', a, b)"},
		{`SELECT a OPERATOR(pg_catalog.+) b`, "((a) + (b))"},
		{`SELECT a OPERATOR(app.+) b * c`, "zp_op('app.+', a, b * c)"},
		{`SELECT OPERATOR(app.~~~) 5 + 1`, "zp_op('app.~~~', 5 + 1)"},
		{`SELECT a OPERATOR(myschema.~) b`, "zp_op('myschema.~', a, b)"},
	} {
		sts, err := Parse(tc.sql)
		if err != nil {
			t.Errorf("%s: %v", tc.sql, err)
			continue
		}
		if got := sts[0].SQL; !containsFold(got, tc.want) {
			t.Errorf("%s: rewritten as %q, want %q in it", tc.sql, got, tc.want)
		}
	}
}

// containsFold reports whether sub is in s, ignoring case and spaces.
func containsFold(s, sub string) bool {
	squash := func(x string) string { return strings.ToLower(strings.Join(strings.Fields(x), "")) }
	return strings.Contains(squash(s), squash(sub))
}
