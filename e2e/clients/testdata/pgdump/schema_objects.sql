-- A schema holding an enum, a domain, a composite type and a function,
-- used by a table's columns and default and by a view (pgdump_schema_test.go).
CREATE SCHEMA app;
CREATE TYPE app.mood AS ENUM ('sad', 'ok', 'happy');
CREATE DOMAIN app.pos AS integer CHECK (VALUE > 0);
CREATE TYPE app.pair AS (a integer, b text);
CREATE FUNCTION app.next_no(x integer) RETURNS integer LANGUAGE sql IMMUTABLE AS 'SELECT x + 1';
CREATE FUNCTION app.describe(m app.mood) RETURNS text LANGUAGE sql STABLE AS $$SELECT 'feeling ' || m::text$$;
CREATE TABLE app.entries (
    id integer PRIMARY KEY,
    m app.mood NOT NULL DEFAULT 'ok',
    moods app.mood[],
    qty app.pos,
    p app.pair,
    n integer DEFAULT app.next_no(41)
);
INSERT INTO app.entries (id, m, moods, qty, p) VALUES
    (1, 'happy', '{sad,ok}', 3, ROW(1, 'one')),
    (2, DEFAULT, NULL, NULL, NULL),
    (3, 'sad', '{}', 7, ROW(3, 'three'));
CREATE VIEW app.feelings AS SELECT id, app.describe(m) AS d, qty FROM app.entries;
CREATE TABLE public.notes (id integer PRIMARY KEY, m app.mood);
INSERT INTO public.notes VALUES (1, 'ok');
-- Operators, an aggregate and a cast's function in the schema.
CREATE FUNCTION app.near(a integer, b integer) RETURNS boolean LANGUAGE sql IMMUTABLE AS 'SELECT abs(a - b) <= 1';
CREATE FUNCTION app.far(a integer, b integer) RETURNS boolean LANGUAGE sql IMMUTABLE AS 'SELECT abs(a - b) > 1';
CREATE OPERATOR app.!~= (FUNCTION = app.far, LEFTARG = integer, RIGHTARG = integer);
CREATE OPERATOR app.=~= (FUNCTION = app.near, LEFTARG = integer, RIGHTARG = integer, COMMUTATOR = OPERATOR(app.=~=), NEGATOR = OPERATOR(app.!~=));
CREATE OPERATOR app.~~~ (FUNCTION = app.next_no, RIGHTARG = integer);
CREATE AGGREGATE app.total(integer) (SFUNC = int4pl, STYPE = integer, INITCOND = '0');
CREATE FUNCTION app.mood_no(m app.mood) RETURNS integer LANGUAGE sql IMMUTABLE AS $$SELECT CASE m WHEN 'sad' THEN 0 WHEN 'ok' THEN 1 ELSE 2 END$$;
CREATE CAST (app.mood AS integer) WITH FUNCTION app.mood_no(app.mood);
-- Comments on each kind of object, which pg_dump writes as COMMENT ON.
CREATE SEQUENCE app.tickets;
COMMENT ON SCHEMA app IS 'dump: the schema';
COMMENT ON TYPE app.mood IS 'dump: an enum';
COMMENT ON DOMAIN app.pos IS 'dump: a domain';
COMMENT ON TYPE app.pair IS 'dump: a composite';
COMMENT ON FUNCTION app.next_no(integer) IS 'dump: a function';
COMMENT ON AGGREGATE app.total(integer) IS 'dump: an aggregate';
COMMENT ON TABLE app.entries IS 'dump: a table';
COMMENT ON COLUMN app.entries.qty IS 'dump: a column';
COMMENT ON CONSTRAINT entries_pkey ON app.entries IS 'dump: a key';
COMMENT ON CONSTRAINT pos_check ON DOMAIN app.pos IS 'dump: a domain check';
COMMENT ON SEQUENCE app.tickets IS 'dump: a sequence';
COMMENT ON VIEW app.feelings IS 'dump: a view';
