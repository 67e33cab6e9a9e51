CREATE SEQUENCE dp_seq;
CREATE TABLE dp_t (
  id serial PRIMARY KEY,
  n integer NOT NULL DEFAULT 0 CHECK (n > 0),
  m integer DEFAULT -1,
  big bigint DEFAULT 5000000000,
  price numeric(10,2) DEFAULT 1.5 CHECK (price >= 0 AND price < 1000),
  neg numeric DEFAULT -2.5,
  name varchar(40) DEFAULT 'x' CHECK (name <> ''),
  title text DEFAULT 'a''b' NOT NULL,
  code char(3) DEFAULT 'abc',
  flag boolean DEFAULT true,
  f8 double precision DEFAULT 1.5,
  ts timestamp DEFAULT now(),
  tstz timestamptz DEFAULT CURRENT_TIMESTAMP,
  d date DEFAULT CURRENT_DATE,
  s2 bigint DEFAULT nextval('dp_seq'),
  tags text[] DEFAULT '{}',
  lowered text DEFAULT lower('ABC'),
  j jsonb DEFAULT '{}'::jsonb,
  u uuid,
  CHECK (n < 100 OR flag),
  CHECK (n BETWEEN 1 AND 50),
  CHECK (name IN ('x', 'y', 'z')),
  CHECK (title LIKE 'a%'),
  CHECK (n IS NOT NULL AND m IS NULL OR NOT flag),
  CHECK (coalesce(m, 0) >= -5),
  CHECK (length(title) < 100),
  CHECK (n + m * 2 > -(n - 1)),
  CHECK (price::integer < 500),
  CHECK (CASE WHEN flag THEN n > 1 ELSE n > 2 END),
  UNIQUE (name, code)
);
CREATE TABLE dp_child (
  id integer PRIMARY KEY,
  parent integer REFERENCES dp_t (id) ON DELETE CASCADE,
  name varchar(40),
  code char(3),
  FOREIGN KEY (name, code) REFERENCES dp_t (name, code) ON UPDATE SET NULL
);
CREATE INDEX dp_t_lower ON dp_t (lower(title));
CREATE INDEX dp_t_partial ON dp_t (n) WHERE n > 10 AND flag;
CREATE INDEX dp_t_expr2 ON dp_t ((n + m), name);
CREATE UNIQUE INDEX dp_t_uq ON dp_t (title) WHERE name IS NOT NULL;
CREATE INDEX dp_t_desc ON dp_t (n DESC, m);
CREATE TABLE dp_s (
  k integer PRIMARY KEY,
  a integer DEFAULT 2 + 3,
  b numeric DEFAULT 0,
  c double precision DEFAULT 0,
  e double precision DEFAULT -1.25,
  f real DEFAULT 2.5,
  g date DEFAULT '2020-01-02',
  h interval DEFAULT '1 day',
  i text DEFAULT upper('x') || 'y',
  l integer[] DEFAULT '{1,2}',
  o text[] DEFAULT '{a,b}',
  p numeric(8,3) DEFAULT 12,
  q boolean DEFAULT false,
  r varchar(10) DEFAULT NULL,
  s bigint DEFAULT 7,
  t timestamp DEFAULT '2020-01-02 03:04:05',
  u text DEFAULT current_user,
  v uuid DEFAULT gen_random_uuid(),
  w smallint DEFAULT 3,
  CHECK (a IS DISTINCT FROM b),
  CHECK (a NOT IN (1, 2, 3)),
  CHECK (i ILIKE 'x%' AND i NOT LIKE '%z'),
  CHECK (i || 'a' <> 'b'),
  CHECK (c > 0 AND e < 1.5),
  CHECK (a % 2 = 0),
  CHECK (a - (s - w) > 0),
  CHECK ((a - s) - w > 0),
  CHECK (a * (s + w) > 0),
  CHECK ((a > 0 OR q) AND NOT q IS NULL),
  CHECK (NOT (a > 1 AND q)),
  CHECK (a > 1 AND (q OR s > 2)),
  CHECK (greatest(a, s) < least(s, 100)),
  CHECK (nullif(a, 0) IS NOT NULL),
  CHECK (upper(i) = 'X'),
  CHECK (g > '2000-01-01'),
  CHECK (i ~ '^[a-z]+$'),
  CHECK (abs(a) < 1000),
  CHECK (b * 1.1 < 100),
  CHECK (f > 0),
  CHECK (p >= a),
  CHECK (CASE a WHEN 1 THEN q ELSE NOT q END),
  CHECK (CASE WHEN a > 0 THEN 'x' END IS NOT NULL),
  CHECK (char_length(r) <= 5),
  CHECK (s > 5000000000),
  CHECK (w < 10 AND s > a),
  CHECK (a NOT BETWEEN 100 AND 200 AND w >= 0)
);
CREATE INDEX dp_s_cast ON dp_s ((a::text));
CREATE INDEX dp_s_arith ON dp_s ((a * 2 + s));
CREATE INDEX dp_s_coalesce ON dp_s (coalesce(r, i));
CREATE INDEX dp_s_pred2 ON dp_s (k) WHERE a IS NOT NULL OR q;
CREATE INDEX dp_s_pred3 ON dp_s (k) WHERE i LIKE 'a%';
CREATE INDEX dp_s_pred4 ON dp_s (k) WHERE r IN ('a', 'b');
CREATE INDEX dp_s_pred5 ON dp_s (k) WHERE b > 0 AND NOT q;
CREATE VIEW dp_v1 AS SELECT id, n, name FROM dp_t WHERE n > 5;
CREATE VIEW dp_v2 AS SELECT t.id, c.name AS child_name FROM dp_t t JOIN dp_child c ON c.parent = t.id;
CREATE VIEW dp_v3 AS SELECT n, count(*) AS cnt, sum(price) AS total FROM dp_t GROUP BY n HAVING count(*) > 1 ORDER BY n;
CREATE VIEW dp_v4 AS SELECT id, CASE WHEN n > 10 THEN 'big' ELSE 'small' END AS size FROM dp_t;
CREATE VIEW dp_v5 AS SELECT id, n::text AS ntext, lower(name) AS lname, n * 2 + 1 AS calc FROM dp_t;
CREATE VIEW dp_v6 AS SELECT id FROM dp_t WHERE id IN (SELECT parent FROM dp_child);
CREATE VIEW dp_v7 AS SELECT t.id, c.id AS cid FROM dp_t t LEFT JOIN dp_child c ON c.parent = t.id WHERE c.id IS NULL;
CREATE VIEW dp_v8 AS SELECT DISTINCT name FROM dp_t ORDER BY name LIMIT 10;
CREATE VIEW dp_v9 AS SELECT k, a + s AS total, coalesce(r, i) AS label, g - 1 AS prev, b > 0 AS positive FROM dp_s WHERE a BETWEEN 1 AND 10 AND r IS NOT NULL;
CREATE VIEW dp_v10 AS SELECT s.k, t.n FROM dp_s s, dp_t t WHERE s.a = t.n ORDER BY s.k DESC;
CREATE MATERIALIZED VIEW dp_mv AS SELECT n, count(*) AS cnt FROM dp_t GROUP BY n;
CREATE VIEW dp_v11 AS SELECT 1 AS a, 'x'::text AS b, now() AS c;
CREATE VIEW dp_v12 AS SELECT table_name FROM information_schema.tables WHERE table_schema = 'public';
CREATE VIEW dp_v13 AS SELECT c.table_name, c.column_name, c.ordinal_position FROM information_schema.columns c WHERE c.table_schema NOT IN ('pg_catalog', 'information_schema') AND c.ordinal_position > 1 AND c.is_nullable = 'YES' ORDER BY c.table_name, c.ordinal_position;
CREATE VIEW dp_v14 AS SELECT upper(table_name) AS u, table_name || '_x' AS x FROM information_schema.views WHERE table_name LIKE 'dp%';
CREATE VIEW dp_v15 AS SELECT * FROM ROWS FROM (generate_series(1, 3), unnest(ARRAY['a', 'b'])) WITH ORDINALITY AS x(a, b, o);
CREATE VIEW dp_v16 AS SELECT * FROM ROWS FROM (generate_series(1, 3), unnest(ARRAY['a', 'b']));
CREATE VIEW dp_v17 AS SELECT id, dp_t.n, dp_child.parent FROM dp_t FULL JOIN dp_child USING (id) WHERE id > 1 ORDER BY id;
CREATE VIEW dp_v18 AS SELECT t.id, c.name FROM dp_t t CROSS JOIN dp_child c;
CREATE VIEW dp_v19 AS SELECT t.id, c.name FROM dp_t t CROSS JOIN (dp_child c JOIN dp_t t2 ON t2.id = c.parent) CROSS JOIN dp_s;
CREATE VIEW dp_v20 AS SELECT id FROM dp_t WHERE n > 0 AND n > 1 AND n > 2 AND n > 3 OR n < 0 OR id = 5;
CREATE VIEW dp_v21 AS SELECT relname, relnamespace::regnamespace AS ns FROM pg_class WHERE relnamespace = 'public'::regnamespace AND oid IN ('dp_t'::regclass, 'dp_s'::regclass);
CREATE VIEW dp_v22 AS SELECT id, tags[1] AS first, (tags || 'z'::text)[2] AS second, extract(year FROM ts) AS y, tstz AT TIME ZONE 'UTC' AS utc FROM dp_t WHERE extract(dow FROM d) = 1;
CREATE VIEW dp_v23 AS SELECT id, flag IS TRUE AS t, flag IS NOT FALSE AS nf, name IS NOT DISTINCT FROM title AS same FROM dp_t WHERE NOT (flag IS TRUE) OR n IS NOT DISTINCT FROM 1;
CREATE VIEW dp_v24 AS SELECT id, jsonb_build_object('id', id, 'name', name) AS j, concat('a', title) AS c, format('%s-%s', id, n) AS f FROM dp_t;
CREATE TABLE dp_x (k int, v int, flag boolean, CHECK (flag IS NOT FALSE), CHECK (k IS DISTINCT FROM v));
CREATE VIEW dp_v25 AS SELECT date_trunc('month', ts) AS month, lower(title) AS lt, count(*) FROM dp_t GROUP BY 1, lower(title) ORDER BY 1 DESC, 2;
CREATE VIEW dp_v26 AS SELECT n, percentile_cont(0.5) WITHIN GROUP (ORDER BY price) AS med, percentile_disc(0.9) WITHIN GROUP (ORDER BY ts DESC) AS p90, mode() WITHIN GROUP (ORDER BY name) AS m FROM dp_t GROUP BY n;
CREATE VIEW dp_v27 AS SELECT id, unnest(tags) AS tag, generate_series(1, n) AS g FROM dp_t WHERE n > 1;
CREATE VIEW dp_v28 AS SELECT id, j -> 'a' -> 'b' AS ab, j -> 'a' ->> 'b' AS abt, tags[1:2] AS sl, CASE WHEN price IS NULL THEN 0 ELSE price END AS p, greatest(price, 0) AS g FROM dp_t;
CREATE VIEW dp_v29 AS SELECT id, trim(title) AS t1, trim(LEADING 'x' FROM title) AS t2, trim(TRAILING FROM name) AS t3, btrim(title) AS t4, position('x' IN title) AS p1, position(name IN title) AS p2 FROM dp_t WHERE position('q' IN title) > 0;
CREATE TABLE dp_y (k int, s text, CHECK (trim(s) <> ''), CHECK (position('@' IN s) > 0));
