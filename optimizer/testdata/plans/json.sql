-- EXPLAIN (FORMAT JSON) carries the same content as the text form.
EXPLAIN (FORMAT JSON) SELECT ts, celsius FROM readings WHERE sensor_id = 7 ORDER BY ts DESC LIMIT 10

EXPLAIN (FORMAT JSON) SELECT sensor_id FROM readings WHERE lat BETWEEN 40.5 AND 40.9 AND lon BETWEEN -74.1 AND -73.7

EXPLAIN (FORMAT JSON) SELECT name FROM sensors WHERE id IN (1, 2)
