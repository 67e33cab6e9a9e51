-- EXPLAIN (FORMAT XML) in PostgreSQL's layout: tags are the keys with
-- spaces turned into hyphens.
EXPLAIN (FORMAT XML) SELECT ts, celsius FROM readings WHERE sensor_id = 7 ORDER BY ts DESC LIMIT 10

EXPLAIN (FORMAT XML, VERBOSE) SELECT /*+ MERGE_JOIN(s) */ r.ts, s.name FROM readings r JOIN sensors s ON s.name = r.note

EXPLAIN (FORMAT XML, COSTS OFF) UPDATE accounts SET region = 'eu' WHERE email = 'ann@example.com'

EXPLAIN (FORMAT XML, ANALYZE, TIMING OFF, SUMMARY OFF) SELECT 1
