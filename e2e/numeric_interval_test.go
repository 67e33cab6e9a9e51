package e2e

import (
	"fmt"
	"math/big"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// TestNumericIntervalRoundTrip writes numeric and interval values as
// parameters (binary and text, in every exec mode) and reads them back as
// results in both formats, through columns and through expressions that
// compute them (arithmetic, sum and avg, date_trunc, extract).
func TestNumericIntervalRoundTrip(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	setup := tg.Connect(t, pgx.QueryExecModeCacheStatement)
	tg.CreateTable(t, setup, `CREATE TABLE num_iv (id INTEGER PRIMARY KEY, n NUMERIC, p NUMERIC(12,3), iv INTERVAL, ts TIMESTAMP) WITH (shards = 2)`)

	num := func(s string) pgtype.Numeric {
		var n pgtype.Numeric
		if err := n.Scan(s); err != nil {
			t.Fatal(err)
		}
		return n
	}
	values := []struct {
		n, p string
		iv   pgtype.Interval
	}{
		{"0", "0.000", pgtype.Interval{Valid: true}},
		{"1.50", "1.500", pgtype.Interval{Microseconds: 3600e6, Valid: true}},
		{"-123456789012345678901234567890.0123456789", "-123456789.123", pgtype.Interval{Months: 14, Days: 3, Microseconds: 4*3600e6 + 5e6, Valid: true}},
		{"0.00012", "999999999.999", pgtype.Interval{Months: -1, Days: 2, Microseconds: -1, Valid: true}},
		{"NaN", "-0.001", pgtype.Interval{Days: -30, Valid: true}},
		{"0.000000000000000000000000000001", "12.346", pgtype.Interval{Microseconds: 1, Valid: true}},
	}
	for m, mode := range execModes {
		conn := tg.Connect(t, mode)
		for i, v := range values {
			id := 100*m + i
			ts := time.Date(2024, 3, 5, 14, 7, 9, 0, time.UTC).Add(time.Duration(i) * time.Hour)
			mustExec(t, conn, "INSERT INTO num_iv VALUES ($1, $2, $3, $4, $5)", id, num(v.n), num(v.p), v.iv, ts)
		}
	}

	for _, rd := range resultReads {
		t.Run(rd.name, func(t *testing.T) {
			conn := tg.Connect(t, rd.mode)
			rows, err := conn.Query(testCtx(t), "SELECT id, n, p, iv FROM num_iv ORDER BY id", rd.opts...)
			if err != nil {
				t.Fatal(err)
			}
			k := 0
			for rows.Next() {
				var id int32
				var n, p pgtype.Numeric
				var iv pgtype.Interval
				if err := rows.Scan(&id, &n, &p, &iv); err != nil {
					t.Fatal(err)
				}
				want := values[int(id)%100]
				if !sameNumeric(t, n, want.n) {
					t.Errorf("row %d: n = %s, want %s", id, numText(t, n), want.n)
				}
				if !sameNumeric(t, p, want.p) {
					t.Errorf("row %d: p = %s, want %s", id, numText(t, p), want.p)
				}
				if iv != want.iv {
					t.Errorf("row %d: iv = %+v, want %+v", id, iv, want.iv)
				}
				k++
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			if k != len(values)*len(execModes) {
				t.Fatalf("read %d rows, want %d", k, len(values)*len(execModes))
			}

			// Computed values, and parameters of both types in expressions.
			var sum, avg, scaled, epoch pgtype.Numeric
			var span, total pgtype.Interval
			var trunc time.Time
			err = conn.QueryRow(testCtx(t), `SELECT sum(p), avg(id), $1::numeric * 2, extract(epoch from iv),
				iv + $2::interval, sum(iv), date_trunc('hour', ts + $2::interval)
				FROM num_iv WHERE id = 1 GROUP BY iv, ts`, append(append([]any{}, rd.opts...), num("1.25"), pgtype.Interval{Microseconds: 90e6, Valid: true})...).
				Scan(&sum, &avg, &scaled, &epoch, &span, &total, &trunc)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				name string
				got  pgtype.Numeric
				want string
			}{{"sum(p)", sum, "1.500"}, {"avg(id)", avg, "1.00000000000000000000"}, {"$1 * 2", scaled, "2.50"}, {"extract", epoch, "3600.000000"}} {
				if !sameNumeric(t, c.got, c.want) {
					t.Errorf("%s = %s, want %s", c.name, numText(t, c.got), c.want)
				}
			}
			if want := (pgtype.Interval{Microseconds: 3600e6 + 90e6, Valid: true}); span != want {
				t.Errorf("iv + $2 = %+v, want %+v", span, want)
			}
			if want := (pgtype.Interval{Microseconds: 3600e6, Valid: true}); total != want {
				t.Errorf("sum(iv) = %+v, want %+v", total, want)
			}
			if want := time.Date(2024, 3, 5, 15, 0, 0, 0, time.UTC); !trunc.Equal(want) {
				t.Errorf("date_trunc = %v, want %v", trunc, want)
			}
		})
	}
}

// resultReads are the ways a test reads results back: binary and text
// results of prepared statements, and the simple protocol.
var resultReads = []struct {
	name string
	mode pgx.QueryExecMode
	opts []any
}{
	{"binary", pgx.QueryExecModeCacheStatement, nil},
	{"text", pgx.QueryExecModeCacheStatement, []any{pgx.QueryResultFormats{pgx.TextFormatCode}}},
	{"simple", pgx.QueryExecModeSimpleProtocol, nil},
}

// sameNumeric compares a numeric with PostgreSQL's text of the value
// expected: by value, and by its text where the scale travelled (text
// results; pgx reads a binary zero without its scale).
func sameNumeric(t *testing.T, n pgtype.Numeric, want string) bool {
	t.Helper()
	var w pgtype.Numeric
	if err := w.Scan(want); err != nil {
		t.Fatal(err)
	}
	if n.NaN || w.NaN {
		return n.NaN == w.NaN
	}
	if numText(t, n) == want {
		return true
	}
	rat := func(x pgtype.Numeric) *big.Rat {
		r := new(big.Rat).SetInt(x.Int)
		p := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs32(x.Exp))), nil))
		if x.Exp < 0 {
			return r.Quo(r, p)
		}
		return r.Mul(r, p)
	}
	return n.Valid && w.Valid && rat(n).Cmp(rat(w)) == 0 && n.Int.Sign() == 0
}

func abs32(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}

// numText prints a pgtype.Numeric as PostgreSQL's numeric output does
// (scale kept, NaN as NaN).
func numText(t *testing.T, n pgtype.Numeric) string {
	t.Helper()
	if !n.Valid {
		return "NULL"
	}
	if n.NaN {
		return "NaN"
	}
	if n.InfinityModifier != pgtype.Finite {
		return fmt.Sprint(n.InfinityModifier)
	}
	s := new(big.Int).Abs(n.Int).String()
	neg := n.Int.Sign() < 0
	if n.Exp >= 0 {
		for i := int32(0); i < n.Exp; i++ {
			s += "0"
		}
	} else {
		frac := int(-n.Exp)
		for len(s) <= frac {
			s = "0" + s
		}
		s = s[:len(s)-frac] + "." + s[len(s)-frac:]
	}
	if neg {
		s = "-" + s
	}
	return s
}
