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

-- Ranges: an overlap is the box lower <= its upper, upper >= its lower on
-- the gist index's two bounds; the operator is rechecked on each row.
SELECT id FROM stays WHERE during && tstzrange('2024-01-01 00:00+00', '2024-01-08 00:00+00')

-- Containment of an instant, and a filter the index does not bound.
SELECT id FROM stays WHERE during @> timestamptz '2024-03-01 12:00+00' AND guest = 7
