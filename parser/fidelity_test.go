package parser

import "testing"

// TestFrontEndFidelity checks statements PostgreSQL parses that the front
// end once rejected (issue 25): the TiDB text each becomes, restored from
// the AST.
func TestFrontEndFidelity(t *testing.T) {
	sep := aliasSep
	checkRestored(t, []struct{ in, want string }{
		// Window-function names as plain column names.
		{`SELECT sequencename, last_value FROM pg_sequences`, "select `sequencename`,`last_value` from `pg_sequences`"},
		{`SELECT first_value, rank, row_number FROM t`, "select `first_value`,`rank`,`row_number` from `t`"},
		{`SELECT s.last_value, ntile FROM t s WHERE lag > 1 ORDER BY lead, s.rank`,
			"select `s`.`last_value`,`ntile` from `t` as `s` where `lag`>1 order by `lead`,`s`.`rank`"},
		{`SELECT a FROM t ORDER BY last_value`, "select `a` from `t` order by `last_value`"},
		{`SELECT rank() OVER (ORDER BY rank), rank FROM t`,
			"select zp_over(zp_wf_rank(), zp_window(zp_order(`rank`))),`rank` from `t`"},
		// DELETE ... USING: an aliased target, table functions, VALUES and
		// derived tables with column aliases.
		{`DELETE FROM t AS d USING generate_series(1, 3) g WHERE d.a = g`,
			"delete from `t` using (select zp_table_func(generate_series(1, 3))) as `g" + sep + "` where `d`.`a`=`g`"},
		{`DELETE FROM t USING (VALUES (2)) v(k) WHERE t.a = v.k`,
			"delete from `t` using (values row(2)) as `v" + sep + "N" + sep + "k` where `t`.`a`=`v`.`k`"},
		{`DELETE FROM t d USING (SELECT 1) AS s(k), u WHERE d.a = s.k`,
			"delete from `t` using (select 1) as `s" + sep + "N" + sep + "k`, `u` where `d`.`a`=`s`.`k`"},
		// CASE and typed literals as IS [NOT] DISTINCT FROM operands.
		{`SELECT CASE WHEN a THEN 1 ELSE 2 END IS DISTINCT FROM 1 FROM t`,
			"select (not ((case when `a` then 1 else 2 end)<=>(1))) from `t`"},
		{`SELECT 1 IS NOT DISTINCT FROM CASE a WHEN 1 THEN 2 END FROM t`,
			"select ((1)<=>(case `a` when 1 then 2 end)) from `t`"},
		{`SELECT DATE '2024-01-01' IS NOT DISTINCT FROM DATE '2024-01-01'`,
			"select ((zp_cast('2024-01-01', 'date'))<=>(zp_cast('2024-01-01', 'date')))"},
		// EXISTS over a parenthesised set operation with ORDER BY/LIMIT.
		{`SELECT EXISTS ((SELECT 1) UNION (SELECT 2) ORDER BY 1 LIMIT 1)`,
			"select exists ((select 1) union (select 2) order by 1 limit 1)"},
		{`SELECT NOT EXISTS ((SELECT 1) UNION (SELECT 2) ORDER BY 1)`,
			"select not exists ((select 1) union (select 2) order by 1)"},
	})
}

// TestDeleteUsingTargetAlias: the target's alias, with or without AS, is
// lifted into Statement.TargetAlias whatever the USING list holds.
func TestDeleteUsingTargetAlias(t *testing.T) {
	for _, q := range []string{
		`DELETE FROM t AS d USING u WHERE d.a = u.a`,
		`DELETE FROM t d USING generate_series(1, 3) g WHERE d.a = g`,
		`DELETE FROM s.t AS d USING (VALUES (1)) v(k) WHERE d.a = v.k`,
	} {
		if st := parseOneOK(t, q); st.TargetAlias != "d" {
			t.Errorf("Parse(%q).TargetAlias = %q, want d", q, st.TargetAlias)
		}
	}
}
