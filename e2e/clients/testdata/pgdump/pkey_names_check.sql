SELECT conname, conrelid::regclass::text, pg_get_constraintdef(oid) FROM pg_constraint WHERE contype = 'p' AND connamespace = 'public'::regnamespace ORDER BY 1;
SELECT indexname, tablename FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1;
SELECT tgname, tgrelid::regclass::text, tgparentid <> 0 FROM pg_trigger WHERE NOT tgisinternal ORDER BY 2, 1;
INSERT INTO ev_us VALUES (2, 'us', 2);
SELECT * FROM ev ORDER BY id;
