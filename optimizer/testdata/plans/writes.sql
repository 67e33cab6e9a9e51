-- UPDATE and DELETE find their rows with the same rules.
UPDATE sensors SET name = 'x' WHERE id = 3

UPDATE sensors SET kind = 'y' WHERE region = 'eu' AND kind = 'x'

DELETE FROM readings WHERE sensor_id = 7 AND ts < '2024-01-01'

DELETE FROM readings WHERE lat BETWEEN 40.5 AND 40.9 AND lon BETWEEN -74.1 AND -73.7

-- A data-modifying WITH query runs first; the statement reads what it
-- returned through a CTE Scan. Its plan is shown after the statement's.
WITH moved AS (DELETE FROM tags WHERE sensor_id = 3 RETURNING *) INSERT INTO tags SELECT sensor_id + 100, tag FROM moved
