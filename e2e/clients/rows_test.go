package clients

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// scenarioColumns are the columns of the scenario's table, one per supported
// type; createScenarioTable spells out the DDL.
var scenarioColumns = []string{"id", "sm", "i", "bi", "r", "d", "tx", "vc", "b", "ts", "tz", "dt", "by", "u"}

// scenarioOIDs are the type OIDs PostgreSQL reports for scenarioColumns.
var scenarioOIDs = []uint32{23, 21, 23, 20, 700, 701, 25, 1043, 16, 1114, 1184, 1082, 17, 2950}

const scenarioDDL = `CREATE TABLE %s (id integer NOT NULL, sm smallint, i integer, bi bigint,
	r real, d double precision, tx text, vc varchar(20), b boolean, ts timestamp,
	tz timestamptz, dt date, by bytea, u uuid, PRIMARY KEY (id)) WITH (shards = 2)`

func text(s string) *string { return &s }

// scenarioText is every client's three rows as PostgreSQL prints them in text
// format with TimeZone UTC, DateStyle ISO and bytea_output hex (nil: NULL).
// Each client writes the same values in its own language's types.
var scenarioText = [][]*string{
	{text("1"), text("12345"), text("2147483647"), text("-9223372036854775808"), text("1.5"),
		text("3.141592653589793"), text("héllo, wörld ☃"), text("varchar"), text("t"),
		text("2024-02-29 13:45:56.789012"), text("2024-06-30 23:59:59.5+00"), text("2024-02-29"),
		text(`\x0001ff275c`), text("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")},
	{text("2"), nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil},
	{text("3"), text("-32768"), text("0"), text("9223372036854775807"), text("-0.25"),
		text("1e+300"), text(""), text("x"), text("f"),
		text("1999-12-31 23:59:59"), text("2001-02-02 22:35:06+00"), text("1900-01-01"),
		text(`\x`), text("00000000-0000-0000-0000-000000000000")},
}

// checkStoredRows reads table over its own pgx connection in the simple
// protocol and compares the raw text of every value with scenarioText: what
// a driver wrote, checked without that driver.
func checkStoredRows(t *testing.T, s *server, table string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cfg, err := pgx.ParseConfig(s.pgxConnString())
	if err != nil {
		t.Fatal(err)
	}
	cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatalf("pgx connect: %v", err)
	}
	defer conn.Close(context.Background())
	rows, err := conn.Query(ctx, "SELECT id, sm, i, bi, r, d, tx, vc, b, ts, tz, dt, by, u FROM "+table+" ORDER BY id")
	if err != nil {
		t.Fatalf("reading %s back with pgx: %v", table, err)
	}
	defer rows.Close()
	for c, f := range rows.FieldDescriptions() {
		if f.Name != scenarioColumns[c] || f.DataTypeOID != scenarioOIDs[c] {
			t.Errorf("column %d: %s (OID %d), want %s (OID %d)", c, f.Name, f.DataTypeOID, scenarioColumns[c], scenarioOIDs[c])
		}
	}
	n := 0
	for rows.Next() {
		if n >= len(scenarioText) {
			t.Fatalf("more than %d rows in %s", len(scenarioText), table)
		}
		for c, raw := range rows.RawValues() {
			want := scenarioText[n][c]
			switch {
			case raw == nil && want == nil:
			case raw == nil:
				t.Errorf("row %d column %s: NULL, want %q", n+1, scenarioColumns[c], *want)
			case want == nil:
				t.Errorf("row %d column %s: %q, want NULL", n+1, scenarioColumns[c], raw)
			case string(raw) != *want:
				t.Errorf("row %d column %s: %q, want %q", n+1, scenarioColumns[c], raw, *want)
			}
		}
		n++
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("reading %s back with pgx: %v", table, err)
	}
	if n != len(scenarioText) {
		t.Errorf("%d rows in %s, want %d", n, table, len(scenarioText))
	}
}
