package session_test

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"sync"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// invertedSchema has a gin index of every operator class (trigrams
// included), a multicolumn one, an expression one and a partial one, over
// 3 shards.
var invertedSchema = []string{
	`CREATE TABLE inv (id INT PRIMARY KEY, doc JSONB, tags TEXT[], nums INT[], live BOOL, body TEXT) WITH (shards = 3)`,
	`CREATE INDEX inv_doc ON inv USING gin (doc)`,
	`CREATE INDEX inv_path ON inv USING gin (doc jsonb_path_ops)`,
	`CREATE INDEX inv_arrays ON inv USING gin (tags, nums)`,
	`CREATE INDEX inv_a ON inv USING gin ((doc -> 'a'))`,
	`CREATE INDEX inv_live ON inv USING gin (tags) WHERE live`,
	`CREATE INDEX inv_trgm ON inv USING gin (body gin_trgm_ops)`,
	`CREATE INDEX inv_fts ON inv USING gin (to_tsvector('simple', body))`,
}

// textWords and textSeps make the bodies: words that share trigrams, in
// both cases, a non-ASCII one (hashed trigrams), and separators that are
// and are not word characters.
var (
	textWords = []string{"fox", "Foxes", "quick", "quicker", "ab", "abc", "ÉTÉ", "été", "a1b2"}
	textSeps  = []string{" ", ", ", "-", "_", ""}
)

func (g invertedGen) text() string {
	var b strings.Builder
	for i := g.rng.Intn(4); i >= 0; i-- {
		b.WriteString(textWords[g.rng.Intn(len(textWords))])
		b.WriteString(textSeps[g.rng.Intn(len(textSeps))])
	}
	return b.String()
}

// pattern is a LIKE pattern: pieces of the words, wildcards, separators
// and an escaped wildcard.
func (g invertedGen) pattern() string {
	var b strings.Builder
	if g.rng.Intn(3) > 0 {
		b.WriteString("%")
	}
	for i := g.rng.Intn(3); i >= 0; i-- {
		w := textWords[g.rng.Intn(len(textWords))]
		from := g.rng.Intn(len(w))
		b.WriteString(w[from:])
		switch g.rng.Intn(5) {
		case 0:
			b.WriteString("_")
		case 1:
			b.WriteString(`\_`)
		case 2:
			b.WriteString(textSeps[g.rng.Intn(len(textSeps))])
		default:
			b.WriteString("%")
		}
	}
	return strings.ReplaceAll(b.String(), "'", "''")
}

// tsquery is a text search query over the bodies' words: lexemes (some
// prefix matches), negations, AND, OR and phrases.
func (g invertedGen) tsquery(depth int) string {
	if depth > 2 || g.rng.Intn(3) == 0 {
		w := strings.ToLower(textWords[g.rng.Intn(len(textWords))])
		if g.rng.Intn(4) == 0 {
			w = w[:1+g.rng.Intn(len(w))] + ":*"
		}
		if g.rng.Intn(6) == 0 {
			return "!" + w
		}
		return w
	}
	op := []string{" & ", " | ", " <-> ", " & !"}[g.rng.Intn(4)]
	return "(" + g.tsquery(depth+1) + op + g.tsquery(depth+1) + ")"
}

// invertedGen draws documents, arrays and predicates from small domains,
// so that predicates match some rows and tokens repeat across rows.
type invertedGen struct{ rng *rand.Rand }

func (g invertedGen) scalar() string {
	switch g.rng.Intn(6) {
	case 0:
		return fmt.Sprint(g.rng.Intn(3))
	case 1:
		return []string{"1.0", "2.50", "-0"}[g.rng.Intn(3)]
	case 2:
		return []string{"true", "false", "null"}[g.rng.Intn(3)]
	}
	return fmt.Sprintf("%q", []string{"a", "b", "x", "y"}[g.rng.Intn(4)])
}

func (g invertedGen) json(depth int) string {
	if depth > 2 {
		return g.scalar()
	}
	switch g.rng.Intn(4) {
	case 0:
		return g.scalar()
	case 1:
		var elems []string
		for i := g.rng.Intn(3); i > 0; i-- {
			elems = append(elems, g.json(depth+1))
		}
		return "[" + strings.Join(elems, ", ") + "]"
	}
	var fields []string
	for i := g.rng.Intn(3); i > 0; i-- {
		fields = append(fields, fmt.Sprintf("%q: %s", []string{"a", "b", "c", "x"}[g.rng.Intn(4)], g.json(depth+1)))
	}
	return "{" + strings.Join(fields, ", ") + "}"
}

func (g invertedGen) array(elems []string) string {
	if g.rng.Intn(8) == 0 {
		return "NULL"
	}
	var out []string
	for i := g.rng.Intn(4); i > 0; i-- {
		out = append(out, elems[g.rng.Intn(len(elems))])
	}
	return "'{" + strings.Join(out, ",") + "}'"
}

func (g invertedGen) row(id int) string {
	doc := "'" + g.json(0) + "'"
	if g.rng.Intn(8) == 0 {
		doc = "NULL"
	}
	body := "'" + g.text() + "'"
	if g.rng.Intn(10) == 0 {
		body = "NULL"
	}
	return fmt.Sprintf("(%d, %s, %s, %s, %v, %s)", id, doc, g.array([]string{"x", "y", "z", "NULL"}), g.array([]string{"1", "2", "3"}), g.rng.Intn(2) == 0, body)
}

func (g invertedGen) predicate() string {
	keys := []string{"a", "b", "x", "zz"}
	switch g.rng.Intn(20) {
	case 18, 19:
		// jsonpath equalities, which read @>'s posting lists.
		k1, k2, s := keys[g.rng.Intn(len(keys))], keys[g.rng.Intn(len(keys))], g.scalar()
		mode := []string{"", "strict ", "lax "}[g.rng.Intn(3)]
		return fmt.Sprintf([]string{
			"doc @@ '%[1]s$.%[2]s == %[4]s'", "doc @@ '%[1]s$.%[2]s.%[3]s == %[4]s'", "doc @@ '%[1]s%[4]s == $.%[2]s'",
			"doc @? '%[1]s$.%[2]s ? (@ == %[4]s)'", "doc @? '%[1]s$ ? (@.%[2]s.%[3]s == %[4]s)'", "doc @? '%[1]s$.%[2]s ? (@.%[3]s == %[4]s)'",
		}[g.rng.Intn(6)], mode, k1, k2, s)
	case 15, 16, 17:
		return fmt.Sprintf("to_tsvector('simple', body) @@ to_tsquery('simple', '%s')", strings.ReplaceAll(g.tsquery(0), "'", "''"))
	case 12:
		return fmt.Sprintf("body LIKE '%s'", g.pattern())
	case 13:
		return fmt.Sprintf("body ILIKE '%s'", g.pattern())
	case 14:
		return fmt.Sprintf("body = '%s'", g.text())
	case 0, 1:
		return fmt.Sprintf("doc @> '%s'", g.json(0))
	case 2:
		return fmt.Sprintf("'%s' <@ doc", g.json(1))
	case 3:
		return fmt.Sprintf("doc ? '%s'", keys[g.rng.Intn(len(keys))])
	case 4:
		return fmt.Sprintf("doc ?| array['%s', '%s']", keys[g.rng.Intn(len(keys))], keys[g.rng.Intn(len(keys))])
	case 5:
		return fmt.Sprintf("doc ?& array['%s', '%s']", keys[g.rng.Intn(len(keys))], keys[g.rng.Intn(len(keys))])
	case 6:
		return fmt.Sprintf("tags @> %s", g.array([]string{"x", "y", "z"}))
	case 7:
		return fmt.Sprintf("tags && %s", g.array([]string{"x", "y", "z", "NULL"}))
	case 8:
		return fmt.Sprintf("nums <@ %s", g.array([]string{"1", "2", "3"}))
	case 9:
		return fmt.Sprintf("nums = %s", g.array([]string{"1", "2"}))
	case 10:
		return fmt.Sprintf("doc -> 'a' @> '%s'", g.scalar())
	}
	return fmt.Sprintf("(%s OR %s) AND live", "tags @> '{x}'", fmt.Sprintf("doc @> '%s'", g.json(1)))
}

// TestInvertedScansMatchFullScans is a property test against brute force:
// random rows, random writes, and random predicates the gin indexes serve;
// every query answers through its inverted scan exactly what a full scan
// of the table answers, and every index holds exactly the entries a build
// from scratch would (ADMIN CHECK TABLE), with the lists packed into
// blocks now and again between the writes.
func TestInvertedScansMatchFullScans(t *testing.T) {
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel() // the stores are the legs' own: DynamoDB Local's round trips overlap Pebble's work
			_, sess := newSession(t, be.open(t))
			for _, ddl := range invertedSchema {
				mustExec(t, sess, ddl)
			}
			g := invertedGen{rand.New(rand.NewSource(11))}
			ctx := context.Background()
			var rows []string
			for id := 0; id < 60; id++ {
				rows = append(rows, g.row(id))
			}
			mustExec(t, sess, "INSERT INTO inv VALUES "+strings.Join(rows, ", "))
			// The lists are packed into blocks now and again (VACUUM), so
			// the queries read blocks, removals and added postings
			// together (catalog/postings.go).
			mustExec(t, sess, "VACUUM inv")
			inverted, steps := 0, 200
			if be.name == "dynamodb" {
				steps = 60 // every request is a round trip to DynamoDB Local
			}
			for step := 0; step < steps; step++ {
				id := g.rng.Intn(80)
				var write string
				switch g.rng.Intn(4) {
				case 0:
					write = fmt.Sprintf("INSERT INTO inv VALUES %s ON CONFLICT (id) DO UPDATE SET doc = excluded.doc, tags = excluded.tags", g.row(id))
				case 1:
					write = fmt.Sprintf("UPDATE inv SET doc = doc || '{\"x\": 1}', nums = array_append(nums, %d) WHERE id %% 7 = %d", g.rng.Intn(4), id%7)
				case 2:
					write = fmt.Sprintf("DELETE FROM inv WHERE id = %d", id)
				default:
					write = fmt.Sprintf("UPDATE inv SET live = NOT live, tags = %s, body = body || '%s' WHERE id = %d", g.array([]string{"x", "y"}), g.text(), id)
				}
				if _, err := runSQL(ctx, sess, write); err != nil {
					t.Fatalf("step %d: %s: %v", step, write, err)
				}
				pred := g.predicate()
				q := "SELECT id FROM inv WHERE " + pred + " ORDER BY id"
				plan := strings.Join(mustExec(t, sess, "EXPLAIN "+q), "\n")
				if strings.Contains(plan, "inverted scan") {
					inverted++
				}
				got := mustExec(t, sess, q)
				want := withoutIndexReads(t, sess, func() []string { return mustExec(t, sess, q) })
				if strings.Join(got, ",") != strings.Join(want, ",") {
					t.Fatalf("step %d: %s\nthrough the index: %v\nfull scan:         %v\nplan:\n%s", step, pred, got, want, plan)
				}
				if step%10 == 0 {
					checkConsistent(t, sess, "inv")
				}
				if step%25 == 24 {
					mustExec(t, sess, "VACUUM inv")
				}
			}
			checkConsistent(t, sess, "inv")
			t.Logf("%d of %d queries used an inverted scan", inverted, steps)
			if inverted < steps/2 {
				t.Fatalf("only %d of %d queries used an inverted scan", inverted, steps)
			}
		})
	}
}

// TestJSONPathInvertedScan: a gin index of either jsonb operator class
// serves @@ and @? with a path equality ($.a.b == c, $.a ? (@.b == c)),
// lax or strict, reading @>'s posting lists with the operator kept as the
// filter; other paths are filters over every row. (The expected rows are
// PostgreSQL 15's.)
func TestJSONPathInvertedScan(t *testing.T) {
	for _, opclass := range []string{"", " jsonb_path_ops"} {
		_, sess := newSession(t, backends(t)[0].open(t))
		mustExec(t, sess, `CREATE TABLE jd (id INT PRIMARY KEY, doc JSONB)`)
		mustExec(t, sess, `CREATE INDEX jd_doc ON jd USING gin (doc`+opclass+`)`)
		mustExec(t, sess, `INSERT INTO jd VALUES (1, '{"a": 1}'), (2, '{"a": [1, 2]}'), (3, '[{"a": {"b": "x"}}]'), (4, '{"a": {"b": ["x"]}}'), (5, '{"a": "1"}'), (6, '{"b": 1}'), (7, NULL)`)
		for _, c := range []struct {
			pred    string
			indexed bool
			want    string
		}{
			{`doc @@ '$.a == 1'`, true, "1,2"},
			{`doc @@ 'strict $.a == 1'`, true, "1"},
			{`doc @@ '1 == $.a'`, true, "1,2"},
			{`doc @@ '$.a.b == "x"'`, true, "3,4"},
			{`doc @? '$.a ? (@ == 1)'`, true, "1,2"},
			{`doc @? '$ ? (@.a.b == "x")'`, true, "3,4"},
			{`doc @? 'strict $.a ? (@.b == "x")'`, true, ""}, // strict: ["x"] is no string
			{`doc @@ '$.a > 1'`, false, "2"},
			{`doc @? '$.a'`, false, "1,2,3,4,5"},
		} {
			q := "SELECT id FROM jd WHERE " + c.pred + " ORDER BY id"
			plan := strings.Join(mustExec(t, sess, "EXPLAIN "+q), "\n")
			if strings.Contains(plan, "inverted scan") != c.indexed {
				t.Errorf("%s%s: inverted scan %v, want %v:\n%s", c.pred, opclass, !c.indexed, c.indexed, plan)
			}
			got := strings.Join(mustExec(t, sess, q), ",")
			want := strings.Join(withoutIndexReads(t, sess, func() []string { return mustExec(t, sess, q) }), ",")
			if got != c.want || want != c.want {
				t.Errorf("%s%s: got %s (full scan %s), want %s", c.pred, opclass, got, want, c.want)
			}
		}
	}
}

// TestInvertedArrayRecheck: an array's @> and && (the constant on either
// side, in a custom or a generic plan) are decided by the posting lists
// alone, as PostgreSQL's gin reports no recheck for them, so the scan has
// no residual filter; <@ and = need the row's other elements and keep it.
// Either way the rows are a full scan's.
func TestInvertedArrayRecheck(t *testing.T) {
	_, sess := newSession(t, backends(t)[0].open(t))
	mustExec(t, sess, `CREATE TABLE ar (id INT PRIMARY KEY, tags TEXT[], nums INT[])`)
	mustExec(t, sess, `CREATE INDEX ar_tags ON ar USING gin (tags)`)
	mustExec(t, sess, `CREATE INDEX ar_nums ON ar USING gin (nums)`)
	mustExec(t, sess, `INSERT INTO ar VALUES (1, '{x,y}', '{1,2}'), (2, '{y,z}', '{2,3}'), (3, '{}', '{}'), (4, NULL, NULL), (5, '{x,NULL}', '{1,NULL}'), (6, '{z,z}', '{3,3}'), (7, '{{x,y},{z,w}}', '{{1,2},{3,4}}')`)
	mustExec(t, sess, `PREPARE contains(text[]) AS SELECT id FROM ar WHERE tags @> $1 ORDER BY id`)
	for i := 0; i < 6; i++ { // the sixth execution plans generically
		mustExec(t, sess, `EXECUTE contains('{x}')`)
	}
	for _, c := range []struct {
		query   string
		recheck bool
		want    string
	}{
		{`SELECT id FROM ar WHERE tags @> '{x}' ORDER BY id`, false, "1,5,7"},
		{`SELECT id FROM ar WHERE tags @> '{x,y}' ORDER BY id`, false, "1,7"},
		{`SELECT id FROM ar WHERE '{z}' <@ tags ORDER BY id`, false, "2,6,7"},
		{`SELECT id FROM ar WHERE tags && '{z,w}' ORDER BY id`, false, "2,6,7"},
		{`SELECT id FROM ar WHERE '{q,x}' && tags ORDER BY id`, false, "1,5,7"},
		{`SELECT id FROM ar WHERE nums @> '{3}' AND tags && '{z}' ORDER BY id`, true, "2,6,7"}, // nums @> by the filter
		{`EXECUTE contains('{y}')`, false, "1,2,7"},
		{`SELECT id FROM ar WHERE tags <@ '{x,y}' ORDER BY id`, true, "1,3"},
		{`SELECT id FROM ar WHERE '{z}' @> tags ORDER BY id`, true, "3,6"},
		{`SELECT id FROM ar WHERE tags = '{z,z}' ORDER BY id`, true, "6"},
	} {
		plan := strings.Join(mustExec(t, sess, "EXPLAIN "+c.query), "\n")
		if !strings.Contains(plan, "inverted scan") || strings.Contains(plan, "residual filter") != c.recheck {
			t.Errorf("%s: want an inverted scan, recheck %v:\n%s", c.query, c.recheck, plan)
		}
		got := strings.Join(mustExec(t, sess, c.query), ",")
		if got != c.want {
			t.Errorf("%s: got %s, want %s", c.query, got, c.want)
		}
		if !strings.HasPrefix(c.query, "EXECUTE") {
			full := strings.Join(withoutIndexReads(t, sess, func() []string { return mustExec(t, sess, c.query) }), ",")
			if full != c.want {
				t.Errorf("%s: full scan %s, want %s", c.query, full, c.want)
			}
		}
	}
}

// TestPackingBesideWriters: VACUUM packs a gin index's lists over and
// over while sessions change the rows' tags, each write a transaction of
// a few statements; whichever wins a conflict on a key both write, the
// lists stay exact: every tag's query through the index answers what a
// full scan does, and CHECK TABLE finds every posting and no other.
func TestPackingBesideWriters(t *testing.T) {
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			eng, sess := newSession(t, be.open(t))
			mustExec(t, sess, `CREATE TABLE tagged (id INT PRIMARY KEY, tags TEXT[]) WITH (shards = 2)`)
			mustExec(t, sess, `INSERT INTO tagged SELECT i, ARRAY['t' || (i % 5), 'all'] FROM generate_series(0, 59) i`)
			mustExec(t, sess, `CREATE INDEX tagged_tags ON tagged USING gin (tags)`)
			steps := 40
			if be.name == "dynamodb" {
				steps = 12
			}
			ctx := context.Background()
			var wg sync.WaitGroup
			done := make(chan struct{})
			errs := make(chan error, 8)
			for w := range 3 {
				ws := openSession(t, eng)
				wg.Add(1)
				go func() {
					defer wg.Done()
					rng := rand.New(rand.NewSource(int64(w)))
					for range steps {
						id := rng.Intn(70)
						stmts := []string{"BEGIN",
							fmt.Sprintf("UPDATE tagged SET tags = ARRAY['t%d', 't%d'] WHERE id = %d", rng.Intn(5), rng.Intn(5), id),
							fmt.Sprintf("INSERT INTO tagged VALUES (%d, '{t%d,all}') ON CONFLICT (id) DO UPDATE SET tags = array_append(tagged.tags, 'x')", rng.Intn(70), rng.Intn(5)),
							fmt.Sprintf("DELETE FROM tagged WHERE id = %d", rng.Intn(70)),
							"COMMIT"}
						for _, q := range stmts {
							if _, err := runSQL(ctx, ws, q); err != nil {
								// A conflict with another writer (40001, 40P01)
								// ends the transaction; the next begins anew.
								if code := pgerr.CodeOf(err); code != pgerr.SerializationFailure && code != pgerr.DeadlockDetected {
									errs <- fmt.Errorf("%s: %w", q, err)
									return
								}
								runSQL(ctx, ws, "ROLLBACK")
								break
							}
						}
					}
				}()
			}
			packer := openSession(t, eng)
			packs := 0
			go func() { wg.Wait(); close(done) }()
		loop:
			for {
				select {
				case <-done:
					break loop
				default:
				}
				if _, err := runSQL(ctx, packer, "VACUUM tagged"); err != nil {
					t.Fatalf("VACUUM beside the writers: %v", err)
				}
				packs++
			}
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
			check := func(when string) {
				checkConsistent(t, sess, "tagged")
				for _, tag := range []string{"t0", "t1", "t2", "t3", "t4", "all", "x"} {
					q := fmt.Sprintf("SELECT id FROM tagged WHERE tags @> '{%s}' ORDER BY id", tag)
					got := mustExec(t, sess, q)
					want := withoutIndexReads(t, sess, func() []string { return mustExec(t, sess, q) })
					if strings.Join(got, ",") != strings.Join(want, ",") {
						t.Fatalf("%s, tag %s: through the index %v, full scan %v", when, tag, got, want)
					}
				}
			}
			check("after the writers")
			mustExec(t, sess, "VACUUM tagged")
			check("packed again")
			t.Logf("%d packings beside the writers", packs)
		})
	}
}

// TestPackingUnderOlderSnapshot: a REPEATABLE READ transaction that read
// a gin index's list reads the same rows from it again after another
// session changed the rows and packed the list (on DynamoDB, removing the
// tombstones of what it rewrote), or fails with 40001; it never reads a
// list that is neither its snapshot's nor the new one.
func TestPackingUnderOlderSnapshot(t *testing.T) {
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			eng, sess := newSession(t, be.open(t))
			mustExec(t, sess, `CREATE TABLE snapped (id INT PRIMARY KEY, tags TEXT[])`)
			mustExec(t, sess, `INSERT INTO snapped SELECT i, ARRAY['t' || (i % 3)] FROM generate_series(0, 299) i`)
			mustExec(t, sess, `CREATE INDEX snapped_tags ON snapped USING gin (tags)`)
			ctx := context.Background()
			q := "SELECT id FROM snapped WHERE tags @> '{t1}' ORDER BY id"
			big := "SELECT id FROM snapped WHERE tags @> '{big}' ORDER BY id"
			for _, c := range []struct{ query, setup, pin, change string }{
				{q, "", q, "DELETE FROM snapped WHERE id % 2 = 1"},
				{q, "", q, "UPDATE snapped SET tags = '{t2}' WHERE id < 150"},
				{q, "", q, "INSERT INTO snapped SELECT i, '{t1}' FROM generate_series(300, 399) i"},
				// The rows of the last of three blocks leave the list
				// after the snapshot: the packing keeps the first two
				// blocks as they are and deletes the third, whose
				// tombstone it removes; only its stamp tells a reader
				// that had not read the list before (and whose snapshot
				// cannot move past the change: it read one of the rows)
				// that the list changed.
				{big, "INSERT INTO snapped SELECT i, '{big}' FROM generate_series(1000, 1599) i; VACUUM snapped",
					"SELECT tags FROM snapped WHERE id = 1599", "UPDATE snapped SET tags = '{t0}' WHERE id >= 1512"},
			} {
				q := c.query
				for _, setup := range strings.Split(c.setup, "; ") {
					if setup != "" {
						mustExec(t, sess, setup)
					}
				}
				before := mustExec(t, sess, q)
				reader := openSession(t, eng)
				mustExec(t, reader, "BEGIN ISOLATION LEVEL REPEATABLE READ")
				mustExec(t, reader, c.pin)
				mustExec(t, sess, c.change)
				mustExec(t, sess, "VACUUM snapped")
				after, err := runSQL(ctx, reader, q)
				switch {
				case pgerr.CodeOf(err) == pgerr.SerializationFailure:
				case err != nil:
					t.Fatalf("%s: %v", c.change, err)
				case strings.Join(after, ",") != strings.Join(before, ","):
					t.Fatalf("%s: the snapshot had %d rows, its read found %d", c.change, len(before), len(after))
				}
				runSQL(ctx, reader, "ROLLBACK")
				checkConsistent(t, sess, "snapped")
			}
		})
	}
}
