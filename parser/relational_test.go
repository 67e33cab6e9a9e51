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
		{`SELECT * FROM t NATURAL FULL JOIN u`, "select * from `t` straight_join `u` as `" + sep + "F`"},
		{`SELECT * FROM (t JOIN u ON t.a = u.a) AS j(x, y)`, "select * from (select * from `t` join `u` on `t`.`a`=`u`.`a`) as `j" + sep + "N" + sep + "x" + sep + "y`"},
		{`DELETE FROM t AS x USING u WHERE x.k = u.k`, "delete from `t` using `u` where `x`.`k`=`u`.`k`"},
		{`SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS v(n, s)`,
			"select * from (values row(1,'a'), row(2,'b')) as `v" + sep + "N" + sep + "n" + sep + "s`"},
		{`VALUES (1), (2) ORDER BY 1`, "values row(1), row(2) order by 1"},
		{`SELECT * FROM t AS x(p, q)`, "select * from `t` as `x" + sep + sep + "p" + sep + "q`"},
		{`SELECT * FROM generate_series(1, 3)`, "select * from (select zp_table_func(generate_series(1, 3))) as `" + sep + "`"},
		{`SELECT * FROM generate_series(1, 3) WITH ORDINALITY AS g(n, i)`,
			"select * from (select zp_table_func(generate_series(1, 3))) as `g" + sep + "O" + sep + "n" + sep + "i`"},
		{`SELECT * FROM json_to_record(j) AS x(a int, "B" text[], c numeric(5, 2))`,
			"select * from (select zp_table_func(json_to_record(`j`))) as `x" + sep + sep + "a" + ColumnDefSep + "integer" + sep + "B" + ColumnDefSep + "text[]" + sep + "c" + ColumnDefSep + "numeric(5,2)`"},
		{`SELECT * FROM f() AS (a mood)`, "select * from (select zp_table_func(f())) as `" + sep + sep + "a" + ColumnDefSep + "\"mood\"`"},
		{`SELECT rank(1, 'a') WITHIN GROUP (ORDER BY x, y DESC) FROM t`,
			"select zp_within_group(rank(1, 'a'), `x`, zp_desc(`y`)) from `t`"},
		{`SELECT * FROM t, LATERAL (SELECT t.a) s`, "select * from (`t`) join lateral (select `t`.`a`) as `s" + sep + "L`"},
		{`SELECT a FROM t ORDER BY a DESC NULLS LAST, b NULLS FIRST`,
			"select `a` from `t` order by zp_nulls_last(`a`) desc,zp_nulls_first(`b`)"},
		{`SELECT DISTINCT ON (a) a, b FROM t ORDER BY a, b`, "select distinct zp_distinct_on(`a`),`a`,`b` from `t` order by `a`,`b`"},
		{`SELECT count(*) FILTER (WHERE a > 1) FROM t`, "select zp_agg_filter(count(1), `a`>1) from `t`"},
		{`SELECT string_agg(s, ',' ORDER BY a DESC, b) FROM t`,
			"select zp_agg_order(string_agg(`s`, ','), zp_desc(`a`), `b`) from `t`"},
		{`SELECT a IS DISTINCT FROM b, a IS NOT DISTINCT FROM b + 1 FROM t`,
			"select (not ((`a`)<=>(`b`))),((`a`)<=>(`b`+1)) from `t`"},
		{`SELECT a BETWEEN b AND c IS DISTINCT FROM d, x IS DISTINCT FROM a NOT BETWEEN b AND c AND y FROM t`,
			"select (not ((`a` between `b` and `c`)<=>(`d`))),(not ((`x`)<=>(`a` not between `b` and `c`))) and `y` from `t`"},
		{`SELECT a || b ISNULL, a NOTNULL AND b, isnull(a), a AS isnull, t.notnull FROM t`,
			"select `a`|zp_op('||')|`b` is null,`a` is not null and `b`,isnull(`a`),`a` as `isnull`,`t`.`notnull` from `t`"},
		{`SELECT a NOT IN (b) IS NOT DISTINCT FROM c NOT LIKE d, a NOT BETWEEN b AND c IS UNKNOWN FROM t`,
			"select ((`a` not in (`b`))<=>(`c` not like `d`)),zp_unknown_test((`a` not between `b` and `c`)) is null from `t`"},
		{`SELECT rank() OVER (PARTITION BY a ORDER BY b DESC NULLS LAST) FROM t`,
			"select zp_over(zp_wf_rank(), zp_window(zp_partition(`a`), zp_order(zp_nulls_last(zp_desc(`b`))))) from `t`"},
		{`SELECT string_agg(s, ',' ORDER BY a DESC NULLS LAST) FROM t`,
			"select zp_agg_order(string_agg(`s`, ','), zp_nulls_last(zp_desc(`a`))) from `t`"},
		{`SELECT count(*) FILTER (WHERE a > 1) OVER (ORDER BY id ROWS BETWEEN -1 PRECEDING AND '2'::int FOLLOWING EXCLUDE CURRENT ROW) FROM t`,
			"select zp_over(zp_agg_filter(count(1), `a`>1), zp_window(zp_order(`id`), zp_frame('rows', 'p', -1, 'f', zp_cast('2', 'integer'), 'current row'))) from `t`"},
		{`SELECT lead(id, -1) OVER w, sum(x) OVER (w ROWS UNBOUNDED PRECEDING EXCLUDE TIES) FROM t WINDOW w AS (ORDER BY id)`,
			"select zp_over(zp_wf_lead(`id`, -1), zp_window(zp_wname(`w`))),zp_over(sum(`x`), zp_window(zp_wref(`w`), zp_frame('rows', 'up', null, 'ci', null, 'ties'))) from `t` window `w` as (order by `id`)"},
		{`SELECT lower(p) OVER (), sum(x) OVER (ORDER BY id GROUPS 2 PRECEDING EXCLUDE NO OTHERS) FROM t`,
			"select zp_over(lower(`p`), zp_window()),zp_over(sum(`x`), zp_window(zp_order(`id`), zp_frame('groups', 'p', 2, 'ci', null, ''))) from `t`"},
		{`UPDATE t SET a = u.b FROM u WHERE t.k = u.k RETURNING t.a, u.b`, "update `t` set `a`=`u`.`b` where `t`.`k`=`u`.`k`"},
		{`DELETE FROM t USING u WHERE t.k = u.k RETURNING *`, "delete from `t` using `u` where `t`.`k`=`u`.`k`"},
		{`WITH RECURSIVE r(n) AS (VALUES (1) UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT * FROM r`,
			"with recursive `r` (`n`) as (values row(1) union all select `n`+1 from `r` where `n`<5) select * from `r`"},
		{`WITH a AS MATERIALIZED (SELECT 1), b (x) AS NOT MATERIALIZED (SELECT 2) SELECT * FROM a, b`,
			"with `a" + sep + "M` as (select 1), `b" + sep + "I` (`x`) as (select 2) select * from (`a`) join `b`"},
	}
	checkRestored(t, tests)
	// LIMIT and OFFSET operands TiDB cannot take are parsed apart.
	for _, tt := range []struct {
		in, want string
		exprs    int
	}{
		{`SELECT a FROM t LIMIT (SELECT count(*) FROM u)`, "select `a` from `t` limit 18446744073709550000", 1},
		{`SELECT a FROM t OFFSET 1 LIMIT 2`, "select `a` from `t` limit 18446744073709550000,18446744073709550001", 2},
		{`SELECT a FROM t LIMIT 2 OFFSET $1 + 1`, "select `a` from `t` limit 18446744073709550001,18446744073709550000", 2},
		{`SELECT a FROM t LIMIT ALL OFFSET 1 + 1`, "select `a` from `t` limit 18446744073709550000,18446744073709551615", 1},
		{`SELECT a FROM t LIMIT 5 OFFSET 2`, "select `a` from `t` limit 2,5", 0},
	} {
		st := parseOneOK(t, tt.in)
		if got := strings.ToLower(restore(t, st.AST)); got != tt.want || len(st.CountExprs) != tt.exprs {
			t.Errorf("Parse(%q)\n got  %q with %d lifted\n want %q with %d", tt.in, got, len(st.CountExprs), tt.want, tt.exprs)
		}
	}
	st := parseOneOK(t, `UPDATE t SET a = $2 FROM u WHERE t.k = $1 RETURNING t.a + $3`)
	if st.From == nil || st.Returning == nil || len(st.Returning.Fields) != 1 {
		t.Fatalf("UPDATE ... FROM ... RETURNING lost its parts: %+v", st)
	}
	if got := strings.Join(strings.Fields(strings.Trim(strings.ReplaceAll(strings.ReplaceAll(restoreInts(st.ParamOrder), "[", ""), "]", ""), " ")), ","); got != "2,1,3" {
		t.Errorf("ParamOrder %v, want the RETURNING marker after the main ones", st.ParamOrder)
	}
	for in, want := range map[string]string{
		`CREATE OR REPLACE VIEW v (x) AS SELECT a FROM t WHERE a > 1`: "SELECT a FROM t WHERE a > 1",
		// The words FETCH's respelling takes out stay in the text kept.
		`CREATE VIEW v AS SELECT a FROM t ORDER BY a FETCH FIRST 3 ROWS ONLY`: "SELECT a FROM t ORDER BY a FETCH FIRST 3 ROWS ONLY",
		`CREATE VIEW v AS SELECT a FROM t OFFSET 1 ROW;`:                      "SELECT a FROM t OFFSET 1 ROW",
	} {
		if st := parseOneOK(t, in); st.ViewQuery != want {
			t.Errorf("%s: ViewQuery %q", in, st.ViewQuery)
		}
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
