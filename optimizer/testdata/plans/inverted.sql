-- Containment of a document: jsonb_path_ops reads one posting list per
-- scalar (hashed with its path), fewer than jsonb_ops' keys and values.
SELECT id FROM products WHERE attrs @> '{"color": "red", "dims": {"w": 10}}'

-- A key: only jsonb_ops has key tokens.
SELECT id FROM products WHERE attrs ? 'color'

-- Any and all of several keys: an OR and an AND of posting lists.
SELECT id FROM products WHERE attrs ?| array['color', 'size']

SELECT id FROM products WHERE attrs ?& array['color', 'size']

-- The operator's function by name, as JDBC users write ? (its parameter
-- marker): served by the index as the operator is.
SELECT id FROM products WHERE jsonb_exists(attrs, 'color')

-- The empty document is contained in every one: the index cannot narrow
-- it, and the table is read whole.
SELECT id FROM products WHERE attrs @> '{}'

-- Arrays: containment ANDs the elements, overlap ORs them, containment by
-- adds the rows with an empty array.
SELECT id FROM products WHERE tags @> ARRAY['a', 'b']

SELECT id FROM products WHERE tags && ARRAY['a', 'b']

SELECT id FROM products WHERE sizes <@ ARRAY[1, 2]

-- Two conjuncts over the two columns of one index: one query over both.
SELECT id FROM products WHERE tags @> ARRAY['a'] AND sizes && ARRAY[3, 4]

-- An OR of containments on one index.
SELECT id FROM products WHERE attrs @> '{"color": "red"}' OR attrs @> '{"color": "blue"}'

-- An expression index.
SELECT id FROM products WHERE attrs -> 'brand' @> '"acme"'

-- A partial index whose predicate the query implies.
SELECT id FROM products WHERE tags @> ARRAY['x'] AND live

-- A key bound by equality wins over any inverted index (rule 2).
SELECT id FROM products WHERE sku = 'a-1' AND attrs @> '{"color": "red"}'

-- Hints: USE_INDEX names the inverted index to read, IGNORE_INDEX one not to.
SELECT /*+ USE_INDEX(products, products_attrs) */ id FROM products WHERE attrs @> '{"color": "red"}'

SELECT /*+ IGNORE_INDEX(products, products_attrs_path) */ id FROM products WHERE attrs @> '{"color": "red"}'


-- Trigrams (gin_trgm_ops): a LIKE pattern's words, padded where a
-- non-word character or the pattern's end bounds them, give the trigrams
-- every match has; a word beside a wildcard may continue, so that side is
-- not padded.
SELECT id FROM products WHERE title LIKE '%wool sock%'

SELECT id FROM products WHERE title ILIKE 'Red%'

-- Too short for a trigram: the table is read.
SELECT id FROM products WHERE title LIKE '%ab%'
