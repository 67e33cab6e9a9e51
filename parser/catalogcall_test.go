package parser

import "testing"

// TestCatalogCalls checks that a call qualified by pg_catalog loses its
// qualifier, so the bare name's respellings apply (count(*), DISTINCT,
// ALL, concat, mod), except where the bare name is key-word syntax or a
// name is being defined; a user schema's call keeps its qualifier and
// takes the DISTINCT marker and ALL's dropping too.
func TestCatalogCalls(t *testing.T) {
	tests := []struct{ in, want string }{
		{`SELECT pg_catalog.count(*), pg_catalog.count(DISTINCT a), pg_catalog.count(ALL a) FROM t`,
			"select count(1),count(distinct `a`),count(`a`) from `t`"},
		{`SELECT "pg_catalog".sum(a) FILTER (WHERE a > 1), pg_catalog.rank() OVER (ORDER BY a) FROM t`,
			"select zp_agg_filter(sum(`a`), `a`>1),zp_over(zp_wf_rank(), zp_window(zp_order(`a`))) from `t`"},
		{`SELECT pg_catalog.concat(a, b), pg_catalog.mod(a, 2), pg_catalog.string_agg(DISTINCT s, ',') FROM t`,
			"select zp_concat(`a`, `b`),mod(`a`, 2),string_agg(zp_distinct(), `s`, ',') from `t`"},
		{`SELECT pg_catalog.extract('year', d), pg_catalog.substring(s, 2), pg_catalog.char(65) FROM t`,
			"select `pg_catalog`.`extract`('year' from `d`),`pg_catalog`.`substring`(`s`, 2),`pg_catalog`.`char`(65) from `t`"},
		{`SELECT s.agg(DISTINCT a), s.agg(ALL a), public.count(*) FROM t`,
			"select `s`.`agg`(zp_distinct(), `a`),`s`.`agg`(`a`),`public`.`count`() from `t`"},
		{`INSERT INTO pg_catalog.t (a) VALUES (pg_catalog.lower('A'))`,
			"insert into `pg_catalog`.`t` (`a`) values (lower('A'))"},
	}
	checkRestored(t, tests)
}
