package e2e

import (
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// TestRecordBinaryRoundTrip reads anonymous records and a composite
// column in binary through pgx (record_send: the field count, then each
// field's type OID, length and bytes), writes a composite value as a
// binary parameter (record_recv) and reads it back; the same against
// PostgreSQL with E2E_POSTGRES set.
func TestRecordBinaryRoundTrip(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	ctx := testCtx(t)
	conn := tg.Connect(t, pgx.QueryExecModeCacheStatement)
	mustExec(t, conn, "DROP TABLE IF EXISTS record_rt")
	mustExec(t, conn, "DROP TYPE IF EXISTS e2e_addr")
	mustExec(t, conn, "CREATE TYPE e2e_addr AS (street text, zip int4)")
	tg.CreateTable(t, conn, `CREATE TABLE record_rt (id INTEGER NOT NULL, a e2e_addr, PRIMARY KEY (id))`)

	// An anonymous record: pgx's RecordCodec reads the fields' OIDs.
	var f1 int32
	var f2 string
	var f3 *int64
	var f4 float64
	if err := conn.QueryRow(ctx, "SELECT ROW(1::int4, 'a b'::text, NULL::int8, 2.5::float8)", pgx.QueryResultFormats{pgx.BinaryFormatCode}).
		Scan(pgtype.CompositeFields{&f1, &f2, &f3, &f4}); err != nil {
		t.Fatalf("record in binary: %v", err)
	}
	if f1 != 1 || f2 != "a b" || f3 != nil || f4 != 2.5 {
		t.Fatalf("record fields %v %q %v %v", f1, f2, f3, f4)
	}

	// The composite type and its array, as pgx's LoadType reads them
	// from pg_type, pg_class and pg_attribute.
	for _, name := range []string{"e2e_addr", "_e2e_addr"} {
		typ, err := conn.LoadType(ctx, name)
		if err != nil {
			t.Fatalf("LoadType(%s): %v", name, err)
		}
		conn.TypeMap().RegisterType(typ)
	}

	type addr struct {
		Street *string
		Zip    *int32
	}
	street, zip := "1 Main St", int32(12345)
	if _, err := conn.Exec(ctx, "INSERT INTO record_rt VALUES (1, $1)", pgtype.CompositeFields{&street, &zip}); err != nil {
		t.Fatalf("insert binary composite: %v", err)
	}
	mustExec(t, conn, "INSERT INTO record_rt VALUES (2, '(\"x,y\",)')")
	var arr []addr
	if err := conn.QueryRow(ctx, "SELECT array_agg(a ORDER BY id) FROM record_rt", pgx.QueryResultFormats{pgx.BinaryFormatCode}).Scan(&arr); err != nil {
		t.Fatalf("array of composites in binary: %v", err)
	}
	if len(arr) != 2 || arr[0].Street == nil || *arr[0].Street != street || arr[0].Zip == nil || *arr[0].Zip != zip ||
		arr[1].Street == nil || *arr[1].Street != "x,y" || arr[1].Zip != nil {
		t.Fatalf("array of composites: %+v", arr)
	}
	for _, format := range []int16{pgx.TextFormatCode, pgx.BinaryFormatCode} {
		rows, err := conn.Query(ctx, "SELECT a FROM record_rt ORDER BY id", pgx.QueryResultFormats{format})
		if err != nil {
			t.Fatal(err)
		}
		var got []addr
		for rows.Next() {
			var s *string
			var z *int32
			if err := rows.Scan(pgtype.CompositeFields{&s, &z}); err != nil {
				t.Fatalf("format %d: %v", format, err)
			}
			got = append(got, addr{s, z})
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[0].Street == nil || *got[0].Street != street || got[0].Zip == nil || *got[0].Zip != zip ||
			got[1].Street == nil || *got[1].Street != "x,y" || got[1].Zip != nil {
			t.Fatalf("format %d: %+v", format, got)
		}
	}
}
