-- Every column of a unique index bound by equality: a point get of its
-- entry, then of the row (the index does not cover).
SELECT * FROM accounts WHERE email = 'ann@example.com'

-- The entry holds the primary key: a covering point get.
SELECT id FROM accounts WHERE email = 'ann@example.com'

-- IN lists expand to several keys.
SELECT id, region FROM accounts WHERE email IN ('ann@example.com', 'bob@example.com')

-- A two-column unique key.
SELECT * FROM accounts WHERE org = 7 AND handle = 'ann'

-- A bound prefix of a unique index is a range, not a point.
SELECT id, handle FROM accounts WHERE org = 7

-- The primary key still wins.
SELECT * FROM accounts WHERE id = 5 AND email = 'ann@example.com'

-- Writes find their rows the same way.
UPDATE accounts SET region = 'eu' WHERE email = 'ann@example.com'

-- A write names the checks and foreign keys it enforces.
UPDATE orders SET account_id = 6, amount = 2 WHERE id = 1

-- Deleting a referenced row reads the rows referencing it through their
-- automatic index, and cascades.
DELETE FROM accounts WHERE id = 5
