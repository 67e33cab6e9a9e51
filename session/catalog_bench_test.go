package session_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// BenchmarkCatalogQueries runs catalog-heavy queries over a database of 20
// schemas of 100 tables each (with their primary-key indexes): a join of
// pg_class with pg_namespace, and psql's \d listing, which asks
// pg_table_is_visible of every relation. Each row names its schema, which
// pgcatalog reads from the statement's snapshot.
func BenchmarkCatalogQueries(b *testing.B) {
	t := &testing.T{}
	_, sess := newSession(t, memStore(t))
	ctx := context.Background()
	var path []string
	for s := 0; s < 20; s++ {
		schema := fmt.Sprintf("cb_s%02d", s)
		path = append(path, schema)
		var sb strings.Builder
		fmt.Fprintf(&sb, "CREATE SCHEMA %s;", schema)
		for i := 0; i < 100; i++ {
			fmt.Fprintf(&sb, "CREATE TABLE %s.t%03d (id int PRIMARY KEY, v text);", schema, i)
		}
		if _, err := runSQL(ctx, sess, sb.String()); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := runSQL(ctx, sess, "SET search_path = "+strings.Join(path, ", ")); err != nil {
		b.Fatal(err)
	}
	cases := []struct{ name, sql string }{
		{"class_namespace", `SELECT c.relname, n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace`},
		{"psql_d", `SELECT n.nspname as "Schema", c.relname as "Name",
  CASE c.relkind WHEN 'r' THEN 'table' WHEN 'v' THEN 'view' WHEN 'm' THEN 'materialized view' WHEN 'i' THEN 'index' WHEN 'S' THEN 'sequence' WHEN 't' THEN 'TOAST table' WHEN 'f' THEN 'foreign table' WHEN 'p' THEN 'partitioned table' WHEN 'I' THEN 'partitioned index' END as "Type",
  pg_catalog.pg_get_userbyid(c.relowner) as "Owner"
FROM pg_catalog.pg_class c
     LEFT JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
     LEFT JOIN pg_catalog.pg_am am ON am.oid = c.relam
WHERE c.relkind IN ('r','p','v','m','S','f','')
      AND n.nspname <> 'pg_catalog'
      AND n.nspname !~ '^pg_toast'
      AND n.nspname <> 'information_schema'
  AND pg_catalog.pg_table_is_visible(c.oid)
ORDER BY 1,2`},
		{"information_schema_tables", `SELECT table_schema, table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE'`},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) { benchQuery(b, sess, c.sql) })
	}
}
