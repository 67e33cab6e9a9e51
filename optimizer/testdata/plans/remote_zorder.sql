-- Z-order range budgets on a store where every range is a request
-- (DynamoDB's capabilities: no cheap seeks, 5 ms per request), chosen by
-- cost from statistics: the entries a cover reads (rows times its
-- over-cover) plus a request per range weighted by the store's request
-- cost. 20,000 readings of 200 sensors over 30 days, lat in [40, 41), lon
-- in [-74.5, -73.5), as bench/dynamodb loads them; the box's ts, when left
-- open, is clipped to the data's bounds. Smaller boxes get fewer ranges,
-- larger ones more; 3-D boxes more than 2-D boxes of the same rows.
CREATE TABLE places (sensor_id BIGINT NOT NULL, ts TIMESTAMP NOT NULL, lat DOUBLE PRECISION, lon DOUBLE PRECISION, PRIMARY KEY (sensor_id, ts)) WITH (shards = 1);
CREATE INDEX places_z ON places USING zorder (lat, lon, ts) WITH (shards = 1);
INSERT INTO places SELECT i % 200, '2024-01-01'::timestamp + (i / 200) * interval '432 minutes' + (i * 7907 % 25920) * interval '1 second', 40 + (i * 7919 % 20000) / 20000.0, -74.5 + (i * 104729 % 20000) / 20000.0 FROM generate_series(0, 19999) i;
ANALYZE places

-- 2-D, 0.1% of the area (about 20 rows).
SELECT sensor_id, ts FROM places WHERE lat BETWEEN 40.5 AND 40.5316 AND lon BETWEEN -74.2 AND -74.1684

-- 2-D, 1% (about 200 rows).
SELECT sensor_id, ts FROM places WHERE lat BETWEEN 40.5 AND 40.6 AND lon BETWEEN -74.2 AND -74.1

-- 2-D, 5% (about 1,000 rows).
SELECT sensor_id, ts FROM places WHERE lat BETWEEN 40.5 AND 40.7236 AND lon BETWEEN -74.2 AND -73.9764

-- 3-D, 0.1% of the volume: a tenth of each side (about 20 rows).
SELECT sensor_id, ts FROM places WHERE lat BETWEEN 40.5 AND 40.6 AND lon BETWEEN -74.2 AND -74.1 AND ts BETWEEN '2024-01-10' AND '2024-01-13'

-- 3-D, 1% (about 200 rows).
SELECT sensor_id, ts FROM places WHERE lat BETWEEN 40.5 AND 40.7154 AND lon BETWEEN -74.2 AND -73.9846 AND ts BETWEEN '2024-01-10' AND '2024-01-16 11:04'

-- 3-D, 5% (about 1,000 rows).
SELECT sensor_id, ts FROM places WHERE lat BETWEEN 40.5 AND 40.8684 AND lon BETWEEN -74.2 AND -73.8316 AND ts BETWEEN '2024-01-10' AND '2024-01-21 01:30'
