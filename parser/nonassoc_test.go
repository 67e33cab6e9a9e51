package parser

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// TestNonAssociativeOperators: an operator after the right operand of one
// of its own non-associative level is PostgreSQL's syntax error, at the
// second operator (positions checked against PostgreSQL 15); what
// PostgreSQL accepts parses.
func TestNonAssociativeOperators(t *testing.T) {
	for _, tc := range []struct {
		sql string
		pos int // 0: parses
	}{
		{`SELECT 1 < 2 = true`, 14},
		{`SELECT 1 = 1 = true`, 14},
		{`SELECT 1 < 2 < 3`, 14},
		{`SELECT 1 <> 2 >= true`, 15},
		{`SELECT (1 = 1) = (2 = 2) = true`, 26},
		{`SELECT 1::int = 1::int8 = true`, 25},
		{`SELECT a = b + c * d || e ~ f = g FROM t`, 31},
		{`SELECT a = b COLLATE "C" = c FROM t`, 26},
		{`SELECT a = f(b) FILTER (WHERE c) OVER (PARTITION BY d) = e FROM t`, 56},
		{`SELECT a = CASE WHEN b = c THEN 1 END = d FROM t`, 39},
		{`SELECT 1 = 1 = ANY ('{t}')`, 14},
		{`SELECT 1 IN (1) = true = false`, 24},
		{`SELECT 1 = x IN (1) = true FROM t`, 21},
		{`SELECT NULL IS DISTINCT FROM 1 IS NOT FALSE`, 32},
		{`SELECT 1 IS NOT DISTINCT FROM 2 ISNULL`, 33},
		{`SELECT 1 IS DISTINCT FROM 2 = 3 NOTNULL`, 33},
		{`SELECT 'a' LIKE 'a' LIKE 'b'`, 21},
		{`SELECT 'a' NOT LIKE 'b' NOT ILIKE 'c'`, 25},
		{`SELECT 'a' LIKE 'b' ESCAPE '#' LIKE 'c'`, 32},
		{`SELECT 'a' SIMILAR TO 'b' LIKE 'c'`, 27},
		{`SELECT 1 BETWEEN 0 AND 2 BETWEEN false AND true`, 26},
		{`SELECT 1 BETWEEN SYMMETRIC 0 AND 2 IN (true)`, 36},
		{`SELECT 'a' LIKE 'a' BETWEEN false AND true`, 21},
		{`SELECT 1 FROM t WHERE a = 1 AND b <> 2 >= true`, 40},
		// The first conflict is reported; a syntax error before it wins.
		{`SELECT 1 = 1 = 2 = 3`, 14},
		{`SELECT 1 FROM FROM t WHERE 1 = 1 = true`, 15},
		// Accepted: parentheses, different levels, rules that end.
		{`SELECT (1 < 2) = true, 1 < (2 = 2)::int, 1 = 1 AND 2 = 2 OR 3 = 3`, 0},
		{`SELECT 1 = ANY ('{1}') = true, 'a' LIKE 'a' = true, 1 BETWEEN 0 AND 2 = true, 1 < 2 LIKE 'a'`, 0},
		{`SELECT 1 IN (1) IN (true), 1 NOT IN (1) IN (false), 1 IN (1) NOT IN (false), 1 IN (1) BETWEEN false AND true`, 0},
		{`SELECT NULL IS NULL IS NOT NULL, '%' IS NOT NULL IS NOT UNKNOWN, true IS TRUE IS TRUE, 1 ISNULL IS FALSE`, 0},
		{`SELECT 1 = 1 IS TRUE, 1 IS NULL = false, 1 = 1 IS DISTINCT FROM true = false, NOT 1 IS NULL IS NULL`, 0},
		{`SELECT 1 OPERATOR(pg_catalog.=) 1 = true, 1 OPERATOR(pg_catalog.<) 2 = true`, 0},
		{`UPDATE t SET a = b = c, d = e WHERE f = g`, 0},
		{`UPDATE t SET (a, b) = (c = d, 1), e[1] = f = g`, 0},
		{`INSERT INTO t VALUES (1) ON CONFLICT (a) DO UPDATE SET b = excluded.a = 1`, 0},
		{`CREATE TABLE x (r int4range, EXCLUDE USING gist (r WITH &&, k WITH =))`, 0},
	} {
		_, err := Parse(tc.sql)
		switch {
		case tc.pos == 0 && err != nil:
			t.Errorf("%s: %v", tc.sql, err)
		case tc.pos != 0 && (pgerr.CodeOf(err) != pgerr.SyntaxError || err.(*pgerr.Error).Position != tc.pos):
			t.Errorf("%s: %v, want a syntax error at %d", tc.sql, err, tc.pos)
		}
	}
}

// TestISChains: PostgreSQL's postfix IS tests chain, each the operand of
// the next; TiDB's text parenthesizes the ones before.
func TestISChains(t *testing.T) {
	checkRestored(t, []struct{ in, want string }{
		{`SELECT true IS TRUE IS NOT FALSE`, "select (true is true) is not false"},
		{`SELECT a IS NOT NULL IS NOT UNKNOWN FROM t`, "select zp_unknown_test(((`a` is not null))) is not null from `t`"},
		{`SELECT a = b IS NULL IS TRUE FROM t`, "select (`a`=`b` is null) is true from `t`"},
		{`SELECT NOT a ISNULL IS FALSE FROM t`, "select not (`a` is null) is false from `t`"},
	})
}

// TestParseLinearInComparisons: a statement of many comparisons parses in
// time linear in its length. The non-associativity check once looked back
// from every = for a SET it might assign in, which made a WHERE of 32,000
// ORed equalities (an ORM's expanded list) take 20 s to parse instead of
// 0.14 s. Sixteen times the terms must cost well under the 256 times a
// quadratic pass would (the best of three runs each, so that a pause of
// the machine's does not decide).
func TestParseLinearInComparisons(t *testing.T) {
	if testing.Short() {
		t.Skip("parses statements of 32,000 comparisons")
	}
	statement := func(n int) string {
		var b strings.Builder
		b.WriteString("UPDATE t SET c = 1 WHERE ")
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(" OR ")
			}
			fmt.Fprintf(&b, "a = %d OR b LIKE 'x%d' OR c IS DISTINCT FROM %d", i, i, i)
		}
		return b.String()
	}
	parsesLinearly(t, "comparisons", statement)
}

// parsesLinearly fails when statement(16000) takes over 64 times as long
// to parse as statement(1000) (each the best of three): 16 times the terms
// cost 16 times as much when linear, 256 when quadratic. The smaller
// statement is large enough (some 10 ms) that a lucky run of it does not
// make a linear parser look quadratic.
func parsesLinearly(t *testing.T, what string, statement func(n int) string) {
	t.Helper()
	best := func(sql string) time.Duration {
		least := time.Duration(math.MaxInt64)
		for range 3 {
			start := time.Now()
			if _, err := Parse(sql); err != nil {
				t.Fatal(err)
			}
			least = min(least, time.Since(start))
		}
		return least
	}
	small, large := best(statement(1000)), best(statement(16000))
	t.Logf("1,000 terms %v, 16,000 terms %v (%.1fx)", small, large, float64(large)/float64(small))
	if large > 64*small {
		t.Errorf("16 times the %s took %.0f times as long to parse (%v, %v): not linear", what, float64(large)/float64(small), small, large)
	}
}
