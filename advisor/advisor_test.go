package advisor

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/optimizer"
)

var update = flag.Bool("update", false, "rewrite the golden advice files in testdata")

// readingsTable is (id identity PK, sensor int8, lat, lon, ts, note) with
// the given secondary indexes.
func readingsTable(shards int, ixs ...*catalog.Index) *catalog.Table {
	return &catalog.Table{ID: 1, Name: "readings", Shards: shards, Indexes: ixs,
		Columns: []catalog.Column{
			{Name: "id", Type: sqltypes.TypeInt8, NotNull: true, Identity: "by default"},
			{Name: "sensor", Type: sqltypes.TypeInt8},
			{Name: "lat", Type: sqltypes.TypeFloat8},
			{Name: "lon", Type: sqltypes.TypeFloat8},
			{Name: "ts", Type: sqltypes.TypeTimestamp},
			{Name: "note", Type: sqltypes.TypeText},
		},
		PrimaryKey: []catalog.KeyColumn{{Column: 0}}}
}

const (
	colID = iota
	colSensor
	colLat
	colLon
	colTS
	colNote
)

// readingsStats samples 100,000 readings: sensors 0..999, lat 0..90,
// lon 0..180, a year of timestamps, distinct notes.
func readingsStats() Statistics {
	rng := rand.New(rand.NewPCG(1, 2))
	const rows = 100_000
	var sample [][]sqltypes.Value
	for i := 0; i < 2000; i++ {
		id := rng.Int64N(rows)
		sample = append(sample, []sqltypes.Value{sqltypes.NewInt(id), sqltypes.NewInt(rng.Int64N(1000)),
			sqltypes.NewFloat(rng.Float64() * 90), sqltypes.NewFloat(rng.Float64() * 180),
			sqltypes.NewTimestamp(rng.Int64N(365 * 86400e6)), sqltypes.NewText(fmt.Sprintf("note-%d", id))})
	}
	return NewSampleStats(rows, sample)
}

func between(lo, hi sqltypes.Value) optimizer.ValueSet {
	return optimizer.ValueSet{{Lo: lo, Hi: hi, LoInc: true, HiInc: true}}
}

func point(v sqltypes.Value) optimizer.ValueSet { return between(v, v) }

func f(x float64) sqltypes.Value { return sqltypes.NewFloat(x) }

func day(d int64) sqltypes.Value { return sqltypes.NewTimestamp(d * 86400e6) }

// scan is a full scan of t with these bounds, reading needed.
func scan(t *catalog.Table, b map[int]optimizer.ValueSet, needed ...int) *optimizer.TableUse {
	return &optimizer.TableUse{Table: t, Bounds: b, Needed: needed, Method: optimizer.FullScan}
}

func stmt(id int64, q string, calls int64, uses ...*optimizer.TableUse) Statement {
	s := Statement{QueryID: id, Query: q, Calls: calls}
	for _, u := range uses {
		s.Samples = append(s.Samples, &Sample{Uses: []*optimizer.TableUse{u}})
	}
	return s
}

func golden(t *testing.T, name string, recs []Recommendation, stmts []Statement) {
	t.Helper()
	queries := map[int64]string{}
	for _, s := range stmts {
		queries[s.QueryID] = s.Query
	}
	got := Render(recs, queries)
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("advice differs from %s (run with -update to accept):\n%s", path, got)
	}
}

// The workload: 2-D boxes, 3-D boxes and note lookups on a table
// with only a primary key, plus a stream of inserts to it.
func TestAdviceReadings(t *testing.T) {
	tab := readingsTable(1)
	var box2, box3, notes []*optimizer.TableUse
	for i := 0; i < 8; i++ {
		lat, lon := float64(i*10), float64(i*20)
		box2 = append(box2, scan(tab, map[int]optimizer.ValueSet{colLat: between(f(lat), f(lat+2)), colLon: between(f(lon), f(lon+4))}, colID, colNote))
		box3 = append(box3, scan(tab, map[int]optimizer.ValueSet{colLat: between(f(lat), f(lat+10)), colLon: between(f(lon), f(lon+20)),
			colTS: between(day(int64(i*30)), day(int64(i*30+30)))}))
		notes = append(notes, scan(tab, map[int]optimizer.ValueSet{colNote: point(sqltypes.NewText(fmt.Sprintf("note-%d", i*977)))}, 0, 1, 2, 3, 4, 5))
	}
	stmts := []Statement{
		stmt(1, "SELECT id, note FROM readings WHERE lat BETWEEN $1 AND $2 AND lon BETWEEN $3 AND $4", 500, box2...),
		stmt(2, "SELECT count(*) FROM readings WHERE lat BETWEEN $1 AND $2 AND lon BETWEEN $3 AND $4 AND ts BETWEEN $5 AND $6", 200, box3...),
		stmt(3, "SELECT * FROM readings WHERE note = $1", 1000, notes...),
		{QueryID: 4, Query: "INSERT INTO readings (sensor, lat, lon, ts, note) VALUES ($1, $2, $3, $4, $5)", Calls: 5000,
			Samples: []*Sample{{Written: tab, Rows: 1}}},
	}
	st := readingsStats()
	recs, err := Advise(Input{Tables: []*catalog.Table{tab}, Statements: stmts, Caps: kv.Capabilities{CheapSeek: true},
		Stats: func(*catalog.Table) (Statistics, error) { return st, nil }})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "readings", recs, stmts)
	var z, note bool
	for _, r := range recs {
		z = z || r.Kind == KindZOrder && strings.Contains(r.SQL, "USING zorder (lat, lon")
		note = note || r.Kind == KindBTree && strings.Contains(r.SQL, "(note)")
	}
	if !z || !note {
		t.Errorf("no Z-order index on (lat, lon...) or btree on note:\n%s", Render(recs, nil))
	}
}

// Existing indexes: one unused, one a prefix of another; a read of many
// rows by sensor wants its columns included; a narrow integer gets a
// Z-order width.
func TestAdviceIndexesAndCovering(t *testing.T) {
	bySensor := &catalog.Index{Name: "by_sensor", Kind: catalog.KindBTree, Columns: []catalog.KeyColumn{{Column: colSensor}}, Shards: 1, State: catalog.StatePublic}
	bySensorTS := &catalog.Index{Name: "by_sensor_ts", Kind: catalog.KindBTree, Columns: []catalog.KeyColumn{{Column: colSensor}, {Column: colTS}}, Shards: 1, State: catalog.StatePublic}
	byTS := &catalog.Index{Name: "by_ts", Kind: catalog.KindBTree, Columns: []catalog.KeyColumn{{Column: colTS}}, Shards: 1, State: catalog.StatePublic}
	tab := readingsTable(4, bySensor, bySensorTS, byTS)
	var latest, sensorBox []*optimizer.TableUse
	for i := int64(0); i < 4; i++ {
		u := scan(tab, map[int]optimizer.ValueSet{colSensor: point(sqltypes.NewInt(i * 7))}, colLat, colLon)
		u.Index, u.Method = bySensorTS, optimizer.RangeScan
		latest = append(latest, u)
		sensorBox = append(sensorBox, scan(tab, map[int]optimizer.ValueSet{colSensor: between(sqltypes.NewInt(i*100), sqltypes.NewInt(i*100+20)),
			colLat: between(f(float64(i*10)), f(float64(i*10+5)))}, colID))
	}
	stmts := []Statement{
		stmt(10, "SELECT lat, lon FROM readings WHERE sensor = $1", 300, latest...),
		stmt(11, "SELECT id FROM readings WHERE sensor BETWEEN $1 AND $2 AND lat BETWEEN $3 AND $4", 100, sensorBox...),
		{QueryID: 12, Query: "INSERT INTO readings (sensor, lat, lon, ts) VALUES ($1, $2, $3, now())", Calls: 100,
			Samples: []*Sample{{Written: tab, Rows: 1}}},
	}
	st := readingsStats()
	recs, err := Advise(Input{Tables: []*catalog.Table{tab}, Statements: stmts, Caps: kv.Capabilities{CheapSeek: false},
		Stats: func(*catalog.Table) (Statistics, error) { return st, nil }})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "indexes", recs, stmts)
}

// SampleStats against brute force over a known column.
func TestSampleStats(t *testing.T) {
	var sample [][]sqltypes.Value
	for i := 0; i < 1000; i++ {
		v := sqltypes.NewInt(int64(i % 100))
		if i%10 == 0 {
			v = sqltypes.Null
		}
		sample = append(sample, []sqltypes.Value{v})
	}
	s := NewSampleStats(1000, sample) // the sample is the whole table
	if d := s.Distinct(0); d < 89 || d > 91 {
		t.Errorf("distinct %g, want 90", d)
	}
	if nf := s.NullFrac(0); nf != 0.1 {
		t.Errorf("null fraction %g", nf)
	}
	if sel := s.Selectivity(0, between(sqltypes.NewInt(1), sqltypes.NewInt(19))); sel < 0.17 || sel > 0.19 {
		t.Errorf("selectivity of [1, 19] = %g, want 0.18", sel)
	}
	if sel := s.Selectivity(0, point(sqltypes.NewInt(5))); sel < 0.009 || sel > 0.011 {
		t.Errorf("selectivity of = 5: %g, want 0.01", sel)
	}
	lo, hi, ok := s.Bounds(0)
	if !ok || lo.I != 1 || hi.I != 99 {
		t.Errorf("bounds %v %v", lo, hi)
	}
}

// Reads the primary key serves (point gets, key ranges) get no index, and
// a workload without reads or writes of a table says nothing of it.
func TestAdviceNothingForKeyReads(t *testing.T) {
	tab := readingsTable(1)
	other := &catalog.Table{ID: 2, Name: "other", Shards: 1, Columns: tab.Columns, PrimaryKey: tab.PrimaryKey,
		Indexes: []*catalog.Index{{Name: "other_note", Kind: catalog.KindBTree, Columns: []catalog.KeyColumn{{Column: colNote}}, Shards: 1, State: catalog.StatePublic}}}
	var gets, ranges []*optimizer.TableUse
	for i := int64(0); i < 4; i++ {
		g := scan(tab, map[int]optimizer.ValueSet{colID: point(sqltypes.NewInt(i * 31))}, colNote)
		g.Method = optimizer.PointGet
		gets = append(gets, g)
		r := scan(tab, map[int]optimizer.ValueSet{colID: between(sqltypes.NewInt(i*100), sqltypes.NewInt(i*100+50))}, colNote)
		r.Method = optimizer.RangeScan
		ranges = append(ranges, r)
	}
	stmts := []Statement{stmt(1, "SELECT note FROM readings WHERE id = $1", 1000, gets...),
		stmt(2, "SELECT note FROM readings WHERE id BETWEEN $1 AND $2", 1000, ranges...)}
	st := readingsStats()
	recs, err := Advise(Input{Tables: []*catalog.Table{tab, other}, Statements: stmts,
		Stats: func(*catalog.Table) (Statistics, error) { return st, nil }})
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 0 {
		t.Errorf("advice for reads the primary key serves:\n%s", Render(recs, nil))
	}
}

// A recommended index never takes a name in use: a number goes before
// the suffix, as PostgreSQL names indexes.
func TestAdviceNamesAreFree(t *testing.T) {
	taken := &catalog.Index{Name: "readings_note_idx", Kind: catalog.KindBTree, Columns: []catalog.KeyColumn{{Column: colSensor}}, Shards: 1, State: catalog.StatePublic}
	tab := readingsTable(1, taken)
	var notes []*optimizer.TableUse
	for i := 0; i < 4; i++ {
		notes = append(notes, scan(tab, map[int]optimizer.ValueSet{colNote: point(sqltypes.NewText(fmt.Sprintf("note-%d", i)))}, colID))
	}
	st := readingsStats()
	recs, err := Advise(Input{Tables: []*catalog.Table{tab}, Statements: []Statement{stmt(1, "q", 10, notes...)},
		Stats: func(*catalog.Table) (Statistics, error) { return st, nil }})
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) == 0 || recs[0].SQL != "CREATE INDEX readings_note_idx1 ON readings (note)" {
		t.Errorf("advice:\n%s", Render(recs, nil))
	}
}
