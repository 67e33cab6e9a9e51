package session_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/kv"
	zpebble "github.com/zproxy/zproxy/kv/pebble"
	"github.com/zproxy/zproxy/session"
	"github.com/zproxy/zproxy/wire"
)

// Transactional DDL between sessions and proxies: what a block changes in
// the schema is invisible elsewhere until it commits, a concurrent schema
// change fails the later committer with 40001 (the block's changes were
// computed on a schema that is no longer the current one), and what the
// block leaves to after its commit (an online index build on a table other
// sessions write, deleting a dropped table's rows) happens then. The
// single-session semantics, checked against PostgreSQL, are in
// testdata/sql/transactional_ddl.slt.

// ddlProxies returns two engines over one store: one Pebble engine twice
// (two sessions of one proxy), or two proxies over one DynamoDB Local
// table.
func ddlProxies(t *testing.T, backend string) (a, b *session.Engine, store kv.Store) {
	t.Helper()
	if backend == "dynamodb" {
		stores := sharedDynamo(t, 2)
		return newEngine(t, stores[0]), newEngine(t, stores[1]), stores[0]
	}
	st, err := zpebble.Open(t.TempDir(), zpebble.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e := newEngine(t, st)
	return e, e, st
}

// untilRows runs run until it returns want (a shared store's
// other proxy may see a committed schema change up to
// catalog.SharedStaleness later).
func untilRows(t *testing.T, run func() ([]string, error), want string) {
	t.Helper()
	deadline := time.Now().Add(3*catalog.SharedStaleness + 5*time.Second)
	for {
		rows, err := run()
		got := strings.Join(rows, ",")
		if err == nil && got == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("got %q (%v), want %q", got, err, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestDDLBlockIsolation(t *testing.T) {
	for _, backend := range []string{"pebble", "dynamodb"} {
		t.Run(backend, func(t *testing.T) {
			ctx := context.Background()
			ea, eb, _ := ddlProxies(t, backend)
			a, b := openSession(t, ea), openSession(t, eb)
			mustRun(t, a, `CREATE TABLE keep (k INT PRIMARY KEY, v TEXT)`)
			mustRun(t, a, `INSERT INTO keep VALUES (1, 'one'), (2, 'two')`)
			untilRows(t, func() ([]string, error) { return runSQL(ctx, b, `SELECT count(*) FROM keep`) }, "2")

			// Uncommitted: the other proxy sees none of it.
			for _, sql := range []string{`BEGIN`, `CREATE TABLE fresh (k INT PRIMARY KEY)`, `INSERT INTO fresh VALUES (1)`,
				`ALTER TABLE keep ADD COLUMN w INT DEFAULT 5`, `DROP TABLE keep`} {
				mustRun(t, a, sql)
			}
			if _, err := runSQL(ctx, b, `SELECT * FROM fresh`); pgerr.CodeOf(err) != pgerr.UndefinedTable {
				t.Errorf("another session saw a table created by an open block: %v", err)
			}
			if got := rowsOf(t, b, `SELECT k, v FROM keep ORDER BY k`); strings.Join(got, ",") != "1|one,2|two" {
				t.Errorf("another session saw an open block's changes of keep: %v", got)
			}
			mustRun(t, a, `ROLLBACK`)
			time.Sleep(2 * catalog.SharedStaleness)
			if _, err := runSQL(ctx, b, `SELECT * FROM fresh`); pgerr.CodeOf(err) != pgerr.UndefinedTable {
				t.Errorf("a rolled-back CREATE TABLE is visible: %v", err)
			}
			if got := rowsOf(t, b, `SELECT * FROM keep ORDER BY k`); strings.Join(got, ",") != "1|one,2|two" {
				t.Errorf("after ROLLBACK: %v", got)
			}

			// Committed: all of it at once.
			for _, sql := range []string{`BEGIN`, `CREATE TABLE fresh (k INT PRIMARY KEY)`, `INSERT INTO fresh VALUES (1)`,
				`ALTER TABLE keep ADD COLUMN w INT DEFAULT 5`, `COMMIT`} {
				mustRun(t, a, sql)
			}
			untilRows(t, func() ([]string, error) {
				return runSQL(ctx, b, `SELECT (SELECT count(*) FROM fresh), (SELECT sum(w) FROM keep)`)
			}, "1|10")
		})
	}
}

func TestDDLBlockConflicts(t *testing.T) {
	for _, backend := range []string{"pebble", "dynamodb"} {
		t.Run(backend, func(t *testing.T) {
			ctx := context.Background()
			ea, eb, _ := ddlProxies(t, backend)
			a, b := openSession(t, ea), openSession(t, eb)
			mustRun(t, a, `CREATE TABLE base (k INT PRIMARY KEY, v INT)`)
			mustRun(t, a, `INSERT INTO base VALUES (1, 1)`)

			// Another session's change of a table the block wrote, after
			// the block's first schema change: the block's COMMIT fails and
			// leaves nothing.
			mustRun(t, a, `BEGIN`)
			mustRun(t, a, `CREATE TABLE mine (k INT PRIMARY KEY)`)
			mustRun(t, a, `INSERT INTO base VALUES (2, 2)`)
			mustRun(t, b, `ALTER TABLE base ADD COLUMN z INT`)
			if _, err := runSQL(ctx, a, `COMMIT`); pgerr.CodeOf(err) != pgerr.SerializationFailure {
				t.Fatalf("COMMIT after a concurrent change of a table it wrote: %v, want 40001", err)
			}
			time.Sleep(2 * catalog.SharedStaleness)
			if _, err := runSQL(ctx, a, `SELECT * FROM mine`); pgerr.CodeOf(err) != pgerr.UndefinedTable {
				t.Errorf("the failed block's table exists: %v", err)
			}
			if got := rowsOf(t, a, `SELECT count(*) FROM base`); got[0] != "1" {
				t.Errorf("the failed block's row is there: %v", got)
			}

			// A change of other objects since the block's snapshot does not
			// fail the block: two migrations of different tables both
			// commit. (On DynamoDB, which keeps no old versions, a change
			// committed between two of the block's schema changes fails the
			// block's next one instead: its catalog reads change.)
			mustRun(t, a, `BEGIN`)
			mustRun(t, a, `INSERT INTO base VALUES (3, 3)`)
			mustRun(t, b, `BEGIN`)
			mustRun(t, b, `CREATE TABLE theirs (k INT PRIMARY KEY)`)
			mustRun(t, b, `COMMIT`)
			mustRun(t, a, `CREATE TABLE mine (k INT PRIMARY KEY)`)
			mustRun(t, a, `CREATE INDEX mine_k ON mine (k)`)
			mustRun(t, a, `COMMIT`)
			untilRows(t, func() ([]string, error) {
				return runSQL(ctx, b, `SELECT (SELECT count(*) FROM mine), (SELECT count(*) FROM theirs)`)
			}, "0|0")

			// Taking a name another change took fails, even in another
			// table's descriptor: an index and a table share names.
			mustRun(t, a, `BEGIN`)
			mustRun(t, a, `CREATE INDEX clash ON mine (k)`)
			mustRun(t, b, `CREATE TABLE clash (k INT)`)
			if _, err := runSQL(ctx, a, `COMMIT`); pgerr.CodeOf(err) != pgerr.SerializationFailure {
				t.Fatalf("COMMIT of a name another change took: %v, want 40001", err)
			}
			mustRun(t, b, `DROP TABLE mine, theirs, clash`)

			// Statistics are not the schema: an ANALYZE of a table the
			// block changes does not fail the block.
			mustRun(t, a, `BEGIN`)
			mustRun(t, a, `ALTER TABLE base ADD COLUMN w INT`)
			mustRun(t, b, `ANALYZE base`)
			mustRun(t, a, `COMMIT`)

			// Two blocks changing the schema at once: the first to commit
			// wins.
			mustRun(t, a, `BEGIN`)
			mustRun(t, b, `BEGIN`)
			mustRun(t, a, `ALTER TABLE base ADD COLUMN x INT`)
			mustRun(t, b, `ALTER TABLE base ADD COLUMN y INT`)
			mustRun(t, b, `COMMIT`)
			if _, err := runSQL(ctx, a, `COMMIT`); pgerr.CodeOf(err) != pgerr.SerializationFailure {
				t.Fatalf("the second of two blocks changing the schema: %v, want 40001", err)
			}
			untilRows(t, func() ([]string, error) {
				return runSQL(ctx, a, `SELECT string_agg(attname, ',' ORDER BY attnum) FROM pg_attribute WHERE attrelid = 'base'::regclass AND attnum > 0`)
			}, "k,v,z,w,y")
		})
	}
}

// TestDDLBlockCommitsBesideAnalyze: statistics written while a block
// commits (ANALYZE, or the automatic analysis a load starts) are not a
// schema change, and within one proxy they never take the version the
// block's commit claims, so no block fails with 40001 beside them.
func TestDDLBlockCommitsBesideAnalyze(t *testing.T) {
	ctx := context.Background()
	e, _, _ := ddlProxies(t, "pebble")
	a, b := openSession(t, e), openSession(t, e)
	mustRun(t, b, `CREATE TABLE stats_src (k INT PRIMARY KEY, v INT)`)
	mustRun(t, b, `INSERT INTO stats_src SELECT g, g FROM generate_series(1, 20) g`)

	stop := make(chan struct{})
	analyzed := make(chan error, 1)
	go func() {
		for n := 0; ; n++ {
			select {
			case <-stop:
				analyzed <- nil
				return
			default:
			}
			if _, err := runSQL(ctx, b, `ANALYZE stats_src`); err != nil {
				analyzed <- fmt.Errorf("ANALYZE %d: %w", n, err)
				return
			}
		}
	}()
	for i := 0; i < 60; i++ {
		mustRun(t, a, `BEGIN`)
		mustRun(t, a, fmt.Sprintf(`CREATE TABLE blk%d (k INT PRIMARY KEY)`, i))
		mustRun(t, a, fmt.Sprintf(`INSERT INTO blk%d VALUES (%d)`, i, i))
		if _, err := runSQL(ctx, a, `COMMIT`); err != nil {
			close(stop)
			<-analyzed
			t.Fatalf("block %d's COMMIT beside ANALYZE: %v", i, err)
		}
	}
	close(stop)
	if err := <-analyzed; err != nil {
		t.Fatal(err)
	}
	if got := rowsOf(t, b, `SELECT count(*) FROM pg_class WHERE relname LIKE 'blk%' AND relkind = 'r'`); got[0] != "60" {
		t.Errorf("tables the blocks created: %v, want 60", got)
	}
}

// An index a block creates on a table other sessions write is built
// online after the block commits, and is exact whatever they wrote
// meanwhile; a dropped table's rows are deleted after the commit.
func TestDDLBlockFinishesAfterCommit(t *testing.T) {
	for _, backend := range []string{"pebble", "dynamodb"} {
		t.Run(backend, func(t *testing.T) {
			ctx := context.Background()
			ea, eb, store := ddlProxies(t, backend)
			a, b := openSession(t, ea), openSession(t, eb)
			mustRun(t, a, `CREATE TABLE hot (k INT PRIMARY KEY, v INT)`)
			mustRun(t, a, `INSERT INTO hot SELECT g, g FROM generate_series(1, 200) g`)
			untilRows(t, func() ([]string, error) { return runSQL(ctx, b, `SELECT count(*) FROM hot`) }, "200")

			var wg sync.WaitGroup
			stop := make(chan struct{})
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 1000; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					_, _ = runSQL(ctx, b, fmt.Sprintf(`INSERT INTO hot VALUES (%d, %d)`, i, i))
				}
			}()
			mustRun(t, a, `BEGIN`)
			mustRun(t, a, `CREATE UNIQUE INDEX hot_v ON hot (v)`)
			mustRun(t, a, `CREATE TABLE gone (k INT PRIMARY KEY)`)
			mustRun(t, a, `COMMIT`)
			time.Sleep(100 * time.Millisecond)
			close(stop)
			wg.Wait()
			untilRows(t, func() ([]string, error) {
				rows, err := runSQL(ctx, a, `CHECK TABLE hot`)
				for i, r := range rows {
					rows[i] = r[strings.LastIndex(r, "|")+1:]
				}
				return rows, err
			}, "t,t")
			if got := rowsOf(t, a, `SELECT indisvalid FROM pg_index WHERE indexrelid = 'hot_v'::regclass`); got[0] != "t" {
				t.Errorf("the index is not valid after the build: %v", got)
			}

			// DROP TABLE in a block deletes the rows once committed.
			mustRun(t, a, `INSERT INTO gone SELECT g FROM generate_series(1, 50) g`)
			snap, err := ea.Catalog().Snapshot(ctx)
			if err != nil {
				t.Fatal(err)
			}
			gone, err := snap.Table("gone")
			if err != nil {
				t.Fatal(err)
			}
			mustRun(t, a, `BEGIN`)
			mustRun(t, a, `DROP TABLE gone`)
			if n := countItems(t, store, gone.Partition(0)); n != 50 {
				t.Errorf("the rows of a table dropped in an open block: %d, want 50", n)
			}
			mustRun(t, a, `COMMIT`)
			if n := countItems(t, store, gone.Partition(0)); n != 0 {
				t.Errorf("the rows of a table dropped in a committed block: %d left", n)
			}
		})
	}
}

func countItems(t *testing.T, store kv.Store, partition []byte) int {
	t.Helper()
	it := store.Scan(context.Background(), kv.ScanRequest{Partition: partition, Consistent: true})
	defer it.Close()
	n := 0
	for it.Next() {
		n++
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return n
}

// ddlEveryKind is a migration that creates one object of every kind the
// schema language has, all named kk*, and fills the table it makes.
var ddlEveryKind = []string{
	`CREATE SCHEMA kkapp`,
	`CREATE TYPE kkapp.kkmood AS ENUM ('sad', 'ok')`,
	`ALTER TYPE kkapp.kkmood ADD VALUE 'happy'`,
	`CREATE TYPE kkpair AS (a INT, b TEXT)`,
	`CREATE DOMAIN kkpos AS INT CHECK (VALUE > 0)`,
	`CREATE SEQUENCE kkseq`,
	`CREATE TABLE kkapp.kkt (k kkpos PRIMARY KEY, m kkapp.kkmood, p kkpair, s INT DEFAULT nextval('kkseq'), g INT GENERATED ALWAYS AS (k * 2) STORED)`,
	`INSERT INTO kkapp.kkt (k, m, p) VALUES (1, 'ok', ROW(1, 'x')), (2, 'sad', NULL)`,
	`CREATE INDEX kkt_expr ON kkapp.kkt ((g + s))`,
	`CREATE UNIQUE INDEX kkt_part ON kkapp.kkt (s) WHERE k > 0`,
	`COMMENT ON TABLE kkapp.kkt IS 'every kind'`,
	`CREATE VIEW kkv AS SELECT k, m FROM kkapp.kkt`,
	`CREATE MATERIALIZED VIEW kkmv AS SELECT count(*) AS n FROM kkapp.kkt`,
	`CREATE FUNCTION kkf(x INT) RETURNS INT LANGUAGE sql AS 'SELECT x + 1'`,
	`CREATE FUNCTION kktrig() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN NEW.k := NEW.k + 10; RETURN NEW; END$$`,
	`CREATE TRIGGER kktg BEFORE INSERT ON kkapp.kkt FOR EACH ROW EXECUTE FUNCTION kktrig()`,
	`CREATE TABLE kkpart (k INT, v INT) PARTITION BY RANGE (k)`,
	`CREATE TABLE kkpart1 PARTITION OF kkpart FOR VALUES FROM (0) TO (10)`,
	`INSERT INTO kkpart VALUES (5, 50)`,
	`INSERT INTO kkapp.kkt (k) VALUES (3)`,
}

// ddlKinds lists every kk* object the catalogs show, by kind.
const ddlKinds = `SELECT coalesce(string_agg(x, ',' ORDER BY x), '') FROM (
	SELECT 'n:' || nspname FROM pg_namespace WHERE nspname LIKE 'kk%'
	UNION ALL SELECT 'c:' || relname || ':' || relkind::text FROM pg_class WHERE relname LIKE 'kk%'
	UNION ALL SELECT 't:' || typname || ':' || typtype::text FROM pg_type WHERE typname LIKE 'kk%' AND typrelid = 0 AND typcategory <> 'A'
	UNION ALL SELECT 'e:' || enumlabel FROM pg_enum e JOIN pg_type t ON t.oid = e.enumtypid WHERE t.typname = 'kkmood'
	UNION ALL SELECT 'p:' || proname FROM pg_proc WHERE proname LIKE 'kk%'
	UNION ALL SELECT 'g:' || tgname FROM pg_trigger WHERE tgname LIKE 'kk%'
	UNION ALL SELECT 'd:' || description FROM pg_description WHERE description = 'every kind') s(x)`

// ddlKindsWant is ddlKinds after ddlEveryKind committed.
const ddlKindsWant = "c:kkmv:m,c:kkpair:c,c:kkpart1:r,c:kkpart:p,c:kkseq:S,c:kkt:r,c:kkt_expr:i,c:kkt_part:i,c:kkt_pkey:i,c:kkv:v," +
	"d:every kind,e:happy,e:ok,e:sad,g:kktg,n:kkapp,p:kkf,p:kktrig,t:kkmood:e,t:kkpos:d"

// TestDDLBlockIsolationEveryKind: a migration creating an object of every
// kind is invisible to another proxy while its block is open, leaves
// nothing anywhere when rolled back, and appears whole once committed.
func TestDDLBlockIsolationEveryKind(t *testing.T) {
	for _, backend := range []string{"pebble", "dynamodb"} {
		t.Run(backend, func(t *testing.T) {
			ctx := context.Background()
			ea, eb, _ := ddlProxies(t, backend)
			a, b := openSession(t, ea), openSession(t, eb)
			kinds := func(s wire.Session) func() ([]string, error) {
				return func() ([]string, error) { return runSQL(ctx, s, ddlKinds) }
			}
			if got := rowsOf(t, b, ddlKinds); got[0] != "" {
				t.Fatalf("before the migration: %q", got[0])
			}
			mustRun(t, a, `BEGIN`)
			for _, sql := range ddlEveryKind {
				mustRun(t, a, sql)
			}
			if got := rowsOf(t, a, ddlKinds); got[0] != ddlKindsWant {
				t.Errorf("inside the block:\n got %s\nwant %s", got[0], ddlKindsWant)
			}
			if got := rowsOf(t, b, ddlKinds); got[0] != "" {
				t.Errorf("another proxy sees an open block's objects: %q", got[0])
			}
			if _, err := runSQL(ctx, b, `SELECT * FROM kkapp.kkt`); pgerr.CodeOf(err) != pgerr.UndefinedTable {
				t.Errorf("another proxy reads an open block's table: %v", err)
			}
			mustRun(t, a, `ROLLBACK`)
			time.Sleep(2 * catalog.SharedStaleness)
			for name, s := range map[string]wire.Session{"the proxy that rolled back": a, "the other proxy": b} {
				if got := rowsOf(t, s, ddlKinds); got[0] != "" {
					t.Errorf("%s sees a rolled-back block's objects: %q", name, got[0])
				}
			}
			// The names are free again: the same migration commits, and
			// the other proxy sees all of it, rows included.
			mustRun(t, a, `BEGIN`)
			for _, sql := range ddlEveryKind {
				mustRun(t, a, sql)
			}
			mustRun(t, a, `COMMIT`)
			untilRows(t, kinds(b), ddlKindsWant)
			untilRows(t, func() ([]string, error) {
				return runSQL(ctx, b, `SELECT k, m, p, s, g, kkf(k) FROM kkapp.kkt ORDER BY k`)
			}, "1|ok|(1,x)|1|2|2,2|sad|NULL|2|4|3,13|NULL|NULL|3|26|14")
			untilRows(t, func() ([]string, error) {
				return runSQL(ctx, b, `SELECT (SELECT n FROM kkmv), (SELECT count(*) FROM kkv), (SELECT v FROM kkpart WHERE k = 5)`)
			}, "2|3|50")
		})
	}
}
