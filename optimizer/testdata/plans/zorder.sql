-- Rule 4: a 2-attribute box; no prefix path binds lat or lon, so the
-- Z-order estimate beats the full scan's 1.
SELECT sensor_id, celsius FROM readings WHERE lat BETWEEN 40.5 AND 40.9 AND lon BETWEEN -74.1 AND -73.7

-- A 3-attribute box.
SELECT sensor_id FROM readings WHERE lat BETWEEN 40.5 AND 40.9 AND lon BETWEEN -74.1 AND -73.7 AND ts >= '2024-01-01' AND ts < '2024-01-08'

-- One attribute bound (ts alone): the PK cannot use ts (sensor_id leads).
SELECT sensor_id FROM readings WHERE ts >= '2024-01-01' AND ts < '2024-01-02'

-- Z-order vs prefix by estimate: sensor_id = 7 (prefix 1) narrows a 64-bit
-- column to one value, far below the box's fraction.
SELECT celsius FROM readings WHERE sensor_id = 7 AND lat BETWEEN 40 AND 41 AND lon BETWEEN -75 AND -73

-- Z-order vs prefix by estimate: a wide note range (prefix 1) loses to a
-- small box.
SELECT celsius FROM readings WHERE note >= 'a' AND lat BETWEEN 40.5 AND 40.6 AND lon BETWEEN -74.0 AND -73.9

-- Every column: by_place still covers (its key, INCLUDE and primary-key
-- columns are all of them), so no lookup.
SELECT * FROM readings WHERE lat BETWEEN 40.5 AND 40.9 AND lon BETWEEN -74.1 AND -73.7

-- An IN list on a Z attribute is covered by its hull, the list stays in
-- the residual.
SELECT sensor_id FROM readings WHERE lat IN (40.5, 40.7) AND lon BETWEEN -74.1 AND -73.7

-- An empty box (lat > 50 AND lat < 40): no ranges.
SELECT sensor_id FROM readings WHERE lat > 50 AND lat < 40 AND lon > 0
