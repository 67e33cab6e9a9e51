-- What TestPgDumpTriggers compares: the triggers' catalog rows and
-- definitions, then what they do.
SELECT tgname, tgtype, tgenabled, tgdeferrable, tginitdeferred, tgoldtable, tgnewtable FROM pg_trigger ORDER BY 1;
SELECT pg_get_triggerdef(oid) FROM pg_trigger ORDER BY tgname;
SELECT t.tgname, d.description FROM pg_description d JOIN pg_trigger t ON t.oid = d.objoid AND d.classoid = 'pg_trigger'::regclass ORDER BY 1;
INSERT INTO balances VALUES (1, 'ann', 2.5);
INSERT INTO accounts (id, owner, cents) VALUES (2, 'bob', 5);
BEGIN;
UPDATE accounts SET cents = 7 WHERE id = 2;
SELECT what FROM log ORDER BY seq;
COMMIT;
SELECT what FROM log ORDER BY seq;
SELECT id, owner, cents, updated_at IS NOT NULL FROM accounts ORDER BY id;
TRUNCATE accounts;
SELECT what FROM log ORDER BY seq;
