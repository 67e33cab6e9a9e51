-- LATERAL top-1 per row: the dynamic scan promises the key order (ts DESC)
-- and stops after 1 row per opening, instead of reading every reading of
-- the sensor into a TopN.
SELECT s.name, x.celsius FROM sensors s, LATERAL (SELECT celsius FROM readings r WHERE r.sensor_id = s.id ORDER BY ts DESC LIMIT 1) x

-- An order no path yields: each opening sorts what it read (a TopN within
-- the scan), still without a TopN above it.
SELECT s.name, x.celsius FROM sensors s, LATERAL (SELECT celsius FROM readings r WHERE r.sensor_id = s.id ORDER BY celsius DESC LIMIT 2) x

-- A correlated scalar subquery with ORDER BY ... LIMIT 1 is the same.
SELECT s.name, (SELECT celsius FROM readings r WHERE r.sensor_id = s.id ORDER BY ts DESC LIMIT 1) FROM sensors s WHERE s.region = 'eu'

-- An uncorrelated scalar subquery is an InitPlan: its value bounds the scan
-- when it opens (a point get here), instead of filtering a full scan.
SELECT name FROM sensors WHERE id = (SELECT max(sensor_id) FROM readings)

-- A range bound from an InitPlan.
SELECT ts FROM readings WHERE sensor_id = 7 AND ts > (SELECT max(installed) FROM sensors)

-- IN (uncorrelated subquery): its values become point gets.
SELECT name FROM sensors WHERE id IN (SELECT sensor_id FROM readings WHERE note = 'hot')

-- The conjunct travels to its table through a join (it reads no row of
-- the query), where it bounds the outer side of a lookup join.
SELECT s.name, r.ts FROM sensors s JOIN readings r ON r.sensor_id = s.id WHERE s.id = (SELECT min(sensor_id) FROM readings)

-- Other comparisons with a subquery (ALL, ANY with another operator) stay
-- in a Filter.
SELECT name FROM sensors WHERE id > ALL (SELECT sensor_id FROM readings WHERE note = 'hot')

-- EXPLAIN shows a WITH query's plan under its (first) scan.
WITH eu AS (SELECT id, name FROM sensors WHERE region = 'eu') SELECT a.name, b.name FROM eu a JOIN eu b ON a.id < b.id

-- WITH RECURSIVE: the Recursive Union, its anchor and its recursive term
-- reading the work table.
WITH RECURSIVE chain(id, n) AS (SELECT id, 1 FROM sensors WHERE id = 1 UNION ALL SELECT s.id, c.n + 1 FROM chain c JOIN sensors s ON s.id = c.id + 1 WHERE c.n < 5) SELECT * FROM chain

-- Window frames and exclusions are shown; the default frame is not.
SELECT avg(celsius) OVER (ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW), sum(celsius) OVER (ORDER BY ts DESC NULLS LAST RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING), count(*) OVER (ORDER BY ts GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM readings WHERE sensor_id = 7

-- A WITH query read once is inlined (PostgreSQL 12+): the outer predicate
-- reaches its table, a point get with the query's own filter as residual.
WITH eu AS (SELECT id, name FROM sensors WHERE region = 'eu') SELECT name FROM eu WHERE id = 3

-- AS MATERIALIZED keeps it a CTE computed once.
WITH eu AS MATERIALIZED (SELECT id, name FROM sensors WHERE region = 'eu') SELECT name FROM eu WHERE id = 3

-- Read twice it is computed once, unless written AS NOT MATERIALIZED.
WITH eu AS (SELECT id, name FROM sensors WHERE region = 'eu') SELECT a.name FROM eu a JOIN eu b ON a.id = b.id WHERE a.id = 3

WITH eu AS NOT MATERIALIZED (SELECT id, name FROM sensors WHERE region = 'eu') SELECT a.name FROM eu a JOIN eu b ON a.id = b.id WHERE a.id = 3

-- A volatile function keeps it materialized (one value per row for every
-- reader).
WITH r AS (SELECT id, clock_timestamp() AS x FROM sensors) SELECT id FROM r WHERE id = 3

-- Column aliases of the WITH query rename the inlined plan's columns; a
-- query reading another is inlined with it.
WITH a(k, label) AS (SELECT id, name FROM sensors), b AS (SELECT k FROM a WHERE label = 'x') SELECT k FROM b WHERE k = 7

-- A filter on a column every window partitions by goes below the Window;
-- one on a column only some windows partition by stays above.
SELECT * FROM (SELECT id, region, kind, rank() OVER (PARTITION BY region, kind ORDER BY id) AS r1, count(*) OVER (PARTITION BY region) AS r2 FROM sensors) t WHERE region = 'eu' AND kind = 'x' AND r1 < 3
