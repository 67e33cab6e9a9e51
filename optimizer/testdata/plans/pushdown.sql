-- LATERAL top-1 per row: the dynamic scan promises the key order (ts DESC)
-- and stops after 1 row per opening, instead of reading every reading of
-- the sensor into a TopN.
SELECT s.name, x.celsius FROM sensors s, LATERAL (SELECT celsius FROM readings r WHERE r.sensor_id = s.id ORDER BY ts DESC LIMIT 1) x

-- An order no path yields: each opening sorts what it read (a TopN within
-- the scan), still without a TopN above it.
SELECT s.name, x.celsius FROM sensors s, LATERAL (SELECT celsius FROM readings r WHERE r.sensor_id = s.id ORDER BY celsius DESC LIMIT 2) x

-- A correlated scalar subquery with ORDER BY ... LIMIT 1 is the same.
SELECT s.name, (SELECT celsius FROM readings r WHERE r.sensor_id = s.id ORDER BY ts DESC LIMIT 1) FROM sensors s WHERE s.region = 'eu'
