package session_test

import (
	"fmt"
	"testing"

	"github.com/zproxy/zproxy/kv/kvlog"
	zpebble "github.com/zproxy/zproxy/kv/pebble"
	"github.com/zproxy/zproxy/wire"
)

// TestGistRangeReads: a range predicate read through a gist index over the
// range column scans a small part of the index, not the table: bookings
// of 20,000 rows, each a day or a few long, with some unbounded ones and
// some empty (items scanned, through the logging store).
func TestGistRangeReads(t *testing.T) {
	scanned, sess := scanCounter(t)
	mustExec(t, sess, `CREATE TABLE stays (id int PRIMARY KEY, during tsrange)`)
	mustExec(t, sess, `INSERT INTO stays SELECT i, CASE WHEN i % 1000 = 0 THEN tsrange(NULL, timestamp '2020-01-01' + i * interval '1 hour')
		WHEN i % 997 = 0 THEN 'empty' ELSE tsrange(timestamp '2020-01-01' + i * interval '1 hour', timestamp '2020-01-01' + (i + 24 + i % 72) * interval '1 hour') END
		FROM generate_series(1, 20000) i`)
	mustExec(t, sess, `CREATE INDEX stays_during ON stays USING gist (during)`)
	for _, tc := range []struct {
		where string
		max   int
	}{
		{`during && tsrange('2021-01-01', '2021-01-02')`, 600},
		{`during @> timestamp '2021-06-01 12:00'`, 600},
		{`during <@ tsrange('2021-01-01', '2021-02-01')`, 1500},
		{`during << tsrange('2020-01-10', '2020-01-11')`, 600},
	} {
		sql := fmt.Sprintf(`SELECT count(*) FROM stays WHERE %s`, tc.where)
		idx, n1 := scanned(sql)
		full, n2 := scanned(fmt.Sprintf(`SELECT /*+ IGNORE_INDEX(stays, stays_during) */ count(*) FROM stays WHERE %s`, tc.where))
		t.Logf("%s: %s rows; %d items scanned through the gist index, %d without", tc.where, n1, idx, full)
		if n1 != n2 {
			t.Errorf("%s: %s rows through the index, %s without", tc.where, n1, n2)
		}
		if idx > tc.max {
			t.Errorf("%s: %d items scanned, want at most %d", tc.where, idx, tc.max)
		}
	}
}

// scanCounter opens a session over an in-memory Pebble store through the
// logging store; scanned runs a statement and returns the items its scans
// read and its first row.
func scanCounter(t *testing.T) (scanned func(sql string) (int, string), sess wire.Session) {
	store, err := zpebble.Open(t.Name(), zpebble.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	log := kvlog.New(store, kvlog.Options{})
	t.Cleanup(func() { log.Close() })
	_, sess = newSession(t, log)
	return func(sql string) (int, string) {
		log.Reset()
		rows := mustExec(t, sess, sql)
		n := 0
		for _, e := range log.Entries() {
			if e.Op == kvlog.OpScan {
				n += e.Items
			}
		}
		first := ""
		if len(rows) > 0 {
			first = rows[0]
		}
		return n, first
	}, sess
}
