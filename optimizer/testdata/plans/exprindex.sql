-- A unique expression index, partial: the query binds its expression by
-- equality and implies its predicate, so one point get of the entry.
SELECT id FROM members WHERE lower(email) = 'ann@x.org' AND deleted_at IS NULL

-- The same without the predicate: the partial index may miss rows, so it
-- is rejected and the table is read whole.
SELECT id FROM members WHERE lower(email) = 'ann@x.org'

-- A range implying the predicate's range (score > 10 implies score > 0).
SELECT id FROM members WHERE score > 10 AND deleted_at IS NULL

-- A range that does not (score > -5 admits score = 0).
SELECT id FROM members WHERE score > -5 AND deleted_at IS NULL

-- An OR of equalities and an IN list, each value implying score > 0.
SELECT id FROM members WHERE (score = 3 OR score = 7) AND deleted_at IS NULL

SELECT id FROM members WHERE score IN (1, 2) AND deleted_at IS NULL

-- An expression key followed by a column: the expression's equality and
-- the column's range make the prefix; the index stores nick, which the
-- expression reads, so it covers.
SELECT nick, score FROM members WHERE lower(nick) = 'bo' AND score BETWEEN 1 AND 5

-- The expression written differently is another expression.
SELECT id FROM members WHERE upper(nick) = 'BO'

-- A Z-order index over an expression and two columns.
SELECT id FROM members WHERE lower(nick) = 'bo' AND lat BETWEEN 1 AND 2 AND lon BETWEEN 3 AND 4
