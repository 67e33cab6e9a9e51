-- Range types over float8 and text, with their multiranges, used by a
-- table's columns and a gist index (pgdump_ranges_test.go).
CREATE SCHEMA app;
CREATE TYPE app.floatrange AS RANGE (subtype = float8, subtype_diff = float8mi);
CREATE TYPE public.textrange AS RANGE (subtype = text, collation = "C", multirange_type_name = textranges);
CREATE TABLE app.bookings (
    id integer PRIMARY KEY,
    during app.floatrange,
    spans app.floatmultirange,
    names public.textrange,
    history app.floatrange[]
);
INSERT INTO app.bookings VALUES
    (1, '[1,5)', '{[1,2),[3,4)}', '[a,c)', ARRAY['[1,2)'::app.floatrange]),
    (2, app.floatrange(4, 8, '[]'), NULL, textrange('b', NULL), NULL),
    (3, 'empty', '{}', 'empty', '{}');
CREATE INDEX bookings_during ON app.bookings USING gist (during);
CREATE INDEX bookings_names ON app.bookings (names);
