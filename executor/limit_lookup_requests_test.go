package executor_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/kv/kvlog"
)

// A non-covering index read in the order a LIMIT wants stops fetching table
// rows once the limit can be met: it looks up only as many entries as the
// rows still missing (more in later rounds when the residual filter drops
// some), not a full batch. Counted through the request log.
func TestLimitThroughNonCoveringIndexStopsEarly(t *testing.T) {
	e := newEnv(t, `CREATE TABLE ll (id BIGINT PRIMARY KEY, g INT, x INT, pad TEXT) WITH (shards = 2)`,
		`CREATE INDEX ll_g ON ll (g) WITH (shards = 1)`)
	var vals []string
	for id := 1; id <= 1000; id++ {
		vals = append(vals, fmt.Sprintf("(%d, %d, %d, 'p%d')", id, id%5, id%10, id))
	}
	e.mustExec("INSERT INTO ll VALUES " + strings.Join(vals, ", "))
	for _, tc := range []struct {
		name, sql string
		want      []string
		// at most this many index entries read and rows fetched
		maxEntries, maxGets int
	}{
		// No residual: the index scan itself is limited to 5 entries.
		{"plain", `SELECT id, pad FROM ll WHERE g = 3 ORDER BY g, id LIMIT 5`,
			[]string{"3|p3", "8|p8", "13|p13", "18|p18", "23|p23"}, 5, 5},
		// A residual (x = 3) keeps half of g = 3's rows: about 10 lookups.
		{"residual", `SELECT id, pad FROM ll WHERE g = 3 AND x = 3 ORDER BY g, id LIMIT 5`,
			[]string{"3|p3", "13|p13", "23|p23", "33|p33", "43|p43"}, 20, 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.log.Reset()
			got := e.mustQuery(tc.sql)
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Fatalf("rows %v, want %v", got, tc.want)
			}
			entries, gets := 0, 0
			for _, en := range e.log.Entries() {
				switch en.Op {
				case kvlog.OpScan:
					entries += en.Items
				case kvlog.OpGet:
					gets += len(en.Keys)
				}
			}
			if entries > tc.maxEntries || gets > tc.maxGets {
				t.Errorf("read %d index entries and fetched %d rows for 5 rows; want at most %d and %d:\n%s",
					entries, gets, tc.maxEntries, tc.maxGets, strings.Join(e.log.Lines(), "\n"))
			}
		})
	}
}
