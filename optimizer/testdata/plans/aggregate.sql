-- COUNT over a key range.
SELECT count(*) FROM readings WHERE sensor_id = 7

-- Aggregates over a Z-order box with GROUP BY, HAVING and ORDER BY.
SELECT note, count(*), avg(celsius), min(celsius), max(celsius) FROM readings WHERE lat BETWEEN 40.5 AND 40.9 AND lon BETWEEN -74.1 AND -73.7 GROUP BY note HAVING count(*) > 1 ORDER BY note

-- Aggregate over the whole table: no filter, no notice.
SELECT sum(celsius) FROM readings

-- GROUP BY a key column with ORDER BY LIMIT: aggregation blocks pushdown.
SELECT sensor_id, max(ts) FROM readings WHERE sensor_id IN (1, 2, 3) GROUP BY sensor_id ORDER BY sensor_id LIMIT 2

-- DISTINCT.
SELECT DISTINCT region FROM sensors WHERE region >= 'a'
