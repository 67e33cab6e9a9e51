-- What must agree between the databases of pgdump_schema_test.go.
SELECT t.typname, n.nspname, t.typtype FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace WHERE n.nspname = 'app' AND t.typtype IN ('e', 'd', 'c') AND t.typname <> 'entries' AND t.typname <> 'feelings' ORDER BY 1;
SELECT p.proname, n.nspname, pg_get_function_arguments(p.oid), pg_get_function_result(p.oid) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'app' ORDER BY 1;
SELECT e.enumlabel FROM pg_enum e WHERE e.enumtypid = 'app.mood'::regtype ORDER BY e.enumsortorder;
SELECT a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a WHERE a.attrelid = 'app.entries'::regclass AND a.attnum > 0 ORDER BY a.attnum;
SELECT id, m, moods, qty, p, n FROM app.entries ORDER BY id;
SELECT id, d, qty FROM app.feelings ORDER BY id;
SELECT id, m, pg_typeof(m) FROM public.notes;
BEGIN;
INSERT INTO app.entries (id, qty) VALUES (4, 2) RETURNING id, m, n;
ROLLBACK;
SELECT 'happy'::app.mood > 'sad'::app.mood, app.next_no(1), app.describe('sad');
SELECT o.oprname, n.nspname, o.oprkind, o.oprcode::regproc::text, c.oprname AS com, x.oprname AS neg FROM pg_operator o JOIN pg_namespace n ON n.oid = o.oprnamespace LEFT JOIN pg_operator c ON c.oid = o.oprcom LEFT JOIN pg_operator x ON x.oid = o.oprnegate WHERE n.nspname = 'app' ORDER BY 1;
SELECT e.id, e.qty OPERATOR(app.=~=) 3, e.qty OPERATOR(app.!~=) 3, OPERATOR(app.~~~) e.id, e.m::integer FROM app.entries e ORDER BY 1;
SELECT app.total(id) FROM app.entries;
SELECT castcontext, castmethod, castfunc::regproc::text FROM pg_cast WHERE castsource = 'app.mood'::regtype;
SELECT d.classoid::regclass::text, coalesce(n.nspname, p.proname, t.typname, c.relname, k.conname) AS object, d.objsubid, d.description FROM pg_description d LEFT JOIN pg_namespace n ON d.classoid = 'pg_namespace'::regclass AND n.oid = d.objoid LEFT JOIN pg_proc p ON d.classoid = 'pg_proc'::regclass AND p.oid = d.objoid LEFT JOIN pg_type t ON d.classoid = 'pg_type'::regclass AND t.oid = d.objoid LEFT JOIN pg_class c ON d.classoid = 'pg_class'::regclass AND c.oid = d.objoid LEFT JOIN pg_constraint k ON d.classoid = 'pg_constraint'::regclass AND k.oid = d.objoid WHERE d.description LIKE 'dump:%' ORDER BY 1, 2, 3;
