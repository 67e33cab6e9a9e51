package parser

import (
	"strings"
	"testing"
)

// TestRelationalRewrites checks the TiDB text each PostgreSQL construct of
// the relational engine is respelled as (the AST restored, so the test
// also proves TiDB parsed it).
func TestRelationalRewrites(t *testing.T) {
	sep := aliasSep
	tests := []struct{ in, want string }{
		{`SELECT * FROM t FULL JOIN u ON t.a = u.a`, "select * from `t` straight_join `u` on `t`.`a`=`u`.`a`"},
		{`SELECT * FROM t FULL OUTER JOIN u USING (a)`, "select * from `t` straight_join `u` using (`a`)"},
		{`SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS v(n, s)`,
			"select * from (values row(1,'a'), row(2,'b')) as `v" + sep + "N" + sep + "n" + sep + "s`"},
		{`VALUES (1), (2) ORDER BY 1`, "values row(1), row(2) order by 1"},
		{`SELECT * FROM t AS x(p, q)`, "select * from `t` as `x" + sep + sep + "p" + sep + "q`"},
		{`SELECT * FROM generate_series(1, 3)`, "select * from (select zp_table_func(generate_series(1, 3))) as `" + sep + "`"},
		{`SELECT * FROM generate_series(1, 3) WITH ORDINALITY AS g(n, i)`,
			"select * from (select zp_table_func(generate_series(1, 3))) as `g" + sep + "O" + sep + "n" + sep + "i`"},
		{`SELECT * FROM t, LATERAL (SELECT t.a) s`, "select * from (`t`) join lateral (select `t`.`a`) as `s" + sep + "L`"},
		{`SELECT a FROM t ORDER BY a DESC NULLS LAST, b NULLS FIRST`,
			"select `a` from `t` order by zp_nulls_last(`a`) desc,zp_nulls_first(`b`)"},
		{`SELECT DISTINCT ON (a) a, b FROM t ORDER BY a, b`, "select distinct zp_distinct_on(`a`),`a`,`b` from `t` order by `a`,`b`"},
		{`SELECT count(*) FILTER (WHERE a > 1) FROM t`, "select zp_agg_filter(count(1), `a`>1) from `t`"},
		{`SELECT string_agg(s, ',' ORDER BY a DESC, b) FROM t`,
			"select zp_agg_order(string_agg(`s`, ','), zp_desc(`a`), `b`) from `t`"},
		{`SELECT a IS DISTINCT FROM b, a IS NOT DISTINCT FROM b + 1 FROM t`,
			"select (not ((`a`)<=>(`b`))),((`a`)<=>(`b`+1)) from `t`"},
		{`SELECT rank() OVER (PARTITION BY a ORDER BY b DESC NULLS LAST) FROM t`,
			"select rank() over (partition by `a` order by zp_nulls_last(`b`) desc) from `t`"},
		{`UPDATE t SET a = u.b FROM u WHERE t.k = u.k RETURNING t.a, u.b`, "update `t` set `a`=`u`.`b` where `t`.`k`=`u`.`k`"},
		{`DELETE FROM t USING u WHERE t.k = u.k RETURNING *`, "delete from `t` using `u` where `t`.`k`=`u`.`k`"},
		{`WITH RECURSIVE r(n) AS (VALUES (1) UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT * FROM r`,
			"with recursive `r` (`n`) as (values row(1) union all select `n`+1 from `r` where `n`<5) select * from `r`"},
	}
	checkRestored(t, tests)
	st := parseOneOK(t, `UPDATE t SET a = $2 FROM u WHERE t.k = $1 RETURNING t.a + $3`)
	if st.From == nil || st.Returning == nil || len(st.Returning.Fields) != 1 {
		t.Fatalf("UPDATE ... FROM ... RETURNING lost its parts: %+v", st)
	}
	if got := strings.Join(strings.Fields(strings.Trim(strings.ReplaceAll(strings.ReplaceAll(restoreInts(st.ParamOrder), "[", ""), "]", ""), " ")), ","); got != "2,1,3" {
		t.Errorf("ParamOrder %v, want the RETURNING marker after the main ones", st.ParamOrder)
	}
	st = parseOneOK(t, `CREATE OR REPLACE VIEW v (x) AS SELECT a FROM t WHERE a > 1`)
	if st.ViewQuery != "SELECT a FROM t WHERE a > 1" {
		t.Errorf("ViewQuery %q", st.ViewQuery)
	}
}

// checkRestored parses each input and compares the restored TiDB AST
// with want (case-insensitively).
func checkRestored(t *testing.T, tests []struct{ in, want string }) {
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			st := parseOneOK(t, tt.in)
			got := strings.ToLower(restore(t, st.AST))
			if got != strings.ToLower(tt.want) {
				t.Errorf("Parse(%q)\n got  %q\n want %q\n (TiDB text %q)", tt.in, got, tt.want, st.SQL)
			}
		})
	}
}

func restoreInts(xs []int) string {
	var b strings.Builder
	for _, x := range xs {
		b.WriteString(" ")
		b.WriteString(itoaTest(x))
	}
	return b.String()
}

func itoaTest(x int) string {
	if x < 10 {
		return string(rune('0' + x))
	}
	return itoaTest(x/10) + string(rune('0'+x%10))
}
