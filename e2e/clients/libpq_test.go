package clients

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/lib/pq"
)

// libpqRows is the scenario's rows as database/sql arguments: lib/pq sends
// them as untyped text parameters, except []byte, which goes in binary.
var libpqRows = [][]any{
	{int64(1), int64(12345), int64(math.MaxInt32), int64(math.MinInt64), 1.5, 3.141592653589793,
		"héllo, wörld ☃", "varchar", true,
		time.Date(2024, 2, 29, 13, 45, 56, 789012000, time.UTC),
		time.Date(2024, 6, 30, 23, 59, 59, 500000000, time.UTC),
		time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC),
		[]byte{0x00, 0x01, 0xff, 0x27, 0x5c}, "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"},
	{int64(2), nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil},
	{int64(3), int64(-32768), int64(0), int64(math.MaxInt64), -0.25, 1e300, "", "x", false,
		time.Date(1999, 12, 31, 23, 59, 59, 0, time.UTC),
		time.Date(2001, 2, 3, 4, 5, 6, 0, time.FixedZone("IST", 5*3600+1800)),
		time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC),
		[]byte{}, "00000000-0000-0000-0000-000000000000"},
}

// libpqTypeNames are the type names database/sql reports for the scenario's
// columns (lib/pq derives them from the type OIDs).
var libpqTypeNames = []string{"INT4", "INT2", "INT4", "INT8", "FLOAT4", "FLOAT8", "TEXT", "VARCHAR",
	"BOOL", "TIMESTAMP", "TIMESTAMPTZ", "DATE", "BYTEA", "UUID"}

// TestLibPQ runs the scenario through database/sql and lib/pq, with lib/pq's
// default protocol (Parse with untyped parameters, Describe, Bind, Execute)
// and with binary_parameters=yes (Parse, Bind, Describe portal, Execute in
// one round trip, without asking for the parameter types).
func TestLibPQ(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	for _, tc := range []struct{ name, table, options string }{
		{"default", "t_libpq", ""},
		{"binary_parameters", "t_libpq_binary", " binary_parameters=yes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dsn := fmt.Sprintf("host=%s port=%s user=zproxy dbname=zproxy sslmode=disable connect_timeout=10 application_name=zproxy-e2e-libpq%s",
				s.host, s.port, tc.options)
			runLibPQScenario(t, dsn, tc.table)
			checkStoredRows(t, s, tc.table)
		})
	}
}

func runLibPQScenario(t *testing.T, dsn, table string) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// One connection throughout, so "the connection keeps working after an
	// error" is about the connection that saw the error.
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatalf("connecting with lib/pq: %v", err)
	}
	defer conn.Close()

	if _, err := conn.ExecContext(ctx, fmt.Sprintf(scenarioDDL, table)); err != nil {
		t.Fatalf("CREATE TABLE: %v", err)
	}

	one := placeholders(1, len(scenarioColumns))
	res, err := conn.ExecContext(ctx, "INSERT INTO "+table+" VALUES "+one, libpqRows[0]...)
	if err != nil {
		t.Fatalf("INSERT of one row: %v", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		t.Errorf("INSERT of one row: %d rows affected", n)
	}

	// The multi-row INSERT inside a transaction (BEGIN ... COMMIT).
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		t.Fatalf("BEGIN: %v", err)
	}
	two := one + ", " + placeholders(1+len(scenarioColumns), len(scenarioColumns))
	res, err = tx.ExecContext(ctx, "INSERT INTO "+table+" VALUES "+two, append(append([]any{}, libpqRows[1]...), libpqRows[2]...)...)
	if err != nil {
		t.Fatalf("INSERT of two rows: %v", err)
	}
	if n, _ := res.RowsAffected(); n != 2 {
		t.Errorf("INSERT of two rows: %d rows affected", n)
	}
	if err := tx.Commit(); err != nil {
		t.Fatalf("COMMIT: %v", err)
	}

	rows, err := conn.QueryContext(ctx, "SELECT "+strings.Join(scenarioColumns, ", ")+" FROM "+table+" WHERE id >= $1 ORDER BY id", 1)
	if err != nil {
		t.Fatalf("SELECT: %v", err)
	}
	types, err := rows.ColumnTypes()
	if err != nil {
		t.Fatal(err)
	}
	for c, ct := range types {
		if ct.Name() != scenarioColumns[c] || ct.DatabaseTypeName() != libpqTypeNames[c] {
			t.Errorf("column %d: %s %s, want %s %s", c, ct.Name(), ct.DatabaseTypeName(), scenarioColumns[c], libpqTypeNames[c])
		}
	}
	n := 0
	for rows.Next() {
		got := make([]any, len(scenarioColumns))
		ptrs := make([]any, len(got))
		for c := range got {
			ptrs[c] = &got[c]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		if n < len(libpqRows) {
			for c := range got {
				if !sameLibPQValue(got[c], libpqRows[n][c]) {
					t.Errorf("row %d column %s: got %#v (%T), want %#v (%T)", n+1, scenarioColumns[c], got[c], got[c], libpqRows[n][c], libpqRows[n][c])
				}
			}
		}
		n++
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("SELECT: %v", err)
	}
	if n != len(libpqRows) {
		t.Errorf("%d rows, want %d", n, len(libpqRows))
	}

	// A point select with parameters of several types.
	var txt string
	var bi int64
	err = conn.QueryRowContext(ctx, "SELECT tx, bi FROM "+table+" WHERE id = $1 AND b = $2 AND vc = $3 AND d = $4",
		1, true, "varchar", 3.141592653589793).Scan(&txt, &bi)
	if err != nil || txt != "héllo, wörld ☃" || bi != math.MinInt64 {
		t.Errorf("point select: %q, %d, %v", txt, bi, err)
	}

	expectLibPQError(ctx, t, conn, "23505", "INSERT INTO "+table+" (id, tx) VALUES ($1, $2)", 1, "dup")
	expectLibPQCount(ctx, t, conn, table, 3)
	expectLibPQError(ctx, t, conn, "42P01", "SELECT * FROM no_such_table WHERE id = $1", 1)
	expectLibPQError(ctx, t, conn, "42P01", "SELECT * FROM no_such_table")
	expectLibPQCount(ctx, t, conn, table, 3)
}

// placeholders returns "($from, ..., $from+n-1)".
func placeholders(from, n int) string {
	var b strings.Builder
	b.WriteByte('(')
	for k := range n {
		if k > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "$%d", from+k)
	}
	b.WriteByte(')')
	return b.String()
}

// sameLibPQValue compares a scanned value with what was inserted: lib/pq
// decodes integers to int64, floats to float64, text to string, uuid (a type
// it does not know) to []byte, bytea to []byte and the time types to
// time.Time; a wrong type OID on the wire shows up as a wrong Go type.
func sameLibPQValue(got, want any) bool {
	switch w := want.(type) {
	case nil:
		return got == nil
	case time.Time:
		g, ok := got.(time.Time)
		return ok && g.Equal(w)
	case []byte:
		g, ok := got.([]byte)
		return ok && bytes.Equal(g, w)
	case string:
		if g, ok := got.([]byte); ok { // uuid
			return len(w) == 36 && string(g) == w
		}
		g, ok := got.(string)
		return ok && g == w
	default:
		return got == want
	}
}

func expectLibPQError(ctx context.Context, t *testing.T, conn *sql.Conn, code, query string, args ...any) {
	t.Helper()
	_, err := conn.ExecContext(ctx, query, args...)
	var pqErr *pq.Error
	switch {
	case err == nil:
		t.Errorf("%s: no error, want SQLSTATE %s", query, code)
	case !errors.As(err, &pqErr):
		t.Errorf("%s: %v (%T), want a *pq.Error with SQLSTATE %s", query, err, err, code)
	case string(pqErr.Code) != code:
		t.Errorf("%s: SQLSTATE %s (%v), want %s", query, pqErr.Code, err, code)
	}
}

func expectLibPQCount(ctx context.Context, t *testing.T, conn *sql.Conn, table string, want int64) {
	t.Helper()
	var n int64
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM "+table).Scan(&n); err != nil {
		t.Fatalf("count after an error: %v", err)
	}
	if n != want {
		t.Errorf("count(*) = %d, want %d", n, want)
	}
}
