package clients

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// The queries BI tools and drivers send to learn a schema, as they send
// them (Grafana's PostgreSQL data source: its schema, table and column
// pickers and the $__timeFilter macro; Metabase's sync; DBeaver's first
// query; pgx's LoadType), over pgx in the extended protocol. Every
// expectation is PostgreSQL's: the test passes against E2E_POSTGRES too.

// grafanaSearchPath is how Grafana's pickers restrict to the search path.
const grafanaSearchPath = `quote_ident(table_schema) IN (
  SELECT CASE WHEN trim(s[i]) = '"$user"' THEN user ELSE trim(s[i]) END
  FROM generate_series(array_lower(string_to_array(current_setting('search_path'), ','), 1),
                       array_upper(string_to_array(current_setting('search_path'), ','), 1)) AS i,
       string_to_array(current_setting('search_path'), ',') s)`

var toolQueries = []struct {
	name, sql string
	want      []string // rows, columns joined by |
}{
	{"dbeaver", `SELECT current_schema(), session_user`, []string{"public|USER"}},
	{"grafana schemas", `SELECT quote_ident(schema_name) AS schema FROM information_schema.schemata
		WHERE schema_name NOT LIKE 'pg_%' AND schema_name NOT LIKE '\_timescaledb\_%' AND schema_name NOT IN ('information_schema')
		ORDER BY quote_ident(schema_name)`, []string{"public"}},
	{"grafana tables", `SELECT quote_ident(table_name) AS "table" FROM information_schema.tables
		WHERE quote_ident(table_schema) NOT IN ('information_schema', 'pg_catalog', '_timescaledb_cache', '_timescaledb_catalog',
		  '_timescaledb_internal', '_timescaledb_config', 'timescaledb_information', 'timescaledb_experimental')
		AND table_type = 'BASE TABLE' AND ` + grafanaSearchPath + ` ORDER BY 1`,
		[]string{"\"Mixed\"", "readings", "sensors"}},
	{"grafana columns", `SELECT quote_ident(column_name) AS "column", data_type AS "type" FROM information_schema.columns
		WHERE quote_ident(table_name) = 'readings' AND ` + grafanaSearchPath + ` ORDER BY ordinal_position`,
		[]string{"sensor_id|bigint", "ts|timestamp without time zone", "celsius|double precision", "note|character varying", "tags|ARRAY"}},
	{"grafana time filter", `SELECT ts AS "time", celsius FROM readings
		WHERE ts BETWEEN '2024-01-01T00:00:00Z' AND '2024-01-01T23:59:59Z' AND sensor_id = 1 ORDER BY 1`,
		[]string{"2024-01-01 10:00:00|21.5"}},
	{"metabase tables", `SELECT n.nspname AS schema, c.relname AS name,
		  CASE c.relkind WHEN 'r' THEN 'TABLE' WHEN 'p' THEN 'PARTITIONED TABLE' WHEN 'v' THEN 'VIEW' WHEN 'f' THEN 'FOREIGN TABLE'
		    WHEN 'm' THEN 'MATERIALIZED VIEW' ELSE NULL END AS type, d.description AS description
		FROM pg_catalog.pg_class c
		INNER JOIN pg_catalog.pg_namespace n ON c.relnamespace = n.oid
		LEFT JOIN pg_catalog.pg_description d ON c.oid = d.objoid AND d.objsubid = 0 AND d.classoid = 'pg_class'::regclass
		WHERE c.relnamespace = n.oid AND c.relkind IN ('r', 'p', 'v', 'f', 'm')
		  AND n.nspname !~ '^information_schema$' AND n.nspname !~ '^pg_' AND has_schema_privilege(n.nspname, 'USAGE')
		ORDER BY type, schema, name`,
		[]string{"public|sensor_counts|MATERIALIZED VIEW|NULL", "public|Mixed|TABLE|NULL", "public|readings|TABLE|NULL", "public|sensors|TABLE|NULL", "public|warm|VIEW|NULL"}},
	{"metabase privileges", `SELECT has_table_privilege('public.readings', 'SELECT'), has_table_privilege('"Mixed"', 'INSERT'),
		has_schema_privilege('public', 'USAGE')`, []string{"true|true|true"}},
	{"metabase primary keys", `SELECT a.attname FROM pg_index i
		JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
		WHERE i.indrelid = 'readings'::regclass AND i.indisprimary ORDER BY a.attnum`, []string{"sensor_id", "ts"}},
	{"reg casts", `SELECT 'readings'::regclass::text, 23::regtype::text, 'int4'::regtype::oid::int, 'public'::regnamespace::text,
		'"Mixed"'::regclass::text, pg_typeof(1)::text`, []string{"readings|integer|23|public|\"Mixed\"|integer"}},
	{"format_type", `SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute
		WHERE attrelid = 'readings'::regclass AND attnum > 0 ORDER BY attnum`,
		[]string{"sensor_id|bigint", "ts|timestamp without time zone", "celsius|double precision", "note|character varying(40)", "tags|text[]"}},
}

func TestCatalogTools(t *testing.T) {
	t.Parallel()
	c := newCatalogTarget(t)
	c.exec(t, catalogSchema...)
	c.exec(t, `CREATE TABLE "Mixed" (k int PRIMARY KEY)`,
		`INSERT INTO readings (sensor_id, ts, celsius) VALUES (1, '2024-01-01 10:00:00', 21.5), (1, '2024-01-02 10:00:00', 19)`)
	conn := connect(t, c.connString())
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for _, q := range toolQueries {
		rows, err := conn.Query(ctx, q.sql, pgx.QueryExecModeExec)
		if err != nil {
			t.Errorf("%s: %v", q.name, err)
			continue
		}
		var got []string
		for rows.Next() {
			vals, err := rows.Values()
			if err != nil {
				t.Fatalf("%s: %v", q.name, err)
			}
			cells := make([]string, len(vals))
			for i, v := range vals {
				switch x := v.(type) {
				case nil:
					cells[i] = "NULL"
				case time.Time:
					cells[i] = x.UTC().Format("2006-01-02 15:04:05")
				default:
					cells[i] = fmt.Sprint(x)
				}
			}
			got = append(got, strings.Join(cells, "|"))
		}
		if err := rows.Err(); err != nil {
			t.Errorf("%s: %v", q.name, err)
			continue
		}
		want := make([]string, len(q.want))
		for i, w := range q.want {
			want[i] = strings.ReplaceAll(w, "USER", c.user)
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s:\ngot  %q\nwant %q", q.name, got, want)
		}
	}

	// pgx's LoadType reads pg_type (with regtype) for derived types.
	for _, name := range []string{"_int4", "text[]", "readings"} {
		typ, err := conn.LoadType(ctx, name)
		if err != nil {
			t.Errorf("LoadType(%s): %v", name, err)
			continue
		}
		conn.TypeMap().RegisterType(typ)
	}
	var arr []int32
	if err := conn.QueryRow(ctx, "SELECT ARRAY[1,2,3]::int4[]").Scan(&arr); err != nil || len(arr) != 3 {
		t.Errorf("int4[] after LoadType: %v %v", arr, err)
	}
}
