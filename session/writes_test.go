package session_test

import (
	"context"
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/kv"
	zpebble "github.com/zproxy/zproxy/kv/pebble"
	"github.com/zproxy/zproxy/session"
	"github.com/zproxy/zproxy/wire"
)

func newSession(t *testing.T, store kv.Store) (*session.Engine, wire.Session) {
	t.Helper()
	ctx := context.Background()
	// No automatic analysis: its background statistics would change plans
	// (and request counts) at moments the tests do not choose.
	eng, err := session.New(ctx, session.Config{Store: store, AllowFullScan: true, AutoAnalyzeNap: -1})
	if err != nil {
		t.Fatal(err)
	}
	// Before the store closes (cleanups run last first): background
	// work such as automatic analysis must not outlive it.
	t.Cleanup(func() { eng.Close() })
	sess, err := eng.NewSession(ctx, wire.SessionParams{User: "test", Notice: func(*pgerr.Error) {}})
	if err != nil {
		t.Fatal(err)
	}
	return eng, sess
}

func memStore(t *testing.T) kv.Store {
	s, err := zpebble.Open(t.Name(), zpebble.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func mustExec(t *testing.T, sess wire.Session, sql string) []string {
	t.Helper()
	rows, err := runSQL(context.Background(), sess, sql)
	if err != nil {
		t.Fatalf("%s: %v (%s)", sql, err, pgerr.CodeOf(err))
	}
	return rows
}

// checkConsistent runs ADMIN CHECK TABLE and fails unless every index
// agrees with the table.
func checkConsistent(t *testing.T, sess wire.Session, table string) {
	t.Helper()
	for _, line := range mustExec(t, sess, "ADMIN CHECK TABLE "+table) {
		if !strings.HasSuffix(line, "|t") {
			t.Fatalf("consistency check failed: %s", line)
		}
	}
}

type modelRow struct {
	k, a int
	b    string
	c    float64
	null bool // c is NULL
}

func (r modelRow) String() string {
	c := "NULL"
	if !r.null {
		c = fmt.Sprint(r.c)
	}
	return fmt.Sprintf("%d|%d|%s|%s", r.k, r.a, r.b, c)
}

// TestRandomWritesKeepIndexesExact applies random inserts, updates of
// indexed, non-indexed and primary-key columns, deletes and upserts, and
// after each step compares the table with a model and every index with a
// recomputation from the rows (ADMIN CHECK TABLE).
func TestRandomWritesKeepIndexesExact(t *testing.T) {
	_, sess := newSession(t, memStore(t))
	mustExec(t, sess, `CREATE TABLE r (k INT PRIMARY KEY, a INT NOT NULL, b TEXT NOT NULL, c DOUBLE PRECISION) WITH (shards = 3)`)
	mustExec(t, sess, `CREATE INDEX r_ab ON r (a, b DESC) INCLUDE (c)`)
	mustExec(t, sess, `CREATE INDEX r_z ON r USING zorder (a, c) WITH (shards = 2)`)
	mustExec(t, sess, `CREATE INDEX r_b ON r (b)`)
	model := map[int]modelRow{}
	rng := rand.New(rand.NewSource(42))
	words := []string{"", "a", "b", "ab", "z\x00z", "é"}
	lit := func(r modelRow) string {
		c := "NULL"
		if !r.null {
			c = fmt.Sprint(r.c)
		}
		return fmt.Sprintf("(%d, %d, '%s', %s)", r.k, r.a, strings.ReplaceAll(r.b, "\x00", ""), c)
	}
	randRow := func(k int) modelRow {
		return modelRow{k: k, a: rng.Intn(5), b: strings.ReplaceAll(words[rng.Intn(len(words))], "\x00", ""), c: float64(rng.Intn(7)) - 3, null: rng.Intn(4) == 0}
	}
	for step := 0; step < 400; step++ {
		k := rng.Intn(40)
		switch op := rng.Intn(7); op {
		case 0: // insert, maybe duplicate
			r := randRow(k)
			_, err := runSQL(context.Background(), sess, "INSERT INTO r VALUES "+lit(r))
			if _, exists := model[k]; exists {
				if pgerr.CodeOf(err) != pgerr.UniqueViolation {
					t.Fatalf("step %d: duplicate insert of %d: %v", step, k, err)
				}
			} else if err != nil {
				t.Fatalf("step %d: insert: %v", step, err)
			} else {
				model[k] = r
			}
		case 1: // update an indexed column by key
			a := rng.Intn(5)
			mustExec(t, sess, fmt.Sprintf("UPDATE r SET a = %d WHERE k = %d", a, k))
			if r, ok := model[k]; ok {
				r.a = a
				model[k] = r
			}
		case 2: // update a non-indexed-key but included column over a range
			mustExec(t, sess, fmt.Sprintf("UPDATE r SET c = c + 1 WHERE k >= %d AND k < %d", k, k+5))
			for kk, r := range model {
				if kk >= k && kk < k+5 && !r.null {
					r.c++
					model[kk] = r
				}
			}
		case 3: // move the primary key
			nk := 100 + rng.Intn(40)
			_, err := runSQL(context.Background(), sess, fmt.Sprintf("UPDATE r SET k = %d WHERE k = %d", nk, k))
			r, ok := model[k]
			_, taken := model[nk]
			switch {
			case ok && taken:
				if pgerr.CodeOf(err) != pgerr.UniqueViolation {
					t.Fatalf("step %d: pk move onto existing: %v", step, err)
				}
			case err != nil:
				t.Fatalf("step %d: pk move: %v", step, err)
			case ok:
				delete(model, k)
				r.k = nk
				model[nk] = r
			}
		case 4: // delete by secondary column
			a := rng.Intn(5)
			mustExec(t, sess, fmt.Sprintf("DELETE FROM r WHERE a = %d AND k < %d", a, k))
			for kk, r := range model {
				if r.a == a && kk < k {
					delete(model, kk)
				}
			}
		case 5: // upsert
			r := randRow(k)
			mustExec(t, sess, "INSERT INTO r VALUES "+lit(r)+" ON CONFLICT (k) DO UPDATE SET b = EXCLUDED.b, a = EXCLUDED.a")
			if old, ok := model[k]; ok {
				old.a, old.b = r.a, r.b
				model[k] = old
			} else {
				model[k] = r
			}
		case 6: // insert or ignore
			r := randRow(k)
			mustExec(t, sess, "INSERT INTO r VALUES "+lit(r)+" ON CONFLICT DO NOTHING")
			if _, ok := model[k]; !ok {
				model[k] = r
			}
		}
		if step%20 == 19 {
			compareModel(t, sess, model, step)
			checkConsistent(t, sess, "r")
		}
	}
	compareModel(t, sess, model, -1)
	checkConsistent(t, sess, "r")
	// Reads through each index agree with the model too.
	for a := 0; a < 5; a++ {
		got := mustExec(t, sess, fmt.Sprintf("SELECT k FROM r WHERE a = %d AND c > -10 ORDER BY k", a))
		var want []string
		for _, r := range sortedModel(model) {
			if r.a == a && !r.null {
				want = append(want, fmt.Sprint(r.k))
			}
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("a = %d: got %v, want %v", a, got, want)
		}
	}
}

func sortedModel(m map[int]modelRow) []modelRow {
	out := make([]modelRow, 0, len(m))
	for _, r := range m {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].k < out[j].k })
	return out
}

func compareModel(t *testing.T, sess wire.Session, model map[int]modelRow, step int) {
	t.Helper()
	got := mustExec(t, sess, "SELECT k, a, b, c FROM r ORDER BY k")
	var want []string
	for _, r := range sortedModel(model) {
		want = append(want, r.String())
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("after step %d the table differs from the model:\n got %v\nwant %v", step, got, want)
	}
}

// TestOnlineIndexBuild builds indexes while writers insert, update and
// delete; afterwards every index agrees with the table.
func TestOnlineIndexBuild(t *testing.T) {
	store := memStore(t)
	eng, sess := newSession(t, store)
	mustExec(t, sess, `CREATE TABLE o (k INT PRIMARY KEY, a INT, b TEXT) WITH (shards = 4)`)
	var sb strings.Builder
	for i := 0; i < 3000; i++ {
		if sb.Len() > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, "(%d, %d, 'v%d')", i, i%17, i)
		if i%500 == 499 {
			mustExec(t, sess, "INSERT INTO o VALUES "+sb.String())
			sb.Reset()
		}
	}
	stop := startWriters(t, eng, "o", 4000)
	mustExec(t, sess, `CREATE INDEX o_a ON o (a)`)
	mustExec(t, sess, `CREATE INDEX o_z ON o USING zorder (a, k)`)
	writes := stop()
	checkConsistent(t, sess, "o")
	t.Logf("%d writes ran during the index builds", writes)
}

// startWriters runs three sessions of random upserts, updates and deletes
// of table (k INT PRIMARY KEY, a INT, b TEXT), keys below keys, until the
// returned stop is called; stop fails the test unless some ran, and
// returns how many did.
func startWriters(t *testing.T, eng *session.Engine, table string, keys int) (stop func() int64) {
	var halt atomic.Bool
	var wg sync.WaitGroup
	var writes atomic.Int64
	for w := 0; w < 3; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			ws, err := eng.NewSession(context.Background(), wire.SessionParams{User: "w", Notice: func(*pgerr.Error) {}})
			if err != nil {
				t.Error(err)
				return
			}
			rng := rand.New(rand.NewSource(int64(w)))
			for !halt.Load() {
				k := rng.Intn(keys)
				var sql string
				switch rng.Intn(3) {
				case 0:
					sql = fmt.Sprintf("INSERT INTO %s VALUES (%d, %d, 'n%d') ON CONFLICT (k) DO UPDATE SET a = EXCLUDED.a", table, k, rng.Intn(17), k)
				case 1:
					sql = fmt.Sprintf("UPDATE %s SET a = %d, b = 'u%d' WHERE k = %d", table, rng.Intn(17), k, k)
				default:
					sql = fmt.Sprintf("DELETE FROM %s WHERE k = %d", table, k)
				}
				if _, err := runSQL(context.Background(), ws, sql); err != nil && pgerr.CodeOf(err) != pgerr.SerializationFailure {
					t.Errorf("%s: %v", sql, err)
					return
				}
				writes.Add(1)
			}
		}(w)
	}
	return func() int64 {
		halt.Store(true)
		wg.Wait()
		if writes.Load() == 0 {
			t.Fatal("no writes ran during the builds")
		}
		return writes.Load()
	}
}

// TestConcurrentIncrementsAreNotLost runs read-modify-write statements from
// several sessions on the same rows: every increment must survive, as in
// PostgreSQL, where the second writer waits and re-evaluates.
func TestConcurrentIncrementsAreNotLost(t *testing.T) {
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			store := be.open(t)
			defer store.Close()
			perWorker := 50
			if be.name != "pebble" {
				perWorker = 8 // every statement is several network round trips
			}
			concurrentIncrements(t, store, perWorker)
		})
	}
}

func concurrentIncrements(t *testing.T, store kv.Store, perWorker int) {
	eng, sess := newSession(t, store)
	mustExec(t, sess, `CREATE TABLE c (id INT PRIMARY KEY, n BIGINT NOT NULL, tag TEXT) WITH (shards = 2)`)
	mustExec(t, sess, `CREATE INDEX c_n ON c (n)`)
	mustExec(t, sess, `INSERT INTO c VALUES (1, 0, 'a'), (2, 0, 'b')`)
	const workers = 4
	statements := []string{
		`UPDATE c SET n = n + 1 WHERE id = 1`,
		`UPDATE c SET n = n + 1 WHERE tag = 'b'`, // found through a scan, not a point get
		`INSERT INTO c VALUES (3, 1, 'c') ON CONFLICT (id) DO UPDATE SET n = c.n + 1`,
	}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ws, err := eng.NewSession(context.Background(), wire.SessionParams{User: "w", Notice: func(*pgerr.Error) {}})
			if err != nil {
				t.Error(err)
				return
			}
			for i := 0; i < perWorker; i++ {
				for _, sql := range statements {
					if _, err := runSQL(context.Background(), ws, sql); err != nil {
						t.Errorf("%s: %v", sql, err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	got := mustExec(t, sess, `SELECT id, n FROM c ORDER BY id`)
	want := []string{fmt.Sprintf("1|%d", workers*perWorker), fmt.Sprintf("2|%d", workers*perWorker), fmt.Sprintf("3|%d", workers*perWorker)}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("after %d increments per row: %v, want %v", workers*perWorker, got, want)
	}
	checkConsistent(t, sess, "c")
}

// TestInterruptedBuildResumes leaves an index in state building, as a crash
// in the middle of CREATE INDEX would, and checks that the next engine over
// the store finishes it: the index becomes public and agrees with the table.
func TestInterruptedBuildResumes(t *testing.T) {
	store := memStore(t)
	eng, sess := newSession(t, store)
	mustExec(t, sess, `CREATE TABLE b (id INT PRIMARY KEY, v TEXT) WITH (shards = 2)`)
	mustExec(t, sess, `INSERT INTO b VALUES (1, 'x'), (2, 'y'), (3, 'z')`)
	ctx := context.Background()
	_, err := eng.Catalog().Update(ctx, func(s *catalog.Snapshot, version uint64) (catalog.Change, error) {
		tb, err := s.Table("b")
		if err != nil {
			return catalog.Change{}, err
		}
		nt := tb.Clone()
		nt.Indexes = append(nt.Indexes, &catalog.Index{ID: version, Name: "b_v", Kind: catalog.KindBTree,
			Columns: []catalog.KeyColumn{{Column: 1}}, Shards: 2, State: catalog.StateBuilding})
		return catalog.Change{Put: []*catalog.Table{nt}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	eng.WaitForBuilds()
	// The "restart": a new engine over the same store.
	eng2, sess2 := newSession(t, store)
	eng2.WaitForBuilds()
	got := mustExec(t, sess2, `SHOW INDEXES FROM b`)
	if len(got) != 2 || !strings.HasSuffix(got[1], "|public") {
		t.Fatalf("after the restart: %v", got)
	}
	checkConsistent(t, sess2, "b")
	if got := mustExec(t, sess2, `SELECT id FROM b WHERE v = 'y'`); strings.Join(got, ",") != "2" {
		t.Fatalf("through the resumed index: %v", got)
	}
}
