package session_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/wire"
)

const deferredUniqueDDL = `CREATE TABLE dr (id int PRIMARY KEY, n int, UNIQUE (n) DEFERRABLE INITIALLY DEFERRED)`

// raceDeferredUnique races two sessions inserting one value of a deferred
// unique constraint under different primary keys: on their own (each
// statement its own transaction, checked as it commits), in blocks whose
// inserts both precede both COMMITs (neither snapshot has the other's row:
// the check's lock item makes the later committer fail), and in blocks
// that check at once (SET CONSTRAINTS ALL IMMEDIATE). Every round exactly
// one insert survives, and the other gets 23505 or 40001.
func raceDeferredUnique(t *testing.T, a, b wire.Session) {
	t.Helper()
	const rounds = 18
	outcomes := map[string]int{}
	for r := 0; r < rounds; r++ {
		ins := func(id int) string { return fmt.Sprintf(`INSERT INTO dr VALUES (%d, %d)`, id, r) }
		var sqls []string
		switch r % 3 {
		case 0:
			sqls = []string{ins(2 * r), ins(2*r + 1)}
		case 1:
			sqls = []string{
				"BEGIN; " + ins(2*r) + "; sleep; COMMIT",
				"BEGIN; " + ins(2*r+1) + "; sleep; COMMIT",
			}
		case 2:
			sqls = []string{
				"BEGIN; SET CONSTRAINTS ALL IMMEDIATE; " + ins(2*r) + "; sleep; COMMIT",
				"BEGIN; SET CONSTRAINTS ALL IMMEDIATE; " + ins(2*r+1) + "; sleep; COMMIT",
			}
		}
		errs := race([]wire.Session{a, b}, sqls)
		failed := 0
		for i, err := range errs {
			if err == nil {
				continue
			}
			failed++
			code := pgerr.CodeOf(err)
			if code != pgerr.UniqueViolation && code != pgerr.SerializationFailure {
				t.Fatalf("round %d, session %d: %v (%s)", r, i, err, code)
			}
			outcomes[fmt.Sprint(code)]++
			_, _ = runSQL(context.Background(), []wire.Session{a, b}[i], `ROLLBACK`)
		}
		if failed != 1 {
			t.Fatalf("round %d: %d of 2 racing inserts failed (%v), want exactly 1", r, failed, errs)
		}
		if got := mustExec(t, a, fmt.Sprintf(`SELECT count(*) FROM dr WHERE n = %d`, r)); got[0] != "1" {
			t.Fatalf("round %d: %s rows with one deferred-unique value", r, got[0])
		}
	}
	t.Logf("losers' errors: %v", outcomes)
	checkConsistent(t, a, "dr")
}

// TestDeferredUniqueRace: two sessions of one proxy, on every backend, and
// two proxies over one DynamoDB table.
func TestDeferredUniqueRace(t *testing.T) {
	raceSessions(t, deferredUniqueDDL, `SELECT count(*) FROM dr`, raceDeferredUnique)
}

// TestDeferredUniqueErrors: the error at COMMIT carries PostgreSQL's
// DETAIL, the block is over (rolled back), COPY is checked as INSERT is,
// and a DEFERRABLE primary key is refused (a row is stored under its
// primary key, so two cannot share one even for a while).
func TestDeferredUniqueErrors(t *testing.T) {
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			store := be.open(t)
			defer store.Close()
			_, sess := newSession(t, store)
			ctx := context.Background()
			mustExec(t, sess, deferredUniqueDDL)
			mustExec(t, sess, `INSERT INTO dr VALUES (1, 1), (2, 2)`)
			_, err := runSQL(ctx, sess, `BEGIN; INSERT INTO dr VALUES (3, 2); UPDATE dr SET n = 5 WHERE id = 1`)
			if err != nil {
				t.Fatal(err)
			}
			_, err = runSQL(ctx, sess, `COMMIT`)
			var pe *pgerr.Error
			if !errors.As(err, &pe) || pe.Code != pgerr.UniqueViolation || pe.Message != `duplicate key value violates unique constraint "dr_n_key"` || pe.Detail != "Key (n)=(2) already exists." {
				t.Fatalf("COMMIT: %v (detail %q)", err, pe.Detail)
			}
			if got := mustExec(t, sess, `SELECT id, n FROM dr ORDER BY id`); fmt.Sprint(got) != "[1|1 2|2]" {
				t.Fatalf("after the failed COMMIT: %v", got)
			}
			// Outside a block the statement's own commit checks it.
			_, err = runSQL(ctx, sess, `UPDATE dr SET n = n + 1 WHERE id = 1 RETURNING *`)
			if !errors.As(err, &pe) || pe.Code != pgerr.UniqueViolation || pe.Detail != "Key (n)=(2) already exists." {
				t.Fatalf("UPDATE: %v", err)
			}
			rows := [][]sqltypes.Value{
				{sqltypes.NewInt(10), sqltypes.NewInt(10)},
				{sqltypes.NewInt(11), sqltypes.NewInt(1)},
			}
			if _, err := copyIn(ctx, sess, "COPY dr FROM STDIN", rows, 2); pgerr.CodeOf(err) != pgerr.UniqueViolation {
				t.Fatalf("COPY: %v, want 23505", err)
			}
			if got := mustExec(t, sess, `SELECT count(*) FROM dr`); got[0] != "2" {
				t.Fatalf("%s rows after the failed COPY", got[0])
			}
			for _, ddl := range []string{
				`CREATE TABLE dp (id int PRIMARY KEY DEFERRABLE INITIALLY DEFERRED)`,
				`CREATE TABLE dp (id int PRIMARY KEY DEFERRABLE)`,
				`CREATE TABLE dp (id int, PRIMARY KEY (id) INITIALLY DEFERRED)`,
			} {
				if _, err := runSQL(ctx, sess, ddl); pgerr.CodeOf(err) != pgerr.FeatureNotSupported {
					t.Fatalf("%s: %v, want 0A000", ddl, err)
				}
			}
		})
	}
}

// TestDeferredUniqueCosts logs what a deferrable unique constraint costs
// on DynamoDB Local against a plain one: a one-row and a ten-row INSERT
// (ZPROXY_DEFER_COSTS=1 go test -run TestDeferredUniqueCosts ./session).
func TestDeferredUniqueCosts(t *testing.T) {
	if os.Getenv("ZPROXY_DEFER_COSTS") == "" {
		t.Skip("set ZPROXY_DEFER_COSTS=1 to measure")
	}
	stores := sharedDynamo(t, 1)
	_, sess := newSession(t, stores[0])
	tables := map[string]string{
		"uplain":      `UNIQUE (n)`,
		"udeferrable": `UNIQUE (n) DEFERRABLE`,
		"udeferred":   `UNIQUE (n) DEFERRABLE INITIALLY DEFERRED`,
	}
	names := []string{"uplain", "udeferrable", "udeferred"}
	for _, tbl := range names {
		mustExec(t, sess, fmt.Sprintf(`CREATE TABLE %s (id int PRIMARY KEY, n int, %s)`, tbl, tables[tbl]))
		mustExec(t, sess, fmt.Sprintf(`INSERT INTO %s SELECT g, g FROM generate_series(1, 400) g`, tbl))
	}
	time.Sleep(1500 * time.Millisecond) // past the store's uncertainty window
	for _, tbl := range names {
		t.Logf("%-11s 1 row:   %s", tbl, analyzeFigures(t, sess, fmt.Sprintf(`INSERT INTO %s VALUES (1000, 1000)`, tbl)))
		t.Logf("%-11s 10 rows: %s", tbl, analyzeFigures(t, sess, fmt.Sprintf(`INSERT INTO %s SELECT 2000 + g, 2000 + g FROM generate_series(1, 10) g`, tbl)))
		t.Logf("%-11s update of 1 row's key: %s", tbl, analyzeFigures(t, sess, fmt.Sprintf(`UPDATE %s SET n = 3000 WHERE id = 5`, tbl)))
	}
}

// TestAddDeferredUniqueRace races ALTER TABLE ... ADD UNIQUE ...
// DEFERRABLE INITIALLY DEFERRED with an insert of a value a row has: two
// sessions of one proxy, on every backend, and two proxies over one
// DynamoDB table.
func TestAddDeferredUniqueRace(t *testing.T) {
	raceSessions(t, "", "", func(t *testing.T, a, b wire.Session) {
		raceAddConstraint(t, a, b, "addu", addRace{
			create:   `CREATE TABLE %s (id int PRIMARY KEY, n int)`,
			fill:     `INSERT INTO %s SELECT i, i FROM generate_series(1, 100) i`,
			insert:   `INSERT INTO %s VALUES (100000, 1)`,
			alter:    `ALTER TABLE %[1]s ADD CONSTRAINT %[1]s_x UNIQUE (n) DEFERRABLE INITIALLY DEFERRED`,
			conflict: pgerr.UniqueViolation,
		})
	})
}
