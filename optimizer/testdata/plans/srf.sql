-- Set-returning functions in the select list: a ProjectSet between the
-- scan and the projection.
SELECT id, generate_series(1, 3) FROM sensors WHERE id = 5

-- A conjunct on the input's columns goes below the ProjectSet (here it
-- becomes a point get); one on the function's value stays above it.
SELECT * FROM (SELECT id, generate_series(1, 3) AS g FROM sensors) s WHERE id = 5 AND g > 1

-- An order on the input's columns passes through (the scan yields it), but
-- not the limit: one input row may become several rows, or none.
SELECT id, generate_series(1, 2) FROM sensors ORDER BY id LIMIT 3

-- A call inside another's arguments is one ProjectSet level lower.
SELECT generate_series(1, generate_series(1, 3)) AS a, generate_series(1, 2) AS b

-- Over an aggregate.
SELECT sensor_id, generate_series(1, count(*)::int) FROM readings WHERE sensor_id = 7 GROUP BY sensor_id

-- In FROM: a function scan per left row (LATERAL).
SELECT s.id, g FROM sensors s, generate_series(1, s.id) g WHERE s.region = 'eu'
