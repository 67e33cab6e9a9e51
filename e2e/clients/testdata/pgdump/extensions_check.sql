-- What must agree between the databases of pgdump_extensions_test.go.
SELECT extname, extnamespace::regnamespace, extversion FROM pg_extension WHERE extname IN ('postgis', 'citext', 'hstore', 'pgcrypto') ORDER BY 1;
SELECT a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a WHERE a.attrelid = 'app.places'::regclass AND a.attnum > 0 ORDER BY a.attnum;
SELECT id, ST_AsEWKT(geom), ST_AsText(area), ST_AsText(here::geometry), contact, tags, names, token FROM app.places ORDER BY id;
SELECT id, contact = 'a@example.COM', contact::text LIKE '%EXAMPLE%', contact LIKE '%EXAMPLE%' FROM app.places ORDER BY id;
SELECT id FROM app.places WHERE geom && ST_MakeEnvelope(0, 0, 5, 5, 4326) ORDER BY id;
SELECT f_table_schema, f_table_name, f_geometry_column, coord_dimension, srid, type FROM geometry_columns WHERE f_table_schema = 'app' ORDER BY 3;
SELECT count(*) FROM spatial_ref_sys WHERE srid IN (4326, 3857);
