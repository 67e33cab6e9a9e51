package session_test

import (
	"context"
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/wire"
)

// exprIndexSchema is a table with expression and partial indexes of every
// kind: unique and not, btree and Z-order, an expression that can fail
// (100 / n), and a partial index whose predicate reads two columns.
var exprIndexSchema = []string{
	`CREATE TABLE ex (id INT PRIMARY KEY, email TEXT, n INT, dead BOOL) WITH (shards = 3)`,
	`CREATE UNIQUE INDEX ex_live ON ex (lower(email)) WHERE NOT dead`,
	`CREATE INDEX ex_len ON ex (length(email), (n + 1) DESC)`,
	`CREATE INDEX ex_part ON ex (n) WHERE n > 2 AND email IS NOT NULL`,
	`CREATE INDEX ex_div ON ex ((100 / n)) WHERE n <> 7`,
	`CREATE INDEX ex_z ON ex USING zorder (upper(email), n) WHERE dead`,
}

// TestRandomWritesKeepExpressionIndexesExact applies random inserts,
// updates, deletes, upserts inferring the partial unique index, COPY,
// TRUNCATE and transaction blocks (committed and rolled back) to a table
// with expression and partial indexes, and after each step checks that
// every index holds exactly the entries a build from scratch would
// (ADMIN CHECK TABLE: the expected entries are computed from the rows),
// that a query through the unique partial index finds what the rows say,
// and that a failing expression (division by zero) fails its statement
// and leaves nothing behind.
func TestRandomWritesKeepExpressionIndexesExact(t *testing.T) {
	_, sess := newSession(t, memStore(t))
	for _, ddl := range exprIndexSchema {
		mustExec(t, sess, ddl)
	}
	ctx := context.Background()
	rng := rand.New(rand.NewSource(7))
	emails := []string{"a@x", "A@x", "b@x", "B@X", "c@x", "NULL"}
	val := func() string {
		e := emails[rng.Intn(len(emails))]
		if e != "NULL" {
			e = "'" + e + "'"
		}
		n := fmt.Sprint(rng.Intn(10) - 1) // 0 divides by zero
		if rng.Intn(8) == 0 {
			n = "NULL"
		}
		return fmt.Sprintf("%s, %s, %v", e, n, rng.Intn(3) == 0)
	}
	stmt := func() string {
		id := rng.Intn(25)
		switch rng.Intn(10) {
		case 0, 1, 2:
			return fmt.Sprintf("INSERT INTO ex VALUES (%d, %s)", id, val())
		case 3, 4:
			return fmt.Sprintf("UPDATE ex SET email = %s WHERE id %% 5 = %d", strings.SplitN(val(), ",", 2)[0], id%5)
		case 5:
			return fmt.Sprintf("UPDATE ex SET n = n + 1, dead = NOT dead WHERE id = %d", id)
		case 6:
			return fmt.Sprintf("DELETE FROM ex WHERE id = %d", id)
		case 7:
			return fmt.Sprintf("INSERT INTO ex VALUES (%d, %s) ON CONFLICT (lower(email)) WHERE NOT dead DO UPDATE SET n = excluded.n, email = excluded.email", id, val())
		case 8:
			return fmt.Sprintf("INSERT INTO ex VALUES (%d, %s) ON CONFLICT DO NOTHING", id, val())
		}
		return fmt.Sprintf("UPDATE ex SET dead = %v WHERE n > %d", rng.Intn(2) == 0, rng.Intn(8))
	}
	allowed := func(err error) bool {
		switch pgerr.CodeOf(err) {
		case pgerr.UniqueViolation, pgerr.DivisionByZero:
			return true
		}
		return false
	}
	for step := 0; step < 400; step++ {
		switch {
		case step%97 == 96:
			mustExec(t, sess, "TRUNCATE ex")
		case step%13 == 12:
			// A block of several writes, committed or rolled back.
			mustExec(t, sess, "BEGIN")
			failed := false
			for i := 0; i < 4 && !failed; i++ {
				sql := stmt()
				if _, err := runSQL(ctx, sess, sql); err != nil {
					if !allowed(err) {
						t.Fatalf("step %d: %s: %v", step, sql, err)
					}
					failed = true
				}
			}
			end := "COMMIT"
			if failed || rng.Intn(2) == 0 {
				end = "ROLLBACK"
			}
			mustExec(t, sess, end)
		case step%17 == 16:
			var rows []string
			for i := 0; i < 3; i++ {
				rows = append(rows, fmt.Sprintf("(%d, %s)", 100+step*3+i, val()))
			}
			sql := "INSERT INTO ex VALUES " + strings.Join(rows, ", ")
			if _, err := runSQL(ctx, sess, sql); err != nil && !allowed(err) {
				t.Fatalf("step %d: %s: %v", step, sql, err)
			}
		default:
			sql := stmt()
			before := mustExec(t, sess, "SELECT id, email, n, dead FROM ex ORDER BY id")
			if _, err := runSQL(ctx, sess, sql); err != nil {
				if !allowed(err) {
					t.Fatalf("step %d: %s: %v", step, sql, err)
				}
				if after := mustExec(t, sess, "SELECT id, email, n, dead FROM ex ORDER BY id"); strings.Join(after, "\n") != strings.Join(before, "\n") {
					t.Fatalf("step %d: %s failed (%v) but changed the rows", step, sql, err)
				}
			}
		}
		checkConsistent(t, sess, "ex")
		checkLiveLookups(t, sess, step)
	}
}

// checkLiveLookups compares lookups through the unique partial expression
// index with what the rows say.
func checkLiveLookups(t *testing.T, sess wire.Session, step int) {
	t.Helper()
	want := map[string][]string{}
	for _, line := range mustExec(t, sess, "SELECT id, lower(email) FROM ex WHERE NOT dead AND email IS NOT NULL ORDER BY id") {
		id, key, _ := strings.Cut(line, "|")
		want[key] = append(want[key], id)
	}
	for _, key := range []string{"a@x", "b@x", "c@x"} {
		got := mustExec(t, sess, fmt.Sprintf("SELECT id FROM ex WHERE lower(email) = '%s' AND NOT dead ORDER BY id", key))
		if strings.Join(got, ",") != strings.Join(want[key], ",") {
			t.Fatalf("step %d: lower(email) = %q through the index: %v, rows say %v", step, key, got, want[key])
		}
	}
}

// TestExpressionIndexOnlineBuild builds expression and partial indexes
// while other sessions write the table: the build's backfill and the
// writers' maintenance of the building index meet, and the index ends
// exact.
func TestExpressionIndexOnlineBuild(t *testing.T) {
	eng, sess := newSession(t, memStore(t))
	mustExec(t, sess, `CREATE TABLE ob (k INT PRIMARY KEY, a INT, b TEXT) WITH (shards = 4)`)
	var sb strings.Builder
	for i := 0; i < 2000; i++ {
		if sb.Len() > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, "(%d, %d, 'V%d')", i, i%17, i)
	}
	mustExec(t, sess, "INSERT INTO ob VALUES "+sb.String())
	stop := startWriters(t, eng, "ob", 3000)
	mustExec(t, sess, `CREATE INDEX ob_lower ON ob (lower(b), (a * 2))`)
	mustExec(t, sess, `CREATE INDEX ob_part ON ob (a) WHERE a > 8`)
	mustExec(t, sess, `CREATE INDEX CONCURRENTLY ob_z ON ob USING zorder (lower(b), a) WHERE k % 2 = 0`)
	// An inverted index: a row has an entry per element, and a write that
	// keeps some elements keeps their entries.
	mustExec(t, sess, `CREATE INDEX ob_gin ON ob USING gin ((ARRAY[a, length(b), 99]))`)
	stop()
	checkConsistent(t, sess, "ob")
	if got, want := mustExec(t, sess, "SELECT count(*) FROM ob WHERE ARRAY[a, length(b), 99] @> ARRAY[3]"),
		mustExec(t, sess, "SELECT count(*) FROM ob WHERE a = 3 OR length(b) = 3"); strings.Join(got, "") != strings.Join(want, "") {
		t.Fatalf("@> through the gin index counts %v rows, the table %v", got, want)
	}
	// Reads through them agree with the rows.
	all := mustExec(t, sess, "SELECT k FROM ob WHERE a > 10 ORDER BY k")
	var want []string
	for _, line := range mustExec(t, sess, "SELECT k, a FROM ob ORDER BY k") {
		k, a, _ := strings.Cut(line, "|")
		var n int
		fmt.Sscan(a, &n)
		if n > 10 {
			want = append(want, k)
		}
	}
	sort.Strings(all)
	sort.Strings(want)
	if strings.Join(all, ",") != strings.Join(want, ",") {
		t.Fatalf("a > 10 through the partial index: %d rows, the table has %d", len(all), len(want))
	}
}

// TestExpressionIndexUniqueDetail checks PostgreSQL's message and DETAIL
// for a unique expression index, whether the value is stored already,
// repeated within the statement, repeated within a COPY, or taken by an
// UPDATE; and that a row outside a partial unique index repeats it freely.
func TestExpressionIndexUniqueDetail(t *testing.T) {
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			store := be.open(t)
			t.Cleanup(func() { store.Close() })
			_, sess := newSession(t, store)
			mustExec(t, sess, `CREATE TABLE ud (id INT PRIMARY KEY, email TEXT, dead BOOL DEFAULT false)`)
			mustExec(t, sess, `CREATE UNIQUE INDEX ud_lower ON ud (lower(email)) WHERE NOT dead`)
			mustExec(t, sess, `INSERT INTO ud VALUES (1, 'Ann@x'), (2, 'bob@x'), (3, 'ANN@X', true)`)
			want := func(what string, err error, detail string) {
				t.Helper()
				e := pgerr.As(err)
				if e == nil || e.Code != pgerr.UniqueViolation || e.Message != `duplicate key value violates unique constraint "ud_lower"` || e.Detail != detail {
					t.Errorf("%s: %v (%+v), want 23505 with %s", what, err, e, detail)
				}
			}
			ctx := context.Background()
			_, err := runSQL(ctx, sess, `INSERT INTO ud (id, email) VALUES (4, 'ANN@x')`)
			want("stored", err, "Key (lower(email))=(ann@x) already exists.")
			_, err = runSQL(ctx, sess, `INSERT INTO ud (id, email) VALUES (4, 'Cy@x'), (5, 'cy@X')`)
			want("repeated", err, "Key (lower(email))=(cy@x) already exists.")
			_, err = runSQL(ctx, sess, `UPDATE ud SET email = 'BOB@X' WHERE id = 1`)
			want("update", err, "Key (lower(email))=(bob@x) already exists.")
			_, err = runSQL(ctx, sess, `UPDATE ud SET dead = false WHERE id = 3`)
			want("entering the partial index", err, "Key (lower(email))=(ann@x) already exists.")
			for _, batch := range []int{1, 10} {
				_, err = copyIn(ctx, sess, "COPY ud (id, email) FROM STDIN", copyRows(6, "dee@x", 7, "DEE@x"), batch)
				want(fmt.Sprintf("COPY in batches of %d", batch), err, "Key (lower(email))=(dee@x) already exists.")
			}
			mustExec(t, sess, `INSERT INTO ud VALUES (8, 'bob@X', true), (9, 'BOB@x', true)`)
			if got := mustExec(t, sess, `SELECT id FROM ud ORDER BY id`); strings.Join(got, ",") != "1,2,3,8,9" {
				t.Errorf("rows %v, want 1,2,3,8,9", got)
			}
			checkConsistent(t, sess, "ud")
		})
	}
}
