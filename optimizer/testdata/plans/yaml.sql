-- EXPLAIN (FORMAT YAML) in PostgreSQL's layout.
EXPLAIN (FORMAT YAML) SELECT ts, celsius FROM readings WHERE sensor_id = 7 ORDER BY ts DESC LIMIT 10

EXPLAIN (FORMAT YAML, VERBOSE) SELECT /*+ MERGE_JOIN(s) */ r.ts, s.name FROM readings r JOIN sensors s ON s.name = r.note

EXPLAIN (FORMAT YAML, COSTS OFF) WITH eu AS (SELECT id, name FROM sensors WHERE region = 'eu') SELECT a.name, b.name FROM eu a JOIN eu b ON a.id < b.id

EXPLAIN (FORMAT YAML, ANALYZE, TIMING OFF, SUMMARY OFF) SELECT 1
