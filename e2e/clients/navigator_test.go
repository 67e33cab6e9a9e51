package clients

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// The catalog queries DBeaver's navigator and Metabase's sync send (issue
// 24), in the shapes their PostgreSQL support sends them: DBeaver's schema
// loaders (relations of a schema with their descriptions and parents,
// a relation's columns with pg_get_expr defaults, a schema's constraints
// and indexes with pg_get_indexdef of expression keys), Metabase's
// current-user table privileges (has_any_column_privilege and
// has_table_privilege over pg_tables, pg_views and pg_matviews), its
// foreign keys and its single-column indexes (information_schema.
// _pg_expandarray). Written here from what the tools' sources do, not
// copied. Every expectation is PostgreSQL's: with E2E_POSTGRES the test
// runs there too.

var navigatorSchema = []string{
	`CREATE TABLE nav_owner (id integer PRIMARY KEY, name varchar(40) NOT NULL DEFAULT 'anon', score numeric DEFAULT 0 CHECK (score >= 0))`,
	`CREATE TABLE nav_pet (id integer PRIMARY KEY, owner_id integer REFERENCES nav_owner (id), tag text UNIQUE, born date DEFAULT CURRENT_DATE)`,
	`CREATE INDEX nav_pet_lower ON nav_pet (lower(tag))`,
	`CREATE INDEX nav_pet_owner ON nav_pet (owner_id) WHERE owner_id IS NOT NULL`,
	`CREATE VIEW nav_named AS SELECT p.id, o.name FROM nav_pet p JOIN nav_owner o ON o.id = p.owner_id`,
	`COMMENT ON TABLE nav_owner IS 'people'`,
	`COMMENT ON COLUMN nav_owner.name IS 'display name'`,
}

var navigatorQueries = []struct {
	name, sql string
	want      []string
}{
	{"dbeaver relations", `SELECT r.relname, r.relkind::text, r.description, r.parents IS NULL FROM (
		SELECT c.oid, c.*, d.description,
		       (SELECT array_agg(h.inhparent) FROM pg_catalog.pg_inherits h WHERE h.inhrelid = c.oid) AS parents
		  FROM pg_catalog.pg_class c
		  LEFT OUTER JOIN pg_catalog.pg_description d ON d.objoid = c.oid AND d.objsubid = 0
		 WHERE c.relnamespace = $1 AND c.relkind NOT IN ('i', 'c')) r
		 WHERE r.relname LIKE 'nav%' ORDER BY r.relname`,
		[]string{"nav_named|v|NULL|true", "nav_owner|r|people|true", "nav_pet|r|NULL|true"}},
	{"dbeaver columns", `SELECT x.relname, x.attname, x.def_value, x.description FROM (
		SELECT c.relname, a.*, pg_catalog.pg_get_expr(ad.adbin, ad.adrelid, true) AS def_value, dsc.description
		  FROM pg_catalog.pg_attribute a
		  JOIN pg_catalog.pg_class c ON a.attrelid = c.oid
		  LEFT OUTER JOIN pg_catalog.pg_attrdef ad ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
		  LEFT OUTER JOIN pg_catalog.pg_description dsc ON c.oid = dsc.objoid AND a.attnum = dsc.objsubid
		 WHERE NOT a.attisdropped AND c.oid = 'nav_owner'::regclass) x
		 WHERE x.attnum > 0 ORDER BY x.attnum`,
		[]string{"nav_owner|id|NULL|NULL", "nav_owner|name|'anon'::character varying|display name", "nav_owner|score|0|NULL"}},
	{"dbeaver constraints", `SELECT x.tabrelname, x.contype::text, x.conkey, x.confkey, x.refnamespace IS NOT NULL, x.def FROM (
		SELECT c.oid, c.*, t.relname AS tabrelname, rt.relnamespace AS refnamespace, pg_catalog.pg_get_constraintdef(c.oid, true) AS def
		  FROM pg_catalog.pg_constraint c
		  JOIN pg_catalog.pg_class t ON t.oid = c.conrelid
		  LEFT OUTER JOIN pg_catalog.pg_class rt ON rt.oid = c.confrelid
		 WHERE t.relnamespace = $1) x
		 WHERE x.tabrelname LIKE 'nav%' ORDER BY x.tabrelname, x.contype, x.conname`,
		[]string{"nav_owner|c|{3}|NULL|false|CHECK (score >= 0::numeric)", "nav_owner|p|{1}|NULL|false|PRIMARY KEY (id)",
			"nav_pet|f|{2}|{1}|true|FOREIGN KEY (owner_id) REFERENCES nav_owner(id)", "nav_pet|p|{1}|NULL|false|PRIMARY KEY (id)",
			"nav_pet|u|{3}|NULL|false|UNIQUE (tag)"}},
	{"dbeaver indexes", `SELECT x.relname, x.tabrelname, x.keys::text, x.expr, x.indisunique, x.indisprimary,
		       CASE WHEN x.expr IS NOT NULL THEN pg_catalog.pg_get_indexdef(x.indexrelid, 1, true) END,
		       pg_catalog.pg_get_expr(x.indpred, x.indrelid, true) FROM (
		SELECT i.*, i.indkey AS keys, c.relname, c.relnamespace, c.relam, tc.relname AS tabrelname, dsc.description,
		       pg_catalog.pg_get_expr(i.indexprs, i.indrelid, true) AS expr
		  FROM pg_catalog.pg_index i
		  JOIN pg_catalog.pg_class c ON c.oid = i.indexrelid
		  JOIN pg_catalog.pg_class tc ON tc.oid = i.indrelid
		  LEFT OUTER JOIN pg_catalog.pg_description dsc ON i.indexrelid = dsc.objoid
		 WHERE c.relnamespace = $1) x
		 WHERE x.tabrelname LIKE 'nav%' ORDER BY x.relname`,
		[]string{"nav_owner_pkey|nav_owner|1|NULL|true|true|NULL|NULL", "nav_pet_lower|nav_pet|0|lower(tag)|false|false|lower(tag)|NULL",
			"nav_pet_owner|nav_pet|2|NULL|false|false|NULL|owner_id IS NOT NULL", "nav_pet_pkey|nav_pet|1|NULL|true|true|NULL|NULL",
			"nav_pet_tag_key|nav_pet|3|NULL|true|false|NULL|NULL"}},
	{"metabase table privileges", `WITH privs AS (
		SELECT NULL AS role, t.schemaname AS schema, t.objectname AS table,
		       pg_catalog.has_any_column_privilege(current_user, '"' || replace(t.schemaname, '"', '""') || '"."' || replace(t.objectname, '"', '""') || '"', 'update') AS update,
		       pg_catalog.has_any_column_privilege(current_user, '"' || replace(t.schemaname, '"', '""') || '"."' || replace(t.objectname, '"', '""') || '"', 'select') AS select,
		       pg_catalog.has_any_column_privilege(current_user, '"' || replace(t.schemaname, '"', '""') || '"."' || replace(t.objectname, '"', '""') || '"', 'insert') AS insert,
		       pg_catalog.has_table_privilege(current_user, '"' || replace(t.schemaname, '"', '""') || '"."' || replace(t.objectname, '"', '""') || '"', 'delete') AS delete
		  FROM (SELECT schemaname, tablename AS objectname FROM pg_catalog.pg_tables
		        UNION SELECT schemaname, viewname AS objectname FROM pg_catalog.pg_views
		        UNION SELECT schemaname, matviewname AS objectname FROM pg_catalog.pg_matviews) t
		 WHERE t.schemaname !~ '^pg_' AND t.schemaname <> 'information_schema'
		   AND pg_catalog.has_schema_privilege(current_user, t.schemaname, 'usage'))
		SELECT p.* FROM privs p WHERE p.table LIKE 'nav%' ORDER BY p.table`,
		[]string{"NULL|public|nav_named|true|true|true|true", "NULL|public|nav_owner|true|true|true|true", "NULL|public|nav_pet|true|true|true|true"}},
	{"metabase foreign keys", `SELECT fk_ns.nspname AS "fk-table-schema", fk_table.relname AS "fk-table-name", fk_column.attname AS "fk-column-name",
		       pk_ns.nspname AS "pk-table-schema", pk_table.relname AS "pk-table-name", pk_column.attname AS "pk-column-name"
		  FROM pg_constraint c
		  JOIN pg_class fk_table ON c.conrelid = fk_table.oid
		  JOIN pg_namespace fk_ns ON c.connamespace = fk_ns.oid
		  JOIN pg_attribute fk_column ON c.conrelid = fk_column.attrelid
		  JOIN pg_class pk_table ON c.confrelid = pk_table.oid
		  JOIN pg_namespace pk_ns ON pk_table.relnamespace = pk_ns.oid
		  JOIN pg_attribute pk_column ON c.confrelid = pk_column.attrelid
		 WHERE fk_ns.nspname !~ '^information_schema|catalog_history|pg_' AND c.contype = 'f'::char
		   AND fk_column.attnum = ANY(c.conkey) AND pk_column.attnum = ANY(c.confkey) AND fk_table.relname LIKE 'nav%'
		 ORDER BY "fk-table-schema", "fk-table-name"`,
		[]string{"public|nav_pet|owner_id|public|nav_owner|id"}},
	{"metabase indexes", `SELECT tmp."table-schema", tmp."table-name", trim(BOTH '"' FROM pg_catalog.pg_get_indexdef(tmp.ci_oid, tmp.pos, false)) AS "field-name"
		  FROM (SELECT n.nspname AS "table-schema", ct.relname AS "table-name", ci.oid AS ci_oid,
		               (information_schema._pg_expandarray(i.indkey)).n AS pos
		          FROM pg_catalog.pg_class ct
		          JOIN pg_catalog.pg_namespace n ON ct.relnamespace = n.oid
		          JOIN pg_catalog.pg_index i ON ct.oid = i.indrelid
		          JOIN pg_catalog.pg_class ci ON ci.oid = i.indexrelid
		         WHERE pg_catalog.pg_get_expr(i.indpred, i.indrelid) IS NULL
		           AND n.nspname !~ '^information_schema|catalog_history|pg_' AND ct.relname LIKE 'nav%') tmp
		 WHERE tmp.pos = 1 ORDER BY 2, 3`,
		[]string{"public|nav_owner|id", "public|nav_pet|id", "public|nav_pet|lower(tag)", "public|nav_pet|tag"}},
	{name: "prisma tables", sql: `SELECT t.relname AS table_name, ns.nspname AS namespace,
		       (t.relhassubclass AND t.relkind = 'p') AS is_partition, (t.relhassubclass AND t.relkind = 'r') AS has_subclass,
		       t.relkind = 'f' AS is_foreign_table, t.relrowsecurity AS has_row_level_security, t.reloptions,
		       obj_description(t.oid, 'pg_class') AS description
		  FROM pg_class t JOIN pg_namespace ns ON ns.oid = t.relnamespace
		 WHERE ((t.relkind = 'r' AND t.relispartition = 'f') OR t.relkind = 'p' OR t.relkind = 'f')
		   AND ns.nspname = ANY ($1) AND t.relname LIKE 'nav%'
		 ORDER BY namespace, table_name`,
		want: []string{"nav_owner|public|false|false|false|false|NULL|people", "nav_pet|public|false|false|false|false|NULL|NULL"}},
	{name: "prisma check constraints", sql: `SELECT ns.nspname AS namespace, t.relname AS table_name, con.conname AS constraint_name,
		       con.contype::text AS constraint_type, pg_get_constraintdef(con.oid) AS constraint_definition,
		       con.condeferrable AS is_deferrable, con.condeferred AS is_deferred
		  FROM pg_constraint con JOIN pg_class t ON t.oid = con.conrelid JOIN pg_namespace ns ON ns.oid = t.relnamespace
		 WHERE ns.nspname = ANY ($1) AND con.contype NOT IN ('p', 'u', 'f') AND t.relname LIKE 'nav%'
		 ORDER BY namespace, table_name, con.contype, constraint_name`,
		want: []string{"public|nav_owner|nav_owner_score_check|c|CHECK ((score >= (0)::numeric))|false|false"}},
	{name: "prisma indexes", sql: `WITH keys AS (
		SELECT indrelid, indexrelid, indisunique, indisprimary,
		       unnest(indkey) AS key_attnum, generate_subscripts(indkey, 1) AS key_position,
		       unnest(indclass) AS key_class, unnest(indoption) AS key_option
		  FROM pg_index WHERE indpred IS NULL AND NOT indisexclusion)
		SELECT ns.nspname AS namespace, ix.relname AS index_name, t.relname AS table_name, a.attname AS column_name,
		       k.indisunique AS is_unique, k.indisprimary AS is_primary_key, k.key_position AS column_index,
		       oc.opcname AS opclass, oc.opcdefault, am.amname AS index_algo,
		       CASE k.key_option & 1 WHEN 1 THEN 'DESC' ELSE 'ASC' END AS column_order,
		       CASE k.key_option & 2 WHEN 2 THEN true ELSE false END AS nulls_first,
		       con.condeferrable, con.condeferred
		  FROM keys k
		  JOIN pg_class t ON t.oid = k.indrelid
		  JOIN pg_class ix ON ix.oid = k.indexrelid
		  JOIN pg_namespace ns ON ns.oid = t.relnamespace
		  LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.key_attnum
		  JOIN pg_am am ON am.oid = ix.relam
		  LEFT JOIN pg_opclass oc ON oc.oid = k.key_class
		  LEFT JOIN pg_constraint con ON k.indexrelid = con.conindid AND con.contype <> 'f'
		 WHERE ns.nspname = ANY ($1) AND t.relname LIKE 'nav%'
		 ORDER BY namespace, table_name, index_name, column_index`,
		want: []string{"public|nav_owner_pkey|nav_owner|id|true|true|0|int4_ops|true|btree|ASC|false|false|false",
			"public|nav_pet_lower|nav_pet|NULL|false|false|0|text_ops|true|btree|ASC|false|NULL|NULL",
			"public|nav_pet_pkey|nav_pet|id|true|true|0|int4_ops|true|btree|ASC|false|false|false",
			"public|nav_pet_tag_key|nav_pet|tag|true|false|0|text_ops|true|btree|ASC|false|false|false"}},
}

func TestNavigatorQueries(t *testing.T) {
	t.Parallel()
	c := newCatalogTarget(t)
	c.exec(t, navigatorSchema...)
	conn := connect(t, c.connString())
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var public uint32
	if err := conn.QueryRow(ctx, `SELECT oid FROM pg_catalog.pg_namespace WHERE nspname = 'public'`).Scan(&public); err != nil {
		t.Fatal(err)
	}
	for _, q := range navigatorQueries {
		var args []any
		switch {
		case strings.Contains(q.sql, "ANY ($1)"):
			// Prisma's: the schemas to describe, as an array.
			args = append(args, []string{"public"})
		case strings.Contains(q.sql, "$1"):
			args = append(args, public)
		}
		rows, err := conn.Query(ctx, q.sql, append([]any{pgx.QueryExecModeExec}, args...)...)
		if err != nil {
			t.Errorf("%s: %v", q.name, err)
			continue
		}
		var got []string
		for rows.Next() {
			vals, err := rows.Values()
			if err != nil {
				t.Errorf("%s: %v", q.name, err)
				break
			}
			parts := make([]string, len(vals))
			for i, v := range vals {
				parts[i] = navText(v)
			}
			got = append(got, strings.Join(parts, "|"))
		}
		if err := rows.Err(); err != nil {
			t.Errorf("%s: %v", q.name, err)
			continue
		}
		if strings.Join(got, "\n") != strings.Join(q.want, "\n") {
			t.Errorf("%s:\n got: %q\nwant: %q", q.name, got, q.want)
		}
	}
}

// navText prints a value as the expectations spell it.
func navText(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = navText(e)
		}
		return "{" + strings.Join(parts, ",") + "}"
	case fmt.Stringer:
		return x.String()
	}
	return fmt.Sprint(v)
}
