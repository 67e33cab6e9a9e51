-- Rule 1: USE_INDEX honoured even though the primary key binds more.
SELECT /*+ USE_INDEX(readings, by_note) */ note, celsius FROM readings WHERE sensor_id = 7

-- USE_INDEX of the Z-order index with a bound attribute.
SELECT /*+ USE_INDEX(readings, by_place) */ celsius FROM readings WHERE sensor_id = 7 AND lat > 40

-- USE_INDEX(primary) overrides a better Z-order path.
SELECT /*+ USE_INDEX(readings, primary) */ sensor_id FROM readings WHERE lat BETWEEN 40.5 AND 40.9 AND lon BETWEEN -74.1 AND -73.7

-- IGNORE_INDEX removes a candidate; the next rule applies.
SELECT /*+ IGNORE_INDEX(readings, by_place) */ sensor_id FROM readings WHERE lat BETWEEN 40.5 AND 40.9 AND lon BETWEEN -74.1 AND -73.7

-- IGNORE_INDEX of several indexes.
SELECT /*+ IGNORE_INDEX(sensors, by_region, by_region_kind) */ id FROM sensors WHERE region = 'eu'

-- Unknown index: reported in EXPLAIN and as a NOTICE, rules apply.
SELECT /*+ USE_INDEX(readings, no_such_index) */ ts FROM readings WHERE sensor_id = 7

-- An index still being built cannot be used.
SELECT /*+ USE_INDEX(readings, by_celsius) */ ts FROM readings WHERE celsius > 30

-- A Z-order index with no bound attribute cannot be used.
SELECT /*+ USE_INDEX(readings, by_place) */ ts FROM readings WHERE sensor_id = 7

-- A hint naming another table.
SELECT /*+ USE_INDEX(sensors, by_region) */ ts FROM readings WHERE sensor_id = 7

-- A building index is never a candidate without a hint either.
SELECT ts FROM readings WHERE celsius = 21.5

-- Several hints: each is reported; the unhonoured one also as a NOTICE.
SELECT /*+ USE_INDEX(readings, no_such_index) IGNORE_INDEX(readings, by_place) */ sensor_id FROM readings WHERE lat BETWEEN 40.5 AND 40.9 AND lon BETWEEN -74.1 AND -73.7

-- USE_INDEX naming two indexes: the last usable one is forced.
SELECT /*+ USE_INDEX(readings, by_note, by_place) */ sensor_id FROM readings WHERE lat > 40
