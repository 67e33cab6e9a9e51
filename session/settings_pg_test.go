package session_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/session"
)

// TestSettingsMatchPostgres compares zproxy's pg_settings rows with
// PostgreSQL 15's for every setting both have (testdata/pg15_settings.txt,
// which names the psql command that regenerates it): context, vartype,
// unit, bounds and enum values.
func TestSettingsMatchPostgres(t *testing.T) {
	data, err := os.ReadFile("testdata/pg15_settings.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, _, _ := strings.Cut(line, "|")
		want[name] = line
	}
	eng, err := session.New(context.Background(), session.Config{Store: memStore(t), AllowFullScan: true})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	sess, _, err := connectAs(t, eng, "admin", nil)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := runSQL(context.Background(), sess, "SELECT name, context, vartype, coalesce(unit, ''), coalesce(min_val, ''), coalesce(max_val, ''), coalesce(array_to_string(enumvals, ','), '') FROM pg_settings")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, got := range rows {
		name, _, _ := strings.Cut(got, "|")
		w, ok := want[name]
		if !ok {
			continue
		}
		seen[name] = true
		if got != w {
			t.Errorf("pg_settings row:\n got %s\nwant %s", got, w)
		}
	}
	for name := range want {
		if !seen[name] {
			t.Errorf("pg_settings lacks %s", name)
		}
	}
}
