package differential

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestSystemRelationPrivilegesAgainstPostgreSQL diffs the privileges on
// every relation zproxy computes that PostgreSQL 15 (with PostGIS) also
// has: pg_class.relacl and pg_init_privs (the bootstrap superuser's name
// aside), what has_table_privilege, has_any_column_privilege and
// has_column_privilege answer for a role that is no superuser, and
// whether that role's SELECT * of the relation succeeds or fails with
// PostgreSQL's SQLSTATE and message.
func TestSystemRelationPrivilegesAgainstPostgreSQL(t *testing.T) {
	ctx := context.Background()
	pg, zc := postGISPair(t, ctx)
	const role = "acl_diff_reader"
	for _, c := range []*pgx.Conn{pg, zc} {
		for _, sql := range []string{"DROP ROLE IF EXISTS " + role, "CREATE ROLE " + role} {
			if _, err := c.Exec(ctx, sql); err != nil {
				t.Fatalf("%s: %v", sql, err)
			}
		}
	}
	// Each relation's facts, by schema-qualified name; the superuser's
	// name is OWNER on both.
	facts := func(c *pgx.Conn) map[string]string {
		t.Helper()
		rows, err := c.Query(ctx, `SELECT n.nspname || '.' || c.relname, c.relkind::text,
				replace(coalesce(c.relacl::text, 'NULL'), current_user, 'OWNER'),
				coalesce((SELECT string_agg(i.objsubid || i.privtype::text || replace(i.initprivs::text, current_user, 'OWNER'), ' ' ORDER BY i.objsubid)
					FROM pg_init_privs i WHERE i.objoid = c.oid AND i.classoid = 'pg_class'::regclass), 'none'),
				coalesce((SELECT string_agg(a.attname || replace(a.attacl::text, current_user, 'OWNER'), ' ' ORDER BY a.attnum)
					FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attacl IS NOT NULL), 'none'),
				has_table_privilege('`+role+`', c.oid, 'SELECT')::text || has_table_privilege('`+role+`', c.oid, 'INSERT')::text
					|| has_table_privilege('`+role+`', c.oid, 'UPDATE')::text || has_table_privilege('`+role+`', c.oid, 'DELETE')::text
					|| has_table_privilege('`+role+`', c.oid, 'SELECT WITH GRANT OPTION')::text
					|| has_any_column_privilege('`+role+`', c.oid, 'SELECT')::text
					|| has_column_privilege('`+role+`', c.oid, 1::int2, 'SELECT')::text
			FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
			WHERE c.relkind IN ('r', 'v', 'm')
				AND (n.nspname IN ('pg_catalog', 'information_schema') OR c.relname IN ('spatial_ref_sys', 'geometry_columns', 'geography_columns'))`)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for rows.Next() {
			var name, kind, acl, init, attacl, has string
			if err := rows.Scan(&name, &kind, &acl, &init, &attacl, &has); err != nil {
				t.Fatal(err)
			}
			out[name] = strings.Join([]string{"kind " + kind, "relacl " + acl, "pg_init_privs " + init, "attacl " + attacl, "has " + has}, "; ")
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	pgFacts, zpFacts := facts(pg), facts(zc)
	var both []string
	for name := range zpFacts {
		if _, ok := pgFacts[name]; ok {
			both = append(both, name)
		}
	}
	sort.Strings(both)
	// The test means little unless it covers nearly every relation zproxy
	// computes.
	if len(both) < len(zpFacts)*9/10 {
		t.Fatalf("only %d of zproxy's %d computed relations are PostgreSQL's too", len(both), len(zpFacts))
	}
	// As the role: reading each relation whole.
	read := func(c *pgx.Conn, name string) string {
		t.Helper()
		sc, rel, _ := strings.Cut(name, ".")
		if _, err := c.Exec(ctx, "SET ROLE "+role); err != nil {
			t.Fatal(err)
		}
		defer func() {
			if _, err := c.Exec(ctx, "RESET ROLE"); err != nil {
				t.Fatal(err)
			}
		}()
		res := run(ctx, c, fmt.Sprintf("SELECT * FROM %s.%s LIMIT 0", pgx.Identifier{sc}.Sanitize(), pgx.Identifier{rel}.Sanitize()), 30*time.Second)
		if res.failed() {
			return res.err.Error()
		}
		return "ok"
	}
	for _, name := range both {
		if pgFacts[name] != zpFacts[name] {
			t.Errorf("%s:\nPostgreSQL: %s\nzproxy:     %s", name, pgFacts[name], zpFacts[name])
		}
		if p, z := read(pg, name), read(zc, name); p != z {
			t.Errorf("%s read by a role that is no superuser:\nPostgreSQL: %s\nzproxy:     %s", name, p, z)
		}
	}
	t.Logf("%d computed relations compared (zproxy has %d, PostgreSQL %d)", len(both), len(zpFacts), len(pgFacts))
}
