package sqltypes

import (
	"testing"
	"time"
)

// The expectations are PostgreSQL 15's output with SET TIME ZONE to the
// zone given.
func TestTimestampTZInZone(t *testing.T) {
	for _, tc := range []struct {
		zone, utc, want string
	}{
		{"Asia/Kolkata", "2024-07-01 12:00:00+00", "2024-07-01 17:30:00+05:30"},
		{"America/St_Johns", "2024-07-01 12:00:00.123456+00", "2024-07-01 09:30:00.123456-02:30"},
		{"Europe/Paris", "1850-07-01 12:00:00+00", "1850-07-01 12:09:21+00:09:21"},
		{"Europe/Paris", "0044-03-15 11:50:39+00 BC", "0044-03-15 12:00:00+00:09:21 BC"},
		{"Pacific/Apia", "2011-12-30 12:00:00+00", "2011-12-31 02:00:00+14"},
		{"Europe/Paris", "infinity", "infinity"},
	} {
		loc, err := time.LoadLocation(tc.zone)
		if err != nil {
			t.Fatal(err)
		}
		us, err := ParseTimestamp(tc.utc, true)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(AppendTimestampTZIn(nil, us, loc)); got != tc.want {
			t.Errorf("%s in %s: got %s, want %s", tc.utc, tc.zone, got, tc.want)
		}
	}
}

func TestParseTimestampTZIn(t *testing.T) {
	for _, tc := range []struct {
		zone, in, wantUTC string
	}{
		{"Asia/Kolkata", "2024-07-01 12:00", "2024-07-01 06:30:00+00"},
		{"America/St_Johns", "2024-07-01 12:00", "2024-07-01 14:30:00+00"},
		// a wall-clock time a spring-forward change skips, and one a
		// fall-back change repeats
		{"Europe/Paris", "2024-03-31 02:30", "2024-03-31 01:30:00+00"},
		{"Europe/Paris", "2024-10-27 02:30", "2024-10-27 01:30:00+00"},
		// an explicit offset wins
		{"Europe/Paris", "2024-01-01 10:00+05", "2024-01-01 05:00:00+00"},
		{"Europe/Paris", "epoch", "1970-01-01 00:00:00+00"},
	} {
		loc, err := time.LoadLocation(tc.zone)
		if err != nil {
			t.Fatal(err)
		}
		us, err := ParseTimestampTZIn(tc.in, loc)
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		if got := string(AppendTimestamp(nil, us, true)); got != tc.wantUTC {
			t.Errorf("%s in %s: got %s, want %s", tc.in, tc.zone, got, tc.wantUTC)
		}
	}
	if _, err := ParseTimestampTZIn("not a time", time.UTC); err == nil {
		t.Error("bad text parsed")
	}
}
