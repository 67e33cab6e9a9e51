package e2e

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// typedRow holds one value of every supported type; pgtype's Valid=false
// (or a nil slice) is NULL.
type typedRow struct {
	ID int32
	S  pgtype.Int2
	I  pgtype.Int4
	B  pgtype.Int8
	R  pgtype.Float4
	D  pgtype.Float8
	T  pgtype.Text
	V  pgtype.Text
	Bo pgtype.Bool
	Ts pgtype.Timestamp
	Tz pgtype.Timestamptz
	Dt pgtype.Date
	By []byte
	U  pgtype.UUID
}

const typesDDL = `CREATE TABLE types_rt (id INTEGER NOT NULL, s SMALLINT, i INTEGER, b BIGINT, r REAL,
  d DOUBLE PRECISION, t TEXT, v VARCHAR(10), bo BOOLEAN, ts TIMESTAMP, tz TIMESTAMPTZ, dt DATE, by BYTEA, u UUID,
  PRIMARY KEY (id)) WITH (shards = 2)`

const typesColumns = "id, s, i, b, r, d, t, v, bo, ts, tz, dt, by, u"

func (r typedRow) args() []any {
	return []any{r.ID, r.S, r.I, r.B, r.R, r.D, r.T, r.V, r.Bo, r.Ts, r.Tz, r.Dt, r.By, r.U}
}

func (r *typedRow) scanTargets() []any {
	return []any{&r.ID, &r.S, &r.I, &r.B, &r.R, &r.D, &r.T, &r.V, &r.Bo, &r.Ts, &r.Tz, &r.Dt, &r.By, &r.U}
}

// normalized makes rows comparable with reflect.DeepEqual: pgx returns
// timestamptz in the local zone.
func (r typedRow) normalized() typedRow {
	r.Tz.Time = r.Tz.Time.UTC()
	r.Ts.Time = r.Ts.Time.UTC()
	r.Dt.Time = r.Dt.Time.UTC()
	return r
}

func utc(y int, mo time.Month, d, h, mi, s, us int) time.Time {
	return time.Date(y, mo, d, h, mi, s, us*1000, time.UTC)
}

// sampleRows covers typical values, each type's extremes, awkward text and
// bytes, and NULL in every nullable column.
func sampleRows() []typedRow {
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	return []typedRow{
		{
			S: pgtype.Int2{Int16: 12, Valid: true}, I: pgtype.Int4{Int32: 1234, Valid: true},
			B: pgtype.Int8{Int64: 1 << 40, Valid: true}, R: pgtype.Float4{Float32: 1.5, Valid: true},
			D: pgtype.Float8{Float64: math.Pi, Valid: true}, T: pgtype.Text{String: "hello", Valid: true},
			V: pgtype.Text{String: "var", Valid: true}, Bo: pgtype.Bool{Bool: true, Valid: true},
			Ts: pgtype.Timestamp{Time: utc(2024, 1, 2, 10, 0, 0, 123456), Valid: true},
			Tz: pgtype.Timestamptz{Time: utc(2024, 1, 2, 10, 0, 0, 654321), Valid: true},
			Dt: pgtype.Date{Time: utc(2024, 2, 29, 0, 0, 0, 0), Valid: true},
			By: []byte{0, 1, 0xff},
			U:  pgtype.UUID{Bytes: [16]byte{0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 1, 2, 3, 4, 5, 6, 7, 8}, Valid: true},
		},
		{
			S: pgtype.Int2{Int16: math.MinInt16, Valid: true}, I: pgtype.Int4{Int32: math.MinInt32, Valid: true},
			B: pgtype.Int8{Int64: math.MinInt64, Valid: true}, R: pgtype.Float4{Float32: -math.MaxFloat32, Valid: true},
			D: pgtype.Float8{Float64: -1e308, Valid: true}, T: pgtype.Text{String: "", Valid: true},
			V: pgtype.Text{String: "", Valid: true}, Bo: pgtype.Bool{Bool: false, Valid: true},
			Ts: pgtype.Timestamp{Time: utc(1969, 12, 31, 23, 59, 59, 999999), Valid: true},
			Tz: pgtype.Timestamptz{Time: utc(1999, 12, 31, 23, 59, 59, 0), Valid: true},
			Dt: pgtype.Date{Time: utc(1900, 1, 1, 0, 0, 0, 0), Valid: true},
			By: []byte{},
			U:  pgtype.UUID{Valid: true},
		},
		{
			S: pgtype.Int2{Int16: math.MaxInt16, Valid: true}, I: pgtype.Int4{Int32: math.MaxInt32, Valid: true},
			B: pgtype.Int8{Int64: math.MaxInt64, Valid: true}, R: pgtype.Float4{Float32: 1e-45, Valid: true},
			D: pgtype.Float8{Float64: math.Inf(1), Valid: true},
			T: pgtype.Text{String: "quote ' double \" backslash \\ tab\t newline\n héllo 世界 🙂", Valid: true},
			V: pgtype.Text{String: "ééé世界", Valid: true}, Bo: pgtype.Bool{Bool: true, Valid: true},
			Ts: pgtype.Timestamp{Time: utc(2000, 1, 1, 0, 0, 0, 0), Valid: true},
			Tz: pgtype.Timestamptz{Time: utc(2038, 1, 19, 3, 14, 8, 1), Valid: true},
			Dt: pgtype.Date{Time: utc(2000, 1, 1, 0, 0, 0, 0), Valid: true},
			By: all,
			U:  pgtype.UUID{Bytes: [16]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, Valid: true},
		},
		{
			S: pgtype.Int2{Int16: -1, Valid: true}, I: pgtype.Int4{Int32: 0, Valid: true},
			B: pgtype.Int8{Int64: -7, Valid: true}, R: pgtype.Float4{Float32: -0.25, Valid: true},
			D: pgtype.Float8{Float64: math.Inf(-1), Valid: true}, T: pgtype.Text{String: "NULL", Valid: true},
			V: pgtype.Text{String: "0123456789", Valid: true}, Bo: pgtype.Bool{Bool: false, Valid: true},
			Ts: pgtype.Timestamp{Time: utc(1, 1, 1, 0, 0, 0, 0), Valid: true},
			Tz: pgtype.Timestamptz{Time: utc(9999, 12, 31, 23, 59, 59, 999999), Valid: true},
			Dt: pgtype.Date{Time: utc(1970, 1, 1, 0, 0, 0, 0), Valid: true},
			By: []byte(`\x00'`),
			U:  pgtype.UUID{Bytes: [16]byte{0: 1, 15: 0x80}, Valid: true},
		},
		{}, // NULL in every nullable column
	}
}

// execModes are pgx's ways of sending a statement: the named-statement
// default (binary parameters and results), the unnamed statement, text
// parameters and results, and the simple protocol (values inlined as
// literals).
var execModes = []pgx.QueryExecMode{
	pgx.QueryExecModeCacheStatement,
	pgx.QueryExecModeDescribeExec,
	pgx.QueryExecModeExec,
	pgx.QueryExecModeSimpleProtocol,
}

// TestTypesRoundTrip writes every supported type through each of pgx's
// exec modes (one multi-row INSERT each) and reads everything back in every
// mode, with binary and text results.
func TestTypesRoundTrip(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	setup := tg.Connect(t, pgx.QueryExecModeCacheStatement)
	tg.CreateTable(t, setup, typesDDL)

	var want []typedRow
	for m, mode := range execModes {
		conn := tg.Connect(t, mode)
		rows := sampleRows()
		var args []any
		var tuples []string
		for i := range rows {
			rows[i].ID = int32(100*m + i)
			tuple := make([]string, 14)
			for c := range tuple {
				tuple[c] = fmt.Sprintf("$%d", len(args)+c+1)
			}
			tuples = append(tuples, "("+strings.Join(tuple, ", ")+")")
			args = append(args, rows[i].args()...)
			want = append(want, rows[i])
		}
		sql := "INSERT INTO types_rt (" + typesColumns + ") VALUES " + strings.Join(tuples, ", ")
		tag, err := conn.Exec(testCtx(t), sql, args...)
		if err != nil {
			t.Fatalf("%v: multi-row insert: %v", mode, err)
		}
		if tag.String() != fmt.Sprintf("INSERT 0 %d", len(rows)) {
			t.Errorf("%v: insert tag %q", mode, tag)
		}
	}

	type readMode struct {
		name string
		mode pgx.QueryExecMode
		opts []any
	}
	reads := []readMode{{name: "text results", mode: pgx.QueryExecModeCacheStatement, opts: []any{pgx.QueryResultFormats{pgx.TextFormatCode}}}}
	for _, m := range execModes {
		reads = append(reads, readMode{name: m.String(), mode: m})
	}
	for _, rm := range reads {
		t.Run("read "+rm.name, func(t *testing.T) {
			conn := tg.Connect(t, rm.mode)
			rows, err := conn.Query(testCtx(t), "SELECT "+typesColumns+" FROM types_rt ORDER BY id", rm.opts...)
			if err != nil {
				t.Fatal(err)
			}
			var got []typedRow
			for rows.Next() {
				var r typedRow
				if err := rows.Scan(r.scanTargets()...); err != nil {
					t.Fatalf("scan: %v", err)
				}
				got = append(got, r.normalized())
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("read %d rows, want %d", len(got), len(want))
			}
			for i := range want {
				if w := want[i].normalized(); !reflect.DeepEqual(got[i], w) {
					t.Errorf("row %d:\n got  %+v\n want %+v", i, got[i], w)
				}
			}
		})
	}

	// Every type as a parameter in a WHERE comparison, binary and text.
	columns := strings.Split(typesColumns, ", ")
	probe := sampleRows()[0].args()
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeExec} {
		conn := tg.Connect(t, mode)
		for c := 1; c < len(columns); c++ {
			wantCount := 0
			for _, r := range want {
				if reflect.DeepEqual(r.normalized().args()[c], normalizeArg(probe[c])) {
					wantCount++
				}
			}
			var n int64
			sql := "SELECT count(*) FROM types_rt WHERE " + columns[c] + " = $1"
			if err := conn.QueryRow(testCtx(t), sql, probe[c]).Scan(&n); err != nil {
				t.Errorf("%v: %s: %v", mode, sql, err)
				continue
			}
			if n != int64(wantCount) {
				t.Errorf("%v: %s with %v: count %d, want %d", mode, sql, probe[c], n, wantCount)
			}
		}
	}
}

func normalizeArg(a any) any {
	switch v := a.(type) {
	case pgtype.Timestamptz:
		v.Time = v.Time.UTC()
		return v
	}
	return a
}
