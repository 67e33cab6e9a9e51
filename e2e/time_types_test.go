package e2e

import (
	"encoding/binary"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// TestTimeRoundTrip writes time (binary and text parameters) and timetz
// values, as keys and as plain columns, and reads them back in both result
// formats: time through pgx's pgtype.Time, timetz as text and as its binary
// form (µs of the day, then the zone in seconds west of UTC).
func TestTimeRoundTrip(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	setup := tg.Connect(t, pgx.QueryExecModeCacheStatement)
	tg.CreateTable(t, setup, `CREATE TABLE time_rt (t TIME PRIMARY KEY, tz TIMETZ, note TEXT) WITH (shards = 2)`)

	values := []struct {
		us     int64 // time of day, µs
		tz     string
		tzUS   int64
		tzWest int32
	}{
		{0, "00:00:00+00", 0, 0},
		{36000e6 + 500000, "10:00:00.5-05:30", 36000e6 + 500000, 5*3600 + 1800},
		{86399e6 + 999999, "23:59:59.999999+14", 86399e6 + 999999, -14 * 3600},
		{86400e6, "24:00:00+01", 86400e6, -3600},
	}
	for m, mode := range execModes {
		conn := tg.Connect(t, mode)
		for i, v := range values {
			if m > 0 {
				// Later modes only re-insert conflicting keys: the
				// uniqueness check must see them as equal.
				if _, err := conn.Exec(testCtx(t), "INSERT INTO time_rt VALUES ($1, $2, 'again')", pgtype.Time{Microseconds: v.us, Valid: true}, v.tz); err == nil {
					t.Fatalf("mode %v: duplicate time key %d accepted", mode, v.us)
				}
				continue
			}
			mustExec(t, conn, "INSERT INTO time_rt VALUES ($1, $2, $3)", pgtype.Time{Microseconds: v.us, Valid: true}, v.tz, string(rune('a'+i)))
		}
	}

	for _, rd := range resultReads {
		t.Run(rd.name, func(t *testing.T) {
			conn := tg.Connect(t, rd.mode)
			rows, err := conn.Query(testCtx(t), "SELECT t, tz::text, note FROM time_rt WHERE t >= $1 ORDER BY t",
				append(append([]any{}, rd.opts...), pgtype.Time{Microseconds: 0, Valid: true})...)
			if err != nil {
				t.Fatal(err)
			}
			k := 0
			for rows.Next() {
				var tm pgtype.Time
				var tz, note string
				if err := rows.Scan(&tm, &tz, &note); err != nil {
					t.Fatal(err)
				}
				want := values[k]
				if tm.Microseconds != want.us || tz != want.tz || note != string(rune('a'+k)) {
					t.Errorf("row %d: %d %q %q, want %d %q", k, tm.Microseconds, tz, note, want.us, want.tz)
				}
				k++
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			if k != len(values) {
				t.Fatalf("read %d rows, want %d", k, len(values))
			}
		})
	}

	// timetz in binary: 8 bytes of µs, 4 bytes of zone (seconds west).
	conn := tg.Connect(t, pgx.QueryExecModeCacheStatement)
	res := conn.PgConn().ExecParams(testCtx(t), "SELECT tz, t + interval '1 hour' FROM time_rt ORDER BY t", nil, nil, nil, []int16{1, 1}).Read()
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if len(res.Rows) != len(values) {
		t.Fatalf("binary read %d rows, want %d", len(res.Rows), len(values))
	}
	for i, row := range res.Rows {
		want := values[i]
		if len(row[0]) != 12 {
			t.Fatalf("row %d: timetz is %d bytes", i, len(row[0]))
		}
		us, west := int64(binary.BigEndian.Uint64(row[0])), int32(binary.BigEndian.Uint32(row[0][8:]))
		if us != want.tzUS || west != want.tzWest {
			t.Errorf("row %d: timetz %d %d, want %d %d", i, us, west, want.tzUS, want.tzWest)
		}
		// time + interval wraps around midnight.
		if got, wantT := int64(binary.BigEndian.Uint64(row[1])), (want.us+3600e6)%86400e6; got != wantT {
			t.Errorf("row %d: t + 1 hour = %d, want %d", i, got, wantT)
		}
	}
}
