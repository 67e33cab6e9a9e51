-- Join hints are consulted before rule 3's swap. INL_JOIN naming the right
-- table: it is looked up, although without the hint rule 3 would look up
-- sensors instead (neither side selective, sensors has point gets).
SELECT /*+ INL_JOIN(r) */ s.name, r.ts FROM sensors s JOIN readings r ON r.sensor_id = s.id

-- The same join without the hint, for comparison.
SELECT s.name, r.ts FROM sensors s JOIN readings r ON r.sensor_id = s.id

-- INL_JOIN naming the left table of an inner join: the sides swap so that
-- it is the one looked up.
SELECT /*+ INL_JOIN(s) */ s.name, r.ts FROM sensors s JOIN readings r ON r.sensor_id = s.id WHERE r.sensor_id = 3

-- INL_JOIN naming the preserved side of a LEFT JOIN cannot be honoured.
SELECT /*+ INL_JOIN(s) */ s.name, r.ts FROM sensors s LEFT JOIN readings r ON r.sensor_id = s.id

-- MERGE_JOIN naming either table is honoured when both inputs arrive in
-- join-key order.
SELECT /*+ MERGE_JOIN(r) */ r.ts, s.name FROM readings r JOIN sensors s ON s.id = r.sensor_id

-- MERGE_JOIN that cannot be honoured is reported, also where a lookup join
-- would otherwise have been chosen.
SELECT /*+ MERGE_JOIN(s) */ r.ts, s.name FROM readings r JOIN sensors s ON s.name = r.note

SELECT /*+ MERGE_JOIN(r) */ r.ts, s.name FROM sensors s JOIN readings r ON r.sensor_id = s.id WHERE s.region = 'eu'

-- HASH_JOIN naming the left table.
SELECT /*+ HASH_JOIN(s) */ s.name, r.ts FROM sensors s JOIN readings r ON r.sensor_id = s.id

-- A join hint where there is no equality.
SELECT /*+ HASH_JOIN(l) */ s.name, l.host FROM sensors s JOIN logs l ON l.id > s.id

-- FULL and RIGHT joins say why they are hash joins.
SELECT s.name, l.level FROM sensors s FULL JOIN logs l ON l.id = s.id

SELECT s.name, l.level FROM sensors s RIGHT JOIN logs l ON l.host = s.name

-- An unhonoured MERGE_JOIN leaves the choice to the other rules (here a
-- lookup join: readings arrive by note, not by sensor).
SELECT /*+ MERGE_JOIN(s) */ r.ts, s.name FROM readings r JOIN sensors s ON s.id = r.sensor_id WHERE r.note = 'hot'
