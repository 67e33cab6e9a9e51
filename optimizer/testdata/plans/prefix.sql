-- Rule 3: the first key column bound by equality (prefix 1), one range on
-- every shard.
SELECT ts, celsius FROM readings WHERE sensor_id = 7

-- Prefix 2: equality then a range on ts (DESC in the key, so the range's
-- start comes from the upper bound).
SELECT ts, celsius FROM readings WHERE sensor_id = 7 AND ts >= '2024-01-01' AND ts < '2024-02-01'

-- One-sided bound on the second key column.
SELECT ts FROM readings WHERE sensor_id = 7 AND ts > '2024-06-01'

-- A range on the leading key column: prefix 1 (0 equal, range).
SELECT name FROM sensors WHERE id >= 100 AND id < 200

-- An OR of ranges on one column becomes several key ranges (skip scan).
SELECT ts FROM readings WHERE sensor_id = 7 AND (ts < '2024-01-01' OR ts >= '2024-12-01')

-- IN list on the leading column then a range: 2 x 1 ranges.
SELECT ts FROM readings WHERE sensor_id IN (3, 9) AND ts >= '2024-03-01'

-- A non-key predicate stays in the residual filter; key conjuncts do not.
SELECT ts FROM readings WHERE sensor_id = 7 AND celsius > 30

-- Longest prefix: (region, kind) binds 2 columns, (region) only 1.
SELECT id FROM sensors WHERE region = 'eu' AND kind = 'thermo'

-- Prefix tie (1 vs 1), neither covers name, same shards: the index declared
-- first wins; a non-covering index looks up the table rows.
SELECT name FROM sensors WHERE region = 'eu'

-- Prefix tie broken by covering: ev_a_cov includes c.
SELECT id, c FROM events WHERE a = 5

-- Prefix tie: ev_a and ev_a_cov lose on covering (b is needed for the
-- sort); of the covering ev_a_b and ev_a_c, ev_a_b yields ORDER BY b once
-- a is fixed, so no Sort is needed.
SELECT id FROM events WHERE a = 5 ORDER BY b

-- Prefix tie broken by fewer shards: lg_host2 has 2 shards, lg_host8 8.
SELECT level FROM logs WHERE host = 'db1'

-- LIKE 'prefix%' is a range on the text column, enforced by the key.
SELECT celsius FROM readings WHERE note LIKE 'over%'

-- LIKE with more after the wildcard: the prefix range plus a residual.
SELECT celsius FROM readings WHERE note LIKE 'over%heat'

-- IN list on the index column then a range on the next: 2 ranges.
SELECT celsius FROM readings WHERE note IN ('hot', 'cold') AND ts >= '2024-01-01'

-- A text range on the btree index beats Z-order when it is narrower.
SELECT celsius FROM readings WHERE note = 'hot' AND lat > 40
