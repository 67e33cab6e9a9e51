-- A database using the extensions' types and functions, created as
-- PostgreSQL needs them created (pgdump_extensions_test.go): PostGIS's
-- dump copies spatial_ref_sys's user rows (none here), and every
-- extension type it writes is qualified, public.geometry(Point,4326).
CREATE EXTENSION postgis;
CREATE EXTENSION citext;
CREATE EXTENSION hstore;
CREATE EXTENSION pgcrypto;
CREATE SCHEMA app;
CREATE DOMAIN app.email AS citext CHECK (VALUE LIKE '%@%');
CREATE TABLE app.places (
    id integer PRIMARY KEY,
    geom geometry(Point, 4326),
    area geometry(Polygon, 4326),
    here geography(Point, 4326),
    contact app.email,
    tags hstore,
    names citext[],
    token text DEFAULT encode(digest('x', 'sha1'), 'hex')
);
INSERT INTO app.places (id, geom, area, here, contact, tags, names) VALUES
    (1, ST_SetSRID(ST_MakePoint(1, 2), 4326), ST_MakeEnvelope(0, 0, 2, 3, 4326), 'SRID=4326;POINT(1 2)', 'A@Example.com', 'a=>1, b=>2', ARRAY['X', 'y']::citext[]),
    (2, ST_SetSRID(ST_MakePoint(-3.5, 40.25), 4326), NULL, NULL, 'b@example.com', NULL, NULL),
    (3, NULL, NULL, NULL, NULL, '', '{}');
CREATE INDEX places_geom ON app.places USING gist (geom);
