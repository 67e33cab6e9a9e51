package session_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/wire"
)

// TestMergeTags: MERGE is tagged MERGE n, n the rows it inserted, updated
// and deleted (DO NOTHING's and untouched rows not counted), as
// PostgreSQL 15 tags it (the script suite checks rows and errors, not
// tags); so is EXPLAIN ANALYZE's run of it, which writes.
func TestMergeTags(t *testing.T) {
	ctx := context.Background()
	_, sess := newSession(t, memStore(t))
	for _, c := range []struct{ sql, tag string }{
		{"CREATE TABLE t (id int PRIMARY KEY, v int)", "CREATE TABLE"},
		{"INSERT INTO t VALUES (1, 1), (2, 2), (3, 3)", "INSERT 0 3"},
		{"MERGE INTO t USING (VALUES (1), (2), (3), (4), (5)) AS s(id) ON t.id = s.id " +
			"WHEN MATCHED AND s.id = 1 THEN DO NOTHING WHEN MATCHED AND s.id = 2 THEN DELETE WHEN MATCHED THEN UPDATE SET v = 0 " +
			"WHEN NOT MATCHED AND s.id = 4 THEN INSERT VALUES (s.id, 4)", "MERGE 3"},
		{"MERGE INTO t USING (VALUES (9)) AS s(id) ON t.id = s.id WHEN MATCHED THEN DELETE", "MERGE 0"},
		{"SELECT id, v FROM t ORDER BY id", "SELECT 3"},
	} {
		tag, err := runTag(ctx, sess, c.sql)
		if err != nil {
			t.Fatalf("%s: %v", c.sql, err)
		}
		if tag != c.tag {
			t.Errorf("%s: tag %q, want %q", c.sql, tag, c.tag)
		}
	}
}

// TestMergePrivilegesMatchPlainStatements: under random grants on the
// target (table and column privileges) and the source, a MERGE is allowed
// exactly when the plain statements asking for the same privileges are:
// the SELECTs of the columns it reads and the INSERT, UPDATE (of the
// columns it sets) and DELETE of the actions its clauses name. A MERGE
// never lets a role read or write what SELECT, INSERT, UPDATE and DELETE
// would refuse it, nor is refused what they would allow.
func TestMergePrivilegesMatchPlainStatements(t *testing.T) {
	ctx := context.Background()
	_, sess := newSession(t, memStore(t))
	for _, q := range []string{
		"CREATE TABLE tgt (id int PRIMARY KEY, a int, b int)",
		"CREATE TABLE src (id int, a int)",
		"INSERT INTO tgt VALUES (1, 1, 1), (2, 2, 2)",
		"INSERT INTO src VALUES (1, 10), (3, 30)",
		"CREATE ROLE mr",
	} {
		if _, err := runSQL(ctx, sess, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	grants := []string{
		"SELECT ON tgt", "INSERT ON tgt", "UPDATE ON tgt", "DELETE ON tgt",
		"SELECT (id) ON tgt", "SELECT (a) ON tgt", "SELECT (b) ON tgt",
		"UPDATE (a) ON tgt", "UPDATE (b) ON tgt", "INSERT (id) ON tgt", "INSERT (id, a) ON tgt",
		"SELECT ON src", "SELECT (id) ON src",
	}
	// Each MERGE with the plain statements asking for its privileges.
	merges := []struct {
		merge string
		plain []string
	}{
		{"MERGE INTO tgt t USING src s ON t.id = s.id WHEN MATCHED THEN UPDATE SET a = s.a",
			[]string{"SELECT t.id FROM tgt t", "SELECT s.id, s.a FROM src s", "UPDATE tgt SET a = 0 WHERE false"}},
		{"MERGE INTO tgt t USING src s ON t.id = s.id WHEN MATCHED AND t.b > 0 THEN UPDATE SET b = t.a + 1",
			[]string{"SELECT t.id, t.a, t.b FROM tgt t", "SELECT s.id FROM src s", "UPDATE tgt SET b = 0 WHERE false"}},
		{"MERGE INTO tgt t USING src s ON t.id = s.id WHEN MATCHED THEN DELETE",
			[]string{"SELECT t.id FROM tgt t", "SELECT s.id FROM src s", "DELETE FROM tgt WHERE false"}},
		{"MERGE INTO tgt t USING src s ON t.id = s.id WHEN NOT MATCHED THEN INSERT (id) VALUES (s.id)",
			[]string{"SELECT t.id FROM tgt t", "SELECT s.id FROM src s", "INSERT INTO tgt (id) SELECT 1 WHERE false"}},
		{"MERGE INTO tgt t USING src s ON t.id = s.id WHEN NOT MATCHED AND s.a > 0 THEN INSERT (id, a) VALUES (s.id, s.a) WHEN MATCHED THEN DO NOTHING",
			[]string{"SELECT t.id FROM tgt t", "SELECT s.id, s.a FROM src s", "INSERT INTO tgt (id, a) SELECT 1, 1 WHERE false"}},
		{"MERGE INTO tgt t USING src s ON t.id = s.id WHEN MATCHED AND false THEN DELETE WHEN MATCHED THEN UPDATE SET a = 0 WHEN NOT MATCHED THEN INSERT VALUES (s.id, 0, 0)",
			[]string{"SELECT t.id FROM tgt t", "SELECT s.id FROM src s", "DELETE FROM tgt WHERE false", "UPDATE tgt SET a = 0 WHERE false", "INSERT INTO tgt SELECT 1, 1, 1 WHERE false"}},
		{"MERGE INTO tgt t USING (SELECT id FROM src) AS s ON t.id = s.id AND t.b IS NOT NULL WHEN NOT MATCHED THEN DO NOTHING",
			[]string{"SELECT t.id, t.b FROM tgt t", "SELECT s.id FROM src s"}},
	}
	allowed := func(q string) bool {
		_, err := runSQL(ctx, sess, q)
		if err != nil && pgerr.CodeOf(err) != pgerr.InsufficientPrivilege {
			t.Fatalf("%s: %v", q, err)
		}
		return err == nil
	}
	must := func(q string) {
		if _, err := runSQL(ctx, sess, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	seen := make([][2]int, len(merges)) // by MERGE: refused, allowed
	for round := 0; round < 150; round++ {
		must("REVOKE ALL ON tgt, src FROM mr")
		var held []string
		for _, g := range grants {
			if rng.IntN(3) == 0 {
				held = append(held, g)
				must("GRANT " + g + " TO mr")
			}
		}
		for i, m := range merges {
			must("SET ROLE mr")
			want := true
			for _, p := range m.plain {
				want = want && allowed(p)
			}
			must("BEGIN")
			got := allowed(m.merge)
			must("ROLLBACK")
			must("RESET ROLE")
			if got != want {
				t.Fatalf("grants %v: %s allowed %v, the plain statements %v", held, m.merge, got, want)
			}
			if got {
				seen[i][1]++
			} else {
				seen[i][0]++
			}
		}
	}
	for i, s := range seen {
		if s[0] == 0 || s[1] == 0 {
			t.Errorf("%s: refused %d times, allowed %d: the grants drawn do not test it", merges[i].merge, s[0], s[1])
		}
	}
}

// TestMergeRandomAgainstModel runs random MERGEs (updates, deletes and
// inserts decided per source row) against a model of the table: after each
// the rows, the tag's count and reads through the secondary indexes agree
// with the model, and ADMIN CHECK TABLE finds every index exact.
func TestMergeRandomAgainstModel(t *testing.T) {
	_, sess := newSession(t, memStore(t))
	ctx := context.Background()
	mustExec(t, sess, "CREATE TABLE m (k int PRIMARY KEY, a int NOT NULL, b text)")
	mustExec(t, sess, "CREATE INDEX m_a ON m (a)")
	mustExec(t, sess, "CREATE INDEX m_b ON m (b, a)")
	type row struct {
		a int
		b string
	}
	model := map[int]row{}
	rng := rand.New(rand.NewPCG(7, 8))
	for step := 0; step < 60; step++ {
		var vals []string
		count := 0
		next := map[int]row{}
		for k, r := range model {
			next[k] = r
		}
		for _, k := range rng.Perm(30)[:1+rng.IntN(12)] {
			op, a := []string{"d", "u", "i"}[rng.IntN(3)], rng.IntN(5)
			vals = append(vals, fmt.Sprintf("(%d, '%s', %d)", k, op, a))
			r, ok := model[k]
			switch {
			case ok && op == "d":
				delete(next, k)
				count++
			case ok:
				next[k] = row{a: a, b: r.b + "u"}
				count++
			case op != "d":
				next[k] = row{a: a, b: "n"}
				count++
			}
		}
		q := "MERGE INTO m USING (VALUES " + strings.Join(vals, ", ") + ") AS s(k, op, a) ON m.k = s.k " +
			"WHEN MATCHED AND s.op = 'd' THEN DELETE WHEN MATCHED THEN UPDATE SET a = s.a, b = m.b || 'u' " +
			"WHEN NOT MATCHED AND s.op <> 'd' THEN INSERT VALUES (s.k, s.a, 'n')"
		tag, err := runTag(ctx, sess, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if want := fmt.Sprintf("MERGE %d", count); tag != want {
			t.Fatalf("%s: tag %q, want %q", q, tag, want)
		}
		model = next
		var want []string
		for k, r := range model {
			want = append(want, fmt.Sprintf("%d|%d|%s", k, r.a, r.b))
		}
		sort.Strings(want)
		got := mustExec(t, sess, "SELECT k, a, b FROM m ORDER BY k::text")
		sort.Strings(got)
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("after %s:\n got %v\nwant %v", q, got, want)
		}
		for a := 0; a < 5; a++ {
			n := 0
			for _, r := range model {
				if r.a == a {
					n++
				}
			}
			if got := mustExec(t, sess, fmt.Sprintf("SELECT count(*) FROM m WHERE a = %d", a)); got[0] != fmt.Sprint(n) {
				t.Fatalf("after %s: %s rows with a = %d through the index, want %d", q, got[0], a, n)
			}
		}
	}
	checkConsistent(t, sess, "m")
}

// TestConcurrentMergeUpsertsAreNotLost: sessions counting with MERGE
// (update when the row is there, insert when not) lose no increment; a
// MERGE that loses a race to another's insert of the same key fails with
// 23505 (as PostgreSQL's may) or 40001, and is retried.
func TestConcurrentMergeUpsertsAreNotLost(t *testing.T) {
	eng, sess := newSession(t, memStore(t))
	mustExec(t, sess, "CREATE TABLE ctr (k int PRIMARY KEY, n int NOT NULL)")
	mustExec(t, sess, "CREATE INDEX ctr_n ON ctr (n)")
	var wg sync.WaitGroup
	var done atomic.Int64
	for w := 0; w < 3; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			ws, err := eng.NewSession(context.Background(), wire.SessionParams{User: "test", Notice: func(*pgerr.Error) {}})
			if err != nil {
				t.Error(err)
				return
			}
			defer ws.Close()
			rng := rand.New(rand.NewPCG(uint64(w), 9))
			for i := 0; i < 40; i++ {
				q := fmt.Sprintf("MERGE INTO ctr c USING (VALUES (%d)) AS s(k) ON c.k = s.k "+
					"WHEN MATCHED THEN UPDATE SET n = c.n + 1 WHEN NOT MATCHED THEN INSERT VALUES (s.k, 1)", rng.IntN(4))
				for {
					_, err := runSQL(context.Background(), ws, q)
					if c := pgerr.CodeOf(err); err != nil && (c == pgerr.SerializationFailure || c == pgerr.UniqueViolation) {
						continue
					}
					if err != nil {
						t.Errorf("%s: %v", q, err)
						return
					}
					done.Add(1)
					break
				}
			}
		}(w)
	}
	wg.Wait()
	if got := mustExec(t, sess, "SELECT sum(n) FROM ctr"); got[0] != fmt.Sprint(done.Load()) {
		t.Fatalf("sum %s, want %d", got[0], done.Load())
	}
	checkConsistent(t, sess, "ctr")
}
