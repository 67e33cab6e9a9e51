-- A point inside a box: the box bounds the gist index's x and y, the
-- containment itself is rechecked on each row.
SELECT id FROM spots WHERE p <@ box '((1,2),(3,4))'

-- The nearest neighbours of a point: a z-order nearest scan under the
-- Sort and Limit, which order its candidates and break ties by id.
SELECT id FROM spots ORDER BY p <-> point '(10,20)', id LIMIT 5

-- With a filter the index does not bound: the scan keeps the rows that
-- pass it until the fifth nearest is settled.
SELECT id FROM spots WHERE kind = 'cafe' ORDER BY p <-> point '(10,20)' LIMIT 5

-- Descending distance is no nearest-neighbour search: every row is sorted.
SELECT id FROM spots ORDER BY p <-> point '(10,20)' DESC LIMIT 5

-- PostGIS points: the column of a typmod is cast to plain geometry to
-- reach the operators, and the gist index still serves the box...
SELECT id FROM pois WHERE geom && ST_MakeEnvelope(-74.0, 40.5, -73.98, 40.52, 4326)

-- ... a radius, as its bounding box ...
SELECT id FROM pois WHERE ST_DWithin(geom, ST_SetSRID(ST_MakePoint(-74, 40.5), 4326), 0.01)

-- ... and the nearest neighbours.
SELECT id FROM pois ORDER BY geom <-> ST_SetSRID(ST_MakePoint(-74, 40.5), 4326) LIMIT 10

-- Polygons: the gist index is a btree over each row's XZ2 code, and a
-- spatial predicate reads the code ranges of the cells whose enlarged
-- elements meet its box; the predicate is rechecked on each row.
SELECT id FROM zones WHERE ST_Intersects(geom, 'SRID=4326;POINT(-73.97 40.61)')

-- ... a radius, as its box grown by the distance ...
SELECT id FROM zones WHERE ST_DWithin(geom, 'SRID=4326;POINT(-73.97 40.61)', 0.01)

-- ... and the column on either side.
SELECT name FROM zones WHERE ST_Contains(ST_MakeEnvelope(-74, 40.6, -73.9, 40.7, 4326), geom)

-- ... and their nearest neighbours: an xz nearest scan, rings of the
-- point's box grown outward read as code ranges, the distance decided on
-- each row read.
SELECT id FROM zones ORDER BY geom <-> 'SRID=4326;POINT(-73.97 40.61)'::geometry, id LIMIT 3

-- A point-in-polygon join: no equality to look up by, so each zone's
-- geometry bounds a read of the points' gist index (a dynamic scan per
-- zone) and the predicate decides on each pair.
SELECT z.id, count(*) FROM zones z JOIN pois p ON ST_Within(p.geom, z.geom) GROUP BY z.id

-- Geography points: ST_DWithin in metres bounds longitude and latitude by
-- the box of its spherical cap; the distance decides on each row.
SELECT id FROM geoplaces WHERE ST_DWithin(g, 'SRID=4326;POINT(2.35 48.85)'::geography, 2000)

-- Ranges: an overlap is the box lower <= its upper, upper >= its lower on
-- the gist index's two bounds; the operator is rechecked on each row.
SELECT id FROM stays WHERE during && tstzrange('2024-01-01 00:00+00', '2024-01-08 00:00+00')

-- Containment of an instant, and a filter the index does not bound.
SELECT id FROM stays WHERE during @> timestamptz '2024-03-01 12:00+00' AND guest = 7
