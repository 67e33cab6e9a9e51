package session_test

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/wire"
)

// eventually runs sql until it succeeds (another proxy's schema change
// reaches this one within catalog.SharedStaleness).
func eventually(t *testing.T, sess wire.Session, sql string) []string {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		rows, err := runSQL(context.Background(), sess, sql)
		if err == nil {
			return rows
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %v", sql, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// race runs the statements at once, one per session, and returns their
// errors. A statement "sleep" between others in a query string pauses.
func race(sessions []wire.Session, sqls []string) []error {
	var wg sync.WaitGroup
	errs := make([]error, len(sqls))
	start := make(chan struct{})
	for i := range sqls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for _, part := range strings.Split(sqls[i], "; sleep; ") {
				if _, errs[i] = runSQL(context.Background(), sessions[i], part); errs[i] != nil {
					return
				}
				time.Sleep(20 * time.Millisecond)
			}
		}()
	}
	close(start)
	wg.Wait()
	return errs
}

// TestTwoProxiesInsertOneUniqueValue races two proxies over one DynamoDB
// table inserting rows with different primary keys and one unique value:
// every round exactly one insert succeeds and the other gets 23505 naming
// the unique constraint, with statements on their own, in transaction
// blocks, and as upserts on the unique key.
func TestTwoProxiesInsertOneUniqueValue(t *testing.T) {
	stores := sharedDynamo(t, 2)
	_, a := newSession(t, stores[0])
	_, b := newSession(t, stores[1])
	mustExec(t, a, `CREATE TABLE users (id INT PRIMARY KEY, email TEXT NOT NULL UNIQUE, n INT)`)
	eventually(t, b, `SELECT count(*) FROM users`)
	const rounds = 15
	for r := 0; r < rounds; r++ {
		email := fmt.Sprintf("u%d@example.com", r)
		var sqls []string
		switch r % 3 {
		case 0:
			sqls = []string{
				fmt.Sprintf(`INSERT INTO users VALUES (%d, '%s', 0)`, 2*r, email),
				fmt.Sprintf(`INSERT INTO users VALUES (%d, '%s', 0)`, 2*r+1, email),
			}
		case 1:
			sqls = []string{
				fmt.Sprintf(`BEGIN; INSERT INTO users VALUES (%d, '%s', 0); COMMIT`, 2*r, email),
				fmt.Sprintf(`BEGIN; INSERT INTO users VALUES (%d, '%s', 0); COMMIT`, 2*r+1, email),
			}
		case 2:
			sqls = []string{
				fmt.Sprintf(`INSERT INTO users VALUES (%d, '%s', 1) ON CONFLICT (email) DO UPDATE SET n = users.n + 1`, 2*r, email),
				fmt.Sprintf(`INSERT INTO users VALUES (%d, '%s', 1) ON CONFLICT (email) DO UPDATE SET n = users.n + 1`, 2*r+1, email),
			}
		}
		errs := race([]wire.Session{a, b}, sqls)
		failed := 0
		for i, err := range errs {
			if err == nil {
				continue
			}
			failed++
			if code := pgerr.CodeOf(err); code != pgerr.UniqueViolation && code != pgerr.SerializationFailure {
				t.Fatalf("round %d, proxy %d: %v (%s)", r, i, err, code)
			}
			if r%3 == 0 && !strings.Contains(err.Error(), `"users_email_key"`) {
				t.Fatalf("round %d: %v does not name the constraint", r, err)
			}
			// A block's failed statement leaves it failed: end it.
			_, _ = runSQL(context.Background(), []wire.Session{a, b}[i], `ROLLBACK`)
		}
		rows := mustExec(t, a, fmt.Sprintf(`SELECT n FROM users WHERE email = '%s'`, email))
		switch {
		case len(rows) != 1:
			t.Fatalf("round %d: %d rows with one unique value", r, len(rows))
		case r%3 == 2:
			// Upserts: both apply (one inserts, one updates) unless one lost
			// a serialization race.
			if want := fmt.Sprint(2 - failed); rows[0] != want {
				t.Fatalf("round %d: n = %s after %d failed upserts", r, rows[0], failed)
			}
		case failed != 1:
			t.Fatalf("round %d: %d of 2 racing inserts failed, want exactly 1", r, failed)
		}
	}
	checkConsistent(t, a, "users")
}

// TestUniqueBuildRacesWriters builds a unique index on one proxy while the
// other inserts and updates rows: the build either finds a duplicate (and
// leaves no index) or finishes with the index exact and the values unique;
// writers that would break it once it is building get 23505.
func TestUniqueBuildRacesWriters(t *testing.T) {
	stores := sharedDynamo(t, 2)
	engA, a := newSession(t, stores[0])
	_, b := newSession(t, stores[1])
	mustExec(t, a, `CREATE TABLE acct (id INT PRIMARY KEY, code INT)`)
	var vals []string
	for i := 0; i < 300; i++ {
		vals = append(vals, fmt.Sprintf("(%d, %d)", i, i))
	}
	mustExec(t, a, `INSERT INTO acct VALUES `+strings.Join(vals, ", "))
	eventually(t, b, `SELECT count(*) FROM acct`)
	stop := make(chan struct{})
	done := make(chan error)
	go func() {
		rng := rand.New(rand.NewSource(1))
		n := 0
		for {
			select {
			case <-stop:
				done <- nil
				return
			default:
			}
			id := rng.Intn(300)
			// Move codes to fresh values (never a duplicate) and add rows.
			var sql string
			if n%2 == 0 {
				sql = fmt.Sprintf(`UPDATE acct SET code = %d WHERE id = %d`, 1000+n, id)
			} else {
				sql = fmt.Sprintf(`INSERT INTO acct VALUES (%d, %d)`, 1000+n, 100000+n)
			}
			if _, err := runSQL(context.Background(), b, sql); err != nil && pgerr.CodeOf(err) != pgerr.SerializationFailure {
				done <- fmt.Errorf("%s: %w", sql, err)
				return
			}
			n++
		}
	}()
	_, err := runSQL(context.Background(), a, `CREATE UNIQUE INDEX acct_code ON acct (code)`)
	close(stop)
	if werr := <-done; werr != nil {
		t.Fatal(werr)
	}
	if err != nil {
		t.Fatalf("unique build over distinct values: %v", err)
	}
	engA.WaitForBuilds()
	checkConsistent(t, a, "acct")
	if rows := mustExec(t, a, `SELECT count(*) FROM (SELECT code FROM acct GROUP BY code HAVING count(*) > 1) d`); rows[0] != "0" {
		t.Fatalf("%s duplicated codes", rows[0])
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, err := runSQL(context.Background(), b, `INSERT INTO acct VALUES (99999, 100001)`)
		if pgerr.CodeOf(err) == pgerr.UniqueViolation {
			break
		}
		if err == nil {
			t.Fatal("a duplicate of an indexed value was inserted after the build")
		}
		if time.Now().After(deadline) {
			t.Fatalf("insert of a duplicate: %v", err)
		}
	}
}

// TestChildInsertRacesParentDelete races the insert of a referencing row
// with the delete of its referenced row: never do both succeed, so no row
// is left without its referenced row. On Pebble the two sessions share a
// process; on DynamoDB Local they run in two proxies.
func TestChildInsertRacesParentDelete(t *testing.T) {
	type setup struct {
		name  string
		child wire.Session
		par   wire.Session
	}
	var cases []setup
	{
		eng, s1 := newSession(t, memStore(t))
		s2, err := eng.NewSession(context.Background(), wire.SessionParams{User: "test", Notice: func(*pgerr.Error) {}})
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, setup{"pebble", s1, s2})
	}
	if os.Getenv("DYNAMODB_ENDPOINT") != "" {
		stores := sharedDynamo(t, 2)
		_, s1 := newSession(t, stores[0])
		_, s2 := newSession(t, stores[1])
		cases = append(cases, setup{"dynamodb", s1, s2})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mustExec(t, c.child, `CREATE TABLE parent (id INT PRIMARY KEY)`)
			mustExec(t, c.child, `CREATE TABLE child (id INT PRIMARY KEY, pid INT REFERENCES parent)`)
			eventually(t, c.par, `SELECT count(*) FROM child`)
			outcomes := map[string]int{}
			for r := 0; r < 20; r++ {
				mustExec(t, c.par, fmt.Sprintf(`INSERT INTO parent VALUES (%d)`, r))
				insert := fmt.Sprintf(`INSERT INTO child VALUES (%d, %d)`, r, r)
				if r%2 == 1 {
					// In a block whose commit comes after the delete had
					// every chance to run.
					insert = fmt.Sprintf(`BEGIN; INSERT INTO child VALUES (%d, %d); sleep; COMMIT`, r, r)
				}
				errs := race([]wire.Session{c.child, c.par}, []string{insert, fmt.Sprintf(`DELETE FROM parent WHERE id = %d`, r)})
				if errs[0] != nil {
					_, _ = runSQL(context.Background(), c.child, `ROLLBACK`)
				}
				for i, err := range errs {
					if err != nil && pgerr.CodeOf(err) != pgerr.ForeignKeyViolation && pgerr.CodeOf(err) != pgerr.SerializationFailure {
						t.Fatalf("round %d, statement %d: %v", r, i, err)
					}
				}
				if errs[0] == nil && errs[1] == nil {
					t.Fatalf("round %d: the child insert and the parent delete both succeeded", r)
				}
				outcomes[fmt.Sprintf("child %v, delete %v", pgerr.CodeOf(errs[0]), pgerr.CodeOf(errs[1]))]++
			}
			// The interleavings a share lock on the referenced row would
			// let through: the delete's block looked for referencing rows
			// before the insert committed, and commits after it.
			for r := 100; r < 104; r++ {
				mustExec(t, c.par, fmt.Sprintf(`INSERT INTO parent VALUES (%d)`, r))
				eventually(t, c.child, fmt.Sprintf(`SELECT id FROM parent WHERE id = %d`, r))
				mustExec(t, c.par, `BEGIN`)
				mustExec(t, c.par, fmt.Sprintf(`DELETE FROM parent WHERE id = %d`, r))
				_, childErr := runSQL(context.Background(), c.child, fmt.Sprintf(`INSERT INTO child VALUES (%d, %d)`, r, r))
				_, parErr := runSQL(context.Background(), c.par, `COMMIT`)
				if childErr == nil && parErr == nil {
					t.Fatalf("round %d: the insert and the delete's block both committed", r)
				}
				if childErr != nil && pgerr.CodeOf(childErr) != pgerr.ForeignKeyViolation || parErr != nil && pgerr.CodeOf(parErr) != pgerr.SerializationFailure {
					t.Fatalf("round %d: insert %v, delete's COMMIT %v", r, childErr, parErr)
				}
			}
			orphans := mustExec(t, c.child, `SELECT count(*) FROM child c LEFT JOIN parent p ON p.id = c.pid WHERE p.id IS NULL`)
			if orphans[0] != "0" {
				t.Fatalf("%s children without their parent", orphans[0])
			}
			checkConsistent(t, c.child, "child")
			keys := make([]string, 0, len(outcomes))
			for k, n := range outcomes {
				keys = append(keys, fmt.Sprintf("%s: %d", k, n))
			}
			sort.Strings(keys)
			t.Logf("outcomes: %s", strings.Join(keys, "; "))
		})
	}
}

// TestUniqueCheckedAtStatementEnd: zproxy checks uniqueness once a
// statement's rows are all written, as PostgreSQL checks a DEFERRABLE
// constraint, so a statement that moves values around succeeds whatever
// order it visits the rows in (PostgreSQL's immediate check fails these
// depending on the physical order); a statement that leaves two rows with
// one value fails, writing nothing.
func TestUniqueCheckedAtStatementEnd(t *testing.T) {
	_, sess := newSession(t, memStore(t))
	mustExec(t, sess, `CREATE TABLE s (id INT PRIMARY KEY, pos INT NOT NULL UNIQUE) WITH (shards = 3)`)
	mustExec(t, sess, `INSERT INTO s SELECT g, g FROM generate_series(1, 20) g`)
	mustExec(t, sess, `UPDATE s SET pos = pos + 1`)
	mustExec(t, sess, `UPDATE s SET pos = 22 - pos`)
	if got := mustExec(t, sess, `SELECT pos FROM s WHERE id = 1`); got[0] != "20" {
		t.Fatalf("pos of row 1: %v", got)
	}
	_, err := runSQL(context.Background(), sess, `UPDATE s SET pos = 5 WHERE id IN (1, 2)`)
	if pgerr.CodeOf(err) != pgerr.UniqueViolation || !strings.Contains(err.Error(), `"s_pos_key"`) {
		t.Fatalf("two rows onto one value: %v", err)
	}
	if got := mustExec(t, sess, `SELECT pos FROM s WHERE id IN (1, 2) ORDER BY id`); strings.Join(got, ",") != "20,19" {
		t.Fatalf("a failed statement wrote: %v", got)
	}
	checkConsistent(t, sess, "s")
}

// TestNoActionCheckedAtStatementEnd: a NO ACTION key is checked once the
// statement is done, so one that puts a referenced key back keeps its
// references (a swap PostgreSQL could only run with deferred uniqueness);
// RESTRICT refuses at once.
func TestNoActionCheckedAtStatementEnd(t *testing.T) {
	_, sess := newSession(t, memStore(t))
	mustExec(t, sess, `CREATE TABLE k (id INT PRIMARY KEY, code INT UNIQUE)`)
	mustExec(t, sess, `CREATE TABLE na (id INT PRIMARY KEY, kc INT REFERENCES k (code))`)
	mustExec(t, sess, `CREATE TABLE re (id INT PRIMARY KEY, kc INT REFERENCES k (code) ON UPDATE RESTRICT)`)
	mustExec(t, sess, `INSERT INTO k VALUES (1, 1), (2, 2)`)
	mustExec(t, sess, `INSERT INTO na VALUES (1, 1)`)
	mustExec(t, sess, `UPDATE k SET code = 3 - code`)
	mustExec(t, sess, `INSERT INTO re VALUES (1, 2)`)
	_, err := runSQL(context.Background(), sess, `UPDATE k SET code = 3 - code`)
	if pgerr.CodeOf(err) != pgerr.ForeignKeyViolation || !strings.Contains(err.Error(), `"re_kc_fkey"`) {
		t.Fatalf("RESTRICT: %v", err)
	}
}

// TestUniqueWritesMatchModel applies random single-row and multi-row
// writes to a table with a unique constraint and compares every outcome
// (success, or 23505) and the contents with a brute-force model that
// checks uniqueness over the table as each statement leaves it.
func TestUniqueWritesMatchModel(t *testing.T) {
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			store := be.open(t)
			defer store.Close()
			_, sess := newSession(t, store)
			mustExec(t, sess, `CREATE TABLE m (id INT PRIMARY KEY, u INT, v INT, UNIQUE (u, v)) WITH (shards = 2)`)
			type row struct{ u, v *int }
			model := map[int]row{}
			rng := rand.New(rand.NewSource(7))
			num := func() *int {
				if rng.Intn(5) == 0 {
					return nil
				}
				n := rng.Intn(4)
				return &n
			}
			lit := func(p *int) string {
				if p == nil {
					return "NULL"
				}
				return fmt.Sprint(*p)
			}
			unique := func(m map[int]row) bool {
				seen := map[string]bool{}
				for _, r := range m {
					if r.u == nil || r.v == nil {
						continue
					}
					k := fmt.Sprint(*r.u, ",", *r.v)
					if seen[k] {
						return false
					}
					seen[k] = true
				}
				return true
			}
			steps := 300
			if be.name == "dynamodb" {
				steps = 120
			}
			failures := 0
			for step := 0; step < steps; step++ {
				next := map[int]row{}
				for k, r := range model {
					next[k] = r
				}
				var sql string
				id := rng.Intn(12)
				switch rng.Intn(4) {
				case 0:
					r := row{num(), num()}
					sql = fmt.Sprintf(`INSERT INTO m VALUES (%d, %s, %s)`, id, lit(r.u), lit(r.v))
					if _, exists := next[id]; exists {
						next = nil // primary key violation
					} else {
						next[id] = r
					}
				case 1:
					u := num()
					sql = fmt.Sprintf(`UPDATE m SET u = %s WHERE id = %d`, lit(u), id)
					if r, ok := next[id]; ok {
						r.u = u
						next[id] = r
					}
				case 2:
					// A multi-row shift of v.
					sql = fmt.Sprintf(`UPDATE m SET v = v + 1 WHERE id >= %d`, id)
					for k, r := range next {
						if k >= id && r.v != nil {
							n := *r.v + 1
							r.v = &n
							next[k] = r
						}
					}
				case 3:
					sql = fmt.Sprintf(`DELETE FROM m WHERE id = %d`, id)
					delete(next, id)
				}
				_, err := runSQL(context.Background(), sess, sql)
				ok := next != nil && unique(next)
				switch {
				case ok && err != nil:
					t.Fatalf("step %d: %s: %v, want success", step, sql, err)
				case !ok && pgerr.CodeOf(err) != pgerr.UniqueViolation:
					t.Fatalf("step %d: %s: %v, want 23505", step, sql, err)
				case ok:
					model = next
				}
				if err != nil {
					failures++
				}
			}
			t.Logf("%d of %d statements failed with 23505 as the model said; %d rows left", failures, steps, len(model))
			var want []string
			for k, r := range model {
				want = append(want, fmt.Sprintf("%d|%s|%s", k, strings.ReplaceAll(lit(r.u), "NULL", "NULL"), lit(r.v)))
			}
			sort.Strings(want)
			got := mustExec(t, sess, `SELECT id, u, v FROM m`)
			sort.Strings(got)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("table:\n%s\nmodel:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			checkConsistent(t, sess, "m")
		})
	}
}

// TestForeignKeyCosts measures what checking a foreign key costs an INSERT
// on DynamoDB Local (store requests and capacity units from EXPLAIN
// ANALYZE), against the same insert into a table without one. Run it with
// ZPROXY_FK_COSTS=1; README.md quotes its figures.
func TestForeignKeyCosts(t *testing.T) {
	if os.Getenv("ZPROXY_FK_COSTS") == "" {
		t.Skip("set ZPROXY_FK_COSTS=1 to measure")
	}
	stores := sharedDynamo(t, 1)
	_, sess := newSession(t, stores[0])
	mustExec(t, sess, `CREATE TABLE parent (id INT PRIMARY KEY, name TEXT)`)
	mustExec(t, sess, `CREATE TABLE plain (id INT PRIMARY KEY, pid INT, note TEXT)`)
	mustExec(t, sess, `CREATE INDEX plain_pid ON plain (pid)`)
	mustExec(t, sess, `CREATE TABLE child (id INT PRIMARY KEY, pid INT REFERENCES parent, note TEXT)`)
	mustExec(t, sess, `INSERT INTO parent SELECT g, 'p' FROM generate_series(1, 100) g`)
	// Referenced rows written within the store's uncertainty window (1 s)
	// make a transaction read what it read again: measure past it.
	time.Sleep(1500 * time.Millisecond)
	figures := func(sql string) string { return analyzeFigures(t, sess, sql) }
	next := 0
	rows := func(n, parents int) string {
		var vals []string
		for i := 0; i < n; i++ {
			next++
			vals = append(vals, fmt.Sprintf("(%d, %d, 'x')", next, 1+i%parents))
		}
		return strings.Join(vals, ", ")
	}
	for _, c := range []struct {
		name          string
		rows, parents int
	}{{"1 row", 1, 1}, {"10 rows, 10 parents", 10, 10}, {"10 rows, 1 parent", 10, 1}, {"40 rows, 40 parents", 40, 40}} {
		t.Logf("%-22s no foreign key: %s", c.name, figures("INSERT INTO plain VALUES "+rows(c.rows, c.parents)))
		t.Logf("%-22s foreign key:    %s", c.name, figures("INSERT INTO child VALUES "+rows(c.rows, c.parents)))
	}
	t.Logf("delete of a parent with no children: %s", figures("DELETE FROM parent WHERE id = 100"))
	t.Logf("delete of a row without references:  %s", figures("DELETE FROM plain WHERE id = 1"))
}

// TestCopyFromEnforcesConstraints: COPY FROM holds a table's unique
// constraints (within the stream too), checks and foreign keys, outside
// and inside a transaction block, on every backend; a violation leaves
// none of the rows.
func TestCopyFromEnforcesConstraints(t *testing.T) {
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			ctx := context.Background()
			store := be.open(t)
			defer store.Close()
			_, sess := newSession(t, store)
			mustExec(t, sess, "CREATE TABLE cpp (id int PRIMARY KEY)")
			mustExec(t, sess, "INSERT INTO cpp SELECT g FROM generate_series(1, 10) g")
			mustExec(t, sess, "CREATE TABLE cpc (id int PRIMARY KEY, u int UNIQUE, v int CHECK (v >= 0), pid int REFERENCES cpp)")
			row := func(id, u, v, pid int64) []sqltypes.Value {
				return []sqltypes.Value{sqltypes.NewInt(id), sqltypes.NewInt(u), sqltypes.NewInt(v), sqltypes.NewInt(pid)}
			}
			good := func(from, n int64) [][]sqltypes.Value {
				var rows [][]sqltypes.Value
				for i := from; i < from+n; i++ {
					rows = append(rows, row(i, i, i, 1+i%10))
				}
				return rows
			}
			cases := []struct {
				name  string
				rows  [][]sqltypes.Value
				code  string
				block bool
			}{
				{"unique value twice in the stream", append(good(1, 100), row(500, 7, 0, 1)), pgerr.UniqueViolation.String(), false},
				{"unique value twice in one batch", append(good(1, 3), row(500, 2, 0, 1)), pgerr.UniqueViolation.String(), false},
				{"check", append(good(1, 50), row(500, 500, -1, 1)), pgerr.CheckViolation.String(), false},
				{"foreign key", append(good(1, 50), row(500, 500, 0, 99)), pgerr.ForeignKeyViolation.String(), false},
				{"foreign key in a block", append(good(1, 50), row(500, 500, 0, 99)), pgerr.ForeignKeyViolation.String(), true},
				{"unique in a block", append(good(1, 50), row(500, 3, 0, 1)), pgerr.UniqueViolation.String(), true},
			}
			for _, tc := range cases {
				if tc.block {
					mustExec(t, sess, "BEGIN")
				}
				_, err := copyIn(ctx, sess, "COPY cpc FROM STDIN", tc.rows, 32)
				if tc.block {
					mustExec(t, sess, "ROLLBACK")
				}
				if pgerr.CodeOf(err).String() != tc.code {
					t.Errorf("%s: %v (SQLSTATE %s), want %s", tc.name, err, pgerr.CodeOf(err), tc.code)
				}
				if got := mustExec(t, sess, "SELECT count(*) FROM cpc"); got[0] != "0" {
					t.Errorf("%s: %s rows left", tc.name, got[0])
				}
			}
			tag, err := copyIn(ctx, sess, "COPY cpc FROM STDIN", good(1, 100), 32)
			if err != nil || tag != "COPY 100" {
				t.Fatalf("COPY: %q, %v", tag, err)
			}
			if _, err := copyIn(ctx, sess, "COPY cpc FROM STDIN", [][]sqltypes.Value{row(200, 5, 0, 1)}, 32); pgerr.CodeOf(err) != pgerr.UniqueViolation {
				t.Errorf("COPY of a value a stored row has: %v", err)
			}
			mustExec(t, sess, "DELETE FROM cpc WHERE pid = 3")
			checkConsistent(t, sess, "cpc")
		})
	}
}
