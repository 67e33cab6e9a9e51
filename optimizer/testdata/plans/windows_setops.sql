-- A window over a key range: the window sorts by its partition and order
-- keys; the scan is bounded by the filter.
SELECT ts, celsius, avg(celsius) OVER (ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM readings WHERE sensor_id = 7

-- Several windows, one of them named.
SELECT id, rank() OVER w, row_number() OVER (PARTITION BY kind ORDER BY id), sum(id) OVER () FROM sensors WINDOW w AS (PARTITION BY region ORDER BY installed)

-- A filter on a window's result stays above the window, and so does one on
-- its partition column (which could bound the scan below it).
SELECT * FROM (SELECT id, region, row_number() OVER (PARTITION BY region ORDER BY id) AS rn FROM sensors) t WHERE rn = 1 AND region = 'eu'

-- A window over an aggregate.
SELECT sensor_id, count(*), rank() OVER (ORDER BY count(*) DESC) FROM readings GROUP BY sensor_id

-- UNION ALL: an append of the operands, each with its own access path.
SELECT id FROM sensors WHERE id = 1 UNION ALL SELECT sensor_id FROM readings WHERE sensor_id = 2

-- UNION, INTERSECT and EXCEPT hash their inputs.
SELECT region FROM sensors UNION SELECT host FROM logs

SELECT a FROM events INTERSECT ALL SELECT id FROM sensors

SELECT id FROM sensors EXCEPT SELECT a FROM events WHERE a > 10

-- A WHERE over a set operation is pushed into both operands, where it
-- bounds their scans.
SELECT * FROM (SELECT id FROM sensors UNION SELECT a FROM events) u WHERE id = 5

-- ORDER BY and LIMIT over a set operation: a TopN above it.
SELECT id FROM sensors UNION SELECT a FROM events ORDER BY 1 DESC LIMIT 3

-- A CTE referenced twice is computed once and shared.
EXPLAIN WITH eu AS (SELECT id FROM sensors WHERE region = 'eu') SELECT a.id, b.id FROM eu a JOIN eu b ON b.id > a.id

-- A CTE referenced once.
EXPLAIN WITH eu AS (SELECT id, name FROM sensors WHERE region = 'eu') SELECT name FROM eu WHERE id = 3

-- A recursive CTE: the recursive term looks up the table by key from the
-- work table.
EXPLAIN WITH RECURSIVE chain(id) AS (SELECT id FROM sensors WHERE id = 1 UNION ALL SELECT s.id FROM chain c JOIN sensors s ON s.id = c.id + 1 WHERE c.id < 5) SELECT id FROM chain

-- UNION (not ALL) in a recursive CTE.
EXPLAIN WITH RECURSIVE t(n) AS (SELECT 1 UNION SELECT n + 1 FROM t WHERE n < 3) SELECT n FROM t

-- VALUES and generate_series.
SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS v(k, s)

SELECT g FROM generate_series(1, 10, 2) WITH ORDINALITY AS t(g, n)

-- A series joined to a table by its key: point gets.
SELECT g, s.name FROM generate_series(1, 100) g JOIN sensors s ON s.id = g

-- Writes: INSERT ... SELECT maintains every index of the target.
EXPLAIN INSERT INTO sensors SELECT sensor_id, note, NULL, NULL, NULL FROM readings WHERE sensor_id = 3

-- INSERT ... ON CONFLICT DO UPDATE with RETURNING.
EXPLAIN INSERT INTO sensors VALUES (1, 'a', 'eu', 'x', NULL) ON CONFLICT (id) DO UPDATE SET name = excluded.name RETURNING id, name

-- INSERT into a table without a primary key: the hidden row id.
EXPLAIN INSERT INTO tags VALUES (1, 'x')

-- UPDATE ... FROM: the join finds the rows, each re-read by key.
UPDATE sensors SET kind = t.tag FROM tags t WHERE t.sensor_id = sensors.id AND sensors.region = 'us' RETURNING sensors.id

-- UPDATE with IN (subquery): a semi join when correlated, here an InitPlan.
UPDATE sensors SET kind = 'hot' WHERE id IN (SELECT sensor_id FROM readings WHERE celsius > 40)

-- DELETE ... USING through a lookup.
DELETE FROM tags USING sensors s WHERE s.id = tags.sensor_id AND s.region = 'eu' RETURNING tags.tag

-- DELETE with NOT EXISTS: an anti join.
DELETE FROM sensors s WHERE NOT EXISTS (SELECT 1 FROM readings r WHERE r.sensor_id = s.id)
