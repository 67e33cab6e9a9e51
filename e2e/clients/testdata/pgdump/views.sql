-- Views of the shapes real schemas use (subqueries, FROM subqueries,
-- LATERAL, FILTER, window functions, WITH, ORDER BY and LIMIT, VALUES),
-- for the pg_dump round trip of pgdump_views_test.go.
CREATE TABLE vs_t (k int PRIMARY KEY, g text, v int, d date);
CREATE TABLE vs_u (id int PRIMARY KEY, k int, amt numeric(10,2));
INSERT INTO vs_t VALUES (1,'a',10,'2024-01-01'),(2,'a',20,'2024-01-02'),(3,'b',30,NULL),(4,'b',NULL,'2024-02-01'),(5,'c',50,'2024-03-01');
INSERT INTO vs_u VALUES (1,1,1.50),(2,1,2.25),(3,3,9.00),(4,9,4.00);
CREATE VIEW vs_s1 AS SELECT k, (SELECT max(amt) FROM vs_u) AS top FROM vs_t;
CREATE VIEW vs_s2 AS SELECT t.k, (SELECT sum(u.amt) FROM vs_u u WHERE u.k = t.k) AS total FROM vs_t t;
CREATE VIEW vs_s3 AS SELECT k, g FROM vs_t WHERE EXISTS (SELECT 1 FROM vs_u WHERE vs_u.k = vs_t.k);
CREATE VIEW vs_s4 AS SELECT k FROM vs_t WHERE k IN (SELECT k FROM vs_u) AND NOT EXISTS (SELECT 1 FROM vs_u WHERE amt > 100);
CREATE VIEW vs_s5 AS SELECT k FROM vs_t WHERE k = ANY (SELECT k FROM vs_u WHERE amt > 2) OR v > (SELECT avg(amt) FROM vs_u);
CREATE VIEW vs_s6 AS SELECT s.g, s.n FROM (SELECT g, count(*) AS n FROM vs_t GROUP BY g) s WHERE s.n > 1;
CREATE VIEW vs_s7 AS SELECT x.a, x.b FROM (SELECT k, v FROM vs_t) AS x(a, b);
CREATE VIEW vs_s8 AS SELECT t.k, l.amt FROM vs_t t, LATERAL (SELECT u.amt FROM vs_u u WHERE u.k = t.k ORDER BY u.amt DESC LIMIT 1) l;
CREATE VIEW vs_s9 AS SELECT k FROM vs_t WHERE k NOT IN (SELECT k FROM vs_u WHERE k IS NOT NULL);
CREATE VIEW vs_w1 AS SELECT k, g, row_number() OVER (PARTITION BY g ORDER BY k) AS rn, sum(v) OVER (ORDER BY k ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS running FROM vs_t;
CREATE VIEW vs_w3 AS SELECT g, count(*) FILTER (WHERE v > 15) AS big, sum(v) AS total FROM vs_t GROUP BY g;
CREATE VIEW vs_w4 AS SELECT k, sum(v) OVER () AS s, avg(v) OVER (PARTITION BY g) AS a FROM vs_t;
CREATE VIEW vs_c1 AS WITH big AS (SELECT k, v FROM vs_t WHERE v > 15) SELECT k FROM big;
CREATE VIEW vs_c2 AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT n FROM r;
CREATE VIEW vs_c3 AS WITH m AS MATERIALIZED (SELECT k FROM vs_t), n AS NOT MATERIALIZED (SELECT k FROM vs_u) SELECT m.k FROM m JOIN n ON m.k = n.k;
CREATE VIEW vs_g4 AS SELECT g, count(*) AS n FROM vs_t GROUP BY g HAVING sum(v) > 10 ORDER BY g DESC LIMIT 2 OFFSET 1;
CREATE VIEW vs_g5 AS SELECT k FROM vs_t ORDER BY k FETCH FIRST 3 ROWS ONLY;
CREATE VIEW vs_g6 AS SELECT x.a, x.b FROM (VALUES (1, 'one'), (2, 'two')) AS x(a, b);
CREATE VIEW vs_g7 AS SELECT * FROM (VALUES (1), (2)) v;
CREATE VIEW vs_n1 AS SELECT k, (SELECT max(k) FROM vs_t) AS m FROM vs_t;
CREATE VIEW vs_n2 AS SELECT t.k FROM vs_t t WHERE EXISTS (SELECT 1 FROM vs_t t WHERE t.v > 1);
CREATE VIEW vs_n3 AS SELECT s.k FROM (SELECT k FROM vs_t) s JOIN vs_t ON vs_t.k = s.k;
CREATE VIEW vs_n4 AS WITH a AS (SELECT k FROM vs_t) SELECT a.k FROM a JOIN vs_t ON vs_t.k = a.k;
CREATE VIEW vs_n5 AS WITH a AS (SELECT 1 AS x), b AS (SELECT x FROM a) SELECT x FROM b;
CREATE VIEW vs_n6 AS SELECT k FROM vs_t WHERE k IN (SELECT k FROM vs_u) AND k IN (SELECT k FROM vs_u WHERE k IN (SELECT k FROM vs_t));
CREATE VIEW vs_n7 AS WITH RECURSIVE tree(id, depth) AS (SELECT k, 0 FROM vs_t WHERE k = 1 UNION SELECT t.k, tree.depth + 1 FROM vs_t t JOIN tree ON t.k = tree.id + 1 WHERE tree.depth < 3) SELECT id, depth FROM tree;
CREATE VIEW vs_n8 AS SELECT g, k FROM vs_t UNION ALL SELECT 'z', (SELECT count(*)::int FROM vs_t WHERE v > 10) ORDER BY 2;
CREATE VIEW vs_n9 AS SELECT k, v FROM vs_t t WHERE v > ALL (SELECT amt FROM vs_u WHERE vs_u.k = t.k) AND v <> ANY (SELECT k FROM vs_u);
CREATE VIEW vs_n10 AS SELECT count(*) AS n, avg(x.v) FILTER (WHERE x.g <> 'a') AS av FROM (SELECT g, v, rank() OVER (PARTITION BY g ORDER BY v DESC NULLS LAST) AS r FROM vs_t) x WHERE x.r = 1;
