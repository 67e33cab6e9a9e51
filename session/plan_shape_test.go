package session_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// shapeKeys are the EXPLAIN keys pg_stat_statements' plan column keeps
// (optimizer.PlanShape): operators, relations, indexes, access paths,
// shards and estimates, never a condition, key or output, which would
// hold the statement's constants.
var shapeKeys = map[string]bool{
	"Node Type": true, "Strategy": true, "Operation": true, "Parent Relationship": true, "Subplan Name": true,
	"Join Type": true, "Command": true, "Scan Direction": true, "Index Name": true, "Relation Name": true,
	"Alias": true, "CTE Name": true, "Function Name": true, "Total Cost": true, "Plan Rows": true,
	"zproxy Access Method": true, "zproxy Shards": true, "zproxy Z-order": true, "zproxy Covering": true,
	"zproxy Lookup": true, "zproxy Top N": true, "Plans": true,
}

// keepShape is an EXPLAIN (FORMAT JSON) plan node with only shapeKeys.
func keepShape(node map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range node {
		if !shapeKeys[k] {
			continue
		}
		if k == "Plans" {
			var kids []any
			for _, kid := range v.([]any) {
				kids = append(kids, keepShape(kid.(map[string]any)))
			}
			v = kids
		}
		out[k] = v
	}
	return out
}

// TestStatementPlanIsExplainsShape: the plan pg_stat_statements keeps for
// a statement is its EXPLAIN (FORMAT JSON) document restricted to the
// shape's keys, for every kind of operator. The shape is built by its own
// walk, which renders no expression (a statement whose folded constant
// was 600 MB spent seconds and gigabytes spelling it for the sample), so
// this checks that walk leaves out nothing the full document shows.
func TestStatementPlanIsExplainsShape(t *testing.T) {
	eng := newEngine(t, memStore(t))
	defer eng.Close()
	sess := openSession(t, eng)
	for _, q := range []string{
		`CREATE TABLE readings (sensor BIGINT, ts BIGINT, x DOUBLE PRECISION, y DOUBLE PRECISION, note TEXT,
		   PRIMARY KEY (sensor, ts)) WITH (shards = 4)`,
		`CREATE INDEX by_note ON readings (note)`,
		`CREATE INDEX by_note_cov ON readings (note, ts) INCLUDE (x)`,
		`CREATE INDEX by_place ON readings USING zorder (x, y)`,
		`CREATE TABLE sensors (id BIGINT PRIMARY KEY, name TEXT, region TEXT)`,
		`INSERT INTO sensors SELECT g, 's' || g, 'r' || (g % 5) FROM generate_series(1, 50) g`,
		`INSERT INTO readings SELECT g % 50, g, g % 97, g % 89, 'n' || (g % 20) FROM generate_series(1, 2000) g`,
		`ANALYZE readings`,
		`ANALYZE sensors`,
	} {
		mustExec(t, sess, q)
	}
	for _, q := range []string{
		`SELECT * FROM sensors WHERE id = 7`,
		`SELECT * FROM readings WHERE sensor = 3 AND ts > 100 ORDER BY ts LIMIT 5`,
		`SELECT sensor, ts, x FROM readings WHERE note = 'n3' AND ts < 500`,
		`SELECT * FROM readings WHERE note = 'n4'`,
		`SELECT count(*) FROM readings WHERE x BETWEEN 3 AND 9 AND y BETWEEN 10 AND 20`,
		`SELECT s.name, r.ts FROM sensors s JOIN readings r ON r.sensor = s.id WHERE s.region = 'r1' AND r.ts < 40`,
		`SELECT s.region, count(*), avg(r.x) FROM readings r JOIN sensors s ON s.name = r.note GROUP BY s.region ORDER BY 2 DESC`,
		`SELECT region, count(*) FROM sensors GROUP BY ROLLUP (region) ORDER BY region`,
		`SELECT * FROM sensors WHERE id IN (SELECT sensor FROM readings WHERE note = 'n5') ORDER BY name LIMIT 3`,
		`SELECT id, (SELECT max(ts) FROM readings r WHERE r.sensor = s.id) FROM sensors s WHERE id < 4`,
		`WITH w AS MATERIALIZED (SELECT sensor, count(*) AS n FROM readings GROUP BY sensor) SELECT * FROM w a JOIN w b ON a.n = b.n WHERE a.sensor < 3`,
		`SELECT name FROM sensors UNION ALL SELECT note FROM readings WHERE sensor = 1 EXCEPT SELECT 'x' || repeat('y', 5000)`,
		`SELECT DISTINCT region FROM sensors WHERE name <> repeat('z', 100000)`,
		`SELECT g, row_number() OVER (ORDER BY g DESC) FROM generate_series(1, 10) g`,
		`SELECT unnest(ARRAY[1, 2, 3]), 4`,
		`UPDATE sensors SET name = name || '!' WHERE id = 9 RETURNING id`,
		`DELETE FROM readings WHERE sensor = 49 AND ts = 1999`,
		`INSERT INTO sensors VALUES (1000, 'new', 'r9')`,
	} {
		explained := mustExec(t, sess, "EXPLAIN (FORMAT JSON) "+q)
		var doc []map[string]any
		if err := json.Unmarshal([]byte(strings.Join(explained, "\n")), &doc); err != nil {
			t.Fatalf("%s: EXPLAIN's document: %v", q, err)
		}
		mustExec(t, sess, `SELECT pg_stat_statements_reset()`)
		mustExec(t, sess, q)
		plans := mustExec(t, sess, `SELECT plan FROM pg_stat_statements WHERE plan IS NOT NULL AND query NOT LIKE '%pg_stat_statements%'`)
		if len(plans) != 1 {
			t.Fatalf("%s: pg_stat_statements holds %d plans: %v", q, len(plans), plans)
		}
		var kept []map[string]any
		if err := json.Unmarshal([]byte(plans[0]), &kept); err != nil {
			t.Fatalf("%s: the kept plan %s: %v", q, plans[0], err)
		}
		want := []map[string]any{{"Plan": keepShape(doc[0]["Plan"].(map[string]any))}}
		if !reflect.DeepEqual(kept, want) {
			w, _ := json.Marshal(want)
			t.Errorf("%s:\nkept  %s\nwant  %s", q, plans[0], w)
		}
	}
}
