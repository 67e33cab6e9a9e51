-- Plans chosen by cost from statistics (ANALYZE): 10,000 rows, g with 50
-- values, k and d unique, v a smallint with 1,000 values, (x, y) uniform
-- in [0, 100) x [0, 100).
CREATE TABLE pts (id BIGINT PRIMARY KEY, g INT NOT NULL, k TEXT, v SMALLINT, d DATE, x DOUBLE PRECISION, y DOUBLE PRECISION) WITH (shards = 2);
CREATE INDEX pts_g ON pts (g);
CREATE INDEX pts_d ON pts (d);
CREATE INDEX pts_k ON pts (k);
CREATE INDEX pts_v ON pts (v);
CREATE INDEX pts_xy ON pts USING zorder (x, y);
INSERT INTO pts SELECT i, i % 50, 'k' || i, i % 1000, ((2000 + i / 336) || '-' || (1 + (i / 28) % 12) || '-' || (1 + i % 28))::date, (i * 7919 % 10000) / 100.0, (i * 104729 % 10000) / 100.0 FROM generate_series(1, 10000) i;
ANALYZE pts

-- A box holding no rows (y beyond its largest value) beats the index on
-- g, whose 50 values leave 200 rows: the shape of the bounds alone chose g.
SELECT id FROM pts WHERE g = 7 AND x BETWEEN 10 AND 20 AND y BETWEEN 150 AND 160

-- An exact btree equality on a date d never takes (0 rows) beats a small
-- box: the code-space estimate chose the box.
SELECT id FROM pts WHERE d = '1990-01-01' AND x BETWEEN 10 AND 10.1 AND y BETWEEN 10 AND 10.1

-- And v = 5000 (none) beats a box holding 4% of the rows.
SELECT id FROM pts WHERE v = 5000 AND x BETWEEN 10 AND 30 AND y BETWEEN 10 AND 30

-- A common value of v (10 rows) against the same box (400 rows).
SELECT id FROM pts WHERE v = 7 AND x BETWEEN 10 AND 30 AND y BETWEEN 10 AND 30

-- A small box: about 4 rows, but 16 seeks over 2 shards, against v's 10
-- rows (20 items with their lookups): close, and v wins; g's 200 lose.
SELECT id FROM pts WHERE v = 7 AND g = 7 AND x BETWEEN 10 AND 12 AND y BETWEEN 10 AND 12

-- ORDER BY id LIMIT 5 through the non-covering index on g: the path stops
-- after about 5 lookups, far cheaper than its 200 rows.
SELECT * FROM pts WHERE g = 7 ORDER BY id LIMIT 5

-- A range on x alone: the primary key binds nothing; the Z-order index
-- binds x.
SELECT count(*) FROM pts WHERE x < 1

-- The same rows without statistics: the rules see only the shape of the
-- bounds and take the index on g over the empty box, and the box over the
-- equality on d (the two wrong choices statistics fix above).
CREATE TABLE pts_raw (id BIGINT PRIMARY KEY, g INT NOT NULL, k TEXT, v SMALLINT, d DATE, x DOUBLE PRECISION, y DOUBLE PRECISION) WITH (shards = 2);
CREATE INDEX raw_g ON pts_raw (g);
CREATE INDEX raw_d ON pts_raw (d);
CREATE INDEX raw_xy ON pts_raw USING zorder (x, y);
INSERT INTO pts_raw SELECT * FROM pts

SELECT id FROM pts_raw WHERE g = 7 AND x BETWEEN 10 AND 20 AND y BETWEEN 150 AND 160

SELECT id FROM pts_raw WHERE d = '1990-01-01' AND x BETWEEN 10 AND 10.1 AND y BETWEEN 10 AND 10.1
