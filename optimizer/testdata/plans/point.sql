-- Rule 2: every primary-key column bound by equality: one point get on the
-- row's shard; nothing left for a residual filter.
SELECT celsius FROM readings WHERE sensor_id = 7 AND ts = '2024-01-01 00:00:00'

-- Rule 2 with a single-column key.
SELECT name FROM sensors WHERE id = 3

-- Rule 2 with an extra predicate on a non-key column: it becomes the residual.
SELECT name FROM sensors WHERE id = 3 AND region = 'eu'

-- IN list over the key: several point gets in one batch, only their shards.
SELECT name FROM sensors WHERE id IN (1, 2, 3, 2)

-- IN lists over both key columns: the cross product of keys (2 x 2).
SELECT celsius FROM readings WHERE sensor_id IN (1, 2) AND ts IN ('2024-01-01', '2024-01-02')

-- OR of equalities on the key column is an IN list.
SELECT name FROM sensors WHERE id = 10 OR id = 20

-- Equality with NULL matches nothing: no keys to get.
SELECT name FROM sensors WHERE id = NULL

-- Contradictory equalities: the key set is empty.
SELECT name FROM sensors WHERE id = 1 AND id = 2
