-- A set-returning function in the select list is a lateral join with the
-- function called per row (Apply), the select list reading its column.
SELECT id, generate_series(1, id) AS n FROM sensors WHERE id = 7

-- With constant arguments the function's rows are read once.
SELECT id, generate_series(1, 3) AS n FROM sensors WHERE id = 7

-- String functions and || stay in the residual filter and the projection;
-- the key still bounds the scan.
SELECT id, upper(name) || '/' || region FROM sensors WHERE id IN (1, 2) AND name LIKE 'a%' AND length(kind) > 2
