package e2e

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestDomainRoundTrip writes values of domains through each of pgx's exec
// modes and through COPY in binary (pgx.CopyFrom, which reads the columns'
// types from a RowDescription: a domain's base type's), then reads them
// back as text and in binary. Values that break a domain's constraints
// fail with PostgreSQL's SQLSTATEs wherever they come from: a parameter,
// a literal, a cast, a column left out, COPY. Only the domain's owner may
// alter or drop it.
func TestDomainRoundTrip(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	ctx := testCtx(t)
	setup := tg.Connect(t, pgx.QueryExecModeCacheStatement)
	mustExec(t, setup, "DROP TABLE IF EXISTS domain_rt")
	mustExec(t, setup, "DROP DOMAIN IF EXISTS e2e_even, e2e_pos, e2e_code")
	mustExec(t, setup, "CREATE DOMAIN e2e_pos AS integer CHECK (VALUE > 0)")
	mustExec(t, setup, "CREATE DOMAIN e2e_even AS e2e_pos CHECK (VALUE % 2 = 0)")
	mustExec(t, setup, "CREATE DOMAIN e2e_code AS varchar(4) NOT NULL DEFAULT 'none' CHECK (VALUE = lower(VALUE))")
	tg.CreateTable(t, setup, `CREATE TABLE domain_rt (id INTEGER NOT NULL, p e2e_pos, e e2e_even, c e2e_code, ps e2e_pos[], PRIMARY KEY (id))`)

	id := 0
	for _, mode := range execModes {
		conn := tg.Connect(t, mode)
		for _, v := range []int{1, 2, 40} {
			id++
			if _, err := conn.Exec(ctx, "INSERT INTO domain_rt VALUES ($1, $2, $3, $4, $5::int[])", id, v, 2*v, "ab", []int{v, v + 1}); err != nil {
				t.Fatalf("%v: insert %d: %v", mode, v, err)
			}
		}
		for _, bad := range []struct {
			sql  string
			args []any
			code string
		}{
			{"INSERT INTO domain_rt (id, p) VALUES ($1, $2)", []any{1000 + id, -1}, "23514"},
			{"INSERT INTO domain_rt (id, e) VALUES ($1, $2)", []any{1000 + id, 3}, "23514"},
			{"INSERT INTO domain_rt (id, e) VALUES ($1, $2)", []any{1000 + id, -2}, "23514"},
			{"INSERT INTO domain_rt (id, c) VALUES ($1, $2)", []any{1000 + id, nil}, "23502"},
			{"INSERT INTO domain_rt (id, c) VALUES ($1, $2)", []any{1000 + id, "ABC"}, "23514"},
			{"INSERT INTO domain_rt (id, c) VALUES ($1, $2)", []any{1000 + id, "toolong"}, "22001"},
			{"INSERT INTO domain_rt (id, ps) VALUES ($1, $2::int[])", []any{1000 + id, []int{1, 0}}, "23514"},
			{"UPDATE domain_rt SET p = p - 1 WHERE id = $1", []any{id - 2}, "23514"},
			{"SELECT $1::e2e_pos", []any{0}, "23514"},
			{"SELECT CAST($1::int AS e2e_even)", []any{5}, "23514"},
		} {
			_, err := conn.Exec(ctx, bad.sql, bad.args...)
			if pgCode(err) != bad.code {
				t.Fatalf("%v: %s %v: %v, want %s", mode, bad.sql, bad.args, err, bad.code)
			}
		}
	}
	// A column left out takes the domain's default.
	id++
	mustExec(t, setup, "INSERT INTO domain_rt (id, p) VALUES ($1, 7)", id)

	// pgx's COPY is binary, in the columns' types as a RowDescription
	// reports them: the domains' base types.
	conn := tg.Connect(t, pgx.QueryExecModeCacheStatement)
	n, err := conn.CopyFrom(ctx, pgx.Identifier{"domain_rt"}, []string{"id", "p", "e", "c"},
		pgx.CopyFromRows([][]any{{500, 5, 6, "cp"}, {501, nil, nil, "x"}}))
	if err != nil || n != 2 {
		t.Fatalf("CopyFrom: %d, %v", n, err)
	}
	for _, row := range [][]any{{502, 0, nil, "x"}, {503, nil, 7, "x"}, {504, nil, nil, nil}, {505, nil, nil, "X"}} {
		_, err := conn.CopyFrom(ctx, pgx.Identifier{"domain_rt"}, []string{"id", "p", "e", "c"}, pgx.CopyFromRows([][]any{row}))
		want := "23514"
		if row[3] == nil {
			want = "23502"
		}
		if pgCode(err) != want {
			t.Fatalf("CopyFrom %v: %v, want %s", row, err, want)
		}
	}

	// With the domain loaded (pgx's LoadType reads pg_type), pgx sends
	// its values in binary, declared as the domain.
	for _, mode := range execModes {
		loaded := tg.Connect(t, mode)
		typ, err := loaded.LoadType(ctx, "e2e_pos")
		if err != nil {
			t.Fatalf("LoadType(e2e_pos): %v", err)
		}
		loaded.TypeMap().RegisterType(typ)
		var got int32
		if err := loaded.QueryRow(ctx, "SELECT $1::e2e_pos", int32(9)).Scan(&got); err != nil || got != 9 {
			t.Fatalf("%v: $1::e2e_pos: %d %v", mode, got, err)
		}
		if _, err := loaded.Exec(ctx, "SELECT $1::e2e_pos", int32(-9)); pgCode(err) != "23514" {
			t.Fatalf("%v: $1::e2e_pos of -9: %v, want 23514", mode, err)
		}
	}

	for _, format := range []int16{pgx.TextFormatCode, pgx.BinaryFormatCode} {
		rows, err := conn.Query(ctx, "SELECT id, p, e, c, p + e FROM domain_rt WHERE p IS NOT NULL ORDER BY id",
			pgx.QueryResultFormats{format, format, format, format, format})
		if err != nil {
			t.Fatal(err)
		}
		// RowDescription reports a domain's base type.
		var oids []uint32
		for _, f := range rows.FieldDescriptions() {
			oids = append(oids, f.DataTypeOID)
		}
		if want := []uint32{23, 23, 23, 1043, 23}; !slices.Equal(oids, want) {
			t.Fatalf("format %d: column type OIDs %v, want %v", format, oids, want)
		}
		var got []int
		for rows.Next() {
			var rid int
			var p, e, sum *int
			var c string
			if err := rows.Scan(&rid, &p, &e, &c, &sum); err != nil {
				t.Fatalf("format %d: %v", format, err)
			}
			switch {
			case rid == id:
				if *p != 7 || e != nil || c != "none" {
					t.Fatalf("format %d: row with defaults: %v %v %q", format, *p, e, c)
				}
			case rid == 500:
				if *p != 5 || *e != 6 || c != "cp" || *sum != 11 {
					t.Fatalf("format %d: copied row: %v %v %q %v", format, *p, *e, c, *sum)
				}
			case *e != 2**p || c != "ab" || *sum != 3**p:
				t.Fatalf("format %d: row %d: %v %v %q %v", format, rid, *p, *e, c, *sum)
			default:
				got = append(got, *p)
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		want := slices.Concat(slices.Repeat([]int{1, 2, 40}, len(execModes)))
		if !slices.Equal(got, want) {
			t.Fatalf("format %d: %v, want %v", format, got, want)
		}
	}
	var typ, arr string
	if err := conn.QueryRow(ctx, "SELECT pg_typeof(e)::text, ps::text FROM domain_rt WHERE id = 1").Scan(&typ, &arr); err != nil || typ != "e2e_even" || arr != "{1,2}" {
		t.Fatalf("pg_typeof, array of a domain: %q %q %v", typ, arr, err)
	}

	// Only the owner alters or drops a domain.
	mustExec(t, setup, "DROP ROLE IF EXISTS e2e_domain_other")
	mustExec(t, setup, "CREATE ROLE e2e_domain_other LOGIN")
	t.Cleanup(func() { _, _ = setup.Exec(context.Background(), "DROP ROLE IF EXISTS e2e_domain_other") })
	other := (&target{connString: userRE.ReplaceAllString(tg.connString, "user=e2e_domain_other")}).Connect(t, pgx.QueryExecModeSimpleProtocol)
	for _, sql := range []string{"ALTER DOMAIN e2e_pos SET DEFAULT 1", "ALTER DOMAIN e2e_pos ADD CHECK (VALUE < 10)", "DROP DOMAIN e2e_code"} {
		_, err := other.Exec(ctx, sql)
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != "42501" || pe.Message != "must be owner of type "+map[bool]string{true: "e2e_code", false: "e2e_pos"}[sql == "DROP DOMAIN e2e_code"] {
			t.Fatalf("%s as another role: %v, want 42501", sql, err)
		}
	}

	mustExec(t, setup, "DROP TABLE domain_rt")
	mustExec(t, setup, "DROP DOMAIN e2e_even, e2e_pos, e2e_code")
}
