-- Rule 5: no index binds celsius: a full scan of every shard, a NOTICE
-- naming the index that would help, the predicate as residual.
SELECT sensor_id FROM readings WHERE celsius > 30

-- Two unindexed columns: the NOTICE suggests a btree or a Z-order index.
SELECT id FROM sensors WHERE name = 'x' AND installed > '2020-01-01'

-- No WHERE: a full scan is what was asked for, so no NOTICE.
SELECT * FROM sensors

-- A predicate no column bound can capture (an OR over two columns).
SELECT id FROM sensors WHERE region = 'eu' OR kind = 'x'

-- Refused when zproxy.allow_full_scan is off.
SET zproxy.allow_full_scan = off;
SELECT sensor_id FROM readings WHERE celsius > 30

-- With the setting off, indexed paths are still fine.
SET zproxy.allow_full_scan = off;
SELECT ts FROM readings WHERE sensor_id = 7

-- A filter folded to true is no filter: no residual, as PostgreSQL shows
-- none.
SELECT id FROM sensors WHERE region = 'eu' OR true

-- A conjunct folded to true leaves the others.
SELECT id FROM sensors WHERE kind = 'x' AND (region = 'eu' OR true)

-- A conjunct folded to false or NULL: no row qualifies, the scan reads
-- nothing, and its filter is PostgreSQL's One-Time Filter: false.
SELECT id FROM sensors WHERE kind = 'x' AND NULL

SELECT id FROM sensors WHERE region = 'eu' AND false
