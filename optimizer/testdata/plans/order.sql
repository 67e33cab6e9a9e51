-- The primary key (sensor_id, ts DESC) yields ORDER BY ts DESC once
-- sensor_id is fixed: LIMIT is pushed into the scan, which stops after 10.
SELECT ts, celsius FROM readings WHERE sensor_id = 7 ORDER BY ts DESC LIMIT 10

-- ORDER BY ts ascending: the same range read in reverse.
SELECT ts, celsius FROM readings WHERE sensor_id = 7 ORDER BY ts LIMIT 10

-- LIMIT with OFFSET: the scan stops after offset + count rows.
SELECT ts FROM readings WHERE sensor_id = 7 ORDER BY ts DESC LIMIT 10 OFFSET 5

-- Two sensors: the key order is by sensor first, so ts order needs a TopN.
SELECT ts FROM readings WHERE sensor_id IN (1, 2) ORDER BY ts DESC LIMIT 10

-- The whole key order across shards: a k-way merge, stopping after 5.
SELECT sensor_id, ts FROM readings ORDER BY sensor_id, ts DESC LIMIT 5

-- The whole key order reversed.
SELECT sensor_id, ts FROM readings ORDER BY sensor_id DESC, ts LIMIT 5

-- Mixed directions the key cannot give: Sort.
SELECT sensor_id, ts FROM readings ORDER BY sensor_id, ts LIMIT 5

-- ORDER BY a non-key column: TopN over the range scan.
SELECT ts, celsius FROM readings WHERE sensor_id = 7 ORDER BY celsius DESC LIMIT 3

-- ORDER BY without LIMIT on a non-key column: a full Sort.
SELECT ts, celsius FROM readings WHERE sensor_id = 7 ORDER BY celsius

-- LIMIT without ORDER BY: pushed into the scan, shards stream unordered.
SELECT ts FROM readings WHERE sensor_id = 7 LIMIT 3

-- A nullable ORDER BY column cannot come from the key (keys put NULL
-- first ascending, PostgreSQL last): Sort.
SELECT note, ts FROM readings WHERE note >= 'a' ORDER BY note LIMIT 5

-- Z-order yields no useful order: TopN.
SELECT ts FROM readings WHERE lat BETWEEN 40.5 AND 40.9 AND lon BETWEEN -74.1 AND -73.7 ORDER BY ts DESC LIMIT 100

-- A point get does not deliver order; the TopN over its one row is trivial.
SELECT name FROM sensors WHERE id = 3 ORDER BY name LIMIT 1
