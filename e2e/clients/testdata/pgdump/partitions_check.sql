-- What must agree between the databases of pgdump_partitions_test.go
-- (the INSERT draws from the identity sequence, which the rollback keeps:
-- RETURNING leaves out the id, which differs in the database dumped after).
SELECT c.relname, c.relkind, c.relispartition, pg_get_expr(c.relpartbound, c.oid) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname IN ('app', 'public') AND c.relkind IN ('r', 'p') ORDER BY 1;
SELECT inhrelid::regclass::text, inhparent::regclass::text FROM pg_inherits ORDER BY 1;
SELECT c.relname, i.indisunique, i.indisprimary, i.indisvalid, pg_get_indexdef(i.indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname IN ('app', 'public') ORDER BY 1;
SELECT conrelid::regclass::text, conname, contype, pg_get_constraintdef(oid) FROM pg_constraint WHERE connamespace IN ('app'::regnamespace, 'public'::regnamespace) ORDER BY 1, 2;
SELECT tableoid::regclass::text, id, at, kind, n FROM app.events ORDER BY id;
SELECT tableoid::regclass::text, t, label FROM public.tags ORDER BY t;
BEGIN;
INSERT INTO app.events (at, kind) VALUES ('2025-06-01', 'a') RETURNING tableoid::regclass::text, at, kind, n;
ROLLBACK;
