SET client_min_messages = warning;
SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind IN ('r', 'v', 'm', 'S') ORDER BY 1;
SELECT table_name, column_name, data_type, is_nullable, column_default IS NOT NULL, is_identity FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1, ordinal_position;
SELECT conrelid::regclass::text, conname, contype, CASE WHEN contype = 'f' THEN confrelid::regclass::text END, CASE WHEN contype = 'f' THEN confdeltype END FROM pg_constraint WHERE connamespace = (SELECT oid FROM pg_namespace WHERE nspname = 'public') ORDER BY 1, 2;
SELECT i.indexrelid::regclass::text, i.indisunique, i.indisprimary FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' ORDER BY 1;
SELECT relname, obj_description(c.oid, 'pg_class') FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND obj_description(c.oid, 'pg_class') IS NOT NULL ORDER BY 1;
SELECT col_description('tasks'::regclass, 5);
SELECT last_value, is_called FROM accounts_id_seq;
SELECT last_value, is_called FROM invoice_no;
SELECT last_value, is_called FROM projects_id_seq;
SELECT * FROM accounts ORDER BY id;
SELECT * FROM projects ORDER BY id;
SELECT * FROM tasks ORDER BY project_id, seq;
SELECT * FROM open_tasks ORDER BY project_id, seq;
SELECT pg_get_indexdef('tasks_payload'::regclass), pg_get_indexdef('projects_tags'::regclass);
SELECT project_id, seq FROM tasks WHERE payload @> '{"due": "April"}' ORDER BY 1, 2;
SELECT id FROM projects WHERE tags @> '{spring}' ORDER BY 1;
-- A dump split into --schema-only and --data-only leaves a materialized view
-- unpopulated (its data is neither), in PostgreSQL as here: refresh first.
REFRESH MATERIALIZED VIEW task_counts;
SELECT * FROM task_counts ORDER BY project_id;
SELECT matviewname, hasindexes, ispopulated FROM pg_matviews ORDER BY 1;
SELECT nspname, obj_description(oid, 'pg_namespace') FROM pg_namespace WHERE nspname = 'audit';
SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'audit' ORDER BY 1;
SELECT conname, contype, pg_get_constraintdef(oid) FROM pg_constraint WHERE connamespace = (SELECT oid FROM pg_namespace WHERE nspname = 'audit') ORDER BY 1;
SELECT * FROM audit.events ORDER BY id;
SELECT * FROM audit.recent ORDER BY id;
SELECT last_value, is_called FROM audit.events_id_seq;
