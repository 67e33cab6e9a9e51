package session_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/kv"
)

// TestRelationSizesMeasured: on Pebble pg_relation_size and its kin are
// the store's measure of the table's and its indexes' key spans: they grow
// with inserts and shrink once the deleted rows are compacted (VACUUM); a
// primary key's index is the table's rows (0 of its own).
func TestRelationSizesMeasured(t *testing.T) {
	_, sess := newSession(t, memStore(t))
	mustExec(t, sess, `CREATE TABLE s (id int PRIMARY KEY, v text)`)
	mustExec(t, sess, `CREATE INDEX s_v ON s (v)`)
	sizes := func() (table, indexes, total, index, pkey int64) {
		t.Helper()
		row := mustExec(t, sess, `SELECT pg_table_size('s'), pg_indexes_size('s'), pg_total_relation_size('s'), pg_relation_size('s_v'), pg_relation_size('s_pkey')`)
		f := strings.Split(row[0], "|")
		var n [5]int64
		for i := range n {
			v, err := strconv.ParseInt(f[i], 10, 64)
			if err != nil {
				t.Fatalf("sizes %q: %v", row[0], err)
			}
			n[i] = v
		}
		return n[0], n[1], n[2], n[3], n[4]
	}
	t0, _, _, _, _ := sizes()
	mustExec(t, sess, `INSERT INTO s SELECT g, md5(g::text) || md5((-g)::text) FROM generate_series(1, 5000) g`)
	t1, i1, total1, ix1, pk1 := sizes()
	if t1 <= t0 || t1 < 5000*32 || i1 <= 0 || total1 != t1+i1 || ix1 != i1 || pk1 != 0 {
		t.Fatalf("after 5000 inserts: table %d (was %d), indexes %d, total %d, s_v %d, s_pkey %d", t1, t0, i1, total1, ix1, pk1)
	}
	if row := mustExec(t, sess, `SELECT pg_relation_size('s') = pg_table_size('s'), pg_relation_size('s', 'main') = pg_table_size('s'), pg_relation_size('s', 'fsm')`); row[0] != "t|t|0" {
		t.Errorf("forks: %v", row)
	}
	mustExec(t, sess, `DELETE FROM s WHERE id > 500`)
	mustExec(t, sess, `VACUUM s`)
	t2, i2, _, _, _ := sizes()
	if t2 >= t1/2 || i2 >= i1/2 {
		t.Fatalf("after deleting 90%% and VACUUM: table %d (was %d), indexes %d (was %d)", t2, t1, i2, i1)
	}
}

// unmeasured hides the store's size measure, as DynamoDB has none.
type unmeasured struct{ kv.Store }

// TestRelationSizesFromStatistics: a store that cannot measure sizes
// answers from the statistics (rows × estimated item size), NULL before
// the table is analyzed.
func TestRelationSizesFromStatistics(t *testing.T) {
	store := memStore(t)
	_, sess := newSession(t, unmeasured{store})
	mustExec(t, sess, `CREATE TABLE s (id int PRIMARY KEY, v text)`)
	mustExec(t, sess, `CREATE INDEX s_v ON s (v)`)
	mustExec(t, sess, `INSERT INTO s SELECT g, repeat('x', 40) FROM generate_series(1, 1000) g`)
	if row := mustExec(t, sess, `SELECT pg_table_size('s') IS NULL, pg_total_relation_size('s') IS NULL`); row[0] != "t|t" {
		t.Fatalf("sizes before ANALYZE: %v", row)
	}
	mustExec(t, sess, `ANALYZE s`)
	row := mustExec(t, sess, `SELECT pg_table_size('s'), pg_indexes_size('s'), pg_total_relation_size('s')`)
	f := strings.Split(row[0], "|")
	tb, _ := strconv.Atoi(f[0])
	ix, _ := strconv.Atoi(f[1])
	total, _ := strconv.Atoi(f[2])
	// Each row: 64 bytes of overhead, id's 4 and v's 41 (a text's average
	// width counts its header), and the attribute names.
	if tb < 1000*100 || tb > 1000*200 || ix <= 0 || total != tb+ix {
		t.Fatalf("sizes from statistics: table %d, indexes %d, total %d", tb, ix, total)
	}
}
