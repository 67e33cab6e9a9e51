-- Latest by key: the shard columns (site, sensor_id) bound by equality, so
-- the one shard holding that sensor is read, and stops after one row.
SELECT ts, celsius FROM sensor_log WHERE site = 'north' AND sensor_id = 7 ORDER BY ts DESC LIMIT 1

-- An IN list: each key range is read in its own shard (at most 3 of 4).
SELECT ts FROM sensor_log WHERE site = 'north' AND sensor_id IN (1, 2, 3) AND ts >= '2024-01-01'

-- Only part of the shard columns bound: every shard.
SELECT ts FROM sensor_log WHERE site = 'north'

-- A point get: the shard of its key.
SELECT celsius FROM sensor_log WHERE site = 'north' AND sensor_id = 7 AND ts = '2024-01-01 00:00'

-- An index with shard columns: its entries for kind = 'temp' lie in one shard.
SELECT ts, celsius FROM sensor_log WHERE kind = 'temp' AND ts >= '2024-01-01'

-- The index's shard column unbound: all 8 shards.
SELECT kind, ts FROM sensor_log WHERE kind > 'a' AND kind < 'm'

-- The same latest-by-key on readings (whole-key hashing, 4 shards): every
-- shard is read and merged.
SELECT ts, celsius FROM readings WHERE sensor_id = 7 ORDER BY ts DESC LIMIT 1

-- Writes read the same way: a delete binding the shard columns reads one shard.
DELETE FROM sensor_log WHERE site = 'north' AND sensor_id = 7 AND ts < '2024-01-01'

-- A lookup join binding the shard columns reads one shard per outer row.
SELECT s.name, l.ts FROM sensors s JOIN sensor_log l ON l.site = s.region AND l.sensor_id = s.id WHERE s.id IN (1, 2)

-- Binding only site: every shard per outer row.
SELECT s.name, l.ts FROM sensors s JOIN sensor_log l ON l.site = s.region WHERE s.id IN (1, 2)
