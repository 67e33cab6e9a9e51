-- ROLLUP: one hashed pass over the scan, a key per grouping set and the
-- empty set's row; HAVING stays above the Aggregate.
SELECT sensor_id, note, count(*), avg(celsius) FROM readings WHERE sensor_id IN (1, 2) GROUP BY ROLLUP (sensor_id, note) HAVING count(*) > 1 ORDER BY sensor_id, note

-- CUBE with grouping().
SELECT region, kind, count(*), grouping(region, kind) FROM sensors GROUP BY CUBE (region, kind) ORDER BY 4, 1, 2

-- GROUPING SETS mixed with a plain column: the cross product of the sets.
SELECT region, kind, name, count(*) FROM sensors GROUP BY region, GROUPING SETS ((kind), (name), ())

-- A filter on a group column is not pushed below grouping sets (a
-- rolled-up row has NULL there whatever the rows held).
SELECT * FROM (SELECT region, count(*) AS n FROM sensors GROUP BY ROLLUP (region)) s WHERE region IS NULL

-- Ordered-set aggregates per group, and ORDER BY inside an aggregate.
SELECT note, percentile_cont(0.5) WITHIN GROUP (ORDER BY celsius), mode() WITHIN GROUP (ORDER BY lat DESC), string_agg(note, ',' ORDER BY ts DESC) FROM readings WHERE sensor_id = 3 GROUP BY note
