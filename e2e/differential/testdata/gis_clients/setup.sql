-- The tables both replays were recorded against (/tmp/gs_setup.sql of the
-- GeoServer replay): a point layer with a serial key and a gist index, a
-- polygon layer, both ANALYZEd so that ST_EstimatedExtent and pg_stats
-- have statistics. Forty 24-vertex rings join the five polygons, so that
-- ST_Simplify, ST_SnapToGrid and ST_AsTWKB have vertices to drop.

-- @ setup/extension
CREATE EXTENSION IF NOT EXISTS postgis

-- @ setup/drop
DROP TABLE IF EXISTS pois, zones

-- @ setup/pois
CREATE TABLE pois (id serial PRIMARY KEY, name text, kind int, geom geometry(Point, 4326))

-- @ setup/pois_geom
CREATE INDEX pois_geom ON pois USING gist (geom)

-- @ setup/zones
CREATE TABLE zones (id int PRIMARY KEY, label text, area geometry(Polygon, 4326))

-- @ setup/zones_area
CREATE INDEX zones_area ON zones USING gist (area)

-- @ setup/pois_rows
INSERT INTO pois (name, kind, geom) SELECT 'poi ' || i, i % 5, ST_SetSRID(ST_MakePoint(-10 + ((i * 7919) % 2000) / 100.0, 40 + ((i * 104729) % 1000) / 100.0), 4326) FROM generate_series(1, 300) AS i

-- @ setup/zones_rows
INSERT INTO zones VALUES
 (1, 'z1', ST_GeomFromText('POLYGON((-10 40,-5 40,-5 45,-10 45,-10 40))', 4326)),
 (2, 'z2', ST_GeomFromText('POLYGON((-5 40,0 40,0 45,-5 45,-5 40))', 4326)),
 (3, 'z3', ST_GeomFromText('POLYGON((0 45,5 45,5 50,0 50,0 45))', 4326)),
 (4, 'z4', ST_GeomFromText('POLYGON((5 45,10 45,10 50,5 50,5 45))', 4326)),
 (5, 'z5', ST_GeomFromText('POLYGON((-2 42,2 42,3 46,-1 48,-3 45,-2 42))', 4326))

-- @ setup/zones_rings
INSERT INTO zones SELECT 100 + z, 'ring ' || z, ST_GeomFromText('POLYGON((' || (SELECT string_agg(round((-9 + (z % 10) * 2 + (0.4 + 0.1 * (((v % 24) * 7 + z) % 5)) * cos(2 * pi() * (v % 24) / 24))::numeric, 4) || ' ' || round((40.5 + (z / 10) * 2 + (0.4 + 0.1 * (((v % 24) * 7 + z) % 5)) * sin(2 * pi() * (v % 24) / 24))::numeric, 4), ',' ORDER BY v) FROM generate_series(0, 24) AS v) || '))', 4326) FROM generate_series(0, 39) AS z

-- @ setup/analyze_pois
ANALYZE pois

-- @ setup/analyze_zones
ANALYZE zones
