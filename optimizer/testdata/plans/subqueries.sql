-- Correlated EXISTS becomes a semi join; the subquery's table is looked up
-- by the correlation (a prefix of the readings key).
SELECT s.name FROM sensors s WHERE EXISTS (SELECT 1 FROM readings r WHERE r.sensor_id = s.id)

-- NOT EXISTS: an anti join, the same lookup.
SELECT s.name FROM sensors s WHERE NOT EXISTS (SELECT 1 FROM readings r WHERE r.sensor_id = s.id AND r.celsius > 40)

-- EXISTS whose correlation binds the whole key: point gets.
SELECT r.ts FROM readings r WHERE EXISTS (SELECT 1 FROM sensors s WHERE s.id = r.sensor_id AND s.kind = 'probe')

-- Correlated IN: a semi join on the IN column and the correlation.
SELECT s.name FROM sensors s WHERE s.id IN (SELECT r.sensor_id FROM readings r WHERE r.note = s.kind)

-- A semi join through a secondary index (events by a).
SELECT s.name FROM sensors s WHERE s.region = 'eu' AND EXISTS (SELECT 1 FROM events e WHERE e.a = s.id)

-- A semi join with no key bound: hash join.
SELECT s.name FROM sensors s WHERE EXISTS (SELECT 1 FROM logs l WHERE l.level = s.kind)

-- NOT IN keeps its NULL semantics: a subplan, not an anti join.
SELECT s.name FROM sensors s WHERE s.id NOT IN (SELECT r.sensor_id FROM readings r WHERE r.note = s.kind)

-- EXISTS under OR is not decorrelated: a correlated subplan whose scan is
-- planned per outer row.
SELECT s.name FROM sensors s WHERE s.kind = 'x' OR EXISTS (SELECT 1 FROM readings r WHERE r.sensor_id = s.id)

-- Correlated scalar subquery in the select list: per outer row, the scan
-- of readings is re-planned with s.id known (a key prefix).
SELECT s.name, (SELECT max(celsius) FROM readings r WHERE r.sensor_id = s.id) FROM sensors s

-- Correlated scalar subquery bound to the whole key: a point get per row.
SELECT r.ts, (SELECT name FROM sensors s WHERE s.id = r.sensor_id) FROM readings r WHERE r.sensor_id = 7

-- Uncorrelated scalar subquery: an InitPlan run once.
SELECT name FROM sensors WHERE id = (SELECT max(sensor_id) FROM readings)

-- Uncorrelated IN: an InitPlan.
SELECT name FROM sensors WHERE id IN (SELECT sensor_id FROM readings WHERE note = 'hot')

-- Uncorrelated EXISTS.
SELECT name FROM sensors WHERE EXISTS (SELECT 1 FROM logs WHERE level = 'error')

-- A subquery in the select list and one in WHERE together.
SELECT s.name, (SELECT count(*) FROM tags t WHERE t.sensor_id = s.id) FROM sensors s WHERE s.id IN (SELECT sensor_id FROM readings r WHERE r.sensor_id = s.id AND r.celsius > 30)

-- A derived table with column aliases, filtered outside: the filter reaches
-- the table's key.
SELECT x.k, x.n FROM (SELECT id, name FROM sensors) AS x(k, n) WHERE x.k = 4

-- A filter on a grouped derived table's group column is pushed below the
-- aggregate.
SELECT t.sensor_id, t.c FROM (SELECT sensor_id, count(*) AS c FROM readings GROUP BY sensor_id) t WHERE t.sensor_id = 7

-- A filter on an aggregate result stays above it.
SELECT t.sensor_id FROM (SELECT sensor_id, count(*) AS c FROM readings GROUP BY sensor_id) t WHERE t.c > 5

-- A row IN a correlated subquery becomes a semi join on every column pair.
SELECT s.name FROM sensors s WHERE (s.id, s.region) IN (SELECT r.sensor_id, r.note FROM readings r WHERE r.celsius > s.id)

-- Uncorrelated, it is an InitPlan whose rows are compared with each row.
SELECT name FROM sensors WHERE (id, region) IN (SELECT sensor_id, note FROM readings WHERE note = 'hot')

-- An EXISTS subquery keeps only its FROM and WHERE: the select list, ORDER
-- BY and LIMIT 1 are dropped (PostgreSQL's simplify_EXISTS_query).
SELECT name FROM sensors s WHERE s.kind = 'x' OR EXISTS (SELECT r.celsius * 2 FROM readings r WHERE r.sensor_id = s.id ORDER BY 1 LIMIT 1)

-- A derived table's outputs nobody reads are not computed: the unread
-- aggregate becomes a placeholder, the unread expression NULL.
SELECT t.sensor_id FROM (SELECT sensor_id, avg(celsius) AS a, sensor_id * 2 AS d FROM readings GROUP BY sensor_id) t

-- An ungrouped subquery's HAVING on the outer row alone is copied below
-- the aggregate, where it gates the join before either input runs.
SELECT s.name, (SELECT count(*) FROM readings r FULL JOIN tags t ON true HAVING s.kind = 'x') FROM sensors s
