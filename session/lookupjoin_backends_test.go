package session_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/wire"
)

// The request counts of lookup joins on every backend, the real DynamoDB
// client included (DynamoDB Local when DYNAMODB_ENDPOINT is set), read
// from EXPLAIN ANALYZE, which reports each operator's store requests as
// the backend counted them in kv.Stats. A round of 100 outer rows is one
// batched Get (one BatchGetItem of at most 100 keys on DynamoDB) when the
// join binds the inner key; one Scan (a DynamoDB Query) per distinct key
// and shard when it binds a prefix.

const (
	// ljOuterRows is the outer table's size: two full rounds and a part
	// one (every prefix lookup is a DynamoDB Query per shard, so more rows
	// only repeat them).
	ljOuterRows = 250
	// ljBatch is the optimizer's lookupBatch, which these figures promise.
	ljBatch = 100
	// ljShards is the shard count of the inner tables.
	ljShards = 4
	// ljSeriesKeys is how many distinct keys the prefix-lookup table has.
	ljSeriesKeys = 50
)

// ljOperator is one operator of EXPLAIN (ANALYZE, FORMAT JSON).
type ljOperator struct {
	Operator      string        `json:"zproxy Operator"`
	Rows          int64         `json:"Actual Rows"`
	ItemsRead     int64         `json:"zproxy Items Read"`
	StoreRequests int64         `json:"zproxy Store Requests"`
	Inputs        []*ljOperator `json:"Plans"`
}

// analyzeJoin runs sql under EXPLAIN ANALYZE in both formats and returns
// the lookup join's and the outer scan's figures and the statement's total
// store requests.
func analyzeJoin(t *testing.T, sess wire.Session, sql string) (join, outer *ljOperator, total int64) {
	t.Helper()
	out := mustExec(t, sess, "EXPLAIN (ANALYZE, FORMAT JSON) "+sql)
	var doc []struct{ Plan *ljOperator }
	if err := json.Unmarshal([]byte(strings.Join(out, "\n")), &doc); err != nil || len(doc) != 1 {
		t.Fatalf("EXPLAIN output %q: %v", out, err)
	}
	var walk func(*ljOperator)
	walk = func(o *ljOperator) {
		switch {
		case strings.HasPrefix(o.Operator, "Lookup Join"):
			join = o
		case strings.HasPrefix(o.Operator, "Scan lj_outer"):
			outer = o
		}
		for _, in := range o.Inputs {
			walk(in)
		}
	}
	walk(doc[0].Plan)
	if join == nil || outer == nil {
		t.Fatalf("%s: no lookup join over a scan of lj_outer:\n%s", sql, strings.Join(out, "\n"))
	}
	// The text form ends with the statement's totals from kv.Stats.
	execution := regexp.MustCompile(`^Execution: .*, (\d+) items read, (\d+) store requests, backend `)
	for _, line := range mustExec(t, sess, "EXPLAIN ANALYZE "+sql) {
		if m := execution.FindStringSubmatch(line); m != nil {
			total, _ = strconv.ParseInt(m[2], 10, 64)
			return join, outer, total
		}
	}
	t.Fatalf("%s: no Execution line in EXPLAIN ANALYZE", sql)
	return nil, nil, 0
}

func TestLookupJoinRequestsOnEveryBackend(t *testing.T) {
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel() // the stores are the legs' own: DynamoDB Local's round trips overlap Pebble's work
			store := be.open(t)
			defer store.Close()
			_, sess := newSession(t, store)
			for _, sql := range []string{
				`CREATE TABLE lj_outer (id BIGINT PRIMARY KEY, k BIGINT) WITH (shards = 1)`,
				fmt.Sprintf(`CREATE TABLE lj_point (k BIGINT PRIMARY KEY, v TEXT) WITH (shards = %d)`, ljShards),
				fmt.Sprintf(`CREATE TABLE lj_series (k BIGINT NOT NULL, seq INT NOT NULL, v TEXT, PRIMARY KEY (k, seq)) WITH (shards = %d)`, ljShards),
				// Outer row i has key i: every round asks 100 distinct keys.
				fmt.Sprintf(`INSERT INTO lj_outer SELECT g, g FROM generate_series(1, %d) g`, ljOuterRows),
				// Every other key exists, so half the point lookups miss.
				fmt.Sprintf(`INSERT INTO lj_point SELECT g * 2, 'v' FROM generate_series(1, %d) g`, ljOuterRows),
				// Keys 1..50, two rows each.
				fmt.Sprintf(`INSERT INTO lj_series SELECT g, s, 'v' FROM generate_series(1, %d) g, generate_series(1, 2) s`, ljSeriesKeys),
			} {
				mustExec(t, sess, sql)
			}
			rounds := int64((ljOuterRows + ljBatch - 1) / ljBatch)

			// Point lookups: ceil(250 / 100) batched Gets, however the keys
			// spread over the inner table's shards.
			join, outer, total := analyzeJoin(t, sess, "SELECT o.id, p.v FROM lj_outer o JOIN lj_point p ON p.k = o.k")
			if join.StoreRequests != rounds || join.Rows != ljOuterRows/2 || join.ItemsRead != ljOuterRows/2 {
				t.Errorf("point lookups: %d requests, %d rows, %d items; want %d requests (ceil(%d / %d)), %d rows and items",
					join.StoreRequests, join.Rows, join.ItemsRead, rounds, ljOuterRows, ljBatch, ljOuterRows/2)
			}
			if outer.Rows != ljOuterRows || outer.ItemsRead != ljOuterRows || outer.StoreRequests == 0 {
				t.Errorf("outer scan: %d rows, %d items, %d requests", outer.Rows, outer.ItemsRead, outer.StoreRequests)
			}
			if total != join.StoreRequests+outer.StoreRequests {
				t.Errorf("statement total %d store requests, operators %d + %d", total, join.StoreRequests, outer.StoreRequests)
			}

			// Prefix lookups: one Scan per distinct key and shard.
			join, outer, total = analyzeJoin(t, sess, "SELECT o.id, s.seq FROM lj_outer o JOIN lj_series s ON s.k = o.k")
			if want := int64(ljOuterRows * ljShards); join.StoreRequests != want || join.Rows != 2*ljSeriesKeys ||
				join.ItemsRead != 2*ljSeriesKeys {
				t.Errorf("prefix lookups: %d requests, %d rows, %d items; want %d requests (%d keys x %d shards), %d rows and items",
					join.StoreRequests, join.Rows, join.ItemsRead, want, ljOuterRows, ljShards, 2*ljSeriesKeys)
			}
			if total != join.StoreRequests+outer.StoreRequests {
				t.Errorf("statement total %d store requests, operators %d + %d", total, join.StoreRequests, outer.StoreRequests)
			}
		})
	}
}
