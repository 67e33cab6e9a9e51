package parser

import "testing"

// TestPGSyntaxRewrites checks the TiDB text of the expression syntax
// respelled in pgsyntax.go (the AST restored, so TiDB parsed it).
func TestPGSyntaxRewrites(t *testing.T) {
	tests := []struct{ in, want string }{
		{`SELECT a || b || 'c' FROM t`, "select `a`|zp_op('||')|`b`|zp_op('||')|'c' from `t`"},
		{`SELECT 1 + 2 || 'x' = 'y' FROM t`, "select 1+2|zp_op('||')|'x'='y' from `t`"},
		{`SELECT j->'a'->>'b', j #> '{a}', j #>> '{a}', j @> '{}', j <@ '{}', j ? 'k', j ?| k, j ?& k, j #- '{a}' FROM t`,
			"select `j`|zp_op('->')|'a'|zp_op('->>')|'b',`j`|zp_op('#>')|'{a}',`j`|zp_op('#>>')|'{a}',`j`|zp_op('@>')|'{}',`j`|zp_op('<@')|'{}',`j`|zp_op('?')|'k',`j`|zp_op('?|')|`k`,`j`|zp_op('?&')|`k`,`j`|zp_op('#-')|'{a}' from `t`"},
		{`SELECT trim(s), trim(both from s), trim(leading 'x' from s), trim(trailing from s), trim(s, 'x'), trim('x' from s) FROM t`,
			"select zp_trim_from('=btrim', `s`),zp_trim_from('=btrim', `s`),zp_trim_from('ltrim', 'x', `s`),zp_trim_from('=rtrim', `s`),zp_trim_from('=btrim', `s`, 'x'),zp_trim_from('btrim', 'x', `s`) from `t`"},
		{`SELECT substring(s for 2), substring(s from 2 for 3), substring(s, 1) FROM t`,
			"select zp_sql_syntax('substring', `s`, 1, 2),zp_sql_syntax('substring', `s`, 2, 3),substring(`s`, 1) from `t`"},
		{`SELECT substring(s from 2), substring(s similar 'a%' escape '#'), overlay(s placing 'x' from 2 for 1), overlay(s, 'x', 2) FROM t`,
			"select zp_sql_syntax('substring', `s`, 2),zp_sql_syntax('substring', `s`, 'a%', '#'),zp_sql_syntax('overlay', `s`, 'x', 2, 1),overlay(`s`, 'x', 2) from `t`"},
		{`SELECT position('b' in s), position(a || 'x' in (s)) FROM t`,
			"select zp_sql_syntax('position', 'b', `s`),zp_sql_syntax('position', `a`|zp_op('||')|'x', (`s`)) from `t`"},
		{`SELECT a, b, count(*) FROM t GROUP BY ROLLUP (a, (b, c)) ORDER BY 1`,
			"select `a`,`b`,count(1) from `t` group by zp_rollup(`a`, zp_set(`b`, `c`)) order by 1"},
		{`SELECT 1 FROM t GROUP BY a, CUBE (b, c), ()`,
			"select 1 from `t` group by `a`,zp_cube(`b`, `c`),zp_set()"},
		{`SELECT 1 FROM t GROUP BY GROUPING SETS ((a), (a, b), (), ROLLUP (c), (a + 1) * 2) HAVING grouping(a) = 0`,
			"select 1 from `t` group by zp_grouping_sets(zp_set(`a`), zp_set(`a`, `b`), zp_set(), zp_rollup(`c`), (`a`+1)*2) having grouping(`a`)=0"},
		{`SELECT string_agg(s, ',') OVER (ORDER BY a), stddev(DISTINCT x), x BETWEEN SYMMETRIC 1 AND 2 FROM t`,
			"select zp_over(string_agg(`s`, ','), zp_window(zp_order(`a`))),stddev(zp_distinct(), `x`),`x` between zp_symmetric(1) and 2 from `t`"},
		{`SELECT normalize(s, NFKC), normalize(s), pg_catalog.normalize(s, 'nfd') FROM t`,
			"select normalize(`s`, 'nfkc'),normalize(`s`),`pg_catalog`.`normalize`(`s`, 'nfd') from `t`"},
		{`SELECT (a, b) OVERLAPS (c, d), ROW(a, b) OVERLAPS ROW(c, d + 1) FROM t`,
			"select overlaps(`a`, `b`, `c`, `d`),overlaps(`a`, `b`, `c`, `d`+1) from `t`"},
	}
	checkRestored(t, tests)
}
