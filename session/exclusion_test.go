package session_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv/kvlog"
	"github.com/zproxy/zproxy/wire"
)

// raceBookings races pairs of sessions inserting bookings of one room
// whose times overlap, alone and in transaction blocks: every round
// exactly one insert commits and the other fails with 23P01 naming the
// constraint or, in a block, 40001.
func raceBookings(t *testing.T, a, b wire.Session) {
	t.Helper()
	const rounds = 12
	for r := 0; r < rounds; r++ {
		room := 100 + r
		ins := func(id, from, to int) string {
			return fmt.Sprintf(`INSERT INTO booking VALUES (%d, %d, int4range(%d, %d))`, id, room, from, to)
		}
		var sqls []string
		if r%2 == 0 {
			sqls = []string{ins(2*r, 1, 10), ins(2*r+1, 5, 15)}
		} else {
			sqls = []string{"BEGIN; " + ins(2*r, 1, 10) + "; COMMIT", "BEGIN; " + ins(2*r+1, 5, 15) + "; COMMIT"}
		}
		errs := race([]wire.Session{a, b}, sqls)
		failed := 0
		for i, err := range errs {
			if err == nil {
				continue
			}
			failed++
			code := pgerr.CodeOf(err)
			switch {
			case code == pgerr.ExclusionViolation:
				if !strings.Contains(err.Error(), `"booking_room_during_excl"`) {
					t.Fatalf("round %d: %v does not name the constraint", r, err)
				}
			case code == pgerr.SerializationFailure && r%2 == 1:
			default:
				t.Fatalf("round %d, session %d: %v (%s)", r, i, err, code)
			}
			_, _ = runSQL(context.Background(), []wire.Session{a, b}[i], `ROLLBACK`)
		}
		rows := mustExec(t, a, fmt.Sprintf(`SELECT count(*) FROM booking WHERE room = %d`, room))
		if failed != 1 || rows[0] != "1" {
			t.Fatalf("round %d: %d of 2 racing inserts failed, %s rows stored; want exactly one", r, failed, rows[0])
		}
	}
	checkConsistent(t, a, "booking")
}

const bookingDDL = `CREATE TABLE booking (id int PRIMARY KEY, room int, during int4range, EXCLUDE USING gist (room WITH =, during WITH &&))`

// raceSessions runs race on two sessions of one proxy over every backend
// and, with DynamoDB Local, on two proxies sharing a table; setup runs
// first on the first session, and the second waits until visible, a
// query that fails until the other proxy sees what setup made.
func raceSessions(t *testing.T, setup, visible string, race func(t *testing.T, a, b wire.Session)) {
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			store := be.open(t)
			defer store.Close()
			eng, a := newSession(t, store)
			b, err := eng.NewSession(context.Background(), wire.SessionParams{User: "test", Notice: func(*pgerr.Error) {}})
			if err != nil {
				t.Fatal(err)
			}
			if setup != "" {
				mustExec(t, a, setup)
			}
			race(t, a, b)
		})
	}
	t.Run("two proxies", func(t *testing.T) {
		stores := sharedDynamo(t, 2)
		_, a := newSession(t, stores[0])
		_, b := newSession(t, stores[1])
		if setup != "" {
			mustExec(t, a, setup)
			eventually(t, b, visible)
		}
		race(t, a, b)
	})
}

// TestExclusionRace: two sessions of one proxy, on every backend, and two
// proxies over one DynamoDB table.
func TestExclusionRace(t *testing.T) {
	raceSessions(t, bookingDDL, `SELECT count(*) FROM booking`, raceBookings)
}

// TestExclusionDetail: the DETAIL names both keys as PostgreSQL's does,
// and COPY is checked as INSERT is.
func TestExclusionDetail(t *testing.T) {
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			store := be.open(t)
			defer store.Close()
			_, sess := newSession(t, store)
			mustExec(t, sess, bookingDDL)
			mustExec(t, sess, `INSERT INTO booking VALUES (1, 1, '[1,5)')`)
			_, err := runSQL(context.Background(), sess, `INSERT INTO booking VALUES (2, 1, '[3,4)')`)
			var pe *pgerr.Error
			if !errors.As(err, &pe) || pe.Detail != "Key (room, during)=(1, [3,4)) conflicts with existing key (room, during)=(1, [1,5))." {
				t.Fatalf("%v: detail %q", err, pe.Detail)
			}
			mustExec(t, sess, `CREATE TABLE later (id int PRIMARY KEY, room int, r int4range)`)
			mustExec(t, sess, `INSERT INTO later VALUES (1, 1, '[1,5)'), (2, 1, '[2,3)')`)
			_, err = runSQL(context.Background(), sess, `ALTER TABLE later ADD EXCLUDE USING gist (room WITH =, r WITH &&)`)
			if !errors.As(err, &pe) || pe.Detail != "Key (room, r)=(1, [1,5)) conflicts with key (room, r)=(1, [2,3))." {
				t.Fatalf("%v: detail %q", err, pe.Detail)
			}
			row := func(id, room int64, r string) []sqltypes.Value {
				v, err := sqltypes.ParseText(sqltypes.Type{ID: sqltypes.Int4Range}, r)
				if err != nil {
					t.Fatal(err)
				}
				return []sqltypes.Value{sqltypes.NewInt(id), sqltypes.NewInt(room), v}
			}
			for _, rows := range [][][]sqltypes.Value{
				{row(10, 2, "[1,3)"), row(11, 1, "[4,6)")},                      // against a stored row
				{row(10, 2, "[1,3)"), row(11, 2, "[5,6)"), row(12, 2, "[2,6)")}, // within the stream
			} {
				_, err := copyIn(context.Background(), sess, "COPY booking FROM STDIN", rows, 2)
				if pgerr.CodeOf(err) != pgerr.ExclusionViolation {
					t.Fatalf("COPY: %v, want 23P01", err)
				}
			}
			if got := mustExec(t, sess, `SELECT count(*) FROM booking`); got[0] != "1" {
				t.Fatalf("%s rows after failed COPYs", got[0])
			}
		})
	}
}

// TestExclusionCheckReads: a row's check reads the entries of its
// equality values and, of those, descending from the row's upper bound,
// only the ranges that conflict with it and the one range that ends before
// it begins (the group's ranges are disjoint), not the table nor its
// group (items scanned, through the logging store, on every backend; the
// row's own entry, already written in the transaction, is among them).
// A conflict names the first conflicting range in key order, as
// PostgreSQL's DETAIL does for these rows.
func TestExclusionCheckReads(t *testing.T) {
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			store := be.open(t)
			defer store.Close()
			log := kvlog.New(store, kvlog.Options{})
			_, sess := newSession(t, log)
			mustExec(t, sess, bookingDDL)
			mustExec(t, sess, `INSERT INTO booking SELECT r * 100 + k, r, int4range(k * 10, k * 10 + 5) FROM generate_series(1, 5) r, generate_series(1, 40) k`)
			mustExec(t, sess, `CREATE TABLE spans (id int PRIMARY KEY, r int4range, EXCLUDE USING gist (r WITH &&))`)
			mustExec(t, sess, `INSERT INTO spans SELECT k, int4range(k * 10, k * 10 + 5) FROM generate_series(1, 100) k`)
			for _, tc := range []struct {
				sql    string
				max    int
				detail string // of the 23P01, "" when the row is stored
				what   string
			}{
				{`INSERT INTO booking VALUES (1, 3, int4range(1000, 1001))`, 2, "", "a late booking reads itself and its room's last booking, not all 40"},
				{`INSERT INTO booking VALUES (2, 3, int4range(1, 2))`, 1, "", "an early booking reads only itself"},
				{`INSERT INTO booking VALUES (3, 4, int4range(16, 19))`, 2, "", "a booking in a gap reads itself and the booking before it"},
				{`INSERT INTO booking VALUES (4, 5, int4range(12, 33))`, 4, "Key (room, during)=(5, [12,33)) conflicts with existing key (room, during)=(5, [10,15)).", "three conflicts and itself"},
				{`INSERT INTO booking VALUES (5, 5, int4range(36, 60))`, 4, "Key (room, during)=(5, [36,60)) conflicts with existing key (room, during)=(5, [40,45)).", "two conflicts, itself and the booking before"},
				{`INSERT INTO spans VALUES (0, int4range(1, 9))`, 1, "", "a range alone reads itself"},
				{`INSERT INTO spans VALUES (1000, int4range(2000, NULL))`, 2, "", "an unbounded range reads itself and the last range"},
			} {
				log.Reset()
				_, err := runSQL(context.Background(), sess, tc.sql)
				var pe *pgerr.Error
				switch {
				case tc.detail == "" && err != nil:
					t.Fatalf("%s: %v", tc.sql, err)
				case tc.detail != "" && (!errors.As(err, &pe) || pgerr.CodeOf(err) != pgerr.ExclusionViolation || pe.Detail != tc.detail):
					t.Fatalf("%s: %v, want 23P01 with DETAIL %q", tc.sql, err, tc.detail)
				}
				got := 0
				for _, e := range log.Entries() {
					// (Not the catalog's: DynamoDB's sessions read its
					// version.)
					if e.Op == kvlog.OpScan && !bytes.HasPrefix(e.Scan.Partition, []byte("C/")) {
						got += e.Items
					}
				}
				t.Logf("%s: %d items scanned", tc.sql, got)
				if got > tc.max {
					t.Errorf("%s: %d items scanned, want at most %d (%s)", tc.sql, got, tc.max, tc.what)
				}
			}
			checkConsistent(t, sess, "booking")
		})
	}
}

// TestExclusionCosts measures, on DynamoDB Local, what an exclusion
// constraint costs an INSERT (EXPLAIN ANALYZE's request and capacity
// figures), against the same table with a plain index instead.
func TestExclusionCosts(t *testing.T) {
	if os.Getenv("ZPROXY_EXCL_COSTS") == "" {
		t.Skip("set ZPROXY_EXCL_COSTS=1 to measure")
	}
	stores := sharedDynamo(t, 1)
	_, sess := newSession(t, stores[0])
	mustExec(t, sess, bookingDDL)
	mustExec(t, sess, `CREATE TABLE plain (id int PRIMARY KEY, room int, during int4range)`)
	mustExec(t, sess, `CREATE INDEX plain_room ON plain (room, during)`)
	for _, tbl := range []string{"booking", "plain"} {
		mustExec(t, sess, `INSERT INTO `+tbl+` SELECT r * 100 + k, r, int4range(k * 10, k * 10 + 5) FROM generate_series(1, 20) r, generate_series(1, 20) k`)
	}
	time.Sleep(1500 * time.Millisecond) // past the store's uncertainty window
	figures := func(sql string) string { return analyzeFigures(t, sess, sql) }
	for i, tbl := range []string{"booking", "plain"} {
		t.Logf("%-8s 1 row, a late booking:  %s", tbl, figures(fmt.Sprintf(`INSERT INTO %s VALUES (%d, 3, int4range(1000, 1001))`, tbl, 5000+i)))
		t.Logf("%-8s 1 row, an early one:    %s", tbl, figures(fmt.Sprintf(`INSERT INTO %s VALUES (%d, 4, int4range(1, 2))`, tbl, 6000+i)))
		t.Logf("%-8s 10 rows, 10 rooms:      %s", tbl, figures(fmt.Sprintf(`INSERT INTO %s SELECT %d + g, g, int4range(2000, 2001) FROM generate_series(1, 10) g`, tbl, 7000+100*i)))
	}
}

// analyzeFigures runs EXPLAIN ANALYZE sql and returns its execution and
// capacity lines.
func analyzeFigures(t *testing.T, sess wire.Session, sql string) string {
	t.Helper()
	var out []string
	for _, l := range mustExec(t, sess, "EXPLAIN ANALYZE "+sql) {
		if strings.HasPrefix(l, "Execution:") || strings.HasPrefix(l, "Capacity") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "; ")
}

// TestExclusionRandom checks random single-row and multi-row INSERTs,
// UPDATEs and DELETEs of bookings against a model of the constraint
// (a statement fails with 23P01 exactly when one of its rows overlaps
// another row of its room, stored or of the statement), so that the
// check's early stop (disjoint ranges, descending) misses no conflict.
func TestExclusionRandom(t *testing.T) {
	store := backends(t)[0].open(t)
	defer store.Close()
	_, sess := newSession(t, store)
	mustExec(t, sess, bookingDDL)
	type booking struct{ room, lo, hi int }
	model := map[int]booking{}
	overlaps := func(a, b booking) bool { return a.room == b.room && a.lo < b.hi && b.lo < a.hi }
	r := rand.New(rand.NewPCG(28, 1))
	draw := func() booking {
		lo := r.IntN(60)
		return booking{room: 1 + r.IntN(3), lo: lo, hi: lo + 1 + r.IntN(8)}
	}
	nextID := 1
	for step := 0; step < 1500; step++ {
		var sql string
		var next map[int]booking // the model after the statement, if it succeeds
		switch op := r.IntN(10); {
		case op < 6: // INSERT of 1 to 3 rows
			next = maps.Clone(model)
			var vals []string
			for n := 1 + r.IntN(3); n > 0; n-- {
				b := draw()
				next[nextID] = b
				vals = append(vals, fmt.Sprintf("(%d, %d, int4range(%d, %d))", nextID, b.room, b.lo, b.hi))
				nextID++
			}
			sql = "INSERT INTO booking VALUES " + strings.Join(vals, ", ")
		case op < 8 && len(model) > 0: // UPDATE one row's range
			id := slices.Sorted(maps.Keys(model))[r.IntN(len(model))]
			b := draw()
			b.room = model[id].room
			next = maps.Clone(model)
			next[id] = b
			sql = fmt.Sprintf("UPDATE booking SET during = int4range(%d, %d) WHERE id = %d", b.lo, b.hi, id)
		case len(model) > 0: // DELETE
			id := slices.Sorted(maps.Keys(model))[r.IntN(len(model))]
			next = maps.Clone(model)
			delete(next, id)
			sql = fmt.Sprintf("DELETE FROM booking WHERE id = %d", id)
		default:
			continue
		}
		want := true
		for i, a := range next {
			for j, b := range next {
				if i < j && overlaps(a, b) {
					want = false
				}
			}
		}
		_, err := runSQL(context.Background(), sess, sql)
		switch {
		case want && err != nil:
			t.Fatalf("step %d: %s: %v, want success", step, sql, err)
		case !want && pgerr.CodeOf(err) != pgerr.ExclusionViolation:
			t.Fatalf("step %d: %s: %v, want 23P01", step, sql, err)
		case want:
			model = next
		}
	}
	var rows []string
	for _, id := range slices.Sorted(maps.Keys(model)) {
		b := model[id]
		rows = append(rows, fmt.Sprintf("%d %d [%d,%d)", id, b.room, b.lo, b.hi))
	}
	got := mustExec(t, sess, `SELECT id || ' ' || room || ' ' || during FROM booking ORDER BY id`)
	if strings.Join(got, "\n") != strings.Join(rows, "\n") {
		t.Fatalf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(rows, "\n"))
	}
	t.Logf("%d rows stand", len(rows))
}
