package session_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/kv"
	zdynamo "github.com/zproxy/zproxy/kv/dynamodb"
)

// explainShape keeps what must not depend on the backend: the operator
// tree and the rule that chose the access path. Key ranges, ANALYZE's
// figures and the Z-order method (skip-scan on an embedded store, budgeted
// ranges where each range is a request) legitimately differ.
func explainShape(lines []string) []string {
	var out []string
	for _, l := range lines {
		t, _, _ := strings.Cut(strings.TrimSpace(l), "  (actual ") // ANALYZE's figures
		// Costs weigh requests by the store's latency: the shape is the rest.
		t = planCost.ReplaceAllString(t, "")
		switch {
		case strings.HasPrefix(t, "Execution: ") || strings.HasPrefix(t, "Capacity consumed: "):
		case strings.HasPrefix(t, "why: "):
			rule, _, _ := strings.Cut(t, ":")
			rest := strings.TrimPrefix(t, rule+": ")
			r, _, _ := strings.Cut(rest, ":")
			out = append(out, "why: "+r)
		case strings.Contains(t, ": ") && !strings.HasPrefix(t, "->") && !strings.HasPrefix(t, "Scan") &&
			!strings.HasPrefix(t, "Limit") && !strings.HasPrefix(t, "TopN"):
			// a detail line
		default:
			out = append(out, strings.ReplaceAll(t, "z-order ranges", "z-order skip-scan"))
		}
	}
	return out
}

// TestExplainShapesMatchAcrossBackends plans the same queries over the same
// schema on every backend and compares the plans' shapes.
func TestExplainShapesMatchAcrossBackends(t *testing.T) {
	bes := backends(t)
	if len(bes) < 2 {
		t.Skip("needs DynamoDB Local as well as Pebble (DYNAMODB_ENDPOINT)")
	}
	setup := []string{
		`CREATE TABLE readings (sensor_id BIGINT NOT NULL, ts TIMESTAMP NOT NULL, celsius DOUBLE PRECISION,
			lat DOUBLE PRECISION, lon DOUBLE PRECISION, note TEXT, PRIMARY KEY (sensor_id, ts DESC)) WITH (shards = 4)`,
		`CREATE INDEX by_note ON readings (note, ts DESC) INCLUDE (celsius)`,
		`CREATE INDEX by_place ON readings USING zorder (lat, lon, ts) INCLUDE (celsius, note) WITH (shards = 8)`,
		`INSERT INTO readings VALUES (1, '2024-01-01', 20, 40.7, -73.9, 'a'), (2, '2024-01-02', 21, 40.8, -74, 'b')`,
	}
	queries := []string{
		`SELECT * FROM readings WHERE sensor_id = 1 AND ts = '2024-01-01'`,
		`SELECT * FROM readings WHERE sensor_id IN (1, 2) AND ts = '2024-01-01'`,
		`SELECT * FROM readings WHERE sensor_id = 1 ORDER BY ts DESC LIMIT 10`,
		`SELECT celsius FROM readings WHERE note = 'a'`,
		`SELECT lat FROM readings WHERE note = 'a'`,
		`SELECT count(*), avg(celsius) FROM readings WHERE lat BETWEEN 40.5 AND 40.9 AND lon BETWEEN -74.1 AND -73.7`,
		`SELECT sensor_id FROM readings WHERE lat BETWEEN 40.5 AND 40.9 ORDER BY ts DESC LIMIT 5`,
		`SELECT count(*) FROM readings WHERE celsius > 20`,
		`SELECT /*+ USE_INDEX(readings, by_note) */ note FROM readings WHERE sensor_id = 1`,
		`SELECT note, count(*) FROM readings GROUP BY note HAVING count(*) > 0 ORDER BY note`,
	}
	shapes := map[string][]string{}
	for _, be := range bes {
		store := be.open(t)
		defer store.Close()
		_, sess := newSession(t, store)
		for _, sql := range setup {
			mustExec(t, sess, sql)
		}
		for _, q := range queries {
			for _, mode := range []string{"EXPLAIN ", "EXPLAIN ANALYZE "} {
				shape := strings.Join(explainShape(mustExec(t, sess, mode+q)), "\n")
				key := mode + q
				if prev, ok := shapes[key]; ok && prev[0] != shape {
					t.Errorf("%s\n%s:\n%s\n%s:\n%s", key, prev[1], prev[0], be.name, shape)
				}
				shapes[key] = []string{shape, be.name}
			}
		}
	}
}

// TestTwoProxiesShareOneStore runs two engines over one DynamoDB table, as
// two zproxy processes would: each sees the other's schema changes and rows,
// and a primary key stays unique when both insert it at once.
func TestTwoProxiesShareOneStore(t *testing.T) {
	ep := os.Getenv("DYNAMODB_ENDPOINT")
	if ep == "" {
		t.Skip("needs DynamoDB Local (DYNAMODB_ENDPOINT)")
	}
	table := fmt.Sprintf("twoproxies_%d", os.Getpid())
	open := func() kv.Store {
		s, err := zdynamo.Open(context.Background(), zdynamo.Options{Table: table, Endpoint: ep, Region: "us-east-1",
			Credentials: credentials.NewStaticCredentialsProvider("test", "test", "")})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	engA, a := newSession(t, open())
	engB, b := newSession(t, open())
	mustExec(t, a, `CREATE TABLE shared (id INT PRIMARY KEY, v TEXT)`)
	mustExec(t, a, `INSERT INTO shared VALUES (1, 'from a')`)
	// B's schema cache may be up to SharedStaleness old, but a name it
	// does not know makes it look again: the table is there at once.
	rows, err := runSQL(context.Background(), b, `SELECT v FROM shared WHERE id = 1`)
	if err != nil {
		t.Fatalf("proxy B does not see the table A just created: %v", err)
	}
	if strings.Join(rows, ",") != "from a" {
		t.Fatalf("proxy B reads %v", rows)
	}
	mustExec(t, b, `CREATE INDEX shared_v ON shared (v)`)
	mustExec(t, b, `INSERT INTO shared VALUES (2, 'from b')`)
	time.Sleep(150 * time.Millisecond)
	if got := mustExec(t, a, `SELECT id FROM shared WHERE v = 'from b'`); strings.Join(got, ",") != "2" {
		t.Fatalf("proxy A through B's index: %v", got)
	}
	// Both insert the same new key at once: exactly one succeeds.
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, sess := range []string{"a", "b"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			target := a
			if sess == "b" {
				target = b
			}
			_, errs[i] = runSQL(context.Background(), target, `INSERT INTO shared VALUES (3, 'race')`)
		}()
	}
	wg.Wait()
	dups := 0
	for _, err := range errs {
		if err != nil {
			if pgerr.CodeOf(err) != pgerr.UniqueViolation {
				t.Fatalf("racing insert: %v", err)
			}
			dups++
		}
	}
	if dups != 1 {
		t.Fatalf("racing inserts of one key: %d failed with 23505, want exactly 1", dups)
	}
	checkConsistent(t, a, "shared")
	engA.WaitForBuilds()
	engB.WaitForBuilds()
}
