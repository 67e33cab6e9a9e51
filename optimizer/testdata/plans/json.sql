-- EXPLAIN (FORMAT JSON) in PostgreSQL's layout: PostgreSQL's node types and
-- keys, zproxy's own facts under "zproxy " keys. One block per node kind.
-- Index Scan on the primary key, under Limit (reverse order: Backward).
EXPLAIN (FORMAT JSON) SELECT ts, celsius FROM readings WHERE sensor_id = 7 ORDER BY ts DESC LIMIT 10

-- Index Only Scan of a covering Z-order index.
EXPLAIN (FORMAT JSON) SELECT sensor_id FROM readings WHERE lat BETWEEN 40.5 AND 40.9 AND lon BETWEEN -74.1 AND -73.7

-- VERBOSE adds what a picture of a Z-order read needs: each attribute's
-- width, lead and box (codes and values) and every Z-address range.
EXPLAIN (FORMAT JSON, VERBOSE) SELECT sensor_id FROM readings WHERE lat BETWEEN 40.5 AND 40.9 AND lon BETWEEN -74.1 AND -73.7

-- Point gets on the primary key.
EXPLAIN (FORMAT JSON) SELECT name FROM sensors WHERE id IN (1, 2)

-- Seq Scan (a full scan), with VERBOSE's Output and Schema.
EXPLAIN (FORMAT JSON, VERBOSE) SELECT id, name FROM sensors

-- COSTS OFF; a Filter becomes a Result with "Filter"; Aggregate Hashed.
EXPLAIN (FORMAT JSON, COSTS OFF) SELECT note, count(*) FROM readings WHERE sensor_id = 7 GROUP BY note HAVING count(*) > 1

-- Aggregate Plain, computed inside the scan.
EXPLAIN (FORMAT JSON) SELECT count(*) FROM readings WHERE sensor_id = 7

-- Aggregate Mixed (grouping sets).
EXPLAIN (FORMAT JSON) SELECT region, kind, count(*) FROM sensors WHERE region >= 'a' GROUP BY ROLLUP (region, kind)

-- SELECT DISTINCT: a hashed Aggregate; DISTINCT ON: Unique over Sort.
EXPLAIN (FORMAT JSON) SELECT DISTINCT region FROM sensors WHERE region >= 'a'

EXPLAIN (FORMAT JSON) SELECT DISTINCT ON (region) region, name FROM sensors WHERE region >= 'a' ORDER BY region, name

-- Merge Join.
EXPLAIN (FORMAT JSON) SELECT /*+ MERGE_JOIN(r) */ r.ts, s.name FROM readings r JOIN sensors s ON s.id = r.sensor_id

-- Hash Join: the build side under a Hash node, as PostgreSQL draws it.
EXPLAIN (FORMAT JSON) SELECT /*+ MERGE_JOIN(s) */ r.ts, s.name FROM readings r JOIN sensors s ON s.name = r.note

-- Nested Loop with a join filter.
EXPLAIN (FORMAT JSON) SELECT /*+ HASH_JOIN(l) */ s.name, l.host FROM sensors s JOIN logs l ON l.id > s.id

-- Lookup join: a Nested Loop over an inner Index Scan.
EXPLAIN (FORMAT JSON) SELECT /*+ INL_JOIN(r) */ s.name, r.ts FROM sensors s JOIN readings r ON r.sensor_id = s.id

-- LATERAL (Apply): a Nested Loop whose inner side reads the outer row.
EXPLAIN (FORMAT JSON) SELECT s.name, x.celsius FROM sensors s, LATERAL (SELECT celsius FROM readings r WHERE r.sensor_id = s.id ORDER BY ts DESC LIMIT 1) x

-- Values Scan.
EXPLAIN (FORMAT JSON) SELECT v.k, s.name FROM (VALUES (1), (2), (3)) AS v(k) JOIN sensors s ON s.id = v.k

-- Result (SELECT without FROM) and ProjectSet.
EXPLAIN (FORMAT JSON) SELECT 1

EXPLAIN (FORMAT JSON) SELECT id, generate_series(1, id) AS n FROM sensors WHERE id = 7

-- Function Scan.
EXPLAIN (FORMAT JSON) SELECT s.id, g FROM sensors s, generate_series(1, s.id) g WHERE s.region = 'eu'

-- WindowAgg over a Sort.
EXPLAIN (FORMAT JSON) SELECT avg(celsius) OVER (ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM readings WHERE sensor_id = 7

-- Append (UNION ALL) and SetOp (INTERSECT ALL, UNION).
EXPLAIN (FORMAT JSON) SELECT id FROM sensors WHERE id = 1 UNION ALL SELECT sensor_id FROM readings WHERE sensor_id = 2

EXPLAIN (FORMAT JSON) SELECT a FROM events INTERSECT ALL SELECT id FROM sensors

EXPLAIN (FORMAT JSON) SELECT id FROM sensors WHERE id = 1 UNION SELECT sensor_id FROM readings WHERE sensor_id = 2

-- CTE Scan with the CTE's plan as an InitPlan.
EXPLAIN (FORMAT JSON) WITH eu AS (SELECT id, name FROM sensors WHERE region = 'eu') SELECT a.name, b.name FROM eu a JOIN eu b ON a.id < b.id

-- Recursive Union and WorkTable Scan.
EXPLAIN (FORMAT JSON) WITH RECURSIVE chain(id, n) AS (SELECT id, 1 FROM sensors WHERE id = 1 UNION ALL SELECT s.id, c.n + 1 FROM chain c JOIN sensors s ON s.id = c.id + 1 WHERE c.n < 5) SELECT * FROM chain

-- SubPlan and InitPlan.
EXPLAIN (FORMAT JSON) SELECT name FROM sensors s WHERE id = (SELECT max(id) FROM logs) OR EXISTS (SELECT 1 FROM tags t WHERE t.sensor_id = s.id AND t.tag = s.name)

-- A catalog read.
EXPLAIN (FORMAT JSON) SELECT relname FROM pg_class WHERE relname = 'sensors'

-- ModifyTable: Insert, Update, Delete; a data-modifying WITH.
EXPLAIN (FORMAT JSON) INSERT INTO sensors SELECT sensor_id, note, NULL, NULL, NULL FROM readings WHERE sensor_id = 3

EXPLAIN (FORMAT JSON) UPDATE accounts SET region = 'eu' WHERE email = 'ann@example.com'

EXPLAIN (FORMAT JSON) DELETE FROM sensor_log WHERE site = 'north' AND sensor_id = 7 AND ts < '2024-01-01'

EXPLAIN (FORMAT JSON) WITH gone AS (DELETE FROM logs WHERE id = 1 RETURNING host) SELECT count(*) FROM gone

-- Aggregate Sorted: groups streamed from a scan in their order.
EXPLAIN (FORMAT JSON) SELECT date_trunc('hour', ts) AS hour, avg(celsius) FROM readings WHERE sensor_id = 7 AND ts >= '2024-01-01' GROUP BY 1 ORDER BY 1

-- A top-N Sort (zproxy Top N), under its Limit.
EXPLAIN (FORMAT JSON) SELECT name FROM sensors ORDER BY name DESC LIMIT 5 OFFSET 2

-- An inverted (gin) scan: an Index Scan on the gin index.
EXPLAIN (FORMAT JSON) SELECT id FROM products WHERE attrs @> '{"color": "red"}'

-- ANALYZE: actual rows and loops (TIMING and SUMMARY off keep the file
-- stable), the statement's store totals, an empty Triggers list.
EXPLAIN (FORMAT JSON, ANALYZE, TIMING OFF, SUMMARY OFF) SELECT name FROM sensors WHERE id IN (1, 2)

-- SETTINGS lists the planner settings changed from their defaults.
SET enable_hashjoin = off;
EXPLAIN (FORMAT JSON, COSTS OFF, SETTINGS) SELECT 1

-- A nearest-neighbour search: PostgreSQL's index-ordered Index Scan with
-- its Order By.
EXPLAIN (FORMAT JSON) SELECT id FROM spots ORDER BY p <-> point '(10,20)' LIMIT 3
