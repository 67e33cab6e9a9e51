-- What must agree between the databases of pgdump_ranges_test.go.
SELECT t.typname, n.nspname, t.typtype, t.typcategory, format_type(t.typarray, NULL) FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace WHERE t.typtype IN ('r', 'm') AND n.nspname IN ('app', 'public') ORDER BY 1;
SELECT format_type(r.rngtypid, NULL), format_type(r.rngsubtype, NULL), format_type(r.rngmultitypid, NULL), r.rngcollation, r.rngsubdiff::text, r.rngcanonical::text, o.opcname FROM pg_range r JOIN pg_opclass o ON o.oid = r.rngsubopc WHERE r.rngtypid > 16384 ORDER BY 1;
SELECT a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a WHERE a.attrelid = 'app.bookings'::regclass AND a.attnum > 0 ORDER BY a.attnum;
SELECT id, during, spans, names, history FROM app.bookings ORDER BY id;
SELECT id FROM app.bookings WHERE during @> 4.5::float8 ORDER BY id;
SELECT id FROM app.bookings WHERE names @> 'bb'::text ORDER BY id;
SELECT app.floatrange(1, 2) + app.floatrange(2, 3), app.floatmultirange(app.floatrange(1, 2)), textranges(textrange('a', 'b'));
SELECT indexrelid::regclass, pg_get_indexdef(indexrelid) FROM pg_index WHERE indrelid = 'app.bookings'::regclass ORDER BY 1;
