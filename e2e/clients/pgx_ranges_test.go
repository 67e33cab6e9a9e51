package clients

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// TestPgxUserRangeTypes: a user-defined range type and its multirange
// type through pgx's binary codecs, as an application registers them
// (LoadTypes reads pg_type and pg_range): parameters, results, a table's
// columns and binary COPY, against zproxy or, with E2E_POSTGRES,
// PostgreSQL.
func TestPgxUserRangeTypes(t *testing.T) {
	t.Parallel()
	tg := newClientTarget(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, tg.dsn())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	exec := func(sql string) {
		t.Helper()
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	exec("DROP TABLE IF EXISTS pgx_ranges")
	exec("DROP TYPE IF EXISTS pgx_floatrange")
	exec("CREATE TYPE pgx_floatrange AS RANGE (subtype = float8, subtype_diff = float8mi, multirange_type_name = pgx_floatmultirange)")
	defer func() {
		_, _ = conn.Exec(context.Background(), "DROP TABLE IF EXISTS pgx_ranges")
		_, _ = conn.Exec(context.Background(), "DROP TYPE IF EXISTS pgx_floatrange")
	}()
	// The range type first: the multirange's codec needs it registered.
	for _, name := range []string{"pgx_floatrange", "pgx_floatmultirange"} {
		typ, err := conn.LoadType(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		conn.TypeMap().RegisterType(typ)
	}

	type fr = pgtype.Range[float64]
	type fm = pgtype.Multirange[pgtype.Range[float64]]
	closed := fr{Lower: 1, Upper: 2.5, LowerType: pgtype.Inclusive, UpperType: pgtype.Inclusive, Valid: true}
	open := fr{Lower: 3, LowerType: pgtype.Exclusive, UpperType: pgtype.Unbounded, Valid: true}
	empty := fr{LowerType: pgtype.Empty, UpperType: pgtype.Empty, Valid: true}
	multi := fm{{Lower: 1, Upper: 2, LowerType: pgtype.Inclusive, UpperType: pgtype.Exclusive, Valid: true},
		{Lower: 5, Upper: 6, LowerType: pgtype.Inclusive, UpperType: pgtype.Exclusive, Valid: true}}

	for _, tc := range []struct {
		sql  string
		arg  any
		want any
	}{
		{"SELECT $1::pgx_floatrange", closed, closed},
		{"SELECT $1::pgx_floatrange", open, open},
		{"SELECT $1::pgx_floatrange", empty, empty},
		{"SELECT $1::pgx_floatmultirange", multi, multi},
		{"SELECT $1::pgx_floatrange * pgx_floatrange(2, 10)", closed,
			fr{Lower: 2, Upper: 2.5, LowerType: pgtype.Inclusive, UpperType: pgtype.Inclusive, Valid: true}},
	} {
		got := reflect.New(reflect.TypeOf(tc.want))
		if err := conn.QueryRow(ctx, tc.sql, tc.arg).Scan(got.Interface()); err != nil {
			t.Fatalf("%s with %v: %v", tc.sql, tc.arg, err)
		}
		if !reflect.DeepEqual(got.Elem().Interface(), tc.want) {
			t.Errorf("%s with %v = %+v, want %+v", tc.sql, tc.arg, got.Elem().Interface(), tc.want)
		}
	}

	exec("CREATE TABLE pgx_ranges (id int PRIMARY KEY, r pgx_floatrange, m pgx_floatmultirange)")
	if _, err := conn.Exec(ctx, "INSERT INTO pgx_ranges VALUES (1, $1, $2)", closed, multi); err != nil {
		t.Fatal(err)
	}
	n, err := conn.CopyFrom(ctx, pgx.Identifier{"pgx_ranges"}, []string{"id", "r", "m"},
		pgx.CopyFromRows([][]any{{2, open, fm{}}, {3, empty, nil}}))
	if err != nil || n != 2 {
		t.Fatalf("CopyFrom: %d rows, %v", n, err)
	}
	rows, err := conn.Query(ctx, "SELECT id FROM pgx_ranges WHERE r @> $1::float8 OR m @> $1::float8 ORDER BY id", 5.5)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int32])
	if err != nil || !reflect.DeepEqual(ids, []int32{1, 2}) {
		t.Fatalf("ids containing 5.5: %v, %v", ids, err)
	}
	var r fr
	var m fm
	if err := conn.QueryRow(ctx, "SELECT r, m FROM pgx_ranges WHERE id = 2").Scan(&r, &m); err != nil {
		t.Fatal(err)
	}
	if r != open || len(m) != 0 {
		t.Errorf("row 2 = %+v, %+v; want %+v and an empty multirange", r, m, open)
	}
}
