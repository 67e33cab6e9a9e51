-- Rule 3, lookup join via the primary key: every key column of sensors is
-- bound by the join, so each round of 100 readings is one batch of point
-- gets. Neither side has an access path of its own, and readings could
-- only be looked up by a key prefix: no swap.
SELECT r.ts, s.name FROM readings r JOIN sensors s ON s.id = r.sensor_id

-- The same join written the other way round: readings, looked up by a
-- prefix of its key, would be the inner side; sensors can be looked up by
-- point gets, so the sides are swapped.
SELECT s.name, r.ts FROM sensors s JOIN readings r ON r.sensor_id = s.id

-- Swapped lookup: the right side has the more selective access path of its
-- own (a point get), so it is the outer side and readings is looked up by
-- a key prefix (one key range per outer row).
SELECT r.ts, s.name FROM readings r JOIN sensors s ON s.id = r.sensor_id WHERE s.id = 7

-- The outer side reads a key range of its own (by_region); readings is
-- looked up by the prefix sensor_id of its primary key.
SELECT s.name, r.celsius FROM sensors s JOIN readings r ON r.sensor_id = s.id WHERE s.region = 'eu'

-- Both key columns of readings bound: point gets.
SELECT s.name, r.celsius FROM sensors s JOIN readings r ON r.sensor_id = s.id AND r.ts = s.installed

-- Lookup via a btree index prefix: events has no key on a, four indexes
-- lead with it. Only c is read: the covering ev_a_cov wins the tie.
SELECT s.name, e.c FROM sensors s JOIN events e ON e.a = s.id WHERE s.id < 10

-- Two join columns bind the two-column ev_a_b (longest prefix wins).
SELECT s.name, e.id FROM sensors s JOIN events e ON e.a = s.id AND e.b = s.id + 1 WHERE s.region = 'us'

-- A constant of the inner side's own filter extends the join's prefix.
SELECT s.name, e.id FROM sensors s JOIN events e ON e.a = s.id AND e.c = 'k' WHERE s.region = 'us'

-- A table without a primary key is looked up through its index.
SELECT s.name, t.tag FROM sensors s JOIN tags t ON t.sensor_id = s.id WHERE s.id = 3

-- LEFT JOIN: the preserved side is always the outer one.
SELECT s.name, r.celsius FROM sensors s LEFT JOIN readings r ON r.sensor_id = s.id AND r.celsius > 30

-- A WHERE condition that rejects the NULL-extended rows makes the left join
-- an inner one.
SELECT s.name, r.celsius FROM sensors s LEFT JOIN readings r ON r.sensor_id = s.id WHERE r.celsius > 30

-- RIGHT JOIN: planned as the LEFT JOIN of the swapped inputs.
SELECT r.ts, s.name FROM readings r RIGHT JOIN sensors s ON s.id = r.sensor_id

-- FULL JOIN: a hash join (a lookup join cannot return the inner side's
-- unmatched rows), even though the join binds the key of logs.
SELECT s.name, l.host FROM sensors s FULL JOIN logs l ON l.id = s.id

-- Rule 4, hash join: the equality binds no key of either table.
SELECT s.name, l.host FROM sensors s JOIN logs l ON l.level = s.kind

-- Rule 5, nested loop: no equality between the sides.
SELECT s.name, l.host FROM sensors s JOIN logs l ON l.id BETWEEN s.id AND s.id + 10

-- Hints: HASH_JOIN where a lookup join was possible.
SELECT /*+ HASH_JOIN(s) */ r.ts, s.name FROM readings r JOIN sensors s ON s.id = r.sensor_id

-- INL_JOIN honoured: the lookup join names the hint as its reason.
SELECT /*+ INL_JOIN(s) */ r.ts, s.name FROM readings r JOIN sensors s ON s.id = r.sensor_id

-- INL_JOIN on a left join through an index prefix.
SELECT /*+ INL_JOIN(t) */ s.name, t.tag FROM sensors s LEFT JOIN tags t ON t.sensor_id = s.id

-- INL_JOIN that cannot be honoured (no key of logs bound): a NOTICE.
SELECT /*+ INL_JOIN(l) */ s.name, l.host FROM sensors s JOIN logs l ON l.level = s.kind

-- MERGE_JOIN is reported as not honoured.
SELECT /*+ MERGE_JOIN(l) */ s.name, l.host FROM sensors s JOIN logs l ON l.level = s.kind

-- Three tables: each join planned by the rules on its own.
SELECT s.name, r.celsius, t.tag FROM sensors s JOIN readings r ON r.sensor_id = s.id JOIN tags t ON t.sensor_id = s.id WHERE s.id = 5

-- A self join through the primary key.
SELECT a.name, b.name FROM sensors a JOIN sensors b ON b.id = a.id + 1

-- Apply: the right side reads the left row (LATERAL).
SELECT s.name, x.celsius FROM sensors s, LATERAL (SELECT celsius FROM readings r WHERE r.sensor_id = s.id ORDER BY ts DESC LIMIT 1) x

-- A derived table is not a stored table: its join is a hash join.
SELECT s.name, x.n FROM sensors s JOIN (SELECT sensor_id, count(*) AS n FROM readings GROUP BY sensor_id) x ON x.sensor_id = s.id

-- VALUES drive point gets into sensors.
SELECT v.k, s.name FROM (VALUES (1), (2), (3)) AS v(k) JOIN sensors s ON s.id = v.k
