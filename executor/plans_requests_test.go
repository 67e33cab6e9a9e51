package executor_test

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/kv/kvlog"
)

// Store requests of the plans that exist to read less: a LATERAL top-n per
// outer row, subqueries that bound the outer scan, inlined CTEs, filters
// pushed below windows. Expected rows come from the generated data, never
// from the output.

// dimDDL is a dimension for the readings of genReadings (sensors 1..10).
const dimDDL = `CREATE TABLE sensors (id BIGINT PRIMARY KEY, name TEXT, region TEXT) WITH (shards = 1)`

// plansEnv fills readings (n rows over 10 sensors) and sensors 1..12
// (11 and 12 have no readings).
func plansEnv(t *testing.T, n int) (*env, [][]string) {
	e, _, rows := readingsEnv(t, n)
	e.mustExec(dimDDL)
	var vals []string
	for id := 1; id <= 12; id++ {
		region := "eu"
		if id%3 == 0 {
			region = "us"
		}
		vals = append(vals, fmt.Sprintf("(%d, 's%d', '%s')", id, id, region))
	}
	e.mustExec("INSERT INTO sensors VALUES " + strings.Join(vals, ", "))
	e.refreshNames()
	e.log.Reset()
	return e, rows
}

// TestLateralTopNReadsNRowsPerShard: the latest k readings of each sensor
// through LATERAL ... ORDER BY ts DESC LIMIT k read at most k rows of each
// shard per sensor, with the limit in the scan request, instead of every
// reading of the sensor.
func TestLateralTopNReadsNRowsPerShard(t *testing.T) {
	e, rows := plansEnv(t, 1200)
	bySensor := map[string][]string{}
	for _, r := range rows {
		bySensor[r[0]] = append(bySensor[r[0]], r[1])
	}
	for _, k := range []int{1, 3} {
		var want []string
		for id := 1; id <= 12; id++ {
			ts := append([]string(nil), bySensor[fmt.Sprint(id)]...)
			sort.Sort(sort.Reverse(sort.StringSlice(ts)))
			for _, x := range ts[:min(k, len(ts))] {
				want = append(want, fmt.Sprintf("%d|%s", id, x))
			}
		}
		sql := fmt.Sprintf(`SELECT s.id, x.ts FROM sensors s, LATERAL (SELECT ts FROM readings r WHERE r.sensor_id = s.id ORDER BY ts DESC LIMIT %d) x ORDER BY s.id, x.ts DESC`, k)
		e.log.Reset()
		got := e.mustQuery(sql)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("%s:\n got %v\nwant %v", sql, got, want)
		}
		scans, read := 0, 0
		for _, en := range e.log.Entries() {
			if en.Op != kvlog.OpScan || !strings.HasPrefix(en.Partitions[0], "readings/") {
				continue
			}
			scans++
			read += en.Items
			if en.Scan.Limit != k {
				t.Errorf("k=%d: %s, want a scan with limit %d", k, e.log.Format(&en), k)
			}
		}
		// One scan per shard (4) per sensor (12), each of at most k rows.
		if scans != 12*4 || read > 12*4*k {
			t.Errorf("k=%d: %d scans reading %d readings, want 48 scans reading at most %d", k, scans, read, 48*k)
		}
	}
}

// TestInitPlanBoundsTheScan: an uncorrelated subquery's value bounds the
// outer table's read when it opens: = (SELECT ...) is one get of one key,
// IN (SELECT ...) one batched get of its distinct values, where the table
// used to be read whole and filtered.
func TestInitPlanBoundsTheScan(t *testing.T) {
	e, rows := plansEnv(t, 600)
	maxSensor, hot := 0, map[string]bool{}
	for _, r := range rows {
		id, _ := strconv.Atoi(r[0])
		maxSensor = max(maxSensor, id)
		if r[5] == "hot" {
			hot[r[0]] = true
		}
	}
	var hotNames []string
	for id := range hot {
		hotNames = append(hotNames, "s"+id)
	}
	sort.Strings(hotNames)
	for _, tc := range []struct {
		sql  string
		want []string
		keys int
	}{
		{"SELECT name FROM sensors WHERE id = (SELECT max(sensor_id) FROM readings)", []string{fmt.Sprintf("s%d", maxSensor)}, 1},
		{"SELECT name FROM sensors WHERE id IN (SELECT sensor_id FROM readings WHERE note = 'hot') ORDER BY name", hotNames, len(hot)},
	} {
		e.log.Reset()
		got := e.mustQuery(tc.sql)
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Fatalf("%s:\n got %v\nwant %v", tc.sql, got, tc.want)
		}
		var sensorReqs []string
		for _, en := range e.log.Entries() {
			if strings.HasPrefix(en.Partitions[0], "sensors/") {
				sensorReqs = append(sensorReqs, e.log.Format(&en))
				if en.Op != kvlog.OpGet || len(en.Keys) != tc.keys {
					t.Errorf("%s: %s, want one get of %d keys", tc.sql, e.log.Format(&en), tc.keys)
				}
			}
		}
		if len(sensorReqs) != 1 {
			t.Errorf("%s: sensors read by %d requests, want 1:\n%s", tc.sql, len(sensorReqs), strings.Join(sensorReqs, "\n"))
		}
	}
}

// TestInlinedCTEReadsOneKey: a WITH query read once is inlined, so the
// outer id = 4 becomes a get of one key; AS MATERIALIZED reads the whole
// (one-shard) table.
func TestInlinedCTEReadsOneKey(t *testing.T) {
	e, _ := plansEnv(t, 10)
	for _, tc := range []struct {
		sql  string
		want string // the one request to sensors
	}{
		{`WITH eu AS (SELECT id, name FROM sensors WHERE region = 'eu') SELECT name FROM eu WHERE id = 4`, "get"},
		{`WITH eu AS MATERIALIZED (SELECT id, name FROM sensors WHERE region = 'eu') SELECT name FROM eu WHERE id = 4`, "scan"},
	} {
		e.log.Reset()
		if got := e.mustQuery(tc.sql); strings.Join(got, ",") != "s4" {
			t.Fatalf("%s: got %v, want s4", tc.sql, got)
		}
		var reqs []kvlog.Entry
		for _, en := range e.log.Entries() {
			if strings.HasPrefix(en.Partitions[0], "sensors/") {
				reqs = append(reqs, en)
			}
		}
		switch {
		case len(reqs) != 1:
			t.Errorf("%s: %d requests to sensors, want 1", tc.sql, len(reqs))
		case tc.want == "get" && (reqs[0].Op != kvlog.OpGet || len(reqs[0].Keys) != 1):
			t.Errorf("%s: %s, want a get of one key", tc.sql, e.log.Format(&reqs[0]))
		case tc.want == "scan" && (reqs[0].Op != kvlog.OpScan || reqs[0].Items != 12):
			t.Errorf("%s: %s, want a scan of the 12 rows", tc.sql, e.log.Format(&reqs[0]))
		}
	}
}

// TestWindowPartitionFilterBoundsTheScan: a filter on the PARTITION BY
// column reaches the scan below the window: only that sensor's readings
// are read.
func TestWindowPartitionFilterBoundsTheScan(t *testing.T) {
	e, rows := plansEnv(t, 600)
	n := 0
	for _, r := range rows {
		if r[0] == "3" {
			n++
		}
	}
	sql := `SELECT count(*) FROM (SELECT sensor_id, row_number() OVER (PARTITION BY sensor_id ORDER BY ts) AS rn FROM readings) t WHERE sensor_id = 3 AND rn > 0`
	got := e.mustQuery(sql)
	if strings.Join(got, ",") != strconv.Itoa(n) {
		t.Fatalf("%s: got %v, want %d", sql, got, n)
	}
	read := 0
	for _, en := range e.log.Entries() {
		read += en.Items
		if en.Op != kvlog.OpScan || en.Scan.Start == nil {
			t.Errorf("%s, want key-range scans of sensor 3", e.log.Format(&en))
		}
	}
	if read != n {
		t.Errorf("%s: read %d items, want the %d readings of sensor 3", sql, read, n)
	}
}
