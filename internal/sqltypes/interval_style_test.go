package sqltypes

import (
	"bufio"
	"context"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// updateIntervalStyles rewrites testdata/interval_styles.golden from the
// PostgreSQL 15 that INTERVAL_POSTGRES names:
//
//	INTERVAL_POSTGRES='host=... user=postgres' go test ./internal/sqltypes -run TestIntervalStylesMatchPostgres -update-interval-styles
var updateIntervalStyles = flag.Bool("update-interval-styles", false, "rewrite testdata/interval_styles.golden from INTERVAL_POSTGRES")

// intervalStyleInputs are intervals of every shape EncodeInterval tells
// apart: zero, one field, mixed signs, days with and without time,
// fractions, large values.
var intervalStyleInputs = []string{
	"0", "1 year", "-1 year", "1 year 2 months", "-1 year -2 months", "2 months", "1 day", "-1 day", "3 days",
	"1 hour", "-1 hour", "4:05:06", "-4:05:06", "00:00:01", "00:00:00.5", "-00:00:00.5", "00:00:01.25",
	"1 second", "-1 second", "2 seconds", "1 minute", "90 minutes", "3 days 04:05:06", "-3 days -04:05:06",
	"3 days -04:05:06", "-3 days 04:05:06", "1 year 2 months 3 days 4 hours 5 minutes 6 seconds",
	"-1 year -2 months -3 days -4 hours -5 minutes -6 seconds", "1 year -2 months", "1 year 3 days",
	"-1 year 3 days", "1 year -3 days 04:05:06.789", "1 mon -1 day", "100 years", "178000000 years",
	"-178000000 years", "2147483647 days", "-2147483648 days", "2562047788:00:54.775807", "-2562047788:00:54.775807",
	"1 day 00:00:00.000001", "0.000001 seconds", "-0.000001 seconds", "1 day -00:00:00.000001", "7 days 1 second",
	"1.5 years", "1.5 months", "1.5 days", "-1.5 days", "1 week", "1 millennium", "12:34", "-12:34",
}

func TestIntervalStylesMatchPostgres(t *testing.T) {
	const path = "testdata/interval_styles.golden"
	if *updateIntervalStyles {
		writeIntervalStyles(t, path)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, "\t")
		if len(parts) != 3 {
			t.Fatalf("bad line %q", line)
		}
		style, ok := IntervalStyleByName(parts[1])
		if !ok {
			t.Fatalf("unknown style in %q", line)
		}
		iv, err := ParseInterval(parts[0], TypeInterval)
		if err != nil {
			t.Errorf("%q: %v", parts[0], err)
			continue
		}
		if got := string(AppendIntervalStyle(nil, iv, style)); got != parts[2] {
			t.Errorf("interval %q in %s: got %q, PostgreSQL prints %q", parts[0], parts[1], got, parts[2])
		}
		n++
	}
	if n < len(intervalStyleInputs)*len(IntervalStyleNames) {
		t.Errorf("%d answers; regenerate %s", n, path)
	}
}

func writeIntervalStyles(t *testing.T, path string) {
	dsn := os.Getenv("INTERVAL_POSTGRES")
	if dsn == "" {
		t.Fatal("-update-interval-styles needs INTERVAL_POSTGRES")
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	// Input is read differently under sql_standard (a leading minus
	// negates every field), so each value is first printed in the
	// postgres style, whose explicit signs every style reads alike.
	var canonical []string
	for _, in := range intervalStyleInputs {
		var c string
		if err := conn.QueryRow(ctx, "SELECT $1::interval::text", in).Scan(&c); err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		canonical = append(canonical, c)
	}
	var b strings.Builder
	b.WriteString("# interval (postgres style), IntervalStyle, PostgreSQL 15's output; written by TestIntervalStylesMatchPostgres -update-interval-styles\n")
	for _, style := range IntervalStyleNames {
		if _, err := conn.Exec(ctx, "SET intervalstyle = "+style); err != nil {
			t.Fatal(err)
		}
		for _, in := range canonical {
			var out string
			if err := conn.QueryRow(ctx, "SELECT $1::interval::text", in).Scan(&out); err != nil {
				t.Fatalf("%q: %v", in, err)
			}
			b.WriteString(in + "\t" + style + "\t" + out + "\n")
		}
	}
	if _, err := conn.Exec(ctx, "RESET intervalstyle"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
