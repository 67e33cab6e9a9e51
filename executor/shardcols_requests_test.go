package executor_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv/kvlog"
)

// Shard columns through the request log: a table whose rows are placed by
// a hash of sensor_id alone keeps each sensor in one shard, so a read that
// binds sensor_id reads that shard only; the same table hashing its whole
// key reads every shard. Expected shards are hashed here from the encoded
// sensor_id, not taken from the catalog's placement code.

const scSensors, scPerSensor = 12, 40

func shardColsEnv(t *testing.T) *env {
	e := newEnv(t,
		`CREATE TABLE bysensor (sensor_id BIGINT NOT NULL, ts TIMESTAMP NOT NULL, v INT, PRIMARY KEY (sensor_id, ts DESC)) WITH (shards = 4, shard_columns = (sensor_id))`,
		`CREATE INDEX bysensor_v ON bysensor (v, ts) WITH (shards = 4, shard_columns = (v))`,
		`CREATE TABLE bykey (sensor_id BIGINT NOT NULL, ts TIMESTAMP NOT NULL, v INT, PRIMARY KEY (sensor_id, ts DESC)) WITH (shards = 4)`,
		`CREATE TABLE sensors (id BIGINT PRIMARY KEY, name TEXT)`)
	for _, tb := range []string{"bysensor", "bykey"} {
		e.mustExec(fmt.Sprintf(`INSERT INTO %s SELECT s, timestamp '2024-01-01' + g * interval '1 minute', (s * 7 + g) %% 5
			FROM generate_series(1, %d) s, generate_series(1, %d) g`, tb, scSensors, scPerSensor))
	}
	e.mustExec(`INSERT INTO sensors SELECT g, 's' || g FROM generate_series(1, 12) g`)
	e.log.Reset()
	return e
}

// sensorShard is the shard every row of a sensor lives on: the FNV-1a hash
// of its encoded id, modulo 4.
func sensorShard(id int64) int {
	h := uint64(14695981039346656037)
	for _, c := range catalog.AppendKeyValue(nil, sqltypes.NewInt(id), false) {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return int(h % 4)
}

// scans returns the scan requests of the log: "partition items" each.
func scans(e *env) []string {
	var out []string
	for _, en := range e.log.Entries() {
		if en.Op == kvlog.OpScan {
			out = append(out, fmt.Sprintf("%s %d", en.Partitions[0], en.Items))
		}
	}
	return out
}

func TestShardColumnsPlaceEachSensorOnOneShard(t *testing.T) {
	e := shardColsEnv(t)
	// A full read, shard by shard: every shard holds exactly the rows of
	// the sensors hashed to it.
	e.mustQuery(`SELECT count(*) FROM bysensor`)
	want := map[int]int{}
	for s := int64(1); s <= scSensors; s++ {
		want[sensorShard(s)] += scPerSensor
	}
	var wantLines []string
	for sh := 0; sh < 4; sh++ {
		wantLines = append(wantLines, fmt.Sprintf("bysensor/%d %d", sh, want[sh]))
	}
	checkLines(t, "full read", scans(e), wantLines)
	if len(want) < 2 {
		t.Errorf("the %d sensors all hash to one shard: the test shows nothing", scSensors)
	}
}

func TestLatestByKeyReadsOneShardAndOneItem(t *testing.T) {
	e := shardColsEnv(t)
	const q = `SELECT ts, v FROM %s WHERE sensor_id = 5 ORDER BY ts DESC LIMIT 1`
	got := e.mustQuery(fmt.Sprintf(q, "bysensor"))
	if len(got) != 1 || !strings.HasPrefix(got[0], "2024-01-01 00:40:00|") {
		t.Fatalf("rows %v, want the reading of 00:40", got)
	}
	checkLines(t, "latest by key, shard_columns", scans(e), []string{fmt.Sprintf("bysensor/%d 1", sensorShard(5))})
	if n := len(e.log.Entries()); n != 1 {
		t.Errorf("%d store requests, want 1:\n%s", n, strings.Join(e.log.Lines(), "\n"))
	}

	// Hashing the whole key, the sensor's rows are on every shard: each is
	// read (one item each, under the LIMIT) and merged.
	e.log.Reset()
	if again := e.mustQuery(fmt.Sprintf(q, "bykey")); strings.Join(again, " ") != strings.Join(got, " ") {
		t.Fatalf("bykey rows %v, bysensor %v", again, got)
	}
	if n := len(scans(e)); n != 4 {
		t.Errorf("bykey: %d scans, want 4 (one per shard):\n%s", n, strings.Join(e.log.Lines(), "\n"))
	}
}

func TestShardColumnsInListReadsEachRangeInItsShard(t *testing.T) {
	e := shardColsEnv(t)
	got := e.mustQuery(`SELECT sensor_id, count(*) FROM bysensor WHERE sensor_id IN (3, 8, 11) AND ts > '2024-01-01 00:30' GROUP BY sensor_id ORDER BY sensor_id`)
	if strings.Join(got, " ") != "3|10 8|10 11|10" {
		t.Fatalf("rows %v", got)
	}
	var want []string
	for _, s := range []int64{3, 8, 11} {
		want = append(want, fmt.Sprintf("bysensor/%d 10", sensorShard(s)))
	}
	checkLines(t, "IN list", scans(e), want)
}

func TestShardColumnsOfAnIndex(t *testing.T) {
	e := shardColsEnv(t)
	got := e.mustQuery(`SELECT count(*) FROM bysensor WHERE v = 2`)
	if len(got) != 1 || got[0] != fmt.Sprint(scSensors*scPerSensor/5) {
		t.Fatalf("rows %v", got)
	}
	lines := scans(e)
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "bysensor_v/") {
		t.Errorf("scans %v, want one scan of one shard of bysensor_v", lines)
	}
}

func TestLookupJoinReadsOneShardPerPrefix(t *testing.T) {
	e := shardColsEnv(t)
	got := e.mustQuery(`SELECT s.name, count(*) FROM sensors s JOIN bysensor b ON b.sensor_id = s.id WHERE s.id IN (2, 9) GROUP BY s.name ORDER BY s.name`)
	if strings.Join(got, " ") != fmt.Sprintf("s2|%d s9|%d", scPerSensor, scPerSensor) {
		t.Fatalf("rows %v", got)
	}
	var inner []string
	for _, line := range scans(e) {
		if strings.HasPrefix(line, "bysensor/") {
			inner = append(inner, line)
		}
	}
	want := []string{fmt.Sprintf("bysensor/%d %d", sensorShard(2), scPerSensor), fmt.Sprintf("bysensor/%d %d", sensorShard(9), scPerSensor)}
	checkLines(t, "lookup join", inner, want)
}

// Writes go to the shard of the row's sensor: an INSERT's put, an UPDATE's
// versioned read and its put.
func TestShardColumnsWritesGoToTheSensorsShard(t *testing.T) {
	e := shardColsEnv(t)
	e.mustExec(`INSERT INTO bysensor VALUES (7, '2025-01-01', 1)`)
	e.mustExec(`UPDATE bysensor SET v = 4 WHERE sensor_id = 7 AND ts = '2025-01-01'`)
	want := fmt.Sprintf("bysensor/%d", sensorShard(7))
	for _, en := range e.log.Entries() {
		for _, p := range en.Partitions {
			if strings.HasPrefix(p, "bysensor/") && p != want {
				t.Errorf("request on %s, want only %s:\n%s", p, want, strings.Join(e.log.Lines(), "\n"))
			}
		}
	}
	if got := e.mustQuery(`SELECT v FROM bysensor WHERE sensor_id = 7 ORDER BY ts DESC LIMIT 1`); len(got) != 1 || got[0] != "4" {
		t.Errorf("rows %v, want [4]", got)
	}
}

// Against brute force: random reads binding some of a three-column key
// (text, DESC integer, time) return the same rows from a table placed by
// its two leading columns as from one hashing its whole key and from a
// single-shard copy, whatever subset of shards the placement lets a read
// skip.
func TestShardColumnsReadsMatchWholeKeyPlacement(t *testing.T) {
	ddl := `CREATE TABLE %s (site TEXT NOT NULL, sensor_id INT NOT NULL, ts TIMESTAMP NOT NULL, v INT, PRIMARY KEY (site, sensor_id DESC, ts)) WITH (%s)`
	e := newEnv(t,
		fmt.Sprintf(ddl, "placed", "shards = 5, shard_columns = (site, sensor_id)"),
		fmt.Sprintf(ddl, "hashed", "shards = 3"),
		fmt.Sprintf(ddl, "single", "shards = 1"))
	for _, tb := range []string{"placed", "hashed", "single"} {
		e.mustExec(fmt.Sprintf(`INSERT INTO %s SELECT chr(97 + s %% 4) || 'x', s %% 7 - 3, timestamp '2024-01-01' + g * interval '1 hour', s * g %% 11
			FROM generate_series(1, 28) s, generate_series(1, 6) g`, tb))
	}
	rng := rand.New(rand.NewPCG(7, 16))
	sites := []string{"'ax'", "'bx'", "'cx'", "'dx'", "'zz'"}
	for i := 0; i < 200; i++ {
		var conds []string
		switch rng.IntN(4) {
		case 0:
			conds = append(conds, "site = "+sites[rng.IntN(len(sites))])
		case 1:
			conds = append(conds, "site IN ("+sites[rng.IntN(len(sites))]+", "+sites[rng.IntN(len(sites))]+")")
		}
		if len(conds) > 0 || rng.IntN(2) == 0 {
			switch rng.IntN(3) {
			case 0:
				conds = append(conds, fmt.Sprintf("sensor_id = %d", rng.IntN(9)-4))
			case 1:
				conds = append(conds, fmt.Sprintf("sensor_id IN (%d, %d, %d)", rng.IntN(9)-4, rng.IntN(9)-4, rng.IntN(9)-4))
			}
		}
		if rng.IntN(2) == 0 {
			conds = append(conds, fmt.Sprintf("ts >= '2024-01-01 %02d:00'", rng.IntN(8)))
		}
		where := ""
		if len(conds) > 0 {
			where = " WHERE " + strings.Join(conds, " AND ")
		}
		tail := " ORDER BY site, sensor_id, ts"
		if rng.IntN(2) == 0 {
			tail = fmt.Sprintf(" ORDER BY site, sensor_id DESC, ts LIMIT %d", 1+rng.IntN(5))
		}
		var want string
		for _, tb := range []string{"single", "hashed", "placed"} {
			q := "SELECT site, sensor_id, ts, v FROM " + tb + where + tail
			got := strings.Join(e.mustQuery(q), " ")
			if tb == "single" {
				want = got
			} else if got != want {
				t.Fatalf("%s:\n got  %s\n want %s", q, got, want)
			}
		}
	}
}
