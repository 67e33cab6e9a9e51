package e2e

import (
	"strings"
	"testing"
)

// TestPSQLIndexes runs issue 4's statements through psql: indexes of both
// kinds, SHOW INDEXES, every kind of write, EXPLAIN choosing the indexes,
// and CHECK TABLE proving the indexes agree with the table.
func TestPSQLIndexes(t *testing.T) {
	requireZproxy(t)
	t.Parallel()
	psqlPath(t)
	s := startServer(t, "")
	script := `
CREATE TABLE readings (sensor_id BIGINT NOT NULL, ts TIMESTAMP NOT NULL, celsius DOUBLE PRECISION,
  lat DOUBLE PRECISION, lon DOUBLE PRECISION, note TEXT, PRIMARY KEY (sensor_id, ts DESC)) WITH (shards = 4);
INSERT INTO readings VALUES (7, '2024-01-15 00:00:00', 20, 40.60, -73.95, 'a'), (7, '2024-03-01 00:00:00', 21, 40.70, -73.90, 'b'),
  (8, '2024-02-01 00:00:00', 22, 40.80, -74.00, 'a');
CREATE INDEX by_note ON readings (note, ts DESC) INCLUDE (celsius);
CREATE INDEX by_place ON readings USING zorder (lat, lon, ts) INCLUDE (celsius, note) WITH (shards = 8);
CREATE INDEX IF NOT EXISTS by_note ON readings (lat);
SHOW INDEXES FROM readings;
UPDATE readings SET lat = 40.71, note = 'moved' WHERE sensor_id = 7 AND ts = '2024-03-01 00:00:00';
DELETE FROM readings WHERE sensor_id = 7 AND ts < '2024-02-01';
INSERT INTO readings VALUES (8, '2024-02-01 00:00:00', 30.5, 0, 0, 'x') ON CONFLICT (sensor_id, ts) DO UPDATE SET celsius = EXCLUDED.celsius;
INSERT INTO readings VALUES (8, '2024-02-01 00:00:00', 99, 0, 0, 'x') ON CONFLICT DO NOTHING;
SELECT sensor_id, note, celsius FROM readings WHERE note = 'moved';
SELECT sensor_id, celsius FROM readings WHERE lat BETWEEN 40.7 AND 40.9 AND lon BETWEEN -74.1 AND -73.8 ORDER BY sensor_id;
EXPLAIN SELECT celsius FROM readings WHERE note = 'moved';
CHECK TABLE readings;
DROP INDEX by_note;
DROP INDEX IF EXISTS by_note;
`
	stdout, stderr, err := runPSQL(t, s, script, "-t")
	if err != nil {
		t.Fatalf("psql: %v\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
	}
	got := nonEmptyLines(stdout)
	for _, want := range []string{
		"readings_pkey|primary|sensor_id, ts DESC|||4|public",
		"by_note|btree|note, ts DESC||celsius|4|public",
		"by_place|zorder|lat, lon, ts|64, 64, 64|celsius, note|8|public",
		"UPDATE 1",
		"DELETE 1",
		"7|moved|21",
		"7|21\n8|30.5",
		"Scan readings via btree index by_note: range scan",
		"readings|readings_pkey|2|2|0|0|t",
		"readings|by_note|2|2|0|0|t",
		"readings|by_place|2|2|0|0|t",
		"DROP INDEX",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("psql output lacks %q:\n%s", want, got)
		}
	}
	if strings.Count(got, "INSERT 0 1") != 1 || !strings.Contains(got, "INSERT 0 0") {
		t.Errorf("ON CONFLICT command tags: want one INSERT 0 1 (the update) and one INSERT 0 0:\n%s", got)
	}
	if !strings.Contains(stderr, `relation "by_note" already exists, skipping`) || !strings.Contains(stderr, `index "by_note" does not exist, skipping`) {
		t.Errorf("psql stderr lacks the IF [NOT] EXISTS notices:\n%s", stderr)
	}
	checkOnlyNotices(t, stderr)
	s.Stop()
}
