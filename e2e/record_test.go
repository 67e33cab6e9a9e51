package e2e

import (
	"context"
	"encoding/hex"
	"fmt"
	"os"
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
	// The modes that describe the statement, so pgx knows the
	// parameter's type and sends it in binary (record_recv); a text
	// parameter is record_in's (records.slt).
	for i, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeDescribeExec} {
		c := tg.Connect(t, mode)
		for _, name := range []string{"e2e_addr", "_e2e_addr"} {
			typ, err := c.LoadType(ctx, name)
			if err != nil {
				t.Fatalf("%v: LoadType(%s): %v", mode, name, err)
			}
			c.TypeMap().RegisterType(typ)
		}
		st, z := fmt.Sprintf("mode %d, \"quoted\"", i), int32(i)
		if _, err := c.Exec(ctx, "INSERT INTO record_rt VALUES ($1, $2)", 100+i, pgtype.CompositeFields{&st, &z}); err != nil {
			t.Fatalf("%v: insert: %v", mode, err)
		}
		var back string
		if err := c.QueryRow(ctx, "SELECT (a).street FROM record_rt WHERE id = $1 AND a = $2::e2e_addr", 100+i, pgtype.CompositeFields{&st, &z}).Scan(&back); err != nil || back != st {
			t.Fatalf("%v: read back %q, %v", mode, back, err)
		}
	}
	mustExec(t, conn, "DELETE FROM record_rt WHERE id >= 100")
	// COPY in binary: record_recv per row.
	cs, cz := "copied", int32(77)
	if n, err := conn.CopyFrom(ctx, pgx.Identifier{"record_rt"}, []string{"id", "a"},
		pgx.CopyFromRows([][]any{{200, pgtype.CompositeFields{&cs, &cz}}, {201, nil}})); err != nil || n != 2 {
		t.Fatalf("CopyFrom: %d, %v", n, err)
	}
	var copied string
	if err := conn.QueryRow(ctx, "SELECT a::text FROM record_rt WHERE id = 200").Scan(&copied); err != nil || copied != "(copied,77)" {
		t.Fatalf("copied row: %q, %v", copied, err)
	}
	mustExec(t, conn, "DELETE FROM record_rt WHERE id >= 200")
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

// TestRecordPseudoTypeCasts reads casts to the pseudo-type record
// (pgx's TestRecordCodecDecodeValue runs SELECT NULL::record) through
// pgconn in binary: the column's type is record (OID 2249), a NULL is a
// NULL, and ROW(1, 'a')::record is record_send's bytes, as PostgreSQL 15
// sends them: the field count, then each field's OID, length and bytes.
func TestRecordPseudoTypeCasts(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	ctx := testCtx(t)
	conn := tg.Connect(t, pgx.QueryExecModeCacheStatement)
	pc := conn.PgConn()
	for _, c := range []struct {
		sql, want string // want: hex of the binary value, "null" for NULL
	}{
		{"SELECT NULL::record", "null"},
		{"SELECT ROW(1, 'a'::text)::record", "00000002" + "00000017" + "00000004" + "00000001" + "00000019" + "00000001" + "61"},
		{"SELECT CAST(ROW(NULL::int8) AS pg_catalog.record)", "00000001" + "00000014" + "ffffffff"},
	} {
		res := pc.ExecParams(ctx, c.sql, nil, nil, nil, []int16{pgx.BinaryFormatCode}).Read()
		if res.Err != nil {
			t.Fatalf("%s: %v", c.sql, res.Err)
		}
		if len(res.FieldDescriptions) != 1 || res.FieldDescriptions[0].DataTypeOID != 2249 {
			t.Fatalf("%s: fields %+v, want one of type record (2249)", c.sql, res.FieldDescriptions)
		}
		if len(res.Rows) != 1 {
			t.Fatalf("%s: %d rows", c.sql, len(res.Rows))
		}
		got := "null"
		if v := res.Rows[0][0]; v != nil {
			got = hex.EncodeToString(v)
		}
		if got != c.want {
			t.Fatalf("%s: %s, want %s", c.sql, got, c.want)
		}
	}
	// A record parameter has no field types to read it by: record_recv
	// of an anonymous record is PostgreSQL's 0A000.
	res := pc.ExecParams(ctx, "SELECT $1::record", [][]byte{{0, 0, 0, 0}}, []uint32{2249}, []int16{pgx.BinaryFormatCode}, nil).Read()
	if sqlstate(res.Err) != "0A000" {
		t.Fatalf("anonymous record parameter: %v, want 0A000", res.Err)
	}
}

// TestCompositeSurvivesRestart stores composite values (nested, in an
// array, some written before ALTER TYPE ... ADD ATTRIBUTE), stops zproxy
// and starts it again on the same store, Pebble and DynamoDB Local: the
// types, their attributes and the values read back the same.
func TestCompositeSurvivesRestart(t *testing.T) {
	requireZproxy(t)
	stores := map[string]func(t *testing.T) (string, []string){
		"pebble": func(t *testing.T) (string, []string) { return t.TempDir(), nil },
		"dynamodb": func(t *testing.T) (string, []string) {
			ep := dynamoEndpoint(t)
			dynamoCreds(t)
			return t.TempDir(), dynamoArgs(ep, fmt.Sprintf("e2e_composite_%d", os.Getpid()))
		},
	}
	for name, store := range stores {
		t.Run(name, func(t *testing.T) {
			dir, args := store(t)
			first := startServer(t, dir, args...)
			conn := first.Connect(t)
			mustExec(t, conn, "CREATE TYPE rs_pt AS (x int, y float8)")
			mustExec(t, conn, "CREATE TYPE rs_shape AS (name text, pts rs_pt[], c rs_pt)")
			mustExec(t, conn, "CREATE TABLE rs_shapes (id int PRIMARY KEY, s rs_shape, p rs_pt)")
			mustExec(t, conn, `INSERT INTO rs_shapes VALUES (1, ROW('tri "1"', ARRAY[ROW(1, 2.5)::rs_pt, NULL], ROW(0, -0.5)), '(5,6)'), (2, NULL, ROW(NULL, NULL))`)
			mustExec(t, conn, "ALTER TYPE rs_pt ADD ATTRIBUTE label text")
			mustExec(t, conn, "INSERT INTO rs_shapes VALUES (3, NULL, ROW(7, 8, 'a,b'))")
			const q = "SELECT id, s::text, p::text, (p).label, ((s).pts[1]).y FROM rs_shapes ORDER BY id"
			before := queryAll(t, conn, q)
			_ = conn.Close(context.Background())
			first.Stop()

			second := startServer(t, dir, args...)
			conn = second.Connect(t)
			after := queryAll(t, conn, q)
			if !rowsEqual(after, before) {
				t.Fatalf("after restart: %v\nbefore: %v", after, before)
			}
			want := `[1 ("tri ""1""","{""(1,2.5,)"",NULL}","(0,-0.5,)") (5,6,) <nil> 2.5]`
			if got := fmt.Sprint(after[0]); got != want {
				t.Errorf("row 1: %s, want %s", got, want)
			}
			var attrs int
			if err := conn.QueryRow(testCtx(t), "SELECT count(*) FROM pg_attribute WHERE attrelid = 'rs_pt'::regclass AND attnum > 0").Scan(&attrs); err != nil || attrs != 3 {
				t.Errorf("rs_pt's attributes after restart: %d, %v; want 3", attrs, err)
			}
			second.Stop()
		})
	}
}
